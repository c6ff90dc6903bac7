"""The story of a round, for players who looked away: every line of the round's log (the table
message's **Log** button, private and paged) and, when a round or the game ends, a message with
every hand that went to showdown and who collected each space and why.

Only public events are told (a showdown's hands are shown to everyone at the table), in the
words of the table's log (:func:`bot.messages.tablelines.describe_event`), names escaped (Discord text).
The round's results are the channel's: in the table's language; a log page is its reader's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import _, in_table_language, ngettext
from bot.messages.reveals import declaration, hand_name, reveal_heading, told_reveals
from bot.messages.tablelines import describe_event
from bot.messages.text import cards, escaped_view
from bot.tables.model import Table
from engine import events as ev
from engine.events import as_events
from engine.game import Game
from engine.viewtypes import GameView

EMBED_TEXT = 4000  # an embed description holds 4,096 characters; a page stays under it
RESULT_COLOUR = 0x2E8B57
LOG_COLOUR = 0x5865F2


def showdown_lines(event: ev.Showdown, view: Mapping[str, Any]) -> list[str]:
    """One line per hand shown down: ``Ann: K♠ K♥ K♦ 4♣ 4♦ — full house``."""
    names = {s["seat"]: s["name"] for s in view["seats"]}
    return [
        _("{name}: {cards} — {hand}").format(
            name=names[int(seat)] if int(seat) in names else _("seat {seat}").format(seat=seat),
            cards=cards(h.get("cards")),
            hand=hand_name(h.get("hand")),
        )
        for seat, h in event.hands.items()
    ]


def result_lines(events: Iterable[ev.Event | Mapping[str, Any]], view: Mapping[str, Any]) -> list[str]:
    """The hands shown down (Wanagan's reveals too) and every payout among ``events`` (records or
    their dicts), in order."""
    lines: list[str] = []
    records = as_events(events)
    reveals = iter(told_reveals(records))
    for event in records:
        if isinstance(event, ev.Reveal):
            told = next(reveals)
            lines.append(f"**{reveal_heading(event)}**")
            lines.extend(declaration(told, int(seat), view) for seat in event.hands)
        elif isinstance(event, ev.Showdown):
            lines.append(_("**Showdown**"))
            lines.extend(showdown_lines(event, view))
        elif isinstance(event, ev.Payout):
            line = describe_event(event, view)
            if line:
                lines.append(line)
    return lines


def fit(lines: list[str], limit: int = EMBED_TEXT) -> str:
    """``lines`` joined, the last ones left out (and counted) when they would pass ``limit``."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        left = len(lines) - i
        more = ngettext(
            "… and {count} more: see the **Log** button.", "… and {count} more: see the **Log** button.", left
        ).format(count=left)
        if used + len(line) + 1 > limit - len(more) - 1:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def result_embed(title: str, lines: list[str]) -> dict[str, Any]:
    return {"title": title[:256], "description": fit(lines), "color": RESULT_COLOUR}


def _round_events(game: Game, number: int) -> list[ev.Event]:
    for record in reversed(game.log):
        events: list[ev.Event] = record.get("events") or []  # a hand's record (Game.log), as saved
        if any(isinstance(e, ev.RoundStart) and e.round == number for e in events):
            return list(events)
    return []


@in_table_language
def round_embed(table: Table, number: int, view: GameView | None = None) -> dict[str, Any] | None:
    """Round ``number``'s results (its hands shown and who collected what), or None when nothing
    was shown or paid; ``view``: the public view, names escaped (made when not given)."""
    game = table.game
    if game is None:
        return None
    lines = result_lines(_round_events(game, number), view or escaped_view(game.view(None)))
    return result_embed(_("Round {number} — who collected what").format(number=number), lines) if lines else None


@in_table_language
def stories(
    table: Table, events: Iterable[ev.Event | Mapping[str, Any]], finished: bool = False
) -> list[dict[str, Any]]:
    """The result embeds due after an update's ``events`` (records or their dicts): one per round
    that ended, and the game's last hands (a board clearing, a playoff) when it is over."""
    game = table.game
    if game is None:
        return []
    records = as_events(events)
    view: GameView | None = None
    out = []
    last_end = -1
    for i, event in enumerate(records):
        if not isinstance(event, ev.RoundEnd):
            continue
        last_end = i
        view = view or escaped_view(game.view(None))
        embed = round_embed(table, event.round, view)
        if embed is not None:
            out.append(embed)
    if finished:
        view = view or escaped_view(game.view(None))
        lines = result_lines(records[last_end + 1 :], view)
        if lines:
            out.append(result_embed(_("Game over — the last hands"), lines))
    return out


def log_pages(table: Table, round_number: int) -> list[str]:
    """The log of the round before ``round_number`` and of that round, in pages (oldest first)."""
    return _paged({str(n): table.round_log(n) for n in (round_number - 1, round_number)})


def _paged(rounds: dict[str, list[str]]) -> list[str]:
    """Rounds' log lines (round number → lines) under a heading each, in pages of an embed."""
    lines: list[str] = []
    for number in sorted(rounds, key=int):
        story = rounds[number]
        if story:
            lines.append(_("**Round {number}**").format(number=number))
            lines.extend(f"› {line}" for line in story)
    pages: list[str] = []
    page: list[str] = []
    used = 0
    for line in lines or [_("Nothing has happened yet.")]:
        line = line[:EMBED_TEXT]
        if page and used + len(line) + 1 > EMBED_TEXT:
            pages.append("\n".join(page))
            page, used = [], 0
        page.append(line)
        used += len(line) + 1
    pages.append("\n".join(page))
    return pages


def log_embed(table: Table, round_number: int, page: int) -> tuple[dict[str, Any], int, int]:
    """The embed of one log page (the last page when ``page`` is past it), that page and the count."""
    pages = log_pages(table, round_number)
    page = max(0, min(page, len(pages) - 1))
    embed = {
        "title": _("{game} — the log of round {number}").format(game=_(table.preset_info.name), number=round_number),
        "description": pages[page],
        "color": LOG_COLOUR,
        "footer": {"text": page_footer(page, len(pages))},
    }
    return embed, page, len(pages)


def page_footer(page: int, pages: int) -> str:
    """``Page 2/3`` (``page``: from 0)."""
    return _("Page {page}/{pages}").format(page=page + 1, pages=pages)


def game_log_embed(
    table_id: int, preset: str, rounds: dict[str, list[str]], page: int
) -> tuple[dict[str, Any], int, int]:
    """A finished game's whole log (``rounds``: round number → lines, as saved with the game), one
    page of it (the last when ``page`` is past it), that page and the count."""
    from engine.presets import PRESETS

    pages = _paged(rounds)
    page = max(0, min(page, len(pages) - 1))
    name = _(PRESETS[preset].name) if preset in PRESETS else preset
    embed = {
        "title": _("{game} — the whole game's log (game {table})").format(game=name, table=table_id)[:256],
        "description": pages[page],
        "color": LOG_COLOUR,
        "footer": {"text": page_footer(page, len(pages))},
    }
    return embed, page, len(pages)
