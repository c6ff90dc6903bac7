"""The rule book in French and German: ``/tripoley help``, "What pays?" and every page of
``/tripoley rules`` in the reader's language, English unchanged."""

from __future__ import annotations

import pytest

from bot.i18n import Locale, reading, translator
from bot.messages.rules import HOW_TO_PLAY_HERE, lobby_rules_lines, pages_for, space_rules
from bot.messages.text import HELP_TEXT
from engine import Game
from engine.presets import PRESETS
from engine.rulebook import house_rules, rule_pages


@pytest.mark.parametrize(
    ("locale", "words"),
    [("fr", ("Cagnotte", "Qui tient le R♥", "Nain Jaune")), ("de", ("Kasse", "Wer nach dem Geben die K♥", "Poch"))],
)
def test_every_page_of_the_rules_is_in_the_readers_language(locale, words):
    pages = pages_for("tripoley", locale=locale)
    kitty, holds, cousin = words
    assert cousin in pages[0]  # the family's own words
    assert kitty in pages[1] and holds in pages[1]  # what pays each space of this mat
    assert pages[-1] == translator(Locale(locale)).gettext(HOW_TO_PLAY_HERE) != HOW_TO_PLAY_HERE
    assert pages[1:-1] == rule_pages("tripoley", None, locale)  # the rule book's pages, in the reader's language
    english = pages_for("tripoley")
    assert len(pages) == len(english) + 1  # the family in brief, and the same pages after it
    assert not set(pages) & set(english)
    assert all(len(page) <= 4000 for page in pages)  # one embed each


@pytest.mark.parametrize("key", list(PRESETS))
@pytest.mark.parametrize("locale", ["fr", "de"])
def test_a_tables_pages_with_its_house_rules_are_all_in_the_readers_language(key, locale):
    rules = {name: values[-1] for name, values in list(house_rules(key).items())[:1]}
    pages = pages_for(key, rules, locale)
    english = pages_for(key, rules)
    assert len(pages) == len(english) + 1
    assert not set(pages) & set(english)
    assert all(len(page) <= 4000 for page in pages)


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
        assert text != english[space], (key, space, text)


@pytest.mark.parametrize(("locale", "start"), [("fr", "/tripoley ouvrir"), ("de", "/tripoley eröffnen")])
def test_help_names_the_commands_as_the_reader_sees_them(locale, start):
    text = translator(Locale(locale)).gettext(HELP_TEXT)
    assert start in text and len(text) <= 2000


def test_a_tables_house_rules_in_the_readers_language_and_the_lobbys_in_the_tables():
    assert pages_for("tripoley", {}, "fr")[1].startswith("**Règles maison à cette table** : aucune")
    assert pages_for("tripoley", {}, "de")[1].startswith("**Hausregeln an diesem Tisch**: keine")
    assert pages_for("tripoley", {}, "en")[0].startswith("**House rules at this table**: none, the game as printed.")
    changed = pages_for("rummoli", {"run": "6-7-8"}, "fr")[1]
    assert changed.startswith("**Règles maison à cette table** : Case de la suite : 6-7-8.")
    with reading("de"):
        lines = lobby_rules_lines("rummoli", {"run": "6-7-8"})
        assert "• Folgenfeld: **6-7-8** — für welche drei Karten einer Farbe das Folgenfeld zahlt" in lines
        assert lines[-1] == "Geändert gegenüber dem gedruckten Spiel: Folgenfeld: 6-7-8"
        assert lobby_rules_lines("tripoley", {})[-1] == "Gespielt wie gedruckt."
    assert lobby_rules_lines("tripoley", {})[-1] == "Played as printed."
    assert "• Run space: **6-7-8** — which three cards of one suit the run space pays for" in lobby_rules_lines(
        "rummoli", {"run": "6-7-8"}
    )
