"""Names are drawn as typed: markup, mentions, emoji, right-to-left text and 32 characters keep the
layout (every text inside its box, the image its usual size) and reach the alt text literally."""

from __future__ import annotations

import pytest
from image_views import make_view
from test_render import check_layout, png_size

from images import render_mat, render_showdown, render_summary
from images.base import fit_name
from images.matlayout import mat_layout

HOSTILE = [
    "<@123456789012345678> **bold**",
    "@everyone @here ||spoiler||",
    "[x](https://evil.example) `c`",
    "# h <@&123456789012345678>",
    "🃏👑 مرحبا שלום \u202eevil xxxxxxxxxxx",
    "ＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷＷ",
]


def named(view: dict) -> dict:
    for i, seat in enumerate(view["seats"]):
        seat["name"] = HOSTILE[i % len(HOSTILE)]
    for row in view.get("standings") or []:
        row["name"] = HOSTILE[row["seat"] % len(HOSTILE)]
    return view


@pytest.mark.parametrize("players", [6, 20])
def test_hostile_names_keep_the_mat_layout(players):
    view = named(make_view("rummy-royal", players, phase="poker-betting"))
    r = render_mat(view)
    assert png_size(r.png) == (r.width, r.height) == mat_layout(players).size
    check_layout(r)
    # Literally (alt text is plain text, not markdown), less the direction override.
    assert (
        any(name in r.alt for name in HOSTILE[:4])
        and "@everyone" in r.alt
        and "\\" not in r.alt
        and "\u202e" not in r.alt
    )


def test_hostile_names_keep_the_summary_and_showdown_layout():
    view = named(make_view("tripoley", 6, phase="finished"))
    plain = render_summary(make_view("tripoley", 6, phase="finished"))
    summary = render_summary(view)
    assert png_size(summary.png) == (summary.width, summary.height) == (plain.width, plain.height)
    assert "@everyone @here ||spoil\u2026" in summary.alt  # literally (names are cut to 24 characters there)
    showdown = render_showdown(view)
    assert png_size(showdown.png) == (showdown.width, showdown.height)


def test_fit_name_keeps_the_ai_level_and_cuts_the_player():
    assert fit_name("Ada (Normal AI)", 20) == "Ada (Normal AI)"
    assert fit_name("Alexandra Smith (Hard AI)", 19) == "Alexandr\u2026 (Hard AI)"
    assert fit_name("Alexandra Smith (Hard AI)", 24) == "Alexandra Smi\u2026 (Hard AI)"
    assert fit_name("Maximilian the Magnificent", 12) == "Maximilian\u2026"
    assert fit_name("Maximilian the Magnificent", 16, suffix=" (you)") == "Maximilia\u2026 (you)"
    assert fit_name("Ferdinand (Hard AI)", 11) == "\u2026 (Hard AI)"  # no room for a letter: the level stays
    # Only a trailing "(Level AI)" after a name is a level; anything else is the player's own text.
    assert fit_name("(Hard AI)", 6) == "(Hard\u2026"
    assert fit_name("Sam (hard ai) the Great", 10) == "Sam (hard\u2026"
    assert fit_name("Ada (Normal AI)", 14, suffix=" (you)") == "A\u2026 (Normal AI)"  # "(you)" gives way
    # Narrower than the level itself (no box the renderers lay out): the whole text is cut.
    assert fit_name("Ada (Normal AI)", 8) == "Ada (No\u2026"


def test_standings_keep_the_ai_level():
    view = make_view("tripoley", 4, phase="finished")
    for row in view["standings"]:
        row["name"] = "Ramanujan the Great (Normal AI)"
    assert "Ramanujan t\u2026 (Normal AI)" in render_summary(view).alt
