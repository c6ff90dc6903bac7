"""Coalesced mat updates, fresh message per round, DMs with the Forbidden fallback."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.clock import FakeClock
from bot.publisher import Publisher
from bot.tables import TableManager
from tests.cogs.fakes import RecordingSink

G, C = 3, 900
ANN, BOB = 31, 32


@pytest.fixture
async def setup(db, bank, prefs, settings):
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None)
    return manager, sink, publisher, clock


async def test_burst_of_updates_is_coalesced_newest_wins(setup):
    manager, sink, publisher, clock = setup
    await manager.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    table = manager.get(C)
    table.lobby_message_id = 1  # as if /tripoley start had posted it
    sink.gate = asyncio.Event()  # hold the first send in flight
    await manager.join(C, BOB, "bob")
    for _ in range(5):
        await manager.add_ai(C, ANN)
    await asyncio.sleep(0)
    sink.gate.set()
    await publisher.flush()
    edits = [c for c in sink.calls if c[0] == "edit"]
    # One edit in flight (after the join) + one for the newest state: not six.
    assert len(edits) == 2
    assert edits[-1][3].text.count("(AI)") == 5


async def test_fresh_mat_each_round_and_edits_within_a_round(setup):
    manager, sink, publisher, clock = setup
    await manager.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.join(C, BOB, "bob")
    table = manager.get(C)
    await manager.start(C, ANN)
    await publisher.flush()
    posts = [c for c in sink.calls if c[0] == "post"]
    assert table.mat_message_id == posts[-1][2] and table.mat_round == 1
    rounds_posted = {1}
    for _ in range(3000):
        if table.status != "playing":
            break
        clock.t = table.deadline
        await manager.tick()
        await publisher.flush()
        rounds_posted.add(table.mat_round)
    assert table.status == "finished"
    posts = [c for c in sink.calls if c[0] == "post"]
    assert len(posts) == 2 + 1  # lobby message + one mat per round
    strips = [c for c in sink.calls if c[0] == "strip"]
    assert [c[2] for c in strips] == [posts[1][2]]  # round 1's mat lost its buttons when round 2 began
    final = sink.calls[-1]
    assert final[0] == "edit" and "game over" in final[3].text and final[3].components == []


async def test_hands_by_dm_and_closed_dms_reported_once(setup):
    manager, sink, publisher, clock = setup
    await manager.prefs.set_dm_hands(ANN, True)
    await manager.prefs.set_dm_hands(BOB, True)
    sink.closed_dms.add(BOB)
    await manager.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.join(C, BOB, "bob")
    table = manager.get(C)
    await manager.start(C, ANN)
    await publisher.flush()
    dms = [c for c in sink.calls if c[0] == "dm"]
    assert [c[1] for c in dms] == [ANN]
    assert "Your hand" in dms[0][3].text and dms[0][3].components == []
    notices = [c for c in sink.calls if c[0] == "notice"]
    assert len(notices) == 1 and f"<@{BOB}>" in notices[0][3] and "Show my hand" in notices[0][3]
    # Next deal: bob is not told again.
    for _ in range(3000):
        if table.round >= 2 or table.status != "playing":
            break
        clock.t = table.deadline
        await manager.tick()
    await publisher.flush()
    assert len([c for c in sink.calls if c[0] == "notice"]) == 1
    assert len([c for c in sink.calls if c[0] == "dm"]) == 2
