"""What of a table may reach a web page: the one place that decides it.

:func:`public_table` copies the fields of the engine's spectator view (``view(None)``) that the pages
draw, and only those: no hand (the spectator view holds none, and it is not copied even so), no
chosen poker five, no sealed choice, no spare hand (only how many cards it has), no event list (the
pages tell a step by its log line, which is public by construction: :func:`step_lines`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.tables.log import log_lines
from engine import Action
from engine import events as ev
from engine.events import Event
from engine.textview import describe_action, event_sentence

SEAT_FIELDS = ("seat", "name", "stack", "cards", "status", "committed", "played", "is_dealer")
MAT_FIELDS = ("id", "label", "kind", "chips")
TOP_FIELDS = ("preset_name", "round", "ante", "phase", "dealer", "to_act", "acting", "pay_suit", "finished")


class NotTheSpectatorsView(ValueError):
    """A view of some seat (its hand in it) was handed to :func:`public_table`: a bug, refused."""


def _pick(item: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    return {name: item.get(name) for name in fields}


def public_table(view: dict[str, Any]) -> dict[str, Any]:
    """The page's table from a spectator view (``game.view(None)``): see the module's docstring."""
    if view.get("viewer") is not None:
        raise NotTheSpectatorsView(view.get("viewer"))
    out = _pick(view, TOP_FIELDS)
    out["seats"] = [_pick(seat, SEAT_FIELDS) for seat in view.get("seats") or []]
    out["mat"] = [_pick(space, MAT_FIELDS) for space in view.get("mat") or []]
    poker = view.get("poker") or {}
    out["poker"] = {
        "current_bet": poker.get("current_bet", 0),
        "last_action": poker.get("last_action"),
        "showdown": [
            {"seat": hand.get("seat"), "cards": list(hand.get("cards") or []), "hand": hand.get("hand")}
            for hand in poker.get("showdown") or []
        ],
        "winners": list(poker.get("winners") or []),
    }
    michigan = view.get("michigan") or {}
    out["michigan"] = {
        "sequence": list(michigan.get("sequence") or []),
        "last_card": michigan.get("last_card"),
        "out": michigan.get("out"),
    }
    spare = view.get("spare") or {}
    auction = spare.get("auction") or None
    out["spare"] = {
        "cards": int(spare.get("cards") or 0),
        "high_bid": auction.get("high_bid") if auction else None,
        "high_bidder": auction.get("high_bidder") if auction else None,
    }
    corner = view.get("corner") or None
    out["corner"] = {"ace": corner.get("ace"), "amount": corner.get("amount")} if corner else None
    out["standings"] = [_pick(row, ("seat", "name", "stack", "net")) for row in view.get("standings") or []]
    return out


def step_lines(before: dict[str, Any], action: Action | None, events: Sequence[Event]) -> list[str]:
    """The log lines of one step, as a spectator reads them: the decision in the table's public words
    (a chosen poker five stays secret), then what it did worth a line (``before``: the spectator view
    before the step, for the names and the phase it was decided in). Plain text: the pages escape it."""
    lines = []
    if action is not None:
        lines.append(describe_action(before, action.to_dict(), events, before.get("phase")))
    lines.extend(log_lines(list(events), before))
    return [line for line in lines if line]


def live_lines(events: Sequence[Event], view: dict[str, Any]) -> list[str]:
    """The live page's lines for ``events``: the table's log (:func:`bot.tables.log.log_lines`) and the
    decisions the events tell in the engine's public words (bets, calls, plays, "picks five poker
    cards": never a chosen card); the antes and the chips going to a space are left out."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, (ev.Ante, ev.ToSpace)):
            continue
        told = log_lines([event], view)
        if not told and not isinstance(event, ev.Reveal):
            sentence = event_sentence(event, view)
            told = [sentence[:1].upper() + sentence[1:]] if sentence else []
        lines.extend(told)
    return lines
