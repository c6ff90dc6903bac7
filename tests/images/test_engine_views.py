"""Render real engine views for every preset at 2, 4, 9 and 20 players."""

from __future__ import annotations

import random

import pytest
from test_render import MAT_BUDGET, check_layout

from engine import PRESETS, Game
from engine.ai import autoplay
from engine.viewtypes import GameView
from images import render_hand, render_mat, render_showdown, render_summary
from images.samples import NAMES

CASES = [(p, n) for p in PRESETS for n in (2, 4, 9, 20)]


def _fits(preset, n):
    p = PRESETS[preset]
    return getattr(p, "min_players", 2) <= n <= getattr(p, "max_players", 20)


@pytest.mark.parametrize("preset,players", CASES)
def test_real_views_render(preset, players):
    if not _fits(preset, players):
        with pytest.raises(ValueError, match="players"):
            Game.new(preset, NAMES[:players], seed=1)
        return
    g = Game.new(preset, NAMES[:players], seed=players)
    seen_phases = set()
    showdowns = 0
    for step, aw in enumerate(autoplay(g, "heuristic", random.Random(players))):
        if step >= 600:
            break
        if aw is None:
            continue
        v = g.view(aw.seat)
        if v["phase"] not in seen_phases or step % 25 == 0:
            seen_phases.add(v["phase"])
            r = render_mat(v)
            assert len(r.png) <= MAT_BUDGET
            check_layout(r)
            spaces = [b for b in r.boxes if b[0].startswith("space:")]
            assert len(spaces) == len(v["mat"])
            assert len([b for b in r.boxes if b[0].startswith("seat:")]) == players
            if v.get("hand"):
                h = render_hand(v)
                assert h.width <= 1000 and h.png.startswith(b"\x89PNG")
            if v["poker"] and v["poker"].get("showdown") and showdowns < 2:
                showdowns += 1
                assert "Showdown" in render_showdown(v).alt
    pub = g.view(None)
    assert render_mat(pub).png.startswith(b"\x89PNG")
    assert render_summary(pub).alt


def test_the_bots_pictures_are_drawn_from_whole_views():
    """The bot draws the mat from ``picture_view`` (its text-only parts blank) and the standings from
    its results: both of the shapes the renderers read (a GameView, a Summary), every key there."""
    from bot.messages.outgoing import picture_view
    from images.hands import Summary
    from tests.viewshape import assert_shape

    g = Game.new("tripoley", NAMES[:4], seed=3)
    steps = autoplay(g, "heuristic", random.Random(3))
    while not ((poker := g.view(None)["poker"]) and poker["last_action"]):
        next(steps)
    view = picture_view(g.view(None), "en")
    assert_shape(view, GameView)
    assert view["poker"]["last_action"] == "" and view["events"] == [] and view["standings"] == []
    assert render_mat(view).png.startswith(b"\x89PNG")
    summary = {
        "preset_name": "Tripoley (Cadaco)",
        "standings": [{"name": "Ann", "stack": 120, "net": 20, "detail": "won 2 pots"}],
        "highlights": ["Ann won the biggest pot"],
    }
    assert_shape(summary, Summary)
    assert "won 2 pots" in render_summary(summary).alt
