"""Why the engine refuses: a reason is a catalog sentence and its facts, worded in any language.

A refusal (``engine.model.IllegalAction``, a bad option, a card that cannot be read) is raised as a
:class:`Worded` error with its sentence, ``N_``-marked English with named placeholders, and the facts
that fill them::

    raise IllegalAction(N_("bid must be at least {min} (the high bid is {high})"), min=5, high=4)

``str(exc)`` is the English sentence with the facts as the engine writes them (card codes ``TH``, space
ids, phase names: what the replay files, the logs and the tests read); :meth:`Worded.in_language` the
same sentence in another language, its facts named by a :class:`Names` (cards in that language's
names, spaces by their labels: ``engine.reasontext`` gives the engine's). A count that decides the
wording takes :meth:`Counted.ngettext`, so that each language has its own plural forms.

This module imports nothing of ours but the catalogs (``engine.language``), so every part of the
engine can raise with it (``engine.cards`` included).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from .language import LANGUAGE, N_, SOURCE, words


class Card(str):
    """A card fact in the engine's notation (``TH``), named in each language (``10♥``, ``R♥``)."""


class Space(str):
    """A mat space's id (``AH2``), named by its label where the mat is known."""


class Phase(str):
    """A decision's name (``poker-betting``), named by what the seat awaited is to do ("bet")."""


class Text(str):
    """A text of the catalogs (a game's name), looked up in the language worded."""


@dataclass(frozen=True)
class Listed:
    """Facts one after the other, ``sep`` between them (``AH, KH``; a combination's cards by spaces)."""

    items: tuple[Any, ...]
    sep: str = ", "


@dataclass(frozen=True)
class Either:
    """Facts offered as alternatives: ``A or B or C``, the "or" in each language's words."""

    items: tuple[Any, ...]


class Names(Protocol):
    """How a language names the facts that are the engine's codes."""

    def card(self, code: str, language: str) -> str: ...

    def space(self, space_id: str, language: str) -> str: ...

    def phase(self, phase: str, language: str) -> str: ...


class CodeNames:
    """The engine's own notation, in every language: what ``str(exc)`` shows."""

    def card(self, code: str, language: str) -> str:
        return code

    def space(self, space_id: str, language: str) -> str:
        return space_id

    def phase(self, phase: str, language: str) -> str:
        return phase


CODES = CodeNames()
#: Alternatives, two at a time (``A or B``, then ``A or B`` or ``C``): in each language's words.
OR = N_("{first} or {second}")


@dataclass(frozen=True)
class Counted:
    """A sentence whose wording a count decides: its singular, its plural and the count."""

    singular: str
    plural: str
    count: int

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: int) -> Counted:
        """Marks the two forms for the catalogs (``pybabel`` reads the call as ``ngettext``)."""
        return cls(singular, plural, count)


@dataclass(frozen=True)
class Reason:
    """A sentence of the catalogs (or a plain text, ``literal``) and the facts its placeholders name."""

    template: str | Counted
    facts: Mapping[str, Any] = field(default_factory=dict)
    literal: bool = False

    def text(self, language: str = SOURCE, names: Names = CODES) -> str:
        """The sentence in ``language``, its facts named by ``names``."""
        if self.literal:
            assert isinstance(self.template, str)
            return self.template
        found = words(language)
        if isinstance(self.template, Counted):
            sentence = found.ngettext(self.template.singular, self.template.plural, self.template.count)
        else:
            sentence = found.gettext(self.template)
        if not self.facts:
            return sentence
        return sentence.format(**{key: fact_text(value, language, names) for key, value in self.facts.items()})


def fact_text(fact: Any, language: str, names: Names) -> str:
    """One fact in ``language``'s words."""
    if isinstance(fact, Reason):
        return fact.text(language, names)
    if isinstance(fact, Card):
        return names.card(str(fact), language)
    if isinstance(fact, Space):
        return names.space(str(fact), language)
    if isinstance(fact, Phase):
        return names.phase(str(fact), language)
    if isinstance(fact, Text):
        return words(language).gettext(str(fact))
    if isinstance(fact, Listed):
        return fact.sep.join(fact_text(item, language, names) for item in fact.items)
    if isinstance(fact, Either):
        texts = [fact_text(item, language, names) for item in fact.items]
        joined = texts[0] if texts else ""
        for text in texts[1:]:
            joined = words(language).gettext(OR).format(first=joined, second=text)
        return joined
    return str(fact)


def cards(codes: Any, sep: str = ", ") -> Listed:
    """Card codes as one fact (``AH, KH``)."""
    return Listed(tuple(Card(code) for code in codes), sep)


class Worded(ValueError):
    """A refusal whose message is a :class:`Reason`: ``str()`` is its English, in the engine's notation;
    :meth:`in_language` the same in another language. Raised with the sentence and its facts
    (``Worded(N_("... {min} ..."), min=5)``, ``Worded(N_("the game is over"))``) or a ready
    :class:`Reason`; :meth:`plain` for a text that is no catalog sentence (worded the same everywhere)."""

    def __init__(self, reason: str | Counted | Reason, /, **facts: Any) -> None:
        self.reason = reason if isinstance(reason, Reason) else Reason(reason, facts)
        super().__init__(self.reason.text())

    @classmethod
    def plain(cls, text: str) -> Self:
        """A refusal in a text of no catalog (another error's message): the same in every language."""
        return cls(Reason(text, literal=True))

    def in_language(self, language: str | None = None, names: Names = CODES) -> str:
        """The reason in ``language`` (None: ``engine.language.LANGUAGE``'s), its facts named by ``names``."""
        return self.reason.text(LANGUAGE.get() if language is None else language, names)
