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


def test_install_wraps_discord_pys_interaction_parser_before_the_bot_is_made(tmp_path, monkeypatch):
    """The hooks go on discord.py's classes (each connection reads its parsers from them as it is
    made), so the bench's launcher installs them before the bot exists."""
    import gc

    from discord.state import ConnectionState
    from discord.webhook import async_ as webhook_async

    parsed = []
    monkeypatch.setattr(ConnectionState, "parse_interaction_create", lambda state, data: parsed.append(data))
    adapter = webhook_async.AsyncWebhookAdapter
    monkeypatch.setattr(adapter, "create_interaction_response", adapter.create_interaction_response)
    monkeypatch.setattr(asyncio.events.Handle, "_run", asyncio.events.Handle._run)
    monkeypatch.setattr(gc, "callbacks", list(gc.callbacks))
    stats = ackstats.AckStats(str(tmp_path / "stats.json"))
    stats.install()
    data = {"id": "42", "type": 3, "data": {"custom_id": "tripoley:1:1:do.check", "component_type": 2}}
    ConnectionState.parse_interaction_create(object(), data)
    assert parsed == [data] and stats.received[42][1] == "click do"
