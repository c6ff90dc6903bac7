"""Add the command list's texts to the catalog template (``scripts/catalogs.sh extract`` runs this).

Builds the command tree as the bot does (the two cogs, no Discord, no database) and adds every text a
sync hands discord.py's translator (bot/i18n/commands.py) to the template: names with the context
``command name``, descriptions and choice names without one."""

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


async def tree() -> discord.app_commands.CommandTree[discord.Client]:
    services = SimpleNamespace(manager=None, bank=None, prefs=None, controller=SimpleNamespace(pages={}, confirms={}))
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.add_cog(Tripoley(services))
    await bot.add_cog(Admin(services))
    return bot.tree


def main(template: Path) -> None:
    with template.open("rb") as f:
        catalog = read_po(f)
    texts = asyncio.run(command_texts(asyncio.run(tree())))
    for (context, message), where in texts.items():
        catalog.add(message, context=context, auto_comments=[f"the command list: {where.name}"])
    with template.open("wb") as f:
        write_po(f, catalog, width=120, sort_output=False)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
