"""End to end through the local Discord (`python -m bot` as a subprocess): turn pings, the hand view
that follows the player, the Log button and the round results, the mat picture uploaded only when
it changes, the biggest table within Discord's limits, missed turns and the AI taking over."""

from __future__ import annotations

import asyncio
import json
import re

from tests.e2e.test_bot import bot_env, button, finished, game_waiting_for_a_human, move, my_turn, table_message, to_act

PING = " your turn: "


def pings(dh, channel, user=None):
    """Turn pings in the channel waiting for their player (not edited to done, not deleted), for `user` if given."""
    out = [m for m in dh.channel_messages(channel) if PING in m.content and not m.components]
    if user is not None:
        out = [m for m in out if m.content.startswith(f"<@{dh.user(user).id}>")]
    return out


def ping_posts(dh, user):
    """Every ping ever posted for `user` (in the channel, or as an interaction's follow-up), in order."""
    uid = dh.user(user).id
    return [
        c
        for c in dh.rest_calls("POST /channels/*/messages") + dh.rest_calls("POST /webhooks/*")
        if c.json and str(c.json.get("content", "")).startswith(f"<@{uid}>{PING}")
    ]


def first_content(m):
    """What a message said when it was posted."""
    return m.edits[0].before["content"] if m.edits else m.content


def done_edit(m):
    """The edit that closed a ping ("✓ done"), or None."""
    return next((e for e in m.edits if "\u2713 done" in str(e.after.get("content", ""))), None)


def only_mentions(call, user_id):
    """The request pings exactly this user (no roles, no @everyone)."""
    allowed = call.json.get("allowed_mentions") or {}
    return (
        [int(u) for u in allowed.get("users") or []] == [user_id]
        and not allowed.get("parse")
        and not allowed.get("roles")
    )


async def whole_log(dh, user, tm):
    """Every page of the Log (the round so far and the one before), oldest first."""
    log = await (await dh.click(user, tm, label="Log")).message()
    pages = [log.embeds[0]["description"]]
    while (older := button(log, "◀ Older")) and not log.embeds[0]["footer"]["text"].startswith("Page 1/"):
        log = await (await dh.click(user, log, custom_id=older["custom_id"])).message()
        pages.insert(0, log.embeds[0]["description"])
    return "\n".join(pages)


async def test_pings_hand_view_log_results_and_pictures(discord_harness, tmp_path):
    """Alice against two AI seats (AI pause 0.3 s): a ping naming only her at each of her decisions,
    edited to done once she acts; her one hand view shows each move's result (text and picture) and is
    updated to her next decision without her opening it again; the Log button pages the round;
    the round's results are posted; the table message keeps its picture through text-only edits."""
    dh = discord_harness
    uploads = []  # (file name, bytes) of every picture uploaded to the channel, in order
    make_attachments = dh.server._make_attachments

    def recording(channel_id, payload, files, existing, *, ephemeral):
        if not ephemeral:
            uploads.extend((name, data) for _, name, data, _ in files)
        return make_attachments(channel_id, payload, files, existing, ephemeral=ephemeral)

    dh.server._make_attachments = recording
    await dh.spawn(env=bot_env(tmp_path, AI_PAUSE="0.3"), cwd=tmp_path, commands=["tripoley"])
    alice = dh.user("alice")
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    for _ in range(2):
        await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: pings(dh, "general", "alice"), 10, what="alice's first ping")
    first = pings(dh, "general", "alice")[0]
    tm = table_message(dh, "general")
    assert f"press **Show my hand** on the table message <https://discord.com/channels/{dh.guild.id}/" in first.content
    assert f"/{tm.id}>." in first.content and "<t:" in first.content, first.content
    view = await (await dh.click("alice", tm, label="Show my hand")).message()
    assert my_turn(view), view.content
    moves = up_to_date = 0
    logged = False
    while not finished(dh, "general"):
        assert len(pings(dh, "general")) <= 1
        await dh.wait_for(lambda: dh.attachments(view), 5, what="the hand picture")
        picture = dh.attachments(view)[0].id
        before = dh.message(view.id).content
        h = await move(dh, "general", "alice", tm, {}, hand=dh.message(view.id))
        after = await h.message()
        assert after.id == view.id and h.response_type == 6, (h.response_type, after.content)
        moves += 1
        # The hand after the move: its text and its picture (the old picture showed the cards before it).
        await dh.wait_for(
            lambda before=before: dh.message(view.id).content != before or finished(dh, "general"),
            5,
            what="the hand view after the move",
        )
        if "The game is over." in dh.message(view.id).content:
            await dh.wait_for(lambda: not dh.attachments(view), 5, what="the old hand picture to go")
        else:
            assert dh.attachments(view) and dh.attachments(view)[0].id != picture
        if not logged and moves >= 2:  # the round's log, privately, on its newest page
            log = await (await dh.click("bob", table_message(dh, "general"), label="Log")).message()
            assert log.ephemeral and "the log of round 1" in log.embeds[0]["title"], log.embeds
            assert "Alice" in log.embeds[0]["description"] and "Page" in log.embeds[0]["footer"]["text"]
            older = button(log, "◀ Older")
            if older:
                page = await (await dh.click("bob", log, custom_id=older["custom_id"])).message()
                assert page.id == log.id and page.embeds[0]["description"] != log.embeds[0]["description"]
            logged = True
        # Her next decision comes after the AI seats' moves: the same view shows it, and the ping says so.
        await dh.wait_for(
            lambda: finished(dh, "general") or (my_turn(dh.message(view.id)) and pings(dh, "general", "alice")),
            15,
            what="alice's next decision",
        )
        if not finished(dh, "general"):
            ping = pings(dh, "general", "alice")[-1]
            up_to_date += "your hand view is up to date" in ping.content
    assert moves >= 3 and logged and up_to_date >= 1, (moves, up_to_date)
    await dh.wait_for(lambda: not pings(dh, "general"), 5, what="the last ping to be closed")
    posts = ping_posts(dh, "alice")
    assert len(posts) >= moves and all(only_mentions(c, alice.id) for c in posts)
    # Every ping a follow-up of the table's freshest click, edited to done through it: none counted
    # against Discord's global limit, none deleted (the notification leads to it).
    assert all(c.route == "POST /webhooks/{webhook_id}/{webhook_token}" and not c.counted for c in posts)
    done = [c for c in dh.rest_calls("PATCH /webhooks/*") if "\u2713 done" in str((c.json or {}).get("content", ""))]
    assert len(done) >= moves - 1 and all(not c.counted for c in done)
    assert not dh.rest_calls("DELETE /webhooks/*") and not dh.rest_calls("DELETE /channels/*")
    assert not any(set("♠♥♦♣") & set(c.json["content"]) for c in posts)  # nothing about her cards
    # Never two pings waiting at once: each was edited to done before the next one was posted.
    shown = sorted((m for m in dh.channel("general").messages if PING in first_content(m)), key=lambda m: m.created_at)
    assert all(done_edit(a) and done_edit(a).at <= b.created_at for a, b in zip(shown, shown[1:]))

    # The round's results: every hand shown down and who collected each space.
    def round_results():
        return [m for m in dh.channel_messages("general") if m.embeds and "who collected what" in m.embeds[0]["title"]]

    await dh.wait_for(
        round_results, 15, what="the round's results"
    )  # posted beside the table message, by its own worker
    results = round_results()
    assert results and "collects" in results[0].embeds[0]["description"], [m.embeds for m in results]
    # Bytes: the mat picture is uploaded only when it changed; an edit that changes only the text
    # keeps the picture the message has (no attachments in the request).
    mats = [data for name, data in uploads if name == "mat.png"]
    assert mats and all(a != b for a, b in zip(mats, mats[1:])), "the same mat picture was uploaded twice in a row"
    mat = next(
        m for m in dh.channel_messages("general") if m.attachments and m.attachments[0].filename == "summary.png"
    )
    # (How many edits carry the picture depends on the machine's speed: a late picture follows its
    # text in an edit of its own. That no picture went up twice in a row is what saves the bytes.)
    pictures = [data for _, data in uploads]
    assert all(a != b for a, b in zip(pictures, pictures[1:])), "a picture was uploaded twice in a row"
    # A round's message may go out before its picture (on a busy machine the text never waits for a
    # late one), so an early edit may have none yet; what an edit must never do is drop a picture.
    assert all(edit.after["attachments"] for edit in mat.edits if edit.before["attachments"]), (
        "an edit dropped the mat picture"
    )
    assert mat.attachments, "the table message ended without a picture"


async def test_twenty_seats_with_32_character_names(discord_harness, tmp_path):
    """Rummy Royal at 20 seats, every name 32 characters: the table message, the Log and the results
    stay within Discord's limits (the local Discord refuses what Discord would) and the table
    message keeps whose turn it is and the deadline."""
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    names = [f"p{i:02d}" + "w" * 29 for i in range(20)]
    for name in names:
        dh.add_user(name)
    lobby = await (
        await dh.run_command(names[0], "general", "tripoley start", preset="rummy-royal", rounds=1)
    ).message()
    for name in names[1:]:
        await (await dh.click(name, lobby, label="Join")).message()  # answered once seated
    await (await dh.click(names[0], lobby, label="Start")).response()
    await dh.wait_for(lambda: (tm := table_message(dh, "general")) and "⏳" in tm.content, 10, what="the 20-seat table")
    tm = table_message(dh, "general")
    assert len(tm.content) <= 2000 and re.search(r"⏳ <@\d+> to act \(.+\) — time runs out <t:\d+:R>", tm.content), (
        tm.content
    )
    log = await (await dh.click(names[5], tm, label="Log")).message()
    assert log.ephemeral and log.embeds
    await (await dh.run_command(names[0], "general", "tripoley stop")).response()
    await dh.wait_for(lambda: finished(dh, "general"), 20, what="the results")
    await asyncio.sleep(0.5)
    refused = [(c.route, c.status, json.dumps(c.json)[:300]) for c in dh.rest_calls() if c.status == 400]
    assert not refused, refused


async def test_missed_turns_hand_the_seat_to_an_ai_and_the_player_is_told(discord_harness, tmp_path):
    """Alice and Bob never act (1 s turns): after three missed decisions each an AI plays their seat,
    and each is told: Alice by DM, Bob (DMs closed) by a message pinging only him."""
    dh = discord_harness
    dh.user("bob").dms_open = False
    await dh.spawn(env=bot_env(tmp_path, TURN_TIMEOUT="1", AI_PAUSE="1"), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="rummoli", rounds=4)).message()
    await (await dh.click("bob", lobby, label="Join")).message()  # answered once seated
    await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    told = "an AI is playing your seat now"
    bob = dh.user("bob").id
    await dh.wait_for(lambda: any(told in m.content for m in dh.dms("alice")), 40, what="alice's DM")
    await dh.wait_for(
        lambda: any(m.content.startswith(f"<@{bob}> ") and told in m.content for m in dh.channel_messages("general")),
        40,
        what="bob's notice",
    )
    notice = next(
        c
        for c in dh.rest_calls("POST /channels/*/messages")
        if c.json and told in str(c.json.get("content")) and str(c.json["content"]).startswith(f"<@{bob}>")
    )
    assert only_mentions(notice, bob)
    assert any("3 times in a row" in m.content for m in dh.dms("alice"))
    # The table says so too; a claim left to lapse was a pass, not a missed turn (tests/bot/discordio/test_turns.py).
    text = await whole_log(dh, "alice", table_message(dh, "general"))
    for name in ("Alice", "Bob"):
        lines = [line for line in text.splitlines() if f"› {name} " in line]
        took_over = next(i for i, line in enumerate(lines) if "3 times in a row" in line)
        assert sum("(timed out)" in line for line in lines[:took_over]) == 3, lines
    await (await dh.run_command("alice", "general", "tripoley stop")).response()
    await dh.wait_for(lambda: finished(dh, "general"), 20, what="the results")


async def test_a_restart_leaves_one_ping(discord_harness, tmp_path):
    """SIGTERM while a human is to act, then a restart: the ping sent before is deleted and the
    player is pinged again (the turn got a grace period), one ping in the channel."""
    dh = discord_harness
    proc, db, old, before = await game_waiting_for_a_human(dh, tmp_path)
    user = to_act(dh, old)
    await dh.wait_for(lambda: pings(dh, "general", user), 10, what="the ping before the restart")
    first = pings(dh, "general", user)[0]
    proc.proc.terminate()
    assert await asyncio.wait_for(proc.proc.wait(), 10) == 0
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await dh.wait_for(lambda: dh.message(first.id).deleted and pings(dh, "general"), 10, what="a fresh ping")
    assert [m.content.split(">")[0] for m in pings(dh, "general")] == [f"<@{dh.user(user).id}"]


async def test_a_player_watching_is_not_pinged_and_a_slow_ones_ping_is_edited_to_done(discord_harness, tmp_path):
    """Alice against two AI seats, pings as deployed (a player who moved at the table within the last
    minute is watching it): her first decision finds her away, so she is pinged once, and once she
    plays that ping stays, edited to done; her next decisions come within the minute and she plays
    them in a moment: no ping for any of them."""
    dh = discord_harness
    await dh.spawn(
        env=bot_env(tmp_path, AI_PAUSE="0.3", PING_DELAY="0.5", PING_WATCHING="60", TURN_TIMEOUT="60"),
        cwd=tmp_path,
        commands=["tripoley"],
    )
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    for _ in range(2):
        await (await dh.click("alice", lobby, label="Add AI")).response()
    await (await dh.click("alice", lobby, label="Start")).response()
    # Slow: she plays only once pinged.
    await dh.wait_for(lambda: pings(dh, "general", "alice"), 10, what="alice's ping")
    (first,) = pings(dh, "general", "alice")
    tm = table_message(dh, "general")
    view = await (await dh.click("alice", tm, label="Show my hand")).message()
    await move(dh, "general", "alice", tm, {}, hand=dh.message(view.id))
    await dh.wait_for(lambda: done_edit(dh.message(first.id)), 10, what="her ping edited to done")
    closed = dh.message(first.id)
    assert not closed.deleted and closed.content == f"<@{dh.user('alice').id}> \u2713 done \u2014 you played."
    # Watching: her next decisions, each played within a couple of seconds, send no ping.
    moves = 0
    while moves < 3 and not finished(dh, "general"):
        before = dh.message(view.id).content
        await dh.wait_for(
            lambda before=before: (
                finished(dh, "general") or (my_turn(dh.message(view.id)) and dh.message(view.id).content != before)
            ),
            20,
            what="alice's next decision",
        )
        if finished(dh, "general"):
            break
        await asyncio.sleep(1.0)  # a moment to look at her cards: longer than PING_DELAY
        await move(dh, "general", "alice", table_message(dh, "general"), {}, hand=dh.message(view.id))
        moves += 1
    assert moves >= 1
    await asyncio.sleep(1.0)
    assert len(ping_posts(dh, "alice")) == 1, [c.json["content"] for c in ping_posts(dh, "alice")]
