"""The server economy's admin tools, as the Discord layer runs them: a grant or removal (a member's
wallet or the house's) and a reset.

Each is acknowledged before its work is done and its result is then shown in that answer, retried
while Discord fails (:func:`~bot.discordio.answering.acknowledge_then`): an admin never has a grant
applied without seeing it. A grant that repeats the same admin's same change to the same wallet
within :data:`bot.economy.bank.REPEAT_WINDOW` (the usual mistake: the first answer was lost, or
the command was sent twice) changes nothing and asks instead, with a **Do it again** button.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import errors
from bot.discordio.answering import acknowledge_then, guild_of
from bot.discordio.ui import build_view
from bot.economy.bank import HOUSE
from bot.economy.prefs import Prefs
from bot.i18n import _
from bot.messages import answers
from bot.messages.buttonids import ConfirmButton, encode
from bot.messages.components import DANGER, ButtonSpec
from bot.messages.refusals import say
from bot.tables.manager import TableManager

NO_PINGS = discord.AllowedMentions.none()


def manages_server(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def require_manage_server(interaction: discord.Interaction) -> None:
    """Who may choose the admin role: the server's managers alone."""
    if not manages_server(interaction):
        raise errors.NotAllowed(errors.Refusal.MANAGE_SERVER_ONLY)


async def require_admin(interaction: discord.Interaction, prefs: Prefs, tool: errors.AdminTool) -> None:
    """The run-time check of every ``/tripoley-admin`` tool: **Manage Server**, or the server's
    Tripoley admin role (``/tripoley-admin settings admin_role``). Discord decides who may *see* the
    commands (their default permission, and the roles the owner adds in Integrations); this is what
    lets such a role use them too, and no one else even if a stale command slipped through.
    ``tool``: the one used (its sentence: :data:`bot.messages.refusals.ADMIN_ONLY`)."""
    if manages_server(interaction):
        return
    role = (await prefs.guild(guild_of(interaction))).admin_role
    roles = getattr(interaction.user, "roles", None) or []
    if role is None or not any(r.id == role for r in roles):
        raise errors.NotAllowed(errors.Refusal.ADMIN_ONLY, tool=tool)


class AdminTools:
    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def adjust(
        self, interaction: discord.Interaction, user_id: int, amount: int, after: int | None = None
    ) -> None:
        """Add ``amount`` chips to a wallet (negative: take them; the house's: ``user_id`` 0).
        ``after``: the ledger row of the change the admin confirmed repeating."""
        tool = errors.AdminTool.HOUSE if user_id == HOUSE else errors.AdminTool.GRANT
        await require_admin(interaction, self.manager.prefs, tool)
        await acknowledge_then(interaction, lambda: self._adjusted(interaction, user_id, amount, after))

    async def confirm_adjust(self, interaction: discord.Interaction, user_id: str, amount: str, after: str) -> None:
        """The **Do it again** button of a repeated grant (its id carries the wallet, amount and row)."""
        try:
            wallet, chips, row = int(user_id), int(amount), int(after)
        except ValueError:
            raise errors.StaleButton(errors.Refusal.STALE_CONTROL, kind="button") from None
        await self.adjust(interaction, wallet, chips, row)

    async def _adjusted(
        self, interaction: discord.Interaction, user_id: int, amount: int, after: int | None
    ) -> dict[str, Any]:
        guild_id = guild_of(interaction)
        if user_id == HOUSE:
            starting = self.manager.settings.house_bankroll
        else:
            starting = (await self.manager.prefs.guild(guild_id)).starting_balance
        try:
            moved, balance = await self.manager.bank.adjust(
                guild_id, user_id, amount, interaction.user.id, starting, after
            )
        except errors.RepeatedGrant as repeat:
            again = ConfirmButton("adjust", (str(user_id), str(amount), str(repeat.row_id)))
            return {
                "content": say(repeat),
                "view": build_view([ButtonSpec(encode(again), _(answers.DO_IT_AGAIN), DANGER)]),
                "allowed_mentions": NO_PINGS,
            }
        text = answers.adjusted(user_id, moved, balance, house=user_id == HOUSE)
        return {"content": text, "view": None, "allowed_mentions": NO_PINGS}

    async def reset(self, interaction: discord.Interaction) -> None:
        """The reset's confirmation clicked: every wallet back to the starting balance (a second
        click resets to the same balances: nothing more moves)."""
        await require_admin(interaction, self.manager.prefs, errors.AdminTool.RESET)
        self.refuse_while_open(guild_of(interaction))

        async def work() -> dict[str, Any]:
            guild_id = guild_of(interaction)
            config = await self.manager.prefs.guild(guild_id)
            bankroll = self.manager.settings.house_bankroll
            count = await self.manager.bank.reset(guild_id, interaction.user.id, config.starting_balance, bankroll)
            return {"content": answers.reset_done(count, config.starting_balance, bankroll), "view": None}

        await acknowledge_then(interaction, work, update=True)

    def refuse_while_open(self, guild_id: int) -> None:
        """Before a reset is offered or done (the reset itself checks again, in its transaction)."""
        if any(t.guild_id == guild_id for t in self.manager.registry.by_id.values()):
            raise errors.NotAllowed(errors.Refusal.TABLES_OPEN)
