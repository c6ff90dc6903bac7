"""Every house rule a lobby offers plays a whole game to its end, chips conserved."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.ai import autoplay
from engine.presets import PRESETS
from engine.rulebook import house_rules

CASES = [
    (key, name, value)
    for key in PRESETS
    for name, values in house_rules(key).items()
    for value in values
    if value != getattr(PRESETS[key].options, name)
]


@pytest.mark.parametrize("key, name, value", CASES)
def test_offered_house_rule_plays_to_the_end(key, name, value):
    options = {"game_end": "rounds:2", name: value} if name != "game_end" else {name: value}
    game = Game.new(key, ["a", "b", "c"], options=options, seed=11)
    assert getattr(game.options, name) == value
    total = game.total_chips()
    for _ in autoplay(game, "heuristic", random.Random(3)):
        assert game.total_chips() == total
    assert game.finished and sum(game.stacks) == total
