from __future__ import annotations

import sqlite3

import pytest

from bot.storage.database import Database
from bot.storage.schema import load_migrations


async def test_migrations_on_empty_database(tmp_path):
    path = tmp_path / "empty.sqlite3"
    db = await Database(str(path)).connect()
    try:
        expected = max(m.version for m in load_migrations())
        assert await db.schema_version() == expected
        mode = await db.fetchone("PRAGMA journal_mode")
        assert mode[0].lower() == "wal"
        names = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"wallets", "ledger", "tables", "stats", "guild_settings", "user_prefs", "schema_version"} <= names
    finally:
        await db.close()


async def test_migrations_on_existing_database_keep_data_and_apply_only_new(tmp_path):
    path = tmp_path / "existing.sqlite3"
    mig = tmp_path / "migrations"
    mig.mkdir()
    for m in load_migrations():
        (mig / m.name).write_text(m.sql)
    db = await Database(str(path), migrations_dir=mig).connect()
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO wallets (guild_id, user_id, balance) VALUES (1, 2, 30)")
    first = await db.schema_version()
    await db.close()

    # A later release adds a migration: only it runs; the data survives.
    (mig / f"{first + 1:04d}_add_note.sql").write_text("ALTER TABLE wallets ADD COLUMN note TEXT;")
    db = await Database(str(path), migrations_dir=mig).connect()
    try:
        assert await db.schema_version() == first + 1
        row = await db.fetchone("SELECT balance, note FROM wallets WHERE guild_id = 1 AND user_id = 2")
        assert (row[0], row[1]) == (30, None)
        assert await db.migrate() == []  # idempotent
    finally:
        await db.close()


async def test_failed_migration_rolls_back(tmp_path):
    mig = tmp_path / "migrations"
    mig.mkdir()
    (mig / "0001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (mig / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER); THIS IS NOT SQL;")
    with pytest.raises(sqlite3.Error):
        await Database(str(tmp_path / "x.sqlite3"), migrations_dir=mig).connect()
    conn = sqlite3.connect(tmp_path / "x.sqlite3")
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "a" in names and "b" not in names
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 1


async def test_transaction_rolls_back_on_error(db):
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO wallets (guild_id, user_id, balance) VALUES (1, 1, 5)")
            raise RuntimeError("boom")
    assert await db.fetchone("SELECT * FROM wallets") is None


async def test_priority_lock_wakes_the_most_urgent_waiter_first():
    import asyncio

    from bot.storage.priority import BACKGROUND, INTERACTIVE, NORMAL, PriorityLock

    lock = PriorityLock()
    order: list[str] = []
    await lock.acquire(NORMAL)

    async def waiter(name: str, priority: int) -> None:
        async with lock.hold(priority):
            order.append(name)

    tasks = [
        asyncio.create_task(waiter(n, p))
        for n, p in [("batch", BACKGROUND), ("turn1", NORMAL), ("click", INTERACTIVE), ("turn2", NORMAL)]
    ]
    cancelled = asyncio.create_task(waiter("gone", INTERACTIVE))
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    lock.release()
    await asyncio.gather(*tasks)
    assert order == ["click", "turn1", "turn2", "batch"]
    assert not lock.locked()


async def test_checkpoints_in_background_and_single_statement_writes(tmp_path):
    db = await Database(str(tmp_path / "c.sqlite3")).connect()
    try:
        await db.checkpoint_in_background(interval=0.01)
        await db.execute_alone("CREATE TABLE t (x INTEGER)")
        await db.execute_alone("INSERT INTO t VALUES (?)", (1,))
        import asyncio

        await asyncio.sleep(0.05)
        assert (await db.fetchone("SELECT x FROM t"))[0] == 1
        assert (await db.fetchone("PRAGMA wal_autocheckpoint"))[0] == 0
    finally:
        await db.close()


async def test_a_statement_and_its_rows_come_back_in_one_trip(tmp_path):
    """SQLite: execute, fetch and close in one trip to the database thread; an INSERT still gives
    its new row's id, reads give every row, ``async with`` and ``await`` both work."""
    db = await Database(str(tmp_path / "t.sqlite3")).connect()
    trips = 0
    execute_fetchall = db.conn.raw.execute_fetchall

    async def counted(*args):
        nonlocal trips
        trips += 1
        return await execute_fetchall(*args)

    db.conn.raw.execute_fetchall = counted  # type: ignore[method-assign]
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, x INTEGER)")
            first = await conn.execute("INSERT INTO t (x) VALUES (?)", (7,))
            second = await conn.execute("INSERT INTO t (x) VALUES (?)", (8,))
            assert (first.lastrowid, second.lastrowid) == (1, 2)
            async with conn.execute("UPDATE t SET x = x + 1 WHERE id = ? RETURNING x", (2,)) as cur:
                assert (await cur.fetchone())[0] == 9
                assert await cur.fetchone() is None
            async with conn.execute("SELECT id, x FROM t ORDER BY id") as cur:
                assert [tuple(r) for r in await cur.fetchall()] == [(1, 7), (2, 9)]
        assert trips == 5
    finally:
        await db.close()


def test_acknowledged_work_leaves_the_interactive_priority():
    import contextvars

    from bot.storage.priority import INTERACTIVE, NORMAL, PRIORITY, acknowledged

    def interaction_task() -> int:
        PRIORITY.set(INTERACTIVE)  # as for an interaction's task (bot.discordio.client)
        acknowledged()
        return PRIORITY.get()

    assert contextvars.copy_context().run(interaction_task) == NORMAL
