"""The words of what a table tells (:mod:`bot.tables.telling`): its log lines, its answers to the
player who acted and its notices, as Discord text.

The table service says what happened (a :class:`~bot.tables.telling.Line` and its facts, the
game's events, a decision) and :class:`TableLines` words it here: names (as typed) escaped, each
sentence whole with named placeholders. The events' and decisions' wording is the engine's
(:mod:`engine.textview`); only public facts are told (a chosen poker hand, a card still in a
hand stay secret).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import READING, _, ngettext, reading
from bot.messages.notices import GAME_PLACE_LOST, LOBBY_PLACE_LOST
from bot.messages.reveals import reveal_lines, told_reveals
from bot.messages.text import escape, escaped_view
from bot.tables.log import worth_a_line
from bot.tables.telling import Line, Note
from engine import Action
from engine import events as ev
from engine.events import Event
from engine.language import N_
from engine.rulebook import OPTION_TEXT, value_label
from engine.textview import describe_action, event_sentence
from engine.viewtypes import GameView

log = logging.getLogger(__name__)


def _named(sentence: str) -> Callable[..., str]:
    """A sentence (marked with ``N_``) naming one person: ``{name}``, escaped."""
    return lambda name: _(sentence).format(name=escape(name))


def _one_or_more(sentence: Callable[[int], str]) -> Callable[..., str]:
    """A sentence about ``name`` and a ``count`` (``sentence``: its plural form for the count)."""
    return lambda name="", count=1: sentence(count).format(name=escape(name), count=count)


def _by_manager(named: str, unnamed: str) -> Callable[..., str]:
    """A server manager's deed: ``named`` with their (escaped) name, ``unnamed`` without one."""
    return lambda name: _(named).format(name=escape(name)) if name else _(unnamed)


def _fixed(sentence: str) -> Callable[[], str]:
    """A sentence (marked with ``N_``) with nothing to fill in."""
    return lambda: _(sentence)


def _house_rule(sentence: str) -> Callable[..., str]:
    """A house rule's line: ``{rule}``, its title, and ``{value}``, its value, in the language read."""
    return lambda rule, value: _(sentence).format(
        rule=_(OPTION_TEXT[rule].title), value=value_label(rule, value, READING.get().value)
    )


#: What follows an AI seat's name, by its level (part of the name, in the table's language).
AI_SEAT_TAGS = {"easy": N_("(Easy AI)"), "normal": N_("(Normal AI)"), "hard": N_("(Hard AI)")}


LINES: dict[Line, Callable[..., str]] = {
    Line.OPENED: _named(N_("{name} opened the table.")),
    Line.TABLE_OPEN: lambda chips: ngettext(
        "Table open: you bought in for {chips} chip.", "Table open: you bought in for {chips} chips.", chips
    ).format(chips=chips),
    Line.REMATCH: lambda chips: ngettext(
        "Rematch! You bought in for {chips} chip.", "Rematch! You bought in for {chips} chips.", chips
    ).format(chips=chips),
    Line.YOURE_IN: lambda chips: ngettext(
        "You're in! Bought in for {chips} chip.", "You're in! Bought in for {chips} chips.", chips
    ).format(chips=chips),
    Line.JOINED: _named(N_("{name} joined.")),
    Line.SAT_DOWN: _named(N_("{name} sat down.")),
    Line.AI_SEAT_TAG: lambda level: _(AI_SEAT_TAGS[level]),
    Line.JOINS_TABLE: _named(N_("{name} joins the table.")),
    Line.HOUSE_RULE: _house_rule(N_("House rule: {rule}: {value}.")),
    Line.HOUSE_RULE_SET: _house_rule(N_("House rule set: {rule}: {value}.")),
    Line.ADMIN_REMOVED: lambda admin, name: _("{admin} removed {name} from the table.").format(
        admin=escape(admin), name=escape(name)
    ),
    Line.LEFT: _named(N_("{name} left.")),
    Line.EVERYONE_LEFT: _fixed(N_("Everyone left; the table is closed.")),
    Line.NEW_HOST: _named(N_("{name} is the host now.")),
    Line.OFF_THE_TABLE: lambda name, chips: ngettext(
        "{name} is off the table; their {chips} chip is back in their wallet.",
        "{name} is off the table; their {chips} chips are back in their wallet.",
        chips,
    ).format(name=escape(name), chips=chips),
    Line.YOU_LEFT_LOBBY: lambda chips: ngettext(
        "You left; {chips} chip is back in your wallet.", "You left; {chips} chips are back in your wallet.", chips
    ).format(chips=chips),
    Line.REMOVED_TO_AI: _named(N_("An AI plays {name}'s seat; they are cashed out at the end.")),
    Line.LEFT_TO_AI: _named(N_("{name} left; an AI plays the seat and they are cashed out at the end.")),
    Line.REMOVED_TO_AI_NOW: _named(N_("An AI plays {name}'s seat now; they are cashed out at the end.")),
    Line.YOU_LEFT_GAME: _fixed(N_("You left the game: an AI plays your seat and you're cashed out at the end.")),
    Line.BEGINS: lambda game, players: _("{game} begins with {players} players.").format(game=_(game), players=players),
    Line.GAME_ON: _fixed(N_("The game is on!")),
    Line.DONE: lambda line: _("Done: {what}").format(what=line),
    Line.BACK: _named(N_("{name} is back.")),
    Line.WELCOME_BACK: _fixed(N_("Welcome back! Your seat is yours again.")),
    Line.HOST_CLOSED: _fixed(N_("The host closed the table; buy-ins are refunded.")),
    Line.HOST_STOPPED: _fixed(N_("The host stopped the game; everyone is cashed out.")),
    Line.MANAGER_CLOSED: _by_manager(
        N_("{name} (Manage Server) closed the table; buy-ins are refunded."),
        N_("A server manager (Manage Server) closed the table; buy-ins are refunded."),
    ),
    Line.MANAGER_STOPPED: _by_manager(
        N_("{name} (Manage Server) stopped the game; everyone is cashed out."),
        N_("A server manager (Manage Server) stopped the game; everyone is cashed out."),
    ),
    Line.PLACE_LOST_LOBBY: lambda why: _(LOBBY_PLACE_LOST[why]),
    Line.PLACE_LOST_GAME: lambda why: _(GAME_PLACE_LOST[why]),
    Line.EVERY_PLAYER_LEFT: _fixed(N_("Every player left, so the game ended.")),
    Line.GAME_OVER: _fixed(N_("Game over.")),
    Line.LOBBY_EXPIRED: _fixed(N_("Nobody started the game in time; buy-ins are refunded.")),
    Line.LEFT_SERVER_TO_AI: _named(
        N_("{name} is no longer in this server: an AI plays their seat and they are cashed out at the end.")
    ),
    Line.RAN_OUT_OF_TIME: _named(N_("{name} ran out of time.")),
    Line.TIMED_OUT_TO_AI: _one_or_more(
        lambda count: ngettext(
            "{name} timed out: an AI plays until they press **I'm back**.",
            "{name} timed out {count} times in a row: an AI plays until they press **I'm back**.",
            count,
        )
    ),
    Line.AI_TAKEOVER_NOTICE: _one_or_more(
        lambda count: ngettext(
            "you ran out of time, so an AI is playing your seat now."
            " Press **I'm back** on the table message to play again.",
            "you ran out of time {count} times in a row, so an AI is playing your seat now."
            " Press **I'm back** on the table message to play again.",
            count,
        )
    ),
    Line.HOST_REMOVED: _named(N_("The host removed {name} from the table.")),
    Line.KICKED_FROM_LOBBY: lambda chips: ngettext(
        "the host removed you from the table; your {chips} chip is back in your wallet.",
        "the host removed you from the table; your {chips} chips are back in your wallet.",
        chips,
    ).format(chips=chips),
    Line.KICKED_FROM_GAME: _fixed(
        N_("the host handed your seat to an AI; your chips stay yours and you're cashed out at the end.")
    ),
    Line.VOTE_COUNTS: lambda votes, needed: _("Your vote counts: {votes} of the {needed} needed.").format(
        votes=votes, needed=needed
    ),
    Line.VOTED_TO_AI: _named(N_("The table voted: an AI plays {name}'s seat until they press **I'm back**.")),
    Line.VOTED_AWAY_NOTICE: _fixed(
        N_(
            "the other players voted an AI into your seat while you were away."
            " Press **I'm back** on the table message to play again."
        )
    ),
}

# A decision's log line (``{action}``: the engine's sentence), with how it came to be made.
ACTION_NOTES = {
    Note.NONE: "{action}",
    Note.TIMED_OUT: N_("{action} (timed out)"),
    Note.FORCED: N_("{action} (the only card to play)"),
}


def describe_event(event: Event | Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """One line for the table's event log, or None for events not worth a line
    (:func:`bot.tables.log.worth_a_line`).

    The wording is :func:`engine.textview.event_sentence`'s (``view``: the public view, names
    escaped, for names and space labels), its first letter a capital; ``event``: a record or its dict."""
    try:
        record = Event.from_dict(event)
    except ValueError as exc:
        log.warning("could not read an event: %s", exc)
        return None
    if not worth_a_line(record):
        return None
    try:
        line = event_sentence(record, view)
    except (KeyError, IndexError, TypeError, ValueError):
        log.warning("could not describe a %s event", record.type)
        return None
    if not line:
        return None
    return line[:1].upper() + line[1:]


def log_lines(events: Sequence[Event], view: Mapping[str, Any]) -> list[str]:
    """The log's lines for ``events`` (records, in order; ``view``: names escaped): one per event
    worth a line, and a Wanagan reveal told seat by seat (its cards, space and verdict)."""
    lines: list[str] = []
    reveals = iter(told_reveals(events))
    for event in events:
        if isinstance(event, ev.Reveal):
            lines.extend(reveal_lines(next(reveals), view))
            continue
        line = describe_event(event, view)
        if line:
            lines.append(line)
    return lines


def public_action_text(
    names: Sequence[str], action: Action, events: Sequence[Event] = (), phase: str | None = None, *, you: bool = False
) -> str:
    """What everyone may read about a decision, as a sentence with the seat's escaped name
    (:func:`engine.textview.describe_action`: a chosen poker hand stays secret); ``names``: the
    seats' names; ``events``: what applying it did; ``phase``: the phase it was decided in;
    ``you``: said to the player who decided ("you keep the hand as dealt")."""
    seats = [{"name": escape(name)} for name in names]
    return describe_action({"seats": seats}, action.to_dict(), events, phase, you=you)


class TableLines:
    """The :class:`bot.tables.telling.Teller` of Discord text, given to the table manager."""

    def say(self, line: Line, /, **facts: Any) -> str:
        return LINES[line](**facts)

    def public(self, locale: str, line: Line, /, **facts: Any) -> str:
        with reading(locale):
            return self.say(line, **facts)

    def events(self, events: Sequence[Event], view: GameView) -> list[str]:
        return log_lines(events, escaped_view(view))

    def action(
        self,
        names: Sequence[str],
        action: Action,
        events: Sequence[Event],
        phase: str | None,
        note: Note = Note.NONE,
        *,
        you: bool = False,
    ) -> str:
        return (_(ACTION_NOTES[note]) if note != Note.NONE else ACTION_NOTES[note]).format(
            action=public_action_text(names, action, events, phase, you=you)
        )


TABLE_LINES = TableLines()
