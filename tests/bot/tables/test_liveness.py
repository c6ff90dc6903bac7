"""Liveness: no table ever freezes.

The real timer loop (``Timers.run``) runs under the fake clock, tables of every preset side by side,
seated with mixes of Easy, Normal and Hard AIs and of humans who act, time out, go away and come
back, or leave. Hard AIs search for real (in a thread, a task of its own), on a tiny budget. The
driver waits until the loop is idle (waiting on the clock, no search under way, no table's lock
held), checks that it waits for no later than every table's deadline (else that table would
freeze), acts for the humans whose turn it is, then moves the clock to the loop's wake-up. Every
table must reach its end with every chip accounted for. The watchdog is off here (the loop must
need none); its own tests follow.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.tablelines import TABLE_LINES
from bot.settings import Settings
from bot.storage.database import Database
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager
from bot.tables.model import Table
from engine.ai import LEVELS, choose_action
from engine.presets import PRESETS
from engine.search import Budget

G = 1
AIS = LEVELS  # an AI seat of that level
HUMANS = ("acts", "times-out", "away-back", "leaves")  # how a human seat behaves
WAIT = 60.0  # wall seconds the driver waits for the loop to settle (a guard, never reached when live)


@dataclass
class Run:
    """What the driver saw: every table's end, and the cases the property is about."""

    tables: list[Table] = field(default_factory=list)
    hard_last_moves: int = 0  # a Hard AI's move ended a round (or the game)
    dropped: int = 0  # a Hard decision came after the game moved on
    backs: int = 0  # a player away took their seat back


async def play(mixes: dict[str, tuple[str, ...]], drop_every: int, rounds: int, seed: int = 0) -> Run:
    """Open one table per preset with its seats (the first one a human host), start them all, and
    drive the real timer loop until every table ended."""
    with tempfile.TemporaryDirectory() as directory:
        s = Settings(
            _env_file=None,
            discord_token=None,
            database_url=f"sqlite:///{Path(directory) / 'live.sqlite3'}",
            starting_balance=1000,
            turn_timeout=20,
            ai_pause=1.0,
            round_pause=3.0,
        )
        db = await Database(s.database_path()).connect()
        try:
            return await drive(db, s, mixes, drop_every, rounds, seed)
        finally:
            await db.close()


async def drive(db: Database, s: Settings, mixes, drop_every: int, rounds: int, seed: int) -> Run:
    clock = FakeClock()
    bank = Bank(db)
    rng = random.Random(seed)
    ai = AIPlayers(rng, clock=clock, budget=Budget(rollouts=1, seconds=None))  # one world a search
    manager = TableManager(db, bank, Prefs(db, s), s, TABLE_LINES, clock=clock, rng=rng, ai=ai)
    manager.timers.watchdog_step = math.inf  # off: the loop must need no watchdog
    run = Run()
    behaviour: dict[int, str] = {}  # user id → how that human plays
    late_hard_searches(manager, run, drop_every)
    count_hard_last_moves(manager, run)
    for channel, (preset, seats) in enumerate(mixes.items(), start=100):
        host = channel * 10
        await manager.lobby.create_table(G, channel, host, f"host{channel}", preset, {"game_end": f"rounds:{rounds}"})
        behaviour[host] = seats[0]
        for i, kind in enumerate(seats[1:], start=1):
            if kind in AIS:
                await manager.lobby.add_ai(channel, host, level=kind)
            else:
                behaviour[host + i] = kind
                await manager.lobby.join(channel, host + i, f"player{host + i}")
        run.tables.append(manager.registry.get(channel))
    for table in run.tables:
        await manager.lobby.start(table.channel_id, table.host_id)
    loop = asyncio.create_task(manager.timers.run(), name="timer-loop-under-test")
    try:
        for _ in range(20_000):
            await asyncio.wait_for(settled(manager, clock, run.tables), WAIT)
            if all(t.status != "playing" for t in run.tables):
                break
            check_nothing_is_left_waiting(manager, clock, run.tables)
            if await act_for_humans(manager, run, behaviour):
                continue
            clock.t = max(clock.t, clock.waiting[0].deadline)
        else:
            raise AssertionError("the games never ended")
    finally:
        loop.cancel()
        manager.timers.stop()
    assert [t.status for t in run.tables] == ["finished"] * len(run.tables)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0, audit
    assert manager.timers.overdue_total == 0
    return run


def idle(manager: TableManager, clock: FakeClock, tables: list[Table]) -> bool:
    """Whether the timer loop waits on the clock with nothing under way: no Hard search, no wake-up
    pending, no table's lock held."""
    return manager.timers.idle() and len(clock.waiting) == 1 and not any(t.lock.locked() for t in tables)


async def settled(manager: TableManager, clock: FakeClock, tables: list[Table]) -> None:
    """Until the timer loop is idle twice in a row (a pass of the event loop between)."""
    while True:
        if idle(manager, clock, tables):
            await asyncio.sleep(0)
            if idle(manager, clock, tables):
                return
        await asyncio.sleep(0.001)  # a search is under way in its thread, or the loop is at work


def check_nothing_is_left_waiting(manager: TableManager, clock: FakeClock, tables: list[Table]) -> None:
    """The idle loop wakes by every table's deadline (at most one retry step late): else a freeze."""
    wake_at = clock.waiting[0].deadline
    for table in tables:
        if table.status != "playing" or table.deadline is None:
            continue
        soon = max(table.deadline, clock.now() + manager.timers.busy_retry)
        assert wake_at is not None and wake_at <= soon, (
            f"frozen: table {table.id} ({table.preset}) waits for its {table.deadline_kind} deadline "
            f"{table.deadline - clock.now():+.2f} s from now, the timer loop sleeps "
            + ("with no deadline" if wake_at is None or wake_at == math.inf else f"{wake_at - clock.now():.2f} s")
        )


async def act_for_humans(manager: TableManager, run: Run, behaviour: dict[int, str]) -> bool:
    """Whatever the humans do now (their move, "I'm back", leaving); whether any did something."""
    did = False
    for table in run.tables:
        if table.status != "playing":
            continue
        for seat in table.seats:
            kind = behaviour.get(seat.user_id) if seat.user_id is not None else None
            if kind == "away-back" and seat.away:
                await manager.play.back(table.channel_id, seat.user_id)
                behaviour[seat.user_id] = "acts"
                run.backs += 1
                did = True
        aw = table.game.awaiting()
        if aw is None or table.deadline_kind != "turn" or table.seats[aw.seat].auto:
            continue
        seat = table.seats[aw.seat]
        kind = behaviour[seat.user_id]
        if kind == "acts":
            action = choose_action(table.game, aw.seat, "normal", random.Random(table.game.decision_number()))
            await manager.play.act(manager.registry.get(table.channel_id), seat.user_id, action.to_dict())
            did = True
        elif kind == "leaves":
            await manager.lobby.leave(table.channel_id, seat.user_id)
            did = True
    return did


def late_hard_searches(manager: TableManager, run: Run, every: int) -> None:
    """Every ``every``-th Hard search comes back after the game moved on (the seat's Normal move
    was played meanwhile): its decision must be dropped and the table go on."""
    if not every:
        return
    decide, search = manager.ai.decide, manager.ai._run
    searched = contextvars.ContextVar("searched")  # the game a search task is deciding for
    searches = 0

    async def deciding(game, seat, level):
        searched.set((game, seat))
        return await decide(game, seat, level)

    async def late(*args):
        nonlocal searches
        action = await search(*args)
        searches += 1
        if searches % every == 0:
            game, seat = searched.get()
            game.apply(choose_action(game, seat, "normal", random.Random(searches)))
            run.dropped += 1
        return action

    manager.ai.decide = deciding  # type: ignore[method-assign]
    manager.ai._run = late  # type: ignore[method-assign]


def count_hard_last_moves(manager: TableManager, run: Run) -> None:
    """Count the Hard AI moves after which the round (or the game) is over."""
    play_auto = manager.flow.play_auto

    async def counted(table, events, **kw):
        aw = table.game.awaiting()
        seat = table.seats[aw.seat]
        action = await play_auto(table, events, **kw)
        if action is not None and seat.is_ai and seat.ai_level == "hard" and table.game.awaiting() is None:
            run.hard_last_moves += 1
        return action

    manager.flow.play_auto = counted  # type: ignore[method-assign]


SEATS = st.sampled_from(AIS + HUMANS)
TABLE = st.tuples(st.sampled_from(HUMANS)).flatmap(
    lambda host: st.lists(SEATS, min_size=1, max_size=3).map(lambda rest: host + tuple(rest))
)
MIXES = st.fixed_dictionaries({preset: TABLE for preset in PRESETS})


def every_preset(*seats: str) -> dict[str, tuple[str, ...]]:
    return {preset: seats for preset in PRESETS}


@pytest.mark.parametrize(
    "seats",
    [
        ("times-out", "hard", "normal"),
        ("times-out", "hard", "easy"),
        ("times-out", "hard", "hard"),
        ("times-out", "normal", "hard"),
        ("acts", "hard", "normal"),
        ("away-back", "normal", "hard"),
    ],
    ids="-".join,
)
def test_every_preset_ends_with_a_hard_ai_at_the_table(seats):
    """The tables of issue 20: a Hard AI next to another AI seat, in either order (the host
    times out and the AI plays their seat, so the AIs make every round's last move)."""
    run = asyncio.run(play(every_preset(*seats), drop_every=0, rounds=2))
    assert run.hard_last_moves > 0
    if seats[0] == "away-back":
        assert run.backs == len(PRESETS)


def test_late_hard_decisions_are_dropped_and_the_tables_go_on(caplog):
    caplog.set_level(logging.INFO, logger="bot.tables")
    run = asyncio.run(play(every_preset("times-out", "hard", "hard"), drop_every=3, rounds=1))
    assert run.dropped > 0
    assert caplog.text.count("came after the game moved on; dropped") == run.dropped
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # no move failed, nothing overdue


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixes=MIXES, drop_every=st.sampled_from([0, 2, 5]), rounds=st.integers(1, 2), seed=st.integers(0, 2**16))
@example(mixes=every_preset("acts", "hard", "normal", "hard"), drop_every=0, rounds=1, seed=1)
def test_any_mix_of_seats_plays_every_preset_to_its_end(mixes, drop_every, rounds, seed):
    asyncio.run(play(mixes, drop_every, rounds, seed))


async def until(condition) -> None:
    """Until ``condition()`` holds (the loop and the searches run meanwhile)."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), WAIT)


# -- the fake clock's waits ---------------------------------------------------------------------


async def test_a_wait_on_the_fake_clock_ends_with_its_event_or_its_time():
    clock, event = FakeClock(), asyncio.Event()
    timed = asyncio.create_task(clock.wait(event, 5))
    forever = asyncio.create_task(clock.wait(event, None))
    await until(lambda: len(clock.waiting) == 2)
    assert sorted(w.deadline or math.inf for w in clock.waiting) == [clock.now() + 5, math.inf]
    clock.advance(4.9)
    await asyncio.sleep(0)
    assert not timed.done() and len(clock.waiting) == 2
    clock.advance(0.1)
    assert [w.deadline for w in clock.waiting] == [None]  # over as soon as the time is up
    assert await timed is False
    event.set()
    assert await forever is True and not clock.waiting
    assert await clock.wait(event, 1) is True  # set already: no wait


# -- the watchdog ------------------------------------------------------------------------------

C, ANN = 500, 11


async def to_the_hosts_turn(manager: TableManager, clock: FakeClock) -> Table:
    """A table (the host and a Normal AI) started under the running loop, moved on to the host's turn."""
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"})
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    while table.deadline_kind != "turn":
        await asyncio.wait_for(settled(manager, clock, [table]), WAIT)
        clock.t = clock.waiting[0].deadline
    await asyncio.wait_for(settled(manager, clock, [table]), WAIT)
    return table


@pytest.fixture
async def running(make_manager, clock):
    """A manager whose real timer loop runs (under the fake clock) until the test ends."""
    manager = make_manager()
    loop = asyncio.create_task(manager.timers.run())
    yield manager
    loop.cancel()
    manager.timers.stop()


async def test_a_deadline_nobody_woke_the_loop_for_is_fired_within_the_watchdog_step(running, clock, caplog):
    manager = running
    table = await to_the_hosts_turn(manager, clock)
    assert clock.waiting[0].deadline == clock.now() + manager.timers.watchdog_step  # the turn is 60 s away
    lost = table.deadline = clock.now() + 0.5  # moved earlier, the loop not told (a lost wake-up)
    caplog.set_level(logging.WARNING, logger="bot.tables.timers")
    clock.t = clock.waiting[0].deadline
    await until(lambda: table.seats[0].timeouts == 1)  # fired: the host's turn timed out
    assert clock.now() - lost <= manager.timers.watchdog_step
    assert manager.timers.overdue_total == 1 and manager.timers.overdue_now() == 0
    assert f"table {table.id}: its turn deadline is 0.5 s overdue; nothing woke the timer loop" in caplog.text


async def test_a_table_overdue_while_its_lock_is_held_is_counted_and_fired_once_free(running, clock, caplog):
    manager = running
    table = await to_the_hosts_turn(manager, clock)
    caplog.set_level(logging.WARNING, logger="bot.tables.timers")
    due = table.deadline
    async with table.lock:  # a click handled there is stuck
        clock.t = due + manager.timers.overdue_after + 1
        await until(lambda: manager.timers.overdue_total == 1)
        assert manager.timers.overdue_now() == 1 and table.seats[0].timeouts == 0
        assert f"table {table.id}: its turn deadline is 4.0 s overdue; its lock is held" in caplog.text
    await until(lambda: len(clock.waiting) == 1 and manager.timers.idle())
    clock.t = clock.waiting[0].deadline  # the busy table's retry
    await until(lambda: table.seats[0].timeouts == 1)
    assert manager.timers.overdue_now() == 0 and manager.timers.overdue_total == 1


async def test_a_hard_search_that_never_answers_is_given_up_for_the_normal_move(running, clock, caplog):
    manager = running
    wedged = asyncio.Event()

    async def never_answers(*args):
        wedged.set()
        await asyncio.Event().wait()

    manager.ai._run = never_answers  # type: ignore[method-assign]
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"})
    await manager.lobby.add_ai(C, ANN, level="hard")
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    while True:  # on to the Hard AI's move (the host times out meanwhile)
        await until(lambda: wedged.is_set() or idle(manager, clock, [table]))
        if wedged.is_set():
            break
        clock.t = clock.waiting[0].deadline
    await until(lambda: len(clock.waiting) == 2)  # the loop's wait and the search's

    def progress():  # (a choice made at once adds no event until all are in, only a seat that chose)
        return table.game.decision_number(), len(table.game.chosen_seats())

    decisions = progress()
    caplog.set_level(logging.WARNING, logger="bot.tables.aiworker")
    clock.advance(AIPlayers.search_limit)
    await until(lambda: progress() > decisions and manager.timers.idle())
    assert manager.ai.abandoned == 1
    assert "a Hard AI search took over 30 s: given up, the seat plays the Normal AI's move" in caplog.text
    ai_seat = next(i for i, s in enumerate(table.seats) if s.is_ai)
    # its move, logged as the seat's (a choice made at once: held until the host's is in too)
    assert "(Hard AI)" in table.log[-1] or ai_seat in table.game.chosen_seats()
