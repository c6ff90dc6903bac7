"""Clearing the board at the end of the game: a showdown of fresh hands, or (Cadaco) hands of
Michigan where the 8-9-10 and K-Q pay interest (docs/rules.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import cards as C
from .. import events as ev
from ..events import Event
from ..hands import category_name, evaluate
from ..model import IllegalAction
from ..presets import COMBO, RUN
from ..reasons import Counted
from .base import Phase

if TYPE_CHECKING:
    from ..table import Table


class InterestPrep(Phase):
    """Every space but K-Q, 8-9-10 and the Kitty moves to the Kitty; the shares are fixed now."""

    steps = ("interest-prep",)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        assert r.interest is not None and game.kitty_id is not None
        for sp in game.spaces:
            if sp.trigger == COMBO:
                r.interest[sp.id] = -(-game.mat[sp.id] // 2)
            elif sp.trigger == RUN:
                r.interest[sp.id] = -(-game.mat[sp.id] // 3)
            elif sp.id != game.kitty_id:
                game.move(sp.id, game.kitty_id)
        return True


def after_interest_hand(game: Table) -> None:
    game.emit(ev.PlayoffHandEnd(mat=sum(game.mat.values())))
    game.dealer = game.left_of(game.round.dealer)
    if sum(game.mat.values()) == 0:
        game.finished = True
        game.playoff_result = {
            "method": "michigan-interests",
            "clearing_hands": sum(1 for rec in game.log if rec.get("playoff")),
        }


def showdown_playoff(game: Table, deck: list[int] | None) -> list[Event]:
    """Everything to the Pot, five fresh cards each, best hand takes all.

    Great Lakes has no Pot: its Losers Kitty stays apart for the WORST hand of the same
    showdown, and everything else goes to the centre for the best hand."""
    order = [(game.dealer + k) % game.n for k in range(1, game.n + 1)]
    order = [s for s in order if not game.eliminated[s]]
    events: list[Event] = []
    if deck is None:
        deck = C.full_deck(max(game.n_decks, -(-5 * len(order) // 52)))
        game.rng.shuffle(deck)
    elif len(deck) < 5 * len(order):
        least = 5 * len(order)
        raise IllegalAction(
            Counted.ngettext(
                "the playoff deck must hold at least {count} card",
                "the playoff deck must hold at least {count} cards",
                least,
            ),
            count=least,
        )
    if game.record is not None:
        game.record["playoff_deck"] = C.to_strs(deck)
    losers = game.pot_id if game.poker_low else None
    pot = game.kitty_id if game.poker_low else game.pot_id
    assert pot is not None
    for sid in list(game.mat):
        if sid not in (pot, losers) and game.mat[sid] > 0:
            events.append(ev.Move(from_space=sid, to_space=pot, amount=game.mat[sid]))
            game.mat[pot] += game.mat[sid]
            game.mat[sid] = 0
    hands: dict[int, list[int]] = {s: [] for s in order}
    for i in range(5 * len(order)):
        hands[order[i % len(order)]].append(deck[i])
    values = {s: evaluate(h) for s, h in hands.items()}
    events.append(
        ev.Showdown(
            hands={str(s): {"cards": C.to_strs(h), "hand": category_name(values[s])} for s, h in hands.items()},
        )
    )

    def award(space: str, value: int, reason: str) -> list[int]:
        """The space to the hands of ``value``: ties split, the remainder to the first tied clockwise."""
        winners = [s for s in order if values[s] == value]
        share, rest = divmod(game.mat[space], len(winners))
        for i, w in enumerate(winners):
            amount = share + (rest if i == 0 else 0)
            if amount:
                game.mat[space] -= amount
                game.stacks[w] += amount
                events.append(ev.Payout(space=space, seat=w, amount=amount, reason=reason))
        return winners

    winners = award(pot, max(values.values()), "playoff")
    worst = award(losers, min(values.values()), "playoff worst hand") if losers is not None else None
    result: dict[str, Any] = {
        "winners": winners,
        "hands": {str(s): category_name(values[s]) for s in hands},
        "events": [e.to_dict() for e in events],  # (a summary: the events as saved)
    }
    if worst is not None:
        result["losers"] = worst
    game.playoff_result = result
    game.game_events.extend(events)
    game.finished = True
    return events
