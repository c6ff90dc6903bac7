"""The Hard AI: flat Monte Carlo search over determinised games (Perfect-Information Monte Carlo).

Method. For the decision at hand the search lists a few candidate actions (``candidates``):
every plain choice (keep, swap, call, fold, claim ...), each card that may be led, each suit
that may be named, a few amounts for a bid or a bet (the least, the middle, the most), the
combination plays and Wanagan declarations the hand can make, and for passes the Normal
player's pick and a few variations of it; the Normal player's own choice is always first. Then,
round after round until the budget is spent, it samples one world consistent with what the
seat may know (``engine.determinize``: the hidden cards dealt at random) and, in that same
world for every candidate (common random numbers: the comparison sees the same cards and the
same rollout dice), applies the candidate and plays the rest of the round with the Normal
player at every seat. A candidate's score is the mean change of this seat's chips; the best
mean wins, the Normal choice on ties. The seat never sees the real hidden cards: every world
is built from its ``Observation`` alone.

The budget is a number of rollouts and a wall-clock cap, whichever ends first. A world cut short
by the clock is left out, so that every candidate is judged on the same worlds (when not even one
was played through, the Normal choice stands). Decisions with a single candidate take no search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import cards as C
from .determinize import determinize
from .game import Game
from .model import Action
from .observation import Observation
from .wanaganplan import NO_WILD, WanaganHand

Policy = Callable[[Game, int, random.Random], Action]
"""A player for rollouts: ``(game, seat, rng) -> Action`` (the Normal heuristic)."""

_AMOUNTS = ("bid", "suit_bid", "bet", "raise")
_MOST_LEADS = 8
_MOST_COMBOS = 4
_PASS_VARIANTS = 3


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a Hard decision may search: ``rollouts`` in all, stopping at ``seconds`` (None: no
    clock, for reproducible runs)."""

    rollouts: int = 160
    seconds: float | None = 0.2


def search_action(obs: Observation, normal: Action, policy: Policy, rng: random.Random, budget: Budget) -> Action:
    """The candidate with the best mean chip change over determinised rollouts (``normal`` on ties)."""
    cands = candidates(obs, normal, rng)
    if len(cands) == 1:
        return cands[0]
    clock = time.perf_counter
    deadline = None if budget.seconds is None else clock() + budget.seconds
    totals = [0] * len(cands)
    worlds = 0
    while worlds == 0 or (worlds + 1) * len(cands) <= budget.rollouts:
        seed = rng.getrandbits(64)
        world = []
        for action in cands:
            if deadline is not None and clock() > deadline:  # out of time: judge on the complete worlds
                return _best(cands, totals) if worlds else normal
            world.append(rollout(obs, action, policy, seed))
        totals = [t + x for t, x in zip(totals, world)]
        worlds += 1
    return _best(cands, totals)


def _best(cands: list[Action], totals: list[int]) -> Action:
    """The best total (the earlier candidate, so the Normal choice, on ties)."""
    return cands[max(range(len(cands)), key=lambda i: (totals[i], -i))]


def rollout(obs: Observation, action: Action, policy: Policy, seed: int) -> int:
    """This seat's chip change when it takes ``action`` in world ``seed`` and the round is played out."""
    game = determinize(obs, random.Random(seed))
    dice = random.Random(seed ^ 0x5EED)
    game.apply(action)
    while (aw := game.awaiting()) is not None:
        game.apply(policy(game, aw.seat, dice))
    return game.stacks[obs.seat] - obs.stack


def candidates(obs: Observation, normal: Action, rng: random.Random) -> list[Action]:
    """Distinct actions worth comparing here, ``normal`` first."""
    seat, d = obs.seat, obs.detail
    out = [normal]
    for do in obs.legal:
        if do in _AMOUNTS:
            lo, hi = d.get("min", 1), d.get("max", 0)
            if hi >= lo:
                out += [Action(seat=seat, do=do, amount=x) for x in sorted({lo, (lo + hi) // 2, hi})]
        elif do == "corner_bet":
            top = max(1, min(d["max"], normal.amount or 1, obs.stack // 40 or 1))
            out += [Action(seat=seat, do=do, ace=ace, amount=x) for ace in d["aces"] for x in sorted({1, top})]
        elif do == "lead":
            out += [Action(seat=seat, do=do, card=c) for c in d["cards"][:_MOST_LEADS]]
        elif do in ("full_house", "straight"):
            out += [Action(seat=seat, do=do, cards=list(o)) for o in d[do][:_MOST_COMBOS]]
        elif do == "name_suit":
            out += [Action(seat=seat, do=do, suit=s) for s in d["suits"]]
        elif do == "reveal":
            out += _declarations(obs)
        elif do == "pass_cards":
            out += _pass_variants(obs, normal, rng)
        elif do != "choose":  # the poker five: the Normal choice (the best five) only
            out.append(Action(seat=seat, do=do))
    unique: list[Action] = []
    seen: set[str] = set()
    for a in out:
        key = repr(sorted(a.to_dict().items()))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def _declarations(obs: Observation) -> list[Action]:
    """Wanagan: for each space still holding chips that the hand can make, a strong five for it."""
    wild = frozenset(C.parse_many(obs.detail["wild"])) if obs.detail["wild"] else NO_WILD
    plan = WanaganHand(list(obs.hand), wild)
    kinds = {sp.id: sp.hand for sp in obs.spaces}
    out = []
    for sid in obs.detail["spaces"]:
        picked = plan.pick(sid, kinds[sid])
        if picked is not None:
            out.append(Action(seat=obs.seat, do="reveal", cards=C.to_strs(picked[0]), space=sid))
    return out


def _pass_variants(obs: Observation, normal: Action, rng: random.Random) -> list[Action]:
    """Wanagan passes: the Normal pick with one card changed for another card of the hand."""
    picked = list(normal.cards or [])
    rest = sorted(set(C.to_strs(obs.hand)) - set(picked))
    out = []
    for _ in range(_PASS_VARIANTS):
        if not picked or not rest:
            break
        variant = list(picked)
        variant[rng.randrange(len(variant))] = rng.choice(rest)
        out.append(Action(seat=obs.seat, do="pass_cards", cards=sorted(variant)))
    return out
