"""The private hand message's text: a player's cards and what they may do (only they see it).

It is read in the language being read (:data:`bot.i18n.READING`): the reader's when they asked for
it, their DM language for a DM."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.i18n import READING, _, ngettext
from bot.messages.text import (
    PROMPTS,
    cards,
    choosing_together,
    chosen_and_waiting,
    hand_by_suit,
    name,
    phase_text,
    waiting_together,
)
from engine.cardnames import label_in
from engine.textview import space_label, warning_words
from engine.viewtypes import GameView


def spoken_label(view: Mapping[str, Any], space: str) -> str:
    """A mat space's label in the language being read (``R-D♥`` in French, "Kasse" in German)."""
    return label_in(space_label(view, space), READING.get())


def prompt_text(phase: str | None) -> str:
    """What a decision asks for (the phase's prompt), in the language being read."""
    prompt = PROMPTS.get(phase or "")
    return _(prompt) if prompt else _("your move")


def hand_text(view: GameView, seat: int) -> str:
    """The private hand message: cards and what the player may do."""
    count = len(view["hand"] or [])
    lines = [
        ngettext(
            "**Your hand** (round {round}, {count} card):", "**Your hand** (round {round}, {count} cards):", count
        ).format(round=view["round"], count=count)
    ]
    lines.append(hand_by_suit(view["hand"]))
    poker = view["poker"]
    if poker is not None and poker["chosen"]:
        lines.append(_("Your poker five: {cards}").format(cards=cards(poker["chosen"])))
    me = next((s for s in view["seats"] if s["seat"] == seat), None)
    if me:
        stack = me["stack"]
        lines.append(ngettext("Stack: {count} chip", "Stack: {count} chips", abs(stack)).format(count=stack))
    legal = view.get("legal")  # NotRequired: only while the viewer may act
    if legal:
        detail = view.get("detail", {})
        lines.append("\n" + _("**Your turn:** {prompt}.").format(prompt=prompt_text(view["phase"])))
        if detail.get("to_call"):
            lines.append(_("To call: {amount}.").format(amount=detail["to_call"]))
        if "min" in detail and "max" in detail and any(a in legal for a in ("bet", "raise", "bid", "suit_bid")):
            lines.append(_("Amount: {min}–{max}.").format(min=detail["min"], max=detail["max"]))
        if detail.get("best"):
            lines.append(_("Best five: {cards}").format(cards=cards(detail["best"])))
        if "makes" in detail:  # Wanagan: where a declaration can win (bot.messages.outgoing.wanagan_hint)
            lines.append(wanagan_makes_text(view, detail["makes"]))
        if detail.get("space"):
            lines.append(_("Your claim: {claim}").format(claim=claim_words(view, detail)))
        if detail.get("warning"):  # Rummoli: advice to a player holding a pay card (only they see it)
            lines.append(_("Careful: {warning}.").format(warning=warning_words(detail["warning"])))
    elif view["sealed"]:
        lines.append("\n" + chosen_and_waiting(view))
    elif choosing_together(view):
        lines.append("\n" + waiting_together(view))
    elif view["to_act"] is not None:
        lines.append(
            "\n"
            + _("Waiting for **{name}** ({phase}).").format(
                name=name(view, view["to_act"]), phase=phase_text(view["phase"])
            )
        )
    return "\n".join(lines)


def wanagan_makes_text(view: GameView, makes: list[str]) -> str:
    """The hint under a Wanagan declaration: the open spaces the hand can make, and the order of the menus."""
    if not makes:
        return _(
            "Your hand makes none of the open spaces: whatever you declare cannot win. Choose a space, then five cards."
        )
    return _("Your hand can make: {spaces}. Choose the space, then its five cards.").format(
        spaces=", ".join(spoken_label(view, sp) for sp in makes)
    )


def claim_words(view: Mapping[str, Any], detail: Mapping[str, Any]) -> str:
    """What a claim takes, in words: ``A♥ (both A♥ pockets, 6 chips)``, ``K♥ (4 chips)``."""
    labels = [spoken_label(view, sp) for sp in detail.get("spaces") or [detail["space"]]]
    count = detail.get("chips", 0)
    first = re.sub(r" \(.*\)$", "", labels[0])  # "A♥ (2nd)": the second A♥ pocket
    if len(labels) > 1 and all(re.sub(r" \(.*\)$", "", label) == first for label in labels):
        return ngettext(
            "{space} (both {space} pockets, {count} chip)", "{space} (both {space} pockets, {count} chips)", count
        ).format(space=first, count=count)
    return ngettext("{spaces} ({count} chip)", "{spaces} ({count} chips)", count).format(
        spaces=" + ".join(labels), count=count
    )
