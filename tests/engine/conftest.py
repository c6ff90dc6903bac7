"""Shared helpers for the engine's property, view, persistence and CLI tests.

The helpers are handed out as fixtures (``h.play_game(preset, n, seed, ai)``,
``h.drive``, ``h.stack_deck``, ``h.run_cli``) rather than imported from this file.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from engine import cards as C
from engine.ai import choose_action
from engine.simulate import check_conservation

REPO = Path(__file__).resolve().parents[2]

# Hook signature: on_step(game, kind, payload) with kind "deal" (payload: events) or
# "action" (payload: (action, events)). Returning anything is ignored.
StepHook = Callable[[Game, str, Any], None]


def player_names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def drive(
    game: Game,
    rng: random.Random,
    ai: str = "heuristic",
    on_step: StepHook | None = None,
    max_actions: int = 20000,
    stop: Callable[[Game], bool] | None = None,
) -> int:
    """Play ``game`` with AI seats until it is finished (or ``stop(game)``); return the number of actions."""
    actions = 0
    while not game.finished:
        if stop is not None and stop(game):
            break
        aw = game.awaiting()
        if aw is None:
            events = game.next_deal()
            if on_step:
                on_step(game, "deal", events)
            continue
        action = choose_action(game, aw.seat, ai, rng)
        events = game.apply(action)
        actions += 1
        if on_step:
            on_step(game, "action", (action, events))
        if actions > max_actions:
            raise AssertionError(f"game did not finish within {max_actions} actions: {game!r}")
    return actions


def play_game(
    preset: str,
    n: int,
    seed: int,
    ai: str = "heuristic",
    *,
    rounds: int = 3,
    options: dict | None = None,
    on_step: StepHook | None = None,
    max_actions: int = 20000,
) -> Game:
    """A whole AI game of ``rounds`` rounds (plus the board clearing), checked for conservation."""
    opts = {"game_end": f"rounds:{rounds}", **(options or {})}
    game = Game.new(preset, player_names(n), options=opts, seed=seed)
    total = game.total_chips()

    def hook(g: Game, kind: str, payload: Any) -> None:
        check_conservation(g, total)
        if on_step:
            on_step(g, kind, payload)

    drive(game, random.Random(seed), ai, hook, max_actions=max_actions)
    return game


def stack_deck(
    n_players: int, hands: dict[int, list[str]], spare: list[str] = (), dealer: int = 0, decks: int = 1
) -> list[str]:
    """The deck (top card first) that deals exactly ``hands`` (seat → all its cards) and ``spare``.

    Dealing is one card at a time from the top, starting left of the dealer, the spare
    hand right after the dealer. Hands/spare not given are filled with the remaining
    cards, lowest rank first.
    """
    slots = n_players + 1
    total = 52 * decks
    sizes = [total // slots + (1 if k < total % slots else 0) for k in range(slots)]
    content: list[list[str] | None] = [None] * slots
    for seat, cs in hands.items():
        content[(seat - dealer - 1) % n_players] = [C.to_str(C.parse(c)) for c in cs]
    if spare:
        content[n_players] = [C.to_str(C.parse(c)) for c in spare]
    left = Counter(C.to_strs(C.full_deck(decks)))
    for part in content:
        for c in part or ():
            assert left[c] > 0, f"{c} used twice"
            left[c] -= 1
    pool = sorted(left.elements(), key=lambda c: (C.parse(c) >> 2, C.parse(c) & 3))
    for k in range(slots):
        part = content[k] if content[k] is not None else []
        assert len(part) <= sizes[k], f"slot {k}: {len(part)} cards, only {sizes[k]} are dealt"
        while len(part) < sizes[k]:
            part.append(pool.pop(0))
        content[k] = part
    return [content[i % slots][i // slots] for i in range(total)]


def run_cli(
    *args: str, input_data: dict | None = None, tmp_path: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """``python -m engine ARGS`` in the repo; a dict ``input_data`` is written to a file first."""
    argv = [sys.executable, "-m", "engine", *args]
    if input_data is not None:
        assert tmp_path is not None
        path = tmp_path / "game.json"
        path.write_text(json.dumps(input_data), encoding="utf-8")
        argv = [sys.executable, "-m", "engine", args[0], str(path), *args[1:]]
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=timeout)


class Helpers:
    player_names = staticmethod(player_names)
    drive = staticmethod(drive)
    play_game = staticmethod(play_game)
    stack_deck = staticmethod(stack_deck)
    run_cli = staticmethod(run_cli)


@pytest.fixture(scope="session")
def h() -> type[Helpers]:
    """Helpers: ``h.play_game(preset, n, seed, ai)``, ``h.drive``, ``h.stack_deck``, ``h.run_cli``."""
    return Helpers


@pytest.fixture
def play_game_fn() -> Callable[..., Game]:
    return play_game
