"""The timer loop waits on nothing outside the table it fires (issue 30): due tables fire at once,
each in a task of its own, and whether a timed-out player is still in the server is asked off the
table's lock for a short while only ("still here" when Discord does not answer). And a table whose
place on Discord went away ends at once through the ledger (``Play.end_lost``)."""

from __future__ import annotations

import asyncio
import time

from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby


async def two_tables_at_a_human_turn(manager, clock):
    """Tables in channels C and C + 1, each waiting for a human; both turns due now."""
    first = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    await manager.lobby.create_table(G, C + 1, ANN + 100, "carl", "tripoley", {"game_end": "rounds:2"}, buy_in=100)
    await manager.lobby.join(C + 1, BOB + 100, "dora")
    await manager.lobby.start(C + 1, ANN + 100)
    second = manager.registry.get(C + 1)
    for table in (first, second):
        assert await drive_to_human(manager, clock, table) is not None
    clock.t = max(first.deadline, second.deadline)
    return first, second


async def test_a_member_look_up_that_never_answers_holds_up_nothing(manager, clock, bank):
    first, second = await two_tables_at_a_human_turn(manager, clock)
    hung, asked = asyncio.Event(), []

    async def never_answers(guild_id, user_id):
        asked.append(user_id)
        await hung.wait()  # Discord's REST route hung
        return True

    manager.timers.member_check = never_answers
    manager.timers.member_check_timeout = 0.2
    began = time.monotonic()
    updates = await asyncio.wait_for(manager.timers.tick(), 5)
    assert time.monotonic() - began < 1.0  # the two look-ups at once, each given up after 0.2 s
    assert len(asked) == 2 and len(updates) == 2
    assert all("ran out of time" in u.message for u in updates)  # "still here": the timeout applies
    assert not any(s.left for t in (first, second) for s in t.seats)
    assert not first.lock.locked() and not second.lock.locked()
    assert (await bank.audit(G)).ok


async def test_a_member_who_left_is_found_off_the_lock(manager, clock):
    first, second = await two_tables_at_a_human_turn(manager, clock)
    gone = first.seats[first.deadline_seat].user_id
    locked_while_asked = []

    async def member(guild_id, user_id):
        locked_while_asked.append(first.lock.locked() or second.lock.locked())
        return user_id != gone

    manager.timers.member_check = member
    await manager.timers.tick()
    assert locked_while_asked == [False, False]
    assert first.seats[[s.user_id for s in first.seats].index(gone)].left


async def test_a_table_whose_place_went_away_ends_through_the_ledger(manager, clock, bank):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    await drive_to_human(manager, clock, table)
    update = await manager.play.end_lost(table, "channel-deleted")
    assert update is not None and update.kind == "finished" and table.status == "finished"
    assert any("its channel was deleted; everyone is cashed out" in line for line in table.log)
    assert await manager.play.end_lost(table, "channel-deleted") is None  # once
    await manager.lobby.create_table(G, C + 1, ANN, "ann", "tripoley", buy_in=100)
    waiting = manager.registry.get(C + 1)
    cancelled = await manager.play.end_lost(waiting, "removed")
    assert cancelled is not None and cancelled.kind == "cancelled" and "buy-ins are refunded" in cancelled.message
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0 and audit.wallets == audit.granted - audit.removed


async def test_what_a_deadline_makes_is_in_the_tables_language(manager, clock, bank):
    first, second = await two_tables_at_a_human_turn(manager, clock)
    first.locale, second.locale = "fr", "de"
    updates = {u.table.id: u for u in await asyncio.wait_for(manager.timers.tick(), 5)}
    assert "n'a plus de temps" in (updates[first.id].message or "")
    assert "hat die Zeit überschritten" in (updates[second.id].message or "")
    assert any(line.endswith("(temps dépassé)") for line in first.log), "the log line too"
