"""Save/load and clone: a game saved at any point continues exactly as the original."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import PRESETS, Action, Game, IllegalAction
from engine.ai import choose_action


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def advance(game: Game, rng: random.Random, ai: str, steps: int) -> None:
    """``steps`` decisions or deals, stopping early when the game is finished."""
    for _ in range(steps):
        if game.finished:
            return
        aw = game.awaiting()
        if aw is None:
            game.next_deal()
        else:
            game.apply(choose_action(game, aw.seat, ai, rng))


def finish(game: Game, rng: random.Random, ai: str) -> list[dict]:
    """Play to the end; return every event (deals and actions) as dicts."""
    events: list[dict] = []
    guard = 0
    while not game.finished:
        aw = game.awaiting()
        if aw is None:
            events += [dict(e) for e in game.next_deal()]
        else:
            action = choose_action(game, aw.seat, ai, rng)
            events.append({"action": action.to_dict()})
            events += [dict(e) for e in game.apply(action)]
        guard += 1
        assert guard < 50000
    return events


def assert_continues_identically(preset: str, n: int, seed: int, cut: int, ai: str) -> None:
    game = Game.new(preset, names(n), options={"game_end": "rounds:2"}, seed=seed)
    advance(game, random.Random(seed), ai, cut)
    saved = game.to_json()
    json.loads(saved)  # plain JSON
    loaded = Game.from_json(saved)
    assert loaded.to_json() == saved, "save → load → save is not a fixed point"
    assert loaded.awaiting() == game.awaiting()
    assert loaded.phase == game.phase
    for seat in [None, *range(n)]:
        assert loaded.view(seat) == game.view(seat)
    assert [dict(e) for e in loaded.history] == [dict(e) for e in game.history]
    # both copies driven by identically seeded AIs (and the game's own RNG for the deals)
    ev_a = finish(game, random.Random(seed + 1), ai)
    ev_b = finish(loaded, random.Random(seed + 1), ai)
    assert ev_a == ev_b
    assert game.to_json() == loaded.to_json()
    assert game.stacks == loaded.stacks and game.mat == loaded.mat


@pytest.mark.parametrize("ai", ["heuristic", "random"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_save_load_continues_identically(preset: str, ai: str) -> None:
    rng = random.Random(hash((preset, ai)) & 0xFFFF)
    for i in range(5):
        n = rng.randint(2, min(9, PRESETS[preset].max_players))
        assert_continues_identically(preset, n, seed=i * 31 + n, cut=rng.randrange(0, 150), ai=ai)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(list(PRESETS)),
    n=st.integers(2, 9),
    seed=st.integers(0, 2**31),
    cut=st.integers(0, 200),
    ai=st.sampled_from(["heuristic", "random"]),
)
def test_save_load_anywhere(preset: str, n: int, seed: int, cut: int, ai: str) -> None:
    assert_continues_identically(preset, n, seed, cut, ai)


def test_save_load_before_first_deal_and_after_finish() -> None:
    game = Game.new("tripoley", names(3), options={"game_end": "rounds:1"}, seed=5)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    finish(game, random.Random(0), "heuristic")
    assert game.finished
    loaded = Game.from_json(game.to_json())
    assert loaded.finished and loaded.awaiting() is None
    assert loaded.stacks == game.stacks
    with pytest.raises(IllegalAction):
        loaded.next_deal()


def test_damaged_save_fails_loudly() -> None:
    game = Game.new("tripoley", names(3), seed=5)
    data = json.loads(game.to_json())
    data["surprise"] = 1
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(data))
    with pytest.raises(ValueError):
        Game.from_json("{not json")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_clone_is_independent(preset: str) -> None:
    for seed in range(4):
        game = Game.new(preset, names(4), options={"game_end": "rounds:2"}, seed=seed)
        advance(game, random.Random(seed), "random", 10 + 17 * seed)
        if game.finished:
            continue
        before = game.to_json()
        copy = game.clone()
        assert copy is not game and copy.to_json() == before
        # playing on the clone leaves the original untouched ...
        finish(copy, random.Random(99), "random")
        assert game.to_json() == before
        # ... and playing on the original leaves the clone untouched
        after_clone = copy.to_json()
        finish(game, random.Random(98), "random")
        assert copy.to_json() == after_clone
        # mutable containers are not shared
        copy2 = Game.from_json(before)
        copy2.stacks[0] += 1000
        copy2.mat[next(iter(copy2.mat))] += 1000
        if copy2.r is not None:
            for hand in copy2.r.hands:
                hand.clear()
        assert Game.from_json(before).to_json() == before


def test_clone_then_illegal_action_on_clone() -> None:
    game = Game.new("tripoley", names(3), seed=11)
    game.next_deal()
    copy = game.clone()
    aw = copy.awaiting()
    with pytest.raises(IllegalAction):
        copy.apply(Action(seat=(aw.seat + 1) % 3, do=aw.legal[0]))
    copy.apply(choose_action(copy, aw.seat, "heuristic", random.Random(0)))
    assert game.awaiting() == aw
