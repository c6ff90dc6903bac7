"""Add the texts that live in data, not in gettext calls, to the catalog template
(``scripts/catalogs.sh extract`` runs this; docs/languages.md).

- the command list: the tree built as the bot builds it (the two cogs, no Discord, no database), every
  text a sync hands discord.py's translator (bot/i18n/commands.py): names with the context
  ``command name``, descriptions and choice names without one;
- the mats: each game's name and its spaces' names (those that are not only cards: ``Kitty``, not
  ``K-Q♥``), drawn by images/;
- the phases' titles (engine/phases/names.py), which head the pictures."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace

import discord
from babel.messages.pofile import read_po, write_po
from discord.ext import commands

from bot.i18n.commands import command_texts
from cogs.admin import Admin
from cogs.tripoley import Tripoley
from engine.phases.names import PHASE_TEXTS
from engine.presets import PRESETS
from images.common import is_card_label

Key = tuple[str | None, str]


async def tree() -> discord.app_commands.CommandTree[discord.Client]:
    services = SimpleNamespace(
        manager=None, bank=None, prefs=None, controller=SimpleNamespace(pages={}, confirms={}, publisher=None)
    )
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    # The cogs' command groups only, the cogs not loaded: their loading needs the services behind them.
    for cog in (Tripoley(services), Admin(services)):
        group = cog.__cog_app_commands_group__
        assert group is not None  # both are group cogs: /tripoley, /tripoley-admin
        bot.tree.add_command(group)
    return bot.tree


def data_texts() -> dict[Key, str]:
    """Every text of the data, by catalog entry, with where it is shown (the translators' comment)."""
    texts: dict[Key, str] = {}
    for (context, message), where in asyncio.run(command_texts(asyncio.run(tree()))).items():
        texts.setdefault((context, message), f"the command list: {where.name}")
    for preset in PRESETS.values():
        texts.setdefault((None, preset.name), "a game's name, heading its mat")
        for space in preset.spaces:
            if not is_card_label(space.label):
                texts.setdefault((None, space.label), f"a space of the mat ({preset.key})")
    for phase in PHASE_TEXTS.values():
        texts.setdefault((None, phase.title), "a phase's title, heading the pictures")
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
