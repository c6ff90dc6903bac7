"""The table manager: one table per channel, testable without Discord.

A table is a lobby (seats and buy-ins) and then a running engine ``Game``. Every entry point
takes the table's ``asyncio.Lock``, changes state, saves it and returns a
:class:`~bot.tables.model.TableUpdate` that the Discord layer turns into messages. Updates are also
pushed to the registered listeners (the mat publisher), so changes made by timers and AI seats
reach the channel too.

:class:`TableManager` is the composition root: it builds the parts, hands each its collaborators,
and offers the entry points the cogs, the controller and the tests call. The parts never call
back into it, and the calls between them go one way (each module imports only those below it):

- :class:`~bot.tables.registry.Registry` (bot/tables/registry.py): the open tables by channel, id and thread; the listeners;
- :class:`~bot.tables.store.TableStore` (bot/tables/store.py): every SQL statement about tables, their
  results and stats, and the coalesced saves;
- :class:`~bot.tables.flow.Flow` (bot/tables/flow.py): after any change: AI moves, the next deal, deadlines, the save, the game's end;
- :class:`~bot.tables.lobby.Lobby` (bot/tables/lobby.py): open, join, leave, add AI, house rules, start, Rematch;
- :class:`~bot.tables.play.Play` (bot/tables/play.py): a move checked and applied, "I'm back", stopping a table;
- :class:`~bot.tables.moderation.Moderation` (bot/tables/moderation.py): the host removes a player, the table votes an absent one's seat to the AI;
- :class:`~bot.tables.timers.Timers` (bot/tables/timers.py): deadlines fired as they come due, resumed after a restart;
- :class:`~bot.tables.results.Results` (bot/tables/results.py): what a finished game records, the audit;
- :class:`~bot.competition.store.CompetitionStore` and :class:`~bot.competition.seasons.Seasons`
  (bot/competition): the ratings (each game rated with its end, by the flow) and the seasons.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot import errors
from bot.competition.seasons import Seasons
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.settings import Settings
from bot.storage.database import Database
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import Clock, SystemClock
from bot.tables.flow import Flow
from bot.tables.lobby import Lobby
from bot.tables.model import BeforeApply, Listener, Seat, Table, TableStatus, TableUpdate
from bot.tables.moderation import Moderation
from bot.tables.play import Play
from bot.tables.registry import Registry
from bot.tables.results import Results
from bot.tables.store import TableStore
from bot.tables.telling import Teller
from bot.tables.timers import Timers
from engine.viewtypes import GameView


class TableManager:
    def __init__(
        self,
        db: Database,
        bank: Bank,
        prefs: Prefs,
        settings: Settings,
        teller: Teller,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        save_delay: float = 0.0,
        ai: AIPlayers | None = None,
    ) -> None:
        """``teller``: the words of what the tables tell (the Discord side's:
        :data:`bot.messages.tablelines.TABLE_LINES`); ``ai``: the AI seats' decisions (default: with ``rng`` and ``clock``; the bot gives it a
        worker process pool for Hard decisions)."""
        self.clock = clock or SystemClock()
        self.store = TableStore(db, save_delay, self.clock)
        self.bank = bank
        self.prefs = prefs
        self.settings = settings
        self.rng = rng or random.Random()
        self.ai = ai or AIPlayers(self.rng, clock=self.clock)
        self.registry = Registry()
        self.flow = Flow(self.registry, self.store, bank, settings, self.clock, self.ai, self.rng, teller)
        bank.also_forget.append(self.flow.ratings.forget)  # forget-me scrubs the ratings and standings too
        self.ratings = self.flow.ratings  # bot.competition: the ratings, the leaderboards, the standings
        self.seasons = Seasons(self.ratings, bank, self.clock.wall)
        self.lobby = Lobby(self.registry, self.store, bank, prefs, settings, self.clock, self.rng, self.flow, teller)
        self.play = Play(self.registry, self.flow, teller)
        self.moderation = Moderation(self.registry, self.store, self.flow, self.lobby, teller)
        self.timers = Timers(self.registry, self.store, bank, settings, self.clock, self.flow, teller)
        self.results = Results(self.registry, self.store, bank)

    # -- the open tables ----------------------------------------------------------------

    @property
    def tables(self) -> Mapping[int, Table]:
        """The open tables by channel (read only)."""
        return self.registry.by_channel

    @property
    def by_id(self) -> Mapping[int, Table]:
        return self.registry.by_id

    @property
    def threads(self) -> Mapping[int, Table]:
        """The open tables running in a thread, by thread."""
        return self.registry.by_thread

    def get(self, channel_id: int) -> Table:
        """The open table of a channel, or of the thread it runs in."""
        return self.registry.get(channel_id)

    def get_by_id(self, table_id: int) -> Table | None:
        return self.registry.get_by_id(table_id)

    def seated(self, guild_id: int, user_id: int) -> bool:
        """Whether the user has a seat at an open table of the server (their chips are in play)."""
        return self.registry.seated(guild_id, user_id)

    def add_listener(self, listener: Listener) -> None:
        self.registry.add_listener(listener)

    @property
    def member_check(self) -> Callable[[int, int], Awaitable[bool]] | None:
        """Whether a user is still a member of a server (the Discord side asks Discord); None: assume so."""
        return self.timers.member_check

    @member_check.setter
    def member_check(self, check: Callable[[int, int], Awaitable[bool]] | None) -> None:
        self.timers.member_check = check

    def private_view(self, channel_id: int, user_id: int) -> tuple[Table, int, GameView]:
        table = self.get(channel_id)
        if table.status != TableStatus.PLAYING:
            raise errors.WrongPhase(errors.Refusal.NO_CARDS_YET)
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.NO_HAND_TO_SHOW)
        return table, index, table.running_game.view(index)

    # -- the lobby ----------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        buy_in: int | None = None,
        turn_timeout: float | None = None,
        thread: bool = False,
        rematch_of: int | None = None,
        auto_forced: bool = True,
        guild_locale: str | None = None,
    ) -> TableUpdate:
        return await self.lobby.create_table(
            guild_id,
            channel_id,
            host_id,
            host_name,
            preset,
            options,
            buy_in,
            turn_timeout,
            thread,
            rematch_of,
            auto_forced,
            guild_locale,
        )

    async def rematch(self, old_table_id: int, user_id: int, name: str, thread: bool = False) -> TableUpdate:
        return await self.lobby.rematch(old_table_id, user_id, name, thread)

    async def join(
        self, channel_id: int, user_id: int, name: str, before_apply: BeforeApply | None = None
    ) -> TableUpdate:
        return await self.lobby.join(channel_id, user_id, name, before_apply)

    async def add_ai(
        self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None, level: str = "normal"
    ) -> TableUpdate:
        return await self.lobby.add_ai(channel_id, user_id, before_apply, level)

    async def set_house_rule(self, channel_id: int, user_id: int, name: str, value: str) -> TableUpdate:
        return await self.lobby.set_house_rule(channel_id, user_id, name, value)

    async def leave(self, channel_id: int, user_id: int) -> TableUpdate:
        return await self.lobby.leave(channel_id, user_id)

    async def kick(
        self, guild_id: int, user_id: int, admin_name: str, admin_id: int | None = None
    ) -> list[TableUpdate]:
        return await self.lobby.kick(guild_id, user_id, admin_name, admin_id)

    async def start(self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None) -> TableUpdate:
        return await self.lobby.start(channel_id, user_id, before_apply)

    # -- the game -----------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: dict[str, Any],
        round_number: int | None = None,
        expect: str | None = None,
        before_apply: BeforeApply | None = None,
    ) -> TableUpdate:
        """A move at the channel's table (a button's click goes to :meth:`Play.act` with the table
        its id names)."""
        return await self.play.act(self.get(channel_id), user_id, action, round_number, expect, before_apply)

    async def back(self, channel_id: int, user_id: int) -> TableUpdate:
        return await self.play.back(channel_id, user_id)

    async def stop(self, channel_id: int, user_id: int, can_manage: bool, name: str = "") -> TableUpdate:
        return await self.play.stop(channel_id, user_id, can_manage, name)

    async def end_lost(self, table: Table, why: str) -> TableUpdate | None:
        return await self.play.end_lost(table, why)

    def check_kick(self, table: Table, host_id: int, user_id: int) -> Seat:
        return self.moderation.check_kick(table, host_id, user_id)

    async def host_kick(self, channel_id: int, host_id: int, user_id: int, confirmed: bool = False) -> TableUpdate:
        return await self.moderation.host_kick(channel_id, host_id, user_id, confirmed)

    async def vote_ai(self, channel_id: int, user_id: int, target: int, round_number: int) -> TableUpdate:
        return await self.moderation.vote_ai(channel_id, user_id, target, round_number)

    # -- timers -------------------------------------------------------------------------

    async def resume(self) -> list[Table]:
        return await self.timers.resume()

    async def run(self) -> None:
        await self.timers.run()

    async def tick(self, wait_for_searches: bool = True) -> list[TableUpdate]:
        return await self.timers.tick(wait_for_searches)

    def next_deadline(self) -> float | None:
        return self.timers.next_deadline()

    # -- what is kept -------------------------------------------------------------------

    async def flush_saves(self) -> None:
        await self.store.flush()

    async def audit(self, guild_id: int) -> dict[str, Any]:
        return await self.results.audit(guild_id)

    async def stats(self, guild_id: int, user_id: int) -> dict[str, Any] | None:
        return await self.store.stats(guild_id, user_id)

    async def history(self, guild_id: int, limit: int = 10) -> list[dict[str, Any]]:
        return await self.store.history(guild_id, limit)

    async def replay(self, guild_id: int, table_id: int) -> str | None:
        return await self.store.replay(guild_id, table_id)

    async def replay_and_end(self, guild_id: int, table_id: int) -> tuple[str, float | None] | None:
        return await self.store.replay_and_end(guild_id, table_id)

    async def game_log(self, guild_id: int, table_id: int) -> tuple[str, dict[str, list[str]]] | None:
        return await self.store.game_log(guild_id, table_id)

    async def player_games(self, guild_id: int, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
        return await self.store.player_games(guild_id, user_id, limit)

    async def player_presets(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        return await self.store.player_presets(guild_id, user_id)
