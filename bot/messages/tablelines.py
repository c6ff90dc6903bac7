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

from bot.messages.notices import GAME_PLACE_LOST, LOBBY_PLACE_LOST
from bot.messages.reveals import reveal_lines, told_reveals
from bot.messages.text import escape, escaped_view, you_did
from bot.tables.log import worth_a_line
from bot.tables.telling import Line, Note
from engine import Action
from engine import events as ev
from engine.events import Event
from engine.rulebook import OPTION_TEXT, value_label
from engine.textview import describe_action, event_sentence
from engine.viewtypes import GameView

log = logging.getLogger(__name__)


def _named(sentence: str) -> Callable[..., str]:
    """A sentence naming one person: ``{name}``, escaped."""
    return lambda name: sentence.format(name=escape(name))


def _one_or_more(once: str, more: str) -> Callable[..., str]:
    """A sentence about ``name`` and a ``count``, one for a count of 1 and one for more."""
    return lambda name="", count=1: (once if count == 1 else more).format(name=escape(name), count=count)


def _by_manager(named: str, unnamed: str) -> Callable[..., str]:
    """A server manager's deed: ``named`` with their (escaped) name, ``unnamed`` without one."""
    return lambda name: named.format(name=escape(name)) if name else unnamed


LINES: dict[Line, Callable[..., str]] = {
    Line.OPENED: _named("{name} opened the table."),
    Line.TABLE_OPEN: lambda chips: f"Table open: you bought in for {chips} chips.",
    Line.REMATCH: lambda chips: f"Rematch! You bought in for {chips} chips.",
    Line.YOURE_IN: lambda chips: f"You're in! Bought in for {chips} chips.",
    Line.JOINED: _named("{name} joined."),
    Line.SAT_DOWN: _named("{name} sat down."),
    Line.JOINS_TABLE: _named("{name} joins the table."),
    Line.HOUSE_RULE: lambda rule, value: f"House rule: {OPTION_TEXT[rule].title}: {value_label(rule, value)}.",
    Line.HOUSE_RULE_SET: lambda rule, value: f"House rule set: {OPTION_TEXT[rule].title}: {value_label(rule, value)}.",
    Line.ADMIN_REMOVED: lambda admin, name: f"{escape(admin)} removed {escape(name)} from the table.",
    Line.LEFT: _named("{name} left."),
    Line.EVERYONE_LEFT: lambda: "Everyone left; the table is closed.",
    Line.NEW_HOST: _named("{name} is the host now."),
    Line.OFF_THE_TABLE: lambda name, chips: (
        f"{escape(name)} is off the table; their {chips} chips are back in their wallet."
    ),
    Line.YOU_LEFT_LOBBY: lambda chips: f"You left; {chips} chips are back in your wallet.",
    Line.REMOVED_TO_AI: _named("An AI plays {name}'s seat; they are cashed out at the end."),
    Line.LEFT_TO_AI: _named("{name} left; an AI plays the seat and they are cashed out at the end."),
    Line.REMOVED_TO_AI_NOW: _named("An AI plays {name}'s seat now; they are cashed out at the end."),
    Line.YOU_LEFT_GAME: lambda: "You left the game: an AI plays your seat and you're cashed out at the end.",
    Line.BEGINS: lambda game, players: f"{game} begins with {players} players.",
    Line.GAME_ON: lambda: "The game is on!",
    Line.DONE: lambda line, name: f"Done: {you_did(line, name)}",
    Line.BACK: _named("{name} is back."),
    Line.WELCOME_BACK: lambda: "Welcome back! Your seat is yours again.",
    Line.HOST_CLOSED: lambda: "The host closed the table; buy-ins are refunded.",
    Line.HOST_STOPPED: lambda: "The host stopped the game; everyone is cashed out.",
    Line.MANAGER_CLOSED: _by_manager(
        "{name} (Manage Server) closed the table; buy-ins are refunded.",
        "A server manager (Manage Server) closed the table; buy-ins are refunded.",
    ),
    Line.MANAGER_STOPPED: _by_manager(
        "{name} (Manage Server) stopped the game; everyone is cashed out.",
        "A server manager (Manage Server) stopped the game; everyone is cashed out.",
    ),
    Line.PLACE_LOST_LOBBY: lambda why: LOBBY_PLACE_LOST[why],
    Line.PLACE_LOST_GAME: lambda why: GAME_PLACE_LOST[why],
    Line.EVERY_PLAYER_LEFT: lambda: "Every player left, so the game ended.",
    Line.GAME_OVER: lambda: "Game over.",
    Line.LOBBY_EXPIRED: lambda: "Nobody started the game in time; buy-ins are refunded.",
    Line.LEFT_SERVER_TO_AI: _named(
        "{name} is no longer in this server: an AI plays their seat and they are cashed out at the end."
    ),
    Line.RAN_OUT_OF_TIME: _named("{name} ran out of time."),
    Line.TIMED_OUT_TO_AI: _one_or_more(
        "{name} timed out: an AI plays until they press **I'm back**.",
        "{name} timed out {count} times in a row: an AI plays until they press **I'm back**.",
    ),
    Line.AI_TAKEOVER_NOTICE: _one_or_more(
        "you ran out of time, so an AI is playing your seat now. Press **I'm back** on the table message to play again.",
        "you ran out of time {count} times in a row, so an AI is playing your seat now."
        " Press **I'm back** on the table message to play again.",
    ),
    Line.HOST_REMOVED: _named("The host removed {name} from the table."),
    Line.KICKED_FROM_LOBBY: lambda chips: (
        f"the host removed you from the table; your {chips} chips are back in your wallet."
    ),
    Line.KICKED_FROM_GAME: lambda: (
        "the host handed your seat to an AI; your chips stay yours and you're cashed out at the end."
    ),
    Line.VOTE_COUNTS: lambda votes, needed: f"Your vote counts: {votes} of the {needed} needed.",
    Line.VOTED_TO_AI: _named("The table voted: an AI plays {name}'s seat until they press **I'm back**."),
    Line.VOTED_AWAY_NOTICE: lambda: (
        "the other players voted an AI into your seat while you were away."
        " Press **I'm back** on the table message to play again."
    ),
}

# A decision's log line (``{action}``: the engine's sentence), with how it came to be made.
ACTION_NOTES = {
    Note.NONE: "{action}",
    Note.TIMED_OUT: "{action} (timed out)",
    Note.FORCED: "{action} (the only card to play)",
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
    names: Sequence[str], action: Action, events: Sequence[Event] = (), phase: str | None = None
) -> str:
    """What everyone may read about a decision, as a sentence with the seat's escaped name
    (:func:`engine.textview.describe_action`: a chosen poker hand stays secret); ``names``: the
    seats' names; ``events``: what applying it did; ``phase``: the phase it was decided in."""
    seats = [{"name": escape(name)} for name in names]
    return describe_action({"seats": seats}, action.to_dict(), events, phase)


class TableLines:
    """The :class:`bot.tables.telling.Teller` of Discord text, given to the table manager."""

    def say(self, line: Line, /, **facts: Any) -> str:
        return LINES[line](**facts)

    def events(self, events: Sequence[Event], view: GameView) -> list[str]:
        return log_lines(events, escaped_view(view))

    def action(
        self, names: Sequence[str], action: Action, events: Sequence[Event], phase: str | None, note: Note = Note.NONE
    ) -> str:
        return ACTION_NOTES[note].format(action=public_action_text(names, action, events, phase))


TABLE_LINES = TableLines()
