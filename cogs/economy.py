"""``/tripoley`` commands about chips and records: balance, leaderboard, stats, daily and relief, forget-me
(the admins' tools are in :mod:`cogs.admin`)."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot import errors
from bot.competition.rating import PROVISIONAL_GAMES
from bot.competition.store import Rating
from bot.discordio.answering import acknowledge_then, channel_of, guild_of, reply
from bot.economy.bank import WEEK
from bot.economy.prefs import GuildConfig
from bot.economy.privacy import forget_everywhere
from bot.i18n import Locale, _, reading
from bot.i18n.choice import private_locale, public_locale
from bot.messages import answers
from bot.messages.competition import STATS_RATING, rating_text
from cogs import competition
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

SEASON_BOARD = "season"  # a leaderboard key: a past season's final standings ("season-3")
STATS_GAMES = 20  # the games the stats chart follows
PUBLIC_ANSWER = "Post the answer in the channel for everyone (default: only you see it)"


class EconomyCommands(CommandFamily):
    """The economy's commands (composed into the ``/tripoley`` cog)."""

    # -- chips and records ---------------------------------------------------------------

    @app_commands.command(name="balance", description="Your chips in this server")
    async def balance(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(guild_of(interaction))
        balance = await self.bank.balance(guild_of(interaction), interaction.user.id, config.starting_balance)
        lines = [_(answers.WALLET).format(chips=balance)]
        table = self.manager.registry.by_channel.get(channel_of(interaction)) or self.manager.registry.by_thread.get(
            channel_of(interaction)
        )
        if table is not None:
            seat = table.seat_of(interaction.user.id)
            if seat is not None:
                at = table.game.stacks[seat] if table.game is not None else table.seats[seat].stake
                lines.append(_(answers.AT_THIS_TABLE).format(chips=at))
        lines.append(await self._grants_due(interaction, config, balance))
        await reply(interaction, "\n".join(lines))

    async def _grants_due(self, interaction: discord.Interaction, config: GuildConfig, balance: int) -> str:
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
            parts.append(answers.grant_due(kind, left))
        return " · ".join(parts)

    @app_commands.command(
        name="leaderboard", description="The server's best players by rating, or by chips, wins or games"
    )
    @app_commands.describe(
        by="Rank by rating (the default), wallet balance, net winnings, games won or games played",
        period="This week or all time (net winnings and games won)",
        public=PUBLIC_ANSWER,
        season="A past season's final standings: its number",
    )
    @app_commands.choices(
        by=[app_commands.Choice(name=title, value=key) for key, title in LEADERBOARD_TITLES.items()],
        period=[app_commands.Choice(name="all time", value="all"), app_commands.Choice(name="this week", value=WEEK)],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: str = "rating",
        period: str = "all",
        public: bool = False,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        key = f"{SEASON_BOARD}-{season}" if season is not None else f"{by}-{period}"
        with reading(await self._answer_locale(interaction, public)):
            embed, view = await self._board(guild_of(interaction), key, 0)
        # private unless asked: no post in a game's channel
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": not public}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def _board(self, guild_id: int, key: str, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
        by, _dash, period = key.partition("-")
        if by in (SEASON_BOARD, "rating", "games"):
            return await self._competition_board(guild_id, key, page)
        if by not in LEADERBOARD_TITLES:
            raise errors.StaleButton(errors.Refusal.LEADERBOARD_GONE)
        week = period == WEEK and by != "balance"  # a balance is always today's
        size = await self.bank.leaderboard_size(guild_id, by, WEEK if week else None)
        pages = max(1, -(-size // LEADERBOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows = await self.bank.leaderboard(
            guild_id, by, page * LEADERBOARD_PAGE, LEADERBOARD_PAGE, WEEK if week else None
        )
        title = _(answers.LEADERBOARD_TITLE[(by, week)])
        lines = [
            answers.board_row(i, row["user_id"], by, row["value"])
            for i, row in enumerate(rows, page * LEADERBOARD_PAGE + 1)
        ]
        empty = _(answers.BOARD_EMPTY[week])
        embed = discord.Embed(title=title, description="\n".join(lines) or empty, colour=0x2E8B57)
        embed.set_footer(text=answers.page_footer(page + 1, pages, week))
        return embed, pager("board", key, page, pages)

    async def _competition_board(
        self, guild_id: int, key: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """The boards of :mod:`cogs.competition`: by rating, by games played (both all time), a past season."""
        by, _dash, rest = key.partition("-")
        store = self.manager.ratings
        if by == SEASON_BOARD:
            embed, pages = await competition.season_board(store, guild_id, int(rest), page, LEADERBOARD_PAGE)
        else:
            draw = competition.rating_board if by == "rating" else competition.games_board
            embed, pages = await draw(store, guild_id, page, LEADERBOARD_PAGE)
        return embed, pager("board", key, max(0, min(page, pages - 1)), pages)

    async def _board_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        """A page turned: in the language the board was posted in (a public one: the server's)."""
        public = interaction.message is not None and not interaction.message.flags.ephemeral
        with reading(await self._answer_locale(interaction, public)):
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
            await reply(interaction, answers.no_games_yet(display_name(target)))
            return
        private = not public  # anyone's stats, privately unless asked (no post in a game's channel)
        await interaction.response.defer(ephemeral=private, thinking=True)  # the chart is drawn first
        locale = await self._answer_locale(interaction, public)
        rating = await self.manager.ratings.rating(guild_of(interaction), target.id)
        with reading(locale):
            embed = _stats_embed(target.id, stats, rating)
        png, alt = await self._stats_chart(guild_of(interaction), target, locale.value)
        if png is None:
            await interaction.followup.send(embed=embed, ephemeral=private)
            return
        embed.set_image(url="attachment://stats.png")
        chart = discord.File(io.BytesIO(png), filename="stats.png", description=(alt or "")[:1000] or None)
        await interaction.followup.send(embed=embed, file=chart, ephemeral=private)

    async def _answer_locale(self, interaction: discord.Interaction, public: bool) -> Locale:
        """An answer posted for the channel (``public``) in the server's language, else in its reader's."""
        if not public:
            return private_locale(interaction.locale)
        setting = (await self.prefs.guild(guild_of(interaction))).language
        return public_locale(setting, interaction.guild_locale)

    async def _stats_chart(
        self, guild_id: int, target: discord.abc.User, locale: str
    ) -> tuple[bytes | None, str | None]:
        """The chart of ``/tripoley stats`` (images.stats, drawn in the render workers) and its alt
        text: the player's net chips (and rating) after each of their last games, their results per game;
        in ``locale``."""
        games = await self.manager.store.player_games(guild_id, target.id, STATS_GAMES)
        presets = await self.manager.store.player_presets(guild_id, target.id)
        ratings = await self.manager.ratings.trend(guild_id, target.id, [g["id"] for g in games])
        data = {
            "locale": locale,
            "name": display_name(target),
            "games": [
                {"game": preset_name(g["preset"]), "net": g["net"], "winner": g["winner"], "rating": rating}
                for g, rating in zip(games, ratings)
            ],
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
        async def claim() -> dict[str, Any]:
            config = await self.prefs.guild(guild_of(interaction))
            balance = await self.bank.claim(
                guild_of(interaction),
                interaction.user.id,
                "daily",
                config.daily_amount,
                config.daily_cooldown_hours * 3600,
                config.starting_balance,
            )
            return {"content": answers.daily_claimed(config.daily_amount, balance, config.daily_cooldown_hours * 3600)}

        await acknowledge_then(interaction, claim)

    @app_commands.command(
        name="relief", description="Chips to get back in when your wallet is below the smallest buy-in"
    )
    async def relief(self, interaction: discord.Interaction) -> None:
        async def claim() -> dict[str, Any]:
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
            return {"content": answers.relief_claimed(config.relief_amount, balance)}

        await acknowledge_then(interaction, claim)

    # -- your data ------------------------------------------------------------------------------

    @app_commands.command(name="forget-me", description="Delete your wallet, stats and name from this server")
    @app_commands.describe(everywhere="Forget me in every server where the bot keeps something about me")
    async def forget_me(self, interaction: discord.Interaction, everywhere: bool = False) -> None:
        if self.manager.registry.seated(guild_of(interaction), interaction.user.id):
            raise errors.NotAllowed(errors.Refusal.STILL_SEATED)
        if everywhere:
            await interaction.response.send_message(
                _(answers.FORGET_EVERYWHERE_ASK),
                view=confirm_view("forget-everywhere", _(answers.FORGET_EVERYWHERE_BUTTON)),
                ephemeral=True,
            )
            return
        await interaction.response.send_message(
            _(answers.FORGET_ASK),
            view=confirm_view("forget", _(answers.FORGET_BUTTON)),
            ephemeral=True,
        )

    async def _confirm_forget_everywhere(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id
        removed = await forget_everywhere(
            self.bank, user_id, lambda guild_id: self.manager.registry.seated(guild_id, user_id)
        )
        await interaction.response.edit_message(
            content=answers.forgotten_everywhere(len(removed), sum(removed.values())),
            view=None,
        )

    async def _confirm_forget(self, interaction: discord.Interaction) -> None:
        guild_id, user_id = guild_of(interaction), interaction.user.id
        removed = await self.bank.forget(guild_id, user_id, lambda: self.manager.registry.seated(guild_id, user_id))
        await interaction.response.edit_message(content=answers.forgotten_here(removed), view=None)


def _stats_embed(user_id: int, stats: dict[str, Any], rating: Rating | None) -> discord.Embed:
    """``/tripoley stats``'s embed (its chart attached apart), in the language being read."""
    net = stats["net"]
    embed = discord.Embed(title=_(answers.STATS_TITLE), description=f"<@{user_id}>", colour=0x2E8B57)
    labels = answers.STATS_FIELDS
    embed.add_field(name=_(labels["games"]), value=str(stats["games"]))
    embed.add_field(name=_(labels["wins"]), value=str(stats["wins"]))
    embed.add_field(name=_(labels["rate"]), value=f"{stats['wins'] / stats['games']:.0%}" if stats["games"] else "—")
    favourite = _(preset_name(stats["favourite"])) if stats.get("favourite") else "—"
    embed.add_field(name=_(labels["favourite"]), value=favourite)
    embed.add_field(name=_(labels["rounds"]), value=str(stats["rounds"]))
    embed.add_field(name=_(labels["pots"]), value=str(stats["pots_won"]))
    embed.add_field(name=_(labels["net"]), value=f"{'+' if net > 0 else ''}{net}")
    best = answers.hand_name(stats["best_hand"]) if stats["best_hand"] else "—"
    embed.add_field(name=_(labels["best"]), value=best)
    if rating is not None:
        embed.add_field(name=_(STATS_RATING), value=rating_text(rating.shown, rating.games, PROVISIONAL_GAMES))
    return embed
