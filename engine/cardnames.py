"""How cards and poker hands are named in each language: one naming table per language, as data.

The engine's own notation (``TH``, ``QS``: docs/replay.md) is the same in every language; these tables
are for what a player reads and types. A French player writes the king of hearts ``RC`` (roi de cœur)
and reads ``R♥``; a German one ``KHe`` (König Herz) and reads ``K♥``. What a player types is read in
their language first, then in English (so ``QH`` is understood everywhere), and suit symbols always.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from . import cards as C
from .hands import NAMES_BY_STRENGTH
from .language import PSEUDO, SOURCE, pseudo, words

SYMBOLS = tuple(C.SUIT_SYMBOLS[s] for s in C.SUITS)


@dataclass(frozen=True)
class CardNames:
    """One language's card and hand names."""

    language: str
    #: The rank as written, 2 … A (13 entries).
    ranks: tuple[str, ...]
    #: The suits' names, clubs, diamonds, hearts, spades.
    suits: tuple[str, ...]
    #: How each suit may be typed (upper case), clubs … spades; the first is the one the help shows.
    suit_letters: tuple[tuple[str, ...], ...]
    #: Other ways a rank may be typed (upper case) → rank 0..12 (``T`` for 10 in English).
    rank_aliases: Mapping[str, int]
    #: The words that may join a rank to its suit (``DE`` in "dame de pique", ``OF``).
    joins: tuple[str, ...]
    #: The English hand name (``engine.hands.category_name``, and "royal flush") → this language's.
    hands: Mapping[str, str]

    def rank(self, card: C.Card) -> str:
        return self.ranks[C.rank_of(card)]

    def pretty(self, card: C.Card) -> str:
        """The card as this language writes it: ``R♥`` in French, ``10♠`` everywhere."""
        return self.ranks[C.rank_of(card)] + SYMBOLS[card & 3]

    def pretty_text(self, text: str) -> str:
        """:meth:`pretty` of a card in the engine's notation (``"KH"``)."""
        return self.pretty(C.parse(text))

    def hand(self, english: str) -> str:
        """A hand's name in this language (a name no table knows stays as it is)."""
        return self.hands.get(english, english)

    def read(self, text: str) -> C.Card | None:
        """A card typed in this language (``RC``, ``10 cœur``, ``D♠``), or None."""
        token = "".join(text.split()).upper()
        ranks = {r.upper(): i for i, r in enumerate(self.ranks)} | dict(self.rank_aliases)
        for rank_text in sorted(ranks, key=len, reverse=True):
            if not token.startswith(rank_text):
                continue
            rest = token[len(rank_text) :]
            rest = next((rest[len(w) :] for w in self.joins if rest.startswith(w) and rest[len(w) :]), rest)
            for suit, spellings in enumerate(self.suit_letters):
                if rest in spellings or rest == SYMBOLS[suit]:
                    return C.make(ranks[rank_text], suit)
        return None


def _table(
    language: str,
    ranks: str,
    words: dict[str, int],
    suits: str,
    letters: tuple[str, ...],
    joins: str,
    hands: tuple[str, ...],
) -> CardNames:
    return CardNames(
        language=language,
        ranks=tuple(ranks.split()),
        suits=tuple(suits.split()),
        suit_letters=tuple(tuple(spellings.split()) for spellings in letters),
        rank_aliases=MappingProxyType(words),
        joins=tuple(joins.split()),
        hands=MappingProxyType(dict(zip(NAMES_BY_STRENGTH, hands, strict=True))),
    )


ENGLISH = _table(
    SOURCE,
    "2 3 4 5 6 7 8 9 10 J Q K A",
    {"T": C.TEN, "TEN": C.TEN, "JACK": C.JACK, "QUEEN": C.QUEEN, "KING": C.KING, "ACE": C.ACE},
    "clubs diamonds hearts spades",
    ("C CLUBS CLUB", "D DIAMONDS DIAMOND", "H HEARTS HEART", "S SPADES SPADE"),
    "OF",
    NAMES_BY_STRENGTH,
)
FRENCH = _table(
    "fr",
    "2 3 4 5 6 7 8 9 10 V D R A",
    {"DIX": C.TEN, "VALET": C.JACK, "DAME": C.QUEEN, "ROI": C.KING, "AS": C.ACE},
    "trèfle carreau cœur pique",
    ("T TR TRÈFLE TREFLE", "K CA CARREAU", "C CO CŒUR COEUR", "P PI PIQUE"),
    "DE D'",
    (
        "carte haute",
        "paire",
        "double paire",
        "brelan",
        "quinte",
        "couleur",
        "full",
        "carré",
        "quinte flush",
        "quinte flush royale",
        "quintuplé",
    ),
)
GERMAN = _table(
    "de",
    "2 3 4 5 6 7 8 9 10 B D K A",
    {"ZEHN": C.TEN, "BUBE": C.JACK, "DAME": C.QUEEN, "KÖNIG": C.KING, "KOENIG": C.KING, "ASS": C.ACE},
    "Kreuz Karo Herz Pik",
    ("KR KREUZ", "KA KARO", "HE H HERZ", "PI P PIK"),
    "",
    (
        "höchste Karte",
        "ein Paar",
        "zwei Paare",
        "Drilling",
        "Straße",
        "Flush",
        "Full House",
        "Vierling",
        "Straßenflush",
        "Royal Flush",
        "Fünfling",
    ),
)
#: The pseudo-locale: English cards, pseudo-ised hand names (so that a picture's longest names show).
PSEUDO_NAMES = CardNames(
    language=PSEUDO,
    ranks=ENGLISH.ranks,
    suits=tuple(pseudo(s) for s in ENGLISH.suits),
    suit_letters=ENGLISH.suit_letters,
    rank_aliases=ENGLISH.rank_aliases,
    joins=ENGLISH.joins,
    hands=MappingProxyType({english: pseudo(english) for english in NAMES_BY_STRENGTH}),
)
TABLES: Mapping[str, CardNames] = MappingProxyType({t.language: t for t in (ENGLISH, FRENCH, GERMAN, PSEUDO_NAMES)})


def card_names(language: str) -> CardNames:
    """The naming table of ``language`` (English for a language without one)."""
    return TABLES.get(language, ENGLISH)


_CARD_LABEL = re.compile(r"^(?:10|[2-9JQKA])(?:-(?:10|[2-9JQKA]))*[\u2663\u2666\u2665\u2660]?$")


def label_in(label: str, language: str) -> str:
    """A mat space's label in ``language``: cards only (``K-Q♥``, ``10``) in its ranks (``R-D♥``), a name
    (``Kitty``) from the catalogs."""
    if not _CARD_LABEL.match(label):
        return words(language).gettext(label)
    ranks = card_names(language).ranks
    return re.sub(r"10|[2-9JQKA]", lambda rank: ranks[ENGLISH.ranks.index(rank.group())], label)


def read_card(text: str, language: str = SOURCE) -> C.Card:
    """A typed card, in ``language`` first, then in English; ``ValueError`` when neither reads it."""
    card = card_names(language).read(text)
    if card is None:
        card = ENGLISH.read(text)
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card
