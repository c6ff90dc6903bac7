"""Shared pieces of the renderers: the result type, fonts, text and PNG encoding.

Fonts are the bundled DejaVu faces in ``images/assets`` (free licence, see
``assets/LICENSE-DejaVu.txt``); what DejaVu lacks (emoji, CJK, other scripts) is drawn from the
fallback fonts of ``images/fonts.py``, and every text measure here measures the same fallback.
"""

from __future__ import annotations

import functools
import io
import re
import struct
import zlib
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from engine.cardnames import card_names
from engine.language import SOURCE, words

from . import fonts
from .shapes import Box, BoxSet, Colour, Label

ASSETS = Path(__file__).resolve().parent / "assets"
FONT_FILES = {
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed-Bold.ttf",
}

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}
RED_SYMBOLS = {"\u2665", "\u2666", "\u2661", "\u2662"}
BLACK_SYMBOLS = {"\u2663", "\u2660", "\u2667", "\u2664"}
RANK_ORDER = "23456789TJQKA"
SUIT_ORDER = "CDHS"

# Palette (RGB).
INK = (20, 20, 24)
CARD_RED = (200, 24, 36)
LIGHT_RED = (255, 120, 120)
WHITE = (255, 255, 255)
MUTED = (150, 158, 166)
GOLD = (255, 204, 51)
BG = (30, 34, 40)
PANEL = (46, 52, 62)
PANEL_HI = (74, 84, 98)
FELT = (22, 101, 64)
FELT_DARK = (14, 74, 46)
RIM = (92, 58, 30)
GREEN_UP = (110, 220, 120)
RED_DOWN = (255, 110, 110)
CYAN = (90, 200, 255)

PNG_LEVEL = 3  # zlib level: 3 is about as fast as 1 here and a little smaller


@dataclass(frozen=True)
class Rendered:
    """A rendered image: PNG bytes plus a short text summary.

    ``alt`` is fit for an attachment description and as the message text
    when attachments are not allowed.  ``boxes`` lists the laid-out regions
    as ``(name, container_rect, text_rects)`` (used by tests to check that
    nothing overlaps or overflows); rects are ``(x0, y0, x1, y1)``.
    ``labels`` lists the texts that must stay legible on a phone (each seat's
    name, stack and card count) as ``(box_name, role, text, ink_rect, baseline)``:
    what was drawn, its ``textbbox`` and the y of its baseline, so tests measure
    the letters' height instead of trusting a font size.
    """

    png: bytes
    alt: str
    width: int = 0
    height: int = 0
    boxes: tuple[BoxSet, ...] = field(default=(), compare=False, repr=False)
    labels: tuple[Label, ...] = field(default=(), compare=False, repr=False)


@lru_cache(maxsize=64)
def font(size: int, face: str = "bold") -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(ASSETS / FONT_FILES[face]), size)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode(img: Image.Image) -> bytes:
    """PNG bytes.  RGB/RGBA images are written directly: filter "None" on every
    row plus zlib.  Pillow's encoder tries every filter on every row, which
    costs more than twice as long for these flat-colour images and gains little."""
    if img.mode not in ("RGB", "RGBA"):
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=6)
        return buf.getvalue()
    w, h = img.size
    raw = img.tobytes()
    stride = w * len(img.mode)
    data = b"".join(b"\x00" + raw[i * stride : (i + 1) * stride] for i in range(h))
    colour_type = 2 if img.mode == "RGB" else 6
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(data, PNG_LEVEL))
        + _chunk(b"IEND", b"")
    )


#: The language the picture being drawn is in: its view's ``locale`` (:func:`in_view_language`).
LANGUAGE: ContextVar[str] = ContextVar("picture_language", default=SOURCE)
Drawn = TypeVar("Drawn")


def in_view_language(render: Callable[[Any], Drawn]) -> Callable[[Any], Drawn]:
    """A renderer that draws its labels, cards and hand names in ``view["locale"]`` (English without one)."""

    @functools.wraps(render)
    def in_language(view: Any) -> Drawn:
        language = view.get("locale") if isinstance(view, dict) else None
        token = LANGUAGE.set(str(language or SOURCE))
        try:
            return render(view)
        finally:
            LANGUAGE.reset(token)

    return in_language


def _(text: str) -> str:
    """A fixed label in the picture's language."""
    return words(LANGUAGE.get()).gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return words(LANGUAGE.get()).ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    return words(LANGUAGE.get()).pgettext(context, text)


def rank_text(rank: str) -> str:
    """A rank in the engine's notation (``T``, ``Q``) as the picture's language writes it (``10``, ``D``)."""
    return card_names(LANGUAGE.get()).ranks[RANK_ORDER.index(rank)] if rank in RANK_ORDER else rank


def hand_text(name: str) -> str:
    """A poker hand's English name (``engine.hands.category_name``) in the picture's language."""
    return card_names(LANGUAGE.get()).hand(name)


def line_below(
    texts: list[tuple[float, float, float, float]], y: float, fnt: ImageFont.FreeTypeFont, line: str
) -> float:
    """Where a label's next line goes: ``y``, or lower when its accents would reach the line above's
    descenders (``É`` under ``g``: a French or German label, not an English one)."""
    if not texts:
        return y
    return max(y, texts[-1][3] + 1 - fnt.getbbox(line, anchor="ma")[1])


def card_text(card: str) -> str:
    """``"TH"`` → ``"10♥"`` (``"KH"`` → ``"R♥"`` in French); unknown strings are returned unchanged."""
    if len(card) == 2 and card[1] in SUIT_SYMBOLS:
        return rank_text(card[0]) + SUIT_SYMBOLS[card[1]]
    return card


def is_card(card: str) -> bool:
    return len(card) == 2 and card[0] in RANK_ORDER and card[1] in SUIT_ORDER


def card_sort_key(card: str) -> tuple[int, int, str]:
    """By suit (C, D, H, S), then rank (2 … A)."""
    if not is_card(card):
        return (9, 99, card)
    return (SUIT_ORDER.index(card[1]), RANK_ORDER.index(card[0]), card)


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """``text``'s width as ``draw_text`` draws it (fallback fonts included)."""
    return fonts.width(text, fnt)


def measure(fnt: ImageFont.FreeTypeFont) -> Callable[[str], float]:
    """``text_width`` in ``fnt``: the measure for ``cut`` and ``fit_name``."""
    return lambda text: fonts.width(text, fnt)


def truncate(text: str, fnt: ImageFont.FreeTypeFont, max_w: float) -> str:
    """Cut ``text`` with an ellipsis so it is at most ``max_w`` pixels wide."""
    return cut(str(text), max_w, measure(fnt))


def cut(text: str, limit: float, measure: Callable[[str], float] = len) -> str:
    """The longest prefix of ``text`` plus "…" that ``measure`` keeps within ``limit`` (pixels, or
    characters with the default ``len``); ``text`` itself when it fits."""
    if measure(text) <= limit:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + "\u2026") <= limit:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo].rstrip() + "\u2026") if lo else "\u2026"


# How the bot names its AI seats, in each language: "Ada (Normal AI)", "Ada (IA normale)", "Ada (normale KI)".
AI_TAG = re.compile(r" (\([^()]*\b(?:AI|IA|KI)\b[^()]*\))$")


def fit_name(name: str, limit: float, measure: Callable[[str], float] = len, suffix: str = "") -> str:
    """``name`` then ``suffix`` (" (you)") within ``limit``, shortened by one rule players can follow:
    only the player's part loses letters, ending in "…"; an AI seat's level ("(Hard AI)") is always
    kept whole: "Alexandra Smith (Hard AI)" → "Alexandr… (Hard AI)". The suffix is kept too, unless
    it alone leaves no room for the "…".

    Only when the level alone leaves no room (a box narrower than any the renderers lay out) is the
    whole name cut instead."""
    match = AI_TAG.search(name)
    player, tag = (name[: match.start()], match.group(0)) if match else (name, "")
    if measure(player + tag + suffix) <= limit:
        return player + tag + suffix
    for kept in dict.fromkeys((tag + suffix, tag)):
        room = limit - measure(kept)
        if player and measure("\u2026") <= room:
            return cut(player, room, measure) + kept
    return cut(name, limit, measure)


def fit_font(
    text: str, max_w: float, size: int, min_size: int, face: str = "bold"
) -> tuple[ImageFont.FreeTypeFont, str]:
    """The largest font (down to ``min_size``) in which ``text`` fits, and the
    text (truncated if even ``min_size`` is too wide)."""
    for s in range(size, min_size - 1, -1):
        f = font(s, face)
        if text_width(text, f) <= max_w:
            return f, text
    f = font(min_size, face)
    return f, truncate(text, f, max_w)


def wrap2(
    text: str, max_w: float, size: int, min_size: int, face: str = "bold"
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """Fit ``text`` on one line, else on two lines (split at a space), else
    truncated on one line.  Returns ``(font, [lines])``."""
    f1 = font(size, face)
    if text_width(text, f1) <= max_w:
        return f1, [text]
    words = text.split(" ")
    for s in range(size, min_size - 1, -1):
        f = font(s, face)
        if text_width(text, f) <= max_w:
            return f, [text]
        if len(words) > 1:
            best: tuple[float, list[str]] | None = None
            for i in range(1, len(words)):
                a, b = " ".join(words[:i]), " ".join(words[i:])
                w = max(text_width(a, f), text_width(b, f))
                if w <= max_w and (best is None or w < best[0]):
                    best = (w, [a, b])
            if best:
                return f, best[1]
    f = font(min_size, face)
    return f, [truncate(text, f, max_w)]


SUIT_COLOURS = tuple((ch, "red") for ch in sorted(RED_SYMBOLS)) + tuple((ch, "black") for ch in sorted(BLACK_SYMBOLS))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
    red: Colour = CARD_RED,
    black: Colour | None = None,
) -> Box:
    """Draw ``text`` with red/black suit symbols, in fallback fonts where ``fnt`` has no glyph and
    in visual order (right-to-left runs); returns its bounding box.

    ``anchor`` is Pillow's two-letter anchor; horizontal l/m/r, vertical any.
    """
    x, y = xy
    h_anchor, v_anchor = anchor[0], anchor[1]
    primary = str(fnt.path)
    if fonts.simple(text, primary) and not any(ch in RED_SYMBOLS or ch in BLACK_SYMBOLS for ch in text):
        draw.text((x, y), text, font=fnt, fill=fill, anchor=anchor)
        return draw.textbbox((x, y), text, font=fnt, anchor=anchor)
    runs = fonts.runs(text, primary, SUIT_COLOURS)
    size = int(fnt.size)
    total = sum(fonts.run_width(r, size) for r in runs)
    if h_anchor == "m":
        x -= total / 2
    elif h_anchor == "r":
        x -= total
    fills: dict[str | None, Colour] = {None: fill, "red": red, "black": black or fill}
    return fonts.draw(draw, x, fonts.baseline(fnt, y, v_anchor), runs, size, fills)


def rect_inside(inner: Box, outer: Box, slack: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def rects_intersect(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
