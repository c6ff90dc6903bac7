"""``/tripoley …`` slash commands: a thin layer over the table manager, bank and prefs."""

from __future__ import annotations

import logging
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.components import ButtonSpec, custom_id
from bot.publisher import lobby_message
from bot.rules import pages_for
from bot.ui import build_view, message_kwargs

log = logging.getLogger(__name__)

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
LEADERBOARD_PAGE = 10


def preset_choices() -> list[app_commands.Choice[str]]:
    from engine.presets import PRESETS

    return [app_commands.Choice(name=p.name[:100], value=key) for key, p in list(PRESETS.items())[:25]]


def preset_name(key: str) -> str:
    from engine.presets import PRESETS

    preset = PRESETS.get(key)
    return preset.name if preset else key


def pager(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    """Prev/Next buttons whose custom_ids carry the page: stateless, so they survive restarts."""
    if pages <= 1:
        return None
    specs = [
        ButtonSpec(custom_id(0, 0, f"page.{kind}.{key}.{max(page - 1, 0)}"), "◀ Prev"),
        ButtonSpec(custom_id(0, 0, f"page.{kind}.{key}.{min(page + 1, pages - 1)}"), "Next ▶"),
    ]
    if specs[0].custom_id == specs[1].custom_id:  # custom_ids must be unique in a message
        specs = specs[:1]
    return build_view(specs)


def check_bot_permissions(interaction: discord.Interaction) -> None:
    perms = interaction.app_permissions
    if perms.value == 0:  # not reported (e.g. a test server): rely on Forbidden at send time
        return
    missing = [p for p in REQUIRED_PERMISSIONS if not getattr(perms, p)]
    if missing:
        raise errors.MissingBotPermissions([errors.permission_label(p) for p in missing])


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


@app_commands.guild_only()
class Tripoley(commands.GroupCog, group_name="tripoley", group_description="Play Tripoley and its family"):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.bank = bot.bank
        self.prefs = bot.prefs
        self.controller = bot.controller
        self.controller.pages["rules"] = self._rules_page
        self.controller.pages["board"] = self._board_page
        super().__init__()

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        await self.controller.report(interaction, error)

    # -- the table -------------------------------------------------------------------

    @app_commands.command(name="start", description="Open a Tripoley table in this channel")
    @app_commands.describe(
        preset="Which game (default: the server's default)",
        rounds="Play this many rounds",
        minutes="Play for this many minutes (the last round is finished)",
        elimination="Play until one player has chips left",
        buy_in="Chips each player brings to the table",
        bet_limit="Largest bet or raise in poker",
        turn_timeout="Seconds per decision",
    )
    @app_commands.choices(preset=preset_choices())
    async def start(
        self,
        interaction: discord.Interaction,
        preset: Optional[str] = None,
        rounds: Optional[app_commands.Range[int, 1, 100]] = None,
        minutes: Optional[app_commands.Range[int, 1, 600]] = None,
        elimination: bool = False,
        buy_in: Optional[app_commands.Range[int, 1, 1_000_000]] = None,
        bet_limit: Optional[app_commands.Range[int, 1, 100_000]] = None,
        turn_timeout: Optional[app_commands.Range[int, 10, 3600]] = None,
    ) -> None:
        check_bot_permissions(interaction)
        ends = [x for x in (rounds and f"rounds:{rounds}", minutes and f"minutes:{minutes}", elimination and "elimination") if x]
        if len(ends) > 1:
            raise errors.TripoleyError("Pick one way to end the game: `rounds`, `minutes` or `elimination`.")
        options: dict = {}
        if ends:
            options["game_end"] = ends[0]
        if bet_limit:
            options["bet_limit"] = bet_limit
        update = await self.manager.create_table(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            preset,
            options,
            buy_in=buy_in,
            turn_timeout=turn_timeout,
        )
        table = update.table
        response = await interaction.response.send_message(**message_kwargs(lobby_message(table)))
        message_id = getattr(response, "message_id", None)
        if message_id:
            await self.manager.set_message(table.id, "lobby", message_id)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        update = await self.manager.join(interaction.channel_id, interaction.user.id, display_name(interaction.user))
        await self.controller.reply(interaction, update.message or "You're in!")

    @app_commands.command(name="leave", description="Leave the table (mid-game: an AI finishes for you)")
    async def leave(self, interaction: discord.Interaction) -> None:
        update = await self.manager.leave(interaction.channel_id, interaction.user.id)
        await self.controller.reply(interaction, update.message or "You left.")

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction)

    @app_commands.command(name="stop", description="End the game and cash everyone out (host or Manage Server)")
    async def stop(self, interaction: discord.Interaction) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        can_manage = bool(perms and perms.manage_guild)
        update = await self.manager.stop(interaction.channel_id, interaction.user.id, can_manage)
        await self.controller.reply(interaction, update.message or "Stopped.", ephemeral=False)

    # -- chips and records ---------------------------------------------------------------

    @app_commands.command(name="balance", description="Your chips in this server")
    async def balance(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(interaction.guild_id)
        balance = await self.bank.balance(interaction.guild_id, interaction.user.id, config.starting_balance)
        lines = [f"Your wallet: **{balance}** chips."]
        table = self.manager.tables.get(interaction.channel_id)
        if table is not None:
            seat = table.seat_of(interaction.user.id)
            if seat is not None:
                at = table.game.stacks[seat] if table.game is not None else table.seats[seat].stake
                lines.append(f"At this table: **{at}** chips.")
        await self.controller.reply(interaction, "\n".join(lines))

    @app_commands.command(name="leaderboard", description="The server's richest players and biggest winners")
    @app_commands.describe(by="Rank by wallet balance or by net winnings")
    @app_commands.choices(
        by=[app_commands.Choice(name="balance", value="balance"), app_commands.Choice(name="net winnings", value="net")]
    )
    async def leaderboard(self, interaction: discord.Interaction, by: str = "balance") -> None:
        embed, view = await self._board(interaction.guild_id, by, 0)
        kwargs = {"embed": embed}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def _board(self, guild_id: int, by: str, page: int):
        size = await self.bank.leaderboard_size(guild_id, by)
        pages = max(1, -(-size // LEADERBOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows = await self.bank.leaderboard(guild_id, by, page * LEADERBOARD_PAGE, LEADERBOARD_PAGE)
        title = "Leaderboard — balance" if by != "net" else "Leaderboard — net winnings"
        lines = []
        for i, row in enumerate(rows, page * LEADERBOARD_PAGE + 1):
            lines.append(f"**{i}.** <@{row['user_id']}> — {row['value']} chips")
        embed = discord.Embed(title=title, description="\n".join(lines) or "Nobody has played yet.", colour=0x2E8B57)
        embed.set_footer(text=f"Page {page + 1}/{pages}")
        return embed, pager("board", by, page, pages)

    async def _board_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = await self._board(interaction.guild_id, key, page)
        await interaction.response.edit_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, rounds, pots and best hand of a player")
    async def stats(self, interaction: discord.Interaction, user: Optional[discord.User] = None) -> None:
        target = user or interaction.user
        stats = await self.manager.stats(interaction.guild_id, target.id)
        if not stats:
            await self.controller.reply(interaction, f"{display_name(target)} hasn't finished a game here yet.")
            return
        net = stats["net"]
        embed = discord.Embed(title=f"Stats — {display_name(target)}", colour=0x2E8B57)
        embed.add_field(name="Games", value=str(stats["games"]))
        embed.add_field(name="Wins", value=str(stats["wins"]))
        embed.add_field(name="Rounds", value=str(stats["rounds"]))
        embed.add_field(name="Pots won", value=str(stats["pots_won"]))
        embed.add_field(name="Net winnings", value=f"{'+' if net > 0 else ''}{net}")
        embed.add_field(name="Best poker hand", value=stats["best_hand"] or "—")
        await interaction.response.send_message(embed=embed, ephemeral=user is None)

    @app_commands.command(name="history", description="Recent games in this server and their results")
    async def history(self, interaction: discord.Interaction) -> None:
        games = await self.manager.history(interaction.guild_id, 10)
        if not games:
            await self.controller.reply(interaction, "No finished games yet. `/tripoley start` one!")
            return
        lines = []
        for game in games:
            result = game["result"] or {}
            seats = result.get("seats") or []
            podium = ", ".join(
                f"{s['name']} {s['final']} ({'+' if s['net'] > 0 else ''}{s['net']})" for s in seats[:4]
            )
            when = f"<t:{int(game['ended_at'])}:R>" if game["ended_at"] else ""
            lines.append(f"**{result.get('preset_name', game['preset'])}** in <#{game['channel_id']}> {when}: {podium}")
        embed = discord.Embed(title="Recent games", description="\n".join(lines)[:4000], colour=0x2E8B57)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- rules ------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="How to play (per game)")
    @app_commands.choices(preset=preset_choices())
    async def rules(self, interaction: discord.Interaction, preset: Optional[str] = None) -> None:
        if preset is None:
            preset = (await self.prefs.guild(interaction.guild_id)).default_preset
        embed, view = self._rules(preset, 0)
        kwargs = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    def _rules(self, preset: str, page: int):
        pages = pages_for(preset)
        page = max(0, min(page, len(pages) - 1))
        embed = discord.Embed(title=f"How to play — {preset_name(preset)}", description=pages[page][:4000], colour=0x8B0000)
        embed.set_footer(text=f"Page {page + 1}/{len(pages)}")
        return embed, pager("rules", preset, page, len(pages))

    async def _rules_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = self._rules(key, page)
        await interaction.response.edit_message(embed=embed, view=view)

    # -- preferences and settings ---------------------------------------------------------------

    @app_commands.command(name="dm", description="Get your hand by DM at every deal")
    @app_commands.choices(mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")])
    async def dm(self, interaction: discord.Interaction, mode: str) -> None:
        await self._switch(interaction, mode == "on", self.prefs.set_dm_hands,
                           "I'll DM you your hand at every deal. (If your DMs are closed, I'll tell you in the channel.)",
                           "No more hand DMs: use **Show my hand** on the table message.")

    @app_commands.command(name="ping", description="Be pinged when it's your turn")
    @app_commands.choices(mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")])
    async def ping(self, interaction: discord.Interaction, mode: str) -> None:
        await self._switch(interaction, mode == "on", self.prefs.set_pings,
                           "I'll ping you when it's your turn (a short message, deleted once you've played).",
                           "No more turn pings: watch the table message for ⏳ and your name.")

    async def _switch(self, interaction: discord.Interaction, on: bool, setter, said_on: str, said_off: str) -> None:
        """A player's on/off preference: saved, then confirmed privately."""
        await setter(interaction.user.id, on)
        await self.controller.reply(interaction, said_on if on else said_off)

    @app_commands.command(name="settings", description="Server defaults (Manage Server)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        default_preset="The game /tripoley start opens by default",
        starting_balance="Chips in a new player's wallet",
        turn_timeout="Seconds per decision",
        ai_pause="Seconds an AI waits before acting",
        pings="Ping players when it's their turn (each player can change it with /tripoley ping)",
    )
    @app_commands.choices(default_preset=preset_choices())
    async def settings(
        self,
        interaction: discord.Interaction,
        default_preset: Optional[str] = None,
        starting_balance: Optional[app_commands.Range[int, 0, 10_000_000]] = None,
        turn_timeout: Optional[app_commands.Range[int, 10, 3600]] = None,
        ai_pause: Optional[app_commands.Range[float, 0.0, 30.0]] = None,
        pings: Optional[bool] = None,
    ) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        changes = dict(
            default_preset=default_preset, starting_balance=starting_balance, turn_timeout=turn_timeout, ai_pause=ai_pause,
            pings=pings,
        )
        if any(v is not None for v in changes.values()):
            if not (perms and perms.manage_guild):
                raise errors.NotAllowed("Changing the settings needs the **Manage Server** permission.")
            config = await self.prefs.update_guild(interaction.guild_id, **changes)
        else:
            config = await self.prefs.guild(interaction.guild_id)
        text = (
            f"**Server settings**\nDefault game: {preset_name(config.default_preset)}\n"
            f"Starting balance: {config.starting_balance} chips\nTurn timer: {int(config.turn_timeout)} s\n"
            f"AI pause: {config.ai_pause:g} s\nTurn pings: {'on' if config.pings else 'off'} by default"
        )
        await self.controller.reply(interaction, text)


async def setup(bot) -> None:
    await bot.add_cog(Tripoley(bot))
