"""The round's phases: one registry, every step and decision has its phase, and the table-level
``ask_holders`` flag (a forced Michigan play asked of a human holder is no decision of the replay)."""

from __future__ import annotations

import random

from engine import PRESETS, Game
from engine.ai import choose_action
from engine.phases import DECISION, PHASES, STEP
from engine.replay import outcome, run_replay
from engine.table import INTEREST_ORDER


def test_every_step_of_every_preset_and_every_decision_has_one_phase():
    steps = {step for p in PRESETS.values() for step in p.order} | set(INTEREST_ORDER)
    assert steps <= set(STEP), f"steps without a phase: {steps - set(STEP)}"
    owned = [d for phase in PHASES for d in phase.decisions]
    assert len(owned) == len(set(owned)) == len(DECISION), "a decision belongs to exactly one phase"
    assert all(phase.steps or phase.decisions for phase in PHASES)


def test_a_forced_play_asked_of_a_holder_is_not_a_decision_of_the_replay():
    game = Game.new("great-lakes", ["ann", "bob", "cat", "dan"], options={"game_end": "rounds:2"}, seed=5)
    game.ask_holders = frozenset({0})
    rng = random.Random(3)
    forced = applied = 0
    while not game.finished:
        aw = game.awaiting()
        if aw is None:
            game.next_deal()
            continue
        if aw.phase == "michigan-play" and aw.detail.get("forced"):
            assert aw.seat == 0 and aw.legal == ["play"], "only the flagged seat is asked, with no other choice"
            forced += 1
        game.apply(choose_action(game, aw.seat, "heuristic", rng))
        applied += 1
    assert forced > 0, "the flagged seat was asked about forced plays"
    replay = game.to_replay()
    assert sum(len(rnd["actions"]) for rnd in replay["rounds"]) == applied - forced
    assert run_replay(replay) == outcome(game), "without the flag the engine makes those plays itself"
