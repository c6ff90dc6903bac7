"""Benchmark of engine.hands.evaluate (prints figures; not a test).

    python bench/bench_eval.py [--hands N] [--repeat R]

Hands are pre-generated with a seeded RNG; only evaluation is timed (best of
R runs). treys (optional bench extra: pip install -e '.[bench]') is timed on
the same 7-card hands, converted to its card format beforehand.

Targets (pure Python, one core): >= 150,000 hands/s at 7 cards, >= 100,000
hands/s at 17 cards, and >= 2x treys at 7 cards.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import RANKS, SUITS, shuffled_deck  # noqa: E402
from engine.hands import evaluate  # noqa: E402

TARGET_7 = 150_000
TARGET_17 = 100_000
TARGET_TREYS_RATIO = 2.0


def make_hands(n: int, size: int, decks: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        deck = shuffled_deck(rng, decks) if decks > 1 else rng.sample(range(52), size)
        hands.append(deck[:size])
    return hands


def time_it(fn, hands, repeat: int) -> float:
    """Best hands/s over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(hands)
        best = min(best, time.perf_counter() - t0)
    return len(hands) / best


def run_ours(hands):
    ev = evaluate
    for h in hands:
        ev(h)


def run_ours_wild(wild):
    def run(hands):
        ev = evaluate
        for h in hands:
            ev(h, wild)

    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n, rep = args.hands, args.repeat

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{n:,} random hands per row, best of {rep}"
    )
    h7 = make_hands(n, 7, 1, seed=7)
    h13 = make_hands(n, 13, 1, seed=13)
    h17 = make_hands(n, 17, 1, seed=17)
    h17x2 = make_hands(n, 17, 2, seed=172)
    h30x4 = make_hands(n // 4, 30, 4, seed=304)
    wild = frozenset(RANKS.index(r) * 4 + SUITS.index(s) for r, s in ("KH", "TD", "7S", "4C"))

    rows: list[tuple[str, float, str]] = []
    r7 = time_it(run_ours, h7, rep)
    rows.append(("evaluate, 7 cards, 1 deck", r7, f">= {TARGET_7:,}: {'MET' if r7 >= TARGET_7 else 'NOT MET'}"))
    rows.append(("evaluate, 13 cards, 1 deck", time_it(run_ours, h13, rep), ""))
    r17 = time_it(run_ours, h17, rep)
    rows.append(("evaluate, 17 cards, 1 deck", r17, f">= {TARGET_17:,}: {'MET' if r17 >= TARGET_17 else 'NOT MET'}"))
    rows.append(("evaluate, 17 cards, 2 decks", time_it(run_ours, h17x2, rep), ""))
    rows.append(("evaluate, 30 cards, 4 decks", time_it(run_ours, h30x4, rep), ""))
    rows.append(("evaluate, 7 cards, 4 wild cards", time_it(run_ours_wild(wild), h7, rep), "(wild path; no target)"))

    try:
        from treys import Card, Evaluator
    except ImportError:
        Card = Evaluator = None
    if Evaluator is None:
        rows.append(("treys, 7 cards", 0.0, "skipped: treys not installed (pip install -e '.[bench]')"))
        treys_ok = None
    else:
        tev = Evaluator()
        conv = [Card.new(RANKS[c >> 2] + SUITS[c & 3].lower()) for c in range(52)]
        th7 = [([conv[c] for c in h[:2]], [conv[c] for c in h[2:]]) for h in h7]

        def run_treys(hands):
            e = tev.evaluate
            for hand, board in hands:
                e(hand, board)

        rt = time_it(run_treys, th7, rep)
        ratio = r7 / rt
        treys_ok = ratio >= TARGET_TREYS_RATIO
        rows.append(
            (
                "treys, 7 cards (same hands)",
                rt,
                f"ours/treys = {ratio:.1f}x, >= {TARGET_TREYS_RATIO:.0f}x: {'MET' if treys_ok else 'NOT MET'}",
            )
        )

    w = max(len(r[0]) for r in rows)
    print(f"{'case':<{w}}  {'hands/s':>12}  target")
    print("-" * (w + 40))
    for name, rate, note in rows:
        print(f"{name:<{w}}  {rate:>12,.0f}  {note}")
    ok = r7 >= TARGET_7 and r17 >= TARGET_17 and treys_ok is not False
    print("all targets met" if ok else "SOME TARGETS NOT MET")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
