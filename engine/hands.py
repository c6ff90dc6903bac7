"""Poker hand evaluation (docs/rules.md "Poker hands").

Cards are the ints of :mod:`engine.cards` (``rank * 4 + suit``, rank 0..12 =
2..A). Several decks repeat the same ints, so duplicates are real: two A♥ in a
flush still make a flush, and five of a kind exists.

Values
------
:func:`evaluate` turns any number of cards (1..30; fewer than five are ranked
on what they hold: pairs, trips, four of a kind, high cards) into an ``int``:
the value of the best five-card hand. **Higher is better, equal is a tie**;
suits never rank. So the *worst* hand (Great Lakes "Losers Kitty") is simply
the lowest value: ``min(hands, key=evaluate)`` (or sort with
:func:`worst_key`).

The int is ``category << 20`` followed by five 4-bit rank fields, most
significant first, each holding ``rank + 1`` (0 = no card there, so a hand of
fewer cards loses to the same hand with an extra kicker)::

    category | 1st | 2nd | 3rd | 4th | 5th
    e.g. full house K over 5:  6 | K | 5 | - | - | -

Categories (:data:`CATEGORY_NAMES`): 9 five of a kind, 8 straight flush (the
ace-high one is *named* "royal flush"), 7 four of a kind, 6 full house,
5 flush, 4 straight, 3 three of a kind, 2 two pair, 1 one pair, 0 high card.
Ace is high, and low only in A-2-3-4-5 (a five-high straight).

Wild cards
----------
``wild`` is a set of card ints that are wild wherever they appear (Wanagan's
last reveal: K♥ 10♦ 7♠ 4♣). Each wild card in the hand stands for *any* card,
including a copy of a card already held (that is what makes five of a kind
possible with one deck); the best hand is taken. In a flush the wilds count as
aces of the flush suit.

Speed
-----
No five-card combinations are enumerated. The cards are summed once (a C-level
``sum(map(...))``) into one int holding a byte per rank count and per suit
count; biased additions then give the 13-bit masks "ranks held at least k
times" and "is there a suit with five cards", and precomputed 8192-entry
tables finish the job (see ``bench/bench_eval.py``).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

__all__ = [
    "HIGH_CARD",
    "ONE_PAIR",
    "PAIR",
    "TWO_PAIR",
    "THREE_OF_A_KIND",
    "STRAIGHT",
    "FLUSH",
    "FULL_HOUSE",
    "FOUR_OF_A_KIND",
    "STRAIGHT_FLUSH",
    "FIVE_OF_A_KIND",
    "CATEGORY_NAMES",
    "evaluate",
    "worst_key",
    "category_of",
    "category_name",
    "describe",
    "hand_ranks",
]

(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
) = range(10)
PAIR = ONE_PAIR

CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "five of a kind",
)

_ACE = 12
_CAT_SHIFT = 20
_FULL = 0x1FFF  # all 13 ranks

# ---------------------------------------------------------------------------
# Precomputed tables (built once at import, ~8192 entries each)
# ---------------------------------------------------------------------------

_N = 1 << 13
#: _DESC[m] = ranks of mask m, high to low
_DESC: list[tuple[int, ...]] = [()] * _N
for _m in range(1, _N):
    _t = _m.bit_length() - 1
    _DESC[_m] = (_t,) + _DESC[_m ^ (1 << _t)]
_POP = [len(d) for d in _DESC]
_TOPBIT = [0] + [1 << (_m.bit_length() - 1) for _m in range(1, _N)]


def _nibbles(ranks: Iterable[int], first: int) -> int:
    """Pack ranks (high first) into rank+1 nibbles starting at nibble ``first``."""
    v = 0
    pos = first
    for r in ranks:
        v |= (r + 1) << (4 * pos)
        pos -= 1
    return v


def _straight_top(mask: int, wilds: int = 0) -> int:
    """Top rank of the best straight in ``mask`` with ``wilds`` gap fillers, or -1."""
    if wilds >= 5:
        return _ACE
    need = 5 - wilds
    for top in range(_ACE, 3, -1):
        window = 0x1F << (top - 4)
        if _POP[mask & window] >= need:
            return top
    if _POP[mask & 0x100F] >= need:  # A-2-3-4-5, five high
        return 3
    return -1


def _top_k_table(k: int, first: int) -> list[int]:
    return [_nibbles(d[:k], first) for d in _DESC]


_STRTOP = [_straight_top(m) for m in range(_N)]
_STRV = [0 if t < 0 else (STRAIGHT << 20) | ((t + 1) << 16) for t in _STRTOP]
_SFV = [0 if t < 0 else (STRAIGHT_FLUSH << 20) | ((t + 1) << 16) for t in _STRTOP]
_HIGHV = _top_k_table(5, 4)  # high card (category 0)
_FLV = [(FLUSH << 20) | v for v in _HIGHV]
_K1AT3 = _top_k_table(1, 3)
_K2AT3 = _top_k_table(2, 3)
_K3AT3 = _top_k_table(3, 3)
_K1AT2 = _top_k_table(1, 2)
_FIRST = [0] + [(d[0] + 1) << 16 for d in _DESC[1:]]
_PAIRV = [(ONE_PAIR << 20) | v for v in _FIRST]
_TRIPV = [(THREE_OF_A_KIND << 20) | v for v in _FIRST]
_FHV = [(FULL_HOUSE << 20) | v for v in _FIRST]
_QUADV = [(FOUR_OF_A_KIND << 20) | v for v in _FIRST]
_FIVEV = [(FIVE_OF_A_KIND << 20) | v for v in _FIRST]
_TWOB = [0] * _N  # the two highest bits
_TWOV = [0] * _N
for _m in range(_N):
    _d = _DESC[_m]
    if len(_d) >= 2:
        _TWOB[_m] = (1 << _d[0]) | (1 << _d[1])
        _TWOV[_m] = (TWO_PAIR << 20) | _nibbles(_d[:2], 4)

# One int accumulates, per card, +1 in the byte of its rank (bytes 0..12) and
# +1 in the byte of its suit (bytes 13..16). The suit bytes start at 123 so a
# suit with 5+ cards sets bit 7 of its byte.
_CV = tuple((1 << (8 * (c >> 2))) | (1 << (8 * (13 + (c & 3)))) for c in range(52))
_SUIT_BIAS = sum(123 << (8 * (13 + s)) for s in range(4))
_SUIT_HI = sum(0x80 << (8 * (13 + s)) for s in range(4))
_RANK_HI = sum(0x80 << (8 * r) for r in range(13))
#: _BIAS[k] added to the rank bytes sets bit 7 of a byte iff its count >= k
_BIAS = [sum((128 - k) << (8 * r) for r in range(13)) for k in range(6)]
#: spread mask (bit 7 of byte r) -> 13-bit rank mask
_SPREAD = {sum(0x80 << (8 * r) for r in _DESC[m]): m for m in range(_N)}
#: suit-hi bits -> suits with five or more cards
_FLSUITS = {
    sum(0x80 << (8 * (13 + s)) for s in suits): suits for n in range(5) for suits in itertools.combinations(range(4), n)
}
# distinct-card mask: suit s occupies bits 13*s .. 13*s+12
_BM = tuple(1 << (13 * (c & 3) + (c >> 2)) for c in range(52))

del _m, _t, _d


# ---------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------


class _Evaluate(Protocol):
    def __call__(self, cards: Sequence[int], wild: Collection[int] | None = None) -> int: ...


def _make_evaluate() -> _Evaluate:
    CVg = _CV.__getitem__
    BMg = _BM.__getitem__
    SP = _SPREAD
    H = _RANK_HI
    B1, B2, B3, B4, B5 = _BIAS[1:6]
    SUIT_BIAS = _SUIT_BIAS
    SUIT_HI = _SUIT_HI
    FLSUITS = _FLSUITS
    STRV, SFV, HIGHV, FLV = _STRV, _SFV, _HIGHV, _FLV
    K1AT3, K2AT3, K3AT3, K1AT2 = _K1AT3, _K2AT3, _K3AT3, _K1AT2
    PAIRV, TRIPV, FHV, QUADV, FIVEV = _PAIRV, _TRIPV, _FHV, _QUADV, _FIVEV
    TWOB, TWOV, TOPBIT, POP = _TWOB, _TWOV, _TOPBIT, _POP
    or_ = operator.or_
    reduce = functools.reduce

    def flush_path(cards: Sequence[int], acc: int, m1: int) -> int:
        # some suit holds five or more cards
        dm = reduce(or_, map(BMg, cards))
        suits = FLSUITS[acc & SUIT_HI]
        best = 0
        if STRV[m1]:  # a straight flush needs a straight in the ranks
            for s in suits:
                v = SFV[(dm >> (13 * s)) & 0x1FFF]
                if v > best:
                    best = v
            if best:
                m5 = SP[(acc + B5) & H]
                return FIVEV[m5] if m5 else best
        m3 = SP[(acc + B3) & H]
        if m3:
            m4 = SP[(acc + B4) & H]
            if m4:
                m5 = SP[(acc + B5) & H]
                if m5:
                    return FIVEV[m5]
                return QUADV[m4] | K1AT3[m1 ^ TOPBIT[m4]]
            rest = SP[(acc + B2) & H] ^ TOPBIT[m3]
            if rest:
                return FHV[m3] | K1AT3[rest]
        for s in suits:
            sm = (dm >> (13 * s)) & 0x1FFF
            if POP[sm] == ((acc >> (104 + 8 * s)) & 255) - 123:
                v = FLV[sm]
            else:  # duplicates in the suit (several decks)
                v = _dup_flush(cards, s)
            if v > best:
                best = v
        return best

    def evaluate(cards: Sequence[int], wild: Collection[int] | None = None) -> int:
        """Value of the best five-card poker hand in ``cards`` (higher is better).

        ``cards``: any number of card ints (duplicates allowed). ``wild``: card
        ints that are wild when held (each may stand for any card)."""
        if wild:
            if type(wild) is not frozenset and type(wild) is not set:
                wild = frozenset(wild)
            if not wild.isdisjoint(cards):
                return _evaluate_wild(cards, wild)
        acc = sum(map(CVg, cards), SUIT_BIAS)
        m1 = SP[(acc + B1) & H]
        if acc & SUIT_HI:
            return flush_path(cards, acc, m1)
        m2 = SP[(acc + B2) & H]
        if not m2:
            return STRV[m1] or HIGHV[m1]
        m3 = SP[(acc + B3) & H]
        if not m3:
            v = STRV[m1]
            if v:
                return v
            if m2 & (m2 - 1):
                return TWOV[m2] | K1AT2[m1 ^ TWOB[m2]]
            return PAIRV[m2] | K3AT3[m1 ^ m2]
        m4 = SP[(acc + B4) & H]
        if m4:
            m5 = SP[(acc + B5) & H]
            if m5:
                return FIVEV[m5]
            return QUADV[m4] | K1AT3[m1 ^ TOPBIT[m4]]
        rest = m2 ^ TOPBIT[m3]
        if rest:
            return FHV[m3] | K1AT3[rest]
        v = STRV[m1]
        if v:
            return v
        return TRIPV[m3] | K2AT3[m1 ^ TOPBIT[m3]]

    return evaluate


def _dup_flush(cards: Iterable[int], suit: int) -> int:
    ranks = sorted((c >> 2 for c in cards if c & 3 == suit), reverse=True)
    return (FLUSH << 20) | _nibbles(ranks[:5], 4)


evaluate = _make_evaluate()


# ---------------------------------------------------------------------------
# Wild cards (rare: a direct but plainer path)
# ---------------------------------------------------------------------------


@functools.cache
def _wild_straight_top(mask: int, wilds: int) -> int:
    return _straight_top(mask, wilds)


def _as_set(wild: Collection[int] | None) -> frozenset[int] | set[int]:
    if not wild:
        return frozenset()
    if isinstance(wild, (set, frozenset)):
        return wild
    return frozenset(wild)


class _Counts:
    """Rank and suit statistics of the natural (non-wild) cards."""

    __slots__ = ("nat", "w", "n", "cnt", "m1", "suit_mask", "suit_ranks")

    def __init__(self, cards: Sequence[int], wild: Collection[int]):
        self.nat = nat = [c for c in cards if c not in wild] if wild else list(cards)
        self.n = len(cards)
        self.w = self.n - len(nat)
        cnt = [0] * 13
        suit_mask = [0, 0, 0, 0]
        suit_ranks: list[list[int]] = [[], [], [], []]
        for c in nat:
            r = c >> 2
            cnt[r] += 1
            suit_mask[c & 3] |= 1 << r
            suit_ranks[c & 3].append(r)
        self.cnt, self.suit_mask, self.suit_ranks = cnt, suit_mask, suit_ranks
        self.m1 = suit_mask[0] | suit_mask[1] | suit_mask[2] | suit_mask[3]

    def kickers(self, exclude: Collection[int], k: int, spare_wilds: int) -> list[int]:
        """Top ``k`` kicker ranks: spare wilds (as aces) first, then naturals."""
        out = [_ACE] * min(spare_wilds, k)
        for r in _DESC[self.m1]:
            if len(out) >= k:
                break
            if r not in exclude:
                out.append(r)
        return out[:k]


def _value(cat: int, ranks: Sequence[int]) -> int:
    return (cat << 20) | _nibbles(ranks, 4)


def _wild_of_a_kind(st: _Counts, k: int, category: int) -> int:
    """The highest rank that wild cards can make k of a kind, with the best kickers (caller checked one exists)."""
    cnt, w, n = st.cnt, st.w, st.n
    for r in range(_ACE, -1, -1):
        if cnt[r] + w >= k:
            spare = w - max(0, k - cnt[r])
            return _value(category, [r] + st.kickers((r,), min(5 - k, n - k), spare))
    raise AssertionError("no rank reaches k of a kind")


def _evaluate_wild(cards: Sequence[int], wild: Collection[int]) -> int:
    st = _Counts(cards, _as_set(wild))
    cnt, w, n = st.cnt, st.w, st.n
    desc = range(_ACE, -1, -1)
    ww = min(w, 5)
    c1, c0 = sorted(cnt)[-2:]  # the two longest ranks: the loops below only run when they can succeed
    if n >= 5:
        if c0 + w >= 5:
            for r in desc:
                if cnt[r] + w >= 5:
                    return _value(FIVE_OF_A_KIND, (r,))
        best = max(_wild_straight_top(sm, ww) for sm in st.suit_mask)
        if best >= 0:
            return _value(STRAIGHT_FLUSH, (best,))
    if n >= 4 and c0 + w >= 4:
        return _wild_of_a_kind(st, 4, FOUR_OF_A_KIND)
    if n >= 5:
        fh = min(max(0, 3 - c0) + max(0, 2 - c1), max(0, 3 - c1) + max(0, 2 - c0)) <= w
        for t in desc if fh else ():
            need_t = max(0, 3 - cnt[t])
            if need_t > w:
                continue
            for p in desc:
                if p != t and need_t + max(0, 2 - cnt[p]) <= w:
                    return _value(FULL_HOUSE, (t, p))
        best = 0
        for s in range(4):
            if len(st.suit_ranks[s]) + w >= 5:
                ranks = [_ACE] * w + sorted(st.suit_ranks[s], reverse=True)
                best = max(best, _value(FLUSH, ranks[:5]))
        if best:
            return best
        top = _wild_straight_top(st.m1, ww)
        if top >= 0:
            return _value(STRAIGHT, (top,))
    if n >= 3 and c0 + w >= 3:
        return _wild_of_a_kind(st, 3, THREE_OF_A_KIND)
    if n >= 4:
        for p1 in desc:
            need1 = max(0, 2 - cnt[p1])
            if need1 > w:
                continue
            for p2 in range(p1 - 1, -1, -1):
                need = need1 + max(0, 2 - cnt[p2])
                if need <= w:
                    kick = st.kickers((p1, p2), min(1, n - 4), w - need)
                    return _value(TWO_PAIR, [p1, p2] + kick)
    if n >= 2:
        for r in desc:
            if cnt[r] + w >= 2:
                spare = w - max(0, 2 - cnt[r])
                return _value(ONE_PAIR, [r] + st.kickers((r,), min(3, n - 2), spare))
    return _value(HIGH_CARD, st.kickers((), min(5, n), w))


# ---------------------------------------------------------------------------
# Reading values
# ---------------------------------------------------------------------------

_RANK_WORD = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_RANK_PLURAL = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)


def category_of(value: int) -> int:
    """The category (0 high card .. 9 five of a kind) of a hand value."""
    return value >> 20


def hand_ranks(value: int) -> tuple[int, ...]:
    """The rank fields of a value, most significant first (rank 0..12; empty fields dropped).

    E.g. full house kings over fives -> (11, 3); a straight -> (its top rank,)."""
    out = []
    for pos in (16, 12, 8, 4, 0):
        nib = (value >> pos) & 15
        if nib:
            out.append(nib - 1)
    return tuple(out)


# Hand names as ``category_name`` gives them, weakest first (a royal flush above other straight flushes).
NAMES_BY_STRENGTH: tuple[str, ...] = (
    *CATEGORY_NAMES[: STRAIGHT_FLUSH + 1],
    "royal flush",
    *CATEGORY_NAMES[STRAIGHT_FLUSH + 1 :],
)


def name_strength(name: str | None) -> int:
    """How strong the hand named ``name`` (from ``category_name``) is: its place in
    ``NAMES_BY_STRENGTH``, or -1 for no hand's name. Compares hands known only by their names."""
    try:
        return NAMES_BY_STRENGTH.index(name or "")
    except ValueError:
        return -1


def category_name(value: int) -> str:
    """``"full house"``, ``"two pair"``, ...; the ace-high straight flush is ``"royal flush"``."""
    cat = value >> 20
    if cat == STRAIGHT_FLUSH and hand_ranks(value)[:1] == (_ACE,):
        return "royal flush"
    return CATEGORY_NAMES[cat]


def describe(value: int) -> str:
    """Readable hand, e.g. ``"Full house, kings over fives"``, ``"Straight, five high"``."""
    cat = value >> 20
    rk = hand_ranks(value)
    if not rk:
        return "No cards"
    a = rk[0]
    if cat == FIVE_OF_A_KIND:
        return f"Five of a kind, {_RANK_PLURAL[a]}"
    if cat == STRAIGHT_FLUSH:
        return "Royal flush" if a == _ACE else f"Straight flush, {_RANK_WORD[a]} high"
    if cat == FOUR_OF_A_KIND:
        return f"Four of a kind, {_RANK_PLURAL[a]}"
    if cat == FULL_HOUSE:
        return f"Full house, {_RANK_PLURAL[a]} over {_RANK_PLURAL[rk[1]]}"
    if cat == FLUSH:
        return f"Flush, {_RANK_WORD[a]} high"
    if cat == STRAIGHT:
        return f"Straight, {_RANK_WORD[a]} high"
    if cat == THREE_OF_A_KIND:
        return f"Three of a kind, {_RANK_PLURAL[a]}"
    if cat == TWO_PAIR:
        return f"Two pair, {_RANK_PLURAL[a]} and {_RANK_PLURAL[rk[1]]}"
    if cat == ONE_PAIR:
        return f"One pair, {_RANK_PLURAL[a]}"
    return f"High card, {_RANK_WORD[a]}"


def worst_key(value: int) -> int:
    """Sort key putting the worst hand first when sorting descending (lower value = worse)."""
    return -value
