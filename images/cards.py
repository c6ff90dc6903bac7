"""Playing cards drawn with Pillow: vector suit pips, faces and backs (cached).

Every card is drawn at 3x and downsampled, which gives anti-aliased edges;
each (card, size) is drawn once per process (``lru_cache``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .base import CARD_RED, INK, font, is_card, rank_text
from .shapes import Colour, Rect

SS = 3  # supersampling factor
_PIP_SS = 4

BLACK_SUITS = ("C", "S")


def suit_colour(suit: str) -> Colour:
    return INK if suit in BLACK_SUITS else CARD_RED


def _pip_shape(draw: ImageDraw.ImageDraw, suit: str, s: float, ox: float = 0, oy: float = 0) -> None:
    """Draw a suit symbol filling the square (ox, oy)-(ox+s, oy+s) with fill 255."""

    def P(x: float, y: float) -> tuple[float, float]:
        return (ox + x * s, oy + y * s)

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse([ox + (cx - r) * s, oy + (cy - r) * s, ox + (cx + r) * s, oy + (cy + r) * s], fill=255)

    if suit == "D":
        draw.polygon([P(0.5, 0.0), P(0.88, 0.5), P(0.5, 1.0), P(0.12, 0.5)], fill=255)
    elif suit == "H":
        circle(0.285, 0.31, 0.235)
        circle(0.715, 0.31, 0.235)
        draw.polygon([P(0.06, 0.40), P(0.5, 0.96), P(0.94, 0.40), P(0.5, 0.22)], fill=255)
    elif suit == "S":
        circle(0.29, 0.585, 0.215)
        circle(0.71, 0.585, 0.215)
        draw.polygon([P(0.08, 0.52), P(0.5, 0.02), P(0.92, 0.52), P(0.5, 0.74)], fill=255)
        draw.polygon([P(0.5, 0.62), P(0.33, 1.0), P(0.67, 1.0)], fill=255)
    else:  # clubs
        circle(0.5, 0.27, 0.215)
        circle(0.265, 0.6, 0.215)
        circle(0.735, 0.6, 0.215)
        circle(0.5, 0.55, 0.13)
        draw.polygon([P(0.5, 0.5), P(0.33, 1.0), P(0.67, 1.0)], fill=255)


@lru_cache(maxsize=256)
def pip_mask(suit: str, size: int) -> Image.Image:
    """An anti-aliased 'L' mask of the suit symbol, ``size`` x ``size`` pixels."""
    big = Image.new("L", (size * _PIP_SS, size * _PIP_SS), 0)
    _pip_shape(ImageDraw.Draw(big), suit, size * _PIP_SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paste_pip(
    img: Image.Image, suit: str, size: int, x: float, y: float, colour: Colour | None = None, flip: bool = False
) -> None:
    """Paste a pip with its top-left corner at (x, y)."""
    mask = pip_mask(suit, size)
    if flip:
        mask = mask.transpose(Image.Transpose.ROTATE_180)
    img.paste(colour or suit_colour(suit), (int(round(x)), int(round(y))), mask)


# Pip positions for 2..10 as (column, row) with column in {0, .5, 1} and row in 0..1.
_L, _M, _R = 0.0, 0.5, 1.0
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(_M, 0), (_M, 1)],
    3: [(_M, 0), (_M, 0.5), (_M, 1)],
    4: [(_L, 0), (_R, 0), (_L, 1), (_R, 1)],
    5: [(_L, 0), (_R, 0), (_M, 0.5), (_L, 1), (_R, 1)],
    6: [(_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    7: [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    8: [(_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1), (_R, 1)],
    9: [(_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5), (_L, 2 / 3), (_R, 2 / 3), (_L, 1), (_R, 1)],
    10: [
        (_L, 0),
        (_R, 0),
        (_M, 1 / 6),
        (_L, 1 / 3),
        (_R, 1 / 3),
        (_L, 2 / 3),
        (_R, 2 / 3),
        (_M, 5 / 6),
        (_L, 1),
        (_R, 1),
    ],
}

FACE_COLOURS = {
    "J": ((52, 98, 178), (250, 236, 190)),
    "Q": ((168, 48, 120), (250, 232, 210)),
    "K": ((196, 140, 20), (246, 238, 214)),
}


def card_height(w: int) -> int:
    return int(round(w * 1.4))


def _draw_face_figure(img: Image.Image, d: ImageDraw.ImageDraw, rank: str, suit: str, box: Rect) -> None:
    """Court card: framed two-tone panel, crown/cap, big letter, suit pips."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    frame, fill = FACE_COLOURS[rank]
    col = suit_colour(suit)
    d.rectangle(box, fill=fill, outline=frame, width=max(2, int(w * 0.035)))
    # diagonal band, like the split figure of court cards
    d.polygon(
        [
            (x0 + w * 0.04, y1 - h * 0.36),
            (x1 - w * 0.04, y0 + h * 0.36),
            (x1 - w * 0.04, y0 + h * 0.46),
            (x0 + w * 0.04, y1 - h * 0.26),
        ],
        fill=tuple((a + 2 * b) // 3 for a, b in zip(frame, fill)),
    )
    cx = (x0 + x1) / 2
    top = y0 + h * 0.10
    cw = w * 0.56
    gold = (236, 180, 30)
    if rank == "K":  # three-pointed crown
        base = top + h * 0.20
        d.polygon(
            [
                (cx - cw / 2, base),
                (cx - cw / 2, top + h * 0.02),
                (cx - cw / 4, top + h * 0.11),
                (cx, top - h * 0.02),
                (cx + cw / 4, top + h * 0.11),
                (cx + cw / 2, top + h * 0.02),
                (cx + cw / 2, base),
            ],
            fill=gold,
            outline=INK,
            width=max(1, int(w * 0.015)),
        )
    elif rank == "Q":  # diadem with pearls
        base = top + h * 0.17
        d.polygon(
            [
                (cx - cw / 2.4, base),
                (cx - cw / 2.2, top + h * 0.06),
                (cx, top + h * 0.01),
                (cx + cw / 2.2, top + h * 0.06),
                (cx + cw / 2.4, base),
            ],
            fill=gold,
            outline=INK,
            width=max(1, int(w * 0.015)),
        )
        r = w * 0.035
        for fx in (-0.42, 0, 0.42):
            px, py = cx + fx * cw, top + h * (0.05 if fx else 0.0)
            d.ellipse([px - r, py - r, px + r, py + r], fill=(250, 250, 250), outline=INK)
    else:  # jack's cap with a feather
        base = top + h * 0.19
        d.chord(
            [cx - cw / 2.3, top + h * 0.02, cx + cw / 2.3, base + h * 0.16],
            180,
            360,
            fill=frame,
            outline=INK,
            width=max(1, int(w * 0.015)),
        )
        d.line(
            [(cx + cw * 0.1, top + h * 0.05), (cx + cw * 0.5, top - h * 0.02)],
            fill=CARD_RED,
            width=max(2, int(w * 0.04)),
        )
    letter_font = font(int(h * 0.34))
    d.text(
        (cx, y0 + h * 0.60),
        rank,
        font=letter_font,
        fill=col,
        anchor="mm",
        stroke_width=max(1, int(w * 0.012)),
        stroke_fill=(255, 255, 255),
    )
    ps = int(w * 0.2)
    paste_pip(img, suit, ps, x0 + w * 0.06, y1 - ps - h * 0.04)
    paste_pip(img, suit, ps, x1 - ps - w * 0.06, y1 - ps - h * 0.04)


def _blank_card(w: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int, int, int]:
    """A white rounded card at SS× size: image, drawer, height, W, H and corner radius."""
    h = card_height(w)
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(3, int(W * 0.08))
    d.rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=radius, fill=(255, 255, 255), outline=(120, 124, 130), width=max(2, SS)
    )
    return img, d, h, W, H, radius


def _draw_card(card: str, w: int, text: str) -> Image.Image:
    """``card``'s face with ``text`` as its index (its rank as the picture's language writes it)."""
    img, d, h, W, H, radius = _blank_card(w)
    rank, suit = card[0], card[1]
    col = suit_colour(suit)
    mini = w < 64
    if mini:
        # Small card: big index top-left and one large pip.
        fsize = int(W * (0.42 if text != "10" else 0.36))
        face = "cond" if text == "10" else "bold"
        d.text((W * 0.08, H * 0.03), text, font=font(fsize, face), fill=col, anchor="la")
        ps = int(W * 0.50)
        paste_pip(img, suit, ps, W - ps - W * 0.10, H - ps - H * 0.08)
    else:
        fsize = int(W * 0.25)
        face = "cond" if text == "10" else "bold"
        idx_cx = W * 0.14
        f = font(fsize, face)
        d.text((idx_cx, H * 0.03), text, font=f, fill=col, anchor="ma")
        ps = int(W * 0.15)
        iy = H * 0.03 + fsize * 1.0
        paste_pip(img, suit, ps, idx_cx - ps / 2, iy)
        # the opposite corner, upside down
        corner = Image.new("RGBA", (int(W * 0.28), int(iy + ps + 2)), (0, 0, 0, 0))
        cd = ImageDraw.Draw(corner)
        cd.text((corner.width / 2, H * 0.03), text, font=f, fill=col, anchor="ma")
        paste_pip(corner, suit, ps, corner.width / 2 - ps / 2, iy)
        corner = corner.transpose(Image.Transpose.ROTATE_180)
        img.alpha_composite(corner, (int(W - corner.width), int(H - corner.height)))
        inner = (W * 0.27, H * 0.08, W * 0.73, H * 0.92)
        if rank in "JQK":
            _draw_face_figure(img, d, rank, suit, (int(W * 0.24), int(H * 0.10), int(W * 0.76), int(H * 0.90)))
        elif rank == "A":
            ps = int(W * (0.52 if suit == "S" else 0.42))
            paste_pip(img, suit, ps, W / 2 - ps / 2, H / 2 - ps / 2)
        else:
            n = RANK_ORDER_NUM[rank]
            ps = int(W * 0.17)
            ix0, iy0, ix1, iy1 = inner
            for cx, cy in PIP_LAYOUT[n]:
                x = ix0 + cx * (ix1 - ix0 - ps)
                y = iy0 + cy * (iy1 - iy0 - ps)
                paste_pip(img, suit, ps, x, y, flip=cy > 0.5)
    return img.resize((w, h), Image.Resampling.LANCZOS)


RANK_ORDER_NUM = {r: i for i, r in enumerate("A23456789T", start=1)}
RANK_ORDER_NUM["T"] = 10


def _draw_back(w: int) -> Image.Image:
    img, d, h, W, H, radius = _blank_card(w)
    m = int(W * 0.08)
    d.rounded_rectangle([m, m, W - 1 - m, H - 1 - m], radius=radius // 2, fill=(34, 66, 150))
    step = max(6, int(W * 0.12))
    for k in range(-H, W + H, step):
        d.line([(k, m), (k + H, m + H)], fill=(70, 110, 200), width=max(1, SS))
        d.line([(k, m), (k - H, m + H)], fill=(70, 110, 200), width=max(1, SS))
    # clear the lattice outside the inner panel
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle([m, m, W - 1 - m, H - 1 - m], radius=radius // 2, fill=255)
    base = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(base).rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=radius, fill=(255, 255, 255), outline=(120, 124, 130), width=max(2, SS)
    )
    base.paste(img, (0, 0), mask)
    return base.resize((w, h), Image.Resampling.LANCZOS)


def card_image(card: str, w: int) -> Image.Image:
    """RGBA image of ``card`` (e.g. ``"TH"``) ``w`` pixels wide, its index in the picture's language
    (``R`` on a French king); unknown → back."""
    return _card_image(card, w, rank_text(card[0]) if is_card(card) else "")


@lru_cache(maxsize=1024)
def _card_image(card: str, w: int, index: str) -> Image.Image:
    if not is_card(card):
        return _draw_back(w)
    return _draw_card(card, w, index)


@lru_cache(maxsize=16)
def back_image(w: int) -> Image.Image:
    return _draw_back(w)


@lru_cache(maxsize=64)
def _outline(w: int, h: int, colour: Colour, width: int) -> Image.Image:
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=max(3, int(W * 0.09)), outline=colour, width=width * SS
    )
    return img.resize((w, h), Image.Resampling.LANCZOS)


def outline_image(w: int, h: int, colour: Colour, width: int = 3) -> Image.Image:
    return _outline(w, h, tuple(colour), width)


@lru_cache(maxsize=64)
def shade_image(w: int, h: int, alpha: int = 90) -> Image.Image:
    """A translucent dark card-shaped overlay, for cards that cannot be played."""
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, W - 1, H - 1], radius=max(3, int(W * 0.08)), fill=(30, 34, 40, alpha))
    return img.resize((w, h), Image.Resampling.LANCZOS)
