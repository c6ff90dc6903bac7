"""Great Lakes combination plays: a Full House or a 5-Card Straight placed onto the sequence."""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

from .. import cards as C
from ..model import Action
from .base import CARD_STRS, cards_of, unreadable

if TYPE_CHECKING:
    from ..table import Table


def combination_plays(game: Table, seat: int, last: int) -> dict[str, list[list[str]]]:
    """The Full House / 5-Card Straight plays ``seat`` could make onto ``last``.

    Full house: four cards of the hand that with ``last`` make a full house. Straight: the
    next card of the sequence plus one card of each of the next three ranks, any suit.
    """
    hand = game.round.hands[seat]
    combos = game.triggers.play_combos
    x = last >> 2
    out: dict[str, list[list[str]]] = {}
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        by_rank.setdefault(c >> 2, []).append(c)
    S = CARD_STRS
    if "full_house" in combos and x in by_rank:
        # Distinct choices only (several decks repeat cards): combinations of the distinct cards.
        xs = by_rank[x]
        x2 = _distinct_combos(xs, 2)
        x1 = sorted(set(xs))
        sets: list[tuple[int, ...]] = []
        for y, ys in by_rank.items():
            if y == x or len(ys) < 2:
                continue
            if x2:
                y2 = _distinct_combos(ys, 2)
                sets.extend(a + b for a in x2 for b in y2)
            if len(ys) >= 3:
                y3 = _distinct_combos(ys, 3)
                sets.extend((a,) + b for a in x1 for b in y3)
        if sets:
            sets.sort()
            out["full_house"] = [[S[a], S[b], S[c], S[d]] for a, b, c, d in sets]
    if "straight" in combos and x + 4 <= C.ACE and x + 2 in by_rank and x + 3 in by_rank and x + 4 in by_rank:
        ranks = [sorted(set(by_rank[x + k])) for k in (2, 3, 4)]
        nxt = S[last + 4]
        out["straight"] = [[nxt, S[a], S[b], S[c]] for a in ranks[0] for b in ranks[1] for c in ranks[2]]
    return out


def combo_cards(game: Table, a: Action) -> list[int]:
    """The cards of a ``full_house``/``straight`` action (a straight may omit the forced next card)."""
    try:
        cards = cards_of(a.cards or [])
    except ValueError as exc:
        raise unreadable(exc) from None
    nxt = game.round.michigan.last + 4
    if a.do == "straight" and len(cards) == 3 and nxt not in cards:
        cards = [nxt, *cards]
    return sorted(cards, key=lambda c: (c >> 2, c & 3))


def _distinct_combos(cards: list[int], k: int) -> tuple[tuple[int, ...], ...]:
    """The distinct sorted ``k``-card choices from ``cards`` (a card may repeat up to its count)."""
    if len(cards) < k:
        return ()
    return _distinct_sorted_combos(tuple(sorted(cards)), k)


@functools.lru_cache(maxsize=4096)
def _distinct_sorted_combos(cards: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(set(itertools.combinations(cards, k))))
