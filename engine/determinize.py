"""A whole game rebuilt from one seat's observation, with the cards it cannot see dealt at random.

A search player (``engine.search``) cannot look at the real game: it may know only its
``Observation``. To try an action and play the round on, it needs a complete game, so
``determinize(obs, rng)`` builds one: the public state (stacks, mat, the round's phase states,
cards placed in Michigan) and the seat's own hand are copied; every card the seat cannot see
(the other hands, the spare hand, the undealt deck) is dealt afresh from the sorted pool of
unseen cards, each place keeping its public size. Cards shown at a poker showdown stay with
their owner (everyone saw them). Choices other seats made in secret about their old cards are
redone for the new ones: a poker five not yet shown becomes the best (or worst) five of the new
hand, and a Wanagan pick not yet revealed is asked again (its seat goes back in the queue).

What the seat could only infer is not used: a seat that could not play the next card in Michigan
is not made void of it, and the cards it passed in Wanagan go anywhere (they may have been passed
on since). The result depends only on what the seat may know and on ``rng``: permuting the hidden cards of
the real game gives the same determinised games. It carries no replay record (no real deck), so
``to_replay`` is not available on it; its RNG is seeded from ``rng`` and its clock is the system's.
``detach(obs)`` is the observation over such a game with the unseen cards in sorted order: it can
cross to another process (the bot's AI worker) without carrying anyone's secret.
"""

from __future__ import annotations

import copy
import random
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from .cards import parse_many
from .fives import best_five, worst_five
from .game import Game

if TYPE_CHECKING:
    from .observation import Observation
    from .table import RoundState

S = TypeVar("S", bound=Any)


def unseen_cards(obs: Observation) -> list[int]:
    """The cards this seat cannot see and nobody has shown, sorted (so their real places do not
    show through the order)."""
    r = obs._round
    shown = _shown(r)
    pool = [c for s in r.active if s != obs.seat for c in r.hands[s] if c not in shown.get(s, ())]
    return sorted(pool + r.spare + (r.deck or []))


def detach(obs: Observation) -> Observation:
    """The same observation over a stand-in game that holds no secret of another seat (the unseen
    cards dealt out in sorted order): what may be handed to another process to decide on.
    ``determinize`` gives the same worlds from it as from ``obs``."""
    return determinize(obs, None).observe(obs.seat)


def determinize(obs: Observation, rng: random.Random | None) -> Game:
    """A complete game consistent with ``obs``: the seat's view, the hidden cards sampled by ``rng``
    (None: dealt in sorted order, for ``detach``)."""
    real = obs._game
    r = obs._round
    me = obs.seat
    pool = unseen_cards(obs)
    if rng is not None:
        rng.shuffle(pool)
    shown = _shown(r)

    hands: list[list[int]] = []
    for s, hand in enumerate(r.hands):
        if s == me or s not in r.active:
            hands.append(list(hand))
            continue
        kept = [c for c in hand if c in shown.get(s, ())]
        need = len(hand) - len(kept)
        hands.append(kept + pool[:need])
        del pool[:need]
    spare, pool = pool[: len(r.spare)], pool[len(r.spare) :]
    deck = pool if r.deck is not None else None

    g = Game(real.preset_key, real.options, real.players)
    g.seed = 0 if rng is None else rng.randrange(2**32)
    g.rng = random.Random(g.seed)
    g.stacks = list(real.stacks)
    g.initial_stacks = list(real.initial_stacks)
    g.eliminated = list(real.eliminated)
    g.round_number = real.round_number
    g.dealer = real.dealer
    g.started_at = real.started_at
    g.over = real.over
    g.mat = dict(real.mat)
    g.triggers = real.triggers  # made anew when a Michigan starts, never changed
    g.r = _round_copy(r, hands, spare, deck)
    g.log = [{"dealer": r.dealer, "payouts": g.r.payouts, "poker": None, "michigan": None, "events": g.r.events}]
    _redo_secret_choices(g, me, shown)
    return g


def _shown(r: RoundState) -> dict[int, set[int]]:
    """Seat → its cards shown at a poker showdown that it still holds."""
    out: dict[int, set[int]] = {}
    for entry in r.poker.showdown or ():
        s = int(entry["seat"])
        held = set(r.hands[s])
        out[s] = {c for c in parse_many(entry["cards"]) if c in held}
    return out


def _round_copy(r: RoundState, hands: list[list[int]], spare: list[int], deck: list[int] | None) -> RoundState:
    """The round with new hidden cards; its events start empty (a rollout needs only what follows)."""
    out = copy.copy(r)
    out.hands = hands
    out.spare = spare
    out.deck = deck
    out.events = []
    out.payouts = []
    out.claims = copy.deepcopy(r.claims)
    out.auction = _copy_state(r.auction)
    out.poker = _copy_state(r.poker)
    out.michigan = _copy_state(r.michigan)
    out.corner = _copy_state(r.corner)
    out.wanagan = _copy_state(r.wanagan)
    out.interest = None if r.interest is None else dict(r.interest)
    out.active = list(r.active)
    out.sealed = []  # the others' choices in a step decided at once are unseen: they choose again
    return out


def _copy_state(state: S) -> S:
    """A phase state's copy whose lists and dicts (what the phases change in place) are new."""
    if state is None:
        return state
    out = copy.copy(state)
    for f in fields(state):
        value = getattr(state, f.name)
        if isinstance(value, list | dict):
            setattr(out, f.name, copy.copy(value))
    return out


def _redo_secret_choices(g: Game, me: int, shown: dict[int, set[int]]) -> None:
    """Secret choices of other seats were made with cards they may not hold here: make them again."""
    r = g.round
    p = r.poker
    if p.dealt:  # poker after Michigan plays the whole dealt hand: what is held plus what was placed
        placed: dict[int, list[int]] = {}
        for c, s in zip(r.michigan.played, r.michigan.played_by):
            placed.setdefault(s, []).append(c)
        p.dealt = [
            list(p.dealt[s]) if s == me or s not in r.active else r.hands[s] + placed.get(s, [])
            for s in range(len(p.dealt))
        ]
    for s, five in enumerate(p.chosen):
        if s == me or five is None or s not in r.active:
            continue
        if s in shown:
            continue  # shown at the showdown: the same five
        cards = p.dealt[s] if p.dealt else r.hands[s]
        p.chosen[s] = list(cards if len(cards) <= 5 else (worst_five(cards) if g.poker_low else best_five(cards)).cards)
    w = r.wanagan
    if w is not None and w.picks:
        for s, pick in enumerate(w.picks):
            if s != me and pick is not None:
                w.picks[s] = None
                w.queue.append(s)
