"""Cards as small ints, with the text notation of docs/replay.md.

A card is ``rank * 4 + suit``: rank 0..12 is 2..A, suit 0..3 is C, D, H, S.
Several decks simply repeat the same ints, so "which card" is the face and
"which copy" never matters to the rules.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .language import N_
from .reasons import Worded

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

Card = int


def make(rank: int, suit: int) -> Card:
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    return card >> 2


def is_red(card: Card) -> bool:
    return (card & 3) in (DIAMONDS, HEARTS)


def parse(text: str) -> Card:
    """``"TH"``, ``"10h"`` or ``"as"`` → card; ValueError on anything else."""
    if not isinstance(text, str):
        raise Worded(N_("card must be a string like 'AS', got {text}"), text=repr(text))
    t = text.strip().upper()
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise Worded(N_("not a card: {text} (use rank 2-9,T,J,Q,K,A and suit C,D,H,S, e.g. 'TH')"), text=repr(text))
    return RANKS.index(t[0]) * 4 + SUITS.index(t[1])


def parse_suit(text: str) -> int:
    t = str(text).strip().upper()
    for letter, name in SUIT_NAMES.items():
        if t in (letter, name.upper(), name.upper().rstrip("S"), SUIT_SYMBOLS[letter]):
            return SUITS.index(letter)
    raise Worded(N_("not a suit: {text} (use C, D, H or S)"), text=repr(text))


def parse_many(texts: Iterable[str]) -> list[Card]:
    return [parse(t) for t in texts]


def to_str(card: Card) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def to_strs(cards: Iterable[Card]) -> list[str]:
    return [RANKS[c >> 2] + SUITS[c & 3] for c in cards]


def pretty(card: Card) -> str:
    """Human text: ``10♥``, ``K♠``."""
    r = RANKS[card >> 2]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[SUITS[card & 3]]


def full_deck(decks: int = 1) -> list[Card]:
    return list(range(52)) * decks


def shuffled_deck(rng: random.Random, decks: int = 1) -> list[Card]:
    deck = full_deck(decks)
    rng.shuffle(deck)
    return deck


def sort_key(card: Card) -> tuple[int, int]:
    """Sort by suit, then rank: how players hold their cards."""
    return (card & 3, card >> 2)


def sorted_hand(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=sort_key)
