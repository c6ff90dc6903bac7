"""The spare hand (widow): the dealer keeps it, swaps for it, or auctions it (docs/rules.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import events as ev
from ..language import N_
from ..model import Action
from .auction import Sold, check_bid, open_auction, pay_card_warning, take_bid
from .base import Phase
from .names import PhaseName

if TYPE_CHECKING:
    from ..table import Table


def spare_bidders(game: Table) -> list[int]:
    """Who may bid for the spare hand, in turn from the dealer's left (Rulebook: not with a money card)."""
    r = game.round
    bidders = [s for s in game.clockwise_from(game.left_of(r.dealer)) if s != r.dealer]
    if game.options.spare_hand == "rulebook":
        bidders = [s for s in bidders if not game.money_held(s)]
    return bidders


class SpareHand(Phase):
    steps = ("spare",)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.SPARE_HAND, PhaseName.AUCTION)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        if game.options.spare_hand == "none" or not r.spare:
            return True
        r.spare_stage = "decide"
        return self.decide(game)

    def decide(self, game: Table) -> bool:
        """Ask the dealer what to do with the spare hand now (True: nothing left to choose)."""
        r = game.round
        mode = game.options.spare_hand
        stage = r.spare_stage
        if stage == "decide":
            legal = ["keep", "swap", "auction"]
            if mode == "rummoli":
                legal = ["keep", "swap", "look", "auction"]
            if mode == "rulebook" and game.money_held(r.dealer):
                legal.remove("swap")
            if mode == "rulebook" and not spare_bidders(game):
                legal.remove("auction")
        elif stage == "after-swap":
            legal = ["keep", "auction"]
        else:  # after-auction
            legal = ["keep", "swap"]
        if legal == ["keep"]:
            return True
        warning = pay_card_warning(game, r.dealer, "swap") if "swap" in legal else {}
        return game.wait(r.dealer, PhaseName.SPARE_HAND, legal, stage=stage, spare_cards=len(r.spare), **warning)

    def check(self, game: Table, a: Action) -> None:
        check_bid(game, a)

    def apply(self, game: Table, a: Action) -> bool:
        r = game.round
        if a.do == "keep":
            game.emit(ev.Keep(seat=a.seat))
            return True
        if a.do in ("swap", "look"):
            swap_with_spare(game, a.seat, "looked" if a.do == "look" else "blind")
            if game.options.spare_hand in ("rulebook", "exchange-or-sell") or not spare_bidders(game):
                return True
            r.spare_stage = "after-swap"
            return self.decide(game)
        if a.do == "auction":
            sold = open_auction(game, "spare", r.spare_stage, spare_bidders(game))
        else:  # a bid or a pass
            sold = take_bid(game, a)
        return False if sold is None else self.sold(game, sold)

    def sold(self, game: Table, sold: Sold) -> bool:
        r = game.round
        if sold.winner is not None:
            game.transfer(sold.winner, r.dealer, sold.price, "spare hand")
            swap_with_spare(game, sold.winner, "bought")
            return True
        game.emit(ev.NoBids())
        if sold.stage == "decide" and game.options.spare_hand == "swap-or-auction":
            r.spare_stage = "after-auction"
            return self.decide(game)
        return True


def swap_with_spare(game: Table, seat: int, reason: str) -> None:
    r = game.round
    r.hands[seat], r.spare = r.spare, r.hands[seat]
    game.emit(ev.Swap(seat=seat, reason=reason))


def spare_auction_exclusions(game: Table) -> dict[int, str]:
    """The seats playing this round that may not bid for the spare hand, each with the rule that
    keeps it out (for telling players why they were skipped; in English, ``N_``-marked: the terminal
    looks it up)."""
    r = game.round
    bidders = set(spare_bidders(game))
    return {
        s: N_("the dealer, who sells it") if s == r.dealer else N_("a money card of this mat in hand")
        for s in r.active
        if s not in bidders
    }
