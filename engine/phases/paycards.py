"""Pay cards at the deal (``paycards=deal``): the holders of pay cards collect before play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..presets import CARD, COMBO, RUN
from .base import Phase
from .claims import pay_or_claim, wait_for_claims

if TYPE_CHECKING:
    from ..table import Table


def holds_run(hand: list[int], ranks: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds the whole run of ``ranks`` in one suit."""
    return any(all(rk * 4 + su in hand for rk in ranks) for su in range(4))


class PayCards(Phase):
    steps = ("paycards",)

    def start(self, game: Table, step: str) -> bool:
        if game.options.paycards != "deal":
            return True
        hands = game.round.hands
        order = game.clockwise_from(game.first_holder_start())
        for sp in game.spaces:
            if sp.trigger == CARD:
                card = game.space_cards(sp)[0]
                holder = next((s for s in order if card in hands[s]), None)
                if holder is not None:
                    pay_or_claim(game, sp.id, [holder], "held")
            elif sp.trigger == COMBO:
                need = game.space_cards(sp)
                holder = next((s for s in order if all(c in hands[s] for c in need)), None)
                if holder is not None:
                    pay_or_claim(game, sp.id, [holder], "held")
            elif sp.trigger == RUN:
                holders = [s for s in order if holds_run(hands[s], sp.ranks)]
                if holders:
                    pay_or_claim(game, sp.id, holders, "held")
        return wait_for_claims(game)

    def resume(self, game: Table) -> bool:
        """After a claim: the next claim, then the step is over."""
        return wait_for_claims(game)
