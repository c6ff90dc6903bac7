"""End to end, `python -m bot` through the fake Discord: what happens on Discord's side to a game in
progress (issue 30). A hung REST route holds up no table's timers; the table's channel deleted, its
thread archived and locked or deleted, the bot removed from the server or refused in the channel:
the table ends within seconds with every chip back through the ledger, the host is told by DM, and
nothing more is sent to that channel; a Discord outage of the server keeps the tables; a table
message deleted by a moderator is posted again at once and nobody is charged a timeout; a reset
token exits 2 with one line and no traceback. The chip books balance after each.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time

from tests.e2e.test_bot import bot_env, chips_total, open_table, table_history, table_message, to_act

QUIET = 2.5  # seconds a lost channel must stay quiet (longer than TURN_TIMEOUT: a live table would post)


def env(tmp_path, **extra):
    """The bot's settings here: short turns, so a table left playing would time out and post."""
    return bot_env(tmp_path, **{"TURN_TIMEOUT": "2", "LOG_LEVEL": "INFO", **extra})


def open_tables(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM tables WHERE status IN ('lobby','playing')").fetchone()[0]
    finally:
        con.close()


def timeouts_charged(db):
    """Every seat's missed turns in a row, over the open tables (from the saved state)."""
    import json

    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT state_json FROM tables WHERE status = 'playing'").fetchall()
    finally:
        con.close()
    return sum(seat.get("timeouts", 0) for (state,) in rows for seat in json.loads(state).get("seats", []))


def balanced(db):
    wallets, tables, grants = chips_total(db)
    return wallets + tables == grants


async def a_game_waiting_for_a_human(dh, tmp_path, **extra):
    """A bot with a tripoley game whose player must act; (process, database path)."""
    db = f"{tmp_path}/t.sqlite3"
    proc = await dh.spawn(env=env(tmp_path, **extra), cwd=tmp_path, commands=["tripoley"])
    if extra.get("THREADS") == "true":
        lobby = await (
            await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=2)
        ).message()
        await (await dh.click("bob", lobby, label="Join")).response()
        await (await dh.click("alice", lobby, label="Start")).response()
    else:
        await open_table(dh, "tripoley", 2)
    assert open_tables(db) == 1 and balanced(db)
    return proc, db


def calls_to(dh, channel_id, since):
    """REST requests to the channel (its messages, the channel itself) that arrived after ``since``."""
    return [c for c in dh.rest_calls(f"* /channels/{channel_id}*") if c.at > since]


async def ended_and_told(dh, db, host, words):
    """The table closed in the database, the books balanced, and the host's DM naming why."""
    await dh.wait_for(
        lambda: open_tables(db) == 0 and any(words in m.content for m in dh.dms(host)), 10, what="the table to end"
    )
    assert balanced(db), chips_total(db)
    wallets, tables, grants = chips_total(db)
    assert tables == 0 and wallets == grants


async def stays_quiet(dh, channel_id):
    """Nothing more is sent to the channel (a table left playing would time out and post there)."""
    since = time.perf_counter()
    await asyncio.sleep(QUIET)
    assert calls_to(dh, channel_id, since) == [], [c.route for c in calls_to(dh, channel_id, since)]


def no_traceback(proc):
    assert "Traceback" not in proc.output(), proc.output()[-3000:]


async def test_a_deleted_channel_ends_its_table_at_once(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path)
    channel = dh.channel("general")
    await dh.delete_channel(channel)
    await ended_and_told(dh, db, "alice", "its channel was deleted")
    await stays_quiet(dh, channel.id)
    no_traceback(proc)


async def test_a_thread_archived_and_locked_ends_its_table(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path, THREADS="true")
    thread = await dh.wait_for(lambda: dh.state.threads("general") and dh.state.threads("general")[0], 8)
    await dh.wait_for(lambda: table_message(dh, thread.id), 8, what="the mat in the thread")
    await dh.archive_thread(thread.id, locked=True)
    await ended_and_told(dh, db, "alice", "its thread was archived or locked")
    await stays_quiet(dh, thread.id)
    no_traceback(proc)


async def test_a_deleted_thread_ends_its_table(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path, THREADS="true")
    thread = await dh.wait_for(lambda: dh.state.threads("general") and dh.state.threads("general")[0], 8)
    await dh.wait_for(lambda: table_message(dh, thread.id), 8, what="the mat in the thread")
    await dh.delete_thread(thread.id)
    await ended_and_told(dh, db, "alice", "its thread was deleted")
    await stays_quiet(dh, thread.id)
    no_traceback(proc)


async def test_removed_from_the_server_every_table_ends(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path)
    channel = dh.channel("general")
    await dh.remove_bot_from_guild()
    await dh.wait_for(lambda: open_tables(db) == 0, 10, what="the table to end")
    assert balanced(db) and chips_total(db)[1] == 0
    await stays_quiet(dh, channel.id)
    no_traceback(proc)


async def test_a_server_outage_keeps_its_tables(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path)
    before = chips_total(db)
    await dh.guild_outage()
    await dh.wait_for(lambda: "is unavailable (a Discord outage)" in proc.output(), 5, what="the outage logged")
    await dh.guild_back()
    assert open_tables(db) == 1 and chips_total(db) == before
    tm = table_message(dh, "general")
    user = to_act(dh, tm)
    hand = await (await dh.click(user, tm, label="Show my hand")).message()
    assert "Your hand" in hand.content  # the table plays on
    assert not any("ended because" in m.content for m in dh.dms("alice"))
    no_traceback(proc)


async def test_lost_access_to_the_channel_ends_its_table(discord_harness, tmp_path):
    """No gateway event says so: the first request the channel refuses (403 / 50001) ends the table."""
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path)
    channel = dh.channel("general")
    dh.revoke_access(channel)  # the turn times out (TURN_TIMEOUT) and the table message is edited: refused
    await ended_and_told(dh, db, "alice", "the bot can no longer post in its channel")
    refused = [c for c in dh.rest_calls(f"* /channels/{channel.id}*") if c.status == 403]
    assert 1 <= len(refused) <= 3, [c.route for c in refused]  # the ones in flight, then nothing
    await stays_quiet(dh, channel.id)
    no_traceback(proc)


async def test_a_deleted_table_message_is_posted_again_at_once(discord_harness, tmp_path):
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path, TURN_TIMEOUT="30")
    tm = table_message(dh, "general")
    user = to_act(dh, tm)
    deleted_at = time.perf_counter()
    await dh.delete_message(tm)
    again = await dh.wait_for(
        lambda: (m := table_message(dh, "general")) and m.id != tm.id and m, 3, what="the table message again"
    )
    assert time.perf_counter() - deleted_at < 3
    assert to_act(dh, again) == user and timeouts_charged(db) == 0  # the same turn, nobody charged
    hand = await (await dh.click(user, again, label="Show my hand")).message()
    assert "**Your turn:**" in hand.content
    assert open_tables(db) == 1 and balanced(db)
    no_traceback(proc)


async def test_a_hung_member_look_up_holds_up_no_other_tables_timers(discord_harness, tmp_path):
    """Whether a timed-out player is still in the server is asked over REST: hung for 20 s, that
    look-up holds up neither its own table (a short limit, "still here") nor the other tables."""
    dh = discord_harness
    dh.state.add_channel(dh.guild, "second")
    proc = await dh.spawn(env=env(tmp_path, TURN_TIMEOUT="1"), cwd=tmp_path, commands=["tripoley"])
    db = f"{tmp_path}/t.sqlite3"
    await open_table(dh, "tripoley", 3)
    await open_table(dh, "tripoley", 3, channel="second")
    dh.faults.delay("GET /guilds/{guild_id}/members/{user_id}", 20)
    began = time.perf_counter()
    timed_out = {}  # channel → when its first "ran out of time" showed

    def both_timed_out():
        for channel in ("general", "second"):
            if channel not in timed_out and "(timed out)" in table_history(dh, channel):
                timed_out[channel] = time.perf_counter()
        return len(timed_out) == 2

    await dh.wait_for(both_timed_out, 10, what="a timeout at both tables")
    assert dh.rest_calls("GET /guilds/*/members/*"), "the look-up was asked"
    # A turn of 1 s, its look-up given up after 2 s: well before the 20 s hang ends.
    assert max(timed_out.values()) - began < 8, timed_out
    assert balanced(db)
    dh.faults.clear()
    no_traceback(proc)


async def test_a_reset_token_exits_2_with_one_line(discord_harness, tmp_path):
    """A running bot whose token is reset (the gateway closes with 4004), and a start with it (401):
    one clear line, exit status 2 (systemd does not restart: RestartPreventExitStatus=2), no traceback."""
    dh = discord_harness
    proc, db = await a_game_waiting_for_a_human(dh, tmp_path)
    before = chips_total(db)
    proc.stopping = True
    old_token = dh.state.token
    await dh.reset_token()
    assert await asyncio.wait_for(proc.proc.wait(), 15) == 2, proc.output()[-3000:]
    output = proc.output()
    assert output.count("Discord refused the token") == 1 and "4004" in output, output[-3000:]
    no_traceback(proc)
    assert chips_total(db) == before  # the tables are saved, to resume with the new token
    started = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=dh.bot_env(**env(tmp_path, DISCORD_TOKEN=old_token)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(started.communicate(), 30)
    text = out.decode()
    assert started.returncode == 2, text[-3000:]
    assert text.count("Discord refused the token (401 at log-in)") == 1 and "Traceback" not in text, text[-3000:]
