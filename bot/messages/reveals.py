"""Wanagan's reveals in words: who declared which space with which five cards, and who won it or why not.

The engine's :class:`engine.events.Reveal` holds every seat's five cards, its space and whether they
make the space's combination; the winners of each space are the ``wanagan`` payouts that follow it
(a tie too small to split pays nobody). Everything here is public: the rules show the hands together; it is read in the language being read
(the table's, as the table message and the log are made).
Names come from a view whose names are escaped (:func:`bot.messages.text.escaped_view`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import READING, _
from bot.messages.handtext import spoken_label
from bot.messages.text import cards
from engine import events as ev
from engine.cardnames import card_names
from engine.phases.wanagan import WANAGAN_WILD
from engine.textview import name_of

WANAGAN_PAYOUT = "wanagan"
WILD_ROUND = 4  # the reveal round in which WANAGAN_WILD are wild (engine.phases.wanagan)


@dataclass(frozen=True, slots=True)
class ToldReveal:
    """A reveal and, per space, the seats its chips went to."""

    reveal: ev.Reveal
    winners: dict[str, list[int]]


def told_reveals(events: Sequence[ev.Event]) -> list[ToldReveal]:
    """Every reveal among ``events`` (records, in order) with the winners its payouts name."""
    out: list[ToldReveal] = []
    for i, event in enumerate(events):
        if not isinstance(event, ev.Reveal):
            continue
        winners: dict[str, list[int]] = {}
        for after in events[i + 1 :]:
            if not (isinstance(after, ev.Payout) and after.reason == WANAGAN_PAYOUT):
                break
            winners.setdefault(after.space, []).append(after.seat)
        out.append(ToldReveal(event, winners))
    return out


def _names(view: Mapping[str, Any], seats: Sequence[int]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    names = [name_of(view, s) for s in seats]
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def hand_name(english: str | None) -> str:
    """A poker hand's English name (``engine.hands.category_name``) in the language being read."""
    return card_names(READING.get()).hand(english or "")


def verdict(told: ToldReveal, seat: int, view: Mapping[str, Any]) -> str:
    """Why ``seat``'s declaration won or did not: ``wins``, ``shares it with Bob``, ``beaten by Bob``,
    ``does not qualify (one pair)``."""
    shown = told.reveal.hands[str(seat)]
    if not shown.get("qualifies"):
        return _("does not qualify ({hand})").format(hand=hand_name(shown.get("hand")))
    winners = told.winners.get(shown["space"], [])
    if seat in winners:
        others = [s for s in winners if s != seat]
        return _("shares it with {names}").format(names=_names(view, others)) if others else _("wins")
    if winners:
        return _("beaten by {names}").format(names=_names(view, winners))
    return _("ties: too few chips to split, they stay")


def reveal_heading(reveal: ev.Reveal) -> str:
    """``Reveal 2``; the fourth names its wild cards."""
    if reveal.round == WILD_ROUND:
        return _("Reveal {round} ({cards} wild)").format(round=reveal.round, cards=cards(list(WANAGAN_WILD)))
    return _("Reveal {round}").format(round=reveal.round)


def declaration(told: ToldReveal, seat: int, view: Mapping[str, Any]) -> str:
    """One seat's declaration: ``Ann declares Full House: K♠ K♥ K♦ 4♣ 4♦ — wins``."""
    shown = told.reveal.hands[str(seat)]
    return _("{name} declares {space}: {cards} — {verdict}").format(
        name=name_of(view, seat),
        space=spoken_label(view, shown["space"]),
        cards=cards(shown.get("cards")),
        verdict=verdict(told, seat, view),
    )


def reveal_lines(told: ToldReveal, view: Mapping[str, Any]) -> list[str]:
    """A reveal for the log and the results: its heading, then one line per seat."""
    heading = reveal_heading(told.reveal)
    return [
        _("{heading}: {declaration}").format(heading=heading, declaration=declaration(told, int(seat), view))
        for seat in told.reveal.hands
    ]


def reveal_board(told: ToldReveal, view: Mapping[str, Any]) -> str:
    """The latest reveal on one line of the table message."""
    parts = [declaration(told, int(seat), view) for seat in told.reveal.hands]
    return _("**{heading}:** {declarations}").format(
        heading=reveal_heading(told.reveal), declarations=" | ".join(parts)
    )


def latest_reveal(round_events: Sequence[ev.Event]) -> ToldReveal | None:
    """The round's last reveal so far (``round_events``: the round's records), or None."""
    told = told_reveals(round_events)
    return told[-1] if told else None
