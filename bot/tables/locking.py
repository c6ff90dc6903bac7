"""Locks for acknowledging first: one lock per key (e.g. per channel), and a lock held after an
acknowledgement that kept its place in the lock's queue."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from typing import Any


@asynccontextmanager
async def held_after(lock: asyncio.Lock, acknowledge: Callable[[], Awaitable[Any]] | None) -> AsyncIterator[None]:
    """Hold ``lock``, ``acknowledge`` awaited first (None: just the lock). The place in the lock's
    queue is taken before the acknowledgement and waited for after it, so clicks still apply in
    the order they came (Add AI ×3 then Start: the acknowledgements' answers may come back in
    any order)."""
    if acknowledge is None:
        async with lock:
            yield
        return
    acquiring = asyncio.ensure_future(lock.acquire())
    try:
        await acknowledge()
        await acquiring
    except BaseException:
        if acquiring.done() and not acquiring.cancelled() and acquiring.exception() is None:
            lock.release()
        else:
            acquiring.cancel()
        raise
    try:
        yield
    finally:
        lock.release()


class KeyedLock:
    """Serialises the holders of one key and lets different keys run side by side: opening a
    table in one channel must not wait for another channel's opening (its database transaction)."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # key → (lock, holders and waiters)

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        """Keys with a lock kept now (held or awaited): none once everyone is done."""
        return len(self._locks)
