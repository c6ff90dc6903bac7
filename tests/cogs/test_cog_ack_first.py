"""Acknowledged first (issue 10's set-up burst; issue 30: all or nothing): a lobby opening answers
"thinking…" and then the lobby; a refusal after that is still private; an opening whose
acknowledgement fails takes no buy-in and opens nothing; Add AI and Start are acknowledged before
the table's lock, and what only shows under it is answered once, privately. Join answers a private
"thinking…" first, which its answer fills, and only then takes the buy-in."""

from __future__ import annotations

import asyncio
import time

from bot import errors
from tests.cogs.test_cog_e2e_fake_discord import labels, start_bot

SLOW = 0.2  # seconds an opening takes in these tests (its transaction waiting behind others)


def slowed(bot, fail: errors.TripoleyError | None = None) -> list[float]:
    """Make opening a table take :data:`SLOW` (its transaction waiting behind others); the
    ``time.perf_counter()`` each opening began at (the fake Discord's clock)."""
    create_table = bot.manager.lobby.create_table
    began: list[float] = []

    async def slow_create_table(*args, **kwargs):
        began.append(time.perf_counter())
        await asyncio.sleep(SLOW)
        if fail is not None:
            raise fail
        return await create_table(*args, **kwargs)

    bot.manager.lobby.create_table = slow_create_table
    return began


async def test_slow_lobby_answers_thinking_then_the_lobby(discord_harness, bot_settings):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    began = slowed(bot)
    h = await dh.run_command("alice", "general", "tripoley start", preset="tripoley")
    await h.response()
    assert h.response_type == 5  # "thinking…", before the table exists
    await dh.wait_for(lambda: began, 5, what="the opening")
    assert h.record.acked_at is not None and h.record.acked_at <= began[0]  # the buy-in waited for the ack
    lobby = await h.message()
    assert "table open" in lobby.content and "Add AI" in labels(lobby) and not lobby.ephemeral
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    await dh.wait_for(lambda: table.lobby_message_id == lobby.id, 5, what="the lobby message remembered")
    await (await dh.click("alice", lobby, label="Add AI")).response()
    await dh.wait_for(lambda: len(table.seats) == 2, 5, what="the AI seat")


async def test_an_opening_whose_acknowledgement_fails_takes_no_buy_in(discord_harness, bot_settings, caplog):
    """Discord refuses the acknowledgement (10062: the interaction came too late to answer): the
    host sees the interaction fail, so no table is opened and no buy-in taken; logged quietly."""
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    refused = dh.faults.fail("POST /interactions/*", status=404, code=10062, message="Unknown interaction")
    await dh.run_command("alice", "general", "tripoley start", preset="tripoley")
    await dh.wait_for(lambda: refused.hits, 3, what="the acknowledgement refused")
    await asyncio.sleep(0.3)  # what a buy-in taken anyway would have had time to do
    assert dh.channel("general").id not in bot.manager.registry.by_channel
    assert not [m for m in dh.channel_messages("general") if not m.deleted]
    audit = await bot.bank.audit(dh.guild.id)
    assert audit.ok and audit.tables == 0
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_refusal_after_thinking_is_private(discord_harness, bot_settings):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    slowed(bot, errors.NotEnoughChips("You need 500 chips but your wallet holds 20."))
    h = await dh.run_command("alice", "general", "tripoley start", preset="tripoley")
    refusal = await h.followup()
    assert refusal.ephemeral and "wallet holds 20" in refusal.content
    await dh.wait_for(lambda: h.record.original_message.deleted, 5, what="the loading message removed")
    assert len(h.record.followups) == 1
    assert not [m for m in dh.channel_messages("general") if not m.ephemeral and not m.deleted]
    assert dh.channel("general").id not in bot.manager.registry.by_channel


async def test_add_ai_and_start_acknowledged_before_the_tables_lock(discord_harness, bot_settings):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    await table.lock.acquire()  # e.g. the lobby's own save under way
    try:
        add = await (await dh.click("alice", lobby, label="Add AI")).response(timeout=2)
        start = await (await dh.click("alice", lobby, label="Start")).response(timeout=2)
        assert add.response_type == start.response_type == 6  # deferred updates, nothing applied yet
        assert len(table.seats) == 1 and table.status == "lobby"
    finally:
        table.lock.release()
    # Applied in click order: the AI sits down, then the game starts with it.
    await dh.wait_for(lambda: table.status == "playing", 5, what="the game to start")
    assert [s.is_ai for s in table.seats] == [False, True]
    assert not add.record.followups and not start.record.followups


async def test_start_with_too_few_players_is_refused_once_after_the_ack(discord_harness, bot_settings):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
    h = await dh.click("alice", lobby, label="Start")
    refusal = await h.followup()
    assert refusal.ephemeral and "needs at least" in refusal.content
    await asyncio.sleep(0.1)
    assert len(h.record.followups) == 1
    assert bot.manager.registry.by_channel[dh.channel("general").id].status == "lobby"


async def test_join_that_waits_for_the_tables_lock_answers_thinking_first(discord_harness, bot_settings):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    await table.lock.acquire()  # e.g. another player's buy-in under way
    try:
        join = await (await dh.click("bob", lobby, label="Join")).response(timeout=2)
        assert join.response_type == 5 and join.ephemeral  # a private "thinking…"
        assert len(table.seats) == 1
    finally:
        table.lock.release()
    answer = await join.message()
    assert answer.ephemeral and "You're in" in answer.content
    assert [s.user_id for s in table.seats] == [dh.user("alice").id, dh.user("bob").id]
    refused = await (await dh.click("bob", lobby, label="Join")).message()
    assert refused.ephemeral and "already" in refused.content
    assert len(table.seats) == 2


async def test_join_refused_under_the_lock_is_answered_once_privately(discord_harness, bot_settings):
    """Two clicks on Join by the same player at once: both pass the first check, the second is
    refused under the lock (it fills its own "thinking…"), and only one buy-in is taken."""
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    await table.lock.acquire()
    try:
        first = await (await dh.click("bob", lobby, label="Join")).response(timeout=2)
        second = await (await dh.click("bob", lobby, label="Join")).response(timeout=2)
    finally:
        table.lock.release()
    answers = sorted([(await first.message()).content, (await second.message()).content])
    assert "You're in" in answers[1] and "already" in answers[0]
    assert len(first.record.followups) == len(second.record.followups) == 1
    assert [s.user_id for s in table.seats].count(dh.user("bob").id) == 1
