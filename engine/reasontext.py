"""The engine's reasons (engine/reasons.py) in players' words: cards in each language's names, spaces
by their mat labels, a decision by what the seat is to do ("bet", "miser", "setzen")."""

from __future__ import annotations

from collections.abc import Mapping

from .cardnames import card_names, label_in
from .language import words
from .phases.names import PHASE_TEXTS, PhaseName


class PlayersNames:
    """The facts' names a player reads; ``labels``: the mat's labels by space id (English, as the view
    holds them; each language writes them with :func:`engine.cardnames.label_in`)."""

    def __init__(self, labels: Mapping[str, str] | None = None) -> None:
        self.labels = dict(labels or {})

    def card(self, code: str, language: str) -> str:
        try:
            return card_names(language).pretty_text(code)
        except ValueError:
            return code

    def space(self, space_id: str, language: str) -> str:
        label = self.labels.get(space_id)
        return space_id if label is None else label_in(label, language)

    def phase(self, phase: str, language: str) -> str:
        try:
            text = PHASE_TEXTS[PhaseName(phase)]
        except (ValueError, KeyError):
            return phase
        return words(language).gettext(text.verb or text.status)


def players_names(labels: Mapping[str, str] | None = None) -> PlayersNames:
    """How a player reads the facts of a reason (``labels``: the mat's, by space id; without them a space
    reads as its id)."""
    return PlayersNames(labels)
