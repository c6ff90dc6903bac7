"""The command list in French and German, as a sync sends it: every localisation within Discord's
rules (names lowercase, 1–32 letters, digits, ``-`` or ``_``; descriptions and choice names 1–100),
sibling names still distinct in each language, and the local Discord's validation passes."""

from __future__ import annotations

import unicodedata

from bot.i18n.commands import CatalogTranslator
from scripts.data_texts import tree
from tests.fakediscord.validation import validate_commands

LOCALES = ("fr", "de")
SUBCOMMAND, GROUP = 1, 2


async def translated_payload() -> list[dict]:
    """The commands as ``python -m bot sync`` sends them, with the bot's translator."""
    commands = await tree()
    translator = CatalogTranslator()
    await commands.set_translator(translator)
    return [await c.get_translated_payload(commands, translator) for c in commands.get_commands()]


def is_discord_name(text: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase (our languages are Latin)."""
    allowed = all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in text)
    return allowed and 1 <= len(text) <= 32 and text == text.lower()


def walk(node: dict, path: str):
    yield path, node
    for option in node.get("options") or []:
        yield from walk(option, f"{path} {option['name']}")


async def test_every_localisation_is_within_discords_rules():
    payload = await translated_payload()
    validate_commands(payload)  # the local Discord's own check of the same body
    localised = {locale: 0 for locale in LOCALES}
    for command in payload:
        for where, node in walk(command, "/" + command["name"]):
            for locale, name in (node.get("name_localizations") or {}).items():
                assert locale in LOCALES and is_discord_name(name), f"{where}: {locale} name {name!r}"
                localised[locale] += 1
            for locale, text in (node.get("description_localizations") or {}).items():
                assert 1 <= len(text) <= 100, f"{where}: {locale} description of {len(text)} characters"
                localised[locale] += 1
            for choice in node.get("choices") or []:
                for locale, text in (choice.get("name_localizations") or {}).items():
                    assert 1 <= len(text) <= 100, f"{where}: {locale} choice {text!r}"
            siblings = [o for o in node.get("options") or []]
            for locale in LOCALES:
                names = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in siblings]
                assert len(names) == len(set(names)), f"{where}: two options named alike in {locale}: {names}"
    assert all(count > 100 for count in localised.values()), localised


async def test_a_french_and_a_german_player_read_their_own_command_names():
    payload = {c["name"]: c for c in await translated_payload()}
    start = next(o for o in payload["tripoley"]["options"] if o["name"] == "start")
    assert start["name_localizations"] == {"fr": "ouvrir", "de": "eröffnen"}
    assert start["description_localizations"]["fr"] == "Ouvrir une table de Tripoley dans ce salon"
    assert start["description_localizations"]["de"] == "Einen Tripoley-Tisch in diesem Kanal eröffnen"
    settings = next(o for o in payload["tripoley-admin"]["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert language["name_localizations"] == {"fr": "langue", "de": "sprache"}
    assert [c["value"] for c in language["choices"]] == ["en", "fr", "de", "discord"]
