"""The mat: the preset's board (spaces with chips) and the seats.

Layout (1000 wide): up to 6 seats ring the board (1000 x 700), clockwise from
seat 0 at the bottom right; from 7 seats on, the board is on top and the seats
sit in a table of 3 columns under it, in seat order, so the picture grows
taller (1000 x 1090 at 20) instead of the seats shrinking. Seat text is large
enough to read where Discord shows the picture about 400 px wide (a phone).
The board has its pay-card spaces around the edge (corner Aces in the
corners) and the centre spaces (Kitty/Pot, or the preset's centre) in the
middle, with the round, ante, phase and the Michigan sequence / poker action.

The board without chips (felt, spaces, labels) is a cached static layer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.phases.names import PhaseName
from engine.textview import poker_move_words
from engine.viewtypes import GameView, SeatView, SpaceView

from .base import (
    BG,
    CYAN,
    FELT,
    FELT_DARK,
    GOLD,
    GREEN_UP,
    INK,
    LANGUAGE,
    LIGHT_RED,
    MUTED,
    PANEL,
    PANEL_HI,
    RIM,
    WHITE,
    Rendered,
    _,
    card_text,
    draw_text,
    encode,
    fit_font,
    fit_name,
    font,
    in_view_language,
    line_below,
    measure,
    ngettext,
    pgettext,
    text_width,
    wrap2,
)
from .cards import back_image, card_height, card_image
from .chips import Denominations, denominations, pile_image, stack_image
from .common import (
    name_of,
    phase_text,
    seat_name,
    space_cards,
    space_label,
    split_mat,
    status_text,
    suit_symbol,
    with_pay_suit,
)
from .matlayout import (
    CENTER_TILE_H,
    CENTER_TILE_W,
    SEAT_FONT,
    SEAT_PAD,
    G,
    mat_layout,
    spread,
    tile_rects,
)
from .shapes import Box, BoxSet, Colour, Label, Rect

# ----------------------------------------------------------------- static board


SpaceSpec = tuple[str, str, tuple[str, ...]]  # id, label, the card faces printed on it
Tile = tuple[str, Box, float, int, bool]  # id, rect, where its label ends, the width of its card faces, a centre tile


class Geometry(NamedTuple):
    """Where the static layer put things, for the chips and texts drawn over it."""

    size: tuple[int, int]
    seats: list[Rect]
    center: Rect
    title_box: Box
    info_y: float
    below_center_y: float
    tiles: list[Tile]


def _space_spec(space: SpaceView) -> SpaceSpec:
    return (space["id"], space_label(space), space_cards(space))


@lru_cache(maxsize=64)
def _static_layer(
    n_seats: int,
    title: str,
    ring_specs: tuple[SpaceSpec, ...],
    corner_specs: tuple[SpaceSpec, ...],
    center_specs: tuple[SpaceSpec, ...],
    language: str,
) -> tuple[Image.Image, tuple[BoxSet, ...], Geometry]:
    """Background, board, spaces and their labels (their cards in ``language``).  Returns (image, boxes, geometry)."""
    (width, height), seats, board = mat_layout(n_seats)
    ring_r, corner_r, center, (tw, th) = tile_rects(board, len(ring_specs), len(corner_specs))
    ss = 2
    big = Image.new("RGB", (width * ss, height * ss), BG)
    d = ImageDraw.Draw(big)

    def S(r: Rect) -> list[int]:
        return [v * ss for v in r]

    d.rounded_rectangle(S(board), radius=28 * ss, fill=RIM)
    inner = (board[0] + 7, board[1] + 7, board[2] - 7, board[3] - 7)
    d.rounded_rectangle(S(inner), radius=22 * ss, fill=FELT, outline=(200, 170, 90), width=2 * ss)
    for r in ring_r + corner_r:
        d.rounded_rectangle(S(r), radius=10 * ss, fill=FELT_DARK, outline=(214, 190, 120), width=2 * ss)
    img = big.resize((width, height), Image.Resampling.BOX)
    draw = ImageDraw.Draw(img)
    boxes: list[BoxSet] = []
    tiles: list[Tile] = []
    for spec, r in list(zip(ring_specs, ring_r)) + list(zip(corner_specs, corner_r)):
        sid, label, cards = spec
        texts: list[tuple[float, float, float, float]] = []
        fnt, lines = wrap2(label, r[2] - r[0] - 10, 16, 11)
        y: float = r[1] + 5
        for line in lines:
            y = line_below(texts, y, fnt, line)
            texts.append(draw_text(draw, ((r[0] + r[2]) / 2, y), line, fnt, WHITE, "ma", red=LIGHT_RED, black=WHITE))
            y += fnt.size + 2
        label_bottom = y
        icon_w = 0
        if cards:
            cw = 28
            chh = card_height(cw)
            k = len(cards[:3])
            x = r[0] + 6
            cy = r[3] - chh - 6
            if cy < label_bottom + 2:
                cw = 22
                chh = card_height(cw)
                cy = r[3] - chh - 5
            for i, c in enumerate(cards[:3]):
                im = card_image(c, cw)
                img.paste(im, (x + i * 9, cy), im)
            icon_w = cw + 9 * (k - 1) + 4
        tiles.append((sid, r, label_bottom, icon_w, False))
        boxes.append((f"space:{sid}", r, tuple(texts)))
    # centre: title, centre tiles
    cx0, cy0, cx1, cy1 = center
    fnt, t = fit_font(title, cx1 - cx0 - 8, 22, 13)
    title_box = draw_text(draw, ((cx0 + cx1) / 2, cy0 + 2), t, fnt, GOLD, "ma")
    info_y = title_box[3] + 4
    k = max(1, len(center_specs))
    ctw = int(min(CENTER_TILE_W, (cx1 - cx0 - (k - 1) * G) / k))
    cth = CENTER_TILE_H
    ctiles_y = info_y + 24
    xs = spread(len(center_specs), cx0, cx1, ctw) if len(center_specs) > 1 else [int((cx0 + cx1 - ctw) / 2)]
    # tiles for the centre spaces are drawn at 1x (few of them)
    for spec, x in zip(center_specs, xs):
        sid, label, cards = spec
        tile: Box = (x, ctiles_y, x + ctw, ctiles_y + cth)
        draw.rounded_rectangle(tile, radius=14, fill=(18, 84, 52), outline=GOLD, width=3)
        fnt, lines = wrap2(label, ctw - 12, 19, 12)
        y = tile[1] + 6
        texts = []
        for line in lines[:1] if len(lines) > 1 and fnt.size > 15 else lines:
            y = line_below(texts, y, fnt, line)
            texts.append(
                draw_text(draw, ((tile[0] + tile[2]) / 2, y), line, fnt, GOLD, "ma", red=LIGHT_RED, black=GOLD)
            )
            y += fnt.size + 2
        tiles.append((sid, tile, y, 0, True))
        boxes.append((f"space:{sid}", tile, tuple(texts)))
    geometry = Geometry(
        (width, height), seats, center, title_box, info_y, ctiles_y + (cth if center_specs else 0) + 6, tiles
    )
    return img, tuple(boxes), geometry


# ----------------------------------------------------------------- dynamic parts


def _draw_pile(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    r: Box,
    total: int,
    denoms: Denominations,
    top: float,
    icon_w: int,
    big: bool,
) -> Box:
    x0, y0, x1, y1 = r
    total_font = font(24 if big else 18)
    total_text = str(total)
    colour = WHITE if total else MUTED
    ty = y1 - (6 if big else 4)
    tb = draw_text(draw, ((x0 + icon_w + x1) / 2, ty), total_text, total_font, colour, "md")
    # centre the total vertically on the text baseline area
    pile = pile_image(total, denoms, max_w=int(x1 - x0 - icon_w - 12)) if total else None
    if pile is not None:
        area_top, area_bot = top + 1, tb[1] - 2
        ph = min(pile.height, max(0, area_bot - area_top))
        crop = pile.crop((0, pile.height - ph, pile.width, pile.height)) if ph < pile.height else pile
        px = int((x0 + icon_w + x1 - crop.width) / 2)
        py = int(area_bot - crop.height)
        if crop.height > 0:
            img.paste(crop, (px, py), crop)
    return tb


def _status_bits(seat: SeatView, view: GameView, acting: bool, inactive: bool) -> list[tuple[str, Colour]]:
    """The short words on a seat's second line: to act, its status, its poker bet, cards played."""
    bits: list[tuple[str, Colour]] = []
    if acting:
        bits.append((_("TO ACT"), GOLD))
    st_text = status_text(seat["status"])
    if st_text:
        bits.append((st_text, LIGHT_RED if inactive else GREEN_UP))
    committed = seat["committed"]
    if committed and view["phase"].startswith("poker"):
        bits.append((_("bet {amount}").format(amount=committed), WHITE))
    played = seat["played"]
    if played and not bits:
        bits.append((_("played {count}").format(count=len(played)), MUTED))
    return bits


def _draw_bits(
    draw: ImageDraw.ImageDraw, bits: list[tuple[str, Colour]], left: float, right: float, baseline: int
) -> list[Box]:
    """``bits`` right-aligned between ``left`` and ``right`` in the largest type (20 down to 14 px)
    that holds them; the last ones are left out when even 14 px cannot."""
    while bits:
        for size in range(20, 13, -1):
            f = font(size, "cond")
            widths = [text_width(t, f) for t, _ in bits]
            total = sum(widths) + 8 * (len(bits) - 1)
            if total <= right - left:
                x = right - total
                boxes = []
                for (text, colour), w in zip(bits, widths):
                    boxes.append(draw_text(draw, (x, baseline), text, f, colour, "ls"))
                    x += w + 8
                return boxes
        bits = bits[:-1]
    return []


def _to_act_text(view: GameView) -> str:
    names = ", ".join(name_of(view, s) or _("seat {number}").format(number=s) for s in view["acting"])
    return _("to act: {names}").format(names=names)


def _seat_block(
    img: Image.Image, draw: ImageDraw.ImageDraw, r: Rect, seat: SeatView, view: GameView
) -> tuple[BoxSet, list[Label]]:
    """One seat: its name on the first line; stack, cards, dealer button and status on the second.
    Returns its box and its labels (name, stack, cards)."""
    x0, y0, x1, y1 = r
    seat_no = seat["seat"]
    box = f"seat:{seat_no}"
    st_text = status_text(seat["status"])
    inactive = bool(st_text)
    acting = seat_no in view["acting"]
    you = seat_no == view["viewer"]
    fill = PANEL_HI if acting else ((38, 42, 48) if inactive else PANEL)
    outline, width = (GOLD, 3) if acting else (CYAN, 2) if you else ((84, 92, 104), 1)
    draw.rounded_rectangle(r, radius=10, fill=fill, outline=outline, width=width)
    fg = MUTED if inactive else WHITE
    f = font(SEAT_FONT, "cond")
    left, right = x0 + SEAT_PAD, x1 - SEAT_PAD
    texts: list[Box] = []
    labels: list[Label] = []

    def label(role: str, xy: tuple[float, int], text: str, colour: Colour) -> Box:
        rect = draw_text(draw, xy, text, f, colour, "ls")
        texts.append(rect)
        labels.append((box, role, text, rect, xy[1]))
        return rect

    name = fit_name(seat_name(seat), right - left, measure(f), " " + _("(you)") if you else "")
    label("name", (left, y0 + 31), name, GOLD if acting else fg)
    base = y0 + 65  # the second line's baseline
    chip = stack_image("red", 3)
    img.paste(chip, (left, base - chip.height), chip)
    stack_end = label("stack", (left + chip.width + 6, base), str(seat["stack"]), fg)[2]
    x = max(left + chip.width + 6 + f.getlength("8888"), stack_end) + 14  # counts line up down the table
    back = back_image(16)
    img.paste(back, (int(x), base - back.height), back)
    x = label("cards", (x + back.width + 6, base), str(seat["cards"]), fg)[2]
    if seat["is_dealer"]:
        d = 26
        draw.ellipse((right - d, base - 12 - d / 2, right, base - 12 + d / 2), fill=WHITE, outline=INK)
        texts.append(draw_text(draw, (right - d / 2, base - 12), pgettext("dealer button", "D"), font(17), INK, "mm"))
        right -= d + 8
    texts += _draw_bits(draw, _status_bits(seat, view, acting, inactive), x + 12, right, base)
    return (box, r, tuple(texts)), labels


def _strip(img: Image.Image, draw: ImageDraw.ImageDraw, view: GameView, center: Rect, y: float) -> list[Box]:
    """Below the centre spaces: phase, whose turn, then the Michigan sequence or poker line."""
    cx0, cy0, cx1, cy1 = center
    texts = []
    width = cx1 - cx0 - 8
    mid = (cx0 + cx1) / 2
    phase = view["phase"]
    line = phase_text(phase)
    if view["to_act"] is not None and phase not in (PhaseName.ROUND_OVER, PhaseName.FINISHED, PhaseName.GAME_OVER):
        line = f"{line} \u2022 {_to_act_text(view)}" if line else _to_act_text(view)
    if line:
        fnt, t = fit_font(line, width, 16, 11)
        b = draw_text(draw, (mid, y), t, fnt, WHITE, "ma")
        texts.append(b)
        y = b[3] + 6
    michigan, poker, spare = view["michigan"], view["poker"], view["spare"]
    seq = michigan["sequence"] if michigan else []
    out = michigan["out"] if michigan else None
    if seq and not phase.startswith("poker"):
        avail_h = cy1 - y
        cw = next((w for w in (46, 40, 34) if avail_h >= card_height(w) + 22), max(16, int(avail_h / 1.4) - 1))
        chh = card_height(cw)
        if chh <= avail_h and cw >= 16:
            shown = list(seq)[-16:]
            step = min(cw + 3, (width - cw) / max(1, len(shown) - 1)) if len(shown) > 1 else 0
            total_w = cw + step * (len(shown) - 1)
            x = mid - total_w / 2
            for k, c in enumerate(shown):
                im = card_image(c, cw)
                img.paste(im, (int(x + k * step), int(y)), im)
            y += chh + 4
    if out is not None and cy1 - y >= 16:
        who = name_of(view, out)
        fnt, t = fit_font(_("{name} went out!").format(name=who), width, 16, 11)
        b = draw_text(draw, (mid, y), t, fnt, GOLD, "ma")
        texts.append(b)
        y = b[3] + 4
    if phase.startswith("poker") and poker:
        parts = []
        if poker["last_action"]:
            parts.append(poker_move_words(poker["last_action"], LANGUAGE.get()))
        if poker["current_bet"]:
            parts.append(_("bet to match: {amount}").format(amount=poker["current_bet"]))
        if parts and cy1 - y >= 16:
            fnt, t = fit_font(" \u2022 ".join(parts), width, 15, 11)
            b = draw_text(draw, (mid, y), t, fnt, (220, 230, 240), "ma")
            texts.append(b)
            y = b[3] + 4
    if phase in (PhaseName.SPARE_HAND, PhaseName.AUCTION) and spare and cy1 - y >= 16:
        bits = [_("spare hand: {count} cards").format(count=spare["cards"])]
        auction = spare["auction"]
        if auction:
            high, bidder = auction["high_bid"], name_of(view, auction["high_bidder"])
            bits.append(_("high bid {amount} ({name})").format(amount=high, name=bidder))
        if bits:
            fnt, t = fit_font(" \u2022 ".join(bits), width, 15, 11)
            texts.append(draw_text(draw, (mid, y), t, fnt, (220, 230, 240), "ma"))
    return texts


def _info_line(view: GameView) -> str:
    bits = [_("Round {number}").format(number=view["round"]), _("Ante {amount}").format(amount=view["ante"])]
    pay = view["pay_suit"]
    if pay.upper()[:1] != "H":
        bits.append(_("Pay suit {suit}").format(suit=suit_symbol(pay)))
    return " \u2022 ".join(bits)


# ----------------------------------------------------------------- alt text


def mat_alt(view: GameView) -> str:
    bits = [view["preset_name"]]
    info = _info_line(view)
    if info:
        bits.append(info.replace(" \u2022 ", ", "))
    ph = phase_text(view["phase"])
    if ph:
        bits.append(ph)
    if view["to_act"] is not None:
        bits.append(_to_act_text(view))
    bits.append(_("dealer: {name}").format(name=name_of(view, view["dealer"])))
    text = ". ".join(bits) + "."
    spaces = ", ".join(f"{space_label(s)} {s['chips']}" for s in shown_mat(view))
    if spaces:
        text += " " + _("Mat: {spaces}.").format(spaces=spaces)
    seq = view["michigan"]["sequence"] if view["michigan"] else []
    if seq:
        text += " " + _("Michigan: {cards}.").format(cards=" ".join(card_text(c) for c in seq[-13:]))
    last = view["poker"]["last_action"] if view["poker"] else ""
    if last:
        text += " " + _("Last: {move}.").format(move=poker_move_words(last, LANGUAGE.get()))
    people = []
    for s in view["seats"]:
        p = f"{fit_name(seat_name(s), 24)} {s['stack']}"
        st = status_text(s["status"])
        if st:
            p += f" ({st.lower()})"
        people.append(p)
    if people:
        room = 1000 - len(text) - 12
        plist = ""
        for k, p in enumerate(people):
            add = (", " if plist else "") + p
            if len(plist) + len(add) > room:
                plist += ", " + ngettext("+{count} more", "+{count} more", len(people) - k).format(
                    count=len(people) - k
                )
                break
            plist += add
        text += " " + _("Players: {players}.").format(players=plist)
    return text[:1024]


# ----------------------------------------------------------------- entry point


BEFORE_SUIT_NAMED = (PhaseName.SPARE_HAND, PhaseName.AUCTION, PhaseName.SUIT_BID, PhaseName.NAME_SUIT)


def shown_mat(view: GameView) -> list[SpaceView]:
    """The mat's spaces as drawn: an optional-suit mat's pay-card spaces with the pay suit once named."""
    pay_suit = None if view["phase"] in BEFORE_SUIT_NAMED else view["pay_suit"]
    return [with_pay_suit(s, pay_suit) for s in view["mat"]]


@in_view_language
def render_mat(view: GameView) -> Rendered:
    seats = view["seats"]
    mat = shown_mat(view)
    ring, corners, center_spaces = split_mat(mat)
    title = _(view["preset_name"])
    static, static_boxes, geo = _static_layer(
        len(seats),
        title,
        tuple(_space_spec(s) for s in ring),
        tuple(_space_spec(s) for s in corners),
        tuple(_space_spec(s) for s in center_spaces),
        LANGUAGE.get(),
    )
    img = static.copy()
    draw = ImageDraw.Draw(img)
    denoms = denominations(view["chip_denominations"])
    boxes = {name: (r, list(texts)) for name, r, texts in static_boxes}
    chips_by_id = {s["id"]: s["chips"] for s in mat}
    for sid, r, top, icon_w, big in geo.tiles:
        tb = _draw_pile(img, draw, r, chips_by_id.get(sid, 0), denoms, top, icon_w, big)
        boxes[f"space:{sid}"][1].append(tb)
    # centre: info line under the title, phase / sequence under the centre spaces
    center = geo.center
    info = _info_line(view)
    center_texts = [geo.title_box]
    if info:
        fnt, t = fit_font(info, center[2] - center[0] - 8, 15, 11)
        center_texts.append(
            draw_text(
                draw,
                ((center[0] + center[2]) / 2, geo.info_y),
                t,
                fnt,
                (220, 230, 240),
                "ma",
                red=LIGHT_RED,
                black=WHITE,
            )
        )
    center_texts += _strip(img, draw, view, center, geo.below_center_y)
    seat_boxes: list[BoxSet] = []
    labels: list[Label] = []
    for seat, r in zip(seats, geo.seats):
        seat_box, seat_labels = _seat_block(img, draw, r, seat, view)
        seat_boxes.append(seat_box)
        labels += seat_labels
    all_boxes = [(n, r, tuple(t)) for n, (r, t) in boxes.items()]
    all_boxes.append(("center", center, tuple(center_texts)))
    all_boxes += [(n, r, tuple(t)) for n, r, t in seat_boxes]
    width, height = geo.size
    return Rendered(
        png=encode(img),
        alt=mat_alt(view),
        width=width,
        height=height,
        boxes=tuple(all_boxes),
        labels=tuple(labels),
    )
