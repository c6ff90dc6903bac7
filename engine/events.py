"""The event vocabulary: one small typed record per thing that can happen (docs/engine-api.md).

The engine emits these records (``Payout(space="AH", seat=2, amount=3, reason="placed")``);
code that tells or counts events dispatches on their classes. At the edges (saves, replays,
views, ``--trace``) a record is its dict, ``{"type": "payout", "space": "AH", ...}``: the
``type`` first, then the fields in the order below; a field with a default is left out while it
holds that default (a ``pass`` is ``forced`` only when it was). ``Event.from_dict`` reads such a
dict back. A record also reads as that dict (``e["seat"]``, ``e.get("reason")``, ``e == {...}``),
for code and tests that look at the serialised shape.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import Enum, StrEnum
from typing import Any, ClassVar, Self, TypeVar, cast, dataclass_transform

EventT = TypeVar("EventT", bound="Event")

#: Every record class by its ``type``: what ``Event.from_dict`` reads.
EVENT_TYPES: dict[str, type[Event]] = {}


class EndReason(StrEnum):
    """Why a game ended (``GameEnd.reason``); the value is both its saved form and its words."""

    ROUND_LIMIT = "round limit"
    TIME_LIMIT = "time limit"
    ONE_LEFT = "one player left"
    TOO_FEW = "fewer than two players can pay the ante"
    HOST_STOP = "stopped by the host"


class Event(Mapping[str, Any]):
    """A record of something that happened; each subclass is one ``type`` of the vocabulary."""

    __slots__ = ()
    type: ClassVar[str]
    #: (field name, default or ``dataclasses.MISSING``) in order: the serialised layout.
    layout: ClassVar[tuple[tuple[str, Any], ...]]

    def to_dict(self) -> dict[str, Any]:
        """The record as saved and replayed: ``{"type": ..., field: value, ...}``."""
        out: dict[str, Any] = {"type": self.type}
        for name, default in self.layout:
            value = getattr(self, name)
            if default is not dataclasses.MISSING and value == default:
                continue
            out[name] = value.value if isinstance(value, Enum) else value
        return out

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Event:
        """The record a saved dict describes; ValueError for an unknown type or fields."""
        if isinstance(data, Event):
            return data
        kind = data.get("type")
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ValueError(f"unknown event type {kind!r}")
        try:
            return cls.from_fields({k: v for k, v in data.items() if k != "type"})
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad {kind} event: {exc}") from None

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Self:
        """The record of these saved fields (a record with an enum field reads its value)."""
        return cls(**fields)

    # -- read as its dict --------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.type
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Event):
            return self.to_dict() == other.to_dict()
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented


@dataclass_transform(kw_only_default=True, frozen_default=True)
def event(type_name: str) -> Callable[[type[EventT]], type[EventT]]:
    """Make the class a frozen record of ``type_name`` and register it."""

    def make(cls: type[EventT]) -> type[EventT]:
        record = dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)(cls)
        record.type = type_name
        record.layout = tuple((f.name, f.default) for f in dataclasses.fields(cast(Any, record)))
        EVENT_TYPES[type_name] = record
        return record

    return make


def as_events(items: Iterable[Mapping[str, Any]]) -> list[Event]:
    """Records from records or their dicts (a view's events are dicts)."""
    return [Event.from_dict(e) for e in items]


# ---------------------------------------------------------------- chips
@event("ante")
class Ante(Event):
    seat: int
    space: str
    amount: int


@event("payout")
class Payout(Event):
    space: str
    seat: int
    amount: int
    reason: str


@event("transfer")
class Transfer(Event):
    from_seat: int
    to_seat: int
    amount: int
    reason: str


@event("to_space")
class ToSpace(Event):
    seat: int
    space: str
    amount: int
    reason: str


@event("move")
class Move(Event):
    from_space: str
    to_space: str
    amount: int


# ---------------------------------------------------------------- the round
@event("round-start")
class RoundStart(Event):
    round: int
    dealer: int
    ante: int


@event("sit-out")
class SitOut(Event):
    seat: int


@event("deal")
class Deal(Event):
    cards: dict[str, int]  # seat → cards dealt
    spare: int


@event("round-end")
class RoundEnd(Event):
    round: int
    stacks: list[int]


@event("abandoned")
class Abandoned(Event):
    round: int


@event("eliminated")
class Eliminated(Event):
    seat: int


@event("cut")
class Cut(Event):
    cards: dict[str, str]  # seat → the card it cut


# ---------------------------------------------------------------- spare hand, auctions, the optional suit
@event("keep")
class Keep(Event):
    seat: int


@event("swap")
class Swap(Event):
    seat: int
    reason: str  # blind, looked, bought


@event("auction")
class Auction(Event):
    kind: str  # spare or suit


@event("bid")
class Bid(Event):
    seat: int
    amount: int
    kind: str


@event("pass")
class Pass(Event):
    seat: int
    kind: str
    forced: bool = False  # could not outbid


@event("no-bids")
class NoBids(Event):
    pass


@event("suit")
class PaySuit(Event):
    seat: int | None = None  # None: nobody bid
    suit: str
    reason: str | None = None


# ---------------------------------------------------------------- claims
@event("unclaimed")
class Unclaimed(Event):
    seat: int
    space: str


# ---------------------------------------------------------------- poker
@event("choose")
class Choose(Event):
    seat: int


@event("check")
class Check(Event):
    seat: int


@event("fold")
class Fold(Event):
    seat: int


@event("call")
class Call(Event):
    seat: int
    amount: int
    all_in: bool


@event("bet")
class Bet(Event):
    seat: int
    amount: int
    all_in: bool


@event("raise")
class Raise(Event):
    seat: int
    amount: int
    all_in: bool


@event("showdown")
class Showdown(Event):
    hands: dict[str, dict[str, Any]]  # seat → {"cards": [...], "hand": category}


@event("poker-win")
class PokerWin(Event):
    seat: int
    shown: bool


# ---------------------------------------------------------------- Michigan
@event("play")
class Play(Event):
    seat: int
    card: str
    how: str  # lead, follow, or the combination placed


@event("stop")
class Stop(Event):
    seat: int
    card: str
    reason: str | None = None  # "full house": a full house ends the sequence


@event("out")
class Out(Event):
    seat: int


@event("stuck")
class Stuck(Event):
    pass


@event("cannot-lead")
class CannotLead(Event):
    seat: int
    paid: int


@event("colour-flip")
class ColourFlip(Event):
    colour: str | None


# ---------------------------------------------------------------- Wanagan
@event("passing")
class Passing(Event):
    seat: int
    round: int


@event("pass-cards")
class PassCards(Event):
    round: int
    direction: str


@event("chosen")
class Chosen(Event):
    seat: int
    round: int


@event("reveal")
class Reveal(Event):
    round: int
    hands: dict[str, dict[str, Any]]  # seat → {"cards", "space", "qualifies", "hand"}


@event("wanagan-end")
class WanaganEnd(Event):
    rounds: int


# ---------------------------------------------------------------- Rummy Royal corners
@event("corner-decline")
class CornerDecline(Event):
    seat: int


@event("corner-stays")
class CornerStays(Event):
    space: str
    holder: int | None


# ---------------------------------------------------------------- the game
@event("game-end")
class GameEnd(Event):
    reason: EndReason

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Self:
        return cls(**{**fields, "reason": EndReason(fields["reason"])})


@event("switch-preset")
class SwitchPreset(Event):
    preset: str
    carried: int
    to_space: str


@event("playoff-hand")
class PlayoffHand(Event):
    method: str


@event("playoff-hand-end")
class PlayoffHandEnd(Event):
    mat: int
