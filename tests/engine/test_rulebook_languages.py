"""The rule book's pages in every language: each sentence looked up in the page's language (the pseudo-locale
shows none left plain), no English sentence left in French or German, the same pages in each language, and
docs/rules.md English whatever language is read at the time."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import presets as P
from engine import rulebook as R
from engine.language import LANGUAGE, PSEUDO
from engine.options import Options

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
TRANSLATED = ("fr", "de")
#: A card or a run as a page writes it (``K-Q♥``, ``A-2-3-4-5``, ``J``, ``10♦``): the same letters in every
#: language that names its ranks so (the pseudo-locale keeps the English ranks).
CARDS = re.compile(r"(?<!\w)(?:10|[2-9JQKA])(?:-(?:10|[2-9JQKA]))*[♣♦♥♠]?(?!\w)")
#: A phrase of an English page long enough to be a sentence, not a name (``Full House``, ``Michigan Rummy``).
PHRASE_WORDS = 4


def house_rules_set(key: str) -> dict[str, Any]:
    """Every house rule of ``key`` switched to its last value offered, as far as they go together."""
    chosen: dict[str, Any] = {}
    preset = P.get_preset(key)
    for name, values in R.house_rules(key).items():
        try:
            P.options_for(preset, {**chosen, name: values[-1]})
        except ValueError:
            continue
        chosen[name] = values[-1]
    return chosen


CASES = [(key, None) for key in P.PRESETS] + [(key, house_rules_set(key)) for key in P.PRESETS]
CASE_IDS = [f"{key}-{'printed' if rules is None else 'house'}" for key, rules in CASES]


def english_phrases(page: str) -> set[str]:
    """The sentences (and parts of sentences) of an English page that read as English words."""
    phrases = set()
    for part in re.split(r"[.;:!?()—\n]", page.replace("**", "").replace("•", "")):
        words = re.findall(r"[A-Za-z]+", CARDS.sub(" ", part))
        if len(words) >= PHRASE_WORDS:
            phrases.add(" ".join(part.split()))
    return phrases


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(("key", "rules"), CASES, ids=CASE_IDS)
def test_every_page_reads_in_french_and_german_with_no_english_sentence_left(key, rules, language):
    english = R.rule_pages(key, rules)
    pages = R.rule_pages(key, rules, language)
    assert len(pages) == len(english)
    for page, source in zip(pages, english, strict=True):
        assert page != source
        said = " ".join(page.replace("**", "").replace("•", "").split())
        left = sorted(phrase for phrase in english_phrases(source) if phrase in said)
        assert not left, (key, language, left)
        assert "{" not in page and "}" not in page  # every placeholder filled
    assert [R.page_title(page) for page in pages] != [R.page_title(page) for page in english]


@pytest.mark.parametrize(("key", "rules"), CASES, ids=CASE_IDS)
def test_every_sentence_of_every_page_is_looked_up(key, rules):
    """In the pseudo-locale every letter of a looked-up text is accented: a plain letter left outside a
    card's name is a sentence that was never looked up."""
    pages = R.rule_pages(key, rules, PSEUDO)
    assert len(pages) == len(R.rule_pages(key, rules))
    for page in pages:
        plain = re.findall(r"[A-Za-z]+", CARDS.sub(" ", page))
        assert not plain, (key, plain, page)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_setting_and_value_reads_in_the_language(language):
    for name in R.option_names():
        text = R.OPTION_TEXT[name]
        values = list(text.values) or [getattr(P.get_preset(key).options, name) for key in P.PRESETS]
        for value in values:
            label, sentence = R.value_label(name, value, language), R.value_text(name, value, language)
            if not re.fullmatch(r"[\d\-–]+", R.value_label(name, value)):  # 8-9-10 is 8-9-10 everywhere
                assert label != R.value_label(name, value), (name, value, label)
            assert sentence != R.value_text(name, value), (name, value, sentence)
            assert R.option_line(name, value, language).startswith("**")


@pytest.mark.parametrize(
    ("language", "changes"),
    [
        ("fr", ["Case de la suite : 6-7-8", "Encaissement strict : payé automatiquement"]),
        ("de", ["Strenges Kassieren: automatisch bezahlt", "Folgenfeld: 6-7-8"]),
    ],
)
def test_a_tables_house_rules_are_named_in_the_language(language, changes):
    said = R.house_rule_changes("rummoli", {"run": "6-7-8", "strict_claims": False}, language)
    assert sorted(said) == sorted(changes)


def test_the_cards_a_sentence_names_are_the_languages():
    french = "\n".join(R.rule_pages("tripoley-rulebook", None, "fr"))
    german = "\n".join(R.rule_pages("tripoley-rulebook", None, "de"))
    assert "(le R comme la D de R-D)" in french and "(der K wie die D von K-D)" in german
    wanagan = R.rule_pages("wanagan", None, "fr")
    assert "4-6-8-10-D, A-3-5-7-9, 3-5-7-9-V, 5-7-9-V-R" in wanagan[0] and "le R♥, le 10♦" in wanagan[3]
    assert "quintuplé (seulement avec plusieurs jeux ou des jokers), quinte flush, carré" in french


def test_docs_rules_md_stays_english_whatever_language_is_read():
    token = LANGUAGE.set("fr")
    try:
        assert R.markdown() == DOC
        assert R.rule_pages("tripoley") == R.rule_pages("tripoley", None, "en")
    finally:
        LANGUAGE.reset(token)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminal_reads_its_rules_and_spaces_in_its_language(language):
    options = Options()
    assert R.plain_pages("tripoley", options, language) != R.plain_pages("tripoley", options)
    assert "**" not in R.plain_pages("tripoley", options, language)
    kitty = R.space_help("tripoley", options, "kitty", language)
    assert kitty.startswith({"fr": "Cagnotte : ", "de": "Kasse: "}[language])
