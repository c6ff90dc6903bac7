"""Named combinations (Wanagan): does a five-card selection contain one, and how does a claim on it rank."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .hands import (
    _ACE,
    _DESC,
    _POP,
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
    _Counts,
    _wild_straight_top,
    evaluate,
)


def contains(cards: Sequence[int], category: int, wild: Collection[int] | None = None) -> bool:
    """Do ``cards`` (normally a five-card selection) contain the combination ``category``?

    Combinations nest: a full house contains three of a kind, two pair and one
    pair; four of a kind contains three of a kind and one pair; a straight flush
    contains a straight and a flush. Two pair and a full house need two
    *different* ranks, so four (or five) of a kind does not contain two pair or
    a full house (unless wild cards can make them). A flush with duplicate cards
    (several decks) also contains the pairs among them. Each wild card may stand
    for any card, chosen afresh for each question. High card: always true."""
    wild = _as_set(wild)
    if len(cards) == 5 and category in _FAST_CATEGORIES and (not wild or wild.isdisjoint(cards)):
        # Five natural cards: the poker category tells (a flush may hide repeated cards: counted below).
        cat = evaluate(cards) >> 20
        if cat != FLUSH:
            return category in _CONTAINED[cat]
    st = _Counts(list(cards), wild)
    cnt, w, n = st.cnt, st.w, st.n
    ww = min(w, 5)
    if category == HIGH_CARD:
        return n >= 1
    if category == ONE_PAIR:
        return n >= 2 and max(cnt) + w >= 2
    if category == THREE_OF_A_KIND:
        return n >= 3 and max(cnt) + w >= 3
    if category == FOUR_OF_A_KIND:
        return n >= 4 and max(cnt) + w >= 4
    if category == FIVE_OF_A_KIND:
        return n >= 5 and max(cnt) + w >= 5
    if category in (TWO_PAIR, FULL_HOUSE):
        if n < (4 if category == TWO_PAIR else 5):
            return False
        a, b = (2, 2) if category == TWO_PAIR else (3, 2)
        # Two different ranks: the two longest ranks serve best (either way round).
        c0, c1 = sorted(cnt, reverse=True)[:2]
        return min(max(0, a - c0) + max(0, b - c1), max(0, a - c1) + max(0, b - c0)) <= w
    if category == STRAIGHT:
        return n >= 5 and _wild_straight_top(st.m1, ww) >= 0
    if category == FLUSH:
        return n >= 5 and any(len(rs) + w >= 5 for rs in st.suit_ranks)
    if category == STRAIGHT_FLUSH:
        return n >= 5 and any(_wild_straight_top(sm, ww) >= 0 for sm in st.suit_mask)
    raise ValueError(f"unknown hand category {category!r}")


_FAST_CATEGORIES = frozenset(range(HIGH_CARD, FIVE_OF_A_KIND + 1)) - {FLUSH}
# What five natural cards of each category (other than a flush) contain.
_CONTAINED: tuple[frozenset[int], ...] = (
    frozenset({HIGH_CARD}),
    frozenset({HIGH_CARD, ONE_PAIR}),
    frozenset({HIGH_CARD, ONE_PAIR, TWO_PAIR}),
    frozenset({HIGH_CARD, ONE_PAIR, THREE_OF_A_KIND}),
    frozenset({HIGH_CARD, STRAIGHT}),
    frozenset(),  # flush: counted
    frozenset({HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE}),
    frozenset({HIGH_CARD, ONE_PAIR, THREE_OF_A_KIND, FOUR_OF_A_KIND}),
    frozenset({HIGH_CARD, STRAIGHT, FLUSH, STRAIGHT_FLUSH}),
    frozenset({HIGH_CARD, ONE_PAIR, THREE_OF_A_KIND, FOUR_OF_A_KIND, FIVE_OF_A_KIND}),
)

#: Evens or Odds (Wanagan), Ace low: 2-4-6-8-10, 4-6-8-10-Q, A-3-5-7-9, 3-5-7-9-J, 5-7-9-J-K
#: as 13-bit rank masks (rank 0 = two .. 12 = ace).
EVENS_OR_ODDS: tuple[int, ...] = tuple(
    sum(1 << r for r in ranks)
    for ranks in (
        (0, 2, 4, 6, 8),  # 2 4 6 8 10
        (2, 4, 6, 8, 10),  # 4 6 8 10 Q
        (12, 1, 3, 5, 7),  # A 3 5 7 9
        (1, 3, 5, 7, 9),  # 3 5 7 9 J
        (3, 5, 7, 9, 11),  # 5 7 9 J K
    )
)


def is_evens_or_odds(cards: Sequence[int], wild: Collection[int] | None = None) -> bool:
    """Five cards of five consecutive even or five consecutive odd ranks, Ace low
    (see :data:`EVENS_OR_ODDS`), no rank repeated, suits free; wild cards fill gaps.

    For a five-card selection every card must belong to the sequence; with more
    cards, it tells whether some five of them form one."""
    st = _Counts(list(cards), _as_set(wild))
    if st.n < 5:
        return False
    need = 5 - st.w
    return any(_POP[st.m1 & m] >= need for m in EVENS_OR_ODDS)


def combination_key(cards: Sequence[int], category: int, wild: Collection[int] | None = None) -> tuple[int, ...] | None:
    """How a Wanagan claim to ``category`` ranks: the rank(s) of the best such combination the
    cards contain, or None when they contain none (see :func:`contains`).

    Only the named combination counts, never the kickers: One Pair the pair's rank, Two Pair the
    top pair then the second, 3 / 4 of a Kind the rank, Full House the three then the two,
    Straight its top card (A-2-3-4-5 is five-high), Flush its cards from the top down. Each wild
    card takes the rank that serves best; in a flush it stands for the highest card of the suit
    not among the natural cards (a wild card is never a second copy of a card)."""
    wild = _as_set(wild)
    if not contains(cards, category, wild):
        return None
    st = _Counts(list(cards), wild)
    cnt, w = st.cnt, st.w
    if category in (ONE_PAIR, THREE_OF_A_KIND, FOUR_OF_A_KIND, FIVE_OF_A_KIND):
        size = {ONE_PAIR: 2, THREE_OF_A_KIND: 3, FOUR_OF_A_KIND: 4, FIVE_OF_A_KIND: 5}[category]
        return (max(r for r in range(13) if cnt[r] + w >= size),)
    if category in (TWO_PAIR, FULL_HOUSE):
        a, b = (2, 2) if category == TWO_PAIR else (3, 2)
        pairs = [
            (x, y)
            for x in range(13)
            for y in range(13)
            if x != y and (category == FULL_HOUSE or x > y) and max(0, a - cnt[x]) + max(0, b - cnt[y]) <= w
        ]
        return max(pairs)
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        masks = [st.m1] if category == STRAIGHT else st.suit_mask
        return (max(_wild_straight_top(m, min(w, 5)) for m in masks),)
    if category == FLUSH:
        best: tuple[int, ...] = ()
        for ranks in st.suit_ranks:
            if len(ranks) + w < 5:
                continue
            fill = [r for r in range(_ACE, -1, -1) if r not in ranks][:w]
            best = max(best, tuple(sorted(ranks + fill, reverse=True)[:5]))
        return best
    return tuple(sorted((c >> 2 for c in st.nat), reverse=True)[:5])  # high card


def evens_or_odds_key(cards: Sequence[int], wild: Collection[int] | None = None) -> tuple[int, ...] | None:
    """How an Evens or Odds claim ranks: the top card of the sequence with the Ace LOW (the
    Rulebook: "Ace is considered low for this purpose"), so A-3-5-7-9 is nine-high, the lowest;
    None when the cards hold no such sequence."""
    st = _Counts(list(cards), _as_set(wild))
    if st.n < 5:
        return None
    need = 5 - st.w
    tops = [max(r for r in _DESC[m] if r != _ACE) for m in EVENS_OR_ODDS if _POP[st.m1 & m] >= need]
    return (max(tops),) if tops else None
