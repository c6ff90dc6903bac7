"""``/tripoley`` commands about chips and records: balance, leaderboard, stats, daily and relief, forget-me
(the admins' tools are in :mod:`cogs.admin`)."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot import errors
from bot.discordio.answering import acknowledge_then, channel_of, guild_of, reply
from bot.economy.bank import STILL_SEATED, WEEK, duration_text
from bot.economy.privacy import forget_everywhere
from bot.messages.text import escape, plural
from cogs.common import (
    LEADERBOARD_PAGE,
    LEADERBOARD_TITLES,
    CommandFamily,
    confirm_view,
    display_name,
    pager,
    preset_name,
    smallest_buy_in,
)

STATS_GAMES = 20  # the games the stats chart follows
PUBLIC_ANSWER = "Post the answer in the channel for everyone (default: only you see it)"


class EconomyCommands(CommandFamily):
    """The economy's commands (composed into the ``/tripoley`` cog)."""

    # -- chips and records ---------------------------------------------------------------

    @app_commands.command(name="balance", description="Your chips in this server")
    async def balance(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(guild_of(interaction))
        balance = await self.bank.balance(guild_of(interaction), interaction.user.id, config.starting_balance)
        lines = [f"Your wallet: **{balance}** chips."]
        table = self.manager.registry.by_channel.get(channel_of(interaction)) or self.manager.registry.by_thread.get(
            channel_of(interaction)
        )
        if table is not None:
            seat = table.seat_of(interaction.user.id)
            if seat is not None:
                at = table.game.stacks[seat] if table.game is not None else table.seats[seat].stake
                lines.append(f"At this table: **{at}** chips.")
        lines.append(await self._grants_due(interaction, config, balance))
        await reply(interaction, "\n".join(lines))

    async def _grants_due(self, interaction: discord.Interaction, config, balance: int) -> str:
        """When the player can next claim the daily (and, with a wallet below the smallest buy-in, relief) grant."""
        last = await self.bank.last_claims(guild_of(interaction), interaction.user.id)
        now = self.bank.clock()
        parts = []
        kinds = [("daily", config.daily_amount, config.daily_cooldown_hours)]
        if balance < smallest_buy_in():
            kinds.append(("relief", config.relief_amount, config.relief_cooldown_hours))
        for kind, amount, hours in kinds:
            if amount <= 0:
                continue
            left = last.get(kind, float("-inf")) + hours * 3600 - now
            parts.append(f"`/tripoley {kind}` in {duration_text(left)}" if left > 0 else f"`/tripoley {kind}` is ready")
        return " · ".join(parts)

    @app_commands.command(name="leaderboard", description="The server's richest players, biggest winners and most wins")
    @app_commands.describe(
        by="Rank by wallet balance, net winnings or games won",
        period="This week or all time",
        public=PUBLIC_ANSWER,
    )
    @app_commands.choices(
        by=[app_commands.Choice(name=title, value=key) for key, title in LEADERBOARD_TITLES.items()],
        period=[app_commands.Choice(name="all time", value="all"), app_commands.Choice(name="this week", value=WEEK)],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, by: str = "balance", period: str = "all", public: bool = False
    ) -> None:
        embed, view = await self._board(guild_of(interaction), f"{by}-{period}", 0)
        kwargs = {"embed": embed, "ephemeral": not public}  # private unless asked: no post in a game's channel
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def _board(self, guild_id: int, key: str, page: int):
        by, _, period = key.partition("-")
        if by not in LEADERBOARD_TITLES:
            raise errors.StaleButton("That leaderboard is no longer available.")
        week = period == WEEK and by != "balance"  # a balance is always today's
        size = await self.bank.leaderboard_size(guild_id, by, WEEK if week else None)
        pages = max(1, -(-size // LEADERBOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows = await self.bank.leaderboard(
            guild_id, by, page * LEADERBOARD_PAGE, LEADERBOARD_PAGE, WEEK if week else None
        )
        title = f"Leaderboard — {LEADERBOARD_TITLES[by]}" + (" this week" if week else "")
        unit = "win" if by == "wins" else "chip"
        lines = []
        for i, row in enumerate(rows, page * LEADERBOARD_PAGE + 1):
            value = f"{'+' if by == 'net' and row['value'] > 0 else ''}{row['value']}"
            lines.append(f"**{i}.** <@{row['user_id']}> — {plural(value, unit)}")
        empty = "No games ended this week yet." if week else "Nobody has played yet."
        embed = discord.Embed(title=title, description="\n".join(lines) or empty, colour=0x2E8B57)
        embed.set_footer(text=f"Page {page + 1}/{pages}" + (" · the week starts Monday 00:00 UTC" if week else ""))
        return embed, pager("board", key, page, pages)

    async def _board_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = await self._board(guild_of(interaction), key, page)
        await interaction.response.edit_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, rounds, pots and best hand of a player")
    @app_commands.describe(user="Whose stats (default: yours)", public=PUBLIC_ANSWER)
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None, public: bool = False
    ) -> None:
        target = user or interaction.user
        stats = await self.manager.store.stats(guild_of(interaction), target.id)
        if not stats:
            await reply(interaction, f"{escape(display_name(target))} hasn't finished a game here yet.")
            return
        net = stats["net"]
        embed = discord.Embed(title="Stats", description=f"<@{target.id}>", colour=0x2E8B57)
        embed.add_field(name="Games", value=str(stats["games"]))
        embed.add_field(name="Wins", value=str(stats["wins"]))
        embed.add_field(name="Win rate", value=f"{stats['wins'] / stats['games']:.0%}" if stats["games"] else "—")
        embed.add_field(name="Favourite game", value=preset_name(stats["favourite"]) if stats.get("favourite") else "—")
        embed.add_field(name="Rounds", value=str(stats["rounds"]))
        embed.add_field(name="Pots won", value=str(stats["pots_won"]))
        embed.add_field(name="Net winnings", value=f"{'+' if net > 0 else ''}{net}")
        embed.add_field(name="Best poker hand", value=stats["best_hand"] or "—")
        private = not public  # anyone's stats, privately unless asked (no post in a game's channel)
        await interaction.response.defer(ephemeral=private, thinking=True)  # the chart is drawn first
        png, alt = await self._stats_chart(guild_of(interaction), target)
        if png is None:
            await interaction.followup.send(embed=embed, ephemeral=private)
            return
        embed.set_image(url="attachment://stats.png")
        chart = discord.File(io.BytesIO(png), filename="stats.png", description=(alt or "")[:1000] or None)
        await interaction.followup.send(embed=embed, file=chart, ephemeral=private)

    async def _stats_chart(self, guild_id: int, target: discord.abc.User) -> tuple[bytes | None, str | None]:
        """The chart of ``/tripoley stats`` (images.stats, drawn in the render workers) and its alt
        text: the player's net chips after each of their last games, their results per game."""
        games = await self.manager.store.player_games(guild_id, target.id, STATS_GAMES)
        presets = await self.manager.store.player_presets(guild_id, target.id)
        data = {
            "name": display_name(target),
            "games": [{"game": preset_name(g["preset"]), "net": g["net"], "winner": g["winner"]} for g in games],
            "total_net": sum(p["net"] for p in presets),
            "by_game": [{**p, "game": preset_name(p["preset"])} for p in presets],
        }
        publisher = self.controller.publisher
        return await publisher.image("stats", data) if publisher is not None else (None, None)

    # -- getting back in -------------------------------------------------------------------------

    # A grant is made only once its answer is sure to be seen (acknowledge_then): a claim whose
    # acknowledgement failed ("This interaction failed") grants nothing.

    @app_commands.command(name="daily", description="Claim your daily chips")
    async def daily(self, interaction: discord.Interaction) -> None:
        async def claim() -> dict:
            config = await self.prefs.guild(guild_of(interaction))
            balance = await self.bank.claim(
                guild_of(interaction),
                interaction.user.id,
                "daily",
                config.daily_amount,
                config.daily_cooldown_hours * 3600,
                config.starting_balance,
            )
            return {
                "content": f"+{config.daily_amount} chips! Your wallet: **{balance}** chips. "
                f"The next daily grant is in {duration_text(config.daily_cooldown_hours * 3600)}."
            }

        await acknowledge_then(interaction, claim)

    @app_commands.command(
        name="relief", description="Chips to get back in when your wallet is below the smallest buy-in"
    )
    async def relief(self, interaction: discord.Interaction) -> None:
        async def claim() -> dict:
            config = await self.prefs.guild(guild_of(interaction))
            balance = await self.bank.claim(
                guild_of(interaction),
                interaction.user.id,
                "relief",
                config.relief_amount,
                config.relief_cooldown_hours * 3600,
                config.starting_balance,
                below=smallest_buy_in(),
            )
            return {"content": f"+{config.relief_amount} chips to get you back in. Your wallet: **{balance}** chips."}

        await acknowledge_then(interaction, claim)

    # -- your data ------------------------------------------------------------------------------

    @app_commands.command(name="forget-me", description="Delete your wallet, stats and name from this server")
    @app_commands.describe(everywhere="Forget me in every server where the bot keeps something about me")
    async def forget_me(self, interaction: discord.Interaction, everywhere: bool = False) -> None:
        if self.manager.registry.seated(guild_of(interaction), interaction.user.id):
            raise errors.NotAllowed(STILL_SEATED)
        if everywhere:
            await interaction.response.send_message(
                "This deletes, in **every** server where you played: your wallets (their chips are gone for good), "
                "your stats and your name from the games; and your DM and ping preferences. Ledger rows stay, "
                "anonymised, so each server's totals still add up. Sure?",
                view=confirm_view("forget-everywhere", "Forget me everywhere"),
                ephemeral=True,
            )
            return
        await interaction.response.send_message(
            "This deletes your wallet (its chips are gone for good), your stats and your name from this "
            "server's games. Ledger rows stay, anonymised, so the server's totals still add up. If you play "
            "here again you start at 0 chips, and your daily and relief cooldowns carry on: all that is kept "
            "for that is a keyed hash of your id (see PRIVACY.md). Sure?",
            view=confirm_view("forget", "Forget me"),
            ephemeral=True,
        )

    async def _confirm_forget_everywhere(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id
        removed = await forget_everywhere(
            self.bank, user_id, lambda guild_id: self.manager.registry.seated(guild_id, user_id)
        )
        await interaction.response.edit_message(
            content=f"Done: you are forgotten in {len(removed)} server(s) ({sum(removed.values())} chips removed "
            "from your wallets), and your preferences are deleted.",
            view=None,
        )

    async def _confirm_forget(self, interaction: discord.Interaction) -> None:
        guild_id, user_id = guild_of(interaction), interaction.user.id
        removed = await self.bank.forget(guild_id, user_id, lambda: self.manager.registry.seated(guild_id, user_id))
        await interaction.response.edit_message(
            content=f"Done: your wallet ({removed} chips), stats and name are gone from this server.", view=None
        )
