"""Cards and hands in each language: written (``R♥`` in French, ``B♣`` in German) and read back from what a
player types (``RC`` for roi de cœur, ``KHe`` for König Herz), English understood everywhere."""

from __future__ import annotations

import pytest

from engine import cards as C
from engine.cardnames import ENGLISH, FRENCH, GERMAN, PSEUDO_NAMES, TABLES, card_names, read_card
from engine.hands import NAMES_BY_STRENGTH
from engine.language import pseudo

KING_OF_HEARTS, QUEEN_OF_SPADES, JACK_OF_CLUBS, TEN_OF_DIAMONDS = (C.parse(t) for t in ("KH", "QS", "JC", "TD"))


@pytest.mark.parametrize(
    ("names", "written"),
    [
        (ENGLISH, ["K♥", "Q♠", "J♣", "10♦"]),
        (FRENCH, ["R♥", "D♠", "V♣", "10♦"]),
        (GERMAN, ["K♥", "D♠", "B♣", "10♦"]),
    ],
)
def test_cards_are_written_in_each_language(names, written):
    assert [names.pretty(c) for c in (KING_OF_HEARTS, QUEEN_OF_SPADES, JACK_OF_CLUBS, TEN_OF_DIAMONDS)] == written


@pytest.mark.parametrize(
    ("language", "typed", "card"),
    [
        ("fr", "RC", "KH"),  # roi de cœur
        ("fr", "rc", "KH"),
        ("fr", "dame de pique", "QS"),
        ("fr", "VT", "JC"),  # valet de trèfle
        ("fr", "10 carreau", "TD"),
        ("fr", "AK", "AD"),  # as de carreau
        ("fr", "D♠", "QS"),
        ("fr", "QH", "QH"),  # English read where French reads nothing
        ("de", "KHe", "KH"),  # König Herz
        ("de", "D Pik", "QS"),
        ("de", "BKr", "JC"),  # Bube Kreuz
        ("de", "10 Karo", "TD"),
        ("de", "AKa", "AD"),
        ("de", "B♣", "JC"),
        ("en", "TH", "TH"),
        ("en", "10h", "TH"),
        ("en", "Q♠", "QS"),
        ("en", "king of hearts", "KH"),
        ("fr", "roi de cœur", "KH"),
        ("de", "König Herz", "KH"),
        ("en", "KX", None),
        ("fr", "R", None),
    ],
)
def test_cards_are_read_as_a_player_of_each_language_types_them(language, typed, card):
    if card is None:
        with pytest.raises(ValueError):
            read_card(typed, language)
    else:
        assert C.to_str(read_card(typed, language)) == card


def test_every_card_written_in_a_language_reads_back_as_itself():
    for names in (ENGLISH, FRENCH, GERMAN):
        for card in range(52):
            assert read_card(names.pretty(card), names.language) == card
            assert read_card(names.ranks[C.rank_of(card)] + names.suit_letters[card & 3][0], names.language) == card


def test_every_hand_has_a_name_in_every_language():
    assert FRENCH.hand("four of a kind") == "carré" and FRENCH.hand("full house") == "full"
    assert FRENCH.hand("straight flush") == "quinte flush"
    assert GERMAN.hand("four of a kind") == "Vierling" and GERMAN.hand("full house") == "Full House"
    assert GERMAN.hand("straight flush") == "Straßenflush"
    for names in TABLES.values():
        assert set(names.hands) == set(NAMES_BY_STRENGTH)
        assert len(set(names.hands.values())) == len(NAMES_BY_STRENGTH)  # no two hands named alike
    assert PSEUDO_NAMES.hand("flush") == pseudo("flush")
    assert card_names("xx") is ENGLISH
