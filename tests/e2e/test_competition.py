"""End to end, competition: `python -m bot` against the fake Discord. A game against an AI is rated
(the players provisional, listed apart on the leaderboard by rating), `/tripoley stats` shows the
rating; an admin sets weekly seasons, then ends the season with reset_chips: its standings are posted
in the channel (pinging nobody), every wallet is back at the starting balance with the books
balanced, and `/tripoley leaderboard season:1` shows the season again."""

from __future__ import annotations

import json

from tests.e2e.test_bot import bot_env, open_table
from tests.e2e.test_economy import books, play_to_the_end, query, say


async def test_a_rated_game_the_leaderboard_and_a_season_ended_with_its_wallets_reset(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    await play_to_the_end(dh, tmp_path)
    alice, bob = dh.user("alice").id, dh.user("bob").id
    assert sorted(query(tmp_path, "SELECT user_id, games FROM ratings")) == sorted([(alice, 1), (bob, 1)])

    board = await say(dh, "alice", "tripoley leaderboard")  # by rating, the default
    [embed] = board.embeds
    assert board.ephemeral and embed["title"] == "Leaderboard — rating"
    assert "Nobody is ranked yet" in embed["description"] and "**Provisional**" in embed["description"]
    assert f"<@{alice}>" in embed["description"] and f"<@{bob}>" in embed["description"]
    stats = await say(dh, "bob", "tripoley stats")
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert "(provisional: 1 of 5 games)" in fields["Rating"]

    refused = await say(dh, "alice", "tripoley-admin season", end=True)
    assert "needs the **Manage Server** permission" in refused.content
    weekly = await say(dh, "owner", "tripoley-admin season", length="weekly")
    assert "Seasons here now last a week: season 1 ends" in weekly.content
    shown = await say(dh, "owner", "tripoley-admin season")
    assert "Season 1 is under way" in shown.content

    ended = await say(dh, "owner", "tripoley-admin season", end=True, reset_chips=True)
    assert "Season 1 is over." in ended.content
    [post] = [m for m in dh.channel_messages("general") if "Season 1 is over" in m.content]
    assert "Nobody played enough rated games to be placed." in post.content  # one game each: provisional
    assert "Every wallet is back to 1000 chips" in post.content
    [sent] = [c.json for c in dh.rest_calls("POST /channels/*") if "Season 1 is over" in str(c.json)]
    assert not sent["allowed_mentions"].get("users") and not sent["allowed_mentions"].get("parse")  # pings nobody
    balances = dict(query(tmp_path, "SELECT user_id, balance FROM wallets WHERE user_id > 0"))
    assert balances == {alice: 1000, bob: 1000}
    held, net = books(tmp_path)
    assert held == net
    assert {actor for (actor,) in query(tmp_path, "SELECT actor_id FROM ledger WHERE kind = 'reset'")} == {
        dh.user("owner").id
    }

    past = await say(dh, "alice", "tripoley leaderboard", season=1)
    assert "season 1" in past.embeds[0]["title"] and "Nobody was placed in season 1" in json.dumps(past.embeds)
    missing = await say(dh, "alice", "tripoley leaderboard", season=2)
    assert "Season 2 has not ended here" in missing.content
    now = await say(dh, "owner", "tripoley-admin season")
    assert "Season 2 is under way" in now.content and "seasons last a week" in now.content
