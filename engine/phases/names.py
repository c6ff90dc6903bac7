"""The names of the phases a game can be in, and their words: the one table the engine, the
pictures (``images``) and the bot read.

A ``PhaseName`` is what ``Awaiting.phase`` and ``Game.phase`` say (its value is the saved and
replayed name, ``"poker-betting"``); ``PHASE_TEXTS`` gives each its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PhaseName(StrEnum):
    # the decisions a seat is asked for
    SPARE_HAND = "spare-hand"
    AUCTION = "auction"
    SUIT_BID = "suit-bid"
    NAME_SUIT = "name-suit"
    CLAIM = "claim"
    CORNER_BET = "corner-bet"
    CORNER_COVER = "corner-cover"
    POKER_CHOOSE = "poker-choose"
    POKER_BETTING = "poker-betting"
    MICHIGAN_LEAD = "michigan-lead"
    MICHIGAN_PLAY = "michigan-play"
    WANAGAN_PASS = "wanagan-pass"
    WANAGAN_REVEAL = "wanagan-reveal"
    # where the game stands between decisions
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"  # the board clearing is pending
    FINISHED = "finished"


# Decisions every seat asked makes at once, none seeing another's (docs/rules-decisions.md): the
# poker five, Wanagan's passes and declarations, covering a corner bet. The others are in turn.
SIMULTANEOUS: frozenset[str] = frozenset(
    {PhaseName.POKER_CHOOSE, PhaseName.WANAGAN_PASS, PhaseName.WANAGAN_REVEAL, PhaseName.CORNER_COVER}
)


@dataclass(frozen=True, slots=True)
class PhaseText:
    """A phase in words: ``title`` heads a picture ("Poker: betting"), ``status`` says where the
    table stands ("poker betting"); for a decision, ``verb`` is what the seat is to do ("bet",
    as in "waiting for ann to bet") and ``prompt`` asks the seat for it."""

    title: str
    status: str
    verb: str | None = None
    prompt: str | None = None


PHASE_TEXTS: dict[PhaseName, PhaseText] = {
    PhaseName.SPARE_HAND: PhaseText(
        "Spare hand",
        "the dealer decides about the spare hand",
        "decide on the spare hand",
        "keep your hand, swap it blind for the spare, or auction the spare",
    ),
    PhaseName.AUCTION: PhaseText(
        "Auction of the spare hand",
        "auction for the spare hand",
        "bid for the spare hand",
        "bid for the spare hand, or pass",
    ),
    PhaseName.SUIT_BID: PhaseText(
        "Bidding for the pay suit",
        "bidding to name the pay suit",
        "bid for the pay suit",
        "bid for the right to name the pay suit, or pass",
    ),
    PhaseName.NAME_SUIT: PhaseText(
        "Naming the pay suit", "naming the pay suit", "name the pay suit", "name the pay suit"
    ),
    PhaseName.CLAIM: PhaseText(
        "Claims", "claiming a pay card", "claim a pay card", "claim your pay card before play goes on"
    ),
    PhaseName.CORNER_BET: PhaseText(
        "Corner Ace bet", "corner-Ace bet", "bet on a corner Ace", "bet on a corner Ace, or decline"
    ),
    PhaseName.CORNER_COVER: PhaseText(
        "Covering the corner bet", "covering the corner bet", "cover the corner bet", "cover the corner bet, or decline"
    ),
    PhaseName.POKER_CHOOSE: PhaseText(
        "Poker: choose five cards",
        "choosing poker hands",
        "choose poker cards",
        "choose the five cards of your poker hand",
    ),
    PhaseName.POKER_BETTING: PhaseText("Poker: betting", "poker betting", "bet", "check, bet, call, raise or fold"),
    PhaseName.MICHIGAN_LEAD: PhaseText("Michigan: lead", "Michigan: a lead", "lead", "lead a card"),
    PhaseName.MICHIGAN_PLAY: PhaseText("Michigan", "Michigan", "play", "play your card, or place a combination"),
    PhaseName.WANAGAN_PASS: PhaseText("Wanagan: pass cards", "passing cards", "pass cards", "pick the cards to pass"),
    PhaseName.WANAGAN_REVEAL: PhaseText(
        "Wanagan: choose and declare", "Wanagan reveal", "reveal", "pick five cards and the space you declare"
    ),
    PhaseName.ROUND_OVER: PhaseText("Round over", "round over"),
    PhaseName.GAME_OVER: PhaseText("Game over: clearing the board", "clearing the board"),
    PhaseName.FINISHED: PhaseText("Game finished", "game over"),
}
