"""The tournament service: sign-up, the start (the host's, or at its time), stages, prizes, cancel.

Each tournament table is an ordinary table of the table service (bot/tables), opened already started
in a thread of the tournament's channel (the Discord side makes the thread: ``places``) and played to
its end by the same machinery: timers, AI seats, leaving, restarts. Its seats play with a fresh
tournament stack each, not with their wallets: the stacks are granted to the table's stack account
(:func:`bot.tournaments.model.stack_account`) as the table opens and removed once it has cashed out
to it, so wallets see only the buy-in and the prizes. When a table finishes (the registry's listener,
or at start-up from its saved results) its order is recorded; when every table of a stage has
finished the next stage is seated, and after the final the pot is paid out. Every step is one
transaction (chips and the tournament's state together), so a restart resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum, auto
from typing import Any

from bot import errors
from bot.economy.bank import HOUSE
from bot.storage.database import Database
from bot.tables.lobby import AI_NAMES
from bot.tables.locking import KeyedLock
from bot.tables.manager import TableManager
from bot.tables.model import Seat, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.telling import Line
from bot.tournaments.model import (
    ENDINGS,
    Entrant,
    StageTable,
    Tournament,
    TournamentStatus,
    advancing,
    final_order,
    first_field,
    prizes,
    seat_stage,
    stack_account,
    table_order,
    table_sizes,
)
from bot.tournaments.store import TournamentStore
from engine import Game
from engine.presets import PRESETS

log = logging.getLogger(__name__)
AI_LEVEL = "normal"
MAX_WAIT = 60.0  # the timer looks again at least this often (a wall clock may be stepped, an opening failed)


class Problem(StrEnum):
    """What the tournament service refuses; worded by bot.messages.tournaments."""

    NONE_HERE = auto()
    ONE_OPEN_HERE = auto()
    UNKNOWN_GAME = auto()
    BAD_TABLE_SIZE = auto()
    BAD_ADVANCE = auto()
    BAD_ENDING = auto()
    BAD_BUY_IN = auto()
    START_PASSED = auto()
    NOT_SIGNING_UP = auto()
    ENTERED_ALREADY = auto()
    NOT_ENTERED = auto()
    LEFT_ALREADY = auto()
    HOST_ONLY = auto()
    TOO_FEW = auto()
    UNAFFORDABLE = auto()
    OVER = auto()


class TournamentError(Exception):
    """A refusal and its facts (no words: bot.messages.tournaments says it)."""

    def __init__(self, problem: Problem, **facts: Any) -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.facts = facts


class Event(StrEnum):
    """What the Discord side is told of (it updates the sign-up message, posts standings)."""

    SIGNUP = auto()
    STAGE = auto()
    FINISHED = auto()
    CANCELLED = auto()


Places = Callable[[Tournament, StageTable], Awaitable[int]]  # a table's thread, made: its id
Listener = Callable[[Tournament, Event], None]


@dataclass
class Settings:
    """A new tournament's choices (``/tripoley tournament create``)."""

    preset: str
    buy_in: int
    table_size: int
    advance: int
    ending: str = "elimination"
    rounds: int = 3
    ai_fill: bool = False
    start_at: float | None = None
    locale: str = "en"  # the server's language (bot.i18n.choice.public_locale)


@dataclass
class Tournaments:
    manager: TableManager
    db: Database
    places: Places
    listeners: list[Listener] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.store = TournamentStore(self.db, self.manager.bank)
        self.open: dict[int, Tournament] = {}
        self._locks = KeyedLock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self.manager.registry.add_listener(self._table_changed)

    # -- finding ------------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Tournament:
        """The open tournament of a channel (or of one of its tables' threads)."""
        for t in self.open.values():
            if t.channel_id == channel_id or any(s.thread_id == channel_id for st in t.stages for s in st):
                return t
        raise TournamentError(Problem.NONE_HERE)

    async def standings_of(self, guild_id: int, channel_id: int) -> Tournament:
        """The open tournament here, else the channel's latest (a finished one's standings)."""
        try:
            return self.in_channel(channel_id)
        except TournamentError:
            found = await self.store.latest(guild_id, channel_id)
            if found is None:
                raise
            return found

    def _tell(self, tournament: Tournament, event: Event) -> None:
        for listener in self.listeners:
            try:
                listener(tournament, event)
            except Exception:
                log.exception("tournament listener failed")

    def _wall(self) -> float:
        return self.manager.clock.wall()

    # -- sign-up ------------------------------------------------------------------------

    async def create(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, choices: Settings
    ) -> Tournament:
        """A new tournament in the channel, the host its first entrant (bought in)."""
        info = PRESETS.get(choices.preset)
        if info is None:
            raise TournamentError(Problem.UNKNOWN_GAME, game=choices.preset)
        if not max(3, info.min_players) <= choices.table_size <= info.max_players:
            raise TournamentError(Problem.BAD_TABLE_SIZE, least=max(3, info.min_players), most=info.max_players)
        if not 1 <= choices.advance < choices.table_size:
            raise TournamentError(Problem.BAD_ADVANCE, most=choices.table_size - 1)
        if choices.ending not in ENDINGS or choices.rounds < 1:
            raise TournamentError(Problem.BAD_ENDING)
        if choices.buy_in < 0:
            raise TournamentError(Problem.BAD_BUY_IN)
        if choices.start_at is not None and choices.start_at <= self._wall():
            raise TournamentError(Problem.START_PASSED)
        async with self._locks.hold(("channel", channel_id)):
            if any(t.channel_id == channel_id for t in self.open.values()):
                raise TournamentError(Problem.ONE_OPEN_HERE)
            tournament = Tournament(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=choices.preset,
                buy_in=choices.buy_in,
                table_size=choices.table_size,
                advance=choices.advance,
                ending=choices.ending,
                rounds=choices.rounds,
                ai_fill=choices.ai_fill,
                start_at=choices.start_at,
                created_at=self._wall(),
                locale=choices.locale,
            )
            starting = (await self.manager.prefs.guild(guild_id)).starting_balance
            tournament.entrants.append(Entrant(entry=1, user_id=host_id, name=host_name, paid=choices.buy_in))
            try:
                async with self.db.transaction() as conn:
                    tournament.id = await self.store.insert(conn, tournament)
                    await self.store.pay_in(conn, tournament, host_id, choices.buy_in, starting)
                    await self.store.write(conn, tournament)
            except errors.NotEnoughChips:
                raise TournamentError(Problem.UNAFFORDABLE, buy_in=choices.buy_in) from None
            self.open[tournament.id] = tournament
        self._wake.set()
        return tournament

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        tournament = self._open(tournament_id)
        async with self._locks.hold(tournament_id):
            self._signing_up(tournament)
            if tournament.entrant_of(user_id) is not None:
                raise TournamentError(Problem.ENTERED_ALREADY)
            starting = (await self.manager.prefs.guild(tournament.guild_id)).starting_balance
            entry = max((e.entry for e in tournament.entrants), default=0) + 1
            entrant = Entrant(entry=entry, user_id=user_id, name=name, paid=tournament.buy_in)
            tournament.entrants.append(entrant)
            try:
                async with self.db.transaction() as conn:
                    await self.store.pay_in(conn, tournament, user_id, tournament.buy_in, starting)
                    await self.store.write(conn, tournament)
            except BaseException as exc:
                tournament.entrants.remove(entrant)
                if isinstance(exc, errors.NotEnoughChips):
                    raise TournamentError(Problem.UNAFFORDABLE, buy_in=tournament.buy_in) from None
                raise
        self._tell(tournament, Event.SIGNUP)
        return tournament

    async def leave(self, tournament_id: int, user_id: int) -> tuple[Tournament, bool]:
        """Before the start: out, the buy-in refunded (True). After it: the entrant forfeits (False):
        no advancing, no prize; their seat at a table still playing goes to an AI (the table's
        own leave)."""
        tournament = self._open(tournament_id)
        async with self._locks.hold(tournament_id):
            entrant = tournament.entrant_of(user_id)
            if entrant is None:
                raise TournamentError(Problem.NOT_ENTERED)
            if entrant.left:
                raise TournamentError(Problem.LEFT_ALREADY)
            if tournament.status == TournamentStatus.SIGNUP:
                tournament.entrants.remove(entrant)
                try:
                    async with self.db.transaction() as conn:
                        await self.store.pay_out(conn, tournament, user_id, entrant.paid, "tournament-refund")
                        await self.store.write(conn, tournament)
                except BaseException:
                    tournament.entrants.insert(entrant.entry - 1, entrant)
                    tournament.entrants.sort(key=lambda e: e.entry)
                    raise
                refunded = True
            else:
                entrant.left = True
                await self.store.save(tournament)
                refunded = False
        if not refunded:
            for table in self._playing_tables(tournament):
                if table.seat_of(user_id) is not None:
                    try:
                        await self.manager.lobby.leave(table.channel_id, user_id)
                    except errors.TripoleyError:
                        pass  # their seat is the AI's already
        self._tell(tournament, Event.SIGNUP)
        return tournament, refunded

    async def cancel(self, tournament_id: int, user_id: int, can_manage: bool) -> Tournament:
        """The host (or a server manager) calls it off: the tables still playing are stopped and every
        buy-in is refunded, a forfeited one too (nobody won anything)."""
        tournament = self._open(tournament_id)
        if user_id != tournament.host_id and not can_manage:
            raise TournamentError(Problem.HOST_ONLY)
        async with self._locks.hold(tournament_id):
            if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                raise TournamentError(Problem.OVER)
            tournament.status = TournamentStatus.CANCELLED  # no stage follows the tables stopped now
            for table in self._playing_tables(tournament):
                try:
                    await self.manager.play.stop(table.channel_id, user_id, True)
                except errors.TripoleyError:
                    pass  # it ended meanwhile
            async with self.db.transaction() as conn:
                for table_id in (s.table_id for stage in tournament.stages for s in stage):
                    if table_id is not None:
                        await self.store.clear_stacks(conn, tournament.guild_id, table_id)
                for e in tournament.entrants:
                    await self.store.pay_out(conn, tournament, e.user_id, e.paid, "tournament-refund")
                await self.store.write(conn, tournament, ended_at=self._wall())
            self.open.pop(tournament.id, None)
        self._tell(tournament, Event.CANCELLED)
        return tournament

    def _open(self, tournament_id: int) -> Tournament:
        tournament = self.open.get(tournament_id)
        if tournament is None:
            raise TournamentError(Problem.OVER)
        return tournament

    @staticmethod
    def _signing_up(tournament: Tournament) -> None:
        if tournament.status != TournamentStatus.SIGNUP:
            raise TournamentError(Problem.NOT_SIGNING_UP)

    def _playing_tables(self, tournament: Tournament) -> list[Table]:
        found = (self.manager.registry.get_by_id(s.table_id) for s in tournament.stage() if s.table_id is not None)
        return [t for t in found if t is not None and t.status == TableStatus.PLAYING]

    # -- the start ----------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int | None) -> Tournament:
        """Seat the first stage (``user_id``: the host's command; None: its start time came)."""
        tournament = self._open(tournament_id)
        if user_id is not None and user_id != tournament.host_id:
            raise TournamentError(Problem.HOST_ONLY)
        async with self._locks.hold(tournament_id):
            self._signing_up(tournament)
            keys = [e.key for e in tournament.entrants]
            seats = first_field(len(keys), tournament.table_size, tournament.ai_fill)
            least = PRESETS[tournament.preset].min_players
            if seats < 2 or min(table_sizes(seats, tournament.table_size)) < least:
                raise TournamentError(Problem.TOO_FEW, entrants=len(keys), least=max(2, least))
            taken = {e.name.casefold() for e in tournament.entrants}
            names = (n for n in AI_NAMES if n.casefold() not in taken)
            tag = self.manager.teller.public(tournament.locale, Line.AI_SEAT_TAG, level=AI_LEVEL)
            for i in range(seats - len(keys)):
                key = f"a{i + 1}"
                tournament.ai_names[key] = f"{next(names, f'Bot {i + 1}')} {tag}"
                keys.append(key)
            tournament.status = TournamentStatus.RUNNING
            tournament.stages.append(seat_stage(keys, tournament.table_size))
            await self.store.save(tournament)
            await self._open_stage(tournament)
        self._tell(tournament, Event.STAGE)
        return tournament

    async def _open_stage(self, tournament: Tournament) -> None:
        """Every table of the current stage not opened yet, each in a thread of its own."""
        for st in tournament.stage():
            if st.table_id is not None:
                continue
            if st.thread_id is None:
                st.thread_id = await self.places(tournament, st)
                await self.store.save(tournament)  # a restart uses this thread, not another
            await self._open_table(tournament, st)

    async def _open_table(self, tournament: Tournament, st: StageTable) -> None:
        """A started table for one stage table: fresh stacks granted to its stack account and bought
        in from it, the game dealt, all in the transaction that records its id in the tournament."""
        assert st.thread_id is not None  # made by _open_stage
        m = self.manager
        options = tournament.options()
        stack = int(PRESETS[tournament.preset].options.with_overrides(options).start_stack)
        config = await m.prefs.guild(tournament.guild_id)
        table = Table(
            id=0,
            guild_id=tournament.guild_id,
            channel_id=st.thread_id,
            host_id=tournament.host_id,
            preset=tournament.preset,
            options=options,
            buy_in=stack,
            turn_timeout=float(config.turn_timeout),
            ai_pause=float(config.ai_pause),
            created_at=self._wall(),
            thread_id=st.thread_id,  # (its channel is the thread: the thread is archived when it ends)
            locale=tournament.locale,
        )
        for key in st.seats:
            entrant = tournament.by_key(key)
            if entrant is not None:
                table.seats.append(Seat(name=entrant.name, user_id=entrant.user_id, stake=stack, left=entrant.left))
            else:
                table.seats.append(Seat(name=tournament.ai_names[key], user_id=None, stake=stack, ai_level=AI_LEVEL))
        table.game = Game.new(
            table.preset,
            [s.name for s in table.seats],
            options=options,
            stacks=[s.stake for s in table.seats],
            seed=m.rng.randrange(2**31),
            clock=m.clock.now,
        )
        table.status = TableStatus.PLAYING
        table.add_log(f"{table.preset_info.name}: stage {len(tournament.stages)}, table {st.number}.")
        total = stack * len(table.seats)
        try:
            async with m.store.transaction() as conn:
                table.id = await m.store.insert(conn, table)
                for seat in table.seats:
                    seat.funded_by = stack_account(table.id)
                await m.bank.credit(
                    conn, table.guild_id, stack_account(table.id), total, "tournament-stacks", None, "tournament stacks"
                )
                await m.bank.buy_in(table.guild_id, stack_account(table.id), table.id, total, 0, conn=conn)
                await conn.execute("UPDATE tables SET started_at = ? WHERE id = ?", (self._wall(), table.id))
                await m.store.write(conn, table)
                st.table_id = table.id
                await self.store.write(conn, tournament)
        except BaseException:
            st.table_id = None  # not opened: the database holds none of it (opened again by the next settle)
            raise
        m.registry.remember(table)
        async with table.lock:
            table.ask_humans()
            update = await m.flow.advance(table, list(table.running_game.next_deal()), urgent=True)
        update.message = None
        m.registry.notify(update)

    # -- a table's end, the next stage, the prizes --------------------------------------

    def _table_changed(self, update: TableUpdate) -> None:
        """The registry's listener: a tournament table that finished is recorded (in a task)."""
        if update.kind not in (UpdateKind.FINISHED, UpdateKind.CANCELLED):
            return
        for tournament in self.open.values():
            if any(s.table_id == update.table.id for s in tournament.stage()):
                task = asyncio.create_task(self.settle_logged(tournament.id), name=f"tournament-{tournament.id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def settle_logged(self, tournament_id: int) -> None:
        """:meth:`settle`, its failure logged (a table's thread refused, the database away): the start
        timer's loop tries again."""
        try:
            await self.settle(tournament_id)
        except Exception:
            log.exception("tournament %s: its stage could not go on; tried again shortly", tournament_id)

    async def settle(self, tournament_id: int) -> None:
        """Record every finished table of the current stage (from its saved results), then, once they
        all have, seat the next stage or pay the prizes. Safe to call any number of times."""
        tournament = self.open.get(tournament_id)
        if tournament is None:
            return
        async with self._locks.hold(tournament_id):
            if tournament.status != TournamentStatus.RUNNING:
                return
            for st in tournament.stage():
                if st.table_id is not None and st.order is None:
                    await self._record(tournament, st)
            stage = tournament.stage()
            if any(st.order is None for st in stage):
                if any(st.table_id is None for st in stage):
                    await self._open_stage(tournament)  # a restart came between two openings
                return
            going_on = advancing(tournament, stage)
            if len(stage) == 1 or len(going_on) < 2:
                await self._finish(tournament)
                event = Event.FINISHED
            else:
                tournament.stages.append(seat_stage(going_on, tournament.table_size))
                await self.store.save(tournament)
                await self._open_stage(tournament)
                event = Event.STAGE
        self._tell(tournament, event)

    async def settled(self) -> None:
        """Wait for the tables' ends being recorded now (a test's or a shutdown's wait)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _record(self, tournament: Tournament, st: StageTable) -> None:
        assert st.table_id is not None  # opened
        found = await self.store.finished_table(st.table_id)
        if found is None:
            return  # still playing
        results, state = found
        seats = json.loads(state).get("seats") or []
        finals = [int(s.get("final", 0)) for s in results.get("seats") or []] or [0] * len(st.seats)
        for key, seat in zip(st.seats, seats, strict=False):
            entrant = tournament.by_key(key)
            if entrant is not None and seat.get("left"):
                entrant.left = True  # left the table (/tripoley leave in its thread): forfeits
        st.order = table_order(st.seats, finals)
        async with self.db.transaction() as conn:
            await self.store.clear_stacks(conn, tournament.guild_id, st.table_id)
            await self.store.write(conn, tournament)

    async def _finish(self, tournament: Tournament) -> None:
        """The standings and the prizes: the pot to the best placed entrants still in, in one transaction."""
        tournament.order = final_order(tournament)
        for place, key in enumerate(tournament.order, 1):
            entrant = tournament.by_key(key)
            if entrant is not None:
                entrant.place = place
        paid = [e for key in tournament.order if (e := tournament.by_key(key)) is not None and not e.left]
        amounts = prizes(tournament.pot(), len(tournament.entrants), len(paid))
        tournament.status = TournamentStatus.FINISHED
        async with self.db.transaction() as conn:
            if not paid:  # everyone forfeited: nobody to pay, the house keeps the pot
                await self.store.pay_out(conn, tournament, HOUSE, tournament.pot(), "tournament-prize")
            for entrant, amount in zip(paid, amounts, strict=False):
                entrant.prize = amount
                await self.store.pay_out(conn, tournament, entrant.user_id, amount, "tournament-prize")
            await self.store.write(conn, tournament, ended_at=self._wall())
        self.open.pop(tournament.id, None)

    # -- restarts and the start time ----------------------------------------------------

    async def resume(self) -> list[Tournament]:
        """After a restart (the tables resumed first): the open tournaments loaded, each stage settled
        as far as its tables have finished meanwhile."""
        for tournament in await self.store.open_tournaments():
            self.open.setdefault(tournament.id, tournament)
        for tournament_id in list(self.open):
            await self.settle(tournament_id)
        self._wake.set()
        return list(self.open.values())

    async def run(self) -> None:
        """Start each tournament at its start time (an absolute wall time, saved: re-armed at start-up);
        one that can't start then (too few entrants) is cancelled with its buy-ins refunded."""
        while True:
            due = [t for t in self.open.values() if t.status == TournamentStatus.SIGNUP and t.start_at is not None]
            now = self._wall()
            for tournament in (t for t in due if t.start_at is not None and t.start_at <= now):
                await self.start_due(tournament)
            for tournament in [t for t in self.open.values() if t.status == TournamentStatus.RUNNING]:
                if any(st.table_id is None for st in tournament.stage()):  # an opening failed: again
                    await self.settle_logged(tournament.id)
            later = [t.start_at - now for t in due if t.start_at is not None and t.start_at > now]
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), min([MAX_WAIT, *later]))
            except TimeoutError:
                pass

    async def start_due(self, tournament: Tournament) -> None:
        try:
            await self.start(tournament.id, None)
        except TournamentError as exc:
            if exc.problem == Problem.TOO_FEW:
                await self.cancel(tournament.id, tournament.host_id, True)
            # else: started or cancelled meanwhile
        except Exception:  # its tables' openings are tried again by the timer's loop
            log.exception("tournament %s could not start at its time", tournament.id)
