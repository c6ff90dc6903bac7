"""The order in which the process's transactions get the database: an interaction's answer
before the other saves, the coalesced background saves last (:meth:`bot.storage.database.Database.transaction`)."""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

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
