"""Saves of format 1 (made before the phases were modules, by the engine of that time) still load
and play on exactly as they would have: one save at each kind of decision, with the stacks and
mat that engine reached when heuristic AI seats played the game from there to its end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import Game
from engine.ai import autoplay

SAVES = json.loads((Path(__file__).parent / "fixtures" / "saves_format1.json").read_text(encoding="utf-8"))


def test_the_fixture_covers_every_kind_of_decision():
    from engine.phases import DECISION

    assert {case["phase"] for case in SAVES} == set(DECISION)
    assert all(case["save"]["format"] == 1 for case in SAVES)


@pytest.mark.parametrize("case", SAVES, ids=[f"{c['preset']}-{c['phase']}" for c in SAVES])
def test_a_format_1_save_loads_and_plays_on_as_before(case):
    game = Game.from_json(json.dumps(case["save"]))
    assert game.phase == case["phase"]
    total = game.total_chips()
    again = Game.from_json(game.to_json())  # saved again in the current format, it loads the same
    assert json.loads(again.to_json())["format"] == 3 and again.to_json() == game.to_json()
    for _ in autoplay(game, "heuristic", random.Random(0)):
        assert game.total_chips() == total
    assert (game.stacks, game.mat, game.round_number) == (case["stacks"], case["mat"], case["rounds"])


def test_a_save_from_a_newer_engine_is_refused():
    data = dict(SAVES[0]["save"], format=99)
    with pytest.raises(ValueError, match="newer"):
        Game.from_json(json.dumps(data))
