"""The rating's properties, without a database: the seats' order does not matter, a win raises and a
loss lowers, ties are shared, AI seats are fixed and cannot be farmed, a season softens."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.competition.rating import (
    AI_MARGIN,
    AI_SKILL,
    EASY_FARM_BOUND,
    SEASON_SOFTENING,
    Entrant,
    Skill,
    final_places,
    rate_game,
    shown_rating,
)
from bot.competition.seasons import season_end


def test_a_newcomer_shows_1000():
    assert Skill.newcomer().shown == 1000 == shown_rating(25.0, 25 / 3)
    assert Skill(-40.0, 10.0).shown == 0  # never below 0


def test_final_places_share_equal_stacks():
    assert final_places([300, 0, 300, 100]) == [0, 3, 0, 2]
    assert final_places([0, 0, 0]) == [0, 0, 0]


def test_the_order_of_the_seats_does_not_matter():
    rng = random.Random(5)
    seats = [
        Entrant(Skill(rng.uniform(15, 35), rng.uniform(2, 8)), rng.choice([0, 100, 250, 400]), False) for _ in range(5)
    ]
    seats.append(Entrant(Skill.of_ai("hard"), 250, True))
    expected = dict(zip(range(len(seats)), rate_game(seats)))
    for _ in range(10):
        order = list(range(len(seats)))
        rng.shuffle(order)
        after = rate_game([seats[i] for i in order])
        for position, i in enumerate(order):
            assert after[position].mu == pytest.approx(expected[i].mu)
            assert after[position].sigma == pytest.approx(expected[i].sigma)


def test_a_win_raises_and_a_loss_lowers():
    seats = [Entrant(Skill.newcomer(), final, False) for final in (400, 200, 100, 0)]
    first, second, third, last = rate_game(seats)
    start = Skill.newcomer()
    assert first.mu > second.mu > start.mu > third.mu > last.mu
    assert first.shown > start.shown  # shown: the ordinal, scaled
    assert all(after.sigma < start.sigma for after in (first, second, third, last))  # every game teaches


def test_a_tie_is_shared():
    a, b, c = rate_game(
        [
            Entrant(Skill.newcomer(), 300, False),
            Entrant(Skill.newcomer(), 300, False),
            Entrant(Skill.newcomer(), 0, False),
        ]
    )
    assert a == b and a.mu > c.mu


def test_ai_seats_keep_their_fixed_strength():
    ai = Skill.of_ai("normal")
    human, after_ai = rate_game([Entrant(Skill.newcomer(), 0, False), Entrant(ai, 500, True)])
    assert after_ai == ai == Skill(*AI_SKILL["normal"])
    assert human.mu < Skill.newcomer().mu  # losing to an AI counts
    assert Skill.of_ai("no-such-level") == ai


def test_beating_the_weakest_ai_again_and_again_is_bounded():
    """1,000 wins in a row against two Easy AIs: the shown rating rises (a game counts), but stays
    below EASY_FARM_BOUND (1500: mu never passes a newcomer's 25), and mu never passes Easy's + margin
    once there."""
    easy = Skill.of_ai("easy")
    skill = Skill.newcomer()
    shown = []
    for _ in range(1000):
        skill = rate_game([Entrant(skill, 300, False), Entrant(easy, 0, True), Entrant(easy, 0, True)])[0]
        shown.append(skill.shown)
    assert EASY_FARM_BOUND == 1500
    assert shown[0] > Skill.newcomer().shown  # the first win raised it
    assert max(shown) < EASY_FARM_BOUND
    assert skill.mu <= max(Skill.newcomer().mu, easy.mu + AI_MARGIN)
    # Against humans the same wins are not capped: beating people is how to climb.
    rival = Skill.newcomer()
    climber = Skill.newcomer()
    for _ in range(50):
        climber, rival = rate_game([Entrant(climber, 300, False), Entrant(rival, 0, False)])
    assert climber.shown > EASY_FARM_BOUND


def test_beating_hard_ais_lifts_further_than_easy_ones_but_is_bounded_too():
    hard = Skill.of_ai("hard")
    skill = Skill.newcomer()
    for _ in range(500):
        skill = rate_game([Entrant(skill, 300, False), Entrant(hard, 0, True)])[0]
    assert skill.mu == pytest.approx(hard.mu + AI_MARGIN)
    assert EASY_FARM_BOUND < skill.shown < Skill(hard.mu + AI_MARGIN, 0).shown


def test_a_season_softens_toward_the_start_without_erasing():
    strong = Skill(40.0, 2.0)
    soft = strong.softened()
    start = Skill.newcomer()
    assert soft.mu == pytest.approx(40 + (start.mu - 40) * SEASON_SOFTENING)
    assert soft.sigma == pytest.approx(2 + (start.sigma - 2) * SEASON_SOFTENING)
    assert start.shown < soft.shown < strong.shown


def test_season_ends_weekly_monthly_or_never():
    wednesday = datetime(2026, 12, 2, 15, 30, tzinfo=UTC).timestamp()
    assert season_end("weekly", wednesday) == datetime(2026, 12, 7, tzinfo=UTC).timestamp()
    assert season_end("monthly", wednesday) == datetime(2027, 1, 1, tzinfo=UTC).timestamp()
    assert (
        season_end("monthly", datetime(2026, 3, 31, 23, tzinfo=UTC).timestamp())
        == datetime(2026, 4, 1, tzinfo=UTC).timestamp()
    )
    assert season_end("none", wednesday) is None
    with pytest.raises(ValueError):
        season_end("yearly", wednesday)
