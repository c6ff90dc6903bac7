"""Storage: SQLite (the default, one aiosqlite connection, WAL) or PostgreSQL (asyncpg), with
numbered migrations.

Migrations are ``bot/storage/migrations/NNNN_name.sql``, written for SQLite and applied in order at
start-up; ``schema_version`` records each applied number. Writes go through
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

Every form of the database being away (SQLite read-only, an I/O error, a full disk, locked by
another program, a file that can't be opened or is corrupt; PostgreSQL's connection lost, a shutdown,
a read-only transaction, a full disk, too many connections) is one :func:`fault_of`; anything else
(a constraint, a bug) stays an error. Once work is given up, the database counts as away
(:attr:`Database.away_since`, :attr:`Database.outages`): further writes are refused at once, without
waiting for it (a click is answered "try again in a moment" in a moment, not after ``retry_for``
seconds each), and one write, :data:`PROBE`, tries it with backoff until it answers again
(:meth:`Database.wait_back`).
"""

from __future__ import annotations

import asyncio
import contextvars
import errno
import heapq
import itertools
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
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

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w\-]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise RuntimeError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate migration numbers in {directory}")
    return found


def known_version(directory: Path = MIGRATIONS_DIR) -> int:
    """The newest schema version this code can make (and so read)."""
    return max((m.version for m in load_migrations(directory)), default=0)


class SchemaTooNew(Exception):
    """The database was migrated by a newer version of the bot: this code must neither read nor write
    it (its tables may mean something this code does not know). Not a database fault: no retry helps."""

    def __init__(self, found: int, known: int) -> None:
        self.found, self.known = found, known
        super().__init__(
            f"the database is at schema version {found}, newer than this version of the bot knows ({known}):"
            " a newer version used it; run that version, or restore a backup this version made"
        )


def refuse_newer(found: int, directory: Path = MIGRATIONS_DIR) -> None:
    known = known_version(directory)
    if found > known:
        raise SchemaTooNew(found, known)


@dataclass(frozen=True)
class MigrationStatus:
    """What ``python -m bot migrations`` shows: the applied migrations (version, name, when) and those
    this code would apply at the next start."""

    applied: list[tuple[int, str, float]]
    pending: list[Migration]


# Transaction priorities (lower first): a save that an interaction's answer waits for goes ahead of
# other saves, and the coalesced background saves go last.
INTERACTIVE = 0
NORMAL = 1
BACKGROUND = 2
# The default priority of the transactions of the current task (e.g. INTERACTIVE while an
# interaction is answered after the move is saved: the game's end, chips and all, goes first too).
PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("transaction_priority", default=NORMAL)


def acknowledged() -> None:
    """The current interaction is acknowledged: its further transactions (the move's save, a lobby's
    chips) no longer go ahead of those that other interactions' acknowledgements wait for (a
    ``/tripoley start``'s lobby is its answer, sent after its transaction)."""
    PRIORITY.set(NORMAL)


class PriorityLock:
    """An asyncio lock whose waiters are woken lowest priority number first (FIFO within one)."""

    def __init__(self) -> None:
        self._locked = False
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def locked(self) -> bool:
        return self._locked

    async def acquire(self, priority: int = NORMAL) -> None:
        if not self._locked and not any(not f.done() for _, _, f in self._waiters):
            self._locked = True
            return
        fut = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._seq), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # handed over just as we were cancelled: pass it on
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, fut = heapq.heappop(self._waiters)
            if not fut.done():
                fut.set_result(None)  # ownership goes to that waiter; still locked
                return
        self._locked = False

    @asynccontextmanager
    async def hold(self, priority: int = NORMAL) -> AsyncIterator[None]:
        await self.acquire(priority)
        try:
            yield
        finally:
            self.release()


# The drivers' errors (a lost connection, a locked or full SQLite file, a failed statement), counted
# for the metrics; a refusal that rolls a transaction back is not one.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class ErrorCount:
    """``async with errors:`` around a database operation counts the driver errors that leave it."""

    def __init__(self) -> None:
        self.total = 0

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(exc, DRIVER_ERRORS):
            self.total += 1


# What a database fault means for the connection that met it.
BUSY = "busy"  # locked, full, a serialisation failure: try again on the same connection
LOST = "lost"  # the connection is gone (a restart, a failover, an I/O error): reopen it
_SQLITE_BUSY = {5, 6, 13}  # SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL
# SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_PROTOCOL,
# SQLITE_NOTADB. Reopened: a file that became read-only (a filesystem remounted read-only after disk
# errors) is opened read-only from then on, and only a new connection writes once it is writable again.
_SQLITE_LOST = {3, 8, 10, 11, 14, 15, 26}


def disk_full(exc: BaseException) -> bool:
    """Whether the fault is a full disk (SQLITE_FULL, ENOSPC, PostgreSQL's disk_full): no retry
    cures that by itself, an operator must act, so it is logged as an error, not a warning."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", 0) & 0xFF == 13
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    return isinstance(exc, asyncpg.DiskFullError)


def fault_of(exc: BaseException) -> str | None:
    """:data:`BUSY` or :data:`LOST` for a fault of the database that trying again may cure; None
    for anything else (a bug, a constraint: trying again would fail the same way)."""
    if isinstance(exc, sqlite3.DatabaseError):  # (a constraint, a syntax error: codes in neither set)
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        return BUSY if code in _SQLITE_BUSY else LOST if code in _SQLITE_LOST else None
    if isinstance(
        exc,
        (
            asyncpg.PostgresConnectionError,  # class 08: the connection failed or does not exist
            asyncpg.OperatorInterventionError,  # 57P0x: shut down, crashed, starting up
            asyncpg.TooManyConnectionsError,
            asyncpg.ReadOnlySQLTransactionError,  # 25006: a standby (a failover's new primary is elsewhere)
            OSError,  # refused, reset, unreachable
            TimeoutError,  # connecting took too long
        ),
    ):
        return LOST
    if isinstance(exc, asyncpg.InsufficientResourcesError):  # class 53: disk full, out of memory
        return BUSY
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return LOST  # a query on a connection that is closed already
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        return LOST  # the client's protocol state broke with the connection ("cannot switch to state")
    if isinstance(exc, asyncpg.TransactionRollbackError):  # serialisation failure, deadlock
        return BUSY
    return None


def contention(exc: BaseException) -> bool:
    """A transaction refused because another one got in its way (PostgreSQL's serialisation
    failure or deadlock): trying it again is enough, the database is not away."""
    return isinstance(exc, asyncpg.TransactionRollbackError)


# The write that tells whether an away database answers again: it changes nothing, but is a write
# (a read succeeds on a read-only file or a standby). A full disk may take it (it needs no new
# page): then the next save that does fails, and the database is away again.
PROBE = "UPDATE schema_version SET applied_at = applied_at WHERE version = (SELECT MAX(version) FROM schema_version)"
PROBE_FIRST = 0.5  # seconds before the first probe of an away database; doubled after each failure
PROBE_MAX = 5.0  # seconds between probes at most

# The advisory lock that makes processes starting together apply each migration once.
MIGRATION_LOCK = 0x7472_6970  # "trip"
SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
)


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
            if self.is_postgres:
                await self._apply_on_postgres(None)
                refuse_newer(await self.schema_version(), self.migrations_dir)
                for migration in load_migrations(self.migrations_dir):
                    if await self._apply_on_postgres(migration):
                        applied.append(migration.version)
                return applied
            await self.conn.raw.execute(SCHEMA_VERSION_DDL)
            current = await self.schema_version()
            refuse_newer(current, self.migrations_dir)
            for migration in load_migrations(self.migrations_dir):
                if migration.version <= current:
                    continue
                log.info("applying migration %s", migration.name)
                # executescript commits implicitly; wrap the script in its own transaction.
                script = "BEGIN IMMEDIATE;\n" + migration.sql + f"\n;{_recorded(migration)};\nCOMMIT;"
                try:
                    await self.conn.raw.executescript(script)
                except Exception:
                    if self.conn.in_transaction:
                        await self.conn.raw.execute("ROLLBACK")
                    raise
                applied.append(migration.version)
        return applied

    async def _apply_on_postgres(self, migration: Migration | None) -> bool:
        """One migration (None: the schema_version table) in its own transaction, under an advisory
        lock so that processes starting together apply it once; False if it was applied already."""
        conn = self.conn
        assert isinstance(conn, PostgresConnection), "only called on PostgreSQL"
        raw = conn.raw
        async with raw.transaction():
            await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            if migration is None:
                await raw.execute(POSTGRES.ddl(SCHEMA_VERSION_DDL))
                return False
            if await raw.fetchval("SELECT 1 FROM schema_version WHERE version = $1", migration.version):
                return False
            log.info("applying migration %s", migration.name)
            await raw.execute(POSTGRES.ddl(migration.sql) + f"\n;{_recorded(migration)}")
            # A table the migration rebuilt got its rows back with their ids: its identity follows.
            for (table,) in await raw.fetch(POSTGRES.sql(POSTGRES.ID_TABLES)):
                await raw.execute(POSTGRES.after_copy(table, ["id"]))
            return True

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


def _recorded(migration: Migration) -> str:
    return (
        f"INSERT INTO schema_version (version, name, applied_at) VALUES"
        f" ({migration.version}, '{migration.name}', {time.time()})"
    )


def backup(source: str, destination: str) -> int:
    """Copy the SQLite database ``source`` to the new file ``destination``; return its schema version.

    SQLite's online backup API copies one consistent snapshot in a single step, so it is safe while
    the bot runs and writes (in WAL mode the reader blocks no writer). The copy is a single
    self-contained file (journal mode DELETE), checked before it is moved into place."""
    if source == ":memory:":
        raise ValueError("the database is in memory (sqlite:///:memory:): there is nothing to back up")
    if not Path(source).is_file():
        raise ValueError(f"there is no database at {source}")
    target = Path(destination)
    if target.exists():
        raise ValueError(f"{destination} already exists: back up to a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as copy:
            src.execute("PRAGMA busy_timeout=5000")
            src.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise ValueError(f"the copy failed its integrity check: {verdict}")
            (version,) = copy.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            refuse_newer(int(version))
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return int(version)
