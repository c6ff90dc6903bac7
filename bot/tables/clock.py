"""Clocks: wall time in production, a hand-driven clock in tests.

A clock tells the time and waits: the timer loop (bot.tables.timers) waits through its clock for
a wake-up or a deadline, so under :class:`FakeClock` the real loop runs with no wall-clock sleep:
a wait ends when its event is set or when the test moves the time past its deadline.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        """Until ``event`` is set (True) or ``timeout`` seconds of this clock passed (False)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return event.is_set()  # set just as the time ran out: it counts as woken
        return True


@dataclass(eq=False)
class Waiting:
    """A wait under way on a :class:`FakeClock`: until ``deadline`` (None: only the event)."""

    deadline: float | None
    alarm: asyncio.Event = field(default_factory=asyncio.Event)


class FakeClock:
    """A clock that only moves when told to (``advance``, or setting ``t``)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._t = float(start)
        self.waiting: list[Waiting] = []  # the waits under way (a test sees whom the time would wake)

    @property
    def t(self) -> float:
        return self._t

    @t.setter
    def t(self, value: float) -> None:
        self._t = float(value)
        for waiting in [w for w in self.waiting if w.deadline is not None and w.deadline <= self._t]:
            self.waiting.remove(waiting)  # over now, though its waiter only runs on its next turn
            waiting.alarm.set()

    def now(self) -> float:
        return self._t

    def advance(self, seconds: float) -> float:
        self.t = self._t + seconds
        return self._t

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        if event.is_set():
            return True
        waiting = Waiting(None if timeout is None else self._t + timeout)
        if waiting.deadline is not None and waiting.deadline <= self._t:
            return False
        self.waiting.append(waiting)
        watchers = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(waiting.alarm.wait())]
        try:
            await asyncio.wait(watchers, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiting in self.waiting:
                self.waiting.remove(waiting)
            for watcher in watchers:
                watcher.cancel()
        return event.is_set()
