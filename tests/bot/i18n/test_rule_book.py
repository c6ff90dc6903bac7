"""The rule book in French and German: ``/tripoley help``, "What pays?" and the first pages of
``/tripoley rules`` in the reader's language, English unchanged."""

from __future__ import annotations

import pytest

from bot.i18n import Locale, reading, translator
from bot.messages.rules import HOW_TO_PLAY_HERE, lobby_rules_lines, pages_for, space_rules
from bot.messages.text import HELP_TEXT
from engine import Game
from engine.presets import PRESETS


@pytest.mark.parametrize(
    ("locale", "words"),
    [("fr", ("Cagnotte", "Qui tient le R♥", "Nain Jaune")), ("de", ("Kasse", "Wer nach dem Geben die K♥", "Poch"))],
)
def test_the_first_pages_of_the_rules_are_in_the_readers_language(locale, words):
    pages = pages_for("tripoley", locale=locale)
    kitty, holds, cousin = words
    assert cousin in pages[0]  # the family's own words
    assert kitty in pages[1] and holds in pages[1]  # what pays each space of this mat
    assert pages[-1] == translator(Locale(locale)).gettext(HOW_TO_PLAY_HERE) != HOW_TO_PLAY_HERE
    assert pages[2:-1] == pages_for("tripoley")[:-1]  # the detailed pages: the English rule book's
    assert all(len(page) <= 4000 for page in pages)  # one embed each


def test_english_readers_get_the_rule_book_as_before():
    pages = pages_for("tripoley")
    assert pages[-1] == HOW_TO_PLAY_HERE and "Nain Jaune" not in pages[0]


@pytest.mark.parametrize("key", list(PRESETS))
@pytest.mark.parametrize("locale", ["fr", "de"])
def test_what_pays_every_space_of_every_mat_is_said_in_the_readers_language(key, locale):
    game = Game.new(key, ["a", "b", "c", "d"][: max(2, PRESETS[key].min_players)], seed=1)
    english = {space: text for space, _label, text in space_rules(game)}
    said = space_rules(game, locale)
    assert said
    for space, _label, text in said:
        if key != "wanagan":  # Wanagan's declared hands are explained in English still
            assert text != english[space], (key, space, text)


@pytest.mark.parametrize(("locale", "start"), [("fr", "/tripoley ouvrir"), ("de", "/tripoley eröffnen")])
def test_help_names_the_commands_as_the_reader_sees_them(locale, start):
    text = translator(Locale(locale)).gettext(HELP_TEXT)
    assert start in text and len(text) <= 2000


def test_a_tables_house_rules_in_the_readers_language_and_the_lobbys_in_the_tables():
    assert pages_for("tripoley", {}, "fr")[2].startswith("**Règles maison à cette table** : aucune")
    assert pages_for("tripoley", {}, "de")[2].startswith("**Hausregeln an diesem Tisch**: keine")
    assert pages_for("tripoley", {}, "en")[0].startswith("**House rules at this table**: none, the game as printed.")
    with reading("de"):
        assert lobby_rules_lines("tripoley", {})[-1] == "Gespielt wie gedruckt."
    assert lobby_rules_lines("tripoley", {})[-1] == "Played as printed."
