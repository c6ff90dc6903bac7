"""AI strength: one stronger seat against three weaker ones, with the same deals for every seat.

    python bench/bench_ai.py [--rounds 1000] [--presets tripoley,wanagan] [--budget 160] [--jobs 2]

Two match-ups per preset, at four seats: Hard against three Normal seats, and Normal against three
Easy seats. A "unit" is a short game (``--game-rounds`` rounds from the start stacks, the first
dealer fixed, its decks drawn from the unit's seed) played four times, the stronger seat moved to
each seat in turn while the decks stay the same, so luck of the deal cancels out. The figure is
the mean chips the stronger seat wins per round (its stack change over the round), with a 95%
confidence interval from the spread of the units' means (rounds of one unit are not independent).
Target: the interval lies above zero in every preset.

Hard runs at a fixed search budget (``--budget`` rollouts per decision, and the ``--cap``
wall-clock cap in seconds that bounds every decision); the bench prints it, and Hard's decision
times (p50, p95, max over all its decisions, those with one choice included).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game  # noqa: E402
from engine import cards as C  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.search import Budget  # noqa: E402

PRESETS = ("tripoley", "rummoli", "michigan-rummy", "great-lakes", "wanagan")
SEATS = 4


def play_unit(
    preset: str, strong: str, weak: str, seed: int, game_rounds: int, budget: Budget
) -> tuple[list[int], list[float]]:
    """(the stronger seat's chips won per round, Hard's decision seconds) over the four rotations."""
    deck_rng = random.Random(seed)
    decks = [C.shuffled_deck(deck_rng) for _ in range(game_rounds)]
    won: list[int] = []
    times: list[float] = []
    for strong_seat in range(SEATS):
        levels = [strong if s == strong_seat else weak for s in range(SEATS)]
        game = Game.new(
            preset,
            [f"AI {s + 1}" for s in range(SEATS)],
            seed=seed,
            dealer=0,
            options={"game_end": f"rounds:{game_rounds}"},
        )
        rng = random.Random(seed * 31 + strong_seat)
        for deck in decks:
            if game.over:
                break
            before, number = game.stacks[strong_seat], game.round_number
            game.next_deal(deck=deck)
            while (aw := game.awaiting()) is not None:
                level = levels[aw.seat]
                t0 = time.perf_counter()
                action = choose_action(game, aw.seat, level, rng, budget)
                if level == "hard":
                    times.append(time.perf_counter() - t0)
                game.apply(action)
            if game.round_number > number:  # (no round when fewer than two seats could ante)
                won.append(game.stacks[strong_seat] - before)
    return won, times


def summary(units: list[list[int]]) -> tuple[int, float, float]:
    """(rounds, mean chips per round, 95% half-width) with the units as the independent samples."""
    means = [sum(u) / len(u) for u in units if u]
    rounds = sum(len(u) for u in units)
    mean = sum(sum(u) for u in units) / max(1, rounds)
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else float("inf")
    return rounds, mean, half


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] if sorted_values else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1000, help="rounds per preset and match-up (all rotations)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    ap.add_argument("--budget", type=int, default=Budget().rollouts, help="Hard's rollouts per decision")
    ap.add_argument("--cap", type=float, default=1.0, help="Hard's wall-clock cap per decision, seconds")
    ap.add_argument("--game-rounds", type=int, default=5, help="rounds of each unit's game")
    ap.add_argument("--matchups", default="hard-normal,normal-easy", help="comma-separated STRONG-WEAK pairs")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    budget = Budget(rollouts=args.budget, seconds=args.cap)
    matchups = [tuple(m.split("-")) for m in args.matchups.split(",")]
    units = max(2, math.ceil(args.rounds / (SEATS * args.game_rounds)))
    print(
        f"bench_ai: {units} units x {SEATS} rotations x {args.game_rounds} rounds per preset and match-up; "
        f"Hard budget {budget.rollouts} rollouts per decision, cap {budget.seconds} s"
    )
    print(f"{'preset':<16}{'match-up':<16}{'rounds':>7}{'chips/round':>13}{'95% CI':>18}  Hard decision ms p50/p95/max")
    ok = True
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in args.presets.split(","):
            for strong, weak in matchups:
                jobs = [
                    pool.submit(play_unit, preset, strong, weak, args.seed * 100_003 + u, args.game_rounds, budget)
                    for u in range(units)
                ]
                results = [j.result() for j in jobs]
                rounds, mean, half = summary([won for won, _ in results])
                times = sorted(t for _, ts in results for t in ts)
                timing = (
                    f"{percentile(times, 0.5) * 1e3:.0f}/{percentile(times, 0.95) * 1e3:.0f}/{times[-1] * 1e3:.0f}"
                    if times
                    else "-"
                )
                above = mean - half > 0
                ok &= above
                ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
                print(f"{preset:<16}{strong + ' v ' + weak:<16}{rounds:>7}{mean:>+13.2f}{ci:>18}  {timing}", flush=True)
    print(f"verdict: stronger level's 95% CI above zero in every row: {'yes' if ok else 'NO'}")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
