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

At scale (hundreds of tables with Hard seats) the decisions queue for the workers. Each one's
search budget is therefore set by the queue it joins (:func:`adapted_budget`): the full budget
while the work already waiting is short, less as it grows, so that a decision waits behind the
others for about :data:`MAX_QUEUE_WAIT` at most, and the games go on at the pace of the AI pause
rather than of the searches.

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
FULL_BUDGET = Budget()  # a Hard decision's search when nothing waits
MAX_QUEUE_WAIT = 1.0  # seconds a decision may wait behind the others (about)
LEAST_SECONDS = 0.01  # the smallest search (a handful of rollouts) once the queue is long


def adapted_budget(backlog: float, workers: int, full: Budget = FULL_BUDGET) -> Budget:
    """The budget of a decision joining a queue of ``backlog`` seconds of searches (the budgets of
    those queued or running) for ``workers`` workers: the full budget while it fits in
    :data:`MAX_QUEUE_WAIT` after the queue, else what is left of it, down to :data:`LEAST_SECONDS`.
    The rollouts shrink with the seconds, so a short search is short on any machine."""
    if full.seconds is None:
        return full
    room = MAX_QUEUE_WAIT - backlog / max(1, workers)
    seconds = max(LEAST_SECONDS, min(full.seconds, room))
    if seconds >= full.seconds - 1e-9:  # (a queue that just leaves room, give or take rounding)
        return full
    return Budget(rollouts=max(1, round(full.rollouts * seconds / full.seconds)), seconds=seconds)


def _worker_decide(obs: Observation, level: str, seed: int, budget: Budget) -> Action:
    return decide(obs, level, random.Random(seed), budget)


class AIPlayers:
    """``await ai.decide(game, seat, level)`` → the AI's action, or None when the game moved on.

    ``budget`` is the full budget of a Hard search (tests make it small; a queue shrinks it:
    :func:`adapted_budget`); ``clock`` measures ``search_limit``; ``workers``: how many searches run
    at once (the pool's processes)."""

    search_limit = 30.0  # seconds a Hard search may take (its budget is ~0.2 s) before it is given up

    def __init__(
        self,
        rng: random.Random,
        executor: concurrent.futures.Executor | None = None,
        clock: Clock | None = None,
        budget: Budget | None = None,
        workers: int = 1,
    ) -> None:
        self.rng = rng
        self.executor = executor  # a process pool for Hard decisions (None: threads)
        self.clock = clock or SystemClock()
        self.budget = budget or FULL_BUDGET
        self.workers = workers
        self.backlog = 0.0  # seconds of search queued or running (their budgets)
        self.abandoned = 0  # Hard searches given up so far (for the metrics)
        self.thinking = 0  # Hard decisions searching or queued for a worker now (the metrics' AI queue)

    async def decide(self, game: Any, seat: int, level: str) -> Action | None:
        if level != "hard":
            return choose_action(game, seat, level, self.rng)
        token = (game.round_number, game.decision_number())
        obs = detach(game.observe(seat))
        seed = self.rng.getrandbits(64)
        budget = adapted_budget(self.backlog, self.workers if self.executor is not None else 1, self.budget)
        cost = budget.seconds or 0.0
        self.backlog += cost
        self.thinking += 1
        try:
            action = await self._within_limit(self._run(obs, level, seed, budget))
        finally:
            self.thinking -= 1
            self.backlog -= cost
        if (game.round_number, game.decision_number()) != token or game.awaiting(seat) is None:
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

    async def _run(self, obs: Observation, level: str, seed: int, budget: Budget) -> Action:
        if self.executor is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    self.executor, _worker_decide, obs, level, seed, budget
                )
            except BrokenProcessPool:
                log.error("the AI process died; deciding in threads from now on")
                self.executor = None
        return await asyncio.to_thread(_worker_decide, obs, level, seed, budget)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
