"""The private hand message's text: a player's cards and what they may do (only they see it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.messages.text import (
    PROMPTS,
    cards,
    choosing_together,
    chosen_and_waiting,
    counted,
    hand_by_suit,
    in_words,
    name,
    phase_text,
    waiting_together,
)
from engine.textview import space_label
from engine.viewtypes import GameView


def hand_text(view: GameView, seat: int) -> str:
    """The private hand message: cards and what the player may do."""
    lines = [f"**Your hand** (round {view['round']}, {counted(len(view['hand'] or []), 'card')}):"]
    lines.append(hand_by_suit(view["hand"]))
    poker = view["poker"]
    if poker is not None and poker["chosen"]:
        lines.append(f"Your poker five: {cards(poker['chosen'])}")
    me = next((s for s in view["seats"] if s["seat"] == seat), None)
    if me:
        lines.append(f"Stack: {counted(me['stack'], 'chip')}")
    legal = view.get("legal")  # NotRequired: only while the viewer may act
    if legal:
        detail = view.get("detail", {})
        prompt = PROMPTS.get(view["phase"], "your move")
        lines.append(f"\n**Your turn:** {prompt}.")
        if detail.get("to_call"):
            lines.append(f"To call: {detail['to_call']}.")
        if "min" in detail and "max" in detail and any(a in legal for a in ("bet", "raise", "bid", "suit_bid")):
            lines.append(f"Amount: {detail['min']}–{detail['max']}.")
        if detail.get("best"):
            lines.append(f"Best five: {cards(detail['best'])}")
        if "makes" in detail:  # Wanagan: where a declaration can win (bot.messages.outgoing.wanagan_hint)
            lines.append(wanagan_makes_text(view, detail["makes"]))
        if detail.get("space"):
            lines.append(f"Your claim: {claim_words(view, detail)}")
        if detail.get("warning"):  # Rummoli: advice to a player holding a pay card (only they see it)
            lines.append(f"Careful: {in_words(detail['warning'], view)}.")
    elif view["sealed"]:
        lines.append("\n" + chosen_and_waiting(view))
    elif choosing_together(view):
        lines.append("\n" + waiting_together(view))
    elif view["to_act"] is not None:
        lines.append(f"\nWaiting for **{name(view, view['to_act'])}** ({phase_text(view['phase'])}).")
    return "\n".join(lines)


def wanagan_makes_text(view: GameView, makes: list[str]) -> str:
    """The hint under a Wanagan declaration: the open spaces the hand can make, and the order of the menus."""
    if not makes:
        return (
            "Your hand makes none of the open spaces: whatever you declare cannot win. Choose a space, then five cards."
        )
    return f"Your hand can make: {', '.join(space_label(view, sp) for sp in makes)}. Choose the space, then its five cards."


def claim_words(view: GameView, detail: Mapping[str, Any]) -> str:
    """What a claim takes, in words: ``A♥ (both A♥ pockets, 6 chips)``, ``K♥ (4 chips)``."""
    labels = [space_label(view, sp) for sp in detail.get("spaces") or [detail["space"]]]
    chips = f"{detail.get('chips', 0)} chips"
    first = re.sub(r" \(.*\)$", "", labels[0])  # "A♥ (2nd)": the second A♥ pocket
    if len(labels) > 1 and all(re.sub(r" \(.*\)$", "", label) == first for label in labels):
        return f"{first} (both {first} pockets, {chips})"
    return f"{' + '.join(labels)} ({chips})"
