"""A player's hand, the poker showdown and the end-of-game standings."""

from __future__ import annotations

import math
from typing import TypedDict, final

from PIL import Image, ImageDraw

from engine.language import N_
from engine.viewtypes import GameView, ShowdownHand, Standing

from .base import (
    BG,
    CYAN,
    GOLD,
    GREEN_UP,
    MUTED,
    PANEL,
    RED_DOWN,
    WHITE,
    Rendered,
    _,
    card_sort_key,
    card_text,
    draw_text,
    encode,
    fit_font,
    fit_name,
    font,
    hand_text,
    in_view_language,
    is_card,
    measure,
    ngettext,
    text_width,
    truncate,
)
from .cards import card_height, card_image, outline_image, shade_image
from .common import drawn_name, name_of, phase_text

SUIT_WORDS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
ACTION_WORDS = {
    "lead": N_("lead"),
    "play": N_("play"),
    "pass": N_("pass"),
    "keep": N_("keep"),
    "swap": N_("swap"),
    "auction": N_("auction"),
    "bid": N_("bid"),
    "check": N_("check"),
    "bet": N_("bet"),
    "call": N_("call"),
    "raise": N_("raise"),
    "fold": N_("fold"),
    "choose": N_("choose five"),
    "claim": N_("claim"),
    "name_suit": N_("name the suit"),
    "suit_bid": N_("bid for the suit"),
    "look": N_("look at the widow"),
    "cover": N_("cover"),
    "decline": N_("decline"),
    "corner_bet": N_("corner bet"),
    "pass_cards": N_("pass cards"),
    "reveal": N_("reveal five"),
    "full_house": N_("place a full house"),
    "straight": N_("place a straight"),
}

# ----------------------------------------------------------------- hand

HAND_CW = 120
HAND_PAD = 16
HAND_MAX_W = 1000
LIFT = 22


def _hand_cards(view: GameView) -> list[str]:
    return sorted(view["hand"] or [], key=card_sort_key)


def _selectable(view: GameView, cards: list[str]) -> set[str]:
    """The cards the awaited decision offers (``detail["cards"]``: only the seat to act has a detail)."""
    offered: list[str] = view.get("detail", {}).get("cards") or []
    return {c for c in offered if c in cards}


def _chosen(view: GameView) -> list[str]:
    """The viewer's own poker five while poker is being played (none before it is chosen)."""
    poker = view["poker"]
    return (poker["chosen"] or []) if poker and view["phase"].startswith("poker") else []


def _hand_rows(cards: list[str], cw: int, max_w: int) -> tuple[list[list[str]], int, int]:
    """Split into rows and pick the overlap step; returns (rows, step, suit_gap).

    One row while the cards stay readable (step >= 46), else two or three rows."""
    suit_gap = 14
    for nrows, min_step in ((1, 46), (2, 40), (3, 34)):
        per = math.ceil(len(cards) / nrows) if cards else 1
        rows = [r for r in (cards[i * per : (i + 1) * per] for i in range(nrows)) if r] or [[]]
        for step in (64, 58, 52, 46, 40, 34):
            if step < min_step:
                break
            if all(_row_width(r, cw, step, suit_gap) <= max_w for r in rows):
                return rows, step, suit_gap
    per = math.ceil(len(cards) / 4)
    return [cards[i * per : (i + 1) * per] for i in range(4) if cards[i * per : (i + 1) * per]], 30, 6


def _row_width(row: list[str], cw: int, step: float, gap: int) -> float:
    if not row:
        return 0
    w: float = cw
    for a, b in zip(row, row[1:]):
        w += step + (gap if a[-1] != b[-1] else 0)
    return w


def hand_alt(view: GameView, cards: list[str], selectable: set[str]) -> str:
    if not cards:
        return "Your hand is empty."
    groups = []
    for suit in "CDHS":
        ranks = [card_text(c)[:-1] for c in cards if c[-1] == suit]
        if ranks:
            groups.append(f"{SUIT_WORDS[suit]} {' '.join(ranks)}")
    others = [c for c in cards if not is_card(c)]
    if others:
        groups.append(" ".join(others))
    text = f"Your hand ({len(cards)} cards): " + " \u00b7 ".join(groups) + "."
    if selectable:
        text += " Playable: " + " ".join(card_text(c) for c in cards if c in selectable) + "."
    chosen = _chosen(view)
    if chosen:
        text += " Poker hand: " + " ".join(card_text(c) for c in chosen) + "."
    legal = view.get("legal")
    if legal:
        text += " Your turn: " + ", ".join(ACTION_WORDS.get(a, a) for a in legal) + "."
    return text[:1024]


@in_view_language
def render_hand(view: GameView) -> Rendered:
    cards = _hand_cards(view)
    selectable = _selectable(view, cards)
    chosen = set(_chosen(view))
    cw = HAND_CW
    ch = card_height(cw)
    rows, step, gap = _hand_rows(cards, cw, HAND_MAX_W - 2 * HAND_PAD)
    content_w = max([_row_width(r, cw, step, gap) for r in rows] + [0])
    header_h = 38
    lift = LIFT if selectable and len(selectable) < len(cards) else 0
    row_h = ch + lift + 8
    width = int(max(420, content_w + 2 * HAND_PAD))
    height = header_h + row_h * max(1, len(rows)) + HAND_PAD - 8
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    # header: count on the left, whose turn / phase on the right
    left = ngettext("Your hand \u00b7 {count} card", "Your hand \u00b7 {count} cards", len(cards)).format(
        count=len(cards)
    )
    lb = draw_text(draw, (HAND_PAD, 10), left, font(18), WHITE, "la")
    legal = view.get("legal")
    if legal:
        right = _("Your turn: {moves}").format(
            moves=" / ".join(_(ACTION_WORDS[a]) if a in ACTION_WORDS else a for a in legal)
        )
        colour = GOLD
    else:
        right = phase_text(view["phase"])
        colour = MUTED
    if right:
        fnt, t = fit_font(right, width - lb[2] - 2 * HAND_PAD, 16, 11)
        draw_text(draw, (width - HAND_PAD, 12), t, fnt, colour, "ra")
    if not cards:
        draw_text(draw, (width / 2, header_h + row_h / 2), _("no cards"), font(20), MUTED, "mm")
    shade = shade_image(cw, ch, 64)
    ring = outline_image(cw, ch, GOLD, 4)
    chosen_ring = outline_image(cw, ch, CYAN, 4)
    for ri, row in enumerate(rows):
        x = (width - _row_width(row, cw, step, gap)) / 2
        y0 = header_h + ri * row_h
        prev = None
        for c in row:
            if prev is not None:
                x += step + (gap if prev[-1] != c[-1] else 0)
            prev = c
            up = c in selectable
            y = y0 + (0 if up or not lift else lift)
            face = card_image(c, cw)
            img.paste(face, (int(x), int(y)), face)
            if selectable and not up:
                img.paste(shade, (int(x), int(y)), shade)
            if up:
                img.paste(ring, (int(x), int(y)), ring)
            elif c in chosen:
                img.paste(chosen_ring, (int(x), int(y)), chosen_ring)
            if c in chosen and up:
                draw.ellipse((x + cw - 20, y + ch - 20, x + cw - 8, y + ch - 8), fill=CYAN)
    return Rendered(png=encode(img), alt=hand_alt(view, cards, selectable), width=width, height=height)


# ----------------------------------------------------------------- showdown

SD_CW = 60
SD_STEP = 64


def _showdown_entries(view: GameView) -> list[ShowdownHand]:
    """The round's showdown, else the last showdown event's hands (e.g. the end-of-game playoff).
    Events are plain records (``Event.to_dict``: the ``type`` and the event's fields)."""
    poker = view["poker"]
    if poker and poker["showdown"]:
        return list(poker["showdown"])
    for ev in reversed(view["events"]):
        if ev["type"] == "showdown":
            return [
                {"seat": int(seat), "cards": list(h["cards"]), "hand": h["hand"]} for seat, h in ev["hands"].items()
            ]
    return []


def _winnings(view: GameView) -> dict[int, int]:
    """Chips each seat took from the poker pot, from the recent payout events."""
    pot_ids = {s["id"] for s in view["mat"] if s["kind"] == "poker"} or {"pot"}
    won: dict[int, int] = {}
    for ev in view["events"]:
        if ev["type"] == "payout" and (ev["reason"] in ("poker", "playoff") or ev["space"] in pot_ids):
            won[ev["seat"]] = won.get(ev["seat"], 0) + ev["amount"]
    return won


def showdown_alt(view: GameView, entries: list[ShowdownHand], winners: list[int], won: dict[int, int]) -> str:
    if not entries and not winners:
        return "No showdown."
    parts = []
    for e in entries:
        who = name_of(view, e["seat"])
        cards = " ".join(card_text(c) for c in e["cards"])
        hand = e["hand"]
        tag = ""
        if e["seat"] in winners:
            tag = f" \u2014 wins {won[e['seat']]}" if won.get(e["seat"]) else " \u2014 wins"
        parts.append(f"{who}: {cards} ({hand}){tag}")
    text = "Showdown. " + "; ".join(parts) + "." if parts else ""
    if not entries and winners:
        text = f"{name_of(view, winners[0])} wins the pot uncontested" + (
            f" ({won.get(winners[0])})." if won.get(winners[0]) else "."
        )
    return text[:1024]


@in_view_language
def render_showdown(view: GameView) -> Rendered:
    poker = view["poker"]
    entries = _showdown_entries(view)
    won = _winnings(view)
    winners = list(poker["winners"]) if poker else []
    if not winners:
        winners = [s for s, a in won.items() if a]
    n = len(entries)
    ncols = 1 if n <= 3 else 2 if n <= 10 else 3
    cell_w = SD_CW + 4 * SD_STEP + 24 + (130 if ncols == 1 else 0)
    ch = card_height(SD_CW)
    cell_h = 30 + ch + 12
    pad = 14
    rows = max(1, math.ceil(n / ncols))
    width = max(520, ncols * cell_w + (ncols + 1) * pad)
    title_h = 64
    height = title_h + rows * (cell_h + pad) + pad
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    total = sum(won.values())
    draw_text(draw, (pad, 10), _("Showdown"), font(22), GOLD, "la")
    if winners:
        names = [name_of(view, w) for w in winners]
        if len(winners) == 1 and won.get(winners[0]):
            line = _("{name} wins {amount}").format(name=names[0], amount=won.get(winners[0]))
        elif len(winners) == 1:
            line = _("{name} wins the pot").format(name=names[0])
        else:
            shares = ", ".join(f"{nm} {won.get(w, '')}".strip() for nm, w in zip(names, winners))
            line = (_("Split pot: {shares} (of {total})") if total else _("Split pot: {shares}")).format(
                shares=shares, total=total
            )
        fnt, t = fit_font(line, width - 2 * pad, 17, 11)
        draw_text(draw, (pad, 38), t, fnt, WHITE, "la")
    if not entries:
        msg = _("Everyone else folded: no cards shown") if winners else _("No showdown this round")
        draw_text(draw, (width / 2, title_h + (cell_h) / 2), msg, font(18), MUTED, "mm")
    gold_ring = outline_image(SD_CW, ch, GOLD, 3)
    for k, e in enumerate(entries):
        col, row = k % ncols, k // ncols
        x0 = pad + col * (cell_w + pad)
        y0 = title_h + row * (cell_h + pad)
        is_win = e["seat"] in winners
        draw.rounded_rectangle(
            (x0, y0, x0 + cell_w, y0 + cell_h),
            radius=10,
            fill=(64, 58, 30) if is_win else PANEL,
            outline=GOLD if is_win else (84, 92, 104),
            width=3 if is_win else 1,
        )
        name = name_of(view, e["seat"]) or "?"
        tag = ""
        if is_win:
            tag = _("WINS {amount}").format(amount=won[e["seat"]]) if won.get(e["seat"]) else _("WINNER")
        ftag = font(14)
        tag_w = text_width(tag, ftag) + 10 if tag else 0
        fnt = font(16)
        draw_text(
            draw,
            (x0 + 10, y0 + 7),
            fit_name(name, cell_w * 0.5 - 10, measure(fnt)),
            fnt,
            GOLD if is_win else WHITE,
            "la",
        )
        hand_name = hand_text(e["hand"].replace("-", " "))
        hx = x0 + cell_w - 10 - tag_w
        if hand_name:
            hf, ht = fit_font(hand_name, cell_w * 0.5 - 10 - tag_w, 15, 10)
            draw_text(draw, (hx, y0 + 8), ht, hf, (220, 230, 240), "ra")
        if tag:
            draw_text(draw, (x0 + cell_w - 10, y0 + 8), tag, ftag, GOLD, "ra")
        cards = e["cards"][:7]
        step = SD_STEP if len(cards) <= 5 else (4 * SD_STEP) / max(1, len(cards) - 1)
        cx = x0 + 12
        for i, c in enumerate(cards):
            face = card_image(c, SD_CW)
            img.paste(face, (int(cx + i * step), y0 + 32), face)
            if is_win:
                img.paste(gold_ring, (int(cx + i * step), y0 + 32), gold_ring)
    return Rendered(png=encode(img), alt=showdown_alt(view, entries, winners, won), width=width, height=height)


# ----------------------------------------------------------------- summary


class SummaryRow(TypedDict):
    """A player's line of the final standings: ``net`` None when unknown, ``detail`` the pots won and best hand."""

    name: str
    stack: int
    net: int | None
    detail: str | None


@final
class Summary(TypedDict):
    """What the standings picture is drawn from when the game's results are known (the bot's results)."""

    preset_name: str
    standings: list[SummaryRow]
    highlights: list[str]  # the game's highlights in words: the first three are drawn


def standing_rows(standings: list[Standing]) -> list[SummaryRow]:
    return [
        {"name": drawn_name(r["name"], r["seat"]), "stack": r["stack"], "net": r["net"], "detail": None}
        for r in standings
    ]


def _standings(source: GameView | Summary | list[Standing]) -> tuple[str, list[SummaryRow], list[str]]:
    """The title, the rows (best first) and the highlights lines of a summary."""
    highlights: list[str] = []
    if isinstance(source, list):
        title, rows = _("Game over"), standing_rows(source)
    elif "seats" in source:
        title, rows = _(source["preset_name"]), standing_rows(source["standings"])
    else:
        rows = [{**r, "name": drawn_name(r["name"], i)} for i, r in enumerate(source["standings"])]
        title, highlights = _(source["preset_name"]), source["highlights"][:3]
    return title, sorted(rows, key=lambda r: -r["stack"]), highlights


def summary_alt(title: str, rows: list[SummaryRow], highlights: list[str]) -> str:
    parts = []
    for i, r in enumerate(rows, 1):
        net = "" if r["net"] is None else f" ({r['net']:+d})"
        detail = f", {r['detail']}" if r["detail"] else ""
        parts.append(f"{i}. {fit_name(r['name'], 24)} {r['stack']}{net}{detail}")
    told = "".join(f" {line}" for line in highlights)
    return (f"{title}: final standings. " + "; ".join(parts) + "." + told)[:1024]


@in_view_language
def render_summary(view_or_standings: GameView | Summary | list[Standing]) -> Rendered:
    """The final standings: a row per player (chips, won or lost with a bar, and under the name the
    pots they won and their best hand), the game's highlights under the title."""
    title, rows, highlights = _standings(view_or_standings)
    pad = 18
    detailed = any(r["detail"] for r in rows)
    row_h = 48 if detailed else 34
    width = 720
    lines_h = 24 * len(highlights)
    head_h = 78 + lines_h
    height = head_h + row_h * max(1, len(rows)) + pad
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    fnt, t = fit_font(_("{title} \u2014 final standings").format(title=title), width - 2 * pad, 22, 14)
    draw_text(draw, (pad, 14), t, fnt, GOLD, "la")
    for i, line in enumerate(highlights):
        hf, ht = fit_font(line, width - 2 * pad, 16, 12)
        draw_text(draw, (pad, 46 + 24 * i), ht, hf, CYAN, "la")
    f13 = font(13)
    cols = {"rank": pad + 30, "name": pad + 46, "stack": 470, "net": 560}
    draw_text(draw, (cols["name"], 52 + lines_h), _("PLAYER"), f13, MUTED, "la")
    draw_text(draw, (cols["stack"], 52 + lines_h), _("CHIPS"), f13, MUTED, "ra")
    draw_text(draw, (cols["net"] + 60, 52 + lines_h), _("WON / LOST"), f13, MUTED, "ra")
    maxabs = max([abs(r["net"]) for r in rows if r["net"] is not None] + [1])
    f16 = font(16)
    for i, r in enumerate(rows):
        y = head_h + i * row_h
        if i % 2 == 0:
            draw.rectangle((pad, y, width - pad, y + row_h - 2), fill=PANEL)
        mid = y + row_h / 2 - 1
        name_y = y + 16 if detailed else mid
        colour = GOLD if i == 0 else WHITE
        draw_text(draw, (cols["rank"], name_y), f"{i + 1}.", f16, colour, "rm")
        name_w = cols["stack"] - 70 - cols["name"]
        draw_text(draw, (cols["name"], name_y), fit_name(r["name"], name_w, measure(f16)), f16, colour, "lm")
        if r["detail"]:
            draw_text(draw, (cols["name"], y + 35), truncate(r["detail"], f13, name_w), f13, MUTED, "lm")
        draw_text(draw, (cols["stack"], mid), str(r["stack"]), f16, WHITE, "rm")
        net = r["net"]
        if net is not None:
            c = GREEN_UP if net > 0 else RED_DOWN if net < 0 else MUTED
            draw_text(draw, (cols["net"] + 60, mid), f"{net:+d}" if net else "0", f16, c, "rm")
            # bar, centred on the zero line
            lo, hi = 636, width - pad - 8
            zero = (lo + hi) // 2
            span = (hi - lo) // 2
            bl = max(2, int(abs(net) / maxabs * span)) if net else 0
            if net > 0:
                draw.rectangle((zero, mid - 6, zero + bl, mid + 6), fill=GREEN_UP)
            elif net < 0:
                draw.rectangle((zero - bl, mid - 6, zero, mid + 6), fill=RED_DOWN)
            draw.line((zero, y + 4, zero, y + row_h - 6), fill=MUTED)
    if not rows:
        draw_text(draw, (width / 2, head_h + row_h / 2), _("no players"), f16, MUTED, "mm")
    return Rendered(png=encode(img), alt=summary_alt(title, rows, highlights), width=width, height=height)
