"""The phase protocol, and the card helpers the phases share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .. import cards as C
from ..language import N_
from ..model import Action, IllegalAction
from ..reasons import Card, Counted, Worded
from .names import PhaseName
from .state import Wait

if TYPE_CHECKING:
    from ..table import Table


class Phase:
    """One part of a round: the ``steps`` of a preset's order it starts, and the ``decisions``
    (``Awaiting.phase`` names) it checks and applies.

    ``start`` and ``apply`` return True when the step is over (the round goes on to the next
    step) and False when the step waits for a decision (they called ``Table.wait``): that is
    the one way a step ends. ``check`` raises ``IllegalAction`` and changes nothing.
    """

    steps: ClassVar[tuple[str, ...]] = ()
    decisions: ClassVar[tuple[PhaseName, ...]] = ()

    def start(self, game: Table, step: str) -> bool:
        raise NotImplementedError(f"{type(self).__name__} starts no step {step!r}")

    def check(self, game: Table, a: Action) -> None:
        """Rules beyond the action's name being legal (which the game checks first); none by default."""

    def apply(self, game: Table, a: Action) -> bool:
        raise NotImplementedError(f"{type(self).__name__} takes no decision {a.do!r}")

    def together(self, game: Table) -> list[Wait]:
        """For a decision in ``SIMULTANEOUS``: the waits of every seat the step still asks, in the
        order the step asks them (the wait in play first). Each seat's must not depend on another's
        choice: the choices are held unseen until all are in, then applied in that order."""
        raise NotImplementedError(f"{type(self).__name__} asks nobody at once")

    def resume(self, game: Table) -> bool:
        """Go on after a strict claim was settled (a step that queues claims: ``claims.pay_or_claim``)."""
        raise NotImplementedError(f"{type(self).__name__} queues no claims")


CARD_STRS = tuple(C.to_strs(range(52)))
_CARD_OF = {t: c for c, t in enumerate(CARD_STRS)}
HOLD_ORDER = tuple(((c & 3) << 4) | (c >> 2) for c in range(52))  # C.sort_key as one int


def card_of(text: Any) -> int:
    """``C.parse`` with a fast path for the canonical notation ("TH")."""
    c = _CARD_OF.get(text) if isinstance(text, str) else None
    return C.parse(text) if c is None else c


def cards_of(texts: Any) -> list[int]:
    """``C.parse_many`` with a fast path for the canonical notation ("TH")."""
    try:
        return [_CARD_OF[t] for t in texts]
    except (KeyError, TypeError):
        return C.parse_many(texts)


def unreadable(exc: ValueError) -> IllegalAction:
    """The refusal of a card or suit that cannot be read (``C.parse``'s error): its reason, worded."""
    return IllegalAction(exc.reason) if isinstance(exc, Worded) else IllegalAction.plain(str(exc))


def picked_from(texts: list[str] | None, pool: list[int], count: int, missing: str | Counted) -> list[int]:
    """The ``count`` cards named by ``texts``, all from ``pool`` (a card at most as often as it is
    there); ``missing`` is the refusal when the number is wrong (a catalog sentence; ``{count}`` is the
    number wanted)."""
    if not texts or len(texts) != count:
        raise IllegalAction(missing, count=count)
    try:
        picked = cards_of(texts)
    except ValueError as exc:
        raise unreadable(exc) from None
    rest = list(pool)
    for c in picked:
        if c not in rest:
            held = pool.count(c)
            card = Card(C.to_str(c))
            if not held:
                raise IllegalAction(N_("{card} is not in your hand"), card=card)
            raise IllegalAction(
                Counted.ngettext(
                    "{card} is named {named} times, but your hand holds it once",
                    "{card} is named {named} times, but your hand holds it {held} times",
                    held,
                ),
                card=card,
                named=picked.count(c),
                held=held,
            )
        rest.remove(c)
    return picked
