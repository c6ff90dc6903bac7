"""What one seat may know when it decides, for players written in code (``engine.ai``).

``Game.observe(seat)`` gives the pending decision, the seat's own cards and chips, the public
mat, and the rules of this mat worked out for that seat: which cards pay when placed, what a
lead would pay, where a combination play is paid. Nothing in it is another seat's secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .options import Options
from .phases.base import card_of
from .phases.michigan import lead_pays
from .presets import FULL_HOUSE_PLAY, STRAIGHT_PLAY, Space

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True)
class Observation:
    """The seat's view for deciding: read it, never change it (it shares the game's data)."""

    seat: int
    phase: str  # the decision awaited from this seat
    legal: list[str]
    detail: Mapping[str, Any]  # ``Awaiting.detail``
    hand: list[int]  # the seat's cards
    stack: int
    options: Options
    spaces: tuple[Space, ...]  # the mat's layout
    mat: Mapping[str, int]  # chips per space
    pot: str | None  # the poker space
    poker_low: bool  # the poker space goes to the worst hand (Losers Kitty)
    chosen: list[int] | None  # the seat's poker hand, once chosen
    opponents_in_hand: int  # other seats still in the poker hand
    pays_when_placed: Mapping[int, list[str]]  # Michigan: card → spaces it pays when placed
    combo_spaces: Mapping[str, str]  # Great Lakes: "full_house"/"straight" → the space it pays
    money_cards: frozenset[int]  # cards that pay on this mat (Rulebook: such a hand is not swapped or bought)
    lead_spaces: Mapping[int, list[str]]  # Michigan lead: each card on offer → the spaces leading it pays


_PLAYS = {FULL_HOUSE_PLAY: "full_house", STRAIGHT_PLAY: "straight"}


def observe(game: Table, seat: int) -> Observation:
    r = game.r
    w = None if game.finished or r is None else r.wait
    if r is None or w is None or w.seat != seat:
        raise ValueError(f"seat {seat} is not to act")
    p = r.poker
    t = game.triggers
    options = w.detail.get("cards", ()) if w.phase == "michigan-lead" else ()
    return Observation(
        seat=seat, phase=w.phase, legal=w.legal, detail=w.detail, hand=r.hands[seat], stack=game.stacks[seat],
        options=game.options, spaces=game.spaces, mat=game.mat, pot=game.pot_id, poker_low=game.poker_low,
        chosen=p.chosen[seat] if p.chosen else None,
        opponents_in_hand=len([s for s in r.active if not p.folded[s] and s != seat]),
        pays_when_placed=t.card_pays, combo_spaces={_PLAYS[k]: v for k, v in t.play_combos.items()},
        money_cards=game.money_cards(),
        lead_spaces={c: [sid for sid, _ in lead_pays(game, seat, c)] for c in map(card_of, options)},
    )
