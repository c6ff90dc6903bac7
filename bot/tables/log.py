"""What a table tells about its game: log lines for events and decisions, decision tokens.

The log is Discord text (names escaped: :func:`bot.messages.text.escape`); the wording is the engine's
(:mod:`engine.textview`). Only public facts are told: a chosen poker hand, a card still in a
hand, stay secret.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.messages.text import escape
from engine import Action, Game

log = logging.getLogger(__name__)

# Events worth a line in the table's log. Players' own decisions (check, bet, bid, keep…) are
# logged from the action itself; antes and the chips of bets/calls are not worth a line each.
LOGGED_EVENTS = frozenset(
    {
        "payout",
        "transfer",
        "to_space",
        "stop",
        "out",
        "poker-win",
        "suit",
        "cannot-lead",
        "colour-flip",
        "stuck",
        "unclaimed",
        "round-end",
        "game-end",
        "sit-out",
        "eliminated",
    }
)
QUIET_TO_SPACE = frozenset({None, "", "ante", "call", "bet", "raise"})
STOPPED = "stopped by the host"  # the engine's game-end reason for Game.end_now


def describe_event(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """One line for the table's event log, or None for events not worth a line.

    The wording is :func:`engine.textview.describe_event`'s (``view``: the public view, for
    names and space labels); only the public events in :data:`LOGGED_EVENTS` are told.
    """
    from engine.textview import describe_event as engine_text

    kind = event.get("type")
    if kind not in LOGGED_EVENTS:
        return None
    if kind == "to_space" and event.get("reason") in QUIET_TO_SPACE:
        return None
    if kind == "suit" and not event.get("suit"):
        return None
    if kind == "game-end" and event.get("reason") == STOPPED:
        return None  # the table's own line says who stopped the game
    try:
        line = engine_text(event, view)
    except (KeyError, IndexError, TypeError, ValueError):
        log.warning("could not describe a %s event", kind)
        return None
    if not line:
        return None
    line = line.strip("-= ")  # the terminal's "--- round 1 over ---" / "=== game over ===" frames
    return line[:1].upper() + line[1:]


def escaped_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view with every seat's name escaped for Discord (the table's log is Discord text)."""
    return {**view, "seats": [{**s, "name": escape(s["name"])} for s in view.get("seats", [])]}


def public_action_text(
    names: list[str], action: Action, events: Sequence[dict[str, Any]] = (), phase: str | None = None
) -> str:
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
