"""Buttons and selects as plain data, built from the table state.

Every component's ``custom_id`` is ``tripoley:<table_id>:<round>:<action>``
(lobby: round 0), so a click is routed after a restart and a click on an old
round's message is recognised as stale. ``bot.ui`` turns these specs into
``discord.ui`` dynamic items.

Actions: ``join`` ``leave`` ``ai`` ``start`` (lobby); ``hand`` ``back``
(table); ``do.<verb>`` (no argument), ``amt.<verb>`` (asks an amount),
``suit.<S>`` (name a suit), ``lead.<card>``, ``best`` (best five); selects
``pick.choose`` and ``pick.lead``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .text import ACTION_LABELS, SUIT_NAMES, SUIT_SYMBOLS, card

PREFIX = "tripoley"
ACTION_RE = r"[A-Za-z0-9_.\-]+"
BUTTON_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>(?!pick\.){ACTION_RE})"
ANY_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>{ACTION_RE})"
SELECT_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>pick\.{ACTION_RE})"

# Verbs that take no argument and may be shown on the public table message.
PUBLIC_VERBS = ("check", "call", "fold", "keep", "swap", "look", "auction", "pass", "claim")
AMOUNT_VERBS = ("bet", "raise", "bid", "suit_bid")

PRIMARY, SECONDARY, SUCCESS, DANGER = "primary", "secondary", "success", "danger"


def custom_id(table_id: int, round_number: int, action: str) -> str:
    cid = f"{PREFIX}:{table_id}:{round_number}:{action}"
    if len(cid) > 100:
        raise ValueError("custom_id longer than 100 characters")
    return cid


def parse_custom_id(cid: str) -> tuple[int, int, str] | None:
    match = re.fullmatch(ANY_TEMPLATE, cid)
    if not match:
        return None
    return int(match["table"]), int(match["round"]), match["action"]


@dataclass(frozen=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: str = SECONDARY
    row: int = 0
    emoji: str | None = None


@dataclass(frozen=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]  # (label, value)
    min_values: int = 1
    max_values: int = 1
    row: int = 0
    defaults: tuple[str, ...] = field(default=())


Component = ButtonSpec | SelectSpec


def verb_style(verb: str) -> str:
    if verb in ("fold",):
        return DANGER
    if verb in ("call", "check", "claim", "keep"):
        return SUCCESS
    if verb in AMOUNT_VERBS:
        return PRIMARY
    return SECONDARY


def lobby_components(table) -> list[Component]:
    r = 0
    return [
        ButtonSpec(custom_id(table.id, r, "join"), "Join", SUCCESS),
        ButtonSpec(custom_id(table.id, r, "leave"), "Leave", SECONDARY),
        ButtonSpec(custom_id(table.id, r, "ai"), "Add AI", SECONDARY),
        ButtonSpec(custom_id(table.id, r, "start"), "Start", PRIMARY),
    ]


def _verb_buttons(table_id: int, r: int, legal: list[str], verbs, row: int) -> list[ButtonSpec]:
    out = []
    for verb in legal:
        if verb in AMOUNT_VERBS:
            out.append(ButtonSpec(custom_id(table_id, r, f"amt.{verb}"), ACTION_LABELS.get(verb, verb), PRIMARY, row))
        elif verb in verbs:
            out.append(
                ButtonSpec(custom_id(table_id, r, f"do.{verb}"), ACTION_LABELS.get(verb, verb.title()), verb_style(verb), row)
            )
    return out[:5]


def mat_components(table) -> list[Component]:
    """Public buttons: Show my hand, I'm back, and the no-secret actions of the seat to act."""
    r = table.round
    comps: list[Component] = [ButtonSpec(custom_id(table.id, r, "hand"), "Show my hand", PRIMARY, 0, "🃏")]
    if any(s.away for s in table.seats):
        comps.append(ButtonSpec(custom_id(table.id, r, "back"), "I'm back", SUCCESS, 0))
    aw = table.awaiting()
    if aw is not None and not table.seats[aw.seat].auto:
        comps.extend(_verb_buttons(table.id, r, aw.legal, PUBLIC_VERBS, 1))
        if "name_suit" in aw.legal:
            for s in (aw.detail or {}).get("suits", "CDHS"):
                comps.append(ButtonSpec(custom_id(table.id, r, f"suit.{s}"), f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}", SECONDARY, 2))
    return comps


def hand_components(table, seat: int, view: dict) -> list[Component]:
    """The private controls under "Show my hand", built from ``legal`` and ``detail``."""
    legal = view.get("legal") or []
    detail = view.get("detail") or {}
    r = table.round
    tid = table.id
    comps: list[Component] = []
    if not legal:
        return comps
    if "choose" in legal:
        pool = list(detail.get("cards") or view.get("hand") or [])[:25]
        comps.append(
            SelectSpec(
                custom_id(tid, r, "pick.choose"),
                "Pick the five cards of your poker hand",
                tuple((card(c), c) for c in pool),
                min_values=min(5, len(pool)),
                max_values=min(5, len(pool)),
                row=0,
            )
        )
        comps.append(ButtonSpec(custom_id(tid, r, "best"), "Best five", SUCCESS, 1))
    if "lead" in legal:
        options = list(detail.get("cards") or [])
        if 0 < len(options) <= 5:
            for c in options:
                comps.append(ButtonSpec(custom_id(tid, r, f"lead.{c}"), f"Lead {card(c)}", PRIMARY, 1))
        elif options:
            comps.append(
                SelectSpec(custom_id(tid, r, "pick.lead"), "Choose the card to lead", tuple((card(c), c) for c in options[:25]), row=0)
            )
    if "name_suit" in legal:
        for s in detail.get("suits", "CDHS"):
            comps.append(ButtonSpec(custom_id(tid, r, f"suit.{s}"), f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}", SECONDARY, 2))
    comps.extend(_verb_buttons(tid, r, legal, PUBLIC_VERBS, 3))
    return comps
