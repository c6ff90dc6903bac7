"""The table manager: one table per channel, testable without Discord.

A table is a lobby (seats and buy-ins) and then a running engine ``Game``. Every entry point
takes the table's ``asyncio.Lock``, changes state, saves it and returns a
:class:`~bot.tables.model.TableUpdate` that the Discord layer turns into messages. Updates are also
pushed to the registered listeners (the mat publisher), so changes made by timers and AI seats
reach the channel too.

:class:`TableManager` is the composition root: it builds the parts and hands each its collaborators;
the cogs, the controller and the tests call the parts themselves (``manager.lobby.join``,
``manager.registry.get``…), never through it. The parts never call back into it, and the calls
between them go one way (each module imports only those below it):

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

from bot.competition.seasons import Seasons
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.settings import Settings
from bot.storage.database import Database
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import Clock, SystemClock
from bot.tables.flow import Flow
from bot.tables.lobby import Lobby
from bot.tables.moderation import Moderation
from bot.tables.play import Play
from bot.tables.registry import Registry
from bot.tables.results import Results
from bot.tables.store import TableStore
from bot.tables.telling import Teller
from bot.tables.timers import Timers


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
        self.teller = teller  # the words of what tables tell (a tournament's AI seats' names too)
        self.flow = Flow(self.registry, self.store, bank, settings, self.clock, self.ai, self.rng, teller)
        bank.also_forget.append(self.flow.ratings.forget)  # forget-me scrubs the ratings and standings too
        self.ratings = self.flow.ratings  # bot.competition: the ratings, the leaderboards, the standings
        self.seasons = Seasons(self.ratings, bank, self.clock.wall)
        self.lobby = Lobby(self.registry, self.store, bank, prefs, settings, self.clock, self.rng, self.flow, teller)
        self.play = Play(self.registry, self.flow, teller)
        self.moderation = Moderation(self.registry, self.store, self.flow, self.lobby, teller)
        self.timers = Timers(self.registry, self.store, bank, settings, self.clock, self.flow, teller)
        self.results = Results(self.registry, self.store, bank)
