"""Rummy Royal's corner Aces: the dealer may bet on one before the deal, the others may cover it,
and its holder takes the corner if they backed it."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import cards as C
from .. import events as ev
from ..language import N_
from ..model import Action, IllegalAction
from ..presets import CORNER
from ..reasons import Counted, cards
from .base import Phase
from .names import PhaseName
from .state import CornerState, Wait

if TYPE_CHECKING:
    from ..table import Table


class CornerBet(Phase):
    steps = ("corner-bet",)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.CORNER_BET, PhaseName.CORNER_COVER)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        if game.stacks[r.dealer] <= 0:
            return True
        aces = [sp.cards[0] for sp in game.spaces if sp.trigger == CORNER]
        return game.wait(
            r.dealer,
            PhaseName.CORNER_BET,
            ["corner_bet", "decline"],
            aces=aces,
            min=1,
            max=min(game.options.bet_limit, game.stacks[r.dealer]),
        )

    def check(self, game: Table, a: Action) -> None:
        if a.do != "corner_bet":
            return
        w = game.round.wait  # (the dealer's corner bet: asked alone)
        assert w is not None
        aces = w.detail["aces"]
        if (a.ace or "").upper() not in aces:
            raise IllegalAction(N_("bet on one of the corner Aces: {aces}"), aces=cards(aces))
        if a.amount is None or not 1 <= a.amount <= w.detail["max"]:
            top = w.detail["max"]
            raise IllegalAction(  # (the English says "chips" up to one chip too)
                Counted.ngettext("a corner bet is 1 to {max} chips", "a corner bet is 1 to {max} chips", top), max=top
            )

    def apply(self, game: Table, a: Action) -> bool:
        r = game.round
        if a.do == "decline":
            game.emit(ev.CornerDecline(seat=a.seat))
            if r.corner is None:  # the dealer declined to bet
                return True
            r.corner.queue.pop(0)
        elif a.do == "corner_bet":
            assert a.ace is not None and a.amount is not None
            ace = a.ace.upper()
            game.to_space(a.seat, "corner-" + ace, a.amount, "corner bet")
            r.corner = CornerState(
                ace, a.amount, [a.seat], [s for s in game.clockwise_from(game.next_active(r.dealer)) if s != r.dealer]
            )
        else:  # cover
            assert r.corner is not None
            r.corner.queue.pop(0)
            game.to_space(a.seat, "corner-" + r.corner.ace, r.corner.amount, "corner cover")
            r.corner.backers.append(a.seat)
        return self.cover_next(game)

    def cover_next(self, game: Table) -> bool:
        c = game.round.corner
        assert c is not None
        while c.queue:
            seat = c.queue[0]
            if game.stacks[seat] < c.amount:
                c.queue.pop(0)
                continue
            game.round.wait = cover_wait(c, seat)
            return False
        return True

    def together(self, game: Table) -> list[Wait]:
        """Every seat still asked that can match the bet: each covers from its own stack, unseen."""
        c = game.round.corner
        assert c is not None
        return [cover_wait(c, s) for s in c.queue if game.stacks[s] >= c.amount]


def cover_wait(c: CornerState, seat: int) -> Wait:
    return Wait(seat, PhaseName.CORNER_COVER, ["cover", "decline"], {"ace": c.ace, "amount": c.amount})


class CornerCollect(Phase):
    """After the spare-hand step the holder of the corner Ace takes the corner if they bet on it."""

    steps = ("corner-collect",)

    def start(self, game: Table, step: str) -> bool:
        c = game.round.corner
        if c is None:
            return True
        holder = game.holder(C.parse(c.ace), game.first_holder_start())
        space = "corner-" + c.ace
        if holder is not None and holder in c.backers:
            game.payout(space, holder, None, "corner ace")
        else:
            game.emit(ev.CornerStays(space=space, holder=holder))
        return True
