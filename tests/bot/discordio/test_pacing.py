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


class StalledLoop:
    """A clock whose sleepers wake only when the test moves time on (as a busy event loop wakes
    them late, all together)."""

    def __init__(self) -> None:
        self.t = 100.0
        self.sleepers: list[tuple[float, asyncio.Future]] = []

    def monotonic(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.t + seconds, woken))
        await woken

    async def advance_to(self, t: float) -> None:
        self.t = t
        due = [(at, f) for at, f in self.sleepers if at <= t]
        self.sleepers = [(at, f) for at, f in self.sleepers if at > t]
        for _, woken in due:
            woken.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)  # let the woken requests run


async def test_late_wake_ups_never_bunch_over_the_rate_in_any_second():
    """The loop stalls 1.5 s while requests wait for their slots; when it resumes, the requests
    whose slots passed do not all go at once: at most `rate` in any second, by when they went."""
    clock = StalledLoop()
    pace = Pacer(10, clock.monotonic, clock.sleep)
    sent: list[float] = []

    async def request() -> None:
        await pace()
        await pace.going_out()  # the trace on discord.py's session, as the request leaves
        sent.append(clock.t)

    tasks = [asyncio.ensure_future(request()) for _ in range(30)]
    await asyncio.sleep(0)
    await clock.advance_to(101.5)  # the stall: 15 slots went by
    for step in range(1, 100):
        if all(t.done() for t in tasks):
            break
        await clock.advance_to(101.5 + step * 0.05)
    assert len(sent) == 30
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(sent, sent[10:])), sent  # the 11th after any: a second later


async def test_requests_held_after_their_slots_never_leave_over_the_rate_in_any_second():
    """Requests that took their slots one by one but were held on their way (discord.py waiting
    for a route's bucket) leave together with later ones: the window at the wire still lets at
    most `rate` out in any second."""
    clock = StalledLoop()
    pace = Pacer(10, clock.monotonic, clock.sleep)
    held = asyncio.Event()
    sent: list[float] = []

    async def request(delayed: bool) -> None:
        await pace()
        if delayed:
            await held.wait()
        await pace.going_out()
        sent.append(clock.t)

    tasks = [asyncio.ensure_future(request(i < 8)) for i in range(20)]
    for step in range(1, 400):
        if all(t.done() for t in tasks):
            break
        if step == 10:
            held.set()  # the 8 held ones go now, with whatever took the later slots
        await clock.advance_to(100 + step * 0.05)
    assert len(sent) == 20
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(sent, sent[10:])), sent


async def test_only_requests_counted_against_the_global_limit_wait_at_the_wire():
    from types import SimpleNamespace

    import yarl

    from bot.discordio.metrics import DiscordTraffic

    gated: list[str] = []

    async def gate() -> None:
        gated.append("waited")

    traffic = DiscordTraffic(gate=gate)
    base = "https://discord.com/api/v10"
    for path in ("/channels/1/messages", "/interactions/2/tok/callback", "/webhooks/3/tok/messages/@original"):
        await traffic._started(None, None, SimpleNamespace(url=yarl.URL(base + path)))
    assert gated == ["waited"]
    assert traffic.requests == {"global": 1, "exempt": 2}


async def test_after_a_pause_the_requests_held_back_leave_spread_out():
    """The loop stalls while requests queue at the wire: when it resumes, at most a tenth of the
    rate leaves within any tenth of a second (a collection of 0.5 s once let 23 out at once)."""
    clock = StalledLoop()
    pace = Pacer(40, clock.monotonic, clock.sleep)
    sent: list[float] = []

    async def request() -> None:
        await pace.going_out()
        sent.append(clock.t)

    await clock.advance_to(100.0)
    tasks = [asyncio.ensure_future(request()) for _ in range(30)]
    await asyncio.sleep(0)
    for step in range(1, 400):
        if all(t.done() for t in tasks):
            break
        await clock.advance_to(100 + step * 0.01)
    assert len(sent) == 30
    assert all(b - a >= 0.1 - 1e-9 for a, b in zip(sent, sent[4:])), sent  # the 5th after any: 0.1 s later
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(sent, sent[40:])), sent
