"""Render timings: mat render + PNG encode, hand render + encode, PNG sizes.

    python bench/bench_images.py [--repeat N] [--names world]

Uses real engine views (every preset, 2/4/9/20 players where the preset
allows) taken at several points of a game, so the text and chip caches see
changing states, not one view over and over. ``--names world`` seats the nicknames of
``images.samples.WORLD_NAMES`` (emoji, CJK, Arabic…: every run through the font fallback).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import PRESETS, Game  # noqa: E402
from engine.ai import autoplay  # noqa: E402
from images import render_hand, render_mat  # noqa: E402
from images.samples import NAMES, WORLD_NAMES  # noqa: E402


def views(names: list[str], per_game: int = 6):
    out = []
    for preset in PRESETS:
        p = PRESETS[preset]
        for n in (2, 4, 9, 20):
            if not (getattr(p, "min_players", 2) <= n <= getattr(p, "max_players", 20)):
                continue
            g = Game.new(preset, names[:n], seed=n)
            for step, aw in enumerate(autoplay(g, "heuristic", random.Random(n))):
                if step >= 400:
                    break
                if aw is not None and step % max(1, 40 // per_game) == 0 and len(out) < 10_000:
                    out.append(g.view(aw.seat))
    return out


def timed(fn, items, repeat):
    times, sizes = [], []
    for _ in range(repeat):
        for v in items:
            t = time.perf_counter()
            r = fn(v)
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(r.png))
    return times, sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--names", choices=("sample", "world"), default="sample")
    args = ap.parse_args()
    vs = views(WORLD_NAMES if args.names == "world" else NAMES)
    render_mat(vs[0])  # load fonts
    mt, ms = timed(render_mat, vs, args.repeat)
    hv = [v for v in vs if v.get("hand")]
    ht, hs = timed(render_hand, hv, args.repeat)

    def q(xs, p):
        return sorted(xs)[min(len(xs) - 1, int(len(xs) * p))]

    print(f"views: {len(vs)} (presets: {', '.join(PRESETS)})")
    print(
        f"mat  render+encode: median {statistics.median(mt):.1f} ms, p90 {q(mt, 0.9):.1f} ms, "
        f"max {max(mt):.1f} ms  (target median <= 30 ms)"
    )
    print(
        f"mat  PNG size:      median {statistics.median(ms) / 1024:.0f} KB, max {max(ms) / 1024:.0f} KB"
        f"  (budget 300 KB)"
    )
    print(
        f"hand render+encode: median {statistics.median(ht):.1f} ms, p90 {q(ht, 0.9):.1f} ms, "
        f"max {max(ht):.1f} ms  (target median <= 15 ms)"
    )
    print(f"hand PNG size:      median {statistics.median(hs) / 1024:.0f} KB, max {max(hs) / 1024:.0f} KB")
    ok = statistics.median(mt) <= 30 and statistics.median(ht) <= 15 and max(ms) <= 300 * 1024
    print("OK" if ok else "OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
