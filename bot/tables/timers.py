"""Timers: every deadline is an absolute time of the game's clock, saved with its table.

:meth:`Timers.tick` fires the due ones (lobby expiry, turn timeout, AI move, next deal) and
:meth:`Timers.run` calls it as they come due. After a restart, :meth:`Timers.resume` loads every
open table and re-arms its deadline. A player's turn whose time ran out (or nearly) while the
bot was down gets a grace period (``resume_grace``, 15 s) instead of an instant timeout: it only
counts as a timeout if it runs out again after the restart. Other deadlines (AI moves, the next
deal, lobby expiry) fire at once when past. A turn that runs out plays the safe default; after
``timeouts_before_ai`` in a row an AI plays the seat until the player is back.

Nothing in the loop waits on Discord or on one table: each due table fires in a task of its own
(at most ``fire_limit`` at once: after an outage hundreds come due together), so a table whose
firing is slow holds up no other table's timers. Whether a timed-out player is still in the
server is asked before the table's lock is taken, for at most ``member_check_timeout`` seconds:
no answer by then counts as "still here" (the timeout applies, as it would have).

The game's clock is monotonic (bot.tables.clock): a wall-clock step is logged once and changes no
deadline; a deadline is saved as a wall time and re-armed from it. While the bot cannot hear its
players (:class:`~bot.tables.clock.Hearing`: the gateway is down, or with ``stall_after`` set the
event loop stalled that long), no deadline fires; when it hears again, :meth:`Timers.extend`
moves every deadline on by the gap, a player's turn to at least ``resume_grace`` from then, as
after a restart: the bot's deafness never costs a player their time.

The loop waits through the service's clock (``Clock.wait``: wall time in production, a test's
hand-driven time under :class:`~bot.tables.clock.FakeClock`), and never longer than
``watchdog_step``: a deadline nobody woke it for is still fired within a step. That look is the
watchdog: such a lost wake-up, and any deadline overdue by more than ``overdue_after`` (a table
whose lock is held that long), is logged as a warning with the table's id and counted
(``overdue_total``, ``overdue_now()``). A Hard search that never answers is given up by
:class:`~bot.tables.aiworker.AIPlayers` (the seat plays the Normal AI's move).

While the database is away (``Database.away``) no deadline fires: what it did could not be saved
(a deadline that met it is undone: :meth:`bot.tables.flow.Flow.all_or_nothing`), and a player whose
move is refused meanwhile must not be charged a timeout for it. When it answers again every turn
(and lobby) deadline moves on by the time it was away, a turn's to at least ``resume_grace`` from then.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable

from bot.economy.bank import Bank
from bot.errors import DatabaseUnavailable
from bot.i18n import reading
from bot.settings import Settings
from bot.storage.dialect import Row
from bot.tables.clock import WALL_STEP, Clock, wall_offset
from bot.tables.flow import Flow
from bot.tables.model import DeadlineKind, Seat, Table, TableStatus, TableUpdate
from bot.tables.quarantine import CorruptTable, quarantine
from bot.tables.registry import Registry
from bot.tables.store import TableStore
from bot.tables.telling import Line, Note, Notice, Teller
from engine import Event
from engine.phases.names import PhaseName

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
    fire_limit = 16  # due tables firing at once (each in a task; Hard AI searches are not counted)
    member_check_timeout = 2.0  # seconds Discord may take to say whether a timed-out player is still here
    # Seconds the loop may oversleep before that counts as a stalled event loop, when nothing was
    # heard (None: not watched; the bot sets it, a test's hand-driven clock jumps on purpose).
    stall_after: float | None = None

    def __init__(
        self,
        registry: Registry,
        store: TableStore,
        bank: Bank,
        settings: Settings,
        clock: Clock,
        flow: Flow,
        teller: Teller,
    ) -> None:
        self.registry = registry
        self.store = store
        self.bank = bank
        self.settings = settings
        self.clock = clock
        self.flow = flow
        self.say = teller.say
        self._wake = flow.deadlines_changed  # set whenever a deadline changes (Flow.set_deadline)
        self.hearing = flow.hearing
        self._wall_offset = wall_offset(clock)  # the wall clock's lead over the game's, as last seen
        # Whether a user is still a member of a server (the Discord side asks Discord); None: assume so.
        self.member_check: Callable[[int, int], Awaitable[bool]] | None = None
        self._busy_due = False  # the last tick skipped a due table whose lock was held
        self._searching: dict[int, asyncio.Task[TableUpdate | None]] = {}  # table id → its Hard AI's move, under way
        self._firing: dict[int, asyncio.Task[TableUpdate | None]] = {}  # table id → its other deadline, firing
        self._slots = asyncio.Semaphore(self.fire_limit)
        self.overdue_total = 0  # overdue deadlines seen since the start (each counted once)
        self._warned: dict[int, float] = {}  # table id → the overdue deadline already warned about
        # The clock time the look under way in :meth:`run` began (None while it waits: a wait always
        # ends), and each table's firing (a firing may hang on what it awaits): see ticking_since.
        self._looking_since: float | None = None
        self._firing_since: dict[int, float] = {}
        self.held_since: float | None = None  # clock time since which deadlines are held (the database away)

    def wake(self) -> None:
        """A deadline changed: :meth:`run` looks again."""
        self._wake.set()

    @property
    def ticking_since(self) -> float | None:
        """The clock time the oldest step still under way began: the loop's look, or a table's
        deadline firing (a Hard AI's search is given up by bot.tables.aiworker on its own). None
        while nothing runs. A long one is stuck (bot.discordio.health)."""
        times = [*self._firing_since.values(), *([] if self._looking_since is None else [self._looking_since])]
        return min(times) if times else None

    def next_deadline(self) -> float | None:
        """The next deadline to fire (None: none, or they are held: while the database is away, or
        until the bot hears its players again, :meth:`extend`)."""
        if self.held_since is not None or self.store.db.away_since is not None or self.hearing.deaf:
            return None
        times = [
            t.deadline
            for t in self.registry
            if t.deadline is not None and t.id not in self._searching and t.id not in self._firing
        ]
        return min(times) if times else None

    def held(self) -> bool:
        """Whether deadlines are held (the database is away); once it is back, the held ones are
        released (:meth:`_release`)."""
        db = self.store.db
        if db.away_since is not None:
            if self.held_since is None:
                # Since its first fault: the players' clicks were held up or refused from then on.
                self.held_since = self.clock.now() - max(0.0, time.monotonic() - db.away_since)
                log.warning("deadlines are held while the database is away")
            return True
        if self.held_since is not None:
            self._release(self.clock.now() - self.held_since)
            self.held_since = None
        return False

    def _release(self, away: float) -> None:
        """The database is back after ``away`` seconds: every player (and lobby) gets back the time
        it was away; a turn at least ``resume_grace`` from now, as after a restart. Each is shown
        with its new deadline, and saved with the table's next save."""
        now = self.clock.now()
        log.info("the database is back after %.1f s: deadlines released, turns given that time", away)
        for table in self.registry:
            if table.deadline is None or table.deadline_kind not in (DeadlineKind.TURN, DeadlineKind.LOBBY):
                continue
            later = table.deadline + away
            if table.deadline_kind == DeadlineKind.TURN:
                later = max(later, now + self.resume_grace)
                if table.status == TableStatus.PLAYING and table.game is not None:
                    self.store.save_later(table)
            table.deadline = later
            self.registry.show_again(table)
        self._wake.set()

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
                    await quarantine(self.store.db, self.bank, int(row["id"]), one_line(exc), self.clock.wall())
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
        if table.deadline is not None:  # re-armed from the wall time it stood for (TableStore.state)
            saved_offset = float(json.loads(row["state_json"]).get("wall_offset") or 0.0)
            table.deadline += saved_offset - wall_offset(self.clock)
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
                    try:
                        await self.store.save(table)
                    except DatabaseUnavailable:
                        self.store.save_later(table)  # a deadline, no move: saved once the database answers
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
            self._looking_since = None
            waited_from = self.clock.now()
            woken = timeout <= 0 or await self.clock.wait(self._wake, timeout)
            self._looking_since = self.clock.now()
            try:
                overslept = self._looking_since - waited_from - timeout
                if self.stall_after is not None and overslept > self.stall_after and not self.hearing.deaf:
                    # Nothing ran, clicks included, while the loop stood still: the players' time is theirs.
                    await self.extend(overslept, "the event loop stalled")
                self.watch_wall()
                if self.held():
                    continue  # (looked at again within a watchdog step)
                self.watch(lost_wake_ups=on_its_own and not woken)
                self._start_due()  # each in a task of its own: the loop waits for none of them
            except Exception:
                log.exception("table timer failed")
                await self.clock.wait(asyncio.Event(), 0.5)

    def watch_wall(self) -> None:
        """Log a wall-clock step (each once): deadlines keep to the game's clock, so it changes none."""
        offset = wall_offset(self.clock)
        if abs(offset - self._wall_offset) > WALL_STEP:
            log.warning(
                "the wall clock stepped %+.1f s; the game's deadlines keep to the monotonic clock",
                offset - self._wall_offset,
            )
        self._wall_offset = offset

    async def extend(self, gap: float, why: str) -> list[Table]:
        """The bot could not hear its players for ``gap`` seconds (``why``): every deadline moves on
        by it, a human's turn to at least ``resume_grace`` from now (as after a restart); each such
        table is saved. The tables whose deadlines moved (their messages show the new times)."""
        if gap <= 0:
            return []
        now = self.clock.now()
        moved = []
        for table in self.registry:
            if table.deadline is None or table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
                continue
            table.deadline += gap
            if table.deadline_kind == DeadlineKind.TURN:
                table.deadline = max(table.deadline, now + self.resume_grace)
            moved.append(table)
        log.info("the bot could not hear its players for %.1f s (%s): %d deadline(s) extended", gap, why, len(moved))
        self._wake.set()
        for table in moved:
            async with table.lock:
                try:
                    await self.store.save(table, urgent=False)
                except DatabaseUnavailable as exc:  # a restart re-arms the saved deadline with its grace
                    log.warning("table %s: its extended deadline is not saved (%s)", table.id, exc.detail)
        return moved

    def idle(self) -> bool:
        """Whether the loop has nothing under way: no deadline firing, no Hard AI's move searching,
        no wake-up pending (a caller stepping a test clock waits for this before it moves the time)."""
        return not self._searching and not self._firing and not self._wake.is_set()

    def watch(self, lost_wake_ups: bool = False) -> None:
        """The watchdog: warn about, and count, every table whose deadline is overdue by more than
        ``overdue_after`` (no Hard search under way there), and with ``lost_wake_ups`` (the loop
        looked on its own, woken by nothing, though it waited for no earlier deadline) any due one
        whose lock is free: nothing woke the loop for it. :meth:`tick` then fires them."""
        now = self.clock.now()
        if self.hearing.deaf:
            return  # held, not late
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
            if not self.hearing.deaf
            and t.deadline is not None
            and now - t.deadline > self.overdue_after
            and t.id not in self._searching
        )

    async def tick(self, wait_for_searches: bool = True) -> list[TableUpdate]:
        """Fire every deadline that is due now and return the updates. The tables fire at once, each
        in a task of its own (:meth:`_start_due`); this waits for them, but for a Hard AI's move,
        which searches for a while in a worker process (bot.tables.aiworker). ``wait_for_searches``:
        when nothing else was due, wait for one such move and return its update (a caller stepping
        a test clock sees the game go on). The timer loop (:meth:`run`) waits for none of them."""
        if self.held() or self.hearing.deaf:  # the players cannot act, or nothing could be saved
            self._busy_due = False
            return []
        started = self._start_due(skip_busy=False)
        updates = [update for update in await asyncio.gather(*started) if update is not None]
        if wait_for_searches and not updates and self._searching:
            done, _ = await asyncio.wait(set(self._searching.values()), return_when=asyncio.FIRST_COMPLETED)
            updates += [update for task in done if (update := task.result()) is not None]
        return updates

    def _start_due(self, skip_busy: bool = True) -> list[asyncio.Task[TableUpdate | None]]:
        """Start firing every due table not firing already, each in a task of its own; the tasks
        started but the Hard AI searches'. With ``skip_busy`` (the loop), a due table whose lock is
        held (a player's click is being handled there) is looked at again shortly instead; without
        it, its task waits for the lock."""
        now = self.clock.now()
        started = []
        self._busy_due = False
        for table in [t for t in self.registry if t.deadline is not None and t.deadline <= now]:
            if self.store.db.away_since is not None or self.hearing.deaf:
                break  # it went away meanwhile (:meth:`held`), or the bot stopped hearing its players
            if table.id in self._searching or table.id in self._firing:
                continue
            if skip_busy and table.lock.locked():
                self._busy_due = True
                continue
            search = self._searches(table)
            under_way = self._searching if search else self._firing
            task = asyncio.create_task(self._fire_under_way(table, search), name=f"tripoley-timer-{table.id}")
            under_way[table.id] = task
            if not search:
                self._firing_since[table.id] = now
                started.append(task)
        return started

    async def _fire_under_way(self, table: Table, search: bool) -> TableUpdate | None:
        """:meth:`_fire_due` in the table's task. Once it fired (or a Hard AI's move ended: applied,
        dropped or failed), the table counts for :meth:`next_deadline` again, so the loop must look
        again (the new deadline was set while the table was under way, when :meth:`run` could not
        see it). Done in the task itself, so a caller awaiting it sees the table free again."""
        try:
            return await self._fire_due(table, bounded=not search)
        finally:
            (self._searching if search else self._firing).pop(table.id, None)
            if not search:
                self._firing_since.pop(table.id, None)
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

    async def _fire_due(self, table: Table, bounded: bool = False) -> TableUpdate | None:
        """Fire the table's deadline if it is still due, under its lock (``bounded``: in one of the
        ``fire_limit`` slots); the update, told to the listeners. Whether a timed-out player is still
        in the server is asked first, off the lock."""
        checked = await self._membership(table)
        async with self._slots if bounded else contextlib.nullcontext(), table.lock:
            if (
                table.deadline is None
                or table.deadline > self.clock.now()
                or self.hearing.deaf
                or table.status in (TableStatus.FINISHED, TableStatus.CANCELLED)
            ):
                return None
            try:
                # No one's interaction: what the deadline makes (log lines, notices) is in the table's language.
                async with self.flow.all_or_nothing(table):
                    with reading(table.locale):
                        update = await self._fire(table, checked)
            except DatabaseUnavailable as exc:
                # Undone: held while the database is away (:meth:`held`), else (another transaction
                # was in the way) fired again shortly.
                log.warning(
                    "deadline %s at table %s waits for the database (%s)", table.deadline_kind, table.id, exc.detail
                )
                self._busy_due = True
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
        after a restart), and the deadlines firing are stopped where they are, as the loop's own
        step was when it fired them itself (the saves at shutdown write what they changed)."""
        for task in [*self._searching.values(), *self._firing.values()]:
            task.cancel()

    async def _fire(self, table: Table, checked: dict[int, bool] | None = None) -> TableUpdate | None:
        """Fire the due deadline. ``checked``: whether each player a turn times out is still in the
        server, as :meth:`_membership` found before the lock was taken (missing: present)."""
        checked = checked or {}
        kind = table.deadline_kind
        if kind == DeadlineKind.LOBBY:
            return await self.flow.cancel(table, self.say(Line.LOBBY_EXPIRED))
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
            return await self._time_up_together(table, checked)
        seat = table.seats[aw.seat]
        events: list[Event] = []
        if kind == DeadlineKind.TURN and not seat.auto and checked.get(seat.user_id or 0) is False:
            message = self.say(Line.LEFT_SERVER_TO_AI, name=seat.name)
            ended = await self.flow.seat_to_ai(table, seat, message)
            if ended is not None:
                return ended
            update = await self.flow.advance(table, events)
            update.message = message
            return update
        if kind == DeadlineKind.FORCED and not seat.auto:
            # The player's only card, played for them: no missed turn (it still gets its log line).
            await self.flow.play_auto(table, events, timeout=True, note=Note.FORCED)
            return await self.flow.advance(table, events)
        if kind == DeadlineKind.TURN and not seat.auto and aw.phase == PhaseName.CLAIM:
            # Letting a claim window pass is a pass (a legal choice), not a missed turn.
            await self.flow.play_auto(table, events, timeout=True, note=Note.NONE)
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

    def _timed_out(self, table: Table, seat: Seat) -> tuple[str, list[tuple[int, Notice]]]:
        """A player missed a turn (its safe default is played): counted, and after
        ``timeouts_before_ai`` in a row an AI takes the seat. The table's words, and the notice."""
        seat.timeouts += 1
        if seat.timeouts < self.settings.timeouts_before_ai:
            return self.say(Line.RAN_OUT_OF_TIME, name=seat.name), []
        seat.away = True
        message = self.say(Line.TIMED_OUT_TO_AI, name=seat.name, count=seat.timeouts)
        table.add_log(message)
        assert seat.user_id is not None  # a player's turn (not seat.auto)
        return message, [(seat.user_id, Notice(Line.AI_TAKEOVER_NOTICE, {"count": seat.timeouts}))]

    async def _time_up_together(self, table: Table, checked: dict[int, bool]) -> TableUpdate:
        """The one timer of a step every seat decides at once ran out: each player still choosing
        gets the safe default (a missed turn each), then the step is resolved. A player who left
        the server is handed to the AI instead, which chooses for them."""
        game = table.running_game
        events: list[Event] = []
        messages: list[str] = []
        notices: list[tuple[int, Notice]] = []
        for index in list(game.acting_seats()):
            seat = table.seats[index]
            if not seat.auto and checked.get(seat.user_id or 0) is False:
                message = self.say(Line.LEFT_SERVER_TO_AI, name=seat.name)
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

    async def _membership(self, table: Table) -> dict[int, bool]:
        """Before a turn times out: whether each player it would time out (the one to act, or every
        player still choosing in a step decided at once) is still in the server, so a member who left
        is not timed out turn after turn; empty when no player's turn is due. Asked without the
        table's lock, all at once, for at most ``member_check_timeout`` seconds: Discord slow or
        unreachable, a player counts as present (their timeout applies)."""
        if self.member_check is None or table.deadline_kind != DeadlineKind.TURN or table.game is None:
            return {}
        game = table.running_game
        aw = game.awaiting()
        if aw is None:
            return {}
        seats = game.acting_seats() if game.is_simultaneous() else [aw.seat]
        users = [u for s in seats if not table.seats[s].auto and (u := table.seats[s].user_id) is not None]
        found = await asyncio.gather(*(self._present(table.guild_id, u) for u in users))
        return dict(zip(users, found, strict=True))

    async def _present(self, guild_id: int, user_id: int) -> bool:
        assert self.member_check is not None
        try:
            return await asyncio.wait_for(self.member_check(guild_id, user_id), self.member_check_timeout)
        except Exception as exc:  # noqa: BLE001 - Discord slow or unreachable: present, the timeout applies
            log.warning(
                "could not tell whether a player is still in server %s (%s): counted as present",
                guild_id,
                type(exc).__name__,
            )
            return True
