"""Database faults: the connection is reopened, work safe to repeat is retried, a transaction is
never replayed blindly, and what can't be done is refused with DatabaseUnavailable.

SQLite: another program holding the write lock, a full disk (``max_page_count``), an I/O error.
PostgreSQL: the connection's backend killed, the server stopped and started again, a COMMIT whose
answer is lost (committed, or not), and one whose outcome can't be learnt."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3

import asyncpg
import pytest

from bot import errors
from bot.messages.refusals import say
from bot.storage.database import Database


async def wait_for(condition, timeout: float = 30.0) -> None:
    """Until ``condition()`` holds (checked every few ms), at most ``timeout`` seconds."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


async def wallet(db: Database, user: int) -> int | None:
    row = await db.fetchone("SELECT balance FROM wallets WHERE guild_id = 1 AND user_id = ?", (user,))
    return None if row is None else int(row[0])


async def open_wallet(db: Database, user: int, balance: int) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO wallets (guild_id, user_id, balance) VALUES (1, ?, ?)", (user, balance))


# -- SQLite ------------------------------------------------------------------------------------


@pytest.fixture
async def sqlite_db(tmp_path):
    database = Database(str(tmp_path / "faults.sqlite3"))
    database.busy_timeout_ms = 20  # another program's lock: a statement gives up quickly, then is retried
    await database.connect()
    yield database
    await database.close()


async def test_sqlite_locked_by_another_program_waits_then_writes(sqlite_db, tmp_path):
    other = sqlite3.connect(tmp_path / "faults.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
    await open_wallet(sqlite_db, 7, 50)  # BEGIN is busy, retried until the lock is released
    assert await wallet(sqlite_db, 7) == 50 and sqlite_db.errors.total > 0
    other.close()


async def test_sqlite_locked_for_too_long_is_refused_with_the_friendly_words(sqlite_db, tmp_path):
    sqlite_db.retry_for = 0.3
    other = sqlite3.connect(tmp_path / "faults.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(errors.DatabaseUnavailable) as refused:
        await open_wallet(sqlite_db, 7, 50)
    assert say(refused.value) == "The game's database is busy — try again in a moment."
    other.execute("COMMIT")
    other.close()
    assert await wallet(sqlite_db, 7) is None  # nothing was written
    await wait_for(lambda: not sqlite_db.away)  # the probe finds it back
    await open_wallet(sqlite_db, 7, 50)  # and the connection works again
    assert await wallet(sqlite_db, 7) == 50


async def test_sqlite_disk_full_rolls_the_transaction_back(sqlite_db, caplog):
    caplog.set_level(logging.WARNING, logger="bot.storage.database")
    await open_wallet(sqlite_db, 1, 10)
    raw = sqlite_db.conn.raw
    (pages,) = (await raw.execute_fetchall("PRAGMA page_count"))[0]
    await raw.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
    with pytest.raises(errors.DatabaseUnavailable):
        async with sqlite_db.transaction() as conn:
            await conn.execute("UPDATE wallets SET balance = balance + 5 WHERE user_id = 1")
            await conn.execute(
                "INSERT INTO ledger (guild_id, user_id, delta, balance, kind, created_at, note)"
                " VALUES (1, 1, 5, 15, 'grant', 0, ?)",
                ("x" * 200_000,),
            )
    assert await wallet(sqlite_db, 1) == 10  # the whole transaction, its first statement too, undone
    assert sqlite_db.away and sqlite_db.outages == 1  # writes are refused at once meanwhile
    with pytest.raises(errors.DatabaseUnavailable):
        await open_wallet(sqlite_db, 2, 20)
    # A full disk needs an operator: an error, not a warning (and no traceback: a line per try).
    full = [r for r in caplog.records if "disk is full" in r.getMessage()]
    assert full and all(r.levelno == logging.ERROR and r.exc_info is None for r in full)
    await raw.execute("PRAGMA max_page_count = 1073741823")  # space again
    await wait_for(lambda: not sqlite_db.away)  # the probe finds it back
    await open_wallet(sqlite_db, 2, 20)
    assert await wallet(sqlite_db, 2) == 20


class FailingOnce:
    """The aiosqlite connection, whose next statement fails with an I/O error."""

    def __init__(self, raw) -> None:
        self._raw = raw
        self.failed = False

    def __getattr__(self, name):
        return getattr(self._raw, name)

    async def execute_fetchall(self, sql, params=()):
        if not self.failed:
            self.failed = True
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 10  # SQLITE_IOERR
            raise error
        return await self._raw.execute_fetchall(sql, params)


async def test_sqlite_io_error_reopens_the_connection(sqlite_db):
    await open_wallet(sqlite_db, 1, 10)
    broken = sqlite_db.conn
    injected = FailingOnce(broken.raw)
    broken.raw = injected
    await sqlite_db.execute_alone("UPDATE wallets SET balance = 11 WHERE user_id = 1")  # retried, reopened
    assert injected.failed and sqlite_db.conn is not broken
    assert await wallet(sqlite_db, 1) == 11


# -- PostgreSQL ----------------------------------------------------------------------------------


@pytest.fixture
def pg_url(restartable_postgres) -> str:
    return restartable_postgres.new_database()


@pytest.fixture
async def pg_db(pg_url):
    database = await Database(pg_url).connect()
    yield database
    await database.close()


async def terminate_backends(db: Database) -> None:
    """Kill every other connection to the database (as a failover does to the bot's)."""
    killer = await asyncpg.connect(db.path)
    try:
        await killer.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
    finally:
        await killer.close()


async def test_postgres_killed_connections_are_reopened(pg_db):
    await open_wallet(pg_db, 1, 10)
    await terminate_backends(pg_db)
    await open_wallet(pg_db, 2, 20)  # the write connection: BEGIN failed, reopened, retried
    assert pg_db.errors.total >= 1
    assert await wallet(pg_db, 1) == 10  # the pool's connections too
    await pg_db.execute_alone("UPDATE wallets SET balance = 12 WHERE user_id = 1")
    await terminate_backends(pg_db)
    assert await wallet(pg_db, 1) == 12  # (the pool may notice a killed connection before using it)


async def test_postgres_restart_a_transaction_waits_for_the_server(restartable_postgres, pg_db):
    await open_wallet(pg_db, 1, 10)
    restartable_postgres.halt()
    try:
        writing = asyncio.ensure_future(open_wallet(pg_db, 2, 20))
        reading = asyncio.ensure_future(wallet(pg_db, 1))
        await wait_for(lambda: pg_db.errors.total >= 2)  # both met the server away and are retrying
        assert not writing.done() and not reading.done()
    finally:
        restartable_postgres.resume()
    await writing
    assert await reading == 10 and await wallet(pg_db, 2) == 20


async def test_postgres_down_for_too_long_is_refused(restartable_postgres, pg_db):
    pg_db.retry_for = 0.5
    restartable_postgres.halt()
    try:
        with pytest.raises(errors.DatabaseUnavailable):
            await open_wallet(pg_db, 3, 30)
        with pytest.raises(errors.DatabaseUnavailable):
            await wallet(pg_db, 3)
    finally:
        restartable_postgres.resume()
    assert await wallet(pg_db, 3) is None
    await wait_for(lambda: not pg_db.away)  # the probe finds it back
    await open_wallet(pg_db, 3, 30)
    assert await wallet(pg_db, 3) == 30


class LosingCommit:
    """The asyncpg connection, whose COMMIT's answer is lost: ``applied`` says whether the COMMIT
    reached the server before the connection broke."""

    def __init__(self, raw, applied: bool) -> None:
        self._raw = raw
        self.applied = applied

    def __getattr__(self, name):
        return getattr(self._raw, name)

    async def execute(self, query, *args):
        if query == "COMMIT":
            if self.applied:
                await self._raw.execute(query)
            self._raw.terminate()
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return await self._raw.execute(query, *args)


@pytest.mark.parametrize("applied", [True, False], ids=["committed", "not committed"])
async def test_postgres_lost_commit_answer_is_looked_up_not_replayed(pg_db, applied):
    await open_wallet(pg_db, 1, 10)
    pg_db.conn.raw = LosingCommit(pg_db.conn.raw, applied)
    if applied:
        async with pg_db.transaction() as conn:  # done: the transaction is known to be committed
            await conn.execute("UPDATE wallets SET balance = balance + 5 WHERE user_id = 1")
        assert await wallet(pg_db, 1) == 15
    else:
        with pytest.raises(errors.DatabaseUnavailable):
            async with pg_db.transaction() as conn:
                await conn.execute("UPDATE wallets SET balance = balance + 5 WHERE user_id = 1")
        assert await wallet(pg_db, 1) == 10
    async with pg_db.transaction() as conn:  # reopened: the next transaction goes through
        await conn.execute("UPDATE wallets SET balance = balance + 1 WHERE user_id = 1")
    assert await wallet(pg_db, 1) == (16 if applied else 11)


async def test_postgres_commit_outcome_unknown_stops_the_bot(pg_db):
    await open_wallet(pg_db, 1, 10)
    reasons: list[str] = []
    pg_db.on_outcome_unknown = reasons.append
    pg_db.outcome_wait = 0.5
    pg_db.conn.raw = LosingCommit(pg_db.conn.raw, applied=True)
    url, pg_db.path = pg_db.path, re.sub(r":\d+/", ":1/", pg_db.path)  # nobody listens on port 1
    with pytest.raises(errors.CommitOutcomeUnknown) as refused:  # the server can't be reached to ask
        async with pg_db.transaction() as conn:
            await conn.execute("UPDATE wallets SET balance = balance + 5 WHERE user_id = 1")
    assert say(refused.value) == "The game's database is busy — try again in a moment."
    assert len(reasons) == 1 and "outcome" in reasons[0]
    pg_db.path = url
