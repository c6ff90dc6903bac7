"""Auctions: bidding in turn for the spare hand or for the pay suit (the phases that sell use it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import cards as C
from .. import events as ev
from ..language import N_
from ..model import Action, IllegalAction
from ..reasons import Counted
from .names import PhaseName
from .state import AuctionState

if TYPE_CHECKING:
    from ..table import Table


@dataclass(slots=True)
class Sold:
    """How an auction closed: the high bidder (None: nobody bid) and the price."""

    kind: str
    stage: str
    winner: int | None
    price: int


#: Rummoli's advice to a player holding a pay card, by what they may do (``{cards}``: the engine's codes).
PAY_CARD_WARNINGS = {
    "swap": N_("you hold pay cards ({cards}): the rules advise against swapping your hand"),
    "buy": N_("you hold pay cards ({cards}): the rules advise against buying the widow"),
}


def pay_card_warning(game: Table, seat: int, doing: str) -> dict[str, str]:
    """Rummoli: players holding a pay card "should not" swap or buy the widow (``doing``: a key of
    :data:`PAY_CARD_WARNINGS`). A warning, not a bar: shown to that seat only (it is part of the
    decision's detail, in English)."""
    if game.options.spare_hand != "rummoli":
        return {}
    held = game.money_held(seat)
    if not held:
        return {}
    return {"warning": PAY_CARD_WARNINGS[doing].format(cards=" ".join(C.to_strs(held)))}


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
            game.wait(
                seat,
                PhaseName.AUCTION,
                ["bid", "pass"],
                min=a.high + 1,
                max=game.stacks[seat],
                high_bid=a.high,
                high_bidder=a.high_bidder,
                **pay_card_warning(game, seat, "buy"),
            )
        return None


#: A bid typed without its amount, by the move.
NO_AMOUNT = {"bid": N_("bid needs an amount"), "suit_bid": N_("suit_bid needs an amount")}


def check_bid(game: Table, a: Action) -> None:
    w = game.round.wait
    assert w is not None
    if a.do in ("bid", "suit_bid"):
        if a.amount is None:
            raise IllegalAction(NO_AMOUNT[a.do])
        if a.amount < w.detail["min"]:
            raise IllegalAction(
                N_("bid must be at least {min} (the high bid is {high})"),
                min=w.detail["min"],
                high=w.detail["high_bid"],
            )
        chips = game.stacks[a.seat]
        if a.amount > chips:
            raise IllegalAction(  # (the English says "chips" of one chip too)
                Counted.ngettext(
                    "bid {amount} is more than your {chips} chips",
                    "bid {amount} is more than your {chips} chips",
                    chips,
                ),
                amount=a.amount,
                chips=chips,
            )


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
