"""engine.hands: categories, ordering, wild cards, best/worst five, Wanagan helpers.

The n-card results are checked against a brute-force oracle written here: a
plain five-card evaluator applied to every five-card combination (and, with
wild cards, to every substitution of the wild cards).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse, parse_many, shuffled_deck
from engine.combinations import EVENS_OR_ODDS, contains, is_evens_or_odds
from engine.fives import HandResult, best_five, worst_five
from engine.hands import (
    CATEGORY_NAMES,
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
    category_name,
    category_of,
    describe,
    evaluate,
    hand_ranks,
    worst_key,
)

WANAGAN_WILD = frozenset(parse_many(["KH", "TD", "7S", "4C"]))


def P(*texts: str) -> list[int]:
    return parse_many(texts)


def ev(*texts: str, wild=None) -> int:
    return evaluate(P(*texts), wild)


# ---------------------------------------------------------------------------
# The oracle: a plain five-card evaluator (no tables, no cleverness)
# ---------------------------------------------------------------------------


def oracle5(cards) -> tuple[int, tuple[int, ...]]:
    """(category, ranks in significance order) of exactly five natural cards."""
    assert len(cards) == 5
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [k for _, k in groups]
    order = tuple(r for r, _ in groups)
    flush = len({c & 3 for c in cards}) == 1
    top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            top = 3
    if shape == [5]:
        return (9, order)
    if top is not None and flush:
        return (8, (top,))
    if shape == [4, 1]:
        return (7, order)
    if shape == [3, 2]:
        return (6, order)
    if flush:
        return (5, tuple(ranks))
    if top is not None:
        return (4, (top,))
    if shape == [3, 1, 1]:
        return (3, order)
    if shape == [2, 2, 1]:
        return (2, order)
    if shape == [2, 1, 1, 1]:
        return (1, order)
    return (0, order)


def oracle5_wild(cards, wild) -> tuple[int, tuple[int, ...]]:
    """Best over every substitution of the wild cards. Suits only matter for
    flushes, which want every card in one suit: so the wilds all take the suit
    of the natural cards (any suit if those are mixed: no flush either way)."""
    nat = [c for c in cards if c not in wild]
    w = len(cards) - len(nat)
    if w == 0:
        return oracle5(cards)
    s = nat[0] & 3 if nat else 0
    return max(
        oracle5(nat + [r * 4 + s for r in combo]) for combo in itertools.combinations_with_replacement(range(13), w)
    )


def oracle_best(cards, wild=frozenset()) -> tuple[int, tuple[int, ...]]:
    return max(oracle5_wild(list(combo), wild) for combo in itertools.combinations(cards, 5))


def as_tuple(value: int) -> tuple[int, tuple[int, ...]]:
    return (category_of(value), hand_ranks(value))


def random_hand(rng: random.Random, size: int, decks: int = 1) -> list[int]:
    return shuffled_deck(rng, decks)[:size]


# ---------------------------------------------------------------------------
# Categories with concrete cards
# ---------------------------------------------------------------------------

CATEGORY_EXAMPLES = [
    (FIVE_OF_A_KIND, ["AS", "AH", "AD", "AC", "AS"], "Five of a kind, aces"),
    (STRAIGHT_FLUSH, ["AS", "KS", "QS", "JS", "TS"], "Royal flush"),
    (STRAIGHT_FLUSH, ["9H", "8H", "7H", "6H", "5H"], "Straight flush, nine high"),
    (STRAIGHT_FLUSH, ["AD", "2D", "3D", "4D", "5D"], "Straight flush, five high"),
    (FOUR_OF_A_KIND, ["7S", "7H", "7D", "7C", "2S"], "Four of a kind, sevens"),
    (FULL_HOUSE, ["KS", "KH", "KD", "5C", "5S"], "Full house, kings over fives"),
    (FLUSH, ["AC", "JC", "8C", "6C", "2C"], "Flush, ace high"),
    (STRAIGHT, ["TS", "9H", "8D", "7C", "6S"], "Straight, ten high"),
    (STRAIGHT, ["AS", "KH", "QD", "JC", "TS"], "Straight, ace high"),
    (STRAIGHT, ["5S", "4H", "3D", "2C", "AS"], "Straight, five high"),
    (THREE_OF_A_KIND, ["6S", "6H", "6D", "KC", "2S"], "Three of a kind, sixes"),
    (TWO_PAIR, ["JS", "JH", "4D", "4C", "9S"], "Two pair, jacks and fours"),
    (ONE_PAIR, ["TS", "TH", "AD", "4C", "9S"], "One pair, tens"),
    (HIGH_CARD, ["AS", "QH", "9D", "4C", "2S"], "High card, ace"),
]


@pytest.mark.parametrize("category,texts,text", CATEGORY_EXAMPLES)
def test_category_examples(category, texts, text):
    v = ev(*texts)
    assert category_of(v) == category
    assert describe(v) == text
    r = best_five(P(*texts))
    assert r.category == category and r.value == v
    assert sorted(r.cards) == sorted(P(*texts))
    assert oracle5(P(*texts)) == as_tuple(v)


def test_category_order():
    values = [ev(*texts) for _, texts, _ in CATEGORY_EXAMPLES]
    cats = [c for c, _, _ in CATEGORY_EXAMPLES]
    for (c1, v1), (c2, v2) in itertools.combinations(zip(cats, values), 2):
        if c1 > c2:
            assert v1 > v2
    assert CATEGORY_NAMES == (
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


def test_names():
    assert category_name(ev("AS", "KS", "QS", "JS", "TS")) == "royal flush"
    assert category_name(ev("KS", "QS", "JS", "TS", "9S")) == "straight flush"
    assert category_name(ev("KS", "KH", "KD", "5C", "5S")) == "full house"
    assert category_name(ev("JS", "JH", "4D", "4C", "9S")) == "two pair"
    r = best_five(P("AS", "KS", "QS", "JS", "TS", "2H", "2D"))
    assert r.name == "royal flush" and r.description == "Royal flush"
    assert isinstance(r, HandResult)
    assert str(r).startswith("Royal flush: ")


def test_wheel_is_lowest_straight():
    wheel = ev("AS", "2H", "3D", "4C", "5S")
    six = ev("2S", "3H", "4D", "5C", "6S")
    assert category_of(wheel) == STRAIGHT
    assert wheel < six
    assert wheel > ev("AS", "AH", "AD", "KC", "QS")  # above any three of a kind
    # ace can't be in the middle: Q-K-A-2-3 is no straight
    assert category_of(ev("QS", "KH", "AD", "2C", "3S")) == HIGH_CARD
    # A-2-3-4-5-6: the six-high straight, not the wheel
    assert describe(ev("AS", "2H", "3D", "4C", "5S", "6D")) == "Straight, six high"
    assert ev("AD", "2D", "3D", "4D", "5D") < ev("2D", "3D", "4D", "5D", "6D")


def test_kickers():
    assert ev("AS", "AD", "KC", "7H", "3S") > ev("AH", "AC", "QD", "JS", "TS")
    assert ev("AS", "AD", "KC", "7H", "4S") > ev("AH", "AC", "KD", "7S", "3D")
    assert ev("9S", "9D", "5C", "5H", "KS") > ev("9H", "9C", "5D", "5S", "QS")
    assert ev("9S", "9D", "5C", "5H", "2S") > ev("9H", "9C", "4D", "4S", "AS")
    assert ev("7S", "7H", "7D", "AC", "2S") > ev("7S", "7H", "7D", "KC", "QS")
    assert ev("7S", "7H", "7D", "7C", "3S") > ev("7S", "7H", "7D", "7C", "2S")
    assert ev("KS", "KH", "KD", "2C", "2S") > ev("QS", "QH", "QD", "AC", "AS")
    assert ev("AC", "JC", "8C", "6C", "3C") > ev("AD", "JD", "8D", "6D", "2D")
    assert ev("AS", "KD", "9C", "7H", "3S") > ev("AS", "KD", "9C", "7H", "2S")


def test_ties_across_suits():
    assert ev("AS", "AD", "KC", "7H", "3S") == ev("AH", "AC", "KD", "7S", "3D")
    assert ev("AC", "JC", "8C", "6C", "3C") == ev("AH", "JH", "8H", "6H", "3H")
    assert ev("TS", "9H", "8D", "7C", "6S") == ev("TD", "9D", "8S", "7S", "6C")
    assert ev("AS", "KS", "QS", "JS", "TS") == ev("AH", "KH", "QH", "JH", "TH")
    # 7 cards: the board plays, the hole cards don't matter
    board = ["AS", "KD", "QC", "JH", "TS"]
    assert ev(*board, "2C", "3D") == ev(*board, "4H", "2S")


def test_fewer_than_five_cards():
    assert category_of(ev("AS")) == HIGH_CARD
    assert category_of(ev("9S", "9C")) == ONE_PAIR
    assert category_of(ev("9S", "9C", "9D", "9H")) == FOUR_OF_A_KIND
    assert category_of(ev("AS", "KS", "QS", "JS")) == HIGH_CARD  # no straight, no flush
    assert ev("AS", "AD") > ev("KS", "KD", "QC")
    assert ev("AS", "KS") < ev("AS", "KS", "2C")
    assert ev("2C", "2D", "3H", "3S") > ev("AS", "AH", "KD", "QC")
    assert describe(ev("9S", "9C")) == "One pair, nines"
    assert best_five(P("9S", "9C")).cards == tuple(P("9S", "9C"))


# ---------------------------------------------------------------------------
# Several decks
# ---------------------------------------------------------------------------


def test_two_decks_five_of_a_kind_and_flushes():
    five = P("QS", "QH", "QD", "QC", "QS", "2C", "3D")
    assert describe(evaluate(five)) == "Five of a kind, queens"
    assert evaluate(five) > ev("AS", "KS", "QS", "JS", "TS")
    # a flush with a duplicate card is still a flush, and ranks its duplicate
    dup = ev("AH", "AH", "KH", "QH", "2H")
    assert category_of(dup) == FLUSH
    assert dup > ev("AH", "KH", "QH", "JH", "9H")
    assert hand_ranks(dup) == (12, 12, 11, 10, 0)
    # ... but a straight flush needs five distinct ranks in the suit
    assert category_of(ev("9H", "9H", "8H", "7H", "6H")) == FLUSH
    # a flush only with duplicates, among more cards
    seven = P("AH", "AH", "KH", "KH", "3H", "2S", "5D")
    assert category_of(evaluate(seven)) == FLUSH
    assert hand_ranks(evaluate(seven)) == (12, 12, 11, 11, 1)
    # the full house hiding in duplicates beats that flush
    assert category_of(ev("AH", "AH", "AH", "KH", "KH", "2C")) == FULL_HOUSE


def test_two_decks_straight_flush_with_duplicates():
    cards = P("9H", "9H", "8H", "7H", "6H", "5H", "5H", "KS", "KD", "KC", "KH")
    assert describe(evaluate(cards)) == "Straight flush, nine high"
    r = best_five(cards)
    assert sorted(r.cards) == sorted(P("9H", "8H", "7H", "6H", "5H"))


# ---------------------------------------------------------------------------
# Against the oracle
# ---------------------------------------------------------------------------


def test_five_card_values_match_oracle_and_order():
    rng = random.Random(5)
    hands = [random_hand(rng, 5, decks=rng.choice((1, 1, 2, 4))) for _ in range(6000)]
    # plus every category from full random coverage of rare ones
    for r in range(13):
        hands.append([r * 4 + s for s in (0, 1, 2, 3, 0)])
        for top in range(3, 13):
            rs = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
            hands.append([x * 4 + r % 4 for x in rs])
    pairs = [(oracle5(h), evaluate(h)) for h in hands]
    for h, (o, v) in zip(hands, pairs):
        assert as_tuple(v) == o, h
    pairs.sort()
    for (o1, v1), (o2, v2) in zip(pairs, pairs[1:]):
        assert (v1 < v2) if o1 < o2 else (v1 == v2)


@pytest.mark.parametrize(
    "size,decks,count,seed",
    [
        (7, 1, 1500, 71),
        (7, 2, 800, 72),
        (6, 4, 300, 64),
        (13, 1, 120, 131),
        (13, 2, 80, 132),
        (17, 1, 25, 171),
        (17, 2, 25, 172),
    ],
)
def test_best_matches_oracle(size, decks, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        cards = random_hand(rng, size, decks)
        v = evaluate(cards)
        assert as_tuple(v) == oracle_best(cards), cards
        r = best_five(cards)
        assert r.value == v
        assert len(r.cards) == 5
        assert not Counter(r.cards) - Counter(cards)  # a sub-multiset of the input
        assert evaluate(r.cards) == v
        assert as_tuple(v) == oracle5(list(r.cards))


def test_rare_categories_in_big_hands():
    """Hands built to hold quads, full houses, straight flushes and five of a kind."""
    rng = random.Random(99)
    for _ in range(150):
        r = rng.randrange(13)
        kind = rng.choice(("quad", "five", "sf", "fh"))
        if kind == "quad":
            base = [r * 4 + s for s in range(4)]
        elif kind == "five":
            base = [r * 4 + s for s in (0, 1, 2, 3, 2)]
        elif kind == "fh":
            base = [r * 4, r * 4 + 1, r * 4 + 2, ((r + 3) % 13) * 4, ((r + 3) % 13) * 4 + 3]
        else:
            top = rng.randrange(3, 13)
            rs = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
            base = [x * 4 + r % 4 for x in rs]
        cards = base + random_hand(rng, rng.choice((2, 4, 8)), decks=2)
        rng.shuffle(cards)
        v = evaluate(cards)
        assert as_tuple(v) == oracle_best(cards), cards
        assert evaluate(best_five(cards).cards) == v


# ---------------------------------------------------------------------------
# Wild cards
# ---------------------------------------------------------------------------


def test_wild_examples():
    W = WANAGAN_WILD
    assert describe(ev("KH", "AS", "AD", "AC", "AH", wild=W)) == "Five of a kind, aces"
    assert describe(ev("KH", "TD", "7S", "4C", "2C", wild=W)) == "Five of a kind, twos"
    assert describe(ev("KH", "TD", "7S", "4C", "KH", wild=W)) == "Five of a kind, aces"
    assert describe(ev("KH", "QS", "JS", "9S", "8S", wild=W)) == "Straight flush, queen high"
    assert describe(ev("KH", "QS", "JS", "TS", "9S", wild=W)) == "Straight flush, king high"
    assert describe(ev("KH", "AS", "QS", "JS", "TS", wild=W)) == "Royal flush"
    assert describe(ev("KH", "2S", "2D", "5C", "5H", wild=W)) == "Full house, fives over twos"
    assert describe(ev("KH", "2S", "9S", "5S", "JS", wild=W)) == "Flush, ace high"
    assert describe(ev("KH", "2S", "3D", "5C", "6H", wild=W)) == "Straight, six high"
    assert describe(ev("KH", "9S", "3D", "5C", "QH", wild=W)) == "One pair, queens"
    # the natural K♥ is wild, other kings are not
    assert describe(ev("KS", "KD", "QC", "9H", "2S", wild=W)) == "One pair, kings"
    # no wild in the hand: same as without
    hand = P("AS", "AD", "KC", "7H", "3S")
    assert evaluate(hand, W) == evaluate(hand)
    # wild given as a plain list works too
    assert evaluate(P("KH", "AS"), list(W)) == ev("AS", "AH")
    # lone wild card: an ace
    assert describe(ev("KH", wild=W)) == "High card, ace"
    assert describe(ev("KH", "TD", wild=W)) == "One pair, aces"


def test_five_card_wild_matches_oracle():
    rng = random.Random(11)
    wild_list = sorted(WANAGAN_WILD)
    for _ in range(400):
        w = rng.choice((1, 1, 1, 2, 2, 3))
        nat = [c for c in random_hand(rng, 10, decks=2) if c not in WANAGAN_WILD][: 5 - w]
        cards = nat + [rng.choice(wild_list) for _ in range(w)]
        rng.shuffle(cards)
        v = evaluate(cards, WANAGAN_WILD)
        assert as_tuple(v) == oracle5_wild(cards, WANAGAN_WILD), cards


@pytest.mark.parametrize("size,decks,count,seed", [(6, 1, 200, 61), (7, 1, 300, 73), (7, 2, 150, 74)])
def test_best_with_wilds_matches_oracle(size, decks, count, seed):
    rng = random.Random(seed)
    wild_list = sorted(WANAGAN_WILD)
    for _ in range(count):
        w = rng.choice((0, 1, 1, 2))
        cards = random_hand(rng, size - w, decks) + [rng.choice(wild_list) for _ in range(w)]
        if sum(c in WANAGAN_WILD for c in cards) > 3:
            continue  # keep the oracle's substitution count small
        v = evaluate(cards, WANAGAN_WILD)
        assert as_tuple(v) == oracle_best(cards, WANAGAN_WILD), cards
        r = best_five(cards, WANAGAN_WILD)
        assert r.value == v and len(r.cards) == 5
        assert not Counter(r.cards) - Counter(cards)
        assert evaluate(r.cards, WANAGAN_WILD) == v


@pytest.mark.parametrize("size,decks,count,seed", [(13, 1, 40, 133), (17, 2, 15, 174)])
def test_big_hands_with_wilds_agree_with_their_five_card_subsets(size, decks, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        cards = random_hand(rng, size, decks)
        v = evaluate(cards, WANAGAN_WILD)
        assert v == max(evaluate(c, WANAGAN_WILD) for c in itertools.combinations(cards, 5))
        r = best_five(cards, WANAGAN_WILD)
        assert evaluate(r.cards, WANAGAN_WILD) == v
        assert not Counter(r.cards) - Counter(cards)


def test_many_wilds():
    W = WANAGAN_WILD
    assert describe(ev("KH", "TD", "7S", "4C", "KH", "TD", wild=W)) == "Five of a kind, aces"
    assert describe(ev("KH", "TD", "7S", "4C", wild=W)) == "Four of a kind, aces"
    assert describe(ev("KH", "TD", "7S", "9C", wild=W)) == "Four of a kind, nines"
    assert describe(ev("KH", "TD", "7S", "9C", "2D", wild=W)) == "Four of a kind, nines"
    assert describe(ev("KH", "TD", "7S", "9C", "9D", wild=W)) == "Five of a kind, nines"
    assert describe(ev("KH", "TD", "7S", "9C", "8C", wild=W)) == "Straight flush, queen high"


# ---------------------------------------------------------------------------
# Worst hand
# ---------------------------------------------------------------------------


def brute_worst(cards, wild=None):
    return min(evaluate(c, wild) for c in itertools.combinations(cards, 5))


@pytest.mark.parametrize("size,decks,count,seed", [(7, 1, 400, 75), (9, 2, 200, 92), (13, 1, 60, 134)])
def test_worst_five_matches_brute_force(size, decks, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        cards = random_hand(rng, size, decks)
        r = worst_five(cards)
        assert r.value == brute_worst(cards), cards
        assert len(r.cards) == 5 and not Counter(r.cards) - Counter(cards)
        assert evaluate(r.cards) == r.value


def test_worst_five_special_cases():
    # all one suit: every choice is a flush, take the lowest
    r = worst_five(P("AS", "KS", "QS", "JS", "TS", "9S"))
    assert describe(r.value) == "Flush, ace high" and r.value == brute_worst(P("AS", "KS", "QS", "JS", "TS", "9S"))
    # few ranks (several decks)
    cards = P("AS", "AH", "AD", "KS", "KH", "KD", "KC", "AS")
    assert worst_five(cards).value == brute_worst(cards)
    assert category_of(worst_five(cards).value) == FULL_HOUSE
    # avoid the straight and the flush
    cards = P("2H", "3H", "4H", "5H", "7H", "6S")
    assert worst_five(cards).value == brute_worst(cards)
    assert category_of(worst_five(cards).value) == HIGH_CARD
    # wild cards make hands better: leave them out if possible
    cards = P("KH", "2C", "3D", "5H", "7C", "8D", "TD")
    r = worst_five(cards, WANAGAN_WILD)
    assert r.value == brute_worst(cards, WANAGAN_WILD)
    assert not set(r.cards) & WANAGAN_WILD
    cards = P("KH", "TD", "2C", "2D", "5H", "5C")
    assert worst_five(cards, WANAGAN_WILD).value == brute_worst(cards, WANAGAN_WILD)
    # five or fewer: the cards themselves
    assert worst_five(P("AS", "AD")).value == ev("AS", "AD")
    # lower value = worse; worst_key sorts the worst first
    hands = [ev("AS", "AD", "KC", "7H", "3S"), ev("7S", "5D", "4C", "3H", "2S"), ev("9S", "9D", "9C", "7H", "3S")]
    assert sorted(hands, key=worst_key)[-1] == min(hands)


# ---------------------------------------------------------------------------
# Wanagan helpers
# ---------------------------------------------------------------------------


def test_contains_examples():
    fh = P("KS", "KH", "KD", "5C", "5S")
    for cat in (ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE, HIGH_CARD):
        assert contains(fh, cat)
    for cat in (FOUR_OF_A_KIND, STRAIGHT, FLUSH, STRAIGHT_FLUSH, FIVE_OF_A_KIND):
        assert not contains(fh, cat)
    quads = P("7S", "7H", "7D", "7C", "2S")
    assert contains(quads, FOUR_OF_A_KIND) and contains(quads, THREE_OF_A_KIND) and contains(quads, ONE_PAIR)
    assert not contains(quads, TWO_PAIR) and not contains(quads, FULL_HOUSE)
    sf = P("9H", "8H", "7H", "6H", "5H")
    assert contains(sf, STRAIGHT) and contains(sf, FLUSH) and contains(sf, STRAIGHT_FLUSH)
    assert not contains(sf, ONE_PAIR)
    assert contains(P("AS", "2H", "3D", "4C", "5S"), STRAIGHT)
    assert not contains(P("QS", "KH", "AD", "2C", "3S"), STRAIGHT)
    assert contains(P("AH", "AH", "KH", "QH", "2H"), ONE_PAIR)  # duplicates from two decks
    assert contains(P("AH", "AH", "KH", "QH", "2H"), FLUSH)
    assert not contains(P("AS", "KD", "9C", "7H", "3S"), ONE_PAIR)
    # wild cards
    W = WANAGAN_WILD
    assert contains(P("KH", "AS", "AD", "9C", "3S"), THREE_OF_A_KIND, W)
    assert contains(P("KH", "AS", "AD", "9C", "3S"), TWO_PAIR, W)
    assert contains(P("KH", "AS", "AD", "9C", "9S"), FULL_HOUSE, W)
    assert not contains(P("KH", "AS", "QD", "9C", "3S"), TWO_PAIR, W)
    assert contains(P("KH", "2S", "3D", "5C", "6H"), STRAIGHT, W)
    assert contains(P("KH", "2S", "9S", "5S", "JS"), FLUSH, W)
    assert not contains(P("KH", "2S", "9S", "5S", "JD"), FLUSH, W)
    assert contains(P("KH", "TD", "AS", "AD", "9C"), FOUR_OF_A_KIND, W)


def oracle_contains(cards, category, wild) -> bool:
    nat = [c for c in cards if c not in wild]
    w = len(cards) - len(nat)
    # suits only matter for flushes, which want every wild in one suit
    for suit, ranks in itertools.product(range(4), itertools.combinations_with_replacement(range(13), w)):
        hand = nat + [r * 4 + suit for r in ranks]
        counts = sorted(Counter(c >> 2 for c in hand).values(), reverse=True)
        ranks = {c >> 2 for c in hand}
        straight = len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or ranks == {12, 0, 1, 2, 3})
        flush = len({c & 3 for c in hand}) == 1
        ok = {
            HIGH_CARD: True,
            ONE_PAIR: counts[0] >= 2,
            TWO_PAIR: len(counts) > 1 and counts[1] >= 2,
            THREE_OF_A_KIND: counts[0] >= 3,
            STRAIGHT: straight,
            FLUSH: flush,
            FULL_HOUSE: counts[:2] == [3, 2],
            FOUR_OF_A_KIND: counts[0] >= 4,
            STRAIGHT_FLUSH: straight and flush,
            FIVE_OF_A_KIND: counts[0] == 5,
        }[category]
        if ok:
            return True
    return False


def test_contains_matches_oracle():
    rng = random.Random(21)
    wild_list = sorted(WANAGAN_WILD)
    for i in range(300):
        w = (0, 0, 1, 2)[i % 4]
        cards = random_hand(rng, 5 - w, decks=2) + [rng.choice(wild_list) for _ in range(w)]
        if i % 3 == 0:  # make the rarer combinations show up
            cards = cards[:2] + [cards[0] ^ 1, cards[1] ^ 2, cards[0] ^ 3] if w == 0 else cards
        for cat in range(10):
            assert contains(cards, cat, WANAGAN_WILD) == oracle_contains(cards, cat, WANAGAN_WILD), (cards, cat)


def test_contains_own_category():
    rng = random.Random(22)
    for _ in range(500):
        cards = random_hand(rng, 5, decks=2)
        v = evaluate(cards)
        assert contains(cards, category_of(v))
        for cat in range(category_of(v) + 1, 10):  # nothing better than what it is
            assert not contains(cards, cat), (cards, cat)


def test_contains_rejects_unknown_category():
    with pytest.raises(ValueError):
        contains(P("AS", "KS", "QS", "JS", "TS"), 42)


VALID_EVENS_ODDS = [
    ["2C", "4D", "6H", "8S", "TC"],
    ["4C", "6D", "8H", "TS", "QC"],
    ["AC", "3D", "5H", "7S", "9C"],
    ["3C", "5D", "7H", "9S", "JC"],
    ["5C", "7D", "9H", "JS", "KC"],
]


@pytest.mark.parametrize("texts", VALID_EVENS_ODDS)
def test_evens_or_odds_valid(texts):
    assert is_evens_or_odds(P(*texts))
    assert is_evens_or_odds(P(*reversed(texts)))
    # any suits
    assert is_evens_or_odds([c & ~3 for c in P(*texts)])


@pytest.mark.parametrize(
    "texts",
    [
        ["6C", "8D", "TH", "QS", "AC"],  # Ace is low only: Q-A is no step
        ["2C", "4D", "6H", "8S", "8C"],  # duplicated rank
        ["2C", "4D", "6H", "8S", "9C"],
        ["7C", "9D", "JH", "KS", "AC"],  # K-A isn't odd-consecutive (Ace low)
        ["2C", "3D", "4H", "5S", "6C"],  # a straight isn't evens/odds
        ["2C", "4D", "6H", "8S"],  # four cards
    ],
)
def test_evens_or_odds_invalid(texts):
    assert not is_evens_or_odds(P(*texts))


def test_evens_or_odds_wild_and_mask_table():
    W = WANAGAN_WILD
    assert is_evens_or_odds(P("KH", "3D", "5H", "9S", "JC"), W)  # K♥ as the 7
    assert is_evens_or_odds(P("TD", "4D", "6H", "8S", "QC"), W)  # T♦ as itself
    assert not is_evens_or_odds(P("KH", "3D", "5H", "9S", "QC"), W)
    assert not is_evens_or_odds(P("KH", "3D", "3H", "9S", "JC"), W)
    assert len(EVENS_OR_ODDS) == 5
    # the 10♦ is wild, so 2-4-6-8 + T♦ still works, and 2-4-6-8-T♠ of course
    assert is_evens_or_odds(P("2C", "4D", "6H", "8S", "TS"), W)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

hands_st = st.lists(st.integers(0, 51), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(hands_st, st.randoms(use_true_random=False))
def test_order_and_suit_invariance(cards, rnd):
    v = evaluate(cards)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate(shuffled) == v
    perm = list(range(4))
    rnd.shuffle(perm)
    assert evaluate([(c & ~3) | perm[c & 3] for c in cards]) == v
    assert evaluate(cards, WANAGAN_WILD) >= v if not set(cards) & WANAGAN_WILD else True
    assert describe(v)  # always readable


@settings(max_examples=200, deadline=None)
@given(hands_st)
def test_best_five_properties(cards):
    for wild in (None, WANAGAN_WILD):
        r = best_five(cards, wild)
        assert len(r.cards) == min(5, len(cards))
        assert not Counter(r.cards) - Counter(cards)
        assert evaluate(r.cards, wild) == r.value == evaluate(cards, wild)
        assert r.category == category_of(r.value)
        assert r.name == category_name(r.value)
        w = worst_five(cards, wild) if len(cards) <= 9 else None
        if w is not None:
            assert not Counter(w.cards) - Counter(cards)
            assert w.value <= r.value
            assert evaluate(w.cards, wild) == w.value
            if len(cards) > 5:
                assert w.value == brute_worst(cards, wild)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=9))
def test_adding_a_card_never_hurts(cards):
    assert evaluate(cards) >= evaluate(cards[:-1])
    assert evaluate(cards, WANAGAN_WILD) >= evaluate(cards[:-1], WANAGAN_WILD)


def test_describe_strings():
    assert describe(ev("KS", "KH", "KD", "5C", "5S", "5H", "2D")) == "Full house, kings over fives"
    assert describe(ev("5C", "5S", "5H", "KS", "KH", "KD")) == "Full house, kings over fives"
    assert describe(ev("2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C")) == "Four of a kind, threes"
    assert describe(ev("6S", "6H", "AD", "AC", "3S", "3H")) == "Two pair, aces and sixes"
    assert describe(ev("AS", "AH")) == "One pair, aces"
    assert describe(ev("JS", "9D", "7C", "5H", "2C")) == "High card, jack"
    assert describe(evaluate([])) == "No cards"
    assert parse("TD") in WANAGAN_WILD
