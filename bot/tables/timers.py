"""Timers: every deadline is an absolute time from the injectable clock, saved with its table.

:meth:`Timers.tick` fires the due ones (lobby expiry, turn timeout, AI move, next deal) and
:meth:`Timers.run` calls it as they come due. After a restart, :meth:`Timers.resume` loads every
open table and re-arms its deadline. A player's turn whose time ran out (or nearly) while the
bot was down gets a grace period (``resume_grace``, 15 s) instead of an instant timeout: it only
counts as a timeout if it runs out again after the restart. Other deadlines (AI moves, the next
deal, lobby expiry) fire at once when past. A turn that runs out plays the safe default; after
``timeouts_before_ai`` in a row an AI plays the seat until the player is back.

The loop waits through the service's clock (``Clock.wait``: wall time in production, a test's
hand-driven time under :class:`~bot.tables.clock.FakeClock`), and never longer than
``watchdog_step``: a deadline nobody woke it for is still fired within a step. That look is the
watchdog: such a lost wake-up, and any deadline overdue by more than ``overdue_after`` (a table
whose lock is held that long), is logged as a warning with the table's id and counted
(``overdue_total``, ``overdue_now()``). A Hard search that never answers is given up by
:class:`~bot.tables.aiworker.AIPlayers` (the seat plays the Normal AI's move).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

from bot.economy.bank import Bank
from bot.errors import DatabaseUnavailable
from bot.messages.text import ai_takeover_notice, escape, timed_out_to_ai
from bot.settings import Settings
from bot.storage.dialect import Row
from bot.tables.clock import Clock
from bot.tables.flow import DATABASE_RETRY, Flow
from bot.tables.model import DeadlineKind, Seat, Table, TableStatus, TableUpdate
from bot.tables.quarantine import CorruptTable, quarantine
from bot.tables.registry import Registry
from bot.tables.store import TableStore
from engine import Event

log = logging.getLogger(__name__)


def one_line(exc: BaseException) -> str:
    """The exception's type and the first line of its message (a quarantined table's reason)."""
    return f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}"


def check_loaded(table: Table, chips: int) -> None:
    """Raise :class:`CorruptTable` if a table loaded from its row can't be right."""
    table.preset_info  # noqa: B018 - a game this bot knows (KeyError otherwise)
    if not table.humans() or table.buy_in < 1:
        raise CorruptTable("no player is seated, or no buy-in is saved")
    if table.status == TableStatus.PLAYING and (
        table.game is None or len(table.running_game.stacks) != len(table.seats)
    ):
        raise CorruptTable("a game is playing but its saved game is missing or has other seats")
    if table.status == TableStatus.LOBBY and table.game is not None:
        raise CorruptTable("a lobby holds a game")
    if table.chips_in_play() != chips:
        raise CorruptTable(f"it holds {table.chips_in_play()} chips but its row says {chips}")


class Timers:
    resume_grace = 15.0  # seconds a player's overdue turn gets after a restart
    busy_retry = 0.02  # seconds before a due table whose lock was held is looked at again
    watchdog_step = 1.0  # the loop looks at least this often, whatever it waits for
    overdue_after = 3.0  # seconds past its deadline that make a table overdue (a warning)

    def __init__(
        self, registry: Registry, store: TableStore, bank: Bank, settings: Settings, clock: Clock, flow: Flow
    ) -> None:
        self.registry = registry
        self.store = store
        self.bank = bank
        self.settings = settings
        self.clock = clock
        self.flow = flow
        self._wake = flow.deadlines_changed  # set whenever a deadline changes (Flow.set_deadline)
        # Whether a user is still a member of a server (the Discord side asks Discord); None: assume so.
        self.member_check: Callable[[int, int], Awaitable[bool]] | None = None
        self._busy_due = False  # the last tick skipped a due table whose lock was held
        self._searching: dict[int, asyncio.Task[TableUpdate | None]] = {}  # table id → its Hard AI's move, under way
        self.overdue_total = 0  # overdue deadlines seen since the start (each counted once)
        self._warned: dict[int, float] = {}  # table id → the overdue deadline already warned about
        # The clock time the tick under way in :meth:`run` began (None while it waits: a wait always
        # ends, a tick may hang on what it awaits). A long one is stuck (bot.discordio.health).
        self.ticking_since: float | None = None

    def wake(self) -> None:
        """A deadline changed: :meth:`run` looks again."""
        self._wake.set()

    def next_deadline(self) -> float | None:
        times = [t.deadline for t in self.registry if t.deadline is not None and t.id not in self._searching]
        return min(times) if times else None

    async def resume(self) -> list[Table]:
        """Load every open table (lobby or playing) of this process's servers from the database
        (in a cluster, the other processes' tables are theirs: settings.owns_guild). Each table on
        its own: one that can't be loaded, or fails as it resumes, is quarantined
        (:mod:`bot.tables.quarantine`) and the others resume. An unavailable database is raised."""
        rows = await self.store.open_tables()
        resumed = []
        for row in rows:
            if not self.settings.owns_guild(row["guild_id"]):
                continue
            try:
                resumed.append(await self._resume_one(row))
            except DatabaseUnavailable:
                raise
            except Exception as exc:
                log.exception("table %s cannot be resumed: it is quarantined", row["id"])
                table = self.registry.get_by_id(int(row["id"]))
                if table is not None:
                    self.store.discard(table)
                    self.registry.forget(table)
                try:
                    await quarantine(self.store.db, self.bank, int(row["id"]), one_line(exc), self.clock.now())
                except DatabaseUnavailable:
                    raise
                except Exception:
                    log.exception("table %s could not be quarantined; it is left as it is", row["id"])
        self._wake.set()
        log.info("resumed %d table(s)", len(resumed))
        return resumed

    async def _resume_one(self, row: Row) -> Table:
        table = Table.from_row(row, clock=self.clock.now)
        check_loaded(table, int(row["chips"]))
        self.registry.remember(table)
        if table.status == TableStatus.PLAYING and table.deadline is None:
            # Saved between steps: decide again what we wait for.
            async with table.lock:
                await self.flow.advance(table, [])
        elif (
            table.status == TableStatus.PLAYING
            and table.deadline_kind == DeadlineKind.TURN
            and table.deadline is not None
        ):
            # The player could not act while we were down: no instant timeout.
            grace = self.clock.now() + self.resume_grace
            if table.deadline < grace:
                async with table.lock:
                    table.deadline = grace
                    await self.store.save(table)
        return table

    async def run(self) -> None:
        """Fire deadlines as they come due (forever; cancel the task to stop)."""
        while True:
            # Cleared before looking, never after: a wake-up that comes while we look is kept.
            self._wake.clear()
            nd = self.next_deadline()
            timeout = None if nd is None else max(0.0, nd - self.clock.now())
            if self._busy_due and timeout is not None:
                timeout = max(timeout, self.busy_retry)  # a due table was busy: retry soon, don't spin
            on_its_own = timeout is None or timeout > self.watchdog_step  # the watchdog's look
            if timeout is None or on_its_own:
                timeout = self.watchdog_step
            self.ticking_since = None
            woken = timeout <= 0 or await self.clock.wait(self._wake, timeout)
            self.ticking_since = self.clock.now()
            try:
                self.watch(lost_wake_ups=on_its_own and not woken)
                await self.tick(wait_for_searches=False)
            except Exception:
                log.exception("table timer failed")
                await self.clock.wait(asyncio.Event(), 0.5)

    def idle(self) -> bool:
        """Whether the loop has nothing under way: no Hard AI's move searching, no wake-up pending
        (a caller stepping a test clock waits for this before it moves the time)."""
        return not self._searching and not self._wake.is_set()

    def watch(self, lost_wake_ups: bool = False) -> None:
        """The watchdog: warn about, and count, every table whose deadline is overdue by more than
        ``overdue_after`` (no Hard search under way there), and with ``lost_wake_ups`` (the loop
        looked on its own, woken by nothing, though it waited for no earlier deadline) any due one
        whose lock is free: nothing woke the loop for it. :meth:`tick` then fires them."""
        now = self.clock.now()
        for table in self.registry:
            deadline = table.deadline
            if deadline is None or deadline > now or table.id in self._searching:
                continue
            late = now - deadline
            if late <= self.overdue_after and not (lost_wake_ups and not table.lock.locked()):
                continue
            if self._warned.get(table.id) == deadline:
                continue
            self._warned[table.id] = deadline
            self.overdue_total += 1
            if table.lock.locked():
                why = "its lock is held: fired once it is free"
            elif lost_wake_ups:
                why = "nothing woke the timer loop: fired now"
            else:
                why = "the timer loop was held up: fired now"
            log.warning("table %s: its %s deadline is %.1f s overdue; %s", table.id, table.deadline_kind, late, why)
        for table_id in [i for i in self._warned if self.registry.get_by_id(i) is None]:
            del self._warned[table_id]

    def overdue_now(self) -> int:
        """How many open tables are overdue now (more than ``overdue_after`` past their deadline,
        no Hard search under way there)."""
        now = self.clock.now()
        return sum(
            1
            for t in self.registry
            if t.deadline is not None and now - t.deadline > self.overdue_after and t.id not in self._searching
        )

    async def tick(self, wait_for_searches: bool = True) -> list[TableUpdate]:
        """Fire every deadline that is due now, one table at a time. A Hard AI's move searches for
        a while in a worker process (bot.tables.aiworker): its table fires in a task of its own, so the
        other tables' timers never wait for it. ``wait_for_searches``: when nothing else was due,
        wait for one such move and return its update (a caller stepping a test clock sees the game
        go on); the timer loop (:meth:`run`) does not wait: the move's new deadline wakes it."""
        now = self.clock.now()
        updates: list[TableUpdate] = []
        self._busy_due = False
        for table in [t for t in self.registry if t.deadline is not None and t.deadline <= now]:
            if table.id in self._searching:
                continue
            if table.lock.locked():
                # A player's click is being handled there: come back to it shortly instead of
                # holding up every other table's timers.
                self._busy_due = True
                continue
            if self._searches(table):
                task = asyncio.create_task(self._fire_due(table), name=f"tripoley-search-{table.id}")
                self._searching[table.id] = task
                task.add_done_callback(functools.partial(self._searched, table.id))
                continue
            if updates:
                await asyncio.sleep(0)  # one table at a time: interactions get through in between
            update = await self._fire_due(table)
            if update is not None:
                updates.append(update)
        if wait_for_searches and not updates and self._searching:
            done, _ = await asyncio.wait(set(self._searching.values()), return_when=asyncio.FIRST_COMPLETED)
            updates += [update for task in done if (update := task.result()) is not None]
        return updates

    def _searched(self, table_id: int, _: asyncio.Task[TableUpdate | None]) -> None:
        """A Hard AI's move ended (applied, dropped or failed): its table counts for
        :meth:`next_deadline` again, so the loop must look again. The move set the table's next
        deadline while it was still marked as searching, when :meth:`run` could not see it."""
        self._searching.pop(table_id, None)
        self._wake.set()

    def _searches(self, table: Table) -> bool:
        """Whether the due deadline is a Hard AI seat's move (a search, not a rule of thumb)."""
        if table.deadline_kind != DeadlineKind.AI or table.game is None:
            return False
        index = self._ai_seat(table)
        return index is not None and table.seats[index].searches

    @staticmethod
    def _ai_seat(table: Table) -> int | None:
        """The seat an AI deadline plays: the one awaited, or in a step every seat decides at once
        the AI seat the deadline names (if it still has to choose)."""
        game = table.running_game
        if game.is_simultaneous():
            seat = table.deadline_seat
            return seat if seat is not None and game.awaiting(seat) is not None else None
        aw = game.awaiting()
        return aw.seat if aw is not None else None

    async def _fire_due(self, table: Table) -> TableUpdate | None:
        """Fire the table's deadline if it is still due, under its lock; the update, told to the listeners."""
        async with table.lock:
            if (
                table.deadline is None
                or table.deadline > self.clock.now()
                or table.status in (TableStatus.FINISHED, TableStatus.CANCELLED)
            ):
                return None
            try:
                update = await self._fire(table)
            except DatabaseUnavailable as exc:
                # The database is away: the transaction was not applied; try again soon.
                log.warning(
                    "deadline %s at table %s waits for the database (%s)", table.deadline_kind, table.id, exc.detail
                )
                self.flow.set_deadline(table, DATABASE_RETRY, table.deadline_kind, table.deadline_seat)
                return None
            except Exception:
                log.exception("deadline %s failed at table %s", table.deadline_kind, table.id)
                # Don't spin on a broken table: try again a bit later.
                self.flow.set_deadline(table, 5.0, table.deadline_kind, table.deadline_seat)
                self.registry.changed_unsaved(table)
                return None
        if update is not None:
            self.registry.notify(update)
        return update

    def stop(self) -> None:
        """Shutdown: the AI moves under way are dropped (nothing was applied; they come due again
        after a restart)."""
        for task in list(self._searching.values()):
            task.cancel()

    async def _fire(self, table: Table) -> TableUpdate | None:
        kind = table.deadline_kind
        if kind == DeadlineKind.LOBBY:
            return await self.flow.cancel(table, "Nobody started the game in time; buy-ins are refunded.")
        game = table.running_game
        if game is None:
            self.flow.set_deadline(table, None)
            return None
        if kind == DeadlineKind.NEXT_DEAL:
            if game.awaiting() is None and not game.finished:
                return await self.flow.advance(table, list(game.next_deal()))
            return await self.flow.advance(table, [])
        aw = game.awaiting()
        if aw is None:
            return await self.flow.advance(table, [])
        if kind == DeadlineKind.TURN and game.is_simultaneous():
            return await self._time_up_together(table)
        seat = table.seats[aw.seat]
        events: list[Event] = []
        if kind == DeadlineKind.TURN and not seat.auto and not await self._still_member(table, seat):
            message = f"{escape(seat.name)} is no longer in this server: an AI plays their seat and they are cashed out at the end."
            ended = await self.flow.seat_to_ai(table, seat, message)
            if ended is not None:
                return ended
            update = await self.flow.advance(table, events)
            update.message = message
            return update
        if kind == DeadlineKind.TURN and not seat.auto and aw.phase == "claim":
            # Letting a claim window pass is a pass (a legal choice), not a missed turn.
            await self.flow.play_auto(table, events, timeout=True, note="")
            return await self.flow.advance(table, events)
        if kind == DeadlineKind.TURN and not seat.auto:
            await self.flow.play_auto(table, events, timeout=True)
            message, notices = self._timed_out(table, seat)
            update = await self.flow.advance(table, events)
            update.message = message
            update.notices = notices
            return update
        ai_seat = self._ai_seat(table)
        if ai_seat is not None:
            await self.flow.play_auto(table, events, seat=ai_seat)
        return await self.flow.advance(table, events)

    def _timed_out(self, table: Table, seat: Seat) -> tuple[str, list[tuple[int, str]]]:
        """A player missed a turn (its safe default is played): counted, and after
        ``timeouts_before_ai`` in a row an AI takes the seat. The table's words, and the notice."""
        seat.timeouts += 1
        if seat.timeouts < self.settings.timeouts_before_ai:
            return f"{escape(seat.name)} ran out of time.", []
        seat.away = True
        message = timed_out_to_ai(seat.name, seat.timeouts)
        table.add_log(message)
        assert seat.user_id is not None  # a player's turn (not seat.auto)
        return message, [(seat.user_id, ai_takeover_notice(seat.timeouts))]

    async def _time_up_together(self, table: Table) -> TableUpdate:
        """The one timer of a step every seat decides at once ran out: each player still choosing
        gets the safe default (a missed turn each), then the step is resolved. A player who left
        the server is handed to the AI instead, which chooses for them."""
        game = table.running_game
        events: list[Event] = []
        messages: list[str] = []
        notices: list[tuple[int, str]] = []
        for index in list(game.acting_seats()):
            seat = table.seats[index]
            if not seat.auto and not await self._still_member(table, seat):
                message = f"{escape(seat.name)} is no longer in this server: an AI plays their seat and they are cashed out at the end."
                ended = await self.flow.seat_to_ai(table, seat, message)
                if ended is not None:
                    return ended
                messages.append(message)
                await self.flow.play_auto(table, events, seat=index, search=False)
                continue
            await self.flow.play_auto(table, events, timeout=True, seat=index)
            if not seat.auto:
                message, told = self._timed_out(table, seat)
                messages.append(message)
                notices += told
        update = await self.flow.advance(table, events)
        update.message = " ".join(messages) or None
        update.notices = notices
        return update

    async def _still_member(self, table: Table, seat: Seat) -> bool:
        """Whether the seat's player is still in the server (asked when their timer fires: a member
        who left would otherwise time out turn after turn)."""
        if self.member_check is None or seat.user_id is None:
            return True
        try:
            return await self.member_check(table.guild_id, seat.user_id)
        except Exception:  # noqa: BLE001 - Discord unreachable: treat as present, the timeout applies
            log.warning("could not check whether a player is still in server %s", table.guild_id)
            return True
