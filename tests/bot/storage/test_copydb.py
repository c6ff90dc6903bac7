"""``python -m bot migrate-db FROM TO``: an SQLite database moves to PostgreSQL (bot.storage.copydb)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.tablelines import TABLE_LINES
from bot.storage.copydb import MigrationRefused, audits, migrate_database, row_counts
from bot.storage.database import Database
from bot.tables.manager import TableManager
from tests.bot.economy.test_economy import play_out
from tests.bot.tables.test_manager import ANN, BOB, C, G, lobby

ROOT = Path(__file__).resolve().parents[3]


async def busy_sqlite(path: str, settings, clock) -> None:
    """A database with a finished game, a game half played and an open lobby, in two servers."""
    db = await Database(path).connect()
    try:
        bank = Bank(db)
        manager = TableManager(db, bank, Prefs(db, settings), settings, TABLE_LINES, clock=clock, rng=random.Random(3))
        table = await lobby(manager, ai=1)
        await manager.lobby.start(C, ANN)
        await play_out(manager, clock, table)
        again = await lobby(manager, ai=1)
        await manager.lobby.start(C, ANN)
        for _ in range(5):
            clock.t = again.deadline
            await manager.timers.tick()
        await manager.lobby.create_table(G + 1, C + 1, BOB, "bob", "rummoli", {}, buy_in=50)
        await manager.store.flush()
        await bank.claim(G + 1, ANN, "daily", 100, 3600, 1000)
    finally:
        await db.close()


async def test_an_sqlite_database_moves_to_postgresql_with_every_chip(tmp_path, settings, clock, postgres_server):
    source = str(tmp_path / "old.sqlite3")
    await busy_sqlite(source, settings, clock)
    target = postgres_server.new_database(migrated=False)
    moved = await migrate_database(source, target)
    assert moved.rows["ledger"] > 5 and moved.rows["tables"] == 3 and moved.rows["wallets"] >= 4
    assert set(moved.audits) == {G, G + 1} and all(a.ok for a in moved.audits.values())

    old, new = await Database(source).connect(), await Database(target).connect()
    try:
        tables = await old.table_columns()
        assert await row_counts(new, tables) == await row_counts(old, tables) == moved.rows
        assert await audits(new) == await audits(old) == moved.audits
        assert [dict(r) for r in await new.fetchall("SELECT * FROM ledger ORDER BY id")] == [
            dict(r) for r in await old.fetchall("SELECT * FROM ledger ORDER BY id")
        ]
        # The bot carries on over the copy: the game resumes, and new rows get new ids.
        manager = TableManager(
            new, Bank(new), Prefs(new, settings), settings, TABLE_LINES, clock=clock, rng=random.Random(3)
        )
        resumed = await manager.timers.resume()
        assert sorted(t.status for t in resumed) == ["lobby", "playing"]
        playing = next(t for t in resumed if t.status == "playing")
        await play_out(manager, clock, playing)
        await manager.lobby.create_table(G + 2, C + 2, ANN, "ann", "tripoley", {}, buy_in=100)
        assert all(a.ok for a in (await audits(new)).values())
        assert (await new.fetchone("SELECT COUNT(DISTINCT id) = COUNT(*) FROM ledger"))[0]
    finally:
        await old.close()
        await new.close()

    with pytest.raises(MigrationRefused, match="already holds rows"):
        await migrate_database(source, target)


async def test_migrate_db_command_line(tmp_path, settings, clock, postgres_server):
    source = tmp_path / "bot.sqlite3"
    await busy_sqlite(str(source), settings, clock)
    target = postgres_server.new_database(migrated=False)

    def command(*args: str) -> subprocess.CompletedProcess:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DATABASE_URL": f"sqlite:///{source}"}
        return subprocess.run(
            [sys.executable, "-m", "bot", "migrate-db", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = command(f"sqlite:///{source}", target)
    assert done.returncode == 0, done.stderr
    assert "every server balanced before and after" in done.stdout and "2 servers" in done.stdout
    again = command(f"sqlite:///{source}", target)
    assert again.returncode == 1 and "already holds rows" in again.stderr and "Traceback" not in again.stderr
    bad = command("nonsense", target)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
