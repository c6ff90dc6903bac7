"""``/tripoley …`` slash commands: a thin layer over the table manager, bank and prefs.

The commands come in families, one module each (:mod:`cogs.tables`, :mod:`cogs.economy`, :mod:`cogs.tournaments`); this cog
composes them into the one ``/tripoley`` group and hands them the bot's services. The admins' tools
are a top-level group of their own, ``/tripoley-admin`` (:mod:`cogs.admin`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from cogs.economy import EconomyCommands
from cogs.tables import TableCommands
from cogs.tournaments import TournamentCommands


@app_commands.guild_only()
class Tripoley(
    TableCommands,
    EconomyCommands,
    TournamentCommands,
    commands.GroupCog,
    group_name="tripoley",
    group_description="Play Tripoley and its family",
):
    def __init__(self, bot: TripoleyBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.bank = bot.bank
        self.prefs = bot.prefs
        self.controller = bot.controller
        self.controller.pages["rules"] = self._rules_page
        self.controller.pages["board"] = self._board_page
        self.controller.confirms["forget"] = self._confirm_forget
        self.controller.confirms["forget-everywhere"] = self._confirm_forget_everywhere
        self.controller.pages["replay"] = self._replay_file
        super().__init__()


if TYPE_CHECKING:
    from bot.discordio.client import TripoleyBot


async def setup(bot: TripoleyBot) -> None:
    await bot.add_cog(Tripoley(bot))
