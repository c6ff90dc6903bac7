"""What a round keeps for each phase (``RoundState``'s typed parts) and the decision it waits
for: plain data, below the table, so that ``engine.table`` holds them without importing the
phases' rules (which work on the table)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Wait:
    """The decision the round waits for: ``seat`` to choose one of ``legal`` in ``phase``."""

    seat: int
    phase: str
    legal: list[str]
    detail: dict[str, Any]


@dataclass(slots=True)
class AuctionState:
    kind: str  # "spare" or "suit"
    stage: str  # the spare-hand stage the auction was opened from ("" for the suit)
    bidders: list[int]  # still bidding, in turn
    turn: int = 0  # index into ``bidders``
    high: int = 0
    high_bidder: int | None = None


@dataclass(slots=True)
class Share:
    space: str
    chips: int | None  # the share fixed when won (a shared space), or None: the whole space


@dataclass(slots=True)
class Claim:
    """What one seat may claim now: every space it won at once."""

    seat: int
    shares: list[Share] = field(default_factory=list)


@dataclass(slots=True)
class CornerState:
    ace: str  # "AH", ...
    amount: int
    backers: list[int] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)  # seats still to be asked to cover


@dataclass(slots=True)
class LeadRequirement:
    """What the next lead must be: the ``lowest`` card or a ``chosen`` suit's lowest, perhaps
    not of suit ``exclude`` or only of ``colour``."""

    kind: str  # "lowest" or "chosen"
    exclude: int | None = None
    colour: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.exclude is not None:
            out["exclude"] = self.exclude
        if self.colour is not None:
            out["colour"] = self.colour
        return out


@dataclass(slots=True)
class MichiganState:
    state: str = ""  # "lead" or "follow"
    seat: int = -1  # who leads next, or who placed the last card
    last: int = -1  # the last card placed
    lead_req: LeadRequirement = field(default_factory=lambda: LeadRequirement("lowest"))
    passes: int = 0  # seats in a row that could not lead
    seq: list[int] = field(default_factory=list)  # cards of the current sequence
    played: list[int] = field(default_factory=list)  # every card placed, in order
    played_by: list[int] = field(default_factory=list)
    out: int | None = None
    stuck: bool = False


@dataclass(slots=True)
class PayTriggers:
    """What placing a card pays in the hand being played (built from the mat, not saved)."""

    card_pays: dict[int, list[str]] = field(default_factory=dict)  # card → spaces it pays
    combo_pays: list[tuple[str, list[int]]] = field(default_factory=list)  # space, cards in a row
    run_pays: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)  # space, ranks of one suit
    lead_pays: list[tuple[str, str, int]] = field(default_factory=list)  # space, LEAD or ACE_TWO, rank
    play_combos: dict[str, str] = field(default_factory=dict)  # action "full_house"/"straight" → space
    interest_pays: dict[int, list[str]] = field(default_factory=dict)  # board clearing: card → spaces


@dataclass(slots=True)
class PokerState:
    chosen: list[list[int] | None] = field(default_factory=list)  # per seat: the five cards chosen
    choose_queue: list[int] = field(default_factory=list)
    folded: list[bool] = field(default_factory=list)
    committed: list[int] = field(default_factory=list)  # per seat: chips bet this betting round
    current_bet: int = 0
    need: list[int] = field(default_factory=list)  # seats still to act, in turn
    pot_before: int = 0
    winners: list[int] = field(default_factory=list)
    showdown: list[dict[str, Any]] | None = None
    hands: dict[str, str] = field(default_factory=dict)  # seat → category shown
    last_action: str = ""
    dealt: list[list[int]] = field(default_factory=list)  # hands as dealt (Rulebook poker after Michigan)


@dataclass(slots=True)
class Pick:
    """A seat's choice in a reveal round: five cards and the space declared (None: cards to pass)."""

    cards: list[int]
    space: str | None = None


@dataclass(slots=True)
class WanaganState:
    round: int = 0
    stage: str = ""  # "pass" or "reveal"
    queue: list[int] = field(default_factory=list)  # seats still to choose, in turn
    picks: list[Pick | None] = field(default_factory=list)  # per seat
