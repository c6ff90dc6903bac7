"""bot.web.public and bot.web.steps: the replay viewer's data is the spectator's view, step by step,
and no card still hidden in a hand (or the spare hand) is ever in it, in any game of the family."""

from __future__ import annotations

import json

import pytest

from bot.web.public import public_table
from bot.web.steps import replay_steps
from engine import Game
from tests.bot.web.games import played
from tests.bot.web.privacy import hidden_at_each_step, leaks

NAMES = ("Ann", "Bob", "Cat", "Dan")


@pytest.mark.parametrize("preset", ["tripoley", "rummoli", "wanagan", "great-lakes", "tripoley-optional-suit"])
@pytest.mark.parametrize("seed", [3, 11])
def test_no_step_names_a_card_still_hidden(preset, seed):
    game = played(NAMES, seed=seed, preset=preset)
    replay = game.to_replay()
    steps = replay_steps(json.dumps(replay))
    hidden = hidden_at_each_step(replay)
    assert len(hidden) == len(steps.tables) > 10
    labels = {space["label"] for space in steps.tables[-1]["mat"]} | {space["id"] for space in steps.tables[-1]["mat"]}
    assert any(hidden), "the game hid cards"
    for number, (table, lines) in enumerate(zip(steps.tables, steps.lines, strict=True)):
        assert leaks({"table": table, "lines": lines}, hidden[number], labels) == [], (number, lines)
    summary = steps.summary()
    assert summary.pop("lines") == steps.lines  # each checked at its own step above
    assert leaks(summary, set().union(*hidden), labels) == []


def test_only_the_spectators_view_is_taken():
    game = Game.new("tripoley", list(NAMES), seed=1)
    game.next_deal()
    with pytest.raises(ValueError):
        public_table(game.view(0))
    table = public_table(game.view(None))
    assert "hand" not in table and "events" not in table
    assert table["spare"] == {"cards": len(game.r.spare), "high_bid": None, "high_bidder": None}


def test_the_steps_follow_the_game():
    game = played(NAMES, seed=5)
    steps = replay_steps(json.dumps(game.to_replay()))
    assert steps.tables[0]["round"] == 0 and steps.lines[0] == []
    assert steps.tables[-1]["finished"]
    assert [row["stack"] for row in steps.tables[-1]["standings"]] == sorted(game.stacks, reverse=True)
    assert list(steps.rounds) == [1, 2] and steps.round_of[steps.rounds[2]] == 2
    assert any("bets" in line or "checks" in line for lines in steps.lines for line in lines)
