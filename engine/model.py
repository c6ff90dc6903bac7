"""The records that cross the engine's edge: actions in, waits out (events: ``engine.events``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .reasons import Names, Worded


class IllegalAction(Worded):
    """An action the rules refuse; the message says which rule, for the player: ``str()`` in English
    and the engine's notation, :meth:`in_language` in the player's language and words (engine/reasons.py)."""

    def in_language(self, language: str | None = None, names: Names | None = None) -> str:
        """The reason in ``language`` (None: ``engine.language.LANGUAGE``'s), cards in that language's names
        and phases as what the seat is to do (``names``: how the facts are named; spaces by their labels
        with :func:`engine.reasontext.players_names` of a view's labels)."""
        from .reasontext import players_names

        return super().in_language(language, players_names() if names is None else names)


class Action(BaseModel):
    """One decision by one seat, as in the replay format (`{"seat": 0, "do": "bet", "amount": 5}`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    do: str
    amount: int | None = None
    cards: list[str] | None = None
    card: str | None = None
    suit: str | None = None
    space: str | None = None
    ace: str | None = None

    @field_validator("do")
    @classmethod
    def _lower(cls, v: str) -> str:
        return v.strip().lower().replace("-", "_")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls.model_validate(data)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)

    def describe(self) -> str:
        """Short text for messages: ``raise 30``, ``lead 4C``, ``choose AS KS QS JS TS``."""
        parts = [self.do]
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.card:
            parts.append(self.card)
        if self.suit:
            parts.append(self.suit)
        if self.ace:
            parts.append(self.ace)
        if self.cards:
            parts.append(" ".join(self.cards))
        if self.space:
            parts.append(f"on {self.space}")
        return " ".join(parts)


@dataclass
class Awaiting:
    """Who the engine waits for, in which phase, with what choices."""

    seat: int
    phase: str
    legal: list[str]
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase, "legal": list(self.legal), "detail": self.detail}


class SavedGame(BaseModel):
    """The save format (``Game.to_json``): validated on load so a damaged save fails loudly."""

    model_config = ConfigDict(extra="forbid")

    format: int = 1
    preset: str
    options: dict[str, Any]
    players: list[str]
    state: dict[str, Any] = Field(default_factory=dict)
