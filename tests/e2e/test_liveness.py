"""End to end, `python -m bot` through the fake Discord: a Hard AI next to another AI seat plays the
whole game (the tables that froze after the Hard AI's first move).

The host opens a table alone, adds the two AIs in the order given, starts, and plays their own
turns from the hand view; the AIs play after a short pause (so through the timer loop, the Hard
one searching in the AI worker process). The game must reach its game-over message, each AI seat
with a name of its own, and every chip be accounted for.
"""

from __future__ import annotations

import pytest

from tests.e2e.test_bot import (
    applied_in_hand,
    bot_env,
    finish_and_leaderboard,
    finished,
    move,
    my_turn,
    open_hand,
    state_key,
    table_history,
    table_message,
    wait_change,
)

FROZEN = 15  # seconds without any change at the table while an AI or the next deal is awaited


async def play_as_the_host(dh, channel, user="alice", max_moves=400):
    """The host's moves until the game-over message; the table must move on while the AIs play."""
    moves = 0
    for _ in range(max_moves):
        if finished(dh, channel):
            return moves
        before = state_key(dh, channel)  # taken before the hand is looked at: no change is missed
        tm = table_message(dh, channel)
        hand = await open_hand(dh, channel, user, tm)
        if not my_turn(hand):
            await wait_change(dh, channel, before, FROZEN)  # an AI's move or the next deal: it must come
            continue
        shown = hand.content  # before the move: the view itself is edited to the hand after it
        await applied_in_hand(dh, user, await move(dh, channel, user, tm, hand=hand), hand, shown)
        moves += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "first, second, names",
    [
        ("Add Hard AI", "Add AI", ("Ada (Hard AI)", "Babbage (Normal AI)")),
        ("Add Hard AI", "Add Easy AI", ("Ada (Hard AI)", "Babbage (Easy AI)")),
        ("Add Hard AI", "Add Hard AI", ("Ada (Hard AI)", "Babbage (Hard AI)")),
        ("Add AI", "Add Hard AI", ("Ada (Normal AI)", "Babbage (Hard AI)")),
    ],
    ids=["hard-normal", "hard-easy", "hard-hard", "normal-hard"],
)
async def test_a_hard_ai_next_to_another_ai_plays_the_whole_game(discord_harness, tmp_path, first, second, names):
    dh = discord_harness
    env = bot_env(tmp_path, AI_PROCESSES="1", AI_PAUSE="0.1", ROUND_PAUSE="0.1")
    proc = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    assert "table open" in lobby.content
    await (await dh.click("alice", lobby, label=first)).response()
    await (await dh.click("alice", lobby, label=second)).response()
    await dh.wait_for(
        lambda: all(name in dh.message(lobby.id).content for name in names), 8, what="the lobby to seat both AIs"
    )
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    moves = await play_as_the_host(dh, "general")
    await finish_and_leaderboard(dh, proc, tmp_path)
    assert moves > 0
    history = table_history(dh, "general")
    assert all(name in history for name in names), history[-2000:]


async def test_a_host_who_never_clicks_times_out_and_the_ais_finish_the_game(discord_harness, tmp_path):
    """The host's turns time out (after a Hard AI's move too: that timer must fire), then an AI
    plays their seat, and the game still reaches its end."""
    dh = discord_harness
    env = bot_env(tmp_path, AI_PROCESSES="1", AI_PAUSE="0.1", ROUND_PAUSE="0.1", TURN_TIMEOUT="1")
    proc = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    await (await dh.click("alice", lobby, label="Add Hard AI")).response()
    await (await dh.click("alice", lobby, label="Add AI")).response()
    await dh.wait_for(lambda: "Babbage (Normal AI)" in dh.message(lobby.id).content, 8, what="both AIs seated")
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    for _ in range(400):
        if finished(dh, "general"):
            break
        await wait_change(dh, "general", state_key(dh, "general"), FROZEN)
    await finish_and_leaderboard(dh, proc, tmp_path)
    assert "(timed out)" in table_history(dh, "general")
