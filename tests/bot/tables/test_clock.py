"""Time that belongs to the game (issue 30): deadlines on a monotonic clock, a wall-clock step that
moves none of them, saved deadlines re-armed from wall time, and the bot's deafness held and then
added to every deadline (a turn to at least the restart grace), never charged to a player."""

from __future__ import annotations

import logging

import pytest

from bot import errors
from bot.tables.clock import FakeClock, Hearing, SystemClock, wall_offset
from tests.bot.tables.test_database_away import a_move
from tests.bot.tables.test_manager import ANN, C, G, drive_to_human, lobby
from tests.bot.test_chaos import yield_once


def test_the_system_clock_is_monotonic_and_the_wall_clock_apart(monkeypatch):
    import bot.tables.clock as clock_module

    class Stepped:
        """The wall clock an hour ahead; monotonic time as it is."""

        monotonic = staticmethod(clock_module.time.monotonic)

        @staticmethod
        def time() -> float:
            return real_time() + 3600

    real_time = clock_module.time.time
    clock = SystemClock()
    before = clock.now()
    monkeypatch.setattr(clock_module, "time", Stepped)
    assert abs(clock.now() - before) < 1.0  # the game's time did not jump
    assert 3599 < wall_offset(clock) < 3601


def test_hearing_spans_every_cause_and_reports_the_whole_gap():
    clock = FakeClock()
    hearing = Hearing(clock)
    assert not hearing.deaf and hearing.back("gateway") is None
    hearing.lost("gateway")
    clock.advance(2)
    hearing.lost("shard 1")
    clock.advance(3)
    assert hearing.deaf and hearing.deaf_for() == 5
    assert hearing.back("gateway") is None  # shard 1 is still down
    clock.advance(1)
    assert hearing.back("shard 1") == 6 and not hearing.deaf and hearing.deaf_for() == 0


async def test_a_wall_clock_step_either_way_fires_nothing_and_is_logged_once(manager, clock, caplog, bank):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    deadline, streak = table.deadline, table.seats[seat].timeouts
    caplog.set_level(logging.WARNING, "bot.tables.timers")
    for step in (3600.0, -600.0):
        clock.step_wall(step)
        clock.advance(0.5)
        assert await manager.timers.tick() == []
        manager.timers.watch_wall()
        manager.timers.watch_wall()  # the same step is not logged again
        assert table.deadline == deadline and table.seats[seat].timeouts == streak
    steps = [r.getMessage() for r in caplog.records if "wall clock stepped" in r.getMessage()]
    assert len(steps) == 2 and "+3600.0 s" in steps[0] and "-600.0 s" in steps[1]
    # The deadline still comes when it was due by the game's clock, not 10 minutes later.
    clock.t = deadline
    assert await manager.timers.tick() and table.seats[seat].timeouts == streak + 1
    assert (await bank.audit(G)).ok


async def test_a_saved_deadline_is_a_wall_time_and_is_re_armed_from_it(make_manager, clock):
    first = make_manager()
    table = await lobby(first, ai=1)
    await first.lobby.start(C, ANN)
    await drive_to_human(first, clock, table)
    clock.step_wall(-600)  # the wall clock set back 10 minutes while the bot ran
    left = table.deadline - clock.now()
    await first.store.save(table)
    await first.store.flush()
    # A new process: its game clock starts on the (stepped) wall clock.
    restarted = FakeClock(clock.wall())
    second = make_manager()
    second.clock = second.timers.clock = second.flow.clock = second.store.clock = restarted
    [resumed] = await second.timers.resume()
    assert abs((resumed.deadline - restarted.now()) - left) < 1e-6  # the same time left, not 10 more minutes


async def test_deadlines_are_held_while_the_bot_is_deaf_and_extended_after(manager, clock, bank, caplog):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    deadline, streak = table.deadline, table.seats[seat].timeouts
    hearing = manager.timers.hearing
    clock.t = deadline - 1  # the player's last second
    hearing.lost("gateway")
    clock.t = deadline + 40  # the gateway stayed down well past the player's deadline
    assert manager.timers.next_deadline() is None and await manager.timers.tick() == []
    assert manager.timers.overdue_now() == 0  # held, not late
    caplog.set_level(logging.INFO, "bot.tables.timers")
    gap = hearing.back("gateway")
    assert gap is not None
    moved = await manager.timers.extend(gap, "gateway disconnected")
    assert moved == [table]
    # The player gets the restart's grace (their 1 s left after the gap is less).
    assert table.deadline == clock.t + manager.timers.resume_grace
    assert await manager.timers.tick() == [] and table.seats[seat].timeouts == streak
    assert [r for r in caplog.records if "could not hear its players for 41.0 s" in r.getMessage()]
    assert (await bank.audit(G)).ok


async def test_a_deadline_far_ahead_moves_on_by_the_gap(manager, clock):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    await drive_to_human(manager, clock, table)
    deadline = table.deadline
    manager.timers.hearing.lost("gateway")
    clock.advance(5)
    await manager.timers.extend(manager.timers.hearing.back("gateway") or 0.0, "gateway disconnected")
    assert table.deadline == deadline + 5  # 55 s were left: all of them, after the gap


async def test_a_move_made_in_time_counts_though_it_arrives_late(manager, clock, bank):
    """While the bot is deaf the deadline counts as extended: a click made then, replayed on
    RESUME before the bot hears again, is applied; one made after the deadline is refused."""
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    user, act = a_move(manager, table)
    deadline, version, streak = table.deadline, table.version, table.seats[seat].timeouts
    # Made a moment after the deadline, the bot hearing all along: refused, nothing changes.
    with pytest.raises(errors.WrongPhase) as refused:
        await manager.play.act(table, user, act, table.round, made_at=deadline + 0.5, before_apply=yield_once)
    assert refused.value.refusal == errors.Refusal.TIME_RAN_OUT
    assert table.version == version and table.seats[seat].timeouts == streak
    # The same moment, but the bot had been deaf since before the deadline: in time.
    manager.timers.hearing.lost("gateway")
    clock.t = deadline + 1.0
    await manager.play.act(table, user, act, table.round, made_at=deadline + 0.5)
    assert table.version > version and table.seats[seat].timeouts == 0
    assert (await bank.audit(G)).ok
