"""Every game is a replay: ``Game.to_replay()`` played back by the replay reader gives the same
stacks, mat, rounds and events, for random AI games of every preset — finished, stopped by the
host, cut short by a time limit, switched to another mat, saved and loaded, or still in progress."""

from __future__ import annotations

import json
import random

import pytest

from engine import PRESETS, Game
from engine.ai import autoplay
from engine.replay import outcome, run_replay

HOUSE_RULES = {  # options a table may vary, mixed into some games
    "tripoley": [
        {},
        {"spare_hand": "exchange-or-sell", "endgame": "michigan-interests", "optional_suit": True},
        {"spare_hand": "swap-or-auction", "paycards": "play"},
    ],
    "tripoley-optional-suit": [{}, {"spare_hand": "exchange-or-sell"}],
    "three-in-one": [{}, {"bet_limit_scope": "total", "bet_limit": 6, "optional_suit": True}],
    "rummoli": [{}, {"run": "6-7-8"}],
    "tripoley-rulebook": [{}, {"endgame": "michigan-interests"}],
}


def replayed(game: Game) -> dict:
    """The outcome of the game's export, after a trip through JSON text (as a file would take)."""
    return run_replay(json.loads(json.dumps(game.to_replay())))


def assert_same(game: Game) -> None:
    out = replayed(game)
    assert out == outcome(game)
    assert out["stacks"] == game.stacks and out["mat"] == game.mat


def play(game: Game, kind: str, seed: int, stop_after: int | None = None) -> None:
    """AI seats play; with ``stop_after`` the game stops after that many steps (mid-round or not)."""
    for steps, _ in enumerate(autoplay(game, kind, random.Random(seed))):
        if stop_after is not None and steps >= stop_after:
            return


CASES = [(preset, seed) for preset in PRESETS for seed in (1, 2)]


@pytest.mark.parametrize("preset,seed", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_a_finished_ai_game_replays_exactly(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = HOUSE_RULES.get(preset, [{}])
    options = {"game_end": f"rounds:{rng.randint(1, 3)}", **rules[seed % len(rules)]}
    n = rng.randint(PRESETS[preset].min_players, min(6, PRESETS[preset].max_players))
    game = Game.new(preset, [f"p{i}" for i in range(n)], options=options, seed=seed)  # Rulebook mats cut
    play(game, "random" if seed % 2 else "heuristic", seed)
    assert game.finished
    assert_same(game)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_game_stopped_by_the_host_mid_round_replays_exactly(preset: str) -> None:
    game = Game.new(preset, ["a", "b", "c"], options={"game_end": "rounds:3"}, seed=7)
    play(game, "random", 7, stop_after=25)
    assert not game.finished
    assert_same(game)  # in progress: the replay stops at the same decision
    game.end_now()
    assert_same(game)  # stopped, the board clearing pending
    play(game, "random", 8)
    assert game.finished and game.to_replay()["end"] == "host-stop"
    assert_same(game)


def test_a_game_stopped_between_rounds_replays_exactly() -> None:
    game = Game.new("three-in-one", ["a", "b", "c"], options={"game_end": "rounds:5"}, seed=3)
    steps = autoplay(game, "heuristic", random.Random(3))
    for aw in steps:
        if aw is None and game.round_number == 2:
            break
    game.end_now()
    play(game, "heuristic", 4)
    assert game.finished and len(game.to_replay()["rounds"]) == 2
    assert_same(game)


def test_a_time_limit_replays_exactly() -> None:
    now = [0.0]
    game = Game.new("tripoley", ["a", "b", "c"], options={"game_end": "minutes:30"}, seed=5, clock=lambda: now[0])
    for aw in autoplay(game, "heuristic", random.Random(5)):
        if aw is None and game.round_number == 2 and not game.over:
            now[0] = 31 * 60  # the third round is the last one
    assert game.finished and game.round_number == 3
    data = game.to_replay()
    assert data["end"] == "time-limit" and data["options"]["game_end"] == "minutes:30"
    assert_same(game)


def test_a_switch_of_mat_between_rounds_replays_exactly() -> None:
    game = Game.new("michigan-rummy", ["a", "b", "c"], options={"game_end": "rounds:3"}, dealer=1, seed=9)
    for aw in autoplay(game, "heuristic", random.Random(9)):
        if aw is None and game.round_number == 1 and not game.over:
            game.switch_preset("great-lakes")
    data = game.to_replay()
    assert data["switches"] == [{"before_round": 2, "preset": "great-lakes"}] and data["dealer"] == 1
    assert_same(game)


def test_too_few_players_to_ante_replays_exactly() -> None:
    """The deal that finds fewer than two players able to ante ends the game without a round."""
    game = Game.new("tripoley", ["a", "b", "c"], stacks=[9, 9, 200], options={"game_end": "rounds:9"}, seed=4)
    play(game, "heuristic", 4)
    data = game.to_replay()
    assert data["end"] == "too-few-players"
    assert_same(game)


def test_a_board_clearing_of_several_michigan_hands_replays_exactly() -> None:
    game = Game.new(
        "tripoley", ["a", "b", "c"], options={"endgame": "michigan-interests", "game_end": "rounds:2"}, seed=2
    )
    play(game, "random", 2)
    assert len(game.to_replay()["playoff"]) == 4, "four clearing hands, each with its deck and leads"
    assert_same(game)


def test_the_export_survives_a_save_and_load() -> None:
    game = Game.new("rummoli", ["a", "b", "c", "d"], options={"game_end": "rounds:2"}, seed=6)
    play(game, "random", 6, stop_after=40)
    loaded = Game.from_json(game.to_json())
    assert loaded.to_replay() == game.to_replay()
    play(loaded, "random", 7)
    assert_same(loaded)


def test_a_game_saved_before_replays_were_kept_loads_but_cannot_be_exported() -> None:
    game = Game.new("tripoley", ["a", "b"], seed=2)
    play(game, "heuristic", 2, stop_after=5)
    saved = json.loads(game.to_json())
    del saved["state"]["record"]
    for rec in saved["state"]["log"]:
        del rec["deck"], rec["actions"]
    old = Game.from_json(json.dumps(saved))
    play(old, "heuristic", 3)  # an old save still plays on
    assert old.finished
    with pytest.raises(ValueError, match="before games were kept as replays"):
        old.to_replay()


def test_the_export_names_only_the_options_the_table_changed() -> None:
    game = Game.new("tripoley", ["a", "b"], options={"bet_limit": 10, "spare_hand": "exchange-or-sell"}, seed=1)
    data = game.to_replay()
    assert data["options"] == {"bet_limit": 10, "spare_hand": "exchange-or-sell", "game_end": "rounds:5"}
    assert data["preset"] == "tripoley" and data["stacks"] == [100, 100] and data["seed"] == 1
    assert "dealer" not in data  # none given: seat 0 deals first (Cadaco), nothing to say


def test_a_file_with_an_unknown_end_or_switch_is_refused() -> None:
    from engine.replay import ReplayError

    game = Game.new("tripoley", ["a", "b"], seed=3)
    play(game, "heuristic", 3, stop_after=3)
    data = game.to_replay()
    with pytest.raises(ReplayError, match="bad replay file"):
        run_replay({**data, "end": "tired"})
    with pytest.raises(ReplayError, match="switch before round 1: unknown preset"):
        run_replay({**data, "switches": [{"before_round": 1, "preset": "snap"}]})
