"""End to end through the local Discord: the bot's database goes away mid-game.

Read-only (the real bot in process, its database reopened read-only as after a filesystem remounted
so): the player's click is answered privately "try again in a moment", the table message never shows
the move, the player's time running out meanwhile charges no timeout, ``/healthz`` says 503; once it
answers again the player has their time back and their move goes through; the books balance.

Locked by another program (``python -m bot``, stopped with SIGTERM meanwhile): a stop with table
states it could not save says so on one line and exits 1; with everything saved, 0.
"""

from __future__ import annotations

import asyncio
import sqlite3

import aiohttp
import aiosqlite

from bot.discordio.client import TripoleyBot
from bot.settings import Settings
from bot.storage.dialect import SqliteConnection
from tests.e2e.test_bot import (
    bot_env,
    chips_total,
    live_pings,
    move,
    open_table,
    saved_table_message,
    table_message,
    to_act,
)

BUSY = "The game's database is busy — try again in a moment."


def read_only(db) -> None:
    """Every connection the bot opens from now is read-only, the current one reopened so."""
    real = type(db)._open

    async def reopen(db=db):
        conn = await real(db)
        await conn.raw.close()
        ro = await aiosqlite.connect(f"file:{db.path}?mode=ro", uri=True, isolation_level=None)
        ro.row_factory = aiosqlite.Row
        return SqliteConnection(ro)

    db._open = reopen
    db._lost = True


def writable(db) -> None:
    del db._open
    db._lost = True


async def health(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as r:
        return r.status, await r.json()


async def test_a_read_only_database_refuses_the_move_holds_the_turn_and_then_plays_on(discord_harness, tmp_path):
    dh = discord_harness
    path = tmp_path / "t.sqlite3"
    settings = Settings(
        _env_file=None,
        discord_token=None,
        database_url=f"sqlite:///{path}",
        discord_api_base=dh.api_base,
        health_address="127.0.0.1:0",
        turn_timeout=4,  # runs out while the database is away
        ai_pause=0,
        round_pause=0,
        ping_delay=0,
    )
    bot = TripoleyBot(settings, guild_ready_timeout=0.01)
    run = await dh.connect(bot)
    try:
        await open_table(dh, "tripoley", 1)
        await dh.wait_for(lambda: (tm := table_message(dh, "general")) and to_act(dh, tm), 8, what="a human to act")
        await bot.publisher.flush()
        tm = table_message(dh, "general")
        user = to_act(dh, tm)
        table = bot.manager.registry.by_channel[dh.channel("general").id]
        game, left = table.game.to_json(), table.deadline - bot.manager.clock.now()
        before = chips_total(str(path))
        port = bot.health_server.port
        assert (await health(port))[0] == 200

        bot.db.retry_for = 0.5  # how long the first click waits before the refusal (10 s in the bot)
        read_only(bot.db)
        h = await move(dh, "general", user, tm)
        refusal = await h.followup(1, timeout=10)
        assert refusal.ephemeral and refusal.content == BUSY, refusal.content
        await bot.publisher.flush()
        # Nothing of the move: not in the game, not on the table message.
        assert table.game.to_json() == game and bot.db.away
        assert table_message(dh, "general").content == tm.content
        status, report = await health(port)
        assert status == 503 and report["checks"]["database"].startswith("away"), report
        # The player's time runs out meanwhile: no timeout is charged, nothing moves.
        await asyncio.sleep(left + 1.5)  # (the timer loop looks at least every second)
        assert table.game.to_json() == game and all(s.timeouts == 0 for s in table.seats)
        assert table_message(dh, "general").content == tm.content

        writable(bot.db)
        await dh.wait_for(lambda: not bot.db.away, 10, what="the database to answer again")
        await dh.wait_for(lambda: bot.manager.timers.held_since is None, 5, what="the deadlines released")
        assert (await health(port))[0] == 200
        # The time it was away given back (at least 15 s), no timeout charged; the move goes through.
        assert table.deadline - bot.manager.clock.now() >= 10 and all(s.timeouts == 0 for s in table.seats)
        tm = table_message(dh, "general")
        await (await move(dh, "general", to_act(dh, tm), tm)).response()
        await dh.wait_for(lambda: table.game.to_json() != game, 8, what="the move applied")
        await bot.publisher.flush()
        assert chips_total(str(path)) == before  # the books balance: nothing created or lost
    finally:
        await run.stop()


async def test_sigterm_with_table_states_unsaved_exits_1_and_says_so(discord_harness, tmp_path):
    dh = discord_harness
    db = f"{tmp_path}/t.sqlite3"
    proc = await dh.spawn(env=bot_env(tmp_path, PING_DELAY="6"), cwd=tmp_path, commands=["tripoley"])
    await open_table(dh, "tripoley", 1)
    await dh.wait_for(lambda: (tm := table_message(dh, "general")) and to_act(dh, tm), 8, what="a human to act")
    await dh.wait_for(lambda: saved_table_message(db) == table_message(dh, "general").id, 8, what="the table saved")
    before = chips_total(db)
    # Another program holds the database's write lock. The turn's ping comes after it took it: its
    # message id waits in the coalesced saves, which can't write.
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        await dh.wait_for(lambda: live_pings(dh, "general"), 10, what="the turn's ping")
        proc.stopping = True
        proc.proc.terminate()
        status = await asyncio.wait_for(proc.proc.wait(), 60)
    finally:
        holder.execute("COMMIT")
        holder.close()
    lines = [line for line in proc.output().splitlines() if "unsaved" in line]
    assert status == 1 and len(lines) == 1 and "exit status 1" in lines[0], proc.output()[-3000:]
    assert chips_total(db) == before
    # Started again, with everything saved SIGTERM exits 0; the game is still there.
    again = await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    await dh.wait_for(lambda: to_act(dh, table_message(dh, "general")), 8, what="the resumed turn")
    again.stopping = True
    again.proc.terminate()
    assert await asyncio.wait_for(again.proc.wait(), 30) == 0, again.output()[-2000:]
    assert chips_total(db) == before
