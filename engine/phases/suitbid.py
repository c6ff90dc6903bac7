"""The optional pay suit (Cadaco): an auction for naming the suit of the pay cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import cards as C
from .. import events as ev
from ..model import Action
from ..presets import SUIT_BID, UNNAMED_PAY_SUIT
from .auction import Sold, check_bid, open_auction, take_bid
from .base import Phase, unreadable
from .names import PhaseName

if TYPE_CHECKING:
    from ..table import Table


class SuitBid(Phase):
    steps = (SUIT_BID,)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.SUIT_BID, PhaseName.NAME_SUIT)

    def start(self, game: Table, step: str) -> bool:
        if not game.options.optional_suit:
            return True
        sold = open_auction(game, "suit", "", game.clockwise_from(game.round.dealer))
        return False if sold is None else self.sold(game, sold)

    def check(self, game: Table, a: Action) -> None:
        if a.do == "name_suit":
            try:
                C.parse_suit(a.suit or "")
            except ValueError as exc:
                raise unreadable(exc) from None
        else:
            check_bid(game, a)

    def apply(self, game: Table, a: Action) -> bool:
        if a.do == "name_suit":
            suit = C.parse_suit(a.suit or "")
            game.round.pay_suit = suit
            game.emit(ev.PaySuit(seat=a.seat, suit=C.SUITS[suit]))
            return True
        sold = take_bid(game, a)
        return False if sold is None else self.sold(game, sold)

    def sold(self, game: Table, sold: Sold) -> bool:
        if sold.winner is None:
            game.emit(ev.PaySuit(suit=UNNAMED_PAY_SUIT, reason="nobody bid"))
            return True
        assert game.kitty_id is not None
        game.to_space(sold.winner, game.kitty_id, sold.price, "suit bid")
        return game.wait(sold.winner, PhaseName.NAME_SUIT, ["name_suit"], suits=list(C.SUITS))
