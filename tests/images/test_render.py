"""Renderer tests on synthetic views (docs/engine-api.md "View")."""

from __future__ import annotations

import io
import itertools

import pytest
from image_views import PRESETS, make_view
from PIL import Image

from engine import Game
from engine.viewtypes import GameView
from images import Rendered, render_hand, render_mat, render_showdown, render_summary
from images.base import rect_inside, rects_intersect
from images.matlayout import mat_layout
from tests.viewshape import assert_shape

MAT_BUDGET = 300 * 1024


def check_layout(r: Rendered):
    """Every text inside its box, boxes inside the image, no two boxes overlapping."""
    image = (0, 0, r.width, r.height)
    boxes = list(r.boxes)
    assert boxes
    center = next((b for b in boxes if b[0] == "center"), None)
    for name, rect, texts in boxes:
        assert rect_inside(rect, image), (name, rect)
        for t in texts:
            assert rect_inside(t, rect), (name, rect, t)
    for (n1, r1, _), (n2, r2, _) in itertools.combinations(boxes, 2):
        if center is not None and {n1, n2} & {"center"}:
            other = r2 if n1 == "center" else r1
            if rect_inside(other, center[1]):
                continue  # a centre space inside the centre area
        assert not rects_intersect(r1, r2), (n1, r1, n2, r2)
    # the centre area's own texts do not run into the centre spaces
    if center is not None:
        inner = [b for b in boxes if b[0] != "center" and rect_inside(b[1], center[1])]
        for t in center[2]:
            for name, rect, _ in inner:
                assert not rects_intersect(t, rect), (t, name, rect)


def png_size(data: bytes):
    with Image.open(io.BytesIO(data)) as im:
        return im.size


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4, 9, 20])
def test_mat_every_preset_and_size(preset, players):
    view = make_view(preset, players, phase="michigan-play")
    r = render_mat(view)
    assert r.png.startswith(b"\x89PNG")
    assert png_size(r.png) == (r.width, r.height) == mat_layout(players).size
    assert r.width == 1000 and (r.height == 700 if players <= 6 else 700 < r.height <= 1100)
    assert len(r.png) <= MAT_BUDGET
    assert 0 < len(r.alt) <= 1024
    check_layout(r)
    seats = [b for b in r.boxes if b[0].startswith("seat:")]
    spaces = [b for b in r.boxes if b[0].startswith("space:")]
    assert len(seats) == players
    assert len(spaces) == len(view["mat"])


@pytest.mark.parametrize("phase", ["spare-hand", "auction", "poker-betting", "michigan-lead", "round-over", "finished"])
def test_mat_phases(phase):
    view = make_view("tripoley", 6, phase=phase, viewer=2)
    view["spare"]["auction"] = {"high_bid": 3, "high_bidder": 1}
    view["michigan"]["out"] = 1
    r = render_mat(view)
    check_layout(r)


def test_long_names_are_truncated():
    view = make_view("rummoli", 20)
    for s in view["seats"]:
        s["name"] = "W" * 60 + "\n" + "x" * 40
    r = render_mat(view)
    check_layout(r)
    assert len(r.alt) <= 1024


def test_identical_views_identical_bytes():
    a = render_mat(make_view("great-lakes", 9, seed=4))
    b = render_mat(make_view("great-lakes", 9, seed=4))
    assert a.png == b.png and a.alt == b.alt
    c = render_mat(make_view("great-lakes", 9, seed=5))
    assert c.png != a.png
    h1 = render_hand(make_view("tripoley", 4, viewer=1))
    h2 = render_hand(make_view("tripoley", 4, viewer=1))
    assert h1.png == h2.png


def test_a_view_before_the_first_deal_renders():
    """No round yet: no hand, no poker, no Michigan, no spare hand (None in the view)."""
    view = Game.new("tripoley", ["ann", "bob", "cat"], seed=1).view(0)
    assert view["poker"] is None and view["hand"] is None
    for render in (render_mat, render_hand, render_showdown, render_summary):
        assert render(view).png.startswith(b"\x89PNG")
    assert render_summary([]).alt.startswith("Game over: final standings.")  # no standings given


def test_optional_suit_labels():
    view = make_view("tripoley", 4)
    for s in view["mat"]:
        if s["kind"] in ("card", "combo"):
            s["label"] = s["label"].rstrip("\u2665")
    view["pay_suit"] = "S"
    r = render_mat(view)
    assert "10\u2660" in r.alt
    view["phase"] = "suit-bid"
    assert "10 ?" in render_mat(view).alt


@pytest.mark.parametrize("n", [0, 1, 5, 13, 18, 26, 40])
def test_hand_sizes(n):
    view = make_view("tripoley", 2, viewer=1, hand_size=max(n, 1))
    view["hand"] = view["hand"][:n] if n <= 52 else view["hand"]
    if n > 18:
        deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
        view["hand"] = (deck * 2)[:n]
    r = render_hand(view)
    w, h = png_size(r.png)
    assert (w, h) == (r.width, r.height)
    assert w <= 1000 and h <= 700
    assert len(r.png) <= 300 * 1024


def test_hand_sorted_and_marked():
    view = make_view("tripoley", 4, viewer=1)
    view["hand"] = ["AS", "2C", "TH", "3C", "KD"]
    view["legal"] = ["lead"]
    view["detail"] = {"cards": ["2C", "TH"]}
    r = render_hand(view)
    assert r.alt.startswith("Your hand (5 cards): \u2663 2 3 \u00b7 \u2666 K \u00b7 \u2665 10 \u00b7 \u2660 A.")
    assert "Playable: 2\u2663 10\u2665" in r.alt
    assert "Your turn: lead" in r.alt


def test_showdown_and_summary():
    view = make_view("tripoley", 4)
    view["poker"]["showdown"] = [
        {"seat": 0, "cards": ["AS", "AD", "KC", "KD", "2H"], "hand": "two pair"},
        {"seat": 2, "cards": ["QS", "QD", "QC", "3D", "2C"], "hand": "three of a kind"},
        {"seat": 3, "cards": ["QH", "QC", "QD", "3H", "2S"], "hand": "three of a kind"},
    ]
    view["poker"]["winners"] = [2, 3]
    view["events"] = [
        {"type": "payout", "space": "pot", "seat": 2, "amount": 13, "reason": "poker"},
        {"type": "payout", "space": "pot", "seat": 3, "amount": 12, "reason": "poker"},
    ]
    r = render_showdown(view)
    assert "wins 13" in r.alt and "wins 12" in r.alt
    assert png_size(r.png) == (r.width, r.height)
    big = make_view("tripoley", 20)
    big["poker"]["showdown"] = [
        {"seat": i, "cards": ["AS", "AD", "KC", "KD", "2H"], "hand": "two pair"} for i in range(20)
    ]
    r = render_showdown(big)
    assert r.height <= 1200
    s = render_summary(view)
    assert "final standings" in s.alt
    s2 = render_summary(view["standings"])
    assert s2.png == render_summary(view["standings"]).png


def test_folded_showdown():
    view = make_view("tripoley", 4)
    view["poker"]["winners"] = [1]
    r = render_showdown(view)
    assert "uncontested" in r.alt


@pytest.mark.parametrize("preset", PRESETS)
def test_the_made_up_views_have_the_engines_shape(preset):
    """The renderers read views as ``GameView`` (no key looked for in vain): the views these tests
    make up must have that shape too."""
    for phase in ("michigan-play", "poker-betting"):
        for viewer in (None, 1):
            assert_shape(make_view(preset, 9, viewer=viewer, phase=phase), GameView)
