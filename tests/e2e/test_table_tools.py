"""End to end through the local Discord (`python -m bot` as a subprocess): the table's own
moderation and what is kept after the game. The host removes a player from the lobby (refunded at
once) and, after confirming, mid-game (an AI plays on; they are told); the players still at the
table vote an absent player's seat to the AI (a majority of the others, each vote once); the final
message keeps Log (the whole game) and Replay, and `/tripoley history` opens a game's Log too."""

from __future__ import annotations

from tests.e2e.test_bot import bot_env, button, finished, table_message
from tests.e2e.test_economy import query, say


def final_message(dh, channel="general"):
    return next((m for m in reversed(dh.channel_messages(channel)) if "🏁" in m.content), None)


async def test_the_host_kicks_in_the_lobby_and_mid_game_then_the_game_is_kept(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    for name in ("bob", "carol"):
        await (await dh.click(name, lobby, label="Join")).message()  # answered once seated
    refused = await say(dh, "bob", "tripoley kick", player="carol")
    assert refused.ephemeral and "Only the table's host can remove a player" in refused.content
    kicked = await say(dh, "alice", "tripoley kick", player="carol")
    assert kicked.ephemeral and "Carol is off the table; their" in kicked.content, kicked.content
    assert query(tmp_path, "SELECT balance FROM wallets WHERE user_id = ?", (dh.user("carol").id,))[0][0] == 1000
    await dh.wait_for(lambda: any("the host removed you" in m.content for m in dh.dms("carol")), 8, what="carol told")
    await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")

    ask = await say(dh, "alice", "tripoley kick", player="bob")
    assert ask.ephemeral and "Hand **Bob**'s seat to an AI" in ask.content
    confirm = button(ask, "Yes: an AI plays Bob's seat")
    done = await (await dh.click("alice", ask, custom_id=confirm["custom_id"])).message()
    assert done.id == ask.id and "An AI plays Bob's seat now" in done.content and not done.components
    await dh.wait_for(lambda: any("handed your seat to an AI" in m.content for m in dh.dms("bob")), 8, what="bob told")
    again = await say(dh, "alice", "tripoley kick", player="bob")
    assert again.ephemeral and "An AI plays **Bob**'s seat already." in again.content

    await (await dh.run_command("alice", "general", "tripoley stop")).response()
    final = await dh.wait_for(lambda: final_message(dh), 20, what="the results")
    await dh.wait_for(lambda: button(dh.message(final.id), "Log"), 8, what="the final message's buttons")
    final = dh.message(final.id)
    assert "Biggest pot" in final.content or "pots won" in final.content
    log = await (await dh.click("carol", final, label="Log")).message()
    assert log.ephemeral and "the whole game's log" in log.embeds[0]["title"]
    text = log.embeds[0]["description"]
    assert "Alice opened the table." in text and "The host removed Carol from the table." in text, text
    replay = await (await dh.click("carol", final, label="Replay")).message()
    assert replay.ephemeral and dh.attachments(replay)[0].filename.endswith(".json")
    history = await say(dh, "bob", "tripoley history")
    from_history = await (await dh.click("bob", history, label="Log 1")).message()
    assert from_history.ephemeral and from_history.id != history.id
    assert from_history.embeds[0]["description"] == text


async def test_the_others_vote_an_absent_players_seat_to_the_ai(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path, TURN_TIMEOUT="4"), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="rummoli", rounds=3)).message()
    for name in ("bob", "carol"):
        await (await dh.click(name, lobby, label="Join")).message()  # answered once seated
    await (await dh.click("alice", lobby, label="Start")).response()

    def vote_button():
        tm = table_message(dh, "general")
        return tm and button(tm, "Vote: AI for ")

    await dh.wait_for(vote_button, 20, what="a missed turn's vote button")
    tm = table_message(dh, "general")
    vote = vote_button()
    absent = vote["label"].removeprefix("Vote: AI for ").split(" (")[0].lower()
    assert vote["label"].endswith("(0/2)"), vote["label"]
    others = [name for name in ("alice", "bob", "carol") if name != absent]
    own = await (await dh.click(absent, tm, custom_id=vote["custom_id"])).message()
    assert own.ephemeral and "Only the other players still at the table can vote" in own.content
    first = await (await dh.click(others[0], tm, custom_id=vote["custom_id"])).message()
    assert first.ephemeral and first.content == "Your vote counts: 1 of the 2 needed.", first.content
    twice = await (await dh.click(others[0], tm, custom_id=vote["custom_id"])).message()
    assert "each player's vote counts once" in twice.content
    second = await (await dh.click(others[1], tm, custom_id=vote["custom_id"])).message()
    assert "The table voted: an AI plays" in second.content, second.content
    await dh.wait_for(
        lambda: any("voted an AI into your seat" in m.content for m in dh.dms(absent)), 8, what="the player told"
    )
    await dh.wait_for(
        lambda: (tm := table_message(dh, "general")) and button(tm, "I'm back"), 8, what="the I'm back button"
    )
    await (await dh.run_command("alice", "general", "tripoley stop")).response()
    await dh.wait_for(lambda: finished(dh, "general"), 20, what="the results")
