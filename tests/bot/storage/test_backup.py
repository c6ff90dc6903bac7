"""bot.storage.backup: SQLite's online backup while the bot's connection keeps writing."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.storage.backup import backup
from bot.storage.database import Database

TOTAL = 1000


async def keep_moving_chips(db: Database, stop: asyncio.Event, moves: list[int]) -> None:
    """Transactions that move chips between two accounts and log each move: the sum never changes."""
    rng = random.Random(7)
    while not stop.is_set():
        amount = rng.randint(1, 50)
        async with db.transaction() as conn:
            await conn.execute("UPDATE accounts SET chips = chips - ? WHERE id = 1", (amount,))
            await conn.execute("UPDATE accounts SET chips = chips + ? WHERE id = 2", (amount,))
            await conn.execute("INSERT INTO moves (amount, padding) VALUES (?, ?)", (amount, "x" * 2000))
        moves.append(amount)
        await asyncio.sleep(0)


async def test_backup_while_a_connection_writes(tmp_path):
    path = str(tmp_path / "live.sqlite3")
    db = await Database(path).connect()
    await db.checkpoint_in_background(interval=0.01)  # as the bot runs it
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, chips INTEGER NOT NULL)")
        await conn.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, amount INTEGER, padding TEXT)")
        await conn.execute("INSERT INTO accounts VALUES (1, ?), (2, 0)", (TOTAL,))
    stop, moves = asyncio.Event(), []
    writer = asyncio.create_task(keep_moving_chips(db, stop, moves))
    try:
        copied = []
        for n in range(4):
            while len(moves) < 50 * (n + 1):  # the writer is busy before and during each copy
                await asyncio.sleep(0.005)
            dest = tmp_path / "backups" / f"b{n}.sqlite3"
            version = await asyncio.to_thread(backup, path, str(dest))
            assert version == await db.schema_version()
            copied.append(dest)
    finally:
        stop.set()
        await writer
        await db.close()
    counts = []
    for dest in copied:
        assert not dest.with_name(dest.name + "-wal").exists(), "a backup is one self-contained file"
        with sqlite3.connect(dest) as copy:
            assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert copy.execute("SELECT SUM(chips) FROM accounts").fetchone()[0] == TOTAL
            moved = copy.execute("SELECT COALESCE(SUM(amount), 0), COUNT(*) FROM moves").fetchone()
            assert copy.execute("SELECT chips FROM accounts WHERE id = 2").fetchone()[0] == moved[0]
            counts.append(moved[1])
    assert counts == sorted(counts) and counts[0] >= 50 and counts[-1] < len(moves)
    assert not list((tmp_path / "backups").glob("*.part"))


async def test_backup_refuses_without_harm(tmp_path):
    with pytest.raises(ValueError, match="there is no database"):
        backup(str(tmp_path / "missing.sqlite3"), str(tmp_path / "b.sqlite3"))
    with pytest.raises(ValueError, match="in memory"):
        backup(":memory:", str(tmp_path / "b.sqlite3"))
    db = await Database(str(tmp_path / "t.sqlite3")).connect()
    await db.close()
    (tmp_path / "b.sqlite3").write_text("keep me")
    with pytest.raises(ValueError, match="already exists"):
        backup(str(tmp_path / "t.sqlite3"), str(tmp_path / "b.sqlite3"))
    assert (tmp_path / "b.sqlite3").read_text() == "keep me"
    with pytest.raises(ValueError, match="already exists"):
        backup(str(tmp_path / "t.sqlite3"), str(tmp_path / "t.sqlite3"))
