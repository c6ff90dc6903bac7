"""The ping policy: no ping for a player who is watching (moved at the table within the minute), a
delay learnt from the player's usual answer time (clamped), a reminder before time runs out."""

from __future__ import annotations

import pytest

from bot.discordio.pingpolicy import LEARN_FROM, MAX_DELAY, SAMPLES, WARNING, PingPolicy

T, U, SEAT = 1, 100, 0


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def answer(policy: PingPolicy, clock: Clock, seconds: float, n: int, by_player: bool = True, table: int = T) -> None:
    """``n`` decisions of player U at ``table``, each made ``seconds`` after it opened."""
    for i in range(n):
        key = (1, f"d{clock.t}-{i}", SEAT)
        policy.begin(table, key, U, SEAT)
        clock.t += seconds
        assert policy.end(table, None, lambda seat: by_player) == (U, by_player)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_player_not_seen_yet_waits_the_base_delay(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    assert policy.delay(T, U, None) == 5.0
    assert policy.delay(T, U, 60.0) == 5.0


def test_a_player_who_moved_within_the_minute_is_not_pinged_until_it_is_over(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    answer(policy, clock, 2.0, 1)  # moved just now
    assert policy.delay(T, U, None) == pytest.approx(60.0)
    clock.t += 45
    assert policy.delay(T, U, None) == pytest.approx(15.0)
    clock.t += 30  # a minute and more since: the usual delay again
    assert policy.delay(T, U, None) == 5.0
    assert policy.delay(2, U, None) == 5.0  # watching that table, not this one


def test_a_reminder_comes_before_time_runs_out_even_while_watching(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    answer(policy, clock, 1.0, 1)
    assert policy.delay(T, U, 60.0) == pytest.approx(60.0 - WARNING)
    assert policy.delay(T, U, 10.0) == 5.0  # never before the player's own delay


def test_the_delay_is_learnt_from_the_players_median_answer_time_and_clamped(clock):
    policy = PingPolicy(5.0, 0.0, clock)
    answer(policy, clock, 6.0, LEARN_FROM - 1)
    assert policy.delay(T, U, None) == 5.0  # too few answers to tell a habit
    answer(policy, clock, 6.0, 1)
    assert policy.delay(T, U, None) == pytest.approx(12.0)  # twice the median
    answer(policy, clock, 100.0, 1)  # one slow turn does not move the median much
    assert policy.delay(T, U, None) == pytest.approx(12.0)
    answer(policy, clock, 100.0, SAMPLES)  # a slow player: the delay stops at MAX_DELAY
    assert policy.delay(T, U, None) == MAX_DELAY
    answer(policy, clock, 0.5, SAMPLES)  # a fast one: never below the base delay
    assert policy.delay(T, U, None) == 5.0


def test_the_timer_and_the_ai_teach_nothing(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    answer(policy, clock, 60.0, SAMPLES, by_player=False)
    assert policy.delay(T, U, None) == 5.0  # neither learnt slow nor taken for watching


def test_a_decision_ends_once_and_only_when_another_is_awaited(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    key = (1, "a", SEAT)
    policy.begin(T, key, U, SEAT)
    policy.begin(T, key, U, SEAT)  # the same decision seen again: still open from the first time
    assert policy.end(T, key, lambda seat: True) is None
    clock.t += 3
    assert policy.end(T, (1, "b", 1), lambda seat: True) == (U, True)
    assert policy.end(T, None, lambda seat: True) is None  # nothing open any more


def test_a_finished_table_is_forgotten(clock):
    policy = PingPolicy(5.0, 60.0, clock)
    answer(policy, clock, 2.0, LEARN_FROM)
    policy.forget(T)
    assert policy.delay(T, U, None) == pytest.approx(5.0)  # no longer watching it; the habit (4 s) stays
    assert policy.usual_delay(U) == 5.0 and len(policy._answers[U]) == LEARN_FROM
