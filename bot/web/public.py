"""What of a table may reach a web page: the one place that decides it.

:func:`public_table` copies the fields of the engine's spectator view (``view(None)``) that the pages
draw, and only those: no hand (the spectator view holds none, and it is not copied even so), no
chosen poker five, no sealed choice, no spare hand (only how many cards it has), no event list (the
pages tell a step by its log line, which is public by construction: :func:`step_lines`).

Its words (the game's name, the mat's labels, the phase's title, the hands shown) and the lines are
in the language being read (``bot.i18n.reading``: the table's, for its pages); the cards stay in the
engine's notation (``QH``: the page's script writes them in the page's ranks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import READING, Locale, _
from bot.messages.tablelines import log_lines
from engine import Action
from engine import events as ev
from engine.cardnames import card_names, label_in
from engine.events import Event
from engine.phases.names import PHASE_TEXTS, PhaseName
from engine.textview import describe_action, event_sentence
from engine.viewtypes import GameView

SEAT_FIELDS = ("seat", "name", "stack", "cards", "status", "committed", "played", "is_dealer")
MAT_FIELDS = ("id", "label", "kind", "chips")
TOP_FIELDS = ("preset_name", "round", "ante", "phase", "dealer", "to_act", "acting", "pay_suit", "finished")


class NotTheSpectatorsView(ValueError):
    """A view of some seat (its hand in it) was handed to :func:`public_table`: a bug, refused."""


def _pick(item: Mapping[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    return {name: item[name] for name in fields}


def public_table(view: GameView) -> dict[str, Any]:
    """The page's table from a spectator view (``game.view(None)``): see the module's docstring."""
    if view["viewer"] is not None:
        raise NotTheSpectatorsView(view["viewer"])
    language = READING.get()
    names = card_names(language.value)
    out = _pick(view, TOP_FIELDS)
    out["preset_name"] = _(view["preset_name"])
    out["phase_title"] = phase_title(view["phase"], language)
    out["seats"] = [_pick(seat, SEAT_FIELDS) for seat in view["seats"]]
    out["mat"] = [
        {**_pick(space, MAT_FIELDS), "label": label_in(space["label"], language.value)} for space in view["mat"]
    ]
    poker = view["poker"]
    out["poker"] = {
        "current_bet": poker["current_bet"] if poker else 0,
        "last_action": poker["last_action"] if poker else None,
        "showdown": [
            {"seat": hand["seat"], "cards": list(hand["cards"]), "hand": names.hand(hand["hand"])}
            for hand in (poker["showdown"] if poker else None) or []
        ],
        "winners": list(poker["winners"]) if poker else [],
    }
    michigan = view["michigan"]
    out["michigan"] = {
        "sequence": list(michigan["sequence"]) if michigan else [],
        "last_card": michigan["last_card"] if michigan else None,
        "out": michigan["out"] if michigan else None,
    }
    spare = view["spare"]
    auction = spare["auction"] if spare else None
    out["spare"] = {
        "cards": spare["cards"] if spare else 0,
        "high_bid": auction["high_bid"] if auction else None,
        "high_bidder": auction["high_bidder"] if auction else None,
    }
    corner = view["corner"]
    out["corner"] = {"ace": corner["ace"], "amount": corner["amount"]} if corner else None
    out["standings"] = [_pick(row, ("seat", "name", "stack", "net")) for row in view["standings"]]
    return out


def phase_title(phase: str, language: Locale) -> str | None:
    """The phase's title in ``language`` (None in English: the page writes the phase's name, ``poker
    choose``, as it always has)."""
    if language is Locale.EN:
        return None
    try:
        return _(PHASE_TEXTS[PhaseName(phase)].title)
    except (ValueError, KeyError):
        return None


def step_lines(before: GameView, action: Action | None, events: Sequence[Event]) -> list[str]:
    """The log lines of one step, as a spectator reads them: the decision in the table's public words
    (a chosen poker five stays secret), then what it did worth a line (``before``: the spectator view
    before the step, for the names and the phase it was decided in). Plain text: the pages escape it."""
    lines = []
    if action is not None:
        lines.append(describe_action(before, action.to_dict(), events, before["phase"]))
    lines.extend(log_lines(list(events), before))
    return [line for line in lines if line]


def live_lines(events: Sequence[Event], view: GameView) -> list[str]:
    """The live page's lines for ``events``: the table's log (:func:`bot.tables.log.log_lines`) and the
    decisions the events tell in the engine's public words (bets, calls, plays, "picks five poker
    cards": never a chosen card); the antes and the chips going to a space are left out."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, (ev.Ante, ev.ToSpace)):
            continue
        told = log_lines([event], view)
        if not told and not isinstance(event, ev.Reveal):
            sentence = event_sentence(event, view)
            told = [sentence[:1].upper() + sentence[1:]] if sentence else []
        lines.extend(told)
    return lines
