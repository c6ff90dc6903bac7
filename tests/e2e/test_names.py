"""End to end, `python -m bot` through the fake Discord: names are data, never markup or pings.

Hostile display names (every vector: a user mention, a role mention, @everyone, @here, a masked
link, bold, a spoiler, a heading, backticks, 32 characters, emoji, right-to-left text) go through the
lobby, the table message, the log, the results, the leaderboard, stats and history. Every request the
bot sends is checked: its text shows each name only escaped, and its ``allowed_mentions`` lets it
ping nobody but the one player it means (whose turn it is, or whose DMs are closed). Also: a refused
command is answered once, ``/tripoley start`` in a DM is refused in words, and a stop by a Manage
Server member says who stopped the game.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time

from bot.messages.text import escape
from tests.e2e.test_bot import bot_env, button, finished, game_waiting_for_a_human, open_table, play, table_message

MENTION = re.compile(r"<@!?(\d+)>")
# The vectors, unescaped: none of these may reach Discord as written.
RAW_VECTORS = (
    re.compile(r"(?<!\\)@(?:everyone|here)"),
    re.compile(r"<@&"),
    re.compile(r"\]\(https?://"),
    re.compile(r"(?<!\\)\|\|"),
    re.compile(r"(?<!\\)\*\*bold"),
    re.compile(r"(?m)^# "),
    re.compile(r"(?<!\\)`c"),
    re.compile("\u202e"),
)


def hostile_names(dh) -> dict[str, str]:
    """A display name (nickname) for each player; dave is the bystander a name tries to ping."""
    dave, role = dh.user("dave").id, dh.guild.id  # the @everyone role's id is the guild's
    names = {
        "alice": f"<@{dave}> **bold**",
        "bob": "@everyone @here ||spoiler||",
        "carol": "[x](https://evil.example) `c`",
        "erin": f"# h <@&{role}>",
        "frank": "🃏👑 مرحبا שלום \u202eevil ",
    }
    names["frank"] += "x" * (32 - len(names["frank"]))  # 32 characters: Discord's longest nickname
    for user, nick in names.items():
        assert len(nick) <= 32, nick
        dh.guild.members[dh.user(user).id].nick = nick
    return names


def sent_messages(dh):
    """(call, message payload, is a new message) for every request of the bot that carries text."""
    out = []
    for call in dh.rest_calls():
        body = call.json
        if not isinstance(body, dict):
            continue
        if call.route.endswith("/callback"):
            if body.get("type") not in (4, 7):  # 5, 6: deferrals carry no text; 9: a modal
                continue
            payload, new = body.get("data") or {}, body.get("type") == 4
        elif call.method in ("POST", "PATCH") and ("/messages" in call.path or call.path.startswith("/webhooks/")):
            payload, new = body, call.method == "POST"
        else:
            continue
        if "content" in payload or "embeds" in payload:
            out.append((call, payload, new))
    return out


def strings(value) -> list[str]:
    """Every string inside an embed (title, description, fields, footer…)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [s for item in items for s in strings(item)]


def message_text(payload: dict) -> str:
    return "\n".join([payload.get("content") or "", *strings(payload.get("embeds") or [])])


MEANT = (
    re.compile(r"⏳ <@(\d+)> to act"),
    re.compile(r"^<@(\d+)> I couldn't DM you", re.M),
    re.compile(r"^((?:<@\d+> )+)your turn: ", re.M),  # a turn ping: everyone still choosing in a step decided at once
    re.compile(r"^<@(\d+)> you ran out of time \d+ times in a row", re.M),
)  # an AI took the seat, DMs closed


def meant_pings(content: str) -> set[int]:
    """The users a message of the bot means to ping: the player to act (on the table message, or in
    a turn ping), a player whose DMs are closed."""
    return {int(uid) for pattern in MEANT for found in pattern.findall(content) for uid in re.findall(r"\d+", found)}


def check_requests(dh, names: dict[str, str]) -> dict[str, int]:
    """Every request's text and allowed_mentions; returns how often each name was shown (escaped)."""
    bystander = dh.user("dave").id
    seen = {user: 0 for user in names}
    for call, payload, new in sent_messages(dh):
        text = message_text(payload)
        where = f"{call.method} {call.path}:\n{text}"
        for vector in RAW_VECTORS:
            assert not vector.search(text), f"unescaped {vector.pattern!r} in {where}"
        for user, nick in names.items():
            assert nick not in text, f"{user}'s name sent unescaped in {where}"
            seen[user] += text.count(escape(nick))
        allowed = payload.get("allowed_mentions")
        assert allowed is not None, f"no allowed_mentions: Discord would ping every mention in {where}"
        assert not {"everyone", "roles", "users"} & set(allowed.get("parse") or []), f"{allowed} in {where}"
        assert not allowed.get("roles"), f"{allowed} in {where}"
        pinged = {int(u) for u in allowed.get("users") or []}
        content = payload.get("content") or ""
        assert bystander not in pinged, where
        assert pinged <= meant_pings(content), f"pings {pinged} beyond its purpose in {where}"
        if new:  # a new message notifies exactly the mentions allowed
            notified = {int(u) for u in MENTION.findall(content)} & pinged
            assert notified == meant_pings(content) & pinged and bystander not in notified, where
    return seen


async def test_hostile_names_are_shown_as_typed_and_ping_nobody(discord_harness, tmp_path):
    dh = discord_harness
    for extra in ("erin", "frank"):
        dh.add_user(extra)
    names = hostile_names(dh)
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    for user in ("alice", "bob"):  # hands by DM: alice's arrive, bob's DMs are closed
        await (await dh.run_command(user, "general", "tripoley dm", mode="on")).response()
    dh.faults.close_dms("bob")  # the notice in the channel pings bob, and only bob
    h = await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)
    lobby = await h.message()
    for user in ("bob", "carol", "erin", "frank"):
        assert (await (await dh.click(user, lobby, label="Join")).message()).ephemeral
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, "general"), 8, what="the table message")
    for user in ("carol", "erin", "frank"):  # an AI plays their seats; their names stay at the table
        await (await dh.run_command(user, "general", "tripoley leave")).response()
    await play(dh, "general", extra_checks=True)  # wrong-user clicks: "It's not your turn: waiting for …"
    await dh.wait_for(lambda: finished(dh, "general"), 8, what="the game-over message")
    for command, options in (
        ("tripoley leaderboard", {}),
        ("tripoley history", {}),
        ("tripoley stats", {}),
        ("tripoley stats", {"user": dh.user("carol").user}),
    ):
        await (await dh.run_command("alice", "general", command, **options)).message()
    await asyncio.sleep(1.5)  # the last paced edits

    seen = check_requests(dh, names)
    assert all(seen.values()), f"a name never reached the channel (escaped): {seen}"
    history = "\n".join(
        strings((await (await dh.run_command("alice", "general", "tripoley history")).message()).embeds)
    )
    assert sum(escape(nick) in history for nick in names.values()) == 4, history  # the four best of five
    check_requests(dh, names)
    texts = "\n".join(message_text(payload) for _, payload, _ in sent_messages(dh))
    for nick in names.values():  # the table message's seats
        assert f"**{escape(nick)}** —" in texts, nick
    logged = [line for line in texts.splitlines() if line.startswith("› ")]
    assert all(any(line.startswith(f"› {escape(nick)} ") for line in logged) for nick in names.values()), logged
    assert any("Your hand" in m.content for m in dh.dms("alice"))
    notices = [m for m in dh.channel_messages("general") if "couldn't DM you" in m.content]
    assert len(notices) == 1 and notices[0].content.startswith(f"<@{dh.user('bob').id}>")


def callbacks_and_followups(dh, handle) -> list:
    """Every answer the bot sent to one interaction (its callback, follow-ups, edits of its answer)."""
    token = handle.token
    return [c for c in dh.rest_calls() if token in c.path and c.method in ("POST", "PATCH")]


async def test_a_refusal_is_answered_once_and_a_dm_start_in_words(discord_harness, tmp_path):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    refused = await dh.run_command("bob", "general", "tripoley join")  # no table here
    reply = await refused.message()
    assert reply.ephemeral and "no Tripoley table" in reply.content
    in_dm = await dh.run_command("alice", dh.state.dm_channel(dh.user("alice").user), "tripoley start")
    answer = await in_dm.message()
    assert "server channels, not in DMs" in answer.content and "went wrong" not in answer.content
    await asyncio.sleep(0.5)  # a second answer would have come by now
    for handle in (refused, in_dm):
        assert len(callbacks_and_followups(dh, handle)) == 1 and not handle.followups, handle


async def test_a_stop_by_a_manage_server_member_is_announced_with_their_name(discord_harness, tmp_path):
    dh = discord_harness
    owner = dh.state.owner  # Manage Server (the guild's owner), not the host
    dh.guild.members[owner.id].nick = "**Mod**"
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 3)
    stop = await (await dh.run_command(owner, "general", "tripoley stop")).message()
    assert not stop.ephemeral
    assert stop.content == "\\*\\*Mod\\*\\* (Manage Server) stopped the game; everyone is cashed out."
    await dh.wait_for(lambda: finished(dh, "general"), 8, what="the game-over message")
    await asyncio.sleep(1.2)
    final = next(m for m in dh.channel_messages("general") if "🏁" in m.content)
    assert "Next round" not in final.content and "stopped by the host" not in final.content.lower()


async def test_a_round_message_posted_before_a_restart_is_reused(discord_harness, tmp_path):
    """SIGKILL right after the round's table message was posted, before its id was saved: after the
    restart that message is found and reused, not posted again with live buttons beside it."""
    dh = discord_harness
    proc, db, old, before = await game_waiting_for_a_human(dh, tmp_path)
    proc.proc.kill()
    await proc.proc.wait()
    con = sqlite3.connect(db)
    try:
        ((row_id, state),) = con.execute("SELECT id, state_json FROM tables WHERE status = 'playing'").fetchall()
        state = json.loads(state)
        state["mat_message_id"] = state["mat_round"] = None  # the post's id never reached the database
        con.execute("UPDATE tables SET state_json = ? WHERE id = ?", (json.dumps(state), row_id))
        con.commit()
    finally:
        con.close()
    posts = len(dh.rest_calls("POST /channels/*/messages"))
    began = time.perf_counter()
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await dh.wait_for(
        lambda: any(e.monotonic > began for e in dh.message(old.id).edits), 8, what="the round message to be edited"
    )
    live = [m for m in dh.channel_messages("general") if button(m, "Show my hand")]
    assert [m.id for m in live] == [old.id], [m.content[:60] for m in live]
    assert len(dh.rest_calls("POST /channels/*/messages")) == posts  # nothing posted again
    await play(dh, "general", extra_checks=False)
    await dh.wait_for(lambda: finished(dh, "general"), 8, what="the game-over message")
