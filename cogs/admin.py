"""``/tripoley-admin …``: the server's tools for admins (grant, house, audit, kick, reset, settings, season).

A top-level group of its own, because Discord applies ``default_member_permissions`` to top-level
commands only: members without **Manage Server** don't see it, and a server's owner can show it to
other roles or hide it in Server Settings → Integrations. Each command still checks when it runs
(``require_admin``): Manage Server, or the role the server named with ``/tripoley-admin settings
admin_role`` (so a "game master" role can be handed the tools without Manage Server).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.competition.store import LENGTHS
from bot.discordio.admin import AdminTools, require_admin, require_manage_server
from bot.discordio.answering import channel_of, guild_of, reply
from bot.discordio.seasontools import SeasonTools
from bot.economy.bank import HOUSE
from bot.i18n import _
from bot.i18n.choice import SERVER_LANGUAGE
from bot.messages import answers
from bot.messages import competition as competition_words
from bot.messages.notices import audit_text
from cogs.common import (
    CommandFamily,
    confirm_view,
    display_name,
    language_choices,
    preset_choices,
    settings_text,
)

if TYPE_CHECKING:
    from bot.discordio.client import TripoleyBot


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Admin(
    CommandFamily,
    commands.GroupCog,
    group_name="tripoley-admin",
    group_description="Tripoley's tools for a server's admins (Manage Server)",
):
    admin_tools: AdminTools

    def __init__(self, bot: TripoleyBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.bank = bot.bank
        self.prefs = bot.prefs
        self.controller = bot.controller
        self.admin_tools = AdminTools(bot.manager)
        self.season_tools = SeasonTools(bot.manager, getattr(bot.controller.publisher, "sink", None))
        self.controller.confirms["reset"] = self.admin_tools.reset
        self.controller.confirms["adjust"] = self.admin_tools.confirm_adjust
        super().__init__()

    @app_commands.command(name="grant", description="Give chips to a member (negative: take them; never below 0)")
    @app_commands.describe(user="Whose wallet", amount="Chips to add (negative to remove)")
    async def admin_grant(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        amount: app_commands.Range[int, -10_000_000, 10_000_000],
    ) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.GRANT)
        if user.bot:
            raise errors.TripoleyError(errors.Refusal.BOT_HAS_NO_WALLET)
        await self.admin_tools.adjust(interaction, user.id, amount)

    @app_commands.command(name="house", description="See the house bankroll (AI seats), or add chips to it")
    @app_commands.describe(amount="Chips to add to the house (negative to remove)")
    async def admin_house(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, -10000000, 10000000] | None = None
    ) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.HOUSE)
        if amount is not None:
            await self.admin_tools.adjust(interaction, HOUSE, amount)
            return
        balance = await self.bank.balance(guild_of(interaction), HOUSE, self.bot.settings.house_bankroll)
        text = answers.house_holds(balance)
        await reply(interaction, text)

    @app_commands.command(name="audit", description="Check that every chip is accounted for")
    async def admin_audit(self, interaction: discord.Interaction) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.AUDIT)
        await reply(interaction, audit_text(await self.manager.results.audit(guild_of(interaction))))

    @app_commands.command(name="kick", description="Remove a member from a table (mid-game: an AI plays their seat)")
    @app_commands.describe(user="The member to remove from their table")
    async def admin_kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.KICK)
        updates = await self.manager.lobby.kick(
            guild_of(interaction), user.id, display_name(interaction.user), interaction.user.id
        )
        await reply(interaction, "\n".join(u.message for u in updates if u.message))

    @app_commands.command(name="reset", description="Every wallet back to the starting balance (after a confirmation)")
    async def admin_reset(self, interaction: discord.Interaction) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.RESET)
        self.admin_tools.refuse_while_open(guild_of(interaction))
        config = await self.prefs.guild(guild_of(interaction))
        await interaction.response.send_message(
            answers.reset_ask(config.starting_balance, self.bot.settings.house_bankroll),
            view=confirm_view("reset", _(answers.RESET_BUTTON)),
            ephemeral=True,
        )

    @app_commands.command(name="settings", description="Change the server's defaults (without options: show them)")
    @app_commands.describe(
        default_preset="The game /tripoley start opens by default",
        starting_balance="Chips in a new player's wallet",
        turn_timeout="Seconds per decision",
        ai_pause="Seconds an AI waits before acting",
        daily_amount="Chips /tripoley daily grants (0: off)",
        daily_cooldown_hours="Hours between two daily grants",
        relief_amount="Chips /tripoley relief grants to a wallet below the smallest buy-in (0: off)",
        relief_cooldown_hours="Hours between two relief grants",
        threads="Run each table in its own thread",
        pings="Ping players when it's their turn (each player can change it with /tripoley ping)",
        admin_role="A role whose members may use /tripoley-admin too (Manage Server only)",
        no_admin_role="Only Manage Server may use /tripoley-admin again (Manage Server only)",
        web_pages="Show the leaderboard and players' records on the bot's web pages (off by default)",
        language="The language of the server's public messages and mats",
    )
    @app_commands.choices(default_preset=preset_choices(), language=language_choices())
    async def settings(
        self,
        interaction: discord.Interaction,
        default_preset: str | None = None,
        starting_balance: app_commands.Range[int, 0, 10000000] | None = None,
        turn_timeout: app_commands.Range[int, 10, 3600] | None = None,
        ai_pause: app_commands.Range[float, 0.0, 30.0] | None = None,
        daily_amount: app_commands.Range[int, 0, 10000000] | None = None,
        daily_cooldown_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
        relief_amount: app_commands.Range[int, 0, 10000000] | None = None,
        relief_cooldown_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
        threads: bool | None = None,
        pings: bool | None = None,
        admin_role: discord.Role | None = None,
        no_admin_role: bool = False,
        web_pages: bool | None = None,
        language: str | None = None,
    ) -> None:
        changes = dict(
            default_preset=default_preset,
            starting_balance=starting_balance,
            turn_timeout=turn_timeout,
            ai_pause=ai_pause,
            daily_amount=daily_amount,
            daily_cooldown_hours=daily_cooldown_hours,
            relief_amount=relief_amount,
            relief_cooldown_hours=relief_cooldown_hours,
            threads=threads,
            pings=pings,
            web_pages=web_pages,
            language=None if language == SERVER_LANGUAGE else language,
        )
        clear = ("language",) if language == SERVER_LANGUAGE else ()
        if admin_role is not None or no_admin_role:
            # Who may administer is the server managers' choice alone, not a delegated admin's.
            require_manage_server(interaction)
            if admin_role is not None and no_admin_role:
                raise errors.TripoleyError(errors.Refusal.ADMIN_ROLE_TWICE)
        if any(v is not None for v in changes.values()) or clear or admin_role is not None or no_admin_role:
            await require_admin(interaction, self.prefs, errors.AdminTool.SETTINGS)
            config = await self.prefs.update_guild(
                guild_of(interaction),
                clear=clear + (("admin_role",) if no_admin_role else ()),
                admin_role=admin_role.id if admin_role is not None else None,
                **changes,
            )
        else:
            config = await self.prefs.guild(guild_of(interaction))
        await reply(interaction, settings_text(config, self.bot.settings.house_bankroll))

    @app_commands.command(name="season", description="The seasons: end the one under way, or set how long they last")
    @app_commands.describe(
        end="End the season under way now: its final standings kept and posted, every rating softened",
        length="How long seasons last (without end: from the start of the one under way)",
        channel="Where a season's final standings are posted (default: this channel)",
        reset_chips="With end: every wallet back to the starting balance too (default: wallets untouched)",
    )
    @app_commands.choices(length=[app_commands.Choice(name=length, value=length) for length in LENGTHS])
    async def admin_season(
        self,
        interaction: discord.Interaction,
        end: bool = False,
        length: str | None = None,
        channel: discord.TextChannel | None = None,
        reset_chips: bool = False,
    ) -> None:
        await require_admin(interaction, self.prefs, errors.AdminTool.SEASON)
        if end and length is not None:
            raise errors.TripoleyError(_(competition_words.SEASON_END_AND_LENGTH))
        if reset_chips and not end:
            raise errors.TripoleyError(_(competition_words.RESET_NEEDS_END))
        if end:
            await self.season_tools.end(interaction, reset_chips)
            return
        if length is None and channel is None:
            await reply(interaction, await self.season_tools.show(interaction))
            return
        where = channel.id if channel is not None else channel_of(interaction)
        await reply(interaction, await self.season_tools.set_length(interaction, length, where))


async def setup(bot: TripoleyBot) -> None:
    await bot.add_cog(Admin(bot))
