"""The round's fixed steps: antes, the deal, and settling (nothing is left to settle by then)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from .base import Phase

if TYPE_CHECKING:
    from ..table import Table


class Ante(Phase):
    steps = ("ante",)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        for s in r.active:
            mult = r.dealer_mult if s == r.dealer else 1
            for sp in game.spaces:
                amount = r.ante * sp.ante * mult
                if amount == 0:
                    continue
                game.stacks[s] -= amount
                game.mat[sp.id] += amount
                game.emit(ev.Ante(seat=s, space=sp.id, amount=amount))
        return True


class Deal(Phase):
    """Turn order: left of the dealer first ... the dealer, then the spare hand right after the dealer."""

    steps = ("deal",)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        deck, r.deck = r.deck or [], None
        order = r.active  # already starts left of the dealer and ends with the dealer
        slots = len(order) + 1
        hands: list[list[int]] = [[] for _ in range(slots)]
        for i, card in enumerate(deck):
            hands[i % slots].append(card)
        for k, s in enumerate(order):
            r.hands[s] = hands[k]
        r.spare = hands[-1]
        game.emit(ev.Deal(cards={str(s): len(r.hands[s]) for s in order}, spare=len(r.spare)))
        return True


class Settle(Phase):
    """The last step of every preset's round: each space was paid (or left to carry) as it came up."""

    steps = ("settle",)

    def start(self, game: Table, step: str) -> bool:
        return True
