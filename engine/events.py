"""The event vocabulary: every ``Event.type`` the engine emits, spelled once (docs/engine-api.md)."""

from __future__ import annotations

from typing import Any, Literal

from .model import Event

EventType = Literal[
    # chips
    "ante",
    "payout",
    "transfer",
    "to_space",
    "move",
    # the round
    "round-start",
    "sit-out",
    "deal",
    "round-end",
    "abandoned",
    "eliminated",
    "cut",
    # spare hand, auctions, the optional suit
    "keep",
    "swap",
    "auction",
    "bid",
    "pass",
    "no-bids",
    "suit",
    # claims
    "unclaimed",
    # poker
    "choose",
    "check",
    "fold",
    "call",
    "bet",
    "raise",
    "showdown",
    "poker-win",
    # Michigan
    "play",
    "stop",
    "out",
    "stuck",
    "cannot-lead",
    "colour-flip",
    # Wanagan
    "passing",
    "pass-cards",
    "chosen",
    "reveal",
    "wanagan-end",
    # Rummy Royal corners
    "corner-decline",
    "corner-stays",
    # the game
    "game-end",
    "switch-preset",
    "playoff-hand",
    "playoff-hand-end",
]


def event(type: EventType, **fields: Any) -> Event:
    """An event of the vocabulary, its ``type`` first (as every saved and replayed event reads)."""
    return Event(type=type, **fields)
