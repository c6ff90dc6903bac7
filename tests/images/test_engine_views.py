"""Render real engine views for every preset at 2, 4, 9 and 20 players."""

from __future__ import annotations

import random

import pytest
from test_render import MAT_BUDGET, check_layout

from engine import PRESETS, Game
from engine.ai import autoplay
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
