"""AI seats: a random legal player (for tests) and a heuristic player.

Both read only what their seat may know (the game's per-seat view of the hand
and the public state) and are deterministic given the rng they are handed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import cards as C
from .game import Game
from .hands import evaluate, hand_ranks
from .presets import ACE_TWO, FULL_HOUSE_PLAY, LEAD, STRAIGHT_PLAY
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
        if self.game.poker_low:  # Losers Kitty: the worst hand wins; a low high-card hand is strong
            return 0.03 if cat else max(0.03, min(0.97, (12 - hand_ranks(value)[0]) / 8))
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
        # Re-raise only while the bet is modest: two strong AI hands must not raise each other to all-in.
        modest = self.d.get("current_bet", 0) < 2 * game.options.bet_limit
        if "raise" in legal and hi >= lo and modest and p + jitter > 0.8:
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
            return run * 2 + length + bonus + lead_bonus(card) - (card >> 2) * 0.05

        r = game.r
        prev = (r.played[-1], r.played_by[-1]) if r.played else None

        def lead_bonus(card: int) -> float:
            """Great Lakes: a 6 Lead or an A-2 that pays is worth taking."""
            bonus = 0.0
            for sid, kind, rank in game._lead_pays:
                if not game.mat[sid]:
                    continue
                if kind == LEAD and card >> 2 == rank:
                    bonus += 10
                elif (kind == ACE_TWO and card >> 2 == C.TWO and prev is not None and prev[1] == self.seat
                      and prev[0] >> 2 == C.ACE and C.is_red(prev[0]) != C.is_red(card)):
                    bonus += 10
            return bonus

        best = max(options, key=lambda c: (score(c), -c))
        return self.act("lead", card=C.to_str(best))

    def _michigan_play(self, legal: list[str]) -> Action:
        """Great Lakes combination plays: take one when it pays (its space, money cards in it) or goes out."""
        game = self.game
        best: tuple[int, str, list[str]] | None = None
        pays = {C.to_str(c): sum(game.mat[sid] for sid in sids) for c, sids in game._card_pays.items()}
        for do, trigger in (("full_house", FULL_HOUSE_PLAY), ("straight", STRAIGHT_PLAY)):
            if do not in legal:
                continue

            def money(cards: list[str]) -> int:
                return sum(pays.get(c, 0) for c in cards)

            pick = max(self.d[do], key=money)
            value = game.mat[game._play_combos[trigger]] + money(pick)
            if value > 0 or len(pick) >= len(self.hand):
                if best is None or value > best[0]:
                    best = (value, do, pick)
        if best is None:
            return self.act("play")
        return self.act(best[1], cards=list(best[2]))

    # -- Wanagan --------------------------------------------------------------
    def _wanagan_reveal(self, legal: list[str]) -> Action:
        """The space with the most chips this hand qualifies for, with the strongest five for it."""
        game = self.game
        wild = C.parse_many(self.d["wild"])
        spaces = sorted(self.d["spaces"], key=lambda x: -game.mat[x])
        want = {k for sid in spaces for k in _MAY_QUALIFY[game.space_by_id[sid].hand]}
        cands = sorted(((evaluate(cs, wild), kind, cs) for kind, cs in _wanagan_candidates(self.hand, wild, want)),
                       key=lambda t: t[0], reverse=True)
        best: tuple | None = None
        for sid in spaces:
            if best is not None and game.mat[sid] < best[0][0]:
                break  # spaces come richest first
            kinds_of = game.space_by_id[sid].hand
            kinds = _MAY_QUALIFY[kinds_of]
            for value, kind, cards in cands:
                if kind in kinds and (kind == kinds_of or _qualifies(game, cards, sid, kinds_of, wild, value)):
                    key = (game.mat[sid], value)
                    if best is None or key > best[0]:
                        best = (key, sid, cards)
                    break
        if best is None:  # nothing qualifies: declare the richest space, show the best five
            sid = max(self.d["spaces"], key=lambda x: game.mat[x])
            cards = cands[0][2]
        else:
            sid, cards = best[1], best[2]
        return self.act("reveal", cards=C.to_strs(cards), space=sid)

    def _wanagan_pass(self, legal: list[str]) -> Action:
        """Pass the cards least useful to the hand: no partner rank, short suit, no neighbours, low."""
        hand = self.hand
        ranks = [0] * 13
        suits = [0] * 4
        for c in hand:
            ranks[c >> 2] += 1
            suits[c & 3] += 1

        def useful(c: int) -> float:
            r = c >> 2
            near = sum(1 for k in (-2, -1, 1, 2) if 0 <= r + k < 13 and ranks[r + k])
            return (ranks[r] - 1) * 4 + max(0, suits[c & 3] - 2) * 0.6 + near * 0.5 + r * 0.08

        give = sorted(hand, key=lambda c: (useful(c), c))[: self.d["count"]]
        return self.act("pass_cards", cards=C.to_strs(give))


def _qualifies(game: Game, cards: list[int], sid: str, kind: str, wild: list[int], value: int) -> bool:
    """Wanagan qualification, with a fast path for five natural cards (the engine decides the rest)."""
    if kind == "evens-odds" or (wild and any(c in wild for c in cards)):
        return game.wanagan_qualifies(cards, sid, wild)
    if kind == "straight":
        return value >> 20 in (4, 8)  # straight, straight flush
    if kind == "flush":
        return len({c & 3 for c in cards}) == 1
    counts = sorted(Counter(c >> 2 for c in cards).values(), reverse=True) + [0]
    need = {"one-pair": (2, 0), "two-pair": (2, 2), "three-kind": (3, 0), "four-kind": (4, 0),
            "full-house": (3, 2)}[kind]
    return counts[0] >= need[0] and counts[1] >= need[1]


_EVENS_ODDS = ((0, 2, 4, 6, 8), (2, 4, 6, 8, 10), (12, 1, 3, 5, 7), (1, 3, 5, 7, 9), (3, 5, 7, 9, 11))

# Which candidate selections (by the combination they were built for) can qualify for a space.
_MAY_QUALIFY = {
    "one-pair": ("any", "one-pair", "two-pair", "three-kind", "four-kind", "full-house"),
    "two-pair": ("any", "two-pair", "full-house"),
    "three-kind": ("any", "three-kind", "four-kind", "full-house"),
    "four-kind": ("any", "four-kind"),
    "full-house": ("any", "full-house"),
    "straight": ("any", "straight"),
    "flush": ("any", "flush"),
    "evens-odds": ("evens-odds",),
}


def _wanagan_candidates(hand: list[int], wild: list[int], want: set[str]) -> list[tuple[str, list[int]]]:
    """A few strong five-card selections per Wanagan combination (of a kind, pairs, straight, flush, evens/odds)."""
    wilds = [c for c in hand if c in wild]
    nat = [c for c in hand if c not in wild]
    by_rank: list[list[int]] = [[] for _ in range(13)]
    by_suit: list[list[int]] = [[] for _ in range(4)]
    for c in sorted(nat, reverse=True):
        by_rank[c >> 2].append(c)
        by_suit[c & 3].append(c)

    ordered = sorted(hand, key=lambda c: (c in wild, c >> 2), reverse=True)
    w = len(wilds)
    held = [len(x) > 0 for x in by_rank]

    def fill(core: list[int]) -> list[int]:
        rest = list(ordered)
        for c in core:
            rest.remove(c)
        return core + rest[: 5 - len(core)]

    def groups(*wants: tuple[int, int]) -> list[int] | None:
        core: list[int] = []
        spare = list(wilds)
        for rank, k in wants:
            have = by_rank[rank][:k]
            need = k - len(have)
            if need > len(spare):
                return None
            core += have + spare[:need]
            spare = spare[need:]
        return core

    out: list[tuple[str, list[int]]] = [("any", fill([]))]
    top = sorted(range(13), key=lambda r: (len(by_rank[r]), r), reverse=True)[:4]
    for k, kind in ((2, "one-pair"), (3, "three-kind"), (4, "four-kind")):
        if kind not in want:
            continue
        for r in top:
            core = groups((r, k))
            if core is not None:
                out.append((kind, fill(core)))
                break
    for i, a in enumerate(top):
        for b in top:
            if a == b:
                continue
            if "two-pair" in want and b in top[i + 1:]:
                core = groups((a, 2), (b, 2))
                if core is not None:
                    out.append(("two-pair", fill(core)))
            if "full-house" in want and len(by_rank[a]) + w >= 3:
                core = groups((a, 3), (b, 2))
                if core is not None:
                    out.append(("full-house", fill(core)))
    for hi in range(12, 2, -1) if "straight" in want else ():
        rs = [12, 0, 1, 2, 3] if hi == 3 else list(range(hi - 4, hi + 1))
        if sum(held[r] for r in rs) + w < 5:
            continue
        out.append(("straight", groups(*((r, 1) for r in rs))))
        break
    for s in range(4) if "flush" in want else ():
        if len(by_suit[s]) + len(wilds) >= 5:
            out.append(("flush", (by_suit[s] + wilds)[:5]))
    for rs in _EVENS_ODDS if "evens-odds" in want else ():
        if sum(held[r] for r in rs) + w >= 5:
            out.append(("evens-odds", groups(*((r, 1) for r in rs))))
    return [(kind, cs) for kind, cs in out if len(cs) == 5]
