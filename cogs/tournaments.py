"""``/tripoley tournament …``: create, join, leave, start, standings, cancel (composed into ``/tripoley``).

The service (bot/tournaments) runs the tournaments; this family answers the commands and the sign-up
message's Join and Leave buttons, makes each table's thread in the tournament's channel, and shows
what the service tells: the sign-up message kept up to date, each stage's tables, the standings (a
picture and words) and the champion, in the tournament's channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.discordio.answering import acknowledged_first, channel_of, guild_of, reply, send_answer
from bot.discordio.permissions import check_bot_permissions
from bot.discordio.ui import message_kwargs
from bot.i18n.choice import public_locale
from bot.messages import tournaments as words
from bot.messages.outgoing import Outgoing
from bot.tournaments.model import StageTable, Tournament
from bot.tournaments.service import Event, Problem, Settings, TournamentError, Tournaments
from cogs.common import CommandFamily, display_name, preset_choices, preset_name

log = logging.getLogger(__name__)
CLOCK_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
ENDINGS = [app_commands.Choice(name="elimination (rising antes)", value="elimination"),
           app_commands.Choice(name="a number of rounds", value="rounds")]  # fmt: skip


def start_time(text: str | None, now: float) -> float | None:
    """``HH:MM`` (UTC: the next such time) or a number of minutes from now, as a wall time."""
    if not text:
        return None
    text = text.strip()
    if text.isdigit():
        return now + 60 * int(text)
    match = CLOCK_TIME.match(text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise errors.TripoleyError(words.bad_start_time())
    today = datetime.fromtimestamp(now, UTC).replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)
    when = today if today.timestamp() > now else today + timedelta(days=1)
    return when.timestamp()


@contextlib.asynccontextmanager
async def worded() -> AsyncIterator[None]:
    """The service's refusals, worded (bot.messages.tournaments) as the players' refusals are answered."""
    try:
        yield
    except TournamentError as exc:
        raise errors.TripoleyError(words.refusal(exc.problem, exc.facts)) from None


class TournamentCommands(CommandFamily):
    """The tournament commands and the service behind them (composed into the ``/tripoley`` cog)."""

    tournaments: Tournaments
    tournament = app_commands.Group(name="tournament", description="Tournaments: stages of tables, a final, prizes")

    async def cog_load(self) -> None:
        self.tournaments = Tournaments(self.manager, self.bank.db, self._table_place)
        self.tournaments.listeners.append(self._told)
        self._shows: set[asyncio.Task[None]] = set()
        self.controller.confirms[words.JOIN] = self._join_clicked
        self.controller.confirms[words.LEAVE] = self._leave_clicked
        self._runner: asyncio.Task[None] | None = None

    async def cog_unload(self) -> None:
        if self._runner is not None:
            self._runner.cancel()

    @commands.Cog.listener("on_ready")
    async def _tournaments_ready(self) -> None:
        """Once, at the first ready (the tables resumed before it, in TripoleyBot.setup_hook): the open
        tournaments resume and their start times are armed."""
        if self._runner is None:
            self._runner = asyncio.create_task(self._resume_and_run(), name="tripoley-tournaments")

    async def _resume_and_run(self) -> None:
        try:
            await self.tournaments.resume()
        except Exception:
            log.exception("tournaments could not resume")
        await self.tournaments.run()

    # -- the commands ------------------------------------------------------------------

    @tournament.command(name="create", description="Open a tournament in this channel (you're its first entrant)")
    @app_commands.describe(
        preset="Which game (default: the server's default)",
        buy_in="Chips each entrant pays into the prize pool",
        seats="Seats per table",
        advance="How many of each table go on to the next stage",
        ending="How each table's game ends",
        rounds="With a number of rounds: how many",
        start="Start time: HH:MM (UTC) or minutes from now (else the host starts it)",
        ai_fill="Fill the first tables with AI seats",
    )
    @app_commands.choices(preset=preset_choices(), ending=ENDINGS)
    async def tournament_create(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        buy_in: app_commands.Range[int, 0, 1_000_000] = 100,
        seats: app_commands.Range[int, 3, 20] = 4,
        advance: app_commands.Range[int, 1, 19] = 2,
        ending: str = "elimination",
        rounds: app_commands.Range[int, 1, 100] = 3,
        start: str | None = None,
        ai_fill: bool = False,
    ) -> None:
        guild = guild_of(interaction)
        if isinstance(interaction.channel, discord.Thread):  # its tables play in threads, which don't nest
            raise errors.TripoleyError(words.not_in_a_thread())
        check_bot_permissions(interaction, new_thread=True)  # each table plays in a thread of this channel
        config = await self.prefs.guild(guild)
        game = preset or config.default_preset
        when = start_time(start, time.time())
        locale = public_locale(config.language, interaction.guild_locale).value  # its posts: the server's language
        choices = Settings(game, buy_in, seats, advance, ending, rounds, ai_fill, when, locale)

        async def open_it() -> Tournament:
            async with worded():
                return await self.tournaments.create(
                    guild, channel_of(interaction), interaction.user.id, display_name(interaction.user), choices
                )

        tournament = await acknowledged_first(interaction, open_it)
        tournament.message_id = await send_answer(interaction, **message_kwargs(self._signup(tournament)))
        await self.tournaments.store.save(tournament)
        await reply(interaction, words.created_answer(tournament))

    @tournament.command(name="join", description="Sign up for this channel's tournament (its buy-in is taken)")
    async def tournament_join(self, interaction: discord.Interaction) -> None:
        await self._join(interaction, self._here(interaction))

    @tournament.command(name="leave", description="Leave the tournament (before the start: refunded)")
    async def tournament_leave(self, interaction: discord.Interaction) -> None:
        await self._leave(interaction, self._here(interaction))

    @tournament.command(name="start", description="Host: seat the first stage now")
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        tournament = self._here(interaction)

        async def begin() -> Tournament:
            async with worded():
                return await self.tournaments.start(tournament.id, interaction.user.id)

        await acknowledged_first(interaction, begin, ephemeral=True)
        await reply(interaction, words.started_answer(tournament))

    @tournament.command(name="standings", description="The tournament's standings (a finished one's too)")
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        async with worded():
            tournament = await self.tournaments.standings_of(guild_of(interaction), channel_of(interaction))
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(**message_kwargs(await self._standings(tournament)))

    @tournament.command(name="cancel", description="Host or Manage Server: call the tournament off, refunding everyone")
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        tournament = self._here(interaction)
        perms = getattr(interaction.user, "guild_permissions", None)
        can_manage = bool(perms and perms.manage_guild)

        async def call_off() -> Tournament:
            async with worded():
                return await self.tournaments.cancel(tournament.id, interaction.user.id, can_manage)

        await acknowledged_first(interaction, call_off, ephemeral=True)
        await reply(interaction, words.cancel_answer(tournament))

    # -- the sign-up buttons -----------------------------------------------------------

    async def _join_clicked(self, interaction: discord.Interaction, tournament_id: str) -> None:
        await self._join(interaction, self._numbered(tournament_id))

    async def _leave_clicked(self, interaction: discord.Interaction, tournament_id: str) -> None:
        await self._leave(interaction, self._numbered(tournament_id))

    async def _join(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        await self._privately(
            interaction,
            lambda: self.tournaments.join(tournament.id, interaction.user.id, display_name(interaction.user)),
            words.joined_answer,
        )

    async def _leave(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        async def leave() -> tuple[Tournament, bool]:
            return await self.tournaments.leave(tournament.id, interaction.user.id)

        async def left() -> str:
            async with worded():
                done, refunded = await leave()
            return words.left_answer(done, refunded)

        answer = await acknowledged_first(interaction, left, ephemeral=True)
        await reply(interaction, answer)

    async def _privately(
        self,
        interaction: discord.Interaction,
        work: Callable[[], Awaitable[Tournament]],
        answer: Callable[[Tournament], str],
    ) -> None:
        """Acknowledged privately before the chips move, then answered with what was done."""

        async def worded_work() -> Tournament:
            async with worded():
                return await work()

        tournament = await acknowledged_first(interaction, worded_work, ephemeral=True)
        await reply(interaction, answer(tournament))

    def _here(self, interaction: discord.Interaction) -> Tournament:
        try:
            return self.tournaments.in_channel(channel_of(interaction))
        except TournamentError as exc:
            raise errors.TripoleyError(words.refusal(exc.problem, exc.facts)) from None

    def _numbered(self, tournament_id: str) -> Tournament:
        tournament = self.tournaments.open.get(int(tournament_id)) if tournament_id.isdigit() else None
        if tournament is None:
            raise errors.StaleButton(words.refusal(Problem.OVER, {}))
        return tournament

    # -- what the channel shows --------------------------------------------------------

    def _signup(self, tournament: Tournament) -> Outgoing:
        game = preset_name(tournament.preset)
        return Outgoing(words.signup_text(tournament, game), components=words.signup_buttons(tournament))

    async def _standings(self, tournament: Tournament, head: str | None = None) -> Outgoing:
        game = preset_name(tournament.preset)
        text = words.standings_text(tournament, game)
        png, alt = await self.bot.publisher.image("tournament", words.standings_picture(tournament, game))
        return Outgoing(f"{head}\n{text}" if head else text, image=png, image_name="standings.png", alt=alt)

    async def _table_place(self, tournament: Tournament, table: StageTable) -> int:
        """A table's thread: started from a message naming its seats in the tournament's channel."""
        sink = self.bot.publisher.sink
        message_id = await sink.post(tournament.channel_id, Outgoing(words.table_opening(tournament, table)))
        return await sink.start_thread(tournament.channel_id, message_id, words.thread_name(tournament, table))

    def _told(self, tournament: Tournament, event: Event) -> None:
        task = asyncio.create_task(self._show(tournament, event), name=f"tournament-show-{tournament.id}")
        self._shows.add(task)
        task.add_done_callback(self._shows.discard)

    async def _show(self, tournament: Tournament, event: Event) -> None:
        sink = self.bot.publisher.sink
        try:
            if tournament.message_id is not None:
                await sink.edit(tournament.channel_id, tournament.message_id, self._signup(tournament))
            if event == Event.STAGE:
                await sink.post(tournament.channel_id, Outgoing(words.stage_text(tournament)))
            elif event == Event.FINISHED:
                out = await self._standings(tournament, words.champion_text(tournament))
                await sink.post(tournament.channel_id, out)
            elif event == Event.CANCELLED:
                await sink.post(tournament.channel_id, Outgoing(words.cancelled_text(tournament)))
        except Exception as exc:  # a message gone or refused: the tournament goes on without it
            log.warning("tournament %s: could not show %s (%s)", tournament.id, event, exc)

    async def shown(self) -> None:
        """Wait for what is being shown now (tests)."""
        while self._shows:
            await asyncio.gather(*self._shows, return_exceptions=True)
