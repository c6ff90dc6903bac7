"""One owner of everything: a second bot process on the same SQLite file, or on the same
PostgreSQL shard, exits with status 2 and one line; check and backup still work beside a running
bot; a lost lock connection takes its locks back (or stops the bot if another took them)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.settings import Settings
from bot.storage import ownership
from bot.storage.database import Database
from bot.storage.ownership import OwnershipRefused, take_ownership

ROOT = Path(__file__).resolve().parents[3]


def settings_for(url: str, **kw) -> Settings:
    return Settings(_env_file=None, discord_token=None, database_url=url, **kw)


def bot_command(tmp_path, url: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` with its settings in the environment (Discord: nowhere to be found)."""
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": url,
        "DISCORD_TOKEN": "not-a-real-token",
        "DISCORD_API_BASE": "http://127.0.0.1:1/api",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
    )


async def test_a_second_owner_of_an_sqlite_file_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    first = await take_ownership(settings_for(url))
    try:
        with pytest.raises(OwnershipRefused) as refused:
            await take_ownership(settings_for(url))
        assert str(refused.value) == (
            f"another bot process already owns the database {tmp_path / 'bot.sqlite3'} "
            f"(lock file {tmp_path / 'bot.sqlite3.lock'}); stop it first, or give this process another DATABASE_URL"
        )
        other = await take_ownership(settings_for(f"sqlite:///{tmp_path / 'other.sqlite3'}"))  # another file: fine
        await other.release()
    finally:
        await first.release()
    again = await take_ownership(settings_for(url))  # released: the next owner may start
    await again.release()


async def test_a_second_bot_process_on_the_same_sqlite_file_exits_2_with_one_line(tmp_path):
    path = tmp_path / "bot.sqlite3"
    url = f"sqlite:///{path}"
    db = await Database(str(path)).connect()  # the running bot's database (migrated)
    await db.close()
    running = await take_ownership(settings_for(url))  # the running bot
    try:
        second = await asyncio.to_thread(bot_command, tmp_path, url)
        assert second.returncode == ownership.OWNED_ELSEWHERE, second.stderr
        assert second.stderr.strip().splitlines() == [
            f"another bot process already owns the database {path} (lock file {path}.lock); "
            "stop it first, or give this process another DATABASE_URL"
        ]
        # check and backup own nothing: they work beside the running bot.
        check = await asyncio.to_thread(bot_command, tmp_path, url, "check")
        assert "\ndatabase: ok" in check.stdout, (check.stdout, check.stderr)
        backup = await asyncio.to_thread(bot_command, tmp_path, url, "backup", str(tmp_path / "copy.sqlite3"))
        assert backup.returncode == 0, backup.stderr
    finally:
        await running.release()


@pytest.fixture
def pg_url(postgres_server) -> str:
    return postgres_server.new_database()


def shard_settings(url: str, *shards: int) -> Settings:
    return settings_for(url, shard_count=4, shard_ids=shards)


async def advisory_locks_held(conn, shard: int) -> int:
    """How many sessions hold the ownership lock of ``shard`` now (asked on ``conn``, opened beforehand)."""
    return await conn.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND classid = $1 AND objid = $2 AND objsubid = 2",
        ownership.OWNER_LOCK,
        shard,
    )


async def test_each_postgres_shard_has_one_owner(pg_url):
    three = await take_ownership(shard_settings(pg_url, 3))
    looking = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(OwnershipRefused) as refused:
            await take_ownership(shard_settings(pg_url, 1, 3))
        assert str(refused.value) == (
            "another bot process already owns shard 3 of this database (PostgreSQL advisory lock); "
            "stop it first, or give this process other shards (--shards or SHARD_IDS)"
        )
        assert await advisory_locks_held(looking, 1) == 0  # taken before the refusal: free at once
        others = await take_ownership(shard_settings(pg_url, 0, 1, 2))  # the other shards: fine
        try:
            with pytest.raises(OwnershipRefused, match="owns this database"):
                await take_ownership(settings_for(pg_url))  # a process without shards wants them all
        finally:
            await others.release()
    finally:
        await looking.close()
        await three.release()
    alone = await take_ownership(settings_for(pg_url))
    try:
        with pytest.raises(OwnershipRefused, match="owns every server of this database"):
            await take_ownership(shard_settings(pg_url, 0))
    finally:
        await alone.release()


async def test_a_second_bot_process_on_the_same_postgres_shard_exits_2(tmp_path, pg_url):
    running = await take_ownership(shard_settings(pg_url, 3))
    try:
        second = await asyncio.to_thread(bot_command, tmp_path, pg_url, "run", "--shards", "3", SHARD_COUNT="4")
        assert second.returncode == ownership.OWNED_ELSEWHERE, second.stderr
        assert second.stderr.strip().splitlines() == [
            "another bot process already owns shard 3 of this database (PostgreSQL advisory lock); "
            "stop it first, or give this process other shards (--shards or SHARD_IDS)"
        ]
    finally:
        await running.release()


async def kill_lock_connection(url: str) -> None:
    killer = await asyncpg.connect(url)
    try:
        await killer.execute(
            # With a timeout, pg_terminate_backend waits until the backend is gone (its locks with it),
            # so whoever takes the lock next finds it free.
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1",
            ownership.OWNER_LOCK,
        )
    finally:
        await killer.close()


async def advisory_holders(url: str) -> set[int]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted", ownership.OWNER_LOCK
        )
        return {r["pid"] for r in rows}
    finally:
        await conn.close()


async def test_a_lost_lock_connection_takes_its_locks_back_or_stops_the_bot(pg_url, monkeypatch):
    monkeypatch.setattr(ownership, "WATCH_EVERY", 0.05)
    owner = await take_ownership(shard_settings(pg_url, 2))
    lost: list[str] = []
    owner.on_lost = lost.append
    try:
        before = await advisory_holders(pg_url)
        await kill_lock_connection(pg_url)

        async def taken_back() -> None:
            while not (holders := await advisory_holders(pg_url)) or holders == before:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(taken_back(), 30)
        assert not lost
        # Another process takes shard 2 while this one's connection is gone: this one stops.
        gate = asyncio.Event()  # this one reconnects only once the other holds the shard
        reconnect = owner._locked_connection

        async def after_the_intruder():
            await gate.wait()
            return await reconnect()

        monkeypatch.setattr(owner, "_locked_connection", after_the_intruder)
        await kill_lock_connection(pg_url)
        intruder = await take_ownership(shard_settings(pg_url, 2))
        gate.set()
        try:

            async def stopped() -> None:
                while not lost:
                    await asyncio.sleep(0.02)

            await asyncio.wait_for(stopped(), 30)
            assert lost == [
                "another bot process already owns shard 2 of this database (PostgreSQL advisory lock); "
                "stop it first, or give this process other shards (--shards or SHARD_IDS)"
            ]
        finally:
            await intruder.release()
    finally:
        await owner.release()
