"""Bot-side interaction → acknowledgement timing for bench/bench_bot_load.py (measurement only).

``python bench/ackstats.py [bot arguments]`` runs the bot (``python -m bot``) with discord.py's and
asyncio's internals wrapped to time it; it is not part of the product, which never patches them.
With ``ACK_STATS_FILE=/path/stats.json`` in the environment, the bot records for every interaction
the time from its receipt (the gateway event parsed, before any handler runs) to the moment the
acknowledgement's HTTP request is started (``defer``, ``send_message``, ``edit_message``,
``send_modal``…), and to the moment Discord answered that request. At shutdown the figures (count,
median, p90, p99, max, in ms, whole run and by kind) are written to that file as JSON. This separates
the bot's own delay from the delays of the network and of the other end (e.g. a load-test driver).

It also records every turn of the event loop that ran longer than :data:`SLOW_STEP` (a callback or
a task's step: while it runs, no interaction is even read from the gateway), labelled with the
task's coroutine and where it stopped, so the causes of an acknowledgement's delay before its
receipt can be found.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ENV = "ACK_STATS_FILE"
SLOW_STEP = 0.010  # seconds: a longer turn of the event loop is recorded
MARK = "_ack_stats"  # set on what this module wrapped (so it is never wrapped twice)
PARSER = "parse_interaction_create"  # discord.py's parser of INTERACTION_CREATE, read by each connection


def _kind(data: dict) -> str:
    t = data.get("type")
    d = data.get("data") or {}
    if t == 2:
        return "/" + str(d.get("name") or "command")
    if t == 5:
        return "modal"
    cid = d.get("custom_id") or ""
    action = cid.split(":")[-1].split(".")[0] if cid else "?"
    return ("select " if d.get("component_type") == 3 else "click ") + action


def _describe_step(handle) -> str:
    """What a loop callback was: for a task's step, its coroutine and the line it stopped at."""
    callback = handle._callback
    task = getattr(callback, "__self__", None)
    get_coro = getattr(task, "get_coro", None)
    if get_coro is None:
        return getattr(callback, "__qualname__", None) or repr(callback)[:120]
    assert task is not None  # get_coro came from it
    coro = get_coro()
    where = ""
    frames = task.get_stack() if not task.done() else []
    if frames:
        where = " @ " + " < ".join(f"{f.f_code.co_name}:{f.f_lineno}" for f in reversed(frames[-3:]))
    return f"task {getattr(coro, '__qualname__', coro)}{where}"


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(-(-q * len(xs) // 1)) - 1))]


def _summary(xs: list[float]) -> dict[str, Any]:
    if not xs:
        return {"n": 0}
    return {
        "n": len(xs),
        "median_ms": round(_pct(xs, 0.5) * 1000, 2),
        "p90_ms": round(_pct(xs, 0.9) * 1000, 2),
        "p99_ms": round(_pct(xs, 0.99) * 1000, 2),
        "max_ms": round(max(xs) * 1000, 2),
    }


class AckStats:
    def __init__(self, path: str) -> None:
        self.path = path
        self.received: dict[int, tuple[float, str]] = {}  # interaction id → (perf_counter, kind)
        self.to_call: list[tuple[float, str, float, int]] = []  # (receipt → ack request started, kind, at, id)
        self.to_done: list[tuple[float, str]] = []  # receipt → ack request answered
        # (generation, seconds, CPU seconds of the loop's thread, garbage freed) of each collection:
        # on a loaded machine the seconds include time the process was not running at all
        self.gc_pauses: list[tuple[int, float, float, int]] = []
        self.slow_steps: list[tuple[float, str, float]] = []  # (seconds, what ran, at)
        self._gc_began = self._gc_cpu_began = 0.0

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_began, self._gc_cpu_began = time.perf_counter(), time.thread_time()
        elif len(self.gc_pauses) < 100_000:
            took, cpu = time.perf_counter() - self._gc_began, time.thread_time() - self._gc_cpu_began
            self.gc_pauses.append((info.get("generation", -1), took, cpu, info.get("collected", 0)))

    def _watch_loop_steps(self) -> None:
        """Time every callback the event loop runs (``Handle._run``); keep the slow ones."""
        import asyncio.events

        handle = asyncio.events.Handle
        run = handle._run
        if getattr(run, "_ack_stats", False):
            return
        stats = self

        def timed_run(self_, _run=run):
            began = time.perf_counter()
            try:
                return _run(self_)
            finally:
                took = time.perf_counter() - began
                if took > SLOW_STEP and len(stats.slow_steps) < 100_000:
                    stats.slow_steps.append((took, _describe_step(self_), began))

        timed_run._ack_stats = True  # type: ignore[attr-defined]
        handle._run = timed_run  # type: ignore[method-assign]  # wraps asyncio's own method

    def install(self) -> None:
        """Wrap discord.py's classes before the bot is made: its parser of interactions (read by
        each connection as it is made) and its acknowledging call."""
        import gc

        from discord.state import ConnectionState
        from discord.webhook import async_ as webhook_async

        gc.callbacks.append(self._on_gc)
        self._watch_loop_steps()
        parse = getattr(ConnectionState, PARSER)
        if not getattr(parse, MARK, False):

            def parse_interaction_create(state, data, _parse=parse):
                try:
                    self.received[int(data["id"])] = (time.perf_counter(), _kind(data))
                except (KeyError, TypeError, ValueError):
                    pass
                return _parse(state, data)

            setattr(parse_interaction_create, MARK, True)
            setattr(ConnectionState, PARSER, parse_interaction_create)

        adapter = webhook_async.AsyncWebhookAdapter
        original = adapter.create_interaction_response
        if getattr(original, "_ack_stats", False):
            return
        stats = self

        def create_interaction_response(self_, interaction_id, token, **kw):
            coro = original(self_, interaction_id, token, **kw)
            seen = stats.received.pop(int(interaction_id), None)
            if seen is None:
                return coro
            now = time.perf_counter()
            stats.to_call.append((now - seen[0], seen[1], now, int(interaction_id)))

            async def timed():
                try:
                    return await coro
                finally:
                    stats.to_done.append((time.perf_counter() - seen[0], seen[1]))

            return timed()

        create_interaction_response._ack_stats = True  # type: ignore[attr-defined]
        adapter.create_interaction_response = create_interaction_response  # type: ignore[method-assign,assignment]  # wraps discord.py's call to time it

    def report(self) -> dict[str, Any]:
        kinds: dict[str, list[float]] = {}
        for dt, kind, _, _ in self.to_call:
            kinds.setdefault(kind, []).append(dt)
        return {
            "receipt_to_ack_call": _summary([x for x, _, _, _ in self.to_call]),
            "receipt_to_ack_done": _summary([x for x, _ in self.to_done]),
            "by_kind_receipt_to_ack_call": {k: _summary(v) for k, v in sorted(kinds.items())},
            "never_acked": len(self.received),
            "gc_pauses": {str(g): _summary([d for gen, d, _, _ in self.gc_pauses if gen == g]) for g in (0, 1, 2)},
            "gc_longest": [
                [gen, round(d * 1000, 2), round(cpu * 1000, 2), freed]
                for gen, d, cpu, freed in sorted(self.gc_pauses, key=lambda p: -p[1])[:5]
            ],
            "samples": [[round(at, 4), round(dt * 1000, 2), kind, iid] for dt, kind, at, iid in self.to_call],
            "slow_steps": [[round(at, 4), round(dt * 1000, 2), what] for dt, what, at in self.slow_steps],
            "heap": _heap(),
        }

    def write(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump(self.report(), f)
        except OSError as exc:
            log.warning("could not write the ack statistics: %s", exc)


def _heap() -> dict[str, Any]:
    """What the cyclic collector walks at shutdown: objects per generation, the frozen ones, and
    the most common types (what a long collection spends its time on)."""
    import collections
    import gc

    counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    return {
        "by_generation": [len(gc.get_objects(generation)) for generation in range(3)],
        "frozen": gc.get_freeze_count(),
        "top_types": counts.most_common(15),
    }


def main() -> int:
    """Run the bot as ``python -m bot`` would, timed when ACK_STATS_FILE is set."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bot.__main__ import main as run_bot

    path = os.environ.get(ENV)
    stats = AckStats(path) if path else None
    if stats is not None:
        stats.install()
    try:
        return run_bot()
    finally:
        if stats is not None:
            stats.write()


if __name__ == "__main__":
    sys.exit(main())
