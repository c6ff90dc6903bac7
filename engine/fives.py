"""Choosing five cards from a hand: the best five for poker, the worst five for a Losers Kitty."""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

from .cards import RANKS
from .hands import (
    _ACE,
    _DESC,
    _HIGHV,
    _N,
    _POP,
    _STRTOP,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    _as_set,
    category_name,
    describe,
    evaluate,
    hand_ranks,
)


class HandResult(NamedTuple):
    value: int
    category: int
    name: str
    cards: tuple[int, ...]

    @property
    def description(self) -> str:
        return describe(self.value)

    def __str__(self) -> str:  # e.g. "Full house, kings over fives: KS KH KD 5C 5S"
        return f"{describe(self.value)}: " + " ".join(RANKS[c >> 2] + "CDHS"[c & 3] for c in self.cards)


def _result(value: int, cards: Iterable[int]) -> HandResult:
    return HandResult(value, value >> 20, category_name(value), tuple(cards))


def _straight_ranks(top: int) -> list[int]:
    return [3, 2, 1, 0, _ACE] if top == 3 else list(range(top, top - 5, -1))


def _groups(value: int) -> list[tuple[int, int]]:
    """(rank, how many) in significance order, for the non-suited categories."""
    cat = value >> 20
    rk = hand_ranks(value)
    if cat == STRAIGHT:
        return [(r, 1) for r in _straight_ranks(rk[0])]
    sizes = {
        FIVE_OF_A_KIND: (5,),
        FOUR_OF_A_KIND: (4, 1),
        FULL_HOUSE: (3, 2),
        THREE_OF_A_KIND: (3, 1, 1),
        TWO_PAIR: (2, 2, 1),
        ONE_PAIR: (2, 1, 1, 1),
        HIGH_CARD: (1, 1, 1, 1, 1),
    }[cat]
    return list(zip(rk, sizes))


def best_five(cards: Sequence[int], wild: Collection[int] | None = None) -> HandResult:
    """The best five-card hand in ``cards``: its value, category, name and the
    five cards (taken from ``cards``; wild cards included as held). With fewer
    than five cards, all of them."""
    cards = list(cards)
    wild = _as_set(wild)
    value = evaluate(cards, wild)
    if len(cards) <= 5:
        return _result(value, _order_cards(cards, value, wild))
    nat = [c for c in cards if c not in wild]
    wilds = [c for c in cards if c in wild]
    cat = value >> 20
    rk = hand_ranks(value)

    def take(rank: int, suit: int | None) -> int:
        for i, c in enumerate(nat):
            if c >> 2 == rank and (suit is None or c & 3 == suit):
                return nat.pop(i)
        return wilds.pop()

    picked: list[int] = []
    if cat in (STRAIGHT_FLUSH, FLUSH):
        want = _straight_ranks(rk[0]) if cat == STRAIGHT_FLUSH else list(rk)
        for s in range(4):
            sub = [c for c in cards if c in wild or c & 3 == s]
            if len(sub) >= 5 and evaluate(sub, wild) == value:
                picked = [take(r, s) for r in want]
                break
    else:
        for rank, k in _groups(value):
            picked.extend(take(rank, None) for _ in range(k))
    return _result(value, picked)


def _order_cards(cards: list[int], value: int, wild: Collection[int]) -> list[int]:
    """Cards of a hand of five or fewer, in significance order (wilds last)."""
    rk = hand_ranks(value)
    order = {r: i for i, r in enumerate(reversed(rk))}
    return sorted(cards, key=lambda c: (c not in wild, order.get(c >> 2, -1), c >> 2), reverse=True)


@functools.lru_cache(maxsize=1)
def _high_card_masks() -> tuple[int, ...]:
    """Every five-rank set that is not a straight, worst high-card hand first."""
    masks = [m for m in range(_N) if _POP[m] == 5 and _STRTOP[m] < 0]
    masks.sort(key=_HIGHV.__getitem__)
    return tuple(masks)


def worst_five(cards: Sequence[int], wild: Collection[int] | None = None) -> HandResult:
    """The five cards of ``cards`` making the LOWEST poker hand (e.g. the Great
    Lakes "Losers Kitty"). With five or fewer cards, all of them."""
    cards = list(cards)
    wild = _as_set(wild)
    if len(cards) <= 5:
        value = evaluate(cards, wild)
        return _result(value, _order_cards(cards, value, wild))
    nat = [c for c in cards if c not in wild]
    by_rank: list[list[int]] = [[] for _ in range(13)]
    for c in nat:
        by_rank[c >> 2].append(c)
    held = sum(1 << r for r in range(13) if by_rank[r])
    suits_of = [functools.reduce(operator.or_, (1 << (c & 3) for c in cs), 0) for cs in by_rank]
    # Best case: a high-card hand (five distinct ranks, no straight, not all one suit).
    for m in _high_card_masks():
        if m & ~held:
            continue
        ranks = _DESC[m]
        union = functools.reduce(operator.or_, (suits_of[r] for r in ranks))
        if union & (union - 1) == 0:
            continue  # every choice would be a flush
        picked = [by_rank[r][0] for r in ranks]
        if len({c & 3 for c in picked}) == 1:
            s = picked[0] & 3
            for i, r in enumerate(ranks):
                other = [c for c in by_rank[r] if c & 3 != s]
                if other:
                    picked[i] = other[0]
                    break
        return _result(_HIGHV[m], picked)
    # Otherwise (few distinct ranks, only straights/flushes, or wilds): search
    # the distinct five-card multisets; such a hand holds few distinct cards.
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    best: tuple[int, tuple[int, ...]] | None = None
    for combo in itertools.combinations_with_replacement(sorted(counts), 5):
        if any(combo.count(c) > counts[c] for c in set(combo)):
            continue
        v = evaluate(combo, wild)
        if best is None or v < best[0]:
            best = (v, combo)
    assert best is not None
    return _result(best[0], _order_cards(list(best[1]), best[0], wild))
