"""A tournament's standings as a picture: one row per competitor, best first, the prize winners gilded.

Pure: drawn from plain data, every word in it given by the caller (bot/messages/tournaments.py makes
them, so the picture and the message say the same):

- ``title``: the heading; ``headings``: the column headings ``place``, ``name``, ``reached``, ``prize``;
- ``rows``: best first, each ``{"place": "1", "name": str, "reached": str, "prize": str, "paid": bool,
  "out": bool}`` (``out``: left or knocked out, drawn muted);
- ``alt``: the picture in words.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from .base import BG, GOLD, MUTED, PANEL, WHITE, Rendered, draw_text, encode, fit_font, font, truncate

WIDTH = 720
PAD = 18
TOP = 64
ROW_H = 30
MAX_ROWS = 40
COLUMNS = {"place": PAD + 44, "name": PAD + 64, "reached": 470, "prize": WIDTH - PAD - 12}


def render_tournament(standings: dict[str, Any]) -> Rendered:
    rows = list(standings.get("rows") or [])[:MAX_ROWS]
    height = TOP + 30 + ROW_H * max(len(rows), 1) + PAD
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    title_font, title = fit_font(str(standings.get("title") or ""), WIDTH - 2 * PAD, 22, 14)
    draw_text(draw, (PAD, 18), title, title_font, GOLD, "la")
    f13, f16 = font(13), font(16)
    headings = standings.get("headings") or {}
    for key, anchor in (("place", "ra"), ("name", "la"), ("reached", "la"), ("prize", "ra")):
        draw_text(draw, (COLUMNS[key], TOP), str(headings.get(key, "")), f13, MUTED, anchor)
    for i, row in enumerate(rows):
        y = TOP + 30 + i * ROW_H + ROW_H / 2
        if i % 2 == 0:
            draw.rectangle((PAD, y - ROW_H / 2, WIDTH - PAD, y + ROW_H / 2 - 2), fill=PANEL)
        colour = GOLD if row.get("paid") else MUTED if row.get("out") else WHITE
        draw_text(draw, (COLUMNS["place"], y), str(row.get("place", "")), f16, colour, "rm")
        name = truncate(str(row.get("name", "")), f16, COLUMNS["reached"] - COLUMNS["name"] - 16)
        draw_text(draw, (COLUMNS["name"], y), name, f16, colour, "lm")
        reached = truncate(str(row.get("reached", "")), f13, COLUMNS["prize"] - COLUMNS["reached"] - 90)
        draw_text(draw, (COLUMNS["reached"], y), reached, f13, colour, "lm")
        draw_text(draw, (COLUMNS["prize"], y), str(row.get("prize", "")), f16, colour, "rm")
    return Rendered(png=encode(img), alt=str(standings.get("alt") or "")[:1024], width=WIDTH, height=height)
