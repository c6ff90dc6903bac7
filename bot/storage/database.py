"""Storage: SQLite (the default, one aiosqlite connection, WAL) or PostgreSQL (asyncpg), with
numbered migrations.

Migrations (:mod:`bot.storage.schema`) are applied at start-up. Writes go through
:meth:`Database.transaction`, which serialises the process's transactions on one connection (two
coroutines' statements would otherwise interleave inside each other's transactions).

The rest of the bot writes SQL one way, SQLite's (``?`` placeholders, ``INSERT OR IGNORE``,
``json_extract``/``json_each``), plus ``FOR UPDATE`` on the reads of rows that two processes can
write (wallets). The dialects (:mod:`bot.storage.dialect`) are the one place that knows the
differences: each translates statements and migration scripts for its database.

When the database goes away (PostgreSQL restarts or fails over; SQLite is locked by another
program, its disk is full or fails), the connection is reopened and the work that is safe to
repeat is retried with backoff for up to :attr:`Database.retry_for` seconds, then given up with
:class:`bot.errors.DatabaseUnavailable` (the player reads "try again in a moment"):

- reads, and :meth:`Database.execute_alone` (its statements must be idempotent: a statement whose
  connection broke may have been applied, and runs again);
- a transaction's ``BEGIN`` (nothing is done yet). A transaction that fails after it, before its
  ``COMMIT``, is rolled back by the database and raised as ``DatabaseUnavailable``: the caller
  (who put its in-memory changes back) is never replayed blindly;
- a ``COMMIT`` whose answer is lost (PostgreSQL): the transaction's id, taken before the commit,
  is looked up once the database is back (``txid_status``): committed counts as done, aborted as
  failed. If the database stays away longer than :attr:`Database.outcome_wait`, nobody can tell:
  :class:`bot.errors.CommitOutcomeUnknown`, and :attr:`Database.on_outcome_unknown` (the bot
  stops, so that its restart reloads every table from the database, which holds the truth).

Every form of the database being away is one :func:`bot.storage.faults.fault_of`; anything else
(a constraint, a bug) stays an error. Once work is given up, the database counts as away
(:attr:`Database.away_since`, :attr:`Database.outages`): further writes are refused at once, without
waiting for it (a click is answered "try again in a moment" in a moment, not after ``retry_for``
seconds each), and one write, :data:`PROBE`, tries it with backoff until it answers again
(:meth:`Database.wait_back`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import aiosqlite
import asyncpg

from bot.errors import CommitOutcomeUnknown, DatabaseUnavailable
from bot.storage.dialect import (
    CONNECT_TIMEOUT,
    POSTGRES,
    SQLITE,
    Params,
    PostgresConnection,
    PostgresDialect,
    Row,
    SqliteConnection,
    SqliteDialect,
    is_postgres_url,
    postgres_session,
)
from bot.storage.faults import BUSY, LOST, ErrorCount, contention, disk_full, fault_of
from bot.storage.priority import INTERACTIVE, PRIORITY, PriorityLock
from bot.storage.schema import (
    MIGRATIONS_DIR,
    SCHEMA_VERSION_DDL,
    MigrationStatus,
    apply_on_postgres,
    apply_on_sqlite,
    load_migrations,
    refuse_newer,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

# The write that tells whether an away database answers again: it changes nothing, but is a write
# (a read succeeds on a read-only file or a standby). A full disk may take it (it needs no new
# page): then the next save that does fails, and the database is away again.
PROBE = "UPDATE schema_version SET applied_at = applied_at WHERE version = (SELECT MAX(version) FROM schema_version)"
PROBE_FIRST = 0.5  # seconds before the first probe of an away database; doubled after each failure
PROBE_MAX = 5.0  # seconds between probes at most


class Database:
    """The bot's database: ``target`` is an SQLite file (``:memory:`` keeps nothing) or a
    ``postgresql://`` URL."""

    retry_for = 10.0  # seconds the work that is safe to repeat is retried before DatabaseUnavailable
    outcome_wait = 60.0  # seconds a lost COMMIT's outcome is asked for before CommitOutcomeUnknown
    busy_timeout_ms = 5000  # SQLite: how long a statement waits for another program's lock

    def __init__(self, target: str, migrations_dir: Path = MIGRATIONS_DIR) -> None:
        self.path = target
        self.migrations_dir = migrations_dir
        self.dialect: SqliteDialect | PostgresDialect = POSTGRES if is_postgres_url(target) else SQLITE
        self._conn: SqliteConnection | PostgresConnection | None = None
        self._lost = False  # the write connection met a LOST fault: reopened before its next use
        self._pool = None  # PostgreSQL: the connections that reads outside transactions use
        self._tx_lock = PriorityLock()
        self._checkpointer: asyncio.Task[None] | None = None
        self._ckpt_conn: aiosqlite.Connection | None = None
        self.errors = ErrorCount()  # driver errors of transactions and reads, faults retried too (metrics)
        # Away (see the module doc): time.monotonic() of the first fault of the work given up, None
        # while the database answers; why; how many times it went away (metrics).
        self.away_since: float | None = None
        self.away_reason = ""
        self.outages = 0
        self._first_fault: float | None = None  # the first fault met since the last write that succeeded
        self._answering = asyncio.Event()  # set while not away (the coalesced saves wait on it)
        self._answering.set()
        self._prober: asyncio.Task[None] | None = None
        # Called (with the reason) when a COMMIT's outcome could not be learnt: see the module doc.
        self.on_outcome_unknown: Callable[[str], None] | None = None

    @property
    def conn(self) -> SqliteConnection | PostgresConnection:
        if self._conn is None:
            raise RuntimeError("database is not connected")
        return self._conn

    @property
    def is_postgres(self) -> bool:
        return self.dialect is POSTGRES

    async def connect(self, migrate: bool = True) -> Database:
        """Open the database and (``migrate``) bring its schema up to date; a database newer than this
        code raises :class:`SchemaTooNew` either way."""
        if self.is_postgres:
            self._conn = await self._open()
            try:
                self._pool = await asyncpg.create_pool(
                    self.path, min_size=1, max_size=4, init=postgres_session, timeout=CONNECT_TIMEOUT
                )
            except BaseException:
                await self.close()
                raise
        else:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = await self._open()
        try:
            if migrate:
                await self.migrate()
            else:
                await self.migration_status()
        except BaseException:
            await self.close()  # a failed migration leaves no connection open
            raise
        return self

    async def _open(self) -> SqliteConnection | PostgresConnection:
        """A new write connection, its session set up."""
        if self.is_postgres:
            pg = await asyncpg.connect(self.path, timeout=CONNECT_TIMEOUT)
            try:
                await postgres_session(pg)
            except BaseException:
                pg.terminate()
                raise
            return PostgresConnection(pg)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves.
        raw = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            raw.row_factory = aiosqlite.Row
            await raw.execute("PRAGMA journal_mode=WAL")
            await raw.execute("PRAGMA synchronous=NORMAL")
            await raw.execute("PRAGMA foreign_keys=ON")
            await raw.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}")
        except BaseException:
            await raw.close()
            raise
        return SqliteConnection(raw)

    async def _writer(self) -> SqliteConnection | PostgresConnection:
        """The write connection (under the transaction lock), reopened first if it was lost. The
        old one is closed after the new one is in place: a read under way on it (SQLite) ends first."""
        if self._conn is None:
            raise RuntimeError("database is not connected")
        if self._lost:
            new = await self._open()
            old, self._conn, self._lost = self._conn, new, False
            log.warning("reopened the connection to the database")
            await _close_quietly(old)
        return self._conn

    def _met(self, exc: BaseException) -> str | None:
        """Note a fault of the write connection: its kind (None: not a database fault)."""
        fault = fault_of(exc)
        if fault is not None:
            self.errors.total += 1
            if self._first_fault is None:
                self._first_fault = time.monotonic()
        if fault == LOST:
            self._lost = True
        return fault

    # -- away and back ------------------------------------------------------------------

    @property
    def away(self) -> bool:
        return self.away_since is not None

    def _refuse_if_away(self) -> None:
        """Writes are refused at once while the database is away (the probe alone tries it)."""
        if self.away_since is not None:
            raise DatabaseUnavailable(f"the database is away ({self.away_reason})")

    def _gave_up(self, detail: str, cause: BaseException) -> DatabaseUnavailable:
        """Work failed on the database fault ``cause`` and is given up: the database is away from
        now (unless another transaction was in the way); the refusal to raise."""
        if self.away_since is None and not contention(cause):
            self.away_since = self._first_fault or time.monotonic()
            self.away_reason = str(cause) or type(cause).__name__
            self.outages += 1
            self._answering.clear()
            log.error("the database is away (%s): writes are refused until it answers again", self.away_reason)
            if self._conn is not None and (self._prober is None or self._prober.done()):
                self._prober = asyncio.get_running_loop().create_task(
                    self._probe_until_back(), name="tripoley-db-probe"
                )
        return DatabaseUnavailable(detail)

    def _wrote(self) -> None:
        """A write succeeded: the database answers."""
        self._first_fault = None
        if self.away_since is not None:
            log.warning("the database answers again after %.1f s away", time.monotonic() - self.away_since)
            self.away_since = None
            self.away_reason = ""
            self._answering.set()

    async def wait_back(self) -> None:
        """Until the database is not away."""
        await self._answering.wait()

    async def probe(self) -> bool:
        """Try the database with :data:`PROBE` (whether it is away or not): whether it answered."""
        try:
            async with self._tx_lock.hold(INTERACTIVE), self.errors:
                await (await self._writer()).execute(PROBE)
        except Exception as exc:
            if self._met(exc) is None:
                log.exception("the database probe failed")
            return False
        self._wrote()
        return True

    async def _probe_until_back(self) -> None:
        delay = PROBE_FIRST
        while self.away_since is not None and self._conn is not None:
            await asyncio.sleep(delay)
            if not await self.probe():
                delay = min(delay * 2, PROBE_MAX)

    async def _retrying(self, attempt: Callable[[], Awaitable[T]], what: str) -> T:
        """``attempt()``, tried again with backoff after database faults for up to :attr:`retry_for`
        seconds; then :class:`DatabaseUnavailable`. Only for work that is safe to repeat."""
        give_up = time.monotonic() + self.retry_for
        delay = 0.05
        while True:
            try:
                result = await attempt()
                self._first_fault = None  # it answered: a later fault begins a new outage
                return result
            except Exception as exc:
                fault = self._met(exc)
                if fault is None:
                    raise
                if time.monotonic() + delay > give_up:
                    log.warning("the database did not answer for %.0f s (%s): %s", self.retry_for, what, exc)
                    raise self._gave_up(f"{what}: {exc}", exc) from exc
                log.log(
                    logging.ERROR if disk_full(exc) else logging.WARNING,
                    "database fault (%s, %s): %s; trying again in %.2f s",
                    what,
                    "disk full" if disk_full(exc) else fault,
                    exc,
                    delay,
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def checkpoint_in_background(self, interval: float = 1.0) -> None:
        """Move WAL checkpoints off the writing connection: the automatic checkpoint runs inside
        a COMMIT and writes (and syncs) the database file there, holding up the transaction (and
        every transaction queued behind it) for 0.1-1 s on a slow disk. A second connection checkpoints
        every ``interval`` seconds instead (PASSIVE: it never blocks the writer). SQLite only
        (PostgreSQL's own checkpointer does this)."""
        if self.is_postgres or self.path == ":memory:" or self._checkpointer is not None:
            return
        await self.conn.raw.execute("PRAGMA wal_autocheckpoint=0")
        self._ckpt_conn = await aiosqlite.connect(self.path, isolation_level=None)
        await self._ckpt_conn.execute("PRAGMA busy_timeout=5000")
        self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoint_loop(self._ckpt_conn, interval))

    @staticmethod
    async def _checkpoint_loop(ckpt_conn: aiosqlite.Connection, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await ckpt_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # noqa: BLE001 - the next one tries again
                log.warning("WAL checkpoint failed: %s", exc)

    async def close(self) -> None:
        if self._prober is not None:
            self._prober.cancel()
            await asyncio.gather(self._prober, return_exceptions=True)
            self._prober = None
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        if self._ckpt_conn is not None:
            try:
                await self._ckpt_conn.close()
            finally:
                self._ckpt_conn = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            if self._lost:
                self._lost = False
                await _close_quietly(conn)
            else:
                await conn.raw.close()

    async def migrate(self) -> list[int]:
        """Apply every migration newer than the recorded schema version; return those applied."""
        applied: list[int] = []
        async with self._tx_lock.hold():
            conn = self.conn
            if isinstance(conn, PostgresConnection):
                await apply_on_postgres(conn, None)
                refuse_newer(await self.schema_version(), self.migrations_dir)
                for migration in load_migrations(self.migrations_dir):
                    if await apply_on_postgres(conn, migration):
                        applied.append(migration.version)
                return applied
            await conn.raw.execute(SCHEMA_VERSION_DDL)
            current = await self.schema_version()
            refuse_newer(current, self.migrations_dir)
            for migration in load_migrations(self.migrations_dir):
                if migration.version > current:
                    await apply_on_sqlite(conn, migration)
                    applied.append(migration.version)
        return applied

    async def migration_status(self) -> MigrationStatus:
        """The applied and pending migrations, changing nothing (a database with no schema_version table
        yet has every migration pending)."""
        tables = {row[0] for row in await self.fetchall(self.dialect.TABLES)}
        rows = (
            await self.fetchall("SELECT version, name, applied_at FROM schema_version ORDER BY version")
            if "schema_version" in tables
            else []
        )
        applied = [(int(version), str(name), float(at)) for version, name, at in rows]
        refuse_newer(max((version for version, _, _ in applied), default=0), self.migrations_dir)
        done = {version for version, _, _ in applied}
        pending = [m for m in load_migrations(self.migrations_dir) if m.version not in done]
        return MigrationStatus(applied, pending)

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0])

    @asynccontextmanager
    async def transaction(self, priority: int | None = None) -> AsyncIterator[SqliteConnection | PostgresConnection]:
        """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on any exception), one at a time; waiting
        transactions go lowest ``priority`` first (:data:`INTERACTIVE`, :data:`NORMAL`,
        :data:`BACKGROUND`; default: :data:`PRIORITY`). SQLite: ``BEGIN IMMEDIATE`` (the whole
        database is the transaction's). PostgreSQL: read committed, and the rows that another
        process could write are read ``FOR UPDATE`` (row locks held to the end)."""
        self._refuse_if_away()
        async with self._tx_lock.hold(PRIORITY.get() if priority is None else priority), self.errors:
            self._refuse_if_away()  # (it went away while this one waited)
            conn = await self._retrying(self._begin, "begin a transaction")
            try:
                yield conn
            except BaseException as exc:
                await self._roll_back(conn)
                if isinstance(exc, Exception) and self._met(exc) is not None:
                    if disk_full(exc):  # the callers tell "try again"; an operator must make room
                        log.error("the disk is full: a transaction was rolled back (%s)", exc)
                    raise self._gave_up(f"transaction: {exc}", exc) from exc
                raise
            await self._commit(conn)
            self._wrote()

    async def _begin(self) -> SqliteConnection | PostgresConnection:
        conn = await self._writer()
        await conn.raw.execute("BEGIN" if self.is_postgres else "BEGIN IMMEDIATE")
        return conn

    async def _roll_back(self, conn: SqliteConnection | PostgresConnection) -> None:
        """ROLLBACK, if the transaction is still open (SQLite rolls back by itself after a full disk
        or an I/O error; a lost PostgreSQL connection took its transaction with it)."""
        if conn is not self._conn or (isinstance(conn, PostgresConnection) and conn.raw.is_closed()):
            return
        if not conn.in_transaction:
            return
        try:
            await conn.raw.execute("ROLLBACK")
        except Exception as exc:  # noqa: BLE001 - the connection is unusable: reopened before its next use
            log.warning("ROLLBACK failed (%s); the connection is reopened", exc)
            self._lost = True

    async def _commit(self, conn: SqliteConnection | PostgresConnection) -> None:
        """COMMIT; a lost answer is resolved (see the module doc), a failure raised as
        :class:`DatabaseUnavailable` once the transaction is known not to be applied."""
        if isinstance(conn, PostgresConnection):
            return await self._commit_postgres(conn)
        give_up = time.monotonic() + self.retry_for
        while True:
            try:
                await conn.raw.execute("COMMIT")
                return
            except Exception as exc:
                fault = self._met(exc)
                # SQLite keeps a transaction whose COMMIT was busy open (it may be committed
                # again); any other failure rolled it back.
                if fault == BUSY and conn.in_transaction and time.monotonic() < give_up:
                    await asyncio.sleep(0.05)
                    continue
                await self._roll_back(conn)
                if fault is None:
                    raise
                raise self._gave_up(f"commit: {exc}", exc) from exc

    async def _commit_postgres(self, conn: PostgresConnection) -> None:
        try:
            xid = await conn.raw.fetchval("SELECT txid_current_if_assigned()")  # None: it wrote nothing
        except Exception as exc:
            await self._roll_back(conn)
            if self._met(exc) is None:
                raise
            raise self._gave_up(f"commit: {exc}", exc) from exc
        try:
            await conn.raw.execute("COMMIT")
            return
        except Exception as exc:
            fault = self._met(exc)
            if fault is None:
                raise
            if xid is None:
                return  # it wrote nothing: its reads stand, nothing is lost
            if fault == BUSY:  # refused: rolled back (a full disk: away; another transaction in the way: not)
                raise self._gave_up(f"commit: {exc}", exc) from exc
            lost = exc
        status = await self._outcome(int(xid))
        if status == "committed":
            log.warning("a COMMIT's answer was lost (%s); the transaction was applied", lost)
            return
        if status == "aborted":
            raise DatabaseUnavailable(f"commit: {lost}") from lost
        reason = f"the outcome of transaction {xid}'s COMMIT is unknown ({lost}): the database stayed away"
        log.critical("%s", reason)
        if self.on_outcome_unknown is not None:
            self.on_outcome_unknown(reason)
        raise CommitOutcomeUnknown(reason) from lost

    async def _outcome(self, xid: int) -> str | None:
        """Whether the transaction ``xid`` committed ("committed", "aborted"; None: unknown), asked
        on a reopened connection for up to :attr:`outcome_wait` seconds."""
        give_up = time.monotonic() + self.outcome_wait
        while time.monotonic() < give_up:
            try:
                conn = await self._writer()
                assert isinstance(conn, PostgresConnection)
                status = await conn.raw.fetchval("SELECT txid_status($1)", xid)
                if status in ("committed", "aborted"):
                    return str(status)
                if status is None:
                    return None  # too old to be known (cannot be, moments after)
            except Exception as exc:
                if self._met(exc) is None:
                    raise
            await asyncio.sleep(0.25)
        return None

    async def execute_alone(self, sql: str, params: Params = (), priority: int | None = None) -> None:
        """One statement as its own transaction (autocommit: atomic by itself), in turn with the
        transactions: one trip to the database thread instead of three (BEGIN, statement, COMMIT),
        each of which waits for the event loop when it is busy. The statement must be idempotent:
        after a database fault it is sent again (it may have been applied the first time)."""

        async def attempt() -> None:
            await (await self._writer()).execute(sql, params)

        self._refuse_if_away()
        async with self._tx_lock.hold(PRIORITY.get() if priority is None else priority), self.errors:
            self._refuse_if_away()
            await self._retrying(attempt, "a statement")
            self._wrote()

    async def table_columns(self) -> dict[str, list[str]]:
        """Every data table (not ``schema_version``) and its columns, in order."""
        names = [row[0] for row in await self.fetchall(self.dialect.TABLES) if row[0] != "schema_version"]
        return {name: [row[0] for row in await self.fetchall(self.dialect.COLUMNS, (name,))] for name in names}

    async def fetchone(self, sql: str, params: Params = ()) -> Row:
        """One row (None when there is none) of a read outside any transaction (PostgreSQL: on a pooled connection,
        committed rows only)."""
        rows = await self._read(sql, params, one=True)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._read(sql, params, one=False)

    async def _read(self, sql: str, params: Params, one: bool) -> list[Row]:
        """A read's rows, retried after database faults (reads are safe to repeat)."""

        async def attempt() -> list[Row]:
            if self._pool is not None:
                query = POSTGRES.sql(sql)
                if one:
                    row = await self._pool.fetchrow(query, *params)
                    return [] if row is None else [row]
                return list(await self._pool.fetch(query, *params))
            if self._lost and not self._tx_lock.locked():
                # SQLite reads share the write connection: reopen it first (when the lock is
                # held, its holder reopens it: this read may be part of its transaction).
                async with self._tx_lock.hold(INTERACTIVE):
                    await self._writer()
            async with self.conn.execute(sql, params) as cur:
                return list(await cur.fetchall())

        async with self.errors:  # (a fault retried is counted where it is met)
            return await self._retrying(attempt, "a read")


async def _close_quietly(conn: SqliteConnection | PostgresConnection) -> None:
    """Close a connection that met a fault (closing it may fail the same way)."""
    try:
        if isinstance(conn, PostgresConnection):
            conn.raw.terminate()
        else:
            await conn.raw.close()
    except Exception as exc:  # noqa: BLE001 - it is dropped either way
        log.info("closing a broken database connection: %s", exc)
