"""The shape of a seat's view (``Game.view``, docs/engine-api.md "View") as ``TypedDict``s.

Every key is always there unless marked ``NotRequired`` (``legal`` and ``detail`` are only in
the view of a seat that may act now); ``None`` is a value, not an absence. This module imports
nothing of ours, so the phases, the view and every reader can share it without a circle. (No
``from __future__ import annotations`` here: Python 3.11 could not then tell ``NotRequired`` keys.)
"""

from typing import Any, Literal, NotRequired, TypedDict

SeatStatus = Literal["active", "eliminated", "sitting-out", "folded"]


class SeatView(TypedDict):
    """One seat as everyone sees it (its cards only as a count)."""

    seat: int
    name: str
    stack: int
    cards: int
    status: SeatStatus
    committed: int  # chips bet in this poker betting round
    played: list[str]  # the cards it placed in Michigan this round
    is_dealer: bool


class SpaceView(TypedDict):
    """A space of the mat and the chips on it (``kind``: what pays it, ``Space.trigger``)."""

    id: str
    label: str
    kind: str
    chips: int


class ShowdownHand(TypedDict):
    """A poker hand shown at the showdown."""

    seat: int
    cards: list[str]
    hand: str  # its category name, e.g. "flush"


class PokerView(TypedDict):
    chosen: list[str] | None  # the viewer's own five, once chosen
    current_bet: int
    last_action: str  # "" before anyone acts
    showdown: list[ShowdownHand] | None
    winners: list[int]


class MichiganView(TypedDict):
    sequence: list[str]
    last_card: str | None
    out: int | None  # the seat that went out
    played: int  # cards placed this round


class AuctionView(TypedDict):
    high_bid: int
    high_bidder: int | None
    kind: str  # "spare" or "suit"


class SpareView(TypedDict):
    cards: int
    auction: AuctionView | None


class CornerView(TypedDict):
    ace: str
    amount: int
    backers: list[int]


class Standing(TypedDict):
    seat: int
    name: str
    stack: int
    net: int  # chips won (negative: lost) since the start


class GameView(TypedDict):
    """What one seat (``viewer``; ``None``: a spectator) may know of the game."""

    preset: str
    preset_name: str
    round: int
    ante: int
    phase: str
    dealer: int
    to_act: int | None
    viewer: int | None
    pay_suit: str
    seats: list[SeatView]
    mat: list[SpaceView]
    hand: list[str] | None  # the viewer's cards only
    poker: PokerView | None  # None before the first deal (and the same for michigan, spare)
    michigan: MichiganView | None
    spare: SpareView | None
    events: list[dict[str, Any]]  # the round's last public events (``Event.to_dict``)
    chip_denominations: dict[str, int]
    finished: bool
    standings: list[Standing]
    corner: CornerView | None
    acting: list[int]  # the seats that may act now (several: a step decided at once)
    sealed: dict[str, Any] | None  # the viewer's own choice held unseen (``Action.to_dict``)
    legal: NotRequired[list[str]]  # only when the viewer may act now, like ``detail``
    detail: NotRequired[dict[str, Any]]  # ``Awaiting.detail``: its keys depend on the phase
