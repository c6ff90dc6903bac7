"""Who reads what: a private answer in its reader's language, a public message in the server's (the
admin's choice, else Discord's ``guild_locale``, else English), a DM in the language last seen."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import Locale
from bot.i18n.choice import SERVER_LANGUAGE, dm_locale, private_locale, public_locale, spoken


@pytest.mark.parametrize(
    ("code", "locale"),
    [
        (discord.Locale.french, Locale.FR),
        (discord.Locale.german, Locale.DE),
        (discord.Locale.american_english, Locale.EN),
        (discord.Locale.british_english, Locale.EN),
        ("fr", Locale.FR),
        (discord.Locale.spain_spanish, None),
        (discord.Locale.brazil_portuguese, None),
        (None, None),
        ("qps", None),  # the tests' pseudo-locale is never a reader's
    ],
)
def test_the_discord_locales_we_speak(code, locale):
    assert spoken(code) is locale


def test_a_private_answer_is_in_its_readers_language_when_we_have_it():
    assert private_locale(discord.Locale.french) is Locale.FR
    assert private_locale(discord.Locale.german) is Locale.DE
    assert private_locale(discord.Locale.japanese) is Locale.EN


def test_a_public_message_is_in_the_servers_language():
    assert public_locale("de", discord.Locale.french) is Locale.DE  # the admin's choice first
    assert public_locale(None, discord.Locale.french) is Locale.FR  # else the server's Discord language
    assert public_locale(SERVER_LANGUAGE, discord.Locale.german) is Locale.DE
    assert public_locale(None, discord.Locale.american_english) is Locale.EN
    assert public_locale(None, discord.Locale.italian) is Locale.EN  # one we don't have: English
    assert public_locale(None, None) is Locale.EN


def test_a_dm_is_in_the_language_its_reader_was_last_seen_in():
    assert dm_locale("de") is Locale.DE
    assert dm_locale("fr") is Locale.FR
    assert dm_locale("ko") is Locale.EN
    assert dm_locale(None) is Locale.EN


async def test_the_server_language_and_the_last_seen_locale_are_stored(prefs):
    assert (await prefs.guild(5)).language is None
    assert (await prefs.update_guild(5, language="fr")).language == "fr"
    assert (await prefs.update_guild(5, clear=("language",))).language is None
    assert await prefs.locale(7) is None
    await prefs.remember_locale(7, "de")
    await prefs.remember_locale(7, "de")
    assert await prefs.locale(7) == "de"
    await prefs.set_pings(7, False)  # the other preferences of the same row are kept
    await prefs.remember_locale(7, "fr")
    assert await prefs.locale(7) == "fr" and await prefs.pings(5, 7) is False
