"""AI seats at three levels, and a random legal player (for tests).

* Normal: a rule-of-thumb heuristic (``_Heuristic``), one rule per decision, corrected where the
  search showed it erred (it called bets too readily). ``kind="heuristic"`` is the rule of thumb
  as first written, before that correction: games recorded with it (the save-format tests) play
  on exactly as they did.
* Easy: the Normal player making human-like slips: now and then (``EASY_SLIP``) it takes
  another plausible choice of the same decision (a different lead, bet size, suit, pass ...),
  drawn from the candidates the search compares.
* Hard: the search of ``engine.search`` (determinised rollouts played by the Normal player).

All read only what their seat may know (``Game.observe``: the seat's own cards, the public
state, and what pays on this mat) and are deterministic given the rng they are handed (Hard
also given a budget without a clock).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from . import cards as C
from .game import Game
from .hands import evaluate, hand_ranks
from .model import Action, Awaiting
from .observation import Observation
from .presets import PAY_SUIT
from .search import Budget, candidates, search_action
from .wanaganplan import NO_WILD, WanaganHand

LEVELS = ("easy", "normal", "hard")
"""The AI levels players choose from (``choose_action``'s ``kind`` also takes "random", and
"heuristic": Normal as first written)."""
EASY_SLIP = 0.3  # how often the Easy player takes another plausible choice than Normal's

# Rough chance that a five-card hand of this category wins a showdown against one opponent.
_WIN_CHANCE = [0.12, 0.35, 0.55, 0.68, 0.78, 0.83, 0.9, 0.96, 0.99, 1.0]
# A call wants this many times the pot odds: the Hard search folded most calls the plain pot-odds
# rule made (a bet at these tables means a strong hand), and with the margin Normal wins 5-7 chips
# a round more against the old rule (tripoley, rummoli, great-lakes, wanagan; bench/bench_ai.py's deals).
_CALL_CAUTION = 2.5


def choose_action(
    game: Game, seat: int, kind: str = "heuristic", rng: random.Random | None = None, budget: Budget | None = None
) -> Action:
    """The action this AI seat takes now (the engine must be waiting for ``seat``); ``kind`` is a
    level of ``LEVELS``, "heuristic" (Normal) or "random"; ``budget`` bounds a Hard search."""
    return decide(game.observe(seat), kind, rng or random.Random(0), budget)  # observe: ValueError if not to act


def decide(obs: Observation, kind: str, rng: random.Random, budget: Budget | None = None) -> Action:
    """``choose_action`` from the observation alone (what the bot hands its AI worker process)."""
    if kind == "random":
        return _random_action(obs.seat, obs.legal, obs.detail, rng)
    if kind not in ("heuristic", *LEVELS):
        raise ValueError(f"unknown AI level {kind!r}: choose one of {', '.join(LEVELS)}")
    caution = 1.0 if kind == "heuristic" else _CALL_CAUTION
    normal = _Heuristic(obs, rng, caution).decide(obs.phase, obs.legal)
    if kind == "hard":
        return search_action(obs, normal, normal_action, rng, budget or Budget())
    if kind == "easy" and rng.random() < EASY_SLIP:
        others = candidates(obs, normal, rng)[1:]
        if others:
            return rng.choice(others)
    return normal


def normal_action(game: Game, seat: int, rng: random.Random) -> Action:
    """The Normal player's action (the rollout policy of the Hard search)."""
    obs = game.observe(seat)
    return _Heuristic(obs, rng).decide(obs.phase, obs.legal)


def autoplay(game: Game, kind: str = "heuristic", rng: random.Random | None = None) -> Iterator[Awaiting | None]:
    """Play ``game`` to its end with AI seats, one step at a time (tests, benchmarks, samples).

    Yields before each step what it is: the decision about to be made, or None when the next
    deal (or the board clearing) comes; the caller may inspect the game there, or stop."""
    rng = rng or random.Random(0)
    while not game.finished:
        aw = game.awaiting()
        yield aw
        if aw is None:
            game.next_deal()
        else:
            game.apply(choose_action(game, aw.seat, kind, rng))


def _random_action(seat: int, legal: list[str], d: Mapping[str, Any], rng: random.Random) -> Action:
    do = rng.choice(legal)
    if do in ("bid", "suit_bid", "bet", "raise"):
        lo, hi = d.get("min", 1), d.get("max", 1)
        if hi < lo:
            do = [x for x in legal if x not in ("bid", "suit_bid", "bet", "raise")][0]
            return Action(seat=seat, do=do)
        return Action(seat=seat, do=do, amount=rng.randint(lo, min(hi, lo + 10)))
    if do == "choose":
        return Action(seat=seat, do=do, cards=rng.sample(d["cards"], 5))
    if do == "corner_bet":
        return Action(seat=seat, do=do, ace=rng.choice(d["aces"]), amount=rng.randint(1, max(1, min(d["max"], 5))))
    if do == "lead":
        return Action(seat=seat, do=do, card=rng.choice(d["cards"]))
    if do in ("full_house", "straight"):
        return Action(seat=seat, do=do, cards=list(rng.choice(d[do])))
    if do == "reveal":
        return Action(seat=seat, do=do, cards=rng.sample(d["cards"], 5), space=rng.choice(d["spaces"]))
    if do == "pass_cards":
        return Action(seat=seat, do=do, cards=rng.sample(d["cards"], d["count"]))
    if do == "name_suit":
        return Action(seat=seat, do=do, suit=rng.choice(d["suits"]))
    return Action(seat=seat, do=do)


class _Heuristic:
    def __init__(self, obs: Observation, rng: random.Random, call_caution: float = _CALL_CAUTION) -> None:
        self.obs = obs
        self.call_caution = call_caution
        self.seat = obs.seat
        self.d = obs.detail
        self.rng = rng
        self.hand = list(obs.hand)
        self.stack = obs.stack

    def act(self, do: str, **kw: Any) -> Action:
        return Action(seat=self.seat, do=do, **kw)

    def decide(self, phase: str, legal: list[str]) -> Action:
        """The choice for ``phase`` (every decision of the engine has one in ``_DECIDERS``)."""
        return _DECIDERS[phase](self, legal)

    # -- hand strength -------------------------------------------------
    def poker_strength(self, cards: list[int] | None = None) -> float:
        value = evaluate(cards if cards is not None else self.hand)
        cat = value >> 20
        if self.obs.poker_low:  # Losers Kitty: the worst hand wins; a low high-card hand is strong
            return 0.03 if cat else max(0.03, min(0.97, (12 - hand_ranks(value)[0]) / 8))
        base = _WIN_CHANCE[min(cat, 9)]
        return base

    def pay_cards_held(self) -> int:
        money = self.obs.money_cards
        return sum(1 for c in self.hand if c in money)

    # -- spare hand ------------------------------------------------------
    def _spare_hand(self, legal: list[str]) -> Action:
        strength = self.poker_strength()
        keeps_value = self.pay_cards_held() > 0 and self.obs.options.paycards == "deal"
        stage = self.d.get("stage")
        if stage == "decide":
            if not keeps_value and strength < 0.35 and "swap" in legal:
                return self.act("swap")
            if "auction" in legal:
                return self.act("auction")
            return self.act("keep")
        if stage == "after-swap":
            return self.act("auction" if "auction" in legal else "keep")
        return self.act("swap" if (strength < 0.35 and not keeps_value and "swap" in legal) else "keep")

    def _auction(self, legal: list[str]) -> Action:
        strength = self.poker_strength()
        weak = strength < 0.35 and self.pay_cards_held() == 0
        ceiling = min(3 + self.rng.randint(0, 2), self.stack // 10)
        if weak and "bid" in legal and self.d["min"] <= ceiling:
            return self.act("bid", amount=self.d["min"])
        return self.act("pass")

    # -- optional suit ---------------------------------------------------
    def _suit_values(self) -> dict[int, int]:
        """Chips on the mat this seat could expect to collect per pay suit (cards held)."""
        values = {s: 0 for s in range(4)}
        for sp in self.obs.spaces:
            if sp.follows_pay_suit:
                for suit in range(4):
                    need = [C.parse(t.replace(PAY_SUIT, C.SUITS[suit])) for t in sp.cards]
                    if all(c in self.hand for c in need):
                        values[suit] += self.obs.mat[sp.id]
        return values

    def _suit_bid(self, legal: list[str]) -> Action:
        best = max(self._suit_values().values())
        ceiling = min(best // 2, self.stack // 5)
        if "suit_bid" in legal and self.d["min"] <= ceiling:
            return self.act("suit_bid", amount=self.d["min"])
        return self.act("pass")

    def _name_suit(self, legal: list[str]) -> Action:
        values = self._suit_values()
        suit = max(range(4), key=lambda s: (values[s], s == C.HEARTS))
        return self.act("name_suit", suit=C.SUITS[suit])

    # -- Rummy Royal corner Aces (bet before the deal: a small, even-money gamble) --
    def _corner_bet(self, legal: list[str]) -> Action:
        if self.rng.random() < 0.35:
            amount = max(1, min(self.d["max"], self.stack // 40 or 1))
            return self.act("corner_bet", ace=self.rng.choice(self.d["aces"]), amount=amount)
        return self.act("decline")

    def _corner_cover(self, legal: list[str]) -> Action:
        cheap = self.d["amount"] * 20 <= self.stack
        return self.act("cover" if cheap and self.rng.random() < 0.5 else "decline")

    def _claim(self, legal: list[str]) -> Action:
        return self.act("claim")

    # -- poker -------------------------------------------------------------
    def _poker_choose(self, legal: list[str]) -> Action:
        return self.act("choose", cards=list(self.d["best"]))

    def _poker_betting(self, legal: list[str]) -> Action:
        obs = self.obs
        mine = obs.chosen or self.hand
        opponents = max(1, obs.opponents_in_hand)
        p = self.poker_strength(mine) ** (1 + (opponents - 1) * 0.35)
        pot = obs.mat[obs.pot] if obs.pot is not None else 0
        to_call = self.d.get("to_call", 0)
        lo, hi = self.d.get("min", 1), self.d.get("max", 0)
        jitter = self.rng.random() * 0.08
        if to_call == 0:
            if "bet" in legal and hi >= lo and p + jitter > 0.55:
                return self.act("bet", amount=max(lo, min(hi, int(hi * p))))
            if "raise" in legal and hi >= lo and p + jitter > 0.75:
                return self.act("raise", amount=max(lo, min(hi, int(hi * p))))
            return self.act("check")
        # Re-raise only while the bet is modest: two strong AI hands must not raise each other to all-in.
        modest = self.d.get("current_bet", 0) < 2 * obs.options.bet_limit
        if "raise" in legal and hi >= lo and modest and p + jitter > 0.8:
            return self.act("raise", amount=max(lo, min(hi, int(hi * (p - 0.3)))))
        odds = to_call / (pot + to_call)
        if p + jitter >= self.call_caution * odds:
            return self.act("call")
        return self.act("fold")

    # -- Michigan -----------------------------------------------------------
    def _michigan_lead(self, legal: list[str]) -> Action:
        """Lead where this seat will keep playing: long runs, long suits, pay cards that will be placed."""
        options = C.parse_many(self.d["cards"])
        obs = self.obs
        pays = set(obs.pays_when_placed) if obs.options.paycards == "play" else set()
        held = set(self.hand)
        lengths = [0, 0, 0, 0]  # cards held per suit
        bonuses = [0, 0, 0, 0]  # 3 per held card of the suit that pays when placed
        for x in self.hand:
            lengths[x & 3] += 1
            if x in pays:
                bonuses[x & 3] += 3

        def score(card: int) -> float:
            suit = card & 3
            run = 0
            c = card
            while c in held:
                run += 1
                c += 4
                if c >= 52:
                    break
            return run * 2 + lengths[suit] + bonuses[suit] + lead_bonus(card) - (card >> 2) * 0.05

        def lead_bonus(card: int) -> float:
            """Great Lakes: a 6 Lead or an A-2 that pays is worth taking."""
            return 10.0 * sum(1 for sid in obs.lead_spaces(card) if obs.mat[sid])

        best = max(options, key=lambda c: (score(c), -c))
        return self.act("lead", card=C.to_str(best))

    def _michigan_play(self, legal: list[str]) -> Action:
        """Great Lakes combination plays: take one when it pays (its space, money cards in it) or goes out."""
        obs = self.obs
        mat = obs.mat
        best: tuple[int, str, list[str]] | None = None
        # Chips each held pay card would collect if placed now (cards not held or paying nothing: 0).
        held = set(self.hand)
        pays: dict[str, int] = {}
        for c, sids in obs.pays_when_placed.items():
            if c in held:
                v = sum(mat[sid] for sid in sids)
                if v:
                    pays[C.to_str(c)] = v

        items = list(pays.items())
        for do in ("full_house", "straight"):
            if do not in legal:
                continue
            options = self.d[do]
            pick, money = options[0], 0
            if items:  # the first of the options that collect the most
                if len(items) == 1:
                    k, v = items[0]
                    scores = [o.count(k) * v for o in options]
                else:
                    scores = [0] * len(options)
                    for k, v in items:
                        scores = [x + o.count(k) * v for x, o in zip(scores, options)]
                money = max(scores)
                pick = options[scores.index(money)]
            value = mat[obs.combo_spaces[do]] + money
            if value > 0 or len(pick) >= len(self.hand):
                if best is None or value > best[0]:
                    best = (value, do, pick)
        if best is None:
            return self.act("play")
        return self.act(best[1], cards=list(best[2]))

    # -- Wanagan --------------------------------------------------------------
    def _wanagan_reveal(self, legal: list[str]) -> Action:
        """The space with the most chips this hand qualifies for, with the strongest five for it.

        Spaces are tried richest first; the hand's statistics are read once and a five-card
        selection is built only for the spaces that could win (no enumeration of combinations).
        Among equally rich spaces the stronger qualifying five wins (the earlier space on ties)."""
        mat = self.obs.mat
        d = self.d
        wild = frozenset(C.parse_many(d["wild"])) if d["wild"] else NO_WILD
        plan = WanaganHand(self.hand, wild)
        kinds = {sp.id: sp.hand for sp in self.obs.spaces}
        spaces = sorted(d["spaces"], key=mat.__getitem__, reverse=True)  # stable: mat order on ties
        found: list[tuple[str, list[int], int | None]] = []  # qualifying (space, five, value) of the top rate
        top = None
        for sid in spaces:
            m = mat[sid]
            if top is not None and m < top:
                break  # spaces come richest first
            picked = plan.pick(sid, kinds[sid])
            if picked is not None:
                top = m
                found.append((sid, *picked))
        if not found:  # nothing qualifies: declare the richest space, show the best five
            sid = max(d["spaces"], key=lambda x: mat[x])
            cards = plan.best()[1]
        elif len(found) == 1:
            sid, cards = found[0][0], found[0][1]
        else:  # equally rich spaces: the strongest five (the earlier space on ties)
            values = [plan.value(cs) if v is None else v for _, cs, v in found]
            sid, cards, _ = found[values.index(max(values))]
        return self.act("reveal", cards=C.to_strs(cards), space=sid)

    def _wanagan_pass(self, legal: list[str]) -> Action:
        """Pass the cards least useful to the hand: no partner rank, short suit, no neighbours, low."""
        hand = self.hand
        ranks = [0] * 13
        suits = [0] * 4
        for c in hand:
            ranks[c >> 2] += 1
            suits[c & 3] += 1

        pair = [(n - 1) * 4 for n in ranks]
        suit = [max(0, n - 2) * 0.6 for n in suits]
        held = [0, 0] + [1 if n else 0 for n in ranks] + [0, 0]  # rank r held: held[r + 2]
        near = [(held[r] + held[r + 1] + held[r + 3] + held[r + 4]) * 0.5 for r in range(13)]
        useful = {c: (pair[c >> 2] + suit[c & 3] + near[c >> 2] + _RANK_TIEBREAK[c >> 2], c) for c in hand}
        give = sorted(hand, key=useful.__getitem__)[: self.d["count"]]
        return self.act("pass_cards", cards=C.to_strs(give))


_DECIDERS: dict[str, Callable[[_Heuristic, list[str]], Action]] = {
    "spare-hand": _Heuristic._spare_hand,
    "auction": _Heuristic._auction,
    "suit-bid": _Heuristic._suit_bid,
    "name-suit": _Heuristic._name_suit,
    "corner-bet": _Heuristic._corner_bet,
    "corner-cover": _Heuristic._corner_cover,
    "claim": _Heuristic._claim,
    "poker-choose": _Heuristic._poker_choose,
    "poker-betting": _Heuristic._poker_betting,
    "michigan-lead": _Heuristic._michigan_lead,
    "michigan-play": _Heuristic._michigan_play,
    "wanagan-reveal": _Heuristic._wanagan_reveal,
    "wanagan-pass": _Heuristic._wanagan_pass,
}

_RANK_TIEBREAK = tuple(r * 0.08 for r in range(13))
