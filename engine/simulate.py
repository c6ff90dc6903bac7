"""AI-only games: payout totals per space, pots, speed, and a loud conservation check."""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from .ai import choose_action
from .cards import full_deck
from .game import Game
from .textview import printable


class ConservationError(AssertionError):
    """Chips or cards were created or lost: a bug in the rules engine."""


def check_conservation(game: Game, total: int) -> None:
    if game.total_chips() != total:
        raise ConservationError(
            f"chips not conserved in round {game.round_number}: {game.total_chips()} != {total} "
            f"(stacks {game.stacks}, mat {game.mat})"
        )
    if any(s < 0 for s in game.stacks) or any(v < 0 for v in game.mat.values()):
        raise ConservationError(f"negative chips: stacks {game.stacks}, mat {game.mat}")
    r = game.r
    if r is not None and r.wait is not None:
        held = [c for h in r.hands for c in h] + r.spare + r.michigan.played + (r.deck or [])
        if sorted(held) != sorted(full_deck(game.n_decks)):
            raise ConservationError(f"cards not conserved in round {game.round_number}")


@dataclass
class SimulationStats:
    rounds: int = 0
    games: int = 0
    actions: int = 0
    payouts: Counter[str] = field(default_factory=Counter)
    payout_counts: Counter[str] = field(default_factory=Counter)
    poker_pots: list[int] = field(default_factory=list)
    stuck_rounds: int = 0
    seconds: float = 0.0


def play_round(
    game: Game, rng: random.Random, ai: str, stats: SimulationStats | None = None, check: bool = True
) -> None:
    """Deal and play one round (or the end-of-game board clearing) with AI seats."""
    total = game.total_chips()
    game.next_deal()
    while (aw := game.awaiting()) is not None:
        game.apply(choose_action(game, aw.seat, ai, rng))
        if stats is not None:
            stats.actions += 1
        if check:
            check_conservation(game, total)
    if check:
        check_conservation(game, total)


def simulate(
    preset: str,
    players: int,
    rounds: int,
    seed: int,
    ai: str = "heuristic",
    options: dict[str, Any] | None = None,
    progress: TextIO | None = None,
) -> SimulationStats:
    stats = SimulationStats()
    rng = random.Random(seed)
    start = time.perf_counter()
    game_no = 0
    while stats.rounds < rounds:
        opts = {"game_end": f"rounds:{rounds - stats.rounds}", **(options or {})}
        game = Game.new(preset, [f"AI {i + 1}" for i in range(players)], options=opts, seed=seed * 7919 + game_no)
        game_no += 1
        stats.games += 1
        rounds_before = stats.rounds
        while not game.finished:
            was_over = game.over
            before = game.round_number
            play_round(game, rng, ai, stats)
            if not was_over and game.round_number > before:
                stats.rounds += 1
                rec = game.log[-1]
                for p in rec["payouts"]:
                    stats.payouts[p["space"]] += p["amount"]
                    stats.payout_counts[p["space"]] += 1
                if rec["michigan"] and rec["michigan"]["stuck"]:
                    stats.stuck_rounds += 1
                pot = sum(p["amount"] for p in rec["payouts"] if p["space"] == game.pot_id)
                stats.poker_pots.append(pot)
                if progress is not None and rounds >= 200 and stats.rounds % max(1, rounds // 50) == 0:
                    done = stats.rounds / rounds
                    progress.write(f"\r[{'#' * int(done * 40):<40}] {stats.rounds}/{rounds} rounds")
                    progress.flush()
            if game.round_number == before and not game.finished and not game.over:
                break  # nobody could ante: a new game starts
        if stats.rounds == rounds_before:
            # A fresh game that plays no round would be followed by the same fresh game forever.
            raise ValueError(
                f"no round can be played: fewer than two players can pay the first ante "
                f"(start stack {game.options.start_stack}, ante {game.options.ante})"
            )
    stats.seconds = time.perf_counter() - start
    if progress is not None and rounds >= 200:
        progress.write("\n")
    return stats


def main(args: Any, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``args``: the parsed command line, with ``options`` the house rules as a dict."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        stats = simulate(
            args.preset,
            args.players,
            args.rounds,
            args.seed,
            args.ai,
            args.options,
            progress=None if args.quiet else err,
        )
    except ConservationError as exc:
        out.write(f"CONSERVATION CHECK FAILED: {exc}\n")
        return 1
    except ValueError as exc:
        err.write(printable(f"python -m engine simulate: {exc}") + "\n")
        return 2
    out.write(
        f"preset {args.preset}, {args.players} players, {stats.rounds} rounds in {stats.games} game(s), "
        f"ai {args.ai}, seed {args.seed}\n"
    )
    out.write(f"{'space':<12}{'chips paid':>12}{'times':>8}{'avg':>8}\n")
    for space, chips in sorted(stats.payouts.items(), key=lambda kv: -kv[1]):
        times = stats.payout_counts[space]
        out.write(f"{space:<12}{chips:>12}{times:>8}{chips / times:>8.1f}\n")
    pots = stats.poker_pots
    if pots:
        out.write(
            f"poker pots: avg {sum(pots) / len(pots):.1f}, max {max(pots)}, "
            f"rounds with nobody able to lead: {stats.stuck_rounds}\n"
        )
    rate = stats.rounds / stats.seconds if stats.seconds else 0.0
    out.write(f"{stats.actions} decisions, {rate:.0f} rounds/s (with conservation checks after every action)\n")
    out.write("conservation: OK (no chip or card created or lost)\n")
    return 0
