"""What one seat may know when it decides, for players written in code (``engine.ai``).

``Game.observe(seat)`` gives the pending decision, the seat's own cards and chips, the public
mat, and the rules of this mat worked out for that seat: which cards pay when placed, what a
lead would pay, where a combination play is paid. Nothing in it is another seat's secret.
Everything is read from the game when asked (an AI decides often), so read an observation
at once and never change what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .options import Options
from .phases.michigan import lead_pays
from .presets import Space

if TYPE_CHECKING:
    from .table import RoundState, Table


class Observation:
    """The seat to act's view for deciding."""

    __slots__ = ("_game", "_round", "detail", "legal", "phase", "seat")

    def __init__(self, game: Table, seat: int) -> None:
        r = game.r
        w = None if game.finished or r is None else game.wait_of(seat)  # (any seat of a step decided at once)
        if r is None or w is None:
            raise ValueError(f"seat {seat} is not to act")
        self._game = game
        self._round: RoundState = r
        self.seat = seat
        self.phase: str = w.phase  # the decision awaited from this seat
        self.legal: list[str] = w.legal
        self.detail: Mapping[str, Any] = w.detail  # ``Awaiting.detail``

    @property
    def hand(self) -> list[int]:
        """The seat's cards."""
        return self._round.hands[self.seat]

    @property
    def stack(self) -> int:
        return self._game.stacks[self.seat]

    @property
    def options(self) -> Options:
        return self._game.options

    @property
    def spaces(self) -> tuple[Space, ...]:
        """The mat's layout."""
        return self._game.spaces

    @property
    def mat(self) -> Mapping[str, int]:
        """Chips per space."""
        return self._game.mat

    @property
    def pot(self) -> str | None:
        """The poker space."""
        return self._game.pot_id

    @property
    def poker_low(self) -> bool:
        """The poker space goes to the worst hand (Losers Kitty)."""
        return self._game.poker_low

    @property
    def chosen(self) -> list[int] | None:
        """The seat's poker hand, once chosen."""
        return self._round.poker.chosen[self.seat]

    @property
    def opponents_in_hand(self) -> int:
        """Other seats still in the poker hand."""
        folded = self._round.poker.folded
        return sum(1 for s in self._round.active if not folded[s] and s != self.seat)

    @property
    def money_cards(self) -> frozenset[int]:
        """Cards that pay on this mat (Rulebook: such a hand is not swapped or bought)."""
        return self._game.money_cards()

    @property
    def pays_when_placed(self) -> Mapping[int, list[str]]:
        """Michigan: card → the spaces it pays when placed."""
        return self._game.triggers.card_pays

    @property
    def combo_spaces(self) -> Mapping[str, str]:
        """Great Lakes: ``full_house``/``straight`` → the space that play pays."""
        return self._game.triggers.play_combos

    def lead_spaces(self, card: int) -> list[str]:
        """Michigan: the spaces leading ``card`` now would pay this seat."""
        return [sid for sid, _ in lead_pays(self._game, self.seat, card)]
