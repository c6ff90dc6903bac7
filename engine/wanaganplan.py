"""The heuristic AI's Wanagan reveal: one hand's statistics, read once, and five-card selections
built for the combination a space names (no enumeration of combinations)."""

from __future__ import annotations

import functools

from .fives import best_five
from .hands import evaluate

_EVENS_ODDS = ((0, 2, 4, 6, 8), (2, 4, 6, 8, 10), (12, 1, 3, 5, 7), (1, 3, 5, 7, 9), (3, 5, 7, 9, 11))
# (rank mask, ranks): five-rank windows, best first (straights Ace high down to A-2-3-4-5).
_STRAIGHT_WINDOWS = tuple(
    (sum(1 << r for r in rs), rs)
    for rs in (tuple(range(hi - 4, hi + 1)) if hi > 3 else (12, 0, 1, 2, 3) for hi in range(12, 2, -1))
)
_EVENS_ODDS_WINDOWS = tuple((sum(1 << r for r in rs), rs) for rs in _EVENS_ODDS)


@functools.cache
def _windows_met(mask: int, need: int, evens: bool) -> tuple[tuple[int, ...], ...]:
    """The straight (or evens/odds) rank windows, best first, holding at least ``need`` ranks of ``mask``."""
    return tuple(
        rs
        for window, rs in (_EVENS_ODDS_WINDOWS if evens else _STRAIGHT_WINDOWS)
        if (mask & window).bit_count() >= need
    )


# The Wanagan combinations a best five of each poker category (by its value) contains.
_BEST_COVERS: tuple[frozenset[str], ...] = (
    frozenset(),  # high card
    frozenset({"one-pair"}),
    frozenset({"one-pair", "two-pair"}),
    frozenset({"one-pair", "three-kind"}),
    frozenset({"straight"}),
    frozenset({"flush"}),
    frozenset({"one-pair", "two-pair", "three-kind", "full-house"}),
    frozenset({"one-pair", "three-kind", "four-kind"}),
    frozenset({"straight", "flush"}),
    frozenset({"one-pair", "three-kind", "four-kind"}),  # five of a kind
)
# The combinations natural cards cannot make when their best five is of each category.
_BEST_EXCLUDES: tuple[frozenset[str], ...] = (
    frozenset({"one-pair", "two-pair", "three-kind", "four-kind", "full-house", "straight", "flush"}),
    frozenset({"two-pair", "three-kind", "four-kind", "full-house", "straight", "flush"}),
    frozenset({"three-kind", "four-kind", "full-house", "straight", "flush"}),
    frozenset({"two-pair", "four-kind", "full-house", "straight", "flush"}),
    frozenset({"flush"}),  # straight
    frozenset({"four-kind", "full-house"}),  # flush
    frozenset({"four-kind"}),  # full house
    frozenset(),  # four of a kind
    frozenset(),  # straight flush
    frozenset(),  # five of a kind
)
_OF_A_KIND = {"one-pair": 2, "three-kind": 3, "four-kind": 4, "five-kind": 5}
_RANKS_DOWN = tuple(range(12, -1, -1))
_RANK_BIT = tuple(1 << r for r in range(13))
NO_WILD: frozenset[int] = frozenset()
_CATEGORY_KIND = {
    1: "one-pair",
    2: "two-pair",
    3: "three-kind",
    4: "straight",
    5: "flush",
    6: "full-house",
    7: "four-kind",
    8: "straight-flush",
    9: "five-kind",
}


class WanaganHand:
    """One hand's statistics for a Wanagan reveal, read once; five-card selections built on demand."""

    __slots__ = ("_best", "_mask", "_top", "_value", "by_rank", "hand", "ordered", "suits", "wild", "wilds")

    def __init__(self, hand: list[int], wild: frozenset[int]) -> None:
        self.hand = hand
        self.wild = wild
        if wild:
            self.wilds = sorted((c for c in hand if c in wild), reverse=True)
            nat = sorted((c for c in hand if c not in wild), reverse=True)
        else:
            self.wilds = []
            nat = sorted(hand, reverse=True)
        by_rank: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], []]
        suits = [0, 0, 0, 0]
        for c in nat:
            by_rank[c >> 2].append(c)
            suits[c & 3] += 1
        self.by_rank = by_rank
        self.suits = suits  # naturals per suit
        self.ordered = self.wilds + nat  # wild cards first, then naturals high to low
        self._top: list[int] | None = None
        self._best: tuple[int, list[int]] | None = None
        self._mask: int | None = None
        self._value = evaluate(hand, wild)  # the best five's value

    @property
    def mask(self) -> int:
        """Ranks held (naturals) as a 13-bit mask."""
        if self._mask is None:
            self._mask = sum(_RANK_BIT[r] for r, cs in enumerate(self.by_rank) if cs)
        return self._mask

    @property
    def by_suit(self) -> list[list[int]]:
        """Naturals per suit, high to low."""
        out: list[list[int]] = [[], [], [], []]
        for c in self.ordered[len(self.wilds) :]:
            out[c & 3].append(c)
        return out

    @property
    def top(self) -> list[int]:
        """Ranks by how many naturals are held, then by rank, highest first."""
        if self._top is None:
            counts = list(map(len, self.by_rank))
            self._top = sorted(_RANKS_DOWN, key=counts.__getitem__, reverse=True)  # stable: high rank first on ties
        return self._top

    def best(self) -> tuple[int, list[int]]:
        """(value, cards) of the hand's best five."""
        if self._best is None:
            value = self._value
            cat = value >> 20
            # The common categories: build the five directly (cheaper than best_five), then make sure.
            built = (
                [self.ordered[:5]] if cat == 0 else self._build(_CATEGORY_KIND[cat]) if cat in _CATEGORY_KIND else []
            )
            for cards in built:
                if len(cards) == 5 and evaluate(cards, self.wild) == value:
                    self._best = (value, cards)
                    break
            else:
                self._best = (value, list(best_five(self.hand, self.wild).cards))
        return self._best

    def value(self, cards: list[int]) -> int:
        return evaluate(cards, self.wild)

    def pick(self, sid: str, kind: str) -> tuple[list[int], int | None] | None:
        """(five cards, their value or None if not worked out) of a strong selection qualifying for
        ``sid`` (of combination ``kind``), or None when the hand cannot make it."""
        cat = self._value >> 20
        if kind in _BEST_COVERS[cat]:
            # The best five's category shows the combination (a wild card may stand for anything).
            value, cards = self.best()
            return cards, value
        if not self.wilds and kind in _BEST_EXCLUDES[cat]:
            return None  # the hand would hold a better five than its best
        built = self._build(kind)  # every selection built makes the combination (wild cards fill gaps)
        if len(built) <= 1:
            return (built[0], None) if built else None
        values = [self.value(cards) for cards in built]
        best = max(values)
        return built[values.index(best)], best

    def _fill(self, core: list[int]) -> list[int]:
        if len(core) >= 5:
            return core[:5]
        rest = list(self.ordered)
        for c in core:
            rest.remove(c)
        return core + rest[: 5 - len(core)]

    def _groups(self, *wants: tuple[int, int]) -> list[int] | None:
        core: list[int] = []
        spare = self.wilds
        for rank, k in wants:
            have = self.by_rank[rank][:k]
            need = k - len(have)
            if need > len(spare):
                return None
            core += have + spare[:need]
            spare = spare[need:]
        return core

    def _build(self, kind: str) -> list[list[int]]:
        """Candidate selections for one combination (few: the strongest ranks/suits that make it)."""
        by_rank, w = self.by_rank, len(self.wilds)
        k = _OF_A_KIND.get(kind)
        if k is not None:
            r = self.top[0]  # the longest rank (highest among equals): if it cannot make it, none can
            core = self._groups((r, max(k, min(len(by_rank[r]), 4))))
            return [] if core is None else [self._fill(core)]
        if kind == "two-pair":
            top = self.top
            core = self._groups((top[0], 2), (top[1], 2))
            return [] if core is None else [self._fill(core)]
        if kind == "full-house":
            top = self.top
            c0, c1 = len(by_rank[top[0]]), len(by_rank[top[1]])
            if min(max(0, 3 - c0) + max(0, 2 - c1), max(0, 3 - c1) + max(0, 2 - c0)) > w:
                return []  # the two longest ranks cannot make it: none can
            for a in top[:4]:
                if len(by_rank[a]) + w < 3:
                    continue
                for b in top[:4]:
                    if b != a:
                        core = self._groups((a, 3), (b, 2))
                        if core is not None:
                            return [core]
            return []
        if kind == "straight":
            met = _windows_met(self.mask, 5 - w, False)
            core = self._groups(*((r, 1) for r in met[0])) if met else None  # the highest straight
            return [] if core is None else [core]
        if kind == "flush":
            if max(self.suits) + w < 5:
                return []
            return [(cs + self.wilds)[:5] for cs in self.by_suit if len(cs) + w >= 5]
        if kind == "straight-flush":  # the best five only (no Wanagan space asks for it)
            out = []
            for cs in self.by_suit:
                if len(cs) + w < 5:
                    continue
                held = {c >> 2: c for c in cs}
                met = _windows_met(sum(_RANK_BIT[r] for r in held), 5 - w, False)
                if met:
                    spare = iter(self.wilds)
                    out.append([held[r] if r in held else next(spare) for r in met[0]])
            return out
        if kind == "evens-odds":
            out = []
            for rs in _windows_met(self.mask, 5 - w, True):
                core = self._groups(*((r, 1) for r in rs))
                if core is not None:
                    out.append(core)
            return out
        return []
