"""``/tripoley …`` slash commands: a thin layer over the table manager, bank and prefs.

The commands come in families, one module each (:mod:`cogs.tables`, :mod:`cogs.economy`); this cog
composes them into the one ``/tripoley`` group and hands them the bot's services.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordio.admin import AdminTools
from cogs.economy import EconomyCommands
from cogs.tables import TableCommands


@app_commands.guild_only()
class Tripoley(
    TableCommands,
    EconomyCommands,
    commands.GroupCog,
    group_name="tripoley",
    group_description="Play Tripoley and its family",
):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.bank = bot.bank
        self.prefs = bot.prefs
        self.controller = bot.controller
        self.admin_tools = AdminTools(bot.manager)
        self.controller.pages["rules"] = self._rules_page
        self.controller.pages["board"] = self._board_page
        self.controller.confirms["reset"] = self.admin_tools.reset
        self.controller.confirms["adjust"] = self.admin_tools.confirm_adjust
        self.controller.confirms["forget"] = self._confirm_forget
        self.controller.pages["replay"] = self._replay_file
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tables, wallets and records belong to a server: a command from a DM is refused in words
        (the tree's error handler answers it, once)."""
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True


async def setup(bot) -> None:
    await bot.add_cog(Tripoley(bot))
