"""Auctions: bidding in turn for the spare hand or for the pay suit (the phases that sell use it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import events as ev
from ..model import Action, IllegalAction
from .names import PhaseName

if TYPE_CHECKING:
    from ..table import Table


@dataclass(slots=True)
class AuctionState:
    kind: str  # "spare" or "suit"
    stage: str  # the spare-hand stage the auction was opened from ("" for the suit)
    bidders: list[int]  # still bidding, in turn
    turn: int = 0  # index into ``bidders``
    high: int = 0
    high_bidder: int | None = None


@dataclass(slots=True)
class Sold:
    """How an auction closed: the high bidder (None: nobody bid) and the price."""

    kind: str
    stage: str
    winner: int | None
    price: int


def open_auction(game: Table, kind: str, stage: str, bidders: list[int]) -> Sold | None:
    game.round.auction = AuctionState(kind, stage, bidders)
    game.emit(ev.Auction(kind=kind))
    return ask_next(game)


def ask_next(game: Table) -> Sold | None:
    """Ask the next bidder in turn (None: waiting), or close the auction."""
    a = game.round.auction
    assert a is not None
    bidders = a.bidders
    while True:
        if not bidders or (len(bidders) == 1 and a.high_bidder == bidders[0]):
            game.round.auction = None
            return Sold(a.kind, a.stage, a.high_bidder, a.high)
        a.turn %= len(bidders)
        seat = bidders[a.turn]
        if game.stacks[seat] <= a.high:  # cannot outbid: passes by force
            game.emit(ev.Pass(seat=seat, kind=a.kind, forced=True))
            bidders.pop(a.turn)
            continue
        if a.kind == "suit":
            game.wait(
                seat,
                PhaseName.SUIT_BID,
                ["suit_bid", "pass"],
                min=a.high + 1,
                max=game.stacks[seat],
                high_bid=a.high,
                high_bidder=a.high_bidder,
            )
        else:
            from .spare import pay_card_warning

            game.wait(
                seat,
                PhaseName.AUCTION,
                ["bid", "pass"],
                min=a.high + 1,
                max=game.stacks[seat],
                high_bid=a.high,
                high_bidder=a.high_bidder,
                **pay_card_warning(game, seat, "buying the widow"),
            )
        return None


def check_bid(game: Table, a: Action) -> None:
    w = game.round.wait
    assert w is not None
    if a.do in ("bid", "suit_bid"):
        if a.amount is None:
            raise IllegalAction(f"{a.do} needs an amount")
        if a.amount < w.detail["min"]:
            raise IllegalAction(f"bid must be at least {w.detail['min']} (the high bid is {w.detail['high_bid']})")
        if a.amount > game.stacks[a.seat]:
            raise IllegalAction(f"bid {a.amount} is more than your {game.stacks[a.seat]} chips")


def take_bid(game: Table, a: Action) -> Sold | None:
    """Apply a bid or a pass; then ask the next bidder (None) or close the auction."""
    au = game.round.auction
    assert au is not None
    if a.do == "pass":
        game.emit(ev.Pass(seat=a.seat, kind=au.kind))
        au.bidders.pop(au.turn)
    else:
        assert a.amount is not None
        au.high, au.high_bidder = a.amount, a.seat
        game.emit(ev.Bid(seat=a.seat, amount=a.amount, kind=au.kind))
        au.turn += 1
    return ask_next(game)
