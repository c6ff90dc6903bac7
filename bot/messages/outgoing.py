"""What the bot sends: messages built from a table's state, and the :class:`Sink` they go through.

An :class:`Outgoing` is a message as data (text, components, the view its picture is drawn
from); the :class:`~bot.discordio.publisher.Publisher` builds one at send time and hands it to the sink
(Discord in production, a recorder in tests).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.i18n import READING, _, in_table_language, reading
from bot.messages import handtext, story, tabletext, text
from bot.messages.components import Component, final_components, hand_components, lobby_components, mat_components
from bot.tables.model import DeadlineKind, Table, TableStatus
from engine import cards as C
from engine.viewtypes import GameView

MAX_CONTENT = text.MAX_CONTENT


class MessageGone(Exception):
    """The message to edit no longer exists."""


class DMForbidden(Exception):
    """The user does not accept DMs from the bot."""


# What Discord answers for a channel the bot can no longer use: it was deleted (10003 Unknown
# Channel), the bot lost its access or a permission there (50001 Missing Access, 50013 Missing
# Permissions: also after it was removed from the server), or it is a thread archived and locked
# (50083). Sending there again would only add invalid requests, which Discord limits per IP.
LOST_CHANNEL_CODES = frozenset({10003, 50001, 50013, 50083})


class ChannelLost(Exception):
    """A request to a channel the bot can no longer use (:data:`LOST_CHANNEL_CODES`)."""

    def __init__(self, channel_id: int, code: int) -> None:
        super().__init__(f"channel {channel_id} is lost to the bot (Discord error {code})")
        self.channel_id = channel_id
        self.code = code


@dataclass
class Outgoing:
    text: str
    components: list[Component] = field(default_factory=list)
    image: bytes | None = None
    image_name: str = "mat.png"
    alt: str | None = None
    view: dict[str, Any] | None = None  # what the image is drawn from (a view, or the standings' picture's)
    render: str | None = None  # which renderer: mat | hand | summary
    pings: tuple[int, ...] = ()  # the users this message notifies (its only live mentions)
    rendered: bool = False  # the image was rendered already (or could not be)
    embeds: list[dict[str, Any]] = field(default_factory=list)  # discord embed dicts
    keep_image: bool = False  # an edit that keeps the message's picture as it is (nothing uploaded)

    def clipped(self) -> str:
        if len(self.text) <= MAX_CONTENT:
            return self.text
        return self.text[: MAX_CONTENT - 1] + "…"


@dataclass(frozen=True)
class SentMessage:
    """One of the bot's messages as the channel shows it (:meth:`Sink.recent_messages`)."""

    id: int
    content: str
    custom_ids: tuple[str, ...] = ()  # of its buttons and selects


class Sink(Protocol):
    async def post(self, channel_id: int, out: Outgoing) -> int: ...

    async def edit(self, channel_id: int, message_id: int, out: Outgoing) -> None: ...

    async def dm(self, user_id: int, out: Outgoing) -> None: ...

    async def notice(self, channel_id: int, content: str, ping: int) -> None: ...

    async def strip(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        """Remove a message's buttons (``content``: and show this text instead)."""
        ...

    async def recent_messages(self, channel_id: int, since_id: int | None) -> list[SentMessage]:
        """The bot's own messages among the channel's newest 100 (newer than ``since_id``), oldest first."""
        ...

    async def delete(self, channel_id: int, message_id: int) -> None: ...

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int: ...

    async def archive(self, thread_id: int) -> None: ...

    async def find_message(self, channel_id: int, after_id: int | None, prefix: str) -> int | None:
        """Our newest message after ``after_id`` with a component whose custom_id starts with ``prefix``."""
        ...


@in_table_language
def lobby_message(table: Table) -> Outgoing:
    return Outgoing(tabletext.lobby_text(table, table.preset_info), lobby_components(table))


@in_table_language
def table_message(table: Table) -> Outgoing:
    """The message for a table's current state (lobby, mat, results)."""
    if table.status == TableStatus.LOBBY:
        return lobby_message(table)
    if table.status == TableStatus.CANCELLED:
        return Outgoing(tabletext.cancelled_text(table, table.preset_info), [])
    if table.status == TableStatus.FINISHED:
        return Outgoing(
            tabletext.final_text(table),
            final_components(table),
            view=summary_view(table),
            render="summary",
            image_name="summary.png",
        )
    view = round_dealer_view(table, table.running_game.view(None))
    # Between rounds the round's own message tells its results (one showdown per round in the channel).
    result = story.round_embed(table, table.round) if table.deadline_kind == DeadlineKind.NEXT_DEAL else None
    # The player to act is named with a mention but not notified here: the turn ping (bot.discordio.turns)
    # is the one notification, so a new round's post does not notify them twice.
    return Outgoing(
        tabletext.mat_text(table, view, told=result is not None),
        mat_components(table),
        view=picture_view(view, table.locale),
        render="mat",
        embeds=[result] if result else [],
    )


def round_dealer_view(table: Table, view: GameView) -> GameView:
    """The public view with the dealer mark on who dealt the round shown: once a round is over the
    engine's view names the next round's dealer, but that round's message is not about it yet."""
    log = table.game.log if table.game is not None else []
    dealer = log[-1].get("dealer") if log else None  # a hand's record (Game.log), as saved
    if dealer is None:
        return view
    shown = view.copy()
    shown["dealer"] = dealer
    shown["seats"] = [{**s, "is_dealer": s["seat"] == dealer} for s in view["seats"]]
    return shown


@in_table_language
def closed_round_message(table: Table, results: list[dict[str, Any]]) -> Outgoing:
    """The last round's message once the game is over: that round's mat as it ended, closed (no
    buttons, no turn), with its ``results`` (embeds); the standings come in a message of their own,
    posted last."""
    view = round_dealer_view(table, table.running_game.view(None))
    told = bool(results)
    content = text.closed_round_text(tabletext.mat_text(table, view, told=told), told=told)
    return Outgoing(content, [], view=picture_view(view, table.locale), render="mat", embeds=list(results))


@in_table_language
def summary_view(table: Table) -> dict[str, Any] | None:
    """What the standings picture is drawn from: each player's chips, net, pots won and best hand,
    and the game's highlights in words (the results; the game's view for results without them)."""
    result = table.result
    if not result:
        return {**table.game.view(None), "locale": table.locale} if table.game is not None else None
    return {
        "locale": table.locale,
        "preset_name": result.get("preset_name", table.preset),
        "standings": [
            {
                "name": s["name"],
                "stack": s["final"],
                "net": s["net"],
                "detail": tabletext.player_result(s) if "pots_won" in s else None,
            }
            for s in result.get("seats", [])
        ],
        "highlights": tabletext.highlight_lines(result, discord=False),
    }


# What the table message's text tells and its picture need not: the deadline, the last poker action
# and bet, the recent events. Blank in the picture's view, a move that changes only those edits the
# text and keeps the picture uploaded before. Whose turn it is stays in: the mat marks that seat.
def picture_view(view: GameView, locale: str) -> dict[str, Any]:
    """The public view the mat picture is drawn from, in the table's language: still a whole view (the
    renderers read every key, engine.viewtypes.GameView), its text-only parts blank."""
    shown: dict[str, Any] = {**view, "events": [], "standings": [], "locale": locale}
    poker = view["poker"]
    if poker is not None:
        shown["poker"] = {**poker, "last_action": "", "current_bet": 0}
    return shown


def image_digest(png: bytes | None) -> bytes | None:
    return hashlib.blake2b(png, digest_size=16).digest() if png else None


def wanagan_hint(table: Table, view: GameView) -> GameView:
    """The hand view of a Wanagan declaration with ``detail["makes"]``: the open spaces the whole
    hand can make (as poker's Best five), so the player sees where a claim can win."""
    detail = view.get("detail", {})  # NotRequired: only while the viewer may act, like legal
    if "reveal" not in view.get("legal", []) or table.game is None:
        return view
    hand, wild = C.parse_many(view["hand"] or []), C.parse_many(detail.get("wild") or [])
    makes = [sp for sp in detail.get("spaces") or [] if table.game.wanagan_qualifies(hand, sp, wild)]
    hinted = view.copy()
    hinted["detail"] = {**detail, "makes": makes}
    return hinted


def hand_message(
    table: Table, seat: int, view: GameView, choice: str | None = None, locale: str | None = None
) -> Outgoing:
    """A player's hand, private: its words and picture in ``locale``, its reader's (bot.i18n.choice:
    the interaction's or the DM's reader, whatever the table's); with no reader known, the table's."""
    with reading(locale or table.locale):
        hinted = wanagan_hint(table, view)
        return Outgoing(
            handtext.hand_text(hinted, seat),
            hand_components(table, seat, hinted, choice),
            view={**view, "locale": READING.get().value},
            render="hand",
            image_name="hand.png",
        )


async def settle(tasks: Callable[[], list[asyncio.Task[Any]]]) -> None:
    """Wait until none of ``tasks()`` runs (those waited for may start new ones)."""
    while True:
        busy = [t for t in tasks() if not t.done()]
        if not busy:
            return
        await asyncio.gather(*busy, return_exceptions=True)


def retryable(exc: BaseException) -> bool:
    """Whether sending again may work: rate limits, server errors and network trouble, yes;
    a request Discord refuses as such (400 bad request, 401, 403 missing access, 404), no."""
    if isinstance(exc, ChannelLost):
        return False
    status = getattr(exc, "status", None)
    return not (isinstance(status, int) and status in (400, 401, 403, 404))


def log_failure(logger: logging.Logger, exc: BaseException, what: str, *args: object) -> None:
    """Log a send that is given up: a channel that is lost is Discord's routine answer (one
    line at INFO: its tables end, bot.discordio.places), a refused token one line at WARNING (the
    gateway's 4004 stops the bot: bot.discordio.client), anything else an error with its traceback."""
    if isinstance(exc, ChannelLost):
        logger.info(what + " (%s)", *args, describe_error(exc))
    elif getattr(exc, "status", None) == 401:
        logger.warning(what + " (%s: the token was refused)", *args, describe_error(exc))
    else:
        logger.error(what, *args, exc_info=exc)


def describe_error(exc: BaseException) -> str:
    if isinstance(exc, ChannelLost):
        return f"ChannelLost {exc.code}"
    status = getattr(exc, "status", None)
    return f"{type(exc).__name__} {status}" if status else type(exc).__name__


# -- the publisher's own lines (bot.discordio.sending) -----------------------------------------


@in_table_language
def lobby_closed_message(table: Table) -> Outgoing:
    """A started game's lobby message, closed: who plays, and where (its thread, when it has one)."""
    lines = [
        _("## 🃏 {game} — game started").format(game=_(table.preset_info.name)),
        _("Players: {names}").format(names=", ".join(text.escape(seat.name) for seat in table.seats)),
    ]
    if table.thread_id:
        lines.append(_("Playing in <#{thread_id}>").format(thread_id=table.thread_id))
    return Outgoing("\n".join(lines), [])


@in_table_language
def thread_name(table: Table) -> str:
    """The name of the thread a table's game plays in."""
    return _("{game} — table {table_id}").format(game=_(table.preset_info.name), table_id=table.id)


def notice_by_dm(table: Table, notice: str) -> Outgoing:
    """A private notice about a table (``notice``: worded already, in its reader's language), by DM:
    which table, where (in the language being read: the notice's reader's, not the table's)."""
    return Outgoing(
        _("**{game}** in <#{channel_id}>: {notice}").format(
            game=_(table.preset_info.name), channel_id=table.channel_id, notice=notice
        )
    )


def notice_in_channel(user_id: int, notice: str) -> Outgoing:
    """The same notice in the table's channel (DMs closed), pinging only that player."""
    return Outgoing(f"<@{user_id}> {notice}", pings=(user_id,))
