"""AI decisions for the tables, the Hard ones off the event loop.

Easy and Normal decide in microseconds: they run in place. A Hard decision searches for up to
``engine.search.Budget().seconds`` (about 0.2 s of CPU): run on the event loop it would hold up
every interaction of every table, so it runs in a worker process (``AI_PROCESSES``, niced like
the render process: the same ``bot.discordio.render.process_pool``), or in a thread when there is none.
The worker is handed the seat's observation detached from the game (``engine.determinize.detach``):
no other seat's cards cross over. While it thinks the game may move on (the table is stopped):
the decision is dropped when the round's decision count changed meanwhile.

This module must stay importable without discord.py: the worker process imports it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.ai import LEVELS, choose_action, decide
from engine.determinize import detach
from engine.model import Action
from engine.observation import Observation

log = logging.getLogger(__name__)

LEVEL_NAMES = {level: level.capitalize() for level in LEVELS}  # as AI seats show it


def _worker_decide(obs: Observation, level: str, seed: int) -> Action:
    return decide(obs, level, random.Random(seed))


class AIPlayers:
    """``await ai.decide(game, seat, level)`` → the AI's action, or None when the game moved on."""

    def __init__(self, rng: random.Random, executor: concurrent.futures.Executor | None = None) -> None:
        self.rng = rng
        self.executor = executor  # a process pool for Hard decisions (None: threads)
        self.thinking = 0  # Hard decisions searching or queued for a worker now (the metrics' AI queue)

    async def decide(self, game: Any, seat: int, level: str) -> Action | None:
        if level != "hard":
            return choose_action(game, seat, level, self.rng)
        token = (game.round_number, game.decision_number())
        obs = detach(game.observe(seat))
        seed = self.rng.getrandbits(64)
        self.thinking += 1
        try:
            action = await self._run(obs, level, seed)
        finally:
            self.thinking -= 1
        if (game.round_number, game.decision_number()) != token or game.awaiting() is None:
            log.info("an AI decision came after the game moved on; dropped")
            return None
        return action

    async def _run(self, obs: Observation, level: str, seed: int) -> Action:
        if self.executor is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(self.executor, _worker_decide, obs, level, seed)
            except BrokenProcessPool:
                log.error("the AI process died; deciding in threads from now on")
                self.executor = None
        return await asyncio.to_thread(_worker_decide, obs, level, seed)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
