"""Reading engine views (``engine.viewtypes.GameView``): names, statuses, phases, space kinds."""

from __future__ import annotations

import re

from engine.language import N_
from engine.phases.names import PHASE_TEXTS
from engine.viewtypes import GameView, SeatStatus, SeatView, SpaceView

from . import fonts
from .base import ASSETS, FONT_FILES, SUIT_SYMBOLS, SYMBOL_SUITS, _, card_text, is_card, rank_text

# A phase's heading (the engine's one table of phase words).
PHASE_NAMES: dict[str, str] = {name: text.title for name, text in PHASE_TEXTS.items()}

# A seat's status as the pictures mark it (an active seat is not marked), in the source language.
STATUS_TEXT: dict[SeatStatus, str] = {
    "active": "",
    "folded": N_("FOLDED"),
    "sitting-out": N_("SITTING OUT"),
    "eliminated": N_("OUT"),
}

CENTER_IDS = {
    "center",
    "centre",
    "michigan",
    "tripoley",
    "rummoli",
    "great-lakes",
    "greatlakes",
    "great_lakes",
    "wanagan",
}


def phase_text(phase: str) -> str:
    return _(PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase.replace("-", " ").replace("_", " ").capitalize()


def status_text(status: SeatStatus) -> str:
    text = STATUS_TEXT[status]
    return _(text) if text else ""


BIDI_CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def seat_name(seat: SeatView) -> str:
    """The seat's name as the pictures draw it (:func:`drawn_name`)."""
    return drawn_name(seat["name"], seat["seat"])


def drawn_name(name: str, seat: int) -> str:
    """A player's name as the pictures draw it; "Seat N" (``seat`` counted from 0) when it is
    empty, or has a character none of the fonts can draw (a box would make two players look alike)."""
    # No newlines or runs of spaces; no direction overrides (they would reverse the alt text after the name).
    text = " ".join(name.translate(BIDI_CONTROLS).split())
    if not text or not all(fonts.drawable(text, str(ASSETS / f)) for f in FONT_FILES.values()):
        return f"Seat {seat + 1}"
    return text


def name_of(view: GameView, seat_no: int | None) -> str | None:
    if seat_no is None:
        return None
    for s in view["seats"]:
        if s["seat"] == seat_no:
            return seat_name(s)
    return f"Seat {seat_no + 1}"


def space_class(space: SpaceView) -> str:
    """'center', 'corner', 'pot' (Kitty / Pot) or 'ring'."""
    kind = space["kind"].lower()
    sid = space["id"].lower()
    label = space["label"].lower()
    if kind in ("center", "centre") or sid in CENTER_IDS:
        return "center"
    if kind == "corner" or "corner" in sid or "corner" in label:
        return "corner"
    if kind in ("kitty", "pot", "poker", "poker-pot", "michigan") or sid in ("kitty", "pot", "poker", "poker-pot"):
        return "pot"
    return "ring"


def split_mat(mat: list[SpaceView]) -> tuple[list[SpaceView], list[SpaceView], list[SpaceView]]:
    """(ring, corners, center) in board order."""
    classes = [space_class(s) for s in mat]
    corners = [s for s, c in zip(mat, classes) if c == "corner"]
    if "center" in classes:
        center = [s for s, c in zip(mat, classes) if c == "center"]
        ring = [s for s, c in zip(mat, classes) if c in ("ring", "pot")]
    else:
        center = [s for s, c in zip(mat, classes) if c == "pot"]
        ring = [s for s, c in zip(mat, classes) if c == "ring"]
        if not center and ring:  # nothing marked: the last space sits in the middle
            center = [ring.pop()]
    return ring, corners, center


_RANK = r"(?:10|[2-9TJQKA])"
_LABEL_CARDS = re.compile(rf"^({_RANK}(?:\s*-\s*{_RANK})*)\s*([\u2663\u2666\u2665\u2660CDHS])$")


def space_cards(space: SpaceView) -> tuple[str, ...]:
    """Card faces printed on a space: ``10♥`` → ("TH",); ``K-Q♥`` → ("KH", "QH")."""
    label = space["label"].strip()
    sid = space["id"].strip().upper()
    if sid.startswith("10") and len(sid) == 3:
        sid = "T" + sid[2]
    if is_card(sid) and not label.endswith("?"):
        if label and label[-1] in SYMBOL_SUITS:
            return (sid[0] + SYMBOL_SUITS[label[-1]],)
        if not SUITLESS.match(label):  # a named space such as "Tomahawk" (J♥)
            return (sid,)
    for text in (label,) if label else (space["id"].strip(),):
        m = _LABEL_CARDS.match(text.upper().replace("\u2009", ""))
        if m:
            suit = m.group(2)
            suit = SYMBOL_SUITS.get(suit, suit)
            ranks = [r.strip() for r in m.group(1).split("-")]
            return tuple(("T" if r == "10" else r) + suit for r in ranks)
    m = _ANY_CARD.search(label)  # "Corner A♣", "A♥ (2nd)"
    if m:
        return (("T" if m.group(1) == "10" else m.group(1)) + SYMBOL_SUITS[m.group(2)],)
    return ()


_ANY_CARD = re.compile(r"(10|[2-9JQKA])([\u2663\u2666\u2665\u2660])")


def is_card_label(label: str) -> bool:
    """Whether a space's label is only cards (``K-Q♥``, ``10``): written in each language's ranks, not translated."""
    return bool(_LABEL_CARDS.match(label.upper().replace("\u2009", "")) or SUITLESS.match(label))


def space_label(space: SpaceView) -> str:
    """A space's name as the picture's language says it: its cards' ranks as that language writes them
    (``R-D♥``), other names from the catalogs (``Kitty`` → ``Cagnotte``)."""
    label = space["label"]
    if label:
        label = " ".join(label.split())
        if is_card_label(label):
            return re.sub(r"10|[2-9TJQKA]", lambda rank: rank_text(rank.group().replace("10", "T")), label)
        return _(label)
    sid = space["id"] or "?"
    cards = space_cards(space)
    if len(cards) == 1:
        return card_text(cards[0])
    return sid


def suit_symbol(s: str) -> str:
    return SUIT_SYMBOLS.get(s.upper()[:1], s)


SUITLESS = re.compile(rf"^{_RANK}(?:\s*-\s*{_RANK})*$")


def with_pay_suit(space: SpaceView, pay_suit: str | None) -> SpaceView:
    """Optional-suit mats label pay-card spaces without a suit ("10", "K-Q"):
    add the pay suit once it is known (``pay_suit`` None = not named yet)."""
    label = space["label"]
    if space["kind"] not in ("card", "combo") or not SUITLESS.match(label.strip()):
        return space
    sym = SUIT_SYMBOLS.get((pay_suit or "").upper()[:1])
    return {**space, "label": label.strip() + (sym if sym else " ?")}
