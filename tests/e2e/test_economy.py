"""End to end, the server economy: `python -m bot` against the fake Discord, driven as users and an
admin (the server's owner) would. Daily and relief grants and their cooldowns, the admin tools and
their refusals, forget-me, kick, Rematch, threads, the DM check at once, a member who left the server,
the leaderboards; after each, wallets + house + tables = grants - removals."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3

from tests.e2e.test_bot import bot_env, button, buttons, chips_total, finished, open_table, play, table_message


def books(tmp_path):
    """(wallets + tables, grants - removals) from the bot's database."""
    wallets, tables, net = chips_total(f"{tmp_path}/t.sqlite3")
    return wallets + tables, net


def query(tmp_path, sql, params=()):
    con = sqlite3.connect(f"{tmp_path}/t.sqlite3")
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


async def play_to_the_end(dh, tmp_path, channel="general", timeout=8):
    """Play the humans' moves until the results are posted; then the books must balance."""
    await play(dh, channel, extra_checks=False)
    await dh.wait_for(lambda: finished(dh, channel), timeout, what="the game-over message")
    held, net = books(tmp_path)
    assert held == net


async def say(dh, who, command, /, channel="general", **options):
    """Run a command as `who`; the message they see."""
    return await (await dh.run_command(who, channel, command, **options)).message()


async def test_daily_and_relief_grants_with_their_cooldowns(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path, RELIEF_AMOUNT="150"), cwd=tmp_path, commands=["tripoley"])
    # The server's own amount and cooldown (only Manage Server may change them).
    refused = await say(dh, "alice", "tripoley-admin settings", daily_amount=5000)
    assert "needs the **Manage Server** permission" in refused.content
    changed = await say(dh, "owner", "tripoley-admin settings", daily_amount=75, daily_cooldown_hours=20.0)
    assert (
        "Daily grant: 75 chips every 20 h" in changed.content
        and "Relief grant: 150 chips every 24 h" in changed.content
    )
    ready = await say(dh, "alice", "tripoley balance")
    assert "`/tripoley daily` is ready" in ready.content and "relief" not in ready.content
    first = await say(dh, "alice", "tripoley daily")
    assert first.ephemeral and "+75 chips" in first.content and "**1075**" in first.content
    again = await say(dh, "alice", "tripoley daily")
    assert again.ephemeral and re.search(r"next daily grant is in \*\*(20 h|19 h 59 min)\*\*", again.content), (
        again.content
    )
    # Relief only for a wallet below the smallest buy-in (100).
    rich = await say(dh, "alice", "tripoley relief")
    assert "Relief is for wallets below 100 chips" in rich.content and "1075" in rich.content
    took = await say(dh, "owner", "tripoley-admin grant", user="bob", amount=-960)
    assert "Took **960** chips from" in took.content and "holds 40" in took.content
    poor = await say(dh, "bob", "tripoley balance")
    assert "`/tripoley daily` is ready · `/tripoley relief` is ready" in poor.content, poor.content
    relief = await say(dh, "bob", "tripoley relief")
    assert "+150 chips" in relief.content and "**190**" in relief.content
    assert re.search(r"`/tripoley daily` in (20 h|19 h 59 min)", (await say(dh, "alice", "tripoley balance")).content)
    relief_again = await say(dh, "bob", "tripoley relief")
    assert re.search(r"next relief grant is in \*\*(24 h|23 h 59 min)\*\*", relief_again.content), relief_again.content
    kinds = [k for (k,) in query(tmp_path, "SELECT kind FROM ledger ORDER BY id")]
    assert kinds.count("daily") == 1 and kinds.count("relief") == 1 and "admin-removal" in kinds
    held, net = books(tmp_path)
    assert held == net == 1075 + 190


async def test_admin_tools_refusals_and_the_audit(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path, HOUSE_BANKROLL="250"), cwd=tmp_path, commands=["tripoley"])
    for command, options in (
        ("tripoley-admin grant", {"user": "bob", "amount": 5}),
        ("tripoley-admin house", {}),
        ("tripoley-admin audit", {}),
        ("tripoley-admin reset", {}),
        ("tripoley-admin kick", {"user": "bob"}),
    ):
        refused = await say(dh, "alice", command, **options)
        assert refused.ephemeral and "needs the **Manage Server** permission" in refused.content, (
            command,
            refused.content,
        )
    granted = await say(dh, "owner", "tripoley-admin grant", user="bob", amount=500)
    assert "Granted **500** chips to" in granted.content and "holds 1500" in granted.content
    answer = dh.rest_calls("PATCH /webhooks/*")[-1].json  # acknowledged first, the result edited in
    assert answer["allowed_mentions"]["parse"] == [] and not answer["allowed_mentions"].get("users")
    house = await say(dh, "owner", "tripoley-admin house")
    assert "The house holds **250** chips" in house.content
    # The house funds one AI seat of 200, then refuses the next: no chips from nowhere.
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", buy_in=200)).message()
    await (await dh.click("alice", lobby, label="Add AI")).response()
    short = await dh.click("alice", lobby, label="Add AI")
    await short.response()
    refusal = await dh.wait_for(lambda: short.followups and short.followups[0], 5, what="the Add AI refusal")
    assert refusal.ephemeral and "house can't fund another AI seat" in refusal.content and "holds 50" in refusal.content
    funded = await say(dh, "owner", "tripoley-admin house", amount=1000)
    assert "the house holds **1050** now" in funded.content
    await (await dh.click("alice", lobby, label="Add AI")).response()
    # The click is acknowledged before the seat is bought in: wait for the lobby to show it.
    await dh.wait_for(lambda: "seats 3/" in dh.message(lobby.id).content, 10, what="the funded AI seat")
    # Reset is refused while a table is open, even after its confirmation was shown.
    reset = await say(dh, "owner", "tripoley-admin reset")
    assert "A table is open in this server" in reset.content
    audit = await say(dh, "owner", "tripoley-admin audit")
    # bob 1000 + 500, alice 1000 - 200; the house 250 + 1000 - 2 × 200; three seats of 200.
    assert "Players' wallets 2300 + house 850 + on tables 600 = **3750**\n" in audit.content, audit.content
    assert "Grants 3750 − removals 0 = **3750**\n✅ Every chip is accounted for." in audit.content, audit.content
    await say(dh, "alice", "tripoley stop")
    confirm = await say(dh, "owner", "tripoley-admin reset")
    assert "back to 1000 chips" in confirm.content and button(confirm, "Reset the economy")
    done = await (await dh.click("owner", confirm, label="Reset the economy")).message()
    assert "wallets are back to 1000 chips" in done.content, done.content
    balances = dict(query(tmp_path, "SELECT user_id, balance FROM wallets"))
    assert balances[0] == 250 and {b for u, b in balances.items() if u} == {1000}
    held, net = books(tmp_path)
    assert held == net == 250 + 1000 * (len(balances) - 1)
    assert (
        query(tmp_path, "SELECT COUNT(*) FROM ledger WHERE kind = 'reset' AND actor_id = ?", (dh.user("owner").id,))[0][
            0
        ]
        >= 2
    )


async def test_admin_grant_under_discord_errors_is_applied_once_and_always_shown(discord_harness, tmp_path):
    """Acknowledged first: when Discord fails the acknowledgement nothing is granted (the admin sees it
    fail and tries again); when it fails the result, the result is sent again until it shows. The same
    grant made again moments later asks first, and its confirmation applies once, even clicked twice."""
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    bob = dh.user("bob").id

    def grants():
        return query(tmp_path, "SELECT delta FROM ledger WHERE kind = 'admin-grant' AND user_id = ?", (bob,))

    await say(dh, "bob", "tripoley balance")  # a wallet of 1000
    dh.faults.rate_limit("POST /interactions/*", count=5, retry_after=0.05)  # discord.py gives up after five
    failed = await say(dh, "owner", "tripoley-admin grant", user="bob", amount=300)
    assert "Something went wrong" in failed.content and grants() == []
    dh.faults.rate_limit("PATCH /webhooks/*", count=5, retry_after=0.05)
    granted = await (await dh.run_command("owner", "general", "tripoley-admin grant", user="bob", amount=300)).message(
        timeout=15
    )
    assert "Granted **300** chips to" in granted.content and "holds 1300" in granted.content, granted.content
    assert grants() == [(300,)]
    repeated = await say(dh, "owner", "tripoley-admin grant", user="bob", amount=300)
    assert "You granted 300 chips to this wallet" in repeated.content and "Nothing changed" in repeated.content
    assert repeated.ephemeral and button(repeated, "Do it again") and grants() == [(300,)]
    first, second = await asyncio.gather(
        dh.click("owner", repeated, label="Do it again"), dh.click("owner", repeated, label="Do it again")
    )
    await asyncio.gather(first.response(), second.response())
    await dh.wait_for(lambda: len(grants()) == 2, 10, what="the confirmed grant")
    await dh.wait_for(
        lambda: (
            "You granted 300 chips" in dh.message(repeated.id).content
            or "holds 1600" in dh.message(repeated.id).content
        ),
        10,
        what="the confirmation's result",
    )
    assert grants() == [(300,), (300,)]
    assert query(tmp_path, "SELECT balance FROM wallets WHERE user_id = ?", (bob,))[0][0] == 1600
    held, net = books(tmp_path)
    assert held == net


async def test_forget_me_refused_while_seated_then_anonymised(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    seated = await say(dh, "bob", "tripoley forget-me")
    assert seated.ephemeral and "You're seated at a table" in seated.content and not buttons(seated)
    await play_to_the_end(dh, tmp_path)
    bob = dh.user("bob").id
    ask = await say(dh, "bob", "tripoley forget-me")
    assert "Sure?" in ask.content
    done = await (await dh.click("bob", ask, label="Forget me")).message()
    assert "are gone from this server" in done.content
    assert query(tmp_path, "SELECT COUNT(*) FROM wallets WHERE user_id = ?", (bob,))[0][0] == 0
    assert query(tmp_path, "SELECT COUNT(*) FROM stats WHERE user_id = ?", (bob,))[0][0] == 0
    assert query(tmp_path, "SELECT COUNT(*) FROM ledger WHERE user_id = ?", (bob,))[0][0] == 0
    assert (
        query(tmp_path, "SELECT COUNT(*) FROM ledger WHERE user_id = -1")[0][0] >= 3
    )  # grant, buy-in, cash-out, removal
    for state, result in query(tmp_path, "SELECT state_json, result_json FROM tables"):
        assert str(bob) not in state + (result or "") and "Bob" not in json.dumps(json.loads(result)["seats"])
    stats = await say(dh, "bob", "tripoley stats")
    assert "hasn't finished a game here yet" in stats.content
    held, net = books(tmp_path)
    assert held == net
    # Back after forget-me: no new starting balance, however often (it would mint chips).
    for _ in range(2):
        back = await say(dh, "bob", "tripoley balance")
        assert "Your wallet: **0** chips." in back.content, back.content
        ask = await say(dh, "bob", "tripoley forget-me")
        assert "start at 0 chips" in ask.content
        await (await dh.click("bob", ask, label="Forget me")).message()
    assert query(tmp_path, "SELECT COUNT(*) FROM forgotten_players")[0][0] == 1
    assert str(bob) not in json.dumps(query(tmp_path, "SELECT * FROM forgotten_players"))
    assert books(tmp_path)[0] == books(tmp_path)[1]


async def test_kick_from_a_lobby_and_mid_game(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    await (await dh.click("bob", lobby, label="Join")).message()  # answered once seated
    kicked = await say(dh, "owner", "tripoley-admin kick", user="bob")
    assert "back in their wallet" in kicked.content
    assert query(tmp_path, "SELECT balance FROM wallets WHERE user_id = ?", (dh.user("bob").id,))[0][0] == 1000
    nobody = await say(dh, "owner", "tripoley-admin kick", user="carol")
    assert "isn't seated at any open table" in nobody.content
    await (await dh.click("bob", lobby, label="Join")).message()  # answered once seated
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    kicked = await say(dh, "owner", "tripoley-admin kick", user="bob")
    assert "An AI plays" in kicked.content and "cashed out at the end" in kicked.content
    await dh.wait_for(
        lambda: "removed" in (table_message(dh, "general") or lobby).content or finished(dh, "general"),
        8,
        what="the kick in the table's log",
    )
    await play_to_the_end(dh, tmp_path)


async def test_rematch_reseats_the_players_and_the_ai(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    await play_to_the_end(dh, tmp_path)
    final = await dh.wait_for(
        lambda: (
            finished(dh, "general") and next(m for m in reversed(dh.channel_messages("general")) if "🏁" in m.content)
        ),
        8,
        what="the results",
    )
    await dh.wait_for(lambda: button(dh.message(final.id), "Rematch"), 8, what="the Rematch button")
    outsider = await (await dh.click("carol", final, label="Rematch")).message()
    assert "Rematch is for the players of that game" in outsider.content
    mine = await (await dh.click("bob", final, label="Rematch")).message()
    assert mine.ephemeral and "Rematch! You bought in for 100 chips." == mine.content, mine.content
    lobby = await dh.wait_for(
        lambda: next((m for m in reversed(dh.channel_messages("general")) if button(m, "Start")), None),
        8,
        what="the rematch lobby",
    )
    await (await dh.click("alice", final, label="Rematch")).response()
    await dh.wait_for(lambda: f"<@{dh.user('alice').id}>" in dh.message(lobby.id).content, 8, what="alice seated")
    text = dh.message(lobby.id).content
    assert "(Normal AI)" in text and "Tripoley" in text  # the AI seat came back, at its level
    held, net = books(tmp_path)
    assert held == net


async def test_threads_a_table_plays_in_its_own_thread_then_it_is_archived(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path, THREADS="true"), cwd=tmp_path, commands=["tripoley"])
    settings = await say(dh, "alice", "tripoley settings")
    assert "Tables in threads: on" in settings.content and "Daily grant: 100 chips every 20 h" in settings.content
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    await (await dh.click("bob", lobby, label="Join")).message()  # answered once seated
    await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    thread = await dh.wait_for(
        lambda: dh.state.threads("general") and dh.state.threads("general")[0], 8, what="the game's thread"
    )
    assert thread.id == lobby.id  # started from the lobby message
    await dh.wait_for(lambda: table_message(dh, thread.id), 8, what="the mat in the thread")
    assert not table_message(dh, "general")  # the channel only has the lobby
    await dh.wait_for(
        lambda: f"<#{thread.id}>" in dh.message(lobby.id).content, 8, what="the lobby to point at the thread"
    )
    in_thread = await say(dh, "bob", "tripoley balance", channel=thread.id)
    assert "At this table" in in_thread.content
    await play_to_the_end(dh, tmp_path, thread.id)
    await dh.wait_for(lambda: thread.archived, 8, what="the thread to be archived")
    # Rematch from the archived thread: the new lobby is in the channel, its game in a new thread.
    final = next(m for m in reversed(dh.channel_messages(thread.id)) if "🏁" in m.content)
    await dh.wait_for(lambda: button(dh.message(final.id), "Rematch"), 8, what="the Rematch button")
    assert "Rematch!" in (await (await dh.click("alice", final, label="Rematch")).message()).content
    again = await dh.wait_for(
        lambda: next((m for m in reversed(dh.channel_messages("general")) if button(m, "Start")), None),
        8,
        what="the rematch lobby",
    )
    assert "You're in!" in (await (await dh.click("bob", final, label="Rematch")).message()).content
    await dh.wait_for(lambda: f"<@{dh.user('bob').id}>" in dh.message(again.id).content, 8, what="bob seated")
    await (await dh.click("alice", again, label="Start")).response()
    await dh.wait_for(lambda: len(dh.state.threads("general")) == 2, 8, what="the rematch's thread")


async def test_dm_check_says_at_once_when_dms_are_closed(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    ok = await say(dh, "alice", "tripoley dm", mode="on")
    assert "I sent you a test DM" in ok.content
    assert any("checking that I can DM you" in m.content for m in dh.dms("alice"))
    dh.user("bob").dms_open = False
    closed = await say(dh, "bob", "tripoley dm", mode="on")
    assert closed.ephemeral and "I couldn't DM you: your DMs are closed to me" in closed.content


async def test_a_member_who_left_gets_the_ai_when_their_timer_fires(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path, TURN_TIMEOUT="1.5"), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    dh.state.remove_member(dh.guild, dh.user("bob").user)
    await dh.wait_for(
        lambda: (
            any("no longer in this server" in (m.content or "") for m in dh.channel_messages("general"))
            or "no longer in this server"
            in (table_message(dh, "general") or dh.channel_messages("general")[-1]).content
        ),
        20,
        what="bob's seat to pass to the AI",
    )
    await play_to_the_end(dh, tmp_path, timeout=20)


async def test_leaderboards_this_week_and_stats(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    await play_to_the_end(dh, tmp_path)
    for by in ("balance", "net", "wins"):
        board = await say(dh, "alice", "tripoley leaderboard", by=by, period="week")
        text = json.dumps(board.embeds, ensure_ascii=False)
        assert str(dh.user("alice").id) in text and str(dh.user("bob").id) in text, text
        assert ("this week" in text) == (by != "balance")
    wins = await say(dh, "alice", "tripoley leaderboard", by="wins")
    assert "games won" in json.dumps(wins.embeds, ensure_ascii=False)
    stats = await say(dh, "alice", "tripoley stats")
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert fields["Favourite game"] == "Tripoley (Cadaco)" and fields["Win rate"] in ("0%", "100%")
