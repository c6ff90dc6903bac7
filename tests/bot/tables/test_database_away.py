"""The database goes away mid-game, in each of its forms (SQLite: locked by another program,
read-only, a full disk, an I/O error; PostgreSQL: stopped as a restart or failover does, read-only):
all take the same path. A move meanwhile is refused with the friendly words and nothing of it is
applied; a turn running out meanwhile is held, not charged; health says so. Once it is back the
player gets their time back and can move, a restart finds every move, and no chip is lost or doubled."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
import types

import aiosqlite
import asyncpg
import pytest

from bot import errors
from bot.discordio.health import Health
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.refusals import say
from bot.messages.tablelines import TABLE_LINES
from bot.storage.database import Database
from bot.storage.dialect import SqliteConnection
from bot.tables.manager import TableManager
from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby

CAT = 33
BUSY = "The game's database is busy — try again in a moment."
SQLITE_FORMS = ["sqlite locked", "sqlite read-only", "sqlite disk full", "sqlite I/O error"]
POSTGRES_FORMS = ["postgresql stopped", "postgresql read-only"]


def sqlite_error(code: int, message: str) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


class FailingWrites:
    """The aiosqlite connection, whose statements fail with ``error``: every one (an I/O error), or
    only those that write (a full disk: reads and BEGIN still work)."""

    def __init__(self, raw, error: sqlite3.Error, writes_only: bool) -> None:
        self._raw = raw
        self._error = error
        self._writes_only = writes_only

    def __getattr__(self, name):
        return getattr(self._raw, name)

    def _check(self, sql: str) -> None:
        words = sql.lstrip().split(None, 1)
        if not self._writes_only or (words and words[0].upper() in ("INSERT", "UPDATE", "DELETE")):
            raise self._error

    async def execute_fetchall(self, sql, params=()):
        self._check(sql)
        return await self._raw.execute_fetchall(sql, params)

    async def executemany(self, sql, rows):
        self._check(sql)
        return await self._raw.executemany(sql, rows)

    def execute(self, sql, *args):
        if not sql.startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA")):
            self._check(sql)
        return self._raw.execute(sql, *args)


class Outage:
    """Takes the database away in one of its forms and brings it back."""

    def __init__(self, form: str, tmp_path, request) -> None:
        self.form = form
        if form.startswith("postgresql"):
            self.server = request.getfixturevalue("restartable_postgres")
            self.url = self.server.new_database()
        else:
            self.url = str(tmp_path / "away.sqlite3")
        self._holder: sqlite3.Connection | None = None
        self.db: Database | None = None

    async def open(self) -> Database:
        db = Database(self.url)
        db.busy_timeout_ms = 20
        self.db = await db.connect()
        return self.db

    async def _admin(self, *statements: str) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    def _reopened_as(self, wrap) -> None:
        """The bot's connection, and every one it opens from now, made by ``wrap`` (the next write
        reopens it, as after a fault)."""
        db = self.db
        real = type(db)._open

        async def reopen(self=db):
            conn = await real(self)
            return SqliteConnection(await wrap(conn.raw))

        db._open = reopen
        db._lost = True  # reopened before its next use

    async def away(self) -> None:
        db = self.db
        if self.form == "postgresql stopped":
            self.server.halt()
        elif self.form == "postgresql read-only":
            await self._admin(
                "ALTER DATABASE " + self.url.rsplit("/", 1)[1] + " SET default_transaction_read_only = on",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
        elif self.form == "sqlite locked":
            self._holder = sqlite3.connect(self.url, isolation_level=None)
            self._holder.execute("BEGIN IMMEDIATE")
        elif self.form == "sqlite read-only":
            # As a filesystem remounted read-only: a reopened connection can only read.
            async def read_only(raw):
                await raw.close()
                ro = await aiosqlite.connect(f"file:{self.url}?mode=ro", uri=True, isolation_level=None)
                ro.row_factory = aiosqlite.Row
                return ro

            self._reopened_as(read_only)
        else:
            full = self.form == "sqlite disk full"
            error = sqlite_error(13, "database or disk is full") if full else sqlite_error(10, "disk I/O error")

            async def failing(raw):
                return FailingWrites(raw, error, writes_only=full)

            self._reopened_as(failing)
            db.conn.raw = FailingWrites(db.conn.raw, error, writes_only=full)

    async def back(self) -> None:
        db = self.db
        if self.form == "postgresql stopped":
            self.server.resume()
        elif self.form == "postgresql read-only":
            await self._admin(
                "SET default_transaction_read_only = off",  # (this session began read-only too)
                "ALTER DATABASE " + self.url.rsplit("/", 1)[1] + " RESET default_transaction_read_only",
            )
        elif self.form == "sqlite locked":
            assert self._holder is not None
            self._holder.execute("COMMIT")
            self._holder.close()
        else:
            del db._open  # connections as the bot opens them again
            db._lost = True


@pytest.fixture(params=SQLITE_FORMS + POSTGRES_FORMS)
def outage(request, tmp_path) -> Outage:
    return Outage(request.param, tmp_path, request)


@pytest.fixture(params=["sqlite locked", "postgresql stopped"])
def short_outage(request, tmp_path) -> Outage:
    return Outage(request.param, tmp_path, request)


def make_stack(db, settings, clock):
    bank = Bank(db)
    return TableManager(db, bank, Prefs(db, settings), settings, TABLE_LINES, clock=clock, rng=random.Random(5)), bank


async def stop_saver(manager) -> None:
    if manager.store._saver_task is not None:
        manager.store._saver_task.cancel()
        await asyncio.gather(manager.store._saver_task, return_exceptions=True)


@pytest.fixture
async def stack(outage, settings, clock):
    db = await outage.open()
    manager, bank = make_stack(db, settings, clock)
    yield manager, bank, db
    await stop_saver(manager)
    await db.close()


@pytest.fixture
async def short_stack(short_outage, settings, clock):
    db = await short_outage.open()
    manager, bank = make_stack(db, settings, clock)
    yield manager, bank, db
    await stop_saver(manager)
    await db.close()


async def eventually(check, timeout: float = 30.0) -> None:
    """Until ``check()`` is true (a coroutine function's result awaited; tried every 20 ms), at most ``timeout`` s."""

    async def poll() -> None:
        while True:
            result = check()
            if asyncio.iscoroutine(result):
                result = await result
            if result:
                return
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


def a_move(manager, table) -> tuple[int, dict]:
    aw = table.game.awaiting()
    action = manager.flow.ai_action(table, aw.seat).to_dict()
    action.pop("seat")
    return table.seats[aw.seat].user_id, action


class Gateway:
    """A connected gateway, for the health check."""

    latency = 0.01
    ws = types.SimpleNamespace(open=True)

    def is_closed(self) -> bool:
        return False

    def is_ready(self) -> bool:
        return True


async def books_balance(manager, bank) -> None:
    """Wallets and tables hold what came in less what went out, and each open table in memory holds
    the chips its row says."""
    audit = await bank.audit(G)
    assert audit.ok, audit
    chips = await manager.store.open_table_chips(G)
    assert chips == {t.id: t.chips_in_play() for t in manager.registry.by_channel.values()}, chips


async def test_a_move_while_the_database_is_away_is_refused_and_nothing_is_applied(stack, outage, clock, settings):
    manager, bank, db = stack
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    assert seat is not None
    db.retry_for = 0.5  # how long the first click waits before the friendly refusal (10 s in the bot)
    timer = asyncio.get_running_loop().create_future()  # a timer loop "running", for the health check
    health = Health(manager, db, Gateway(), lambda: timer)
    assert (await health.report())["ok"]
    shown: list = []
    manager.registry.add_listener(shown.append)
    before = (table.game.to_json(), list(table.log), [s.timeouts for s in table.seats])
    deadline = table.deadline
    left = deadline - clock.now()  # the player's time left when the database goes away

    await outage.away()
    try:
        user, action = a_move(manager, table)
        with pytest.raises(errors.DatabaseUnavailable) as why:
            await manager.play.act(manager.registry.get(C), user, action, table.round)
        assert say(why.value) == BUSY
        # Nothing of the move stays: not in the game, not in the log, not in any update shown.
        assert (table.game.to_json(), list(table.log), [s.timeouts for s in table.seats]) == before
        assert all(u.table.game.to_json() == before[0] for u in shown if u.table.game is not None)
        assert db.away and db.outages == 1
        # Away: the next try is refused at once (not after retrying), and changes nothing either.
        began = time.monotonic()
        with pytest.raises(errors.DatabaseUnavailable):
            await manager.play.act(manager.registry.get(C), user, action, table.round)
        assert time.monotonic() - began < 0.4
        with pytest.raises(errors.DatabaseUnavailable):
            await manager.lobby.create_table(G, C + 1, CAT, "cat", "tripoley", {}, buy_in=10)
        assert C + 1 not in manager.registry.by_channel
        assert await manager.timers.tick() == [] and manager.timers.next_deadline() is None  # held from now
        # The player's time runs out meanwhile: the deadline is held, no timeout is charged.
        for _ in range(3):
            clock.t = deadline + 100
            assert await manager.timers.tick() == []
        assert (table.game.to_json(), [s.timeouts for s in table.seats]) == (before[0], before[2])
        report = await health.report()
        assert not report["ok"] and report["checks"]["database"].startswith("away"), report
    finally:
        await outage.back()
    db.retry_for = 10.0
    await eventually(lambda: not db.away)  # the probe finds it back
    assert (await health.report())["ok"]

    # The deadline is released and moved on by the outage: the player gets their time back, uncharged.
    await manager.timers.tick()
    assert table.deadline_kind == "turn" and table.deadline - clock.now() >= left
    assert [s.timeouts for s in table.seats] == before[2] and table.game.to_json() == before[0]
    user, action = a_move(manager, table)
    await manager.play.act(manager.registry.get(C), user, action, table.round)  # the player can move
    assert table.game.to_json() != before[0]
    await books_balance(manager, bank)

    # A restart finds the game exactly as the players were last shown it: no move lost.
    await stop_saver(manager)
    await manager.store.flush()
    again = await Database(outage.url).connect()
    try:
        resumed, _ = make_stack(again, settings, clock)
        await resumed.timers.resume()
        assert resumed.registry.get(C).game.to_json() == table.game.to_json()
        await stop_saver(resumed)
    finally:
        await again.close()
    # The game goes on to its end; every chip is where it should be.
    if table.status == "playing":
        await manager.play.stop(C, ANN, can_manage=True)
    await books_balance(manager, bank)
    assert (await bank.audit(G)).tables == 0


async def test_a_click_during_a_short_restart_waits_and_is_applied_once(short_stack, short_outage):
    manager, bank, db = short_stack
    await lobby(manager, ai=0, humans=(ANN,))
    await short_outage.away()
    try:
        joining = asyncio.ensure_future(manager.lobby.join(C, BOB, "bob"))

        async def retrying() -> bool:
            return db.errors.total > 0 and not joining.done()

        await eventually(retrying)
    finally:
        await short_outage.back()
    await joining
    assert [s.user_id for s in manager.registry.get(C).seats] == [ANN, BOB] and not db.away
    buy_ins = await db.fetchone("SELECT COUNT(*) FROM ledger WHERE user_id = ? AND kind = 'buy-in'", (BOB,))
    assert buy_ins[0] == 1  # bought in once
    await books_balance(manager, bank)


async def test_a_game_end_refused_while_the_database_is_away_is_done_once_it_is_back(short_stack, short_outage, clock):
    manager, bank, db = short_stack
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    await drive_to_human(manager, clock, table)
    before = table.game.to_json()
    db.retry_for = 0.3
    await short_outage.away()
    try:
        with pytest.raises(errors.DatabaseUnavailable):
            await manager.play.stop(C, ANN, can_manage=True)  # the cash-out's transaction is refused
        # Nothing of it stays: the game is as it was, still open, its turn still a turn.
        assert C in manager.registry.by_channel and table.status == "playing" and table.game.to_json() == before
        assert table.deadline_kind == "turn"
    finally:
        await short_outage.back()
    db.retry_for = 10.0
    await eventually(lambda: not db.away)
    await manager.play.stop(C, ANN, can_manage=True)
    assert table.status == "finished" and C not in manager.registry.by_channel
    await books_balance(manager, bank)
    assert (await bank.audit(G)).tables == 0


async def test_an_ai_move_whose_save_is_refused_is_undone_and_held(short_stack, short_outage, clock):
    """The timers' path: an AI seat's move (and the turn it hands to a player) can't be saved, so
    it is undone and shown as the database holds it; when the database is back the AI plays."""
    manager, bank, db = short_stack
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    for _ in range(200):  # to an AI seat's move, after its pause
        if table.deadline_kind == "ai":
            break
        if table.deadline_kind == "turn":
            user, action = a_move(manager, table)
            await manager.play.act(manager.registry.get(C), user, action, table.round)
        else:
            clock.t = table.deadline
            await manager.timers.tick()
    assert table.deadline_kind == "ai"
    before = table.game.to_json()
    db.retry_for = 0.3
    await short_outage.away()
    try:
        clock.t = table.deadline
        assert await manager.timers.tick() == []
        assert table.game.to_json() == before and table.deadline_kind == "ai" and db.away
        assert manager.timers.next_deadline() is None  # held: the timer loop does not spin on it
    finally:
        await short_outage.back()
    db.retry_for = 10.0
    await eventually(lambda: not db.away)
    await manager.timers.tick()  # released: the AI's move is due, and is played now
    clock.t = max(clock.t, table.deadline or clock.t)
    await manager.timers.tick()
    assert table.game.to_json() != before
    await books_balance(manager, bank)


def test_every_form_of_the_database_away_is_one_fault_and_bugs_stay_bugs():
    from bot.storage.faults import fault_of

    away = [
        sqlite_error(8, "attempt to write a readonly database"),
        sqlite_error(1032, "attempt to write a readonly database"),  # SQLITE_READONLY_DBMOVED
        sqlite_error(10, "disk I/O error"),
        sqlite_error(13, "database or disk is full"),
        sqlite_error(5, "database is locked"),
        sqlite_error(14, "unable to open database file"),
        sqlite_error(11, "database disk image is malformed"),
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed"),
        asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.exceptions.ReadOnlySQLTransactionError("cannot execute UPDATE in a read-only transaction"),
        asyncpg.exceptions.DiskFullError("could not extend file"),
        asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"),
        ConnectionRefusedError(111, "Connect call failed"),
    ]
    for exc in away:
        assert fault_of(exc) is not None, exc
    corrupt = sqlite3.DatabaseError("file is not a database")
    corrupt.sqlite_errorcode = 26
    assert fault_of(corrupt) is not None
    constraint = sqlite3.IntegrityError("UNIQUE constraint failed")
    constraint.sqlite_errorcode = 2067
    bugs = [
        constraint,
        sqlite_error(1, 'near "SELEC": syntax error'),
        asyncpg.exceptions.UniqueViolationError("duplicate key"),
        asyncpg.exceptions.UndefinedColumnError("column does not exist"),
        ValueError("a bug"),
    ]
    for exc in bugs:
        assert fault_of(exc) is None, exc


async def test_saved_state_json_is_what_the_database_holds(short_stack, clock):
    """What a table goes back to is its row's text, kept as it was written (no second encoding)."""
    manager, bank, db = short_stack
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    await drive_to_human(manager, clock, table)
    row = await db.fetchone("SELECT state_json FROM tables WHERE id = ?", (table.id,))
    assert table.saved == row[0] and json.loads(row[0])["game"] == table.game.to_json()
