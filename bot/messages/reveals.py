"""Wanagan's reveals in words: who declared which space with which five cards, and who won it or why not.

The engine's :class:`engine.events.Reveal` holds every seat's five cards, its space and whether they
make the space's combination; the winners of each space are the ``wanagan`` payouts that follow it
(a tie too small to split pays nobody). Everything here is public: the rules show the hands together.
Names come from a view whose names are escaped (:func:`bot.messages.text.escaped_view`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.phases.wanagan import WANAGAN_WILD
from engine.textview import cards, name_of, space_label

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
    names = [name_of(view, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def verdict(told: ToldReveal, seat: int, view: Mapping[str, Any]) -> str:
    """Why ``seat``'s declaration won or did not: ``wins``, ``shares it with Bob``, ``beaten by Bob``,
    ``does not qualify (one pair)``."""
    shown = told.reveal.hands[str(seat)]
    if not shown.get("qualifies"):
        return f"does not qualify ({shown.get('hand')})"
    winners = told.winners.get(shown["space"], [])
    if seat in winners:
        others = [s for s in winners if s != seat]
        return f"shares it with {_names(view, others)}" if others else "wins"
    if winners:
        return f"beaten by {_names(view, winners)}"
    return "ties: too few chips to split, they stay"


def reveal_heading(reveal: ev.Reveal) -> str:
    """``Reveal 2``; the fourth names its wild cards."""
    return f"Reveal {reveal.round}" + (f" ({cards(list(WANAGAN_WILD))} wild)" if reveal.round == WILD_ROUND else "")


def declaration(told: ToldReveal, seat: int, view: Mapping[str, Any]) -> str:
    """One seat's declaration: ``Ann declares Full House: K♠ K♥ K♦ 4♣ 4♦ — wins``."""
    shown = told.reveal.hands[str(seat)]
    label = space_label(view, shown["space"])
    return f"{name_of(view, seat)} declares {label}: {cards(shown.get('cards'))} — {verdict(told, seat, view)}"


def reveal_lines(told: ToldReveal, view: Mapping[str, Any]) -> list[str]:
    """A reveal for the log and the results: its heading, then one line per seat."""
    heading = reveal_heading(told.reveal)
    return [f"{heading}: {declaration(told, int(seat), view)}" for seat in told.reveal.hands]


def reveal_board(told: ToldReveal, view: Mapping[str, Any]) -> str:
    """The latest reveal on one line of the table message."""
    parts = [declaration(told, int(seat), view) for seat in told.reveal.hands]
    return f"**{reveal_heading(told.reveal)}:** " + " | ".join(parts)


def latest_reveal(round_events: Sequence[ev.Event]) -> ToldReveal | None:
    """The round's last reveal so far (``round_events``: the round's records), or None."""
    told = told_reveals(round_events)
    return told[-1] if told else None
