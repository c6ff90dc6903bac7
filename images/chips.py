"""Chip stacks in denomination colours (white 1, red 5, blue 10, green 25, black 100)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

Denominations = tuple[tuple[str, int], ...]  # (colour, value), the highest first

SS = 3
DEFAULT_DENOMINATIONS: Denominations = (("black", 100), ("green", 25), ("blue", 10), ("red", 5), ("white", 1))
CHIP_COLOURS = {
    # name: (face, edge, stripe)
    "white": ((236, 236, 228), (150, 150, 140), (40, 90, 200)),
    "red": ((204, 36, 44), (120, 14, 20), (255, 255, 255)),
    "blue": ((36, 88, 200), (16, 40, 110), (255, 255, 255)),
    "green": ((28, 148, 66), (10, 80, 30), (255, 255, 255)),
    "black": ((38, 38, 42), (0, 0, 0), (235, 235, 235)),
    "yellow": ((236, 200, 40), (140, 110, 10), (255, 255, 255)),
}
FALLBACK_COLOUR = ((160, 160, 160), (90, 90, 90), (255, 255, 255))

CHIP_W = 24  # pixel width of one chip (side view)
CHIP_H = 10  # height of its ellipse
CHIP_STEP = 3  # vertical offset between stacked chips
MAX_VISIBLE = 10


def denominations(view_denoms: dict[str, int]) -> Denominations:
    """``{"white": 1, ...}`` (the view's ``chip_denominations``) → ``(("black", 100), ..., ("white", 1))`` high first."""
    items = [(k, v) for k, v in view_denoms.items() if v > 0]
    if not items:
        return DEFAULT_DENOMINATIONS
    if not any(v == 1 for _, v in items):
        items.append(("white", 1))
    return tuple(sorted(items, key=lambda kv: -kv[1]))


def breakdown(total: int, denoms: Denominations = DEFAULT_DENOMINATIONS) -> list[tuple[str, int]]:
    """Greedy split of ``total`` into chips: ``[("blue", 1), ("white", 2)]``."""
    out = []
    rest = max(0, int(total))
    for name, value in denoms:
        n, rest = divmod(rest, value)
        if n:
            out.append((name, n))
    return out


@lru_cache(maxsize=64)
def stack_image(colour: str, count: int) -> Image.Image:
    """A side view of ``count`` chips (at most MAX_VISIBLE drawn)."""
    face, edge, stripe = CHIP_COLOURS.get(colour, FALLBACK_COLOUR)
    n = max(1, min(count, MAX_VISIBLE))
    w, h = CHIP_W * SS, (CHIP_H + CHIP_STEP * (n - 1) + 2) * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    eh = CHIP_H * SS
    for i in range(n):
        top = h - eh - i * CHIP_STEP * SS - SS
        # the chip's rim (a slightly lower, darker ellipse), then its face
        d.ellipse([0, top + SS, w - 1, top + eh + SS - 1], fill=edge)
        d.ellipse([0, top, w - 1, top + eh - 1], fill=face, outline=edge, width=SS)
        # edge stripes on the rim
        for fx in (0.18, 0.5, 0.82):
            x = fx * w
            d.line([(x, top + eh * 0.75), (x, top + eh + SS * 0.6)], fill=stripe, width=SS + 1)
    # a dashed inner ring on the top chip
    top = h - eh - (n - 1) * CHIP_STEP * SS - SS
    m = w * 0.2
    d.ellipse([m, top + eh * 0.22, w - m, top + eh * 0.78], outline=stripe, width=SS)
    return img.resize((CHIP_W, h // SS), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def pile_image(total: int, denoms: Denominations = DEFAULT_DENOMINATIONS, max_w: int = 120) -> Image.Image | None:
    """The chips of one space side by side, tallest first; None when empty."""
    parts = breakdown(total, denoms)
    if not parts:
        return None
    stacks = [stack_image(name, n) for name, n in parts]
    gap = 2
    # squeeze columns together when they would not fit
    step = CHIP_W + gap
    if len(stacks) > 1 and CHIP_W + step * (len(stacks) - 1) > max_w:
        step = max(8, (max_w - CHIP_W) // (len(stacks) - 1))
    width = CHIP_W + step * (len(stacks) - 1)
    height = max(s.height for s in stacks)
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for i, s in enumerate(stacks):
        img.alpha_composite(s, (i * step, height - s.height))
    return img
