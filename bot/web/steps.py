"""A finished game, step by step, as a spectator saw it: the replay viewer's data.

The game's replay file (docs/replay.md) is played through the engine (:func:`engine.replay.run_replay`);
after each step (the start, each deal, each decision, the end) the spectator view is taken and cut to
what a page may show (:func:`bot.web.public.public_table`), with the step's log lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import reading
from bot.web.public import public_table, step_lines
from engine import Action, Game
from engine.events import Event
from engine.replay import run_replay
from engine.viewtypes import GameView


@dataclass
class ReplaySteps:
    """Every step of one game: ``tables[n]`` the table after step n, ``lines[n]`` its log lines,
    ``rounds`` the first step of each round (its deal)."""

    tables: list[dict[str, Any]] = field(default_factory=list)
    lines: list[list[str]] = field(default_factory=list)
    round_of: list[int] = field(default_factory=list)
    rounds: dict[int, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """What the viewer loads first: the count, the rounds, every step's lines and round, and the
        standings at the end (a step's table is loaded as it is shown)."""
        last = self.tables[-1] if self.tables else {}
        return {
            "steps": len(self.tables),
            "rounds": [{"round": number, "step": step} for number, step in sorted(self.rounds.items())],
            "lines": self.lines,
            "round_of": self.round_of,
            "players": [seat["name"] for seat in last.get("seats") or []],
            "preset_name": last.get("preset_name"),
            "standings": last.get("standings") or [],
        }


def replay_steps(replay_json: str, locale: str = "en") -> ReplaySteps:
    """The steps of a finished game from its saved replay file, their words in ``locale`` (its table's
    language); raises engine.replay.ReplayError, ValueError for a file that does not play."""
    steps = ReplaySteps()
    before: GameView | None = None

    def watch(game: Game, action: Action | None, events: list[Event]) -> None:
        nonlocal before
        view = game.view(None)
        number = view["round"]
        if game.round_number not in steps.rounds and action is None and game.r is not None:
            steps.rounds[game.round_number] = len(steps.tables)
        steps.lines.append(step_lines(before or view, action, events))
        steps.tables.append(public_table(view))
        steps.round_of.append(number)
        before = view

    with reading(locale):
        run_replay(json.loads(replay_json), watch=watch)
    return steps
