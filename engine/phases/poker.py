"""Poker: each seat chooses five cards, one betting round, showdown with side pots (docs/rules.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .. import cards as C
from .. import events as ev
from ..fives import best_five, worst_five
from ..hands import category_name, evaluate
from ..language import N_
from ..model import Action, IllegalAction
from ..presets import CORNER
from ..reasons import Counted
from .base import Phase, cards_of, picked_from
from .names import PhaseName
from .state import Wait

if TYPE_CHECKING:
    from ..table import Table


def poker_cards(game: Table, seat: int) -> list[int]:
    """Rulebook poker (after Michigan) uses the whole dealt hand; cards placed stay in front of their owner."""
    r = game.round
    return r.poker.dealt[seat] if r.poker.dealt else r.hands[seat]


def choose_wait(game: Table, seat: int, cards: list[int]) -> Wait:
    """``seat``'s choice of its poker five from ``cards``, with the best (or, Losers Kitty, worst) five."""
    best = worst_five(cards) if game.poker_low else best_five(cards)
    detail = {"cards": C.to_strs(C.sorted_hand(cards)), "best": C.to_strs(best.cards)}
    return Wait(seat, PhaseName.POKER_CHOOSE, ["choose"], detail)


def first_bettor(game: Table) -> int:
    r = game.round
    if game.options.poker_first_bettor == "dealer":
        return r.dealer
    return game.next_active(r.dealer)


def pot(game: Table) -> str:
    assert game.pot_id is not None, "this mat has no poker space"
    return game.pot_id


class ToPoker(Phase):
    """Rulebook: chips left on the money spaces move to the poker space before poker."""

    steps = ("to-poker",)

    def start(self, game: Table, step: str) -> bool:
        for sp in game.spaces:
            if sp.id != game.pot_id and sp.trigger != CORNER:
                game.move(sp.id, pot(game))
        return True


class Poker(Phase):
    steps = ("poker",)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.POKER_CHOOSE, PhaseName.POKER_BETTING)

    def start(self, game: Table, step: str) -> bool:
        game.round.poker.choose_queue = game.clockwise_from(first_bettor(game))
        return self.choose_next(game)

    def choose_next(self, game: Table) -> bool:
        p = game.round.poker
        while p.choose_queue:
            seat = p.choose_queue[0]
            cards = poker_cards(game, seat)
            if len(cards) <= 5:
                p.chosen[seat] = list(cards)
                p.choose_queue.pop(0)
                game.emit(ev.Choose(seat=seat))
                continue
            game.round.wait = choose_wait(game, seat, cards)
            return False
        return self.start_betting(game)

    def together(self, game: Table) -> list[Wait]:
        """Every seat still to choose its five (a seat holding five or fewer has no choice)."""
        queue = game.round.poker.choose_queue
        return [choose_wait(game, s, cards) for s in queue if len(cards := poker_cards(game, s)) > 5]

    def check(self, game: Table, a: Action) -> None:
        if a.do == "choose":
            picked_from(a.cards, poker_cards(game, a.seat), 5, N_("choose exactly five cards for your poker hand"))
            return
        p = game.round.poker
        lim = game.options.bet_limit
        to_call = p.current_bet - p.committed[a.seat]
        stack = game.stacks[a.seat]
        if a.do in ("bet", "raise"):
            if a.amount is None or a.amount < 1:
                raise IllegalAction(NO_AMOUNT[a.do])
            if game.options.bet_limit_scope == "total" and a.amount > raise_cap(game):
                raise IllegalAction(OVER_TOTAL[a.do], amount=a.amount, total=p.current_bet + a.amount, limit=lim)
            if a.amount > lim:
                raise IllegalAction(OVER_LIMIT[a.do], limit=lim)
            need = max(to_call, 0) + a.amount
            if need > stack:
                raise IllegalAction(short_of_chips(a.do, need), amount=a.amount, need=need, stack=stack)

    def apply(self, game: Table, a: Action) -> bool:
        p = game.round.poker
        if a.do == "choose":
            p.chosen[a.seat] = cards_of(a.cards)
            p.choose_queue.pop(0)
            game.emit(ev.Choose(seat=a.seat))
            return self.choose_next(game)
        seat = a.seat
        to_call = max(0, p.current_bet - p.committed[seat])
        name = game.players[seat]
        p.need.pop(0)
        if a.do == "check":
            game.emit(ev.Check(seat=seat))
            p.last_action = f"{name} checks"
        elif a.do == "fold":
            p.folded[seat] = True
            game.emit(ev.Fold(seat=seat))
            p.last_action = f"{name} folds"
        elif a.do == "call":
            paid = game.to_space(seat, pot(game), to_call, "call")
            p.committed[seat] += paid
            game.emit(ev.Call(seat=seat, amount=paid, all_in=game.stacks[seat] == 0))
            p.last_action = f"{name} calls {paid}" + (" (all in)" if game.stacks[seat] == 0 else "")
        else:  # bet / raise
            assert a.amount is not None
            paid = game.to_space(seat, pot(game), to_call + a.amount, a.do)
            p.committed[seat] += paid
            p.current_bet = p.committed[seat]
            game.emit(
                (ev.Bet if a.do == "bet" else ev.Raise)(seat=seat, amount=a.amount, all_in=game.stacks[seat] == 0)
            )
            p.last_action = f"{name} {a.do}s {a.amount}" + (" (all in)" if game.stacks[seat] == 0 else "")
            order = game.clockwise_from(game.next_active(seat))
            p.need = [s for s in order if s != seat and not p.folded[s] and game.stacks[s] > 0]
        return self.betting_next(game)

    def start_betting(self, game: Table) -> bool:
        p = game.round.poker
        p.pot_before = game.mat[pot(game)]
        p.current_bet = 0
        order = game.clockwise_from(first_bettor(game))
        p.need = [s for s in order if game.stacks[s] > 0]
        if len(p.need) < 2:
            p.need = []
        return self.betting_next(game)

    def betting_next(self, game: Table) -> bool:
        p = game.round.poker
        while p.need:
            if len(in_hand(game)) <= 1:
                p.need = []
                break
            seat = p.need[0]
            if p.folded[seat] or game.stacks[seat] == 0:
                p.need.pop(0)
                continue
            # Nobody else can still put chips in and this seat has matched: nothing to decide.
            others_live = [s for s in in_hand(game) if s != seat and game.stacks[s] > 0]
            to_call = p.current_bet - p.committed[seat]
            if not others_live and to_call <= 0:
                p.need.pop(0)
                continue
            stack = game.stacks[seat]
            cap = raise_cap(game)
            if to_call <= 0:
                if p.current_bet > 0 and cap < 1:  # matched, and the round's total limit is reached
                    p.need.pop(0)
                    continue
                legal = ["check"] + (["bet"] if others_live else [])
                detail = {"to_call": 0, "min": 1, "max": min(cap, stack), "current_bet": p.current_bet}
                if p.current_bet > 0 and others_live:
                    legal = ["check", "raise"]
            else:
                legal = ["fold", "call"]
                if stack > to_call and others_live and cap >= 1:
                    legal.append("raise")
                detail = {
                    "to_call": min(to_call, stack),
                    "min": 1,
                    "max": max(0, min(cap, stack - to_call)),
                    "current_bet": p.current_bet,
                }
            return game.wait(seat, PhaseName.POKER_BETTING, legal, **detail)
        return showdown(game)


def in_hand(game: Table) -> list[int]:
    r = game.round
    return [s for s in r.active if not r.poker.folded[s]]


# A bet or raise refused, by the move.
NO_AMOUNT = {"bet": N_("bet needs an amount of at least 1"), "raise": N_("raise needs an amount of at least 1")}
OVER_TOTAL = {
    "bet": N_(
        "bet {amount} would bring your chips in this betting round to {total}, over the limit of {limit} a player"
    ),
    "raise": N_(
        "raise {amount} would bring your chips in this betting round to {total}, over the limit of {limit} a player"
    ),
}
OVER_LIMIT = {"bet": N_("bet exceeds bet_limit {limit}"), "raise": N_("raise exceeds bet_limit {limit}")}


def short_of_chips(move: str, need: int) -> Counted:
    """A bet or raise of more chips than the seat holds (the English says "chips" of one chip too)."""
    if move == "bet":
        return Counted.ngettext(
            "bet {amount} needs {need} chips; you have {stack}",
            "bet {amount} needs {need} chips; you have {stack}",
            need,
        )
    return Counted.ngettext(
        "raise {amount} needs {need} chips; you have {stack}",
        "raise {amount} needs {need} chips; you have {stack}",
        need,
    )


def raise_cap(game: Table) -> int:
    """The largest bet or raise allowed now: ``bet_limit`` per bet or raise, or (scope ``total``)
    what keeps every player's chips in this betting round within ``bet_limit``."""
    lim = game.options.bet_limit
    return lim if game.options.bet_limit_scope == "per-bet" else lim - game.round.poker.current_bet


def showdown(game: Table) -> bool:
    """Award the Pot space: main pot and side pots by contribution levels (docs/rules.md)."""
    r = game.round
    p = r.poker
    space = pot(game)
    live = in_hand(game)
    total = game.mat[space]
    poker_rec: dict[str, Any] = {"winners": [], "hands": {}}
    if len(live) == 1:
        game.payout(space, live[0], total, "poker")
        p.winners = [live[0]]
        poker_rec["winners"] = [live[0]]
        game.emit(ev.PokerWin(seat=live[0], shown=False))
    else:
        chosen = {s: p.chosen[s] or [] for s in live}
        values = {s: evaluate(chosen[s]) for s in live}
        p.showdown = [{"seat": s, "cards": C.to_strs(chosen[s]), "hand": category_name(values[s])} for s in live]
        p.hands = {str(s): category_name(values[s]) for s in live}
        poker_rec["hands"] = dict(p.hands)
        game.emit(
            ev.Showdown(hands={str(s): {"cards": C.to_strs(chosen[s]), "hand": category_name(values[s])} for s in live})
        )
        levels = sorted({p.committed[s] for s in live})
        prev = 0
        main_winners: list[int] | None = None
        for i, level in enumerate(levels):
            layer = sum(min(c, level) - min(c, prev) for c in p.committed)
            if i == 0:
                layer += p.pot_before
            if i == len(levels) - 1:  # chips committed above every live player's level
                layer += sum(max(0, c - level) for c in p.committed)
            eligible = [s for s in live if p.committed[s] >= level]
            best = (min if game.poker_low else max)(values[s] for s in eligible)
            winners = [s for s in eligible if values[s] == best]
            if main_winners is None:
                main_winners = winners
            game.split(space, winners, "poker", min(layer, game.mat[space]))
            prev = level
        order = game.clockwise_from(game.next_active(r.dealer))
        p.winners = [s for s in order if s in (main_winners or [])]
        poker_rec["winners"] = list(p.winners)
    game.log[-1]["poker"] = poker_rec
    return True
