"""One owner of everything: a bot process holds an exclusive lock on what it runs.

Two processes running the same tables would both fire their timers and save over each other.
So ``python -m bot`` takes, before anything else and for its whole life:

- SQLite: an exclusive ``flock`` on the lock file ``<database>.lock`` beside the database (SQLite's
  own locks last one transaction; this one lasts the process, and the kernel drops it when the
  process ends, however it ends);
- PostgreSQL: advisory locks on a connection of their own, one per shard it runs (two keys:
  :data:`OWNER_LOCK` and the shard number; a process without sharding takes :data:`EVERY_SERVER`,
  which sharded processes hold shared). If that connection is lost (a restart, a failover), the
  locks went with it: the process takes them again as soon as it reconnects, and if another process
  has taken them meanwhile, this one stops (:attr:`Ownership.on_lost`).

A second owner is refused with :class:`OwnershipRefused` (``python -m bot`` exits with status 2
and its one line). ``python -m bot check``, ``backup`` and ``repair`` own nothing: they work beside
a running bot.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.settings import Settings
from bot.storage.dialect import CONNECT_TIMEOUT

log = logging.getLogger(__name__)

OWNER_LOCK = 0x7472_6F77  # the advisory locks' first key ("trow")
EVERY_SERVER = -1  # the second key of a process without sharding (sharded ones hold it shared)
OWNED_ELSEWHERE = 2  # python -m bot's exit status: as for bad settings, restarting cannot help
WATCH_EVERY = 2.0  # seconds between two checks of the PostgreSQL locks' connection


class OwnershipRefused(Exception):
    """Another process owns (part of) what this one would run: ``str()`` is the one line to print."""


def lock_file(database: str) -> Path:
    return Path(database + ".lock")


class Ownership:
    """What this process owns, held until :meth:`release` (or the process ends)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.on_lost: Callable[[str], None] | None = None  # called when the locks can't be taken back
        self._fd: int | None = None
        self._conn: Any = None  # PostgreSQL: the asyncpg connection holding the advisory locks
        self._watch: asyncio.Task[None] | None = None

    async def acquire(self) -> Ownership:
        if self.settings.is_postgres():
            self._conn = await self._locked_connection()
            self._watch = asyncio.get_running_loop().create_task(self._watch_locks(), name="tripoley-ownership")
        elif self.settings.database_path() != ":memory:":
            self._fd = self._lock_file()
        return self

    def _lock_file(self) -> int:
        database = self.settings.database_path()
        path = lock_file(database)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OwnershipRefused(
                f"another bot process already owns the database {database} (lock file {path}); "
                "stop it first, or give this process another DATABASE_URL"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for the operator
        return fd

    def _keys(self) -> list[tuple[int, bool]]:
        """(second key, shared) of every lock this process takes."""
        shards = self.settings.shards()
        if shards is None:
            return [(EVERY_SERVER, False)]
        return [(EVERY_SERVER, True)] + [(shard, False) for shard in shards]

    async def _locked_connection(self) -> Any:  # asyncpg has no type hints
        import asyncpg

        conn = await asyncpg.connect(self.settings.database_path(), timeout=CONNECT_TIMEOUT)
        try:
            for key, shared in self._keys():
                call = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
                if not await conn.fetchval(f"SELECT {call}($1, $2)", OWNER_LOCK, key):
                    # The locks taken before this one are released now, not once the server notices
                    # the connection closed: a process starting right after must find them free.
                    await conn.execute("SELECT pg_advisory_unlock_all()")
                    raise OwnershipRefused(self._refusal(key, shared))
        except BaseException:
            conn.terminate()
            raise
        return conn

    def _refusal(self, key: int, shared: bool) -> str:
        if shared:
            what = "every server of this database (a process without SHARD_COUNT)"
            hint = "stop it first: a database is run either by one process or by shards"
        elif key == EVERY_SERVER:
            what = "this database (all of it, or some of its shards)"
            hint = "stop it first, or run this one as a shard (SHARD_COUNT, --shards)"
        else:
            what = f"shard {key} of this database"
            hint = "stop it first, or give this process other shards (--shards or SHARD_IDS)"
        return f"another bot process already owns {what} (PostgreSQL advisory lock); {hint}"

    async def _watch_locks(self) -> None:
        """Keep the locks' connection alive; take the locks back after it was lost."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                await self._conn.fetchval("SELECT 1")
                continue
            except Exception as exc:  # noqa: BLE001 - whatever broke it, the locks may be gone
                log.warning("the connection holding this process's ownership locks was lost (%s)", exc)
            self._conn.terminate()
            delay = 0.1
            while True:
                try:
                    self._conn = await self._locked_connection()
                    log.warning("took this process's ownership locks back")
                    break
                except OwnershipRefused as refused:
                    log.critical("%s", refused)
                    if self.on_lost is not None:
                        self.on_lost(str(refused))
                    return
                except Exception as exc:  # noqa: BLE001 - the database is still away: try again
                    log.info("taking the ownership locks back: %s", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def release(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)
            self._watch = None
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                await conn.close(timeout=5)
            except Exception:  # noqa: BLE001 - the server drops the locks with the connection anyway
                conn.terminate()
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # the flock goes with it


async def take_ownership(settings: Settings) -> Ownership:
    """Own what the settings say this process runs, or raise :class:`OwnershipRefused`."""
    return await Ownership(settings).acquire()
