"""When a click was made: its snowflake (Discord's clock) against the lag learnt from recent
interactions, on the game's monotonic clock."""

from __future__ import annotations

from bot.discordio.clicktimes import DISCORD_EPOCH_MS, KEEP, ClickTimes, created_at
from bot.tables.clock import FakeClock


def snowflake(unix: float, n: int = 0) -> int:
    """An id Discord would have made at ``unix`` (``n``: its sequence bits)."""
    return (round(unix * 1000) - DISCORD_EPOCH_MS) << 22 | n


def test_a_snowflake_carries_its_creation_time():
    assert created_at(snowflake(1_700_000_000.25)) == 1_700_000_000.25
    assert created_at(0) == DISCORD_EPOCH_MS / 1000


def test_a_late_click_is_dated_when_it_was_made_by_the_usual_lag():
    clock = FakeClock(1_700_000_000.0)
    times = ClickTimes(clock)
    # Discord's clock is 2 s behind the bot's, and an interaction takes 50 ms to come.
    for i in range(5):
        clock.t = 1_700_000_000.0 + i
        made = times.arrived(snowflake(clock.t - 2.05, i))
        assert abs(made - clock.t) < 1e-3  # came at once: made "now"
    # A click made at 1_700_000_010 (bot's clock), replayed 30 s later after a gateway outage.
    clock.t = 1_700_000_040.0
    late = snowflake(1_700_000_010.0 - 2.05, 9)
    made = times.arrived(late)
    assert abs(made - 1_700_000_010.0) < 1e-3 and times.made_at(late) == made
    # The late one did not teach a longer lag: the next prompt click is "now" again.
    clock.t += 1
    assert abs(times.arrived(snowflake(clock.t - 2.05, 10)) - clock.t) < 1e-3


def test_a_wall_clock_step_changes_no_click_time():
    clock = FakeClock(1_700_000_000.0)
    times = ClickTimes(clock)
    times.arrived(snowflake(1_700_000_000.0 - 0.05))
    clock.step_wall(3600)
    clock.advance(1)
    assert abs(times.arrived(snowflake(1_700_000_001.0 - 0.05, 1)) - clock.t) < 1e-3


def test_only_recent_clicks_are_kept():
    clock = FakeClock(1_700_000_000.0)
    times = ClickTimes(clock)
    ids = [snowflake(1_700_000_000.0, n) for n in range(KEEP + 5)]
    for i in ids:
        times.arrived(i)
    assert times.made_at(ids[0]) is None and times.made_at(ids[-1]) is not None
