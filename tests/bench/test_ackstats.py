"""The measurement hooks used by bench/bench_bot_load.py (bench/ackstats.py)."""

from __future__ import annotations

import asyncio
import json
import time

from bench import ackstats


async def test_slow_loop_steps_are_recorded_with_the_task_and_where_it_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(asyncio.events.Handle, "_run", asyncio.events.Handle._run)  # restored afterwards
    stats = ackstats.AckStats(str(tmp_path / "stats.json"))
    stats._watch_loop_steps()

    async def hogs_the_loop():
        time.sleep(0.03)  # blocking on purpose: the loop can't run anything else meanwhile
        await asyncio.sleep(0)

    async def polite():
        for _ in range(5):
            await asyncio.sleep(0)

    await asyncio.gather(asyncio.create_task(hogs_the_loop()), asyncio.create_task(polite()))
    slow = [(took, what) for took, what, _ in stats.slow_steps]
    assert len(slow) == 1, slow
    took, what = slow[0]
    assert took >= 0.03
    assert "hogs_the_loop" in what and what.startswith("task ")
    stats.write()
    report = json.loads((tmp_path / "stats.json").read_text())
    assert report["slow_steps"][0][2] == what and report["slow_steps"][0][1] >= 30
