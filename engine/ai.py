"""AI seats: a random legal player (for tests) and a heuristic player.

Both read only what their seat may know (the game's per-seat view of the hand
and the public state) and are deterministic given the rng they are handed.
"""

from __future__ import annotations

import random
from typing import Any

from . import cards as C
from .game import Game
from .hands import evaluate
from .model import Action

# Rough chance that a five-card hand of this category wins a showdown against one opponent.
_WIN_CHANCE = [0.12, 0.35, 0.55, 0.68, 0.78, 0.83, 0.9, 0.96, 0.99, 1.0]


def choose_action(game: Game, seat: int, kind: str = "heuristic", rng: random.Random | None = None) -> Action:
    """The action this AI seat takes now (the engine must be waiting for ``seat``)."""
    aw = game.awaiting()
    if aw is None or aw.seat != seat:
        raise ValueError(f"seat {seat} is not to act")
    rng = rng or random.Random(0)
    if kind == "random":
        return _random_action(game, seat, aw.phase, aw.legal, aw.detail, rng)
    return _Heuristic(game, seat, aw.detail, rng).decide(aw.phase, aw.legal)


def _random_action(game: Game, seat: int, phase: str, legal: list[str], d: dict[str, Any],
                   rng: random.Random) -> Action:
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
    if do == "name_suit":
        return Action(seat=seat, do=do, suit=rng.choice(d["suits"]))
    return Action(seat=seat, do=do)


class _Heuristic:
    def __init__(self, game: Game, seat: int, detail: dict[str, Any], rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.d = detail
        self.rng = rng
        self.hand = list(game.r.hands[seat])
        self.stack = game.stacks[seat]

    def act(self, do: str, **kw: Any) -> Action:
        return Action(seat=self.seat, do=do, **kw)

    def decide(self, phase: str, legal: list[str]) -> Action:
        handler = getattr(self, "_" + phase.replace("-", "_"), None)
        if handler is None:
            return self.act(legal[0])
        return handler(legal)

    # -- hand strength -------------------------------------------------
    def poker_strength(self, cards: list[int] | None = None) -> float:
        value = evaluate(cards if cards is not None else self.hand)
        cat = value >> 20
        base = _WIN_CHANCE[min(cat, 9)]
        return base

    def pay_cards_held(self) -> int:
        money = self.game._money_cards()
        return sum(1 for c in self.hand if c in money)

    # -- spare hand ------------------------------------------------------
    def _spare_hand(self, legal: list[str]) -> Action:
        strength = self.poker_strength()
        keeps_value = self.pay_cards_held() > 0 and self.game.options.paycards == "deal"
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
        game = self.game
        values = {s: 0 for s in range(4)}
        for sp in game.spaces:
            if sp.trigger in ("card", "combo") and any("*" in t for t in sp.cards):
                for suit in range(4):
                    need = [C.parse(t.replace("*", C.SUITS[suit])) for t in sp.cards]
                    if all(c in self.hand for c in need):
                        values[suit] += game.mat[sp.id]
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
        game = self.game
        r = game.r
        mine = r.chosen[self.seat] or self.hand
        opponents = max(1, len([s for s in r.active if not r.folded[s] and s != self.seat]))
        p = self.poker_strength(mine) ** (1 + (opponents - 1) * 0.35)
        pot = game.mat[game.pot_id]
        to_call = self.d.get("to_call", 0)
        lo, hi = self.d.get("min", 1), self.d.get("max", 0)
        jitter = self.rng.random() * 0.08
        if to_call == 0:
            if "bet" in legal and hi >= lo and p + jitter > 0.55:
                return self.act("bet", amount=max(lo, min(hi, int(hi * p))))
            if "raise" in legal and hi >= lo and p + jitter > 0.75:
                return self.act("raise", amount=max(lo, min(hi, int(hi * p))))
            return self.act("check")
        if "raise" in legal and hi >= lo and p + jitter > 0.8:
            return self.act("raise", amount=max(lo, min(hi, int(hi * (p - 0.3)))))
        odds = to_call / (pot + to_call)
        if p + jitter >= odds:
            return self.act("call")
        return self.act("fold")

    # -- Michigan -----------------------------------------------------------
    def _michigan_lead(self, legal: list[str]) -> Action:
        """Lead where this seat will keep playing: long runs, long suits, pay cards that will be placed."""
        options = C.parse_many(self.d["cards"])
        game = self.game
        pays = set(game._card_pays) if game.options.paycards == "play" else set()
        held = set(self.hand)

        def score(card: int) -> float:
            suit = card & 3
            run = 0
            c = card
            while c in held:
                run += 1
                c += 4
                if c >= 52:
                    break
            length = sum(1 for x in self.hand if x & 3 == suit)
            bonus = sum(3 for x in self.hand if x & 3 == suit and x in pays)
            return run * 2 + length + bonus - (card >> 2) * 0.05

        best = max(options, key=lambda c: (score(c), -c))
        return self.act("lead", card=C.to_str(best))
