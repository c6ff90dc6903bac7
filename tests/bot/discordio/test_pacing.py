"""The bot's own REST calls are paced under Discord's global limit, in the order they came."""

from __future__ import annotations

import asyncio

from bot.discordio.pacing import Pacer


class Clock:
    def __init__(self) -> None:
        self.t = 100.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))


async def test_requests_take_the_next_free_slot_at_the_rate():
    clock = Clock()
    pace = Pacer(40, clock.monotonic, clock.sleep)
    for _ in range(5):  # a burst at one moment: 25 ms apart
        await pace()
    assert clock.slept == [0.025, 0.05, 0.075, 0.1]
    clock.t += 10  # idle meanwhile: the next one goes at once
    await pace()
    assert len(clock.slept) == 4


async def test_a_burst_of_real_requests_spreads_over_time():
    pace = Pacer(200)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.gather(*(pace() for _ in range(21)))
    assert loop.time() - started >= 0.09  # 20 slots of 5 ms after the first


async def test_rate_zero_does_not_pace():
    clock = Clock()
    pace = Pacer(0, clock.monotonic, clock.sleep)
    for _ in range(10):
        await pace()
    assert clock.slept == []


class SleepingClock(Clock):
    """Time passes only while the pacer sleeps; ``stall`` makes every sleep end late (a busy loop)."""

    def __init__(self, stall: float = 0.0) -> None:
        super().__init__()
        self.stall = stall
        self.sent: list[float] = []

    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds)
        self.t += seconds + self.stall


async def test_late_wake_ups_never_bunch_over_the_rate_in_any_second():
    """With every wake-up 0.3 s late, slots pile up; the requests still go out at most `rate` in
    any window of one second, by the times they really went."""
    clock = SleepingClock(stall=0.3)
    pace = Pacer(10, clock.monotonic, clock.sleep)

    async def request() -> None:
        await pace()
        clock.sent.append(clock.t)

    await asyncio.gather(*(request() for _ in range(60)))
    sent = sorted(clock.sent)
    assert len(sent) == 60
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(sent, sent[10:])), sent  # the 11th after any is a second later
