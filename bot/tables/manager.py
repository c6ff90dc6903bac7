"""The table manager: one table per channel, testable without Discord.

A table is a lobby (seats and buy-ins) and then a running engine ``Game``. Every entry point
takes the table's ``asyncio.Lock``, changes state, saves it and returns a
:class:`~bot.tables.model.TableUpdate` that the Discord layer turns into messages. Updates are also
pushed to the registered listeners (the mat publisher), so changes made by timers and AI seats
reach the channel too.

:class:`TableManager` is the facade the cogs, the controller and the tests call; it keeps the
open tables (by channel, id and thread) and composes the parts that do the work:

- :class:`~bot.tables.lobby.Lobby` (bot/tables/lobby.py): open, join, leave, add AI, house rules, start, Rematch;
- :class:`~bot.tables.play.Play` (bot/tables/play.py): moves, AI moves, safe defaults, stopping a game;
- :class:`~bot.tables.moderation.Moderation` (bot/tables/moderation.py): the host removes a player, the table votes an absent one's seat to the AI;
- :class:`~bot.tables.timers.Timers` (bot/tables/timers.py): deadlines as absolute times, resumed after a restart;
- :class:`~bot.tables.results.Results` (bot/tables/results.py): the end of a game, results, the audit;
- :class:`~bot.tables.store.TableStore` (bot/tables/store.py): every SQL statement about tables, their
  results and stats, and the coalesced saves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable

from bot import errors
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.settings import Settings
from bot.storage.database import Database
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import Clock, SystemClock
from bot.tables.lobby import Lobby
from bot.tables.model import Listener, Table, TableUpdate
from bot.tables.moderation import Moderation
from bot.tables.play import Play
from bot.tables.results import Results
from bot.tables.store import TableStore
from bot.tables.timers import Timers

log = logging.getLogger(__name__)


class TableManager:
    def __init__(
        self,
        db: Database,
        bank: Bank,
        prefs: Prefs,
        settings: Settings,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        save_delay: float = 0.0,
    ) -> None:
        self.store = TableStore(db, save_delay)
        self.bank = bank
        self.prefs = prefs
        self.settings = settings
        self.clock = clock or SystemClock()
        self.rng = rng or random.Random()
        self.ai = AIPlayers(self.rng, clock=self.clock)  # the bot gives it a worker process pool for Hard decisions
        self.tables: dict[int, Table] = {}  # by channel id
        self.by_id: dict[int, Table] = {}
        self.threads: dict[int, Table] = {}  # by thread id: a table running in a thread
        # Whether a user is still a member of a server (the Discord layer asks Discord); None: assume so.
        self.member_check: Callable[[int, int], Awaitable[bool]] | None = None
        self.listeners: list[Listener] = []
        self.lobby = Lobby(self)
        self.play = Play(self)
        self.timers = Timers(self)
        self.results = Results(self)
        self.moderation = Moderation(self)
        # The entry points, part by part.
        self.create_table = self.lobby.create_table
        self.rematch = self.lobby.rematch
        self.join = self.lobby.join
        self.add_ai = self.lobby.add_ai
        self.set_house_rule = self.lobby.set_house_rule
        self.leave = self.lobby.leave
        self.kick = self.lobby.kick
        self.start = self.lobby.start
        self.act = self.play.act
        self.back = self.play.back
        self.host_kick = self.moderation.host_kick
        self.check_kick = self.moderation.check_kick
        self.vote_ai = self.moderation.vote_ai
        self.stop = self.play.stop
        self.resume = self.timers.resume
        self.run = self.timers.run
        self.tick = self.timers.tick
        self.next_deadline = self.timers.next_deadline
        self.flush_saves = self.store.flush
        self.audit = self.results.audit
        self.stats = self.store.stats
        self.history = self.store.history
        self.replay = self.store.replay
        self.game_log = self.store.game_log
        self.player_games = self.store.player_games
        self.player_presets = self.store.player_presets

    # -- the open tables and their listeners --------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def notify(self, update: TableUpdate) -> None:
        for listener in self.listeners:
            try:
                listener(update)
            except Exception:
                log.exception("table listener failed")

    def changed_unsaved(self, table: Table) -> None:
        """A change applied to the table in memory whose save failed (the database went away, e.g. a
        PostgreSQL restart): the listeners are told all the same, so the table message shows the
        turn the players' hands show (it kept the one before: the two disagreed). The coalesced
        saves write the state once the database is back."""
        if table.status == "playing" and self.by_id.get(table.id) is table:
            self.notify(self.update(table, "play"))

    def forget(self, table: Table) -> None:
        self.store.discard(table)
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        if table.thread_id is not None and self.threads.get(table.thread_id) is table:
            del self.threads[table.thread_id]
        self.by_id.pop(table.id, None)

    def remember(self, table: Table) -> None:
        self.tables[table.channel_id] = table
        self.by_id[table.id] = table
        if table.thread_id is not None:
            self.threads[table.thread_id] = table

    def get(self, channel_id: int) -> Table:
        """The open table of a channel, or of the thread it runs in."""
        table = self.tables.get(channel_id) or self.threads.get(channel_id)
        if table is None:
            raise errors.NoTable(errors.Refusal.NO_TABLE)
        return table

    def get_by_id(self, table_id: int) -> Table | None:
        return self.by_id.get(table_id)

    def seated(self, guild_id: int, user_id: int) -> bool:
        """Whether the user has a seat at an open table of the server (their chips are in play)."""
        return any(t.guild_id == guild_id and t.seat_of(user_id) is not None for t in self.by_id.values())

    def update(self, table: Table, kind: str, **kw) -> TableUpdate:
        return TableUpdate(table=table, kind=kind, version=table.version, **kw)

    def still_open(self, table: Table) -> None:
        """Under the table's lock: refuse if the table closed while we waited for it (a double
        click, the lobby timer, the game's end)."""
        if table.status not in ("lobby", "playing") or self.tables.get(table.channel_id) is not table:
            raise errors.NoTable(errors.Refusal.TABLE_CLOSED)

    # -- read-only --------------------------------------------------------------------

    def private_view(self, channel_id: int, user_id: int) -> tuple[Table, int, dict]:
        table = self.get(channel_id)
        if table.status != "playing":
            raise errors.WrongPhase(errors.Refusal.NO_CARDS_YET)
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.NO_HAND_TO_SHOW)
        return table, index, table.game.view(index)
