"""AI decisions for the tables, the Hard ones off the event loop.

Easy and Normal decide in microseconds: they run in place. A Hard decision searches for up to
``engine.search.Budget().seconds`` (about 0.2 s of CPU): run on the event loop it would hold up
every interaction of every table, so it runs in a worker process (``AI_PROCESSES``, niced like
the render process: the same ``bot.discordio.render.process_pool``), or in a thread when there is none.
The worker is handed the seat's observation detached from the game (``engine.determinize.detach``):
no other seat's cards cross over. While it thinks the game may move on (the table is stopped):
the decision is dropped when the round's decision count changed meanwhile. A search that has not
answered after ``AIPlayers.search_limit`` seconds of the clock (a wedged or starved worker) is
given up, logged as a warning: the seat plays the Normal AI's move, so no table waits for it forever.

This module must stay importable without discord.py: the worker process imports it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
from collections.abc import Awaitable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.tables.clock import Clock, SystemClock
from engine.ai import LEVELS, choose_action, decide
from engine.determinize import detach
from engine.model import Action
from engine.observation import Observation
from engine.search import Budget

log = logging.getLogger(__name__)

LEVEL_NAMES = {level: level.capitalize() for level in LEVELS}  # as AI seats show it


def _worker_decide(obs: Observation, level: str, seed: int, budget: Budget) -> Action:
    return decide(obs, level, random.Random(seed), budget)


class AIPlayers:
    """``await ai.decide(game, seat, level)`` → the AI's action, or None when the game moved on.

    ``budget`` bounds each Hard search (tests make it small); ``clock`` measures ``search_limit``."""

    search_limit = 30.0  # seconds a Hard search may take (its budget is ~0.2 s) before it is given up

    def __init__(
        self,
        rng: random.Random,
        executor: concurrent.futures.Executor | None = None,
        clock: Clock | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.rng = rng
        self.executor = executor  # a process pool for Hard decisions (None: threads)
        self.clock = clock or SystemClock()
        self.budget = budget or Budget()
        self.abandoned = 0  # Hard searches given up so far (for the metrics)
        self.thinking = 0  # Hard decisions searching or queued for a worker now (the metrics' AI queue)

    async def decide(self, game: Any, seat: int, level: str) -> Action | None:
        if level != "hard":
            return choose_action(game, seat, level, self.rng)
        token = (game.round_number, game.decision_number())
        obs = detach(game.observe(seat))
        seed = self.rng.getrandbits(64)
        self.thinking += 1
        try:
            action = await self._within_limit(self._run(obs, level, seed))
        finally:
            self.thinking -= 1
        if (game.round_number, game.decision_number()) != token or game.awaiting() is None:
            log.info("an AI decision came after the game moved on; dropped")
            return None
        if action is None:
            self.abandoned += 1
            log.warning(
                "a Hard AI search took over %.0f s: given up, the seat plays the Normal AI's move", self.search_limit
            )
            return choose_action(game, seat, "normal", self.rng)
        return action

    async def _within_limit(self, search: Awaitable[Action]) -> Action | None:
        """The search's action, or None (the search cancelled) when it outlasts ``search_limit``."""
        task = asyncio.ensure_future(search)
        answered = asyncio.Event()
        task.add_done_callback(lambda _: answered.set())
        try:
            if await self.clock.wait(answered, self.search_limit):
                return task.result()
        finally:
            task.cancel()  # done already, or given up (a worker already on it finishes in vain)
        return None

    async def _run(self, obs: Observation, level: str, seed: int) -> Action:
        if self.executor is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    self.executor, _worker_decide, obs, level, seed, self.budget
                )
            except BrokenProcessPool:
                log.error("the AI process died; deciding in threads from now on")
                self.executor = None
        return await asyncio.to_thread(_worker_decide, obs, level, seed, self.budget)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
