"""End to end, `python -m bot` through the fake Discord: the lobby's AI levels.

The host adds a Hard AI and an Easy AI from the lobby; their seats show their levels on the lobby
and the table; a whole round is played with them (the Hard one searching in the AI worker process);
and every chip is accounted for at the end.
"""

from __future__ import annotations

from tests.e2e.test_bot import (
    bot_env,
    finish_and_leaderboard,
    finished,
    play_fast,
    public_text,
    table_history,
    table_message,
)


async def test_hard_ai_from_the_lobby_plays_a_round(discord_harness, tmp_path):
    dh = discord_harness
    proc = await dh.spawn(env=bot_env(tmp_path, AI_PROCESSES="1"), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    assert "table open" in lobby.content
    assert (await (await dh.click("bob", lobby, label="Join")).message()).ephemeral
    await (await dh.click("alice", lobby, label="Add Hard AI")).response()
    await (await dh.click("alice", lobby, label="Add Easy AI")).response()
    await dh.wait_for(lambda: "(Easy AI)" in dh.message(lobby.id).content, 8, what="the lobby to show both AIs")
    text = dh.message(lobby.id).content
    assert "(Hard AI)" in text and "(Easy AI)" in text, text
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    assert "(Hard AI)" in public_text(dh, table_message(dh, "general"))
    stats = await play_fast(dh, "general")
    assert finished(dh, "general") and stats["moves"] > 0
    await finish_and_leaderboard(dh, proc, tmp_path)
    assert "(Hard AI)" in table_history(dh, "general")
    assert dh.ack_stats()["late"] == 0
