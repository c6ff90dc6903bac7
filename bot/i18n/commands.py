"""The command list in each language, through discord.py's ``app_commands.Translator``.

Names (of commands, groups and options) are looked up with the context ``command name``, so that a
name and a sentence spelt alike stay two catalog entries; descriptions and choice names as they are.
An entry the catalog lacks sends no localisation (Discord then shows the English)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import Locale, translator

NAME_CONTEXT = "command name"
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
#: Discord's locales we translate the command list into.
DISCORD_LOCALES = {discord.Locale.french: Locale.FR, discord.Locale.german: Locale.DE}


def catalog_key(message: str, where: Where) -> tuple[str | None, str]:
    """The catalog entry (context, msgid) of a command-list text."""
    return (NAME_CONTEXT if where in NAMES else None, message)


class CatalogTranslator(app_commands.Translator):
    """The command list's names and descriptions from the catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        ours = DISCORD_LOCALES.get(locale)
        if ours is None:
            return None
        text, where = string.message, context.location
        words = translator(ours)
        key, message = catalog_key(text, where)
        translated = words.pgettext(key, message) if key else words.gettext(message)
        return translated if translated != text else None


class RecordingTranslator(app_commands.Translator):
    """Translates nothing; notes every text discord.py asks for (what the catalogs must hold)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: dict[tuple[str | None, str], Where] = {}

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        self.asked.setdefault(catalog_key(string.message, context.location), context.location)
        return None


async def command_texts(tree: app_commands.CommandTree[discord.Client]) -> dict[tuple[str | None, str], Where]:
    """Every text of ``tree``'s global commands a sync sends for translation, by catalog entry."""
    recorder = RecordingTranslator()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return recorder.asked
