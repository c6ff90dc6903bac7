"""What a table tells about its game: log lines for events and decisions, decision tokens.

The log is Discord text (names escaped: :func:`bot.messages.text.escape`); the wording is the engine's
(:mod:`engine.textview`). Only public facts are told: a chosen poker hand, a card still in a
hand, stay secret.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.messages.reveals import reveal_lines, told_reveals
from bot.messages.text import escape
from engine import Action, Game
from engine import events as ev
from engine.events import EndReason, Event
from engine.textview import event_sentence

log = logging.getLogger(__name__)

# Events worth a line in the table's log. Players' own decisions (check, bet, bid, keep…) are
# logged from the action itself; antes and the chips of bets/calls are not worth a line each.
LOGGED_EVENTS: tuple[type[Event], ...] = (
    ev.Payout,
    ev.Transfer,
    ev.ToSpace,
    ev.Stop,
    ev.Out,
    ev.PokerWin,
    ev.PaySuit,
    ev.CannotLead,
    ev.ColourFlip,
    ev.Stuck,
    ev.Unclaimed,
    ev.RoundEnd,
    ev.GameEnd,
    ev.SitOut,
    ev.Eliminated,
    ev.Reveal,
)
QUIET_TO_SPACE = frozenset({"", "ante", "call", "bet", "raise"})


def worth_a_line(event: Event) -> bool:
    """Whether the table's log tells ``event``: a public event of :data:`LOGGED_EVENTS`, but not
    the chips of an ante or a bet, an unnamed suit, nor the host's stop (the table's own line
    says who stopped the game)."""
    match event:
        case ev.ToSpace():
            return event.reason not in QUIET_TO_SPACE
        case ev.PaySuit():
            return bool(event.suit)
        case ev.GameEnd():
            return event.reason is not EndReason.HOST_STOP
    return isinstance(event, LOGGED_EVENTS)


def describe_event(event: Event | Mapping[str, Any], view: dict[str, Any]) -> str | None:
    """One line for the table's event log, or None for events not worth a line.

    The wording is :func:`engine.textview.event_sentence`'s (``view``: the public view, for
    names and space labels), its first letter a capital; ``event``: a record or its dict."""
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


def log_lines(events: Sequence[Event], view: dict[str, Any]) -> list[str]:
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


def public_action_text(names: list[str], action: Action, events: Sequence[Event] = (), phase: str | None = None) -> str:
    """What everyone may read about a decision, as a sentence with the seat's escaped name
    (:func:`engine.textview.describe_action`: a chosen poker hand stays secret); ``names``: the
    seats' names; ``events``: what applying it did; ``phase``: the phase it was decided in."""
    from engine.textview import describe_action

    seats = [{"name": escape(name)} for name in names]
    return describe_action({"seats": seats}, action.to_dict(), events, phase)


# Claims (strict claims: each pay card waits for its owner's Claim!)


def decision_token(game: Game) -> str:
    """Which awaited decision this is: the number of events so far this round.

    A claim button carries it (``do.claim.<token>``), so a second, fast click on the same
    button can never claim the player's *next* pay card: once the first click is applied the
    round has more events and the old token no longer matches. It tells nothing about
    anyone's cards."""
    return str(game.decision_number())


def claim_is_public(game: Game) -> bool:
    """Whether the pay card being claimed is on the table (played in Michigan), so its space may
    be named publicly; a claim right after the deal is for a card still hidden in the hand."""
    return game.cards_on_table()
