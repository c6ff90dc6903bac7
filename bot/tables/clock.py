"""Clocks: monotonic time in production, a hand-driven clock in tests.

A clock tells the game's time (:meth:`Clock.now`) and waits: the timer loop (bot.tables.timers)
waits through its clock for a wake-up or a deadline, so under :class:`FakeClock` the real loop runs
with no wall-clock sleep: a wait ends when its event is set or when the test moves the time past
its deadline.

The game's time is monotonic while the process runs (on the epoch's scale, so a deadline still
reads as a date): a wall-clock step, either way, neither fires a deadline early nor freezes a
table. The wall clock (:meth:`Clock.wall`) is only for what outlives the process: a deadline is
saved as a wall time and re-armed from it after a restart (:func:`wall_offset`), and records are
dated with it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Protocol

WALL_STEP = 2.0  # seconds the wall clock must move against the monotonic one to count as a step


class Clock(Protocol):
    def now(self) -> float:
        """The game's time: monotonic while the process runs (deadlines are measured on it)."""
        ...

    def wall(self) -> float:
        """The wall clock (Unix time): saved deadlines, dates of records."""
        ...

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        """Until ``event`` is set (True) or ``timeout`` seconds of this clock passed (False)."""
        ...


def wall_offset(clock: Clock) -> float:
    """Seconds the wall clock is ahead of the game's time (0 until the wall clock steps): a deadline
    is saved as ``deadline + wall_offset`` and re-armed as ``saved - wall_offset``."""
    return clock.wall() - clock.now()


class SystemClock:
    """``time.monotonic`` anchored at the wall time the clock was made (one process's run)."""

    def __init__(self) -> None:
        self._base = time.time() - time.monotonic()

    def now(self) -> float:
        return self._base + time.monotonic()

    def wall(self) -> float:
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
    """A clock that only moves when told to (``advance``, or setting ``t``: the monotonic time);
    ``step_wall`` steps its wall clock alone, as NTP or an operator may."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._t = float(start)
        self.wall_ahead = 0.0  # seconds the wall clock was stepped by, in all
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

    def wall(self) -> float:
        return self._t + self.wall_ahead

    def step_wall(self, seconds: float) -> None:
        self.wall_ahead += seconds

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


class Hearing:
    """Whether the bot hears its players now. While it cannot (its gateway connection is down, its
    event loop stalled), no player can act, so the game's deadlines are held (bot.tables.timers)
    and then extended by the gap. Each cause (``why``: "gateway", "shard 2") is deaf and heard on
    its own; the gap runs from the first cause's start to the last one's end."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._causes: set[str] = set()
        self._since: float | None = None  # the game's time the bot went deaf (None: it hears)

    @property
    def deaf(self) -> bool:
        return self._since is not None

    def deaf_for(self) -> float:
        """Seconds the bot has been deaf so far (0 while it hears)."""
        return 0.0 if self._since is None else max(0.0, self.clock.now() - self._since)

    def lost(self, why: str) -> None:
        if self._since is None:
            self._since = self.clock.now()
        self._causes.add(why)

    def back(self, why: str) -> float | None:
        """``why`` is over: the whole gap in seconds when the bot hears again, else None (it was
        not deaf for that cause, or another cause still holds)."""
        if why not in self._causes:
            return None
        self._causes.discard(why)
        if self._causes:
            return None
        gap = self.deaf_for()
        self._since = None
        return gap
