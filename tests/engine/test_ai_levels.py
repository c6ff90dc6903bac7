"""The AI levels: Hard searches determinised games without peeking; Easy and Hard play legal moves.

No peeking: with the rng fixed, permuting the cards a seat cannot see (the other hands, the
spare hand, the undealt deck; cards shown at a showdown stay where everyone saw them) never
changes its decision, at many positions of every preset and phase.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from engine import PRESETS, Game
from engine import cards as C
from engine.ai import LEVELS, choose_action, decide
from engine.determinize import detach, determinize, unseen_cards
from engine.search import Budget, candidates

NO_CLOCK = Budget(rollouts=24, seconds=None)  # reproducible: no wall-clock cap


def positions(preset: str, seed: int, count: int, players: int = 4) -> list[Game]:
    """``count`` games paused at a decision, a few decisions apart, from AI play of ``preset``."""
    rng = random.Random(seed)
    game = Game.new(preset, [f"p{i}" for i in range(players)], seed=seed, options={"game_end": "rounds:50"})
    out: list[Game] = []
    skip = rng.randint(0, 3)
    while len(out) < count and not game.finished:
        aw = game.awaiting()
        if aw is None:
            game.next_deal()
            continue
        if skip == 0:
            out.append(game.clone())
            skip = rng.randint(1, 6)
        skip -= 1
        game.apply(choose_action(game, aw.seat, "normal", rng))
    return out


def permute_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with the cards ``seat`` cannot see moved among their places."""
    g = game.clone()
    r = g.round
    shown: dict[int, set[int]] = {
        int(e["seat"]): set(C.parse_many(e["cards"])) for e in (r.poker.showdown or []) if int(e["seat"]) != seat
    }
    places: list[tuple[list[int], int]] = []
    for s in r.active:
        if s != seat:
            places += [(r.hands[s], i) for i, c in enumerate(r.hands[s]) if c not in shown.get(s, ())]
    places += [(r.spare, i) for i in range(len(r.spare))]
    places += [(r.deck, i) for i in range(len(r.deck or []))]  # type: ignore[arg-type]
    cards = [where[i] for where, i in places]
    rng.shuffle(cards)
    for (where, i), c in zip(places, cards):
        where[i] = c
    return g


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hidden_cards_never_change_a_decision(preset: str) -> None:
    shuffler = random.Random(preset)
    checked = Counter[str]()
    for seed in (1, 2):
        for game in positions(preset, seed, 8):
            aw = game.awaiting()
            assert aw is not None
            other = permute_hidden(game, aw.seat, shuffler)
            for level in ("easy", "hard"):
                mine = choose_action(game, aw.seat, level, random.Random(seed), NO_CLOCK)
                theirs = choose_action(other, aw.seat, level, random.Random(seed), NO_CLOCK)
                assert mine == theirs, (preset, aw.phase, level)
                game.check(mine)
            # what the bot hands its AI worker: the same decision, no other seat's cards on board
            handed = pickle.loads(pickle.dumps(detach(game.observe(aw.seat))))
            assert decide(handed, "hard", random.Random(seed), NO_CLOCK) == mine
            assert all(
                handed.hand == game.round.hands[aw.seat] if s == aw.seat else sorted(h) == h
                for s, h in enumerate(handed._round.hands)
                if s in game.round.active and not game.round.poker.showdown
            )
            # the worlds searched are the same too
            w1 = determinize(game.observe(aw.seat), random.Random(3))
            w2 = determinize(other.observe(aw.seat), random.Random(3))
            assert w1.round.hands == w2.round.hands and w1.round.spare == w2.round.spare
            checked[aw.phase] += 1
    assert sum(checked.values()) >= 8


@pytest.mark.parametrize("preset", ["tripoley", "great-lakes", "wanagan", "rummy-royal", "tripoley-rulebook"])
def test_a_determinised_game_keeps_what_the_seat_knows(preset: str) -> None:
    for game in positions(preset, 5, 6):
        aw = game.awaiting()
        assert aw is not None
        obs = game.observe(aw.seat)
        world = determinize(obs, random.Random(1))
        r, w = game.round, world.round
        assert w.hands[aw.seat] == r.hands[aw.seat]
        assert [len(h) for h in w.hands] == [len(h) for h in r.hands] and len(w.spare) == len(r.spare)
        assert w.michigan.played == r.michigan.played
        assert world.stacks == game.stacks and world.mat == game.mat
        everything = [c for h in w.hands for c in h] + w.spare + w.michigan.played + (w.deck or [])
        assert sorted(everything) == sorted(C.full_deck(game.n_decks))
        assert sorted(unseen_cards(obs)) == unseen_cards(obs)
        with pytest.raises(ValueError):
            world.to_replay()  # it holds no real deck


def test_every_level_plays_a_whole_game_legally() -> None:
    for preset in ("tripoley", "michigan-rummy", "great-lakes", "wanagan", "rummoli", "rummy-royal"):
        game = Game.new(preset, ["a", "b", "c", "d"], seed=11, options={"game_end": "rounds:2"})
        total = game.total_chips()
        rng = random.Random(4)
        while not game.finished:
            aw = game.awaiting()
            if aw is None:
                game.next_deal()
                continue
            game.apply(choose_action(game, aw.seat, LEVELS[aw.seat % 3], rng, NO_CLOCK))
        assert game.total_chips() == total


def test_the_search_compares_the_plausible_choices() -> None:
    game = next(g for g in positions("michigan-rummy", 3, 40) if g.awaiting().phase == "michigan-lead")  # type: ignore[union-attr]
    aw = game.awaiting()
    assert aw is not None
    obs = game.observe(aw.seat)
    normal = choose_action(game, aw.seat, "normal", random.Random(0))
    cands = candidates(obs, normal, random.Random(0))
    assert cands[0] == normal
    assert {a.card for a in cands} == set(aw.detail["cards"][:8]) | {normal.card}
    assert len(cands) == len({a.card for a in cands})


def test_easy_slips_sometimes_and_normal_never() -> None:
    differ = {"easy": 0, "normal": 0}
    for i, game in enumerate(positions("tripoley", 8, 30)):
        aw = game.awaiting()
        assert aw is not None
        normal = choose_action(game, aw.seat, "normal", random.Random(i))
        for level in differ:
            differ[level] += choose_action(game, aw.seat, level, random.Random(i)) != normal
    assert differ["normal"] == 0 and differ["easy"] > 0


def test_an_unknown_level_is_refused() -> None:
    game = positions("tripoley", 1, 1)[0]
    aw = game.awaiting()
    assert aw is not None
    with pytest.raises(ValueError, match="unknown AI level 'expert'"):
        choose_action(game, aw.seat, "expert", random.Random(0))
