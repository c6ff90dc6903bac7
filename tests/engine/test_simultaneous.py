"""Decisions every seat makes at once (the poker five, Wanagan's passes and declarations, covering a
corner bet): asked of every seat together, each choice held unseen until all are in, applied in
the published order whatever order they came in, so a game's replay file never depends on it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import PRESETS, Action, Game, IllegalAction
from engine.ai import choose_action
from engine.phases.names import SIMULTANEOUS
from engine.replay import ReplayError, outcome, run_replay


def choice(game: Game, seat: int, seed: int) -> Action:
    """A random AI's choice that depends only on what the seat may see: the same whenever it is made."""
    rng = random.Random(f"{seed}-{game.round_number}-{game.decision_number()}-{seat}")
    return choose_action(game, seat, kind="random", rng=rng)


def timed_out(game: Game, seat: int, seed: int) -> Action:
    """What a seat that runs out of time gets: the best five, no cover, else the AI's choice."""
    aw = game.awaiting(seat)
    assert aw is not None
    if "choose" in aw.legal:
        return Action(seat=seat, do="choose", cards=aw.detail["best"])
    if "decline" in aw.legal:
        return Action(seat=seat, do="decline")
    return choice(game, seat, seed)


def to_choose_at_once(game: Game) -> None:
    """Play on (random AI, in turn) until a step decided at once by two seats or more waits."""
    rng = random.Random(0)
    while (aw := game.awaiting()) is not None and not (game.is_simultaneous() and len(game.acting_seats()) > 1):
        game.apply(choose_action(game, aw.seat, kind="random", rng=rng))
    assert aw is not None, "the round ended before a step decided at once"


def new_game(preset: str, n: int, seed: int) -> Game:
    options = {"game_end": "rounds:2"}
    if PRESETS[preset].rulebook_setup:
        options["ante"] = "flat:1"  # (small antes: nobody sits out, so every round is played)
    return Game.new(preset, [f"p{i}" for i in range(n)], options=options, seed=seed)


def play(game: Game, seed: int, arrange=None) -> None:
    """The whole game. At each step decided at once ``arrange(pending)`` gives the order the choices
    arrive in and the seats that time out (default: in turn, nobody)."""
    while not game.finished:
        if game.awaiting() is None:
            game.next_deal()
            continue
        pending = game.acting_seats()
        if not game.is_simultaneous() or arrange is None:
            game.apply(choice(game, pending[0], seed))
            continue
        order, late = arrange(pending)
        for seat in order:
            game.apply((timed_out if seat in late else choice)(game, seat, seed))


PRESETS_AT_ONCE = sorted(PRESETS)  # every preset plays poker, so every preset chooses a five at once


@pytest.mark.parametrize("preset", PRESETS_AT_ONCE)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16), n=st.integers(3, 5))
def test_any_arrival_order_and_any_timeouts_give_the_same_game(preset: str, data, seed: int, n: int) -> None:
    late_seats: dict[tuple[int, int], set[int]] = {}  # (round, decision) → the seats that time out

    def step(game: Game) -> tuple[int, int]:
        return game.round_number, game.decision_number()  # (the same all through a step decided at once)

    shuffled = new_game(preset, n, seed)
    total = shuffled.total_chips()

    def drawn(pending: list[int]) -> tuple[list[int], set[int]]:
        late = late_seats.setdefault(step(shuffled), data.draw(st.sets(st.sampled_from(pending)), label="late"))
        return data.draw(st.permutations(pending), label="arrival"), late

    play(shuffled, seed, arrange=drawn)
    in_turn = new_game(preset, n, seed)  # the same choices and timeouts, each step in the published order
    play(in_turn, seed, arrange=lambda pending: (pending, late_seats.get(step(in_turn), set())))
    assert shuffled.finished and in_turn.finished
    assert shuffled.total_chips() == in_turn.total_chips() == total
    assert json.dumps(shuffled.to_replay()) == json.dumps(in_turn.to_replay())
    assert shuffled.history == in_turn.history
    assert run_replay(shuffled.to_replay()) == outcome(shuffled)


def test_each_choice_is_held_unseen_until_all_are_in() -> None:
    game = new_game("tripoley", 4, 5)
    game.next_deal()
    to_choose_at_once(game)
    first, *others = game.acting_seats()
    last = others[-1]
    public, theirs, history = game.view(None), game.view(others[0]), list(game.history)
    assert game.apply(choice(game, last, 1)) == []  # no event tells anything yet
    assert game.history == history and game.acting_seats() == [first, *others[:-1]]
    assert game.chosen_seats() == [last]  # only that the choice was made
    after = game.view(None)
    assert {k: v for k, v in after.items() if k != "acting"} == {k: v for k, v in public.items() if k != "acting"}
    assert {k: v for k, v in game.view(others[0]).items() if k != "acting"} == {
        k: v for k, v in theirs.items() if k != "acting"
    }
    assert game.view(last)["sealed"] is not None and "legal" not in game.view(last)
    assert game.awaiting().seat == first  # the next in the published order
    for seat in game.acting_seats():
        game.apply(choice(game, seat, 1))
    assert not (game.is_simultaneous() and game.chosen_seats())  # resolved: the step went on
    assert game.history != history


def test_a_second_choice_and_a_seat_not_asked_are_refused() -> None:
    game = Game.new("tripoley", ["a", "b", "c", "d"], stacks=[100, 100, 100, 0], seed=2)  # d sits out
    game.next_deal()
    to_choose_at_once(game)
    seat = game.acting_seats()[-1]
    aw = game.awaiting(seat)
    assert aw is not None
    game.apply(Action(seat=seat, do="choose", cards=aw.detail["best"]))
    before = game.to_json()
    assert game.awaiting(seat) is None
    with pytest.raises(IllegalAction, match="you have already chosen: waiting for seat"):
        game.apply(Action(seat=seat, do="choose", cards=aw.detail["cards"][:5]))
    assert 3 not in game.acting_seats()
    with pytest.raises(IllegalAction, match="not your turn: waiting for seat"):
        game.apply(Action(seat=3, do="choose", cards=["AS", "KS", "QS", "JS", "TS"]))
    assert game.to_json() == before  # nothing changed


def test_a_replay_lists_choices_in_the_published_order_and_refuses_any_other() -> None:
    game = new_game("tripoley", 3, 9)
    game.next_deal()
    to_choose_at_once(game)
    order = game.acting_seats()
    for seat in reversed(order):  # arrival: last seat first
        game.apply(choice(game, seat, 3))
    data = game.to_replay()
    listed = [a["seat"] for a in data["rounds"][0]["actions"] if a["do"] == "choose"]
    assert listed == order
    assert run_replay(data) == outcome(game)
    swapped = json.loads(json.dumps(data))
    acts = swapped["rounds"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a["do"] == "choose")
    acts[i], acts[i + 1] = acts[i + 1], acts[i]
    with pytest.raises(
        ReplayError, match=rf"action {i} \(seat {order[1]}, choose .*\): not your turn: waiting for seat"
    ):
        run_replay(swapped)


def test_a_game_saved_mid_way_through_a_step_decided_at_once_plays_on_the_same() -> None:
    game = new_game("wanagan", 3, 4)
    game.next_deal()
    to_choose_at_once(game)
    assert game.phase in SIMULTANEOUS
    seat = game.acting_seats()[1]
    game.apply(choice(game, seat, 2))
    loaded = Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json()
    assert loaded.chosen_seats() == [seat] and loaded.acting_seats() == game.acting_seats()
    assert run_replay(game.to_replay()) == outcome(game)  # in progress: waits for the same seat
    for g in (game, loaded):
        play(g, 2)
    assert loaded.to_replay() == game.to_replay() and loaded.stacks == game.stacks


def test_the_ai_may_decide_for_any_seat_asked_at_once() -> None:
    game = new_game("tripoley", 4, 6)
    game.next_deal()
    to_choose_at_once(game)
    for seat in reversed(game.acting_seats()):
        assert game.observe(seat).phase == "poker-choose"
        game.apply(choose_action(game, seat, kind="hard", rng=random.Random(seat)))
    assert not game.chosen_seats()
