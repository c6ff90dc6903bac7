"""Add the texts that live in data, not in gettext calls, to the catalog template
(``scripts/catalogs.sh extract`` runs this; docs/languages.md).

- the command list: the tree built as the bot builds it (every extension of bot.discordio.client's
  ``EXTENSIONS``, no Discord, no database), every text a sync hands discord.py's translator (bot/i18n/commands.py): names with the context
  ``command name``, descriptions and choice names without one;
- the mats: each game's name and its spaces' names (those that are not only cards: ``Kitty``, not
  ``K-Q♥``), drawn by images/;
- the phases' titles (engine/phases/names.py), which head the pictures, their statuses (the table
  message), prompts (a turn's ping) and verbs (a refusal's "waiting for seat 1 (ann) to bet");
- the games' summaries (their lobby)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace

import discord
from babel.messages.pofile import read_po, write_po
from discord.ext import commands

from bot.discordio.client import EXTENSIONS
from bot.i18n.commands import command_texts
from engine.phases.names import PHASE_TEXTS
from engine.presets import PRESETS
from images.common import is_card_label

Key = tuple[str | None, str]


async def tree() -> discord.app_commands.CommandTree[discord.Client]:
    """The command tree of every extension the bot loads (its ``EXTENSIONS``, by their ``setup``), on a
    bot given only what the cogs' loading touches (the tournaments' service is made in ``cog_load``)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    services = {
        "manager": SimpleNamespace(bank=None, registry=SimpleNamespace(add_listener=lambda listener: None)),
        "bank": SimpleNamespace(db=None),
        "prefs": None,
        "controller": SimpleNamespace(pages={}, confirms={}, publisher=None),
    }
    for name, service in services.items():
        setattr(bot, name, service)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return bot.tree


def data_texts() -> dict[Key, str]:
    """Every text of the data, by catalog entry, with where it is shown (the translators' comment)."""
    texts: dict[Key, str] = {}
    for (context, message), where in asyncio.run(command_texts(asyncio.run(tree()))).items():
        texts.setdefault((context, message), f"the command list: {where.name}")
    for preset in PRESETS.values():
        texts.setdefault((None, preset.name), "a game's name, heading its mat")
        if preset.summary:
            texts.setdefault((None, preset.summary), "a game's summary, in its lobby")
        for space in preset.spaces:
            if not is_card_label(space.label):
                texts.setdefault((None, space.label), f"a space of the mat ({preset.key})")
    for phase in PHASE_TEXTS.values():
        texts.setdefault((None, phase.title), "a phase's title, heading the pictures")
        texts.setdefault((None, phase.status), "where the table stands, on the table message")
        if phase.prompt:
            texts.setdefault((None, phase.prompt), "what the seat to act is asked")
        if phase.verb:
            texts.setdefault(
                (None, phase.verb), "what the seat awaited is to do, in a refusal: 'waiting for seat 1 (ann) to bet'"
            )
    return texts


def main(template: Path) -> None:
    with template.open("rb") as f:
        catalog = read_po(f)
    for (context, message), comment in data_texts().items():
        catalog.add(message, context=context, auto_comments=[comment])
    with template.open("wb") as f:
        write_po(f, catalog, width=120, sort_output=False)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
