"""Every catalog complete: each text the code and the data (the command list, the mats) hand gettext has a translation in
every language, none fuzzy, with the source's placeholders and the language's plural forms (Babel's
checkers), and the compiled catalogs the bot reads are the ones the .po files say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot.i18n import Locale, translator
from engine.language import LOCALE_DIR, TRANSLATED, compiled_catalog, language_from_environment, pseudo, words
from scripts.data_texts import data_texts

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("engine", "images", "bot", "cogs")  # what babel.cfg maps, walked one at a time as scripts/catalogs.sh does
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]")


def catalog(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "tripoley.po").open("rb") as f:
        return read_po(f)


def extracted() -> set[tuple[str | None, str]]:
    """What the code hands gettext (babel.cfg); the data's texts come from scripts/data_texts.py."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keys: set[tuple[str | None, str]] = set()
    for package in PACKAGES:
        for _file, _line, message, _comments, context in extract_from_dir(str(ROOT / package), method_map, options_map):
            keys.add((context, message if isinstance(message, str) else message[0]))
    return keys


@pytest.fixture(scope="module")
def wanted() -> set[tuple[str | None, str]]:
    return extracted() | set(data_texts())


@pytest.mark.parametrize("language", TRANSLATED)
async def test_every_text_is_translated_and_none_is_fuzzy(language, wanted):
    po = catalog(language)
    assert not po.fuzzy, f"{language}: the catalog's header is fuzzy (it would not be compiled)"
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in po if m.id}
    missing = sorted(wanted - set(have), key=str)
    assert not missing, f"{language}: not in the catalog (bash scripts/catalogs.sh update): {missing}"
    for key in wanted:
        message = have[key]
        assert "fuzzy" not in message.flags, f"{language}: fuzzy {key}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{language}: untranslated {key}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_and_plural_forms_agree_with_the_source(language):
    po = catalog(language)
    problems = [(m.id, [str(e) for e in errors]) for m, errors in po.check()]
    assert not problems, f"{language}: {problems}"
    for message in po:
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        names = {frozenset(PLACEHOLDER.findall(s)) for s in sources}
        for string in strings:
            assert frozenset(PLACEHOLDER.findall(string)) in names, f"{language}: placeholders of {message.id!r}"
        if isinstance(message.id, tuple):
            assert len(strings) == po.num_plurals, f"{language}: {message.id!r} needs {po.num_plurals} forms"


def test_no_catalog_entry_is_left_over_once_its_text_is_gone_from_the_code(wanted):
    for language in TRANSLATED:
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog(language) if m.id}
        assert not have - wanted, f"{language}: obsolete entries (bash scripts/catalogs.sh update): {have - wanted}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file(language):
    """The .mo the bot reads (scripts/setup.sh compiles it) says what the .po says."""
    compiled = words(language)
    for message in catalog(language):
        if message.id and isinstance(message.id, str):
            got = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert got == message.string, f"{language}: {message.id!r} (bash scripts/catalogs.sh compile)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_install_without_compiled_catalogs_compiles_them_from_the_po(language):
    """``pip install .`` ships the .po files, not the .mo that scripts/setup.sh builds: the same text."""
    built, compiled = words(language), compiled_catalog(language)
    for message in catalog(language):
        if message.id and isinstance(message.id, str) and not message.context:
            assert compiled.gettext(message.id) == built.gettext(message.id)
    assert compiled.ngettext("Your hand · {count} card", "Your hand · {count} cards", 5) == built.ngettext(
        "Your hand · {count} card", "Your hand · {count} cards", 5
    )


def test_an_entry_a_catalog_lacks_reads_as_english():
    assert translator(Locale.FR).gettext("a text no catalog has") == "a text no catalog has"
    assert translator(Locale.DE).ngettext("{n} chip", "{n} chips", 2) == "{n} chips"
    assert translator(Locale.EN).gettext("Seconds per decision") == "Seconds per decision"
    assert translator(Locale.FR).gettext("Seconds per decision") == "Secondes par décision"


def test_the_pseudo_locale_is_longer_accented_and_keeps_placeholders():
    text = "Your turn, {name}: %(count)s chips for <@123>"
    out = translator(Locale.QPS).gettext(text)
    assert len(out) >= len(text) * 1.4
    assert "{name}" in out and "%(count)s" in out and "<@123>" in out
    stripped = PLACEHOLDER.sub("", out.replace("<@123>", ""))
    assert not re.search(r"[A-Za-z]", stripped), stripped
    assert pseudo("") == ""
    assert translator(Locale.QPS).ngettext("one chip", "{n} chips", 1).startswith(pseudo("one chip")[:8])


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_CA.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "de_AT", "LANG": "fr_FR"}, "de"),
        ({"LANGUAGE": "es:fr", "LANG": "de_DE"}, "fr"),
        ({"LANG": "es_ES.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_language_follows_the_environment(environ, language):
    assert language_from_environment(environ) == language
