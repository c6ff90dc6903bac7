"""Mats read on a phone: Discord shows a picture about 400 px wide there, so every seat's name (with
its AI level), chip stack and card count must stay at least 9 px tall at that width. The heights
are measured on the rendered pixels, not taken from a font size; names are cut by one rule that
never drops the AI level."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import PRESETS, Game
from engine.ai import LEVELS
from engine.language import words
from images import render_mat
from images.base import fit_name, font
from images.mat import mat_alt
from images.matlayout import SEAT_FONT, SEAT_PAD, mat_layout

PHONE_W = 400
MIN_PX = 9

# Capitalised, as the bot's AI seats and most display names are: a name's height is that of its
# capitals (lowercase letters are smaller in any type), as for the digits of stacks and counts.
NAMES = [
    "Ada (Normal AI)",
    "Maximilian the Magnificent",
    "Ramanujan (Hard AI)",
    "Zoe",
    "Alexandra Smith (Easy AI)",
    "Bob",
    "Dijkstra (Normal AI)",
    "Ferdinand-Alexander",
    "Lovelace (Hard AI)",
    "Hal",
]
# As the bot names its AI seats (bot.messages.tablelines.AI_SEAT_TAGS), in every language.
TAGS = [words(language).gettext(f"({level.capitalize()} AI)") for language in ("en", "fr", "de") for level in LEVELS]


def _cases():
    """Every preset at 2, 6, 9, 12 and 20 seats; presets seating at most 9 are tested at 9 instead
    of 12 and 20 (once)."""
    for key, preset in PRESETS.items():
        counts = sorted({min(n, preset.max_players) for n in (2, 6, 9, 12, 20)})
        for n in counts:
            yield pytest.param(key, n, id=f"{key}-{n}")


def _ink_height(img: Image.Image, rect, baseline: int, fill) -> int:
    """Rows from the label's top to its baseline holding text: pixels at least half as far from the
    seat's ``fill`` as the label's most contrasting pixel. Descenders (below the baseline) do not count."""
    x0, y0, x1, _ = (int(v) for v in rect)
    crop = img.crop((x0, y0, x1 + 1, baseline)).convert("RGB")
    data = crop.tobytes()
    pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
    text = max(pixels, key=lambda p: sum(abs(a - b) for a, b in zip(p, fill)))
    rows = [
        y
        for y in range(crop.height)
        for p in pixels[y * crop.width : (y + 1) * crop.width]
        if sum(abs(a - b) for a, b in zip(p, fill)) * 2 >= sum(abs(a - b) for a, b in zip(text, fill))
    ]
    return max(rows) - min(rows) + 1 if rows else 0


def _game_view(key: str, n: int):
    game = Game.new(key, NAMES[:n] + [f"Bot {k + 1} ({TAGS[k % 3][1:-1]})" for k in range(len(NAMES), n)], seed=n)
    game.next_deal()
    awaiting = game.awaiting()
    return game.view(awaiting.seat if awaiting else None)  # a player's mat: "(you)" on one seat


@pytest.mark.parametrize("key,n", list(_cases()))
def test_seats_legible_at_phone_width(key, n):
    view = _game_view(key, n)
    r = render_mat(view)
    img = Image.open(io.BytesIO(r.png)).convert("RGB")
    seats = {name: rect for name, rect, _ in r.boxes if name.startswith("seat:")}
    assert len(seats) == n
    by_seat: dict[str, dict] = {}
    for box, role, text, rect, baseline in r.labels:
        by_seat.setdefault(box, {})[role] = text
        x0, y0 = seats[box][:2]
        fill = img.getpixel((x0 + 5, y0 + 40))  # the seat's background, left of its text
        height = _ink_height(img, rect, baseline, fill)
        assert height * PHONE_W / r.width >= MIN_PX, (box, role, text, height, r.width)
    assert set(by_seat) == set(seats)
    for seat in view["seats"]:
        drawn = by_seat[f"seat:{seat['seat']}"]
        assert set(drawn) == {"name", "stack", "cards"}
        assert drawn["stack"] == str(seat["stack"]) and drawn["cards"] == str(seat["cards"])
        tag = next((t for t in TAGS if seat["name"].endswith(" " + t)), "")
        name = drawn["name"].removesuffix(" (you)")
        if seat["seat"] != view["viewer"]:
            assert name == drawn["name"]
        elif not tag:  # an AI seat's own view (never sent by the bot) may give "(you)" up for its level
            assert name != drawn["name"]
        assert name.endswith(tag), (seat["name"], drawn["name"])  # the AI level is never cut
        if name != seat["name"]:  # only the player's part is shortened, with an ellipsis
            player = name.removesuffix(" " + tag) if tag else name
            assert player.endswith("\u2026") and seat["name"].startswith(player[:-1])


@pytest.mark.parametrize("tag", TAGS)
def test_every_seat_box_holds_an_ai_level_and_letters(tag):
    """The narrowest seat box (3 to a row) keeps each level whole with the start of the name (at least
    three letters of it: "Wol… (IA normale)")."""
    f = font(SEAT_FONT, "cond")
    for n in (6, 20):
        x0, _, x1, _ = mat_layout(n).seats[0]
        limit = x1 - x0 - 2 * SEAT_PAD
        name = fit_name("Wolfgang Amadeus Mozart " + tag, limit, f.getlength)
        assert name.startswith("Wol") and name.endswith("\u2026 " + tag) and f.getlength(name) <= limit


def test_alt_text_keeps_the_ai_level():
    view = Game.new("tripoley", ["Ramanujan the Great (Normal AI)", "Bob"], seed=1).view(None)
    view["seats"][0]["stack"], view["seats"][1]["stack"] = 90, 0
    alt = mat_alt(view)
    assert "Ramanujan t\u2026 (Normal AI) 90" in alt and "Bob 0" in alt


def test_large_tables_grow_taller_not_smaller():
    sizes = {n: mat_layout(n).size for n in range(2, 21)}
    assert all(size == (1000, 700) for n, size in sizes.items() if n <= 6)
    heights = [sizes[n][1] for n in range(7, 21)]
    assert heights == sorted(heights) and heights[-1] <= 1100
    widths = {n: mat_layout(n).seats[0][2] - mat_layout(n).seats[0][0] for n in range(2, 21)}
    assert min(widths.values()) == widths[20] >= 320  # seats never narrow with the count beyond 3 a row
