"""Compare renders of fixed synthetic views with committed reference PNGs.

Regenerate after an intended change with ``UPDATE_IMAGE_REFERENCES=1 pytest tests/images``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from image_views import make_view
from PIL import Image, ImageChops

from images import render_hand, render_mat, render_showdown, render_summary

REF = Path(__file__).resolve().parent / "reference"


def _showdown_view():
    v = make_view("tripoley", 4, seed=2)
    v["poker"]["showdown"] = [
        {"seat": 0, "cards": ["AS", "AD", "KC", "KD", "2H"], "hand": "two pair"},
        {"seat": 2, "cards": ["QS", "QD", "QC", "3D", "2C"], "hand": "three of a kind"},
    ]
    v["poker"]["winners"] = [2]
    v["events"] = [{"type": "payout", "space": "pot", "seat": 2, "amount": 25, "reason": "poker"}]
    return v


def _hand_view():
    v = make_view("tripoley", 4, viewer=1, seed=3)
    v["hand"] = ["AS", "2C", "TH", "3C", "KD", "QH", "JS", "7D", "9H", "5S", "QC"]
    v["legal"] = ["lead"]
    v["detail"] = {"cards": ["2C", "7D", "9H", "5S"]}
    return v


CASES = {
    "mat-tripoley-4": lambda: render_mat(make_view("tripoley", 4, seed=1)),
    "mat-great-lakes-20": lambda: render_mat(make_view("great-lakes", 20, seed=2, phase="poker-betting")),
    "mat-rummy-royal-9": lambda: render_mat(make_view("rummy-royal", 9, seed=3)),
    "hand": lambda: render_hand(_hand_view()),
    "showdown": lambda: render_showdown(_showdown_view()),
    "summary": lambda: render_summary(make_view("wanagan", 6, seed=4)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_reference(name):
    r = CASES[name]()
    path = REF / f"{name}.png"
    if os.environ.get("UPDATE_IMAGE_REFERENCES") or not path.exists():
        REF.mkdir(parents=True, exist_ok=True)
        path.write_bytes(r.png)
        if not os.environ.get("UPDATE_IMAGE_REFERENCES"):
            pytest.skip(f"reference {path.name} created")
    got = Image.open(io.BytesIO(r.png)).convert("RGB")
    ref = Image.open(path).convert("RGB")
    assert got.size == ref.size
    diff = ImageChops.difference(got, ref).convert("L")
    hist = diff.histogram()
    total = got.size[0] * got.size[1]
    off = sum(hist[33:])  # pixels off by more than 32 levels (font rasteriser differences)
    mean = sum(i * n for i, n in enumerate(hist)) / total
    assert off / total < 0.005 and mean < 1.5, f"{name}: {off} pixels differ, mean diff {mean:.2f}"
