"""``Game.view(seat)``: the documented keys (docs/engine-api.md), per-seat privacy of hand/legal/detail."""

from __future__ import annotations

import json
import random
from types import UnionType
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from engine import PRESETS, Game
from engine import cards as C
from engine.ai import autoplay, choose_action
from engine.viewtypes import GameView


def assert_shape(value: object, kind: object, where: str = "view") -> None:
    """``value`` is of the type ``kind`` (a TypedDict of engine.viewtypes, or what they are made of):
    every key a TypedDict requires present, no key it does not declare."""
    if kind is Any:
        return
    if is_typeddict(kind):
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        required, optional = kind.__required_keys__, kind.__optional_keys__
        assert required <= value.keys(), f"{where}: missing {required - value.keys()}"
        assert value.keys() <= required | optional, f"{where}: undeclared {value.keys() - required - optional}"
        hints = get_type_hints(kind)
        for key, item in value.items():
            assert_shape(item, hints[key], f"{where}[{key!r}]")
        return
    origin, args = get_origin(kind), get_args(kind)
    if origin is NotRequired:
        assert_shape(value, args[0], where)
    elif origin in (Union, UnionType):
        for option in args:
            try:
                assert_shape(value, option, where)
                return
            except AssertionError:
                continue
        raise AssertionError(f"{where}: {value!r} is none of {kind}")
    elif origin is Literal:
        assert value in args, f"{where}: {value!r} is not one of {args}"
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            assert_shape(item, args[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        for key, item in value.items():
            assert_shape(key, args[0], f"{where} key")
            assert_shape(item, args[1], f"{where}[{key!r}]")
    elif kind is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    else:
        assert isinstance(value, kind) and (kind is bool) == isinstance(value, bool), (
            f"{where}: {value!r} is not a {kind}"
        )


PHASES = {
    "spare-hand",
    "auction",
    "suit-bid",
    "name-suit",
    "claim",
    "corner-bet",
    "corner-cover",
    "poker-choose",
    "poker-betting",
    "michigan-lead",
    "michigan-play",
    "wanagan-pass",
    "wanagan-reveal",
    "round-over",
    "game-over",
    "finished",
}


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def check_view(game: Game, viewer: int | None, unchanged: bool = True) -> dict:
    before = game.to_json() if unchanged else None
    view = game.view(viewer)
    if unchanged:
        assert game.to_json() == before, "view() changed the game"
    assert json.loads(json.dumps(view)) == view
    assert_shape(view, GameView)
    assert view["preset"] == game.preset_key
    assert view["preset_name"] == PRESETS[game.preset_key].name
    assert view["viewer"] == viewer
    assert view["phase"] == game.phase and view["phase"] in PHASES
    assert view["round"] == game.round_number
    assert view["finished"] == game.finished
    assert view["dealer"] == game.dealer
    assert view["chip_denominations"] == {"white": 1, "red": 5, "blue": 10, "green": 25, "black": 100}
    aw = game.awaiting()
    assert view["to_act"] == (aw.seat if aw else None)
    assert view["acting"] == game.acting_seats()
    mine = game.awaiting(viewer) if viewer is not None else None  # (a step decided at once: any seat asked)
    if mine is not None:
        assert view["legal"] == mine.legal
        assert view["detail"] == mine.detail
    else:
        assert "legal" not in view and "detail" not in view, "legal/detail shown to a seat not to act"
    if viewer is None or game.sealed_choice(viewer) is None:
        assert view["sealed"] is None, "a choice held unseen shown to another seat"
    # seats
    assert [s["seat"] for s in view["seats"]] == list(range(game.n))
    for s in view["seats"]:
        assert s["name"] == game.players[s["seat"]]
        assert s["stack"] == game.stacks[s["seat"]]
        assert s["is_dealer"] == (s["seat"] == game.dealer)
        if game.r is not None:
            assert s["cards"] == len(game.r.hands[s["seat"]])
            if s["status"] == "active" or s["status"] == "folded":
                assert s["seat"] in game.r.active
            if s["seat"] not in game.r.active:
                assert s["status"] in ("sitting-out", "eliminated")
    assert sum(s["is_dealer"] for s in view["seats"]) == 1
    # mat
    assert [m["id"] for m in view["mat"]] == list(game.mat)
    for m in view["mat"]:
        assert m["chips"] == game.mat[m["id"]]
    # hand: the viewer's own cards only; nobody's for the public
    if viewer is None:
        assert view["hand"] is None
    elif game.r is not None:
        assert sorted(view["hand"]) == sorted(C.to_strs(game.r.hands[viewer]))
    if game.r is not None:
        assert view["poker"] is not None and view["michigan"] is not None and view["spare"] is not None
        assert view["spare"]["cards"] == len(game.r.spare)
        chosen = game.r.poker.chosen[viewer] if viewer is not None else None
        assert view["poker"]["chosen"] == (C.to_strs(chosen) if chosen else None)
        assert isinstance(view["events"], list)
    # standings
    assert sorted(r["seat"] for r in view["standings"]) == list(range(game.n))
    for row in view["standings"]:
        assert row["stack"] == game.stacks[row["seat"]]
        assert row["net"] == game.stacks[row["seat"]] - game.initial_stacks[row["seat"]]
    stacks = [r["stack"] for r in view["standings"]]
    assert stacks == sorted(stacks, reverse=True)
    return view


@pytest.mark.parametrize("preset", list(PRESETS))
def test_view_keys_and_privacy_through_a_game(preset: str) -> None:
    for n in (2, 5):
        game = Game.new(preset, names(n), options={"game_end": "rounds:2"}, seed=n)
        for step, _ in enumerate(autoplay(game, "random", random.Random(n))):
            for v in [None, *range(n)]:
                check_view(game, v, unchanged=step % 25 == 0)
        for v in [None, *range(n)]:
            check_view(game, v)


def test_only_the_seats_to_act_see_legal_and_detail() -> None:
    game = Game.new("tripoley", names(4), seed=3)
    game.next_deal()
    assert game.phase == "poker-choose" and len(game.acting_seats()) > 1  # the five: every seat at once
    for s in range(4):
        aw = game.awaiting(s)
        if s in game.acting_seats():
            assert aw is not None and game.view(s)["legal"] == aw.legal and game.view(s)["detail"] == aw.detail
        else:
            assert aw is None and "legal" not in game.view(s)
    public = game.view(None)
    assert public["hand"] is None and "legal" not in public and "detail" not in public
    assert public["poker"]["chosen"] is None


def test_view_is_a_copy() -> None:
    game = Game.new("tripoley", names(3), seed=4)
    game.next_deal()
    aw = game.awaiting()
    view = game.view(aw.seat)
    before = game.to_json()
    view["detail"]["poison"] = 1
    view["legal"].append("win")
    view["hand"].clear()
    view["seats"][0]["stack"] = -5
    view["mat"][0]["chips"] = 999
    assert game.to_json() == before
    assert game.awaiting() == aw


def test_view_before_the_first_deal() -> None:
    game = Game.new("tripoley", names(3), seed=4)
    view = check_view(game, None)
    assert view["round"] == 0 and view["to_act"] is None
    assert check_view(game, 1)["hand"] is None


def test_poker_chosen_is_the_viewers_own() -> None:
    for seed in range(10):
        game = Game.new("tripoley", names(3), seed=seed)
        game.next_deal()
        rng = random.Random(seed)
        while (aw := game.awaiting()) is not None and aw.phase != "poker-choose":
            game.apply(choose_action(game, aw.seat, "heuristic", rng))
        if aw is None:
            continue
        pick = aw.detail["cards"][:5]
        from engine import Action

        game.apply(Action(seat=aw.seat, do="choose", cards=pick))
        # held unseen while the others choose: the chooser sees it as their sealed choice only
        assert game.view(aw.seat)["sealed"] == {"seat": aw.seat, "do": "choose", "cards": pick}
        assert all(game.view(s)["sealed"] is None for s in [None, *range(3)] if s != aw.seat)
        for other in game.acting_seats():
            game.apply(choose_action(game, other, "heuristic", rng))
        assert sorted(game.view(aw.seat)["poker"]["chosen"]) == sorted(pick)
        for s in range(3):
            if s != aw.seat:
                assert game.view(s)["poker"]["chosen"] != pick
        assert game.view(None)["poker"]["chosen"] is None
        return
    pytest.fail("never reached poker-choose")


def test_the_shape_check_refuses_a_view_unlike_its_type() -> None:
    game = Game.new("tripoley", names(3), seed=4)
    game.next_deal()
    good = game.view(0)
    assert_shape(good, GameView)
    for spoil in (
        lambda v: v.pop("corner"),  # a key always there, missing
        lambda v: v.update(spare_hand=[]),  # a key the type does not declare
        lambda v: v["seats"][0].update(stack="12"),  # a value of the wrong type
        lambda v: v["seats"][0].update(status="asleep"),  # not one of the statuses
        lambda v: v.update(finished=0),  # an int for a bool
    ):
        bad = json.loads(json.dumps(good))
        spoil(bad)
        with pytest.raises(AssertionError):
            assert_shape(bad, GameView)
