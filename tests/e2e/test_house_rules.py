"""End to end through the local Discord: the host switches a house rule in the lobby (a non-host is
refused), the lobby and `/tripoley rules` at the table show it, the game plays with it, and the
history and the saved game (the replay's source) name it."""

from __future__ import annotations

import json
import sqlite3

from tests.e2e.test_bot import bot_env, finish_and_leaderboard, play, selects, table_message

VARIATION_1 = "Pay cards: when played (Cadaco variation 1)"


async def test_host_switches_a_house_rule_in_the_lobby(discord_harness, tmp_path):
    dh = discord_harness
    proc = await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    assert "**House rules**" in lobby.content and "Pay cards: **at the deal**" in lobby.content
    [menu] = [s for s in selects(lobby) if s["custom_id"].endswith(":pick.house")]
    offered = {o["value"]: o for o in menu["options"]}
    assert offered["paycards=play"]["label"] == VARIATION_1
    assert offered["paycards=play"]["description"].startswith("Pay cards pay only when they are played")
    assert (await (await dh.click("bob", lobby, label="Join")).message()).ephemeral

    refused = await (await dh.select("bob", lobby, menu["custom_id"], ["paycards=play"])).message()
    assert refused.ephemeral and "Only the host can change the house rules" in refused.content
    done = await (await dh.select("alice", lobby, menu["custom_id"], ["paycards=play"])).message()
    assert done.ephemeral and done.content == f"House rule set: {VARIATION_1}."
    await dh.wait_for(
        lambda: (
            f"Changed from the printed game: {VARIATION_1}; Game end: after 1 round" in dh.message(lobby.id).content
        ),
        8,
        what="the lobby to show the house rule",
    )

    rules = await (await dh.run_command("bob", "general", "tripoley rules")).message()
    page = rules.embeds[0]["description"]
    assert rules.ephemeral and page.startswith("**House rules at this table**") and VARIATION_1 in page
    assert "**10♥** — Whoever plays the 10♥ in Michigan takes it." in page

    await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    stats = await play(dh, "general")
    assert stats["moves"] > 0
    await finish_and_leaderboard(dh, proc, tmp_path)

    history = await (await dh.run_command("alice", "general", "tripoley history")).message()
    assert f"house rules: {VARIATION_1}; Game end: after 1 round" in history.embeds[0]["description"]
    con = sqlite3.connect(f"{tmp_path}/t.sqlite3")
    try:
        state, result = con.execute("SELECT state_json, result_json FROM tables").fetchone()
    finally:
        con.close()
    game = json.loads(json.loads(state)["game"])
    assert game["options"]["paycards"] == "play"  # the game was played (and is saved) with it
    assert VARIATION_1 in json.loads(result)["house_rules"]
