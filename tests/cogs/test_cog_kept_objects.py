"""What a running bot keeps of the clicks it handled, through the fake Discord: no view timer
(discord.py arms a 15-minute one for an ephemeral message's view; when it fired, every table's
buttons went out of its routing) and no Interaction (each holds its payload and its message's
components; a thousand kept by the table carriers and hand views made a collection of the cyclic
collector stop the event loop for 0.7 s at 500 tables): the carriers keep the webhooks only."""

from __future__ import annotations

import asyncio
import gc

import discord

from tests.cogs.test_cog_e2e_fake_discord import open_lobby, settle, start_bot, start_game


def view_timers() -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks() if "timeout_task_impl" in getattr(t.get_coro(), "__qualname__", "")]


def live_interactions() -> list[discord.Interaction]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]


async def game_under_way(dh, settings):
    """A bot, its table (alice, bob and an AI playing) and the table message."""
    bot, _ = await start_bot(dh, settings)
    await start_game(dh, bot, await open_lobby(dh))
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    return bot, table, dh.message(table.mat_message_id)


async def test_hand_views_arm_no_timer_and_handled_clicks_are_not_kept(discord_harness, bot_settings):
    dh = discord_harness
    bot, table, mat = await game_under_way(dh, bot_settings)
    for user in ("alice", "bob"):
        hand = await (await dh.click(user, mat, label="Show my hand")).message()
        assert hand.ephemeral and "Your hand" in hand.content
    await settle(bot)
    await dh.wait_for(lambda: not bot.controller._clicks, 5, what="the clicks handled")
    assert not view_timers()
    # The table's carrier (for its next updates) and both hand views are remembered, by their webhooks.
    assert bot.publisher.carriers.freshest(table.id, table.mat_channel) is not None
    assert not live_interactions()
    # The buttons still answer.
    again = await (await dh.click("alice", mat, label="Show my hand")).message()
    assert again.ephemeral and "Your hand" in again.content


async def test_a_handled_click_is_freed_without_the_cyclic_collector(discord_harness, bot_settings):
    """Nothing of a handled click is left in reference cycles: freed at once, not by a collection
    of the old objects (which had hundreds of thousands of them to free at 500 tables)."""
    dh = discord_harness
    bot, table, mat = await game_under_way(dh, bot_settings)
    await settle(bot)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection would free is kept in gc.garbage instead
    try:
        for user in ("alice", "bob", "alice"):
            hand = await (await dh.click(user, mat, label="Show my hand")).message()
            assert hand.ephemeral and "Your hand" in hand.content
        await dh.wait_for(lambda: not bot.controller._clicks, 5, what="the clicks handled")
        await settle(bot)
        gc.collect()
        cyclic = [type(o).__name__ for o in gc.garbage if isinstance(o, (discord.Interaction, discord.Message))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert not cyclic
