"""Wanagan: up to four reveal rounds (round 2: pass three left first, 3: right, 4: wild cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .. import events as ev
from .. import hands as H
from ..combinations import combination_key, contains, evens_or_odds_key, is_evens_or_odds
from ..hands import category_name, evaluate
from ..language import N_
from ..model import Action, IllegalAction
from ..presets import HAND
from ..reasons import Counted, Listed, Space
from .base import CARD_STRS, HOLD_ORDER, Phase, cards_of, picked_from
from .names import PhaseName
from .state import Pick, Wait, WanaganState

if TYPE_CHECKING:
    from ..table import Table

WANAGAN_WILD = ("KH", "TD", "7S", "4C")  # wild in the fourth reveal round
WANAGAN_CATEGORIES = {
    "one-pair": H.ONE_PAIR,
    "two-pair": H.TWO_PAIR,
    "three-kind": H.THREE_OF_A_KIND,
    "four-kind": H.FOUR_OF_A_KIND,
    "full-house": H.FULL_HOUSE,
    "straight": H.STRAIGHT,
    "flush": H.FLUSH,
}


def open_spaces(game: Table) -> list[str]:
    return [sp.id for sp in game.spaces if sp.trigger == HAND and game.mat[sp.id] > 0]


def qualifies(game: Table, cards: list[int], space: str, wild: frozenset[int] | list[int]) -> bool:
    """Does this five-card selection contain the combination of Wanagan ``space``?"""
    kind = game.space_by_id[space].hand
    if kind == "evens-odds":
        return is_evens_or_odds(cards, wild)
    return contains(cards, WANAGAN_CATEGORIES[kind], wild)


def claim_key(game: Table, cards: list[int], space: str, wild: frozenset[int] | list[int]) -> tuple[int, ...] | None:
    """How a claim on Wanagan ``space`` ranks: by the named combination only (None: no claim)."""
    kind = game.space_by_id[space].hand
    if kind == "evens-odds":
        return evens_or_odds_key(cards, wild)
    return combination_key(cards, WANAGAN_CATEGORIES[kind], wild)


def wrong_count(move: str, count: int) -> Counted:
    """The refusal of a pass or reveal of the wrong number of cards (``{count}``: the number wanted)."""
    if move == "pass_cards":
        return Counted.ngettext(
            "pass_cards needs exactly {count} card", "pass_cards needs exactly {count} cards", count
        )
    return Counted.ngettext("reveal needs exactly {count} card", "reveal needs exactly {count} cards", count)


class Wanagan(Phase):
    steps = ("wanagan",)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.WANAGAN_PASS, PhaseName.WANAGAN_REVEAL)

    def start(self, game: Table, step: str) -> bool:
        game.round.wanagan = WanaganState()
        return self.reveal_round(game, 1)

    @staticmethod
    def state(game: Table) -> WanaganState:
        w = game.round.wanagan
        assert w is not None
        return w

    def reveal_round(self, game: Table, number: int) -> bool:
        w = self.state(game)
        if number > 4 or not open_spaces(game):
            game.emit(ev.WanaganEnd(rounds=w.round))
            return True
        w.round = number
        w.stage = "pass" if number in (2, 3) else "reveal"
        self.ask_all(game)
        return self.ask_next(game)

    def ask_all(self, game: Table) -> None:
        w = self.state(game)
        w.queue = game.clockwise_from(game.next_active(game.round.dealer))
        w.picks = [None] * game.n

    def ask_next(self, game: Table) -> bool:
        """Ask the next seat (seat by seat, clockwise from the dealer's left); resolve once all chose."""
        w = self.state(game)
        if w.queue:
            game.round.wait = self.ask(game, w.queue[0])
            return False
        if w.stage == "pass":
            self.pass_cards(game)
            w.stage = "reveal"
            self.ask_all(game)
            return self.ask_next(game)
        self.resolve(game)
        return self.reveal_round(game, w.round + 1)

    def ask(self, game: Table, seat: int) -> Wait:
        """``seat``'s pick in this reveal round: three cards to pass, or five and the space declared."""
        w = self.state(game)
        hand = [CARD_STRS[c] for c in sorted(game.round.hands[seat], key=HOLD_ORDER.__getitem__)]
        if w.stage == "pass":
            direction = "left" if w.round == 2 else "right"
            detail = {"cards": hand, "count": 3, "round": w.round, "direction": direction}
            return Wait(seat, PhaseName.WANAGAN_PASS, ["pass_cards"], detail)
        wild = list(WANAGAN_WILD) if w.round == 4 else []
        detail = {"cards": hand, "count": 5, "round": w.round, "spaces": open_spaces(game), "wild": wild}
        return Wait(seat, PhaseName.WANAGAN_REVEAL, ["reveal"], detail)

    def together(self, game: Table) -> list[Wait]:
        """Every seat still to pick: they pass together, and reveal together."""
        return [self.ask(game, s) for s in self.state(game).queue]

    def check(self, game: Table, a: Action) -> None:
        w = game.wait_of(a.seat)
        assert w is not None
        d = w.detail
        picked_from(a.cards, game.round.hands[a.seat], d["count"], wrong_count(a.do, d["count"]))
        if a.do == "reveal" and a.space not in d["spaces"]:
            raise IllegalAction(
                N_("declare one of the spaces that still hold chips: {spaces}"),
                spaces=Listed(tuple(Space(sp) for sp in d["spaces"])),
            )

    def apply(self, game: Table, a: Action) -> bool:
        w = self.state(game)
        cards = cards_of(a.cards)
        w.picks[a.seat] = Pick(cards, a.space if a.do == "reveal" else None)
        w.queue.pop(0)
        game.emit((ev.Chosen if a.do == "reveal" else ev.Passing)(seat=a.seat, round=w.round))
        return self.ask_next(game)

    def pass_cards(self, game: Table) -> None:
        """Everyone's three cards move at once: to the next seat left (round 2) or right (round 3)."""
        r = game.round
        w = self.state(game)
        act = r.active
        step = 1 if w.round == 2 else -1
        picks = {s: self.pick(w, s).cards for s in act}
        for s in act:
            for c in picks[s]:
                r.hands[s].remove(c)
        for i, s in enumerate(act):
            r.hands[act[(i + step) % len(act)]].extend(picks[s])
        game.emit(ev.PassCards(round=w.round, direction="left" if step == 1 else "right"))

    @staticmethod
    def pick(w: WanaganState, seat: int) -> Pick:
        pick = w.picks[seat]
        assert pick is not None, f"seat {seat} has not chosen"
        return pick

    def resolve(self, game: Table) -> None:
        """Reveal together; on each space the best qualifying named combination wins (kickers do not
        count; equal combinations split, the remainder stays)."""
        r = game.round
        w = self.state(game)
        wild = frozenset(cards_of(WANAGAN_WILD) if w.round == 4 else [])
        shown: dict[str, dict[str, Any]] = {}
        claims: dict[str, list[tuple[int, tuple[int, ...]]]] = {}
        for s in r.active:
            pick = self.pick(w, s)
            cards, sid = pick.cards, pick.space
            assert sid is not None
            key = claim_key(game, cards, sid, wild)
            value = evaluate(cards, wild)
            shown[str(s)] = {
                "cards": [CARD_STRS[c] for c in cards],
                "space": sid,
                "qualifies": key is not None,
                "hand": category_name(value),
            }
            if key is not None:
                claims.setdefault(sid, []).append((s, key))
        game.emit(ev.Reveal(round=w.round, hands=shown))
        for sp in game.spaces:
            if sp.id in claims:
                best = max(v for _, v in claims[sp.id])
                game.split(sp.id, [s for s, v in claims[sp.id] if v == best], "wanagan")
