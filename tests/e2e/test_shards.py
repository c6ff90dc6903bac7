"""End to end: a cluster of two `python -m bot` processes (SHARD_COUNT=2, one shard each) over one
PostgreSQL database. The local Discord routes each server to its shard; games run in servers of
both shards; one process is SIGKILLed mid-game and restarted: it resumes its own table only, the
other process's game goes on untouched, and every chip in the database is accounted for."""

from __future__ import annotations

import asyncio
import re

from bot.storage.copydb import audits
from bot.storage.database import Database
from tests.e2e.test_bot import bot_env, finished, open_table, play

SHARDS = 2


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


async def all_audits(url: str) -> dict:
    db = await Database(url).connect()
    try:
        return await audits(db)
    finally:
        await db.close()


def resumed(proc) -> list[int]:
    return [int(n) for n in re.findall(r"resumed (\d+) table", proc.output())]


async def test_two_processes_share_the_servers_and_one_restarts_alone(discord_harness, tmp_path, postgres_server):
    dh = discord_harness
    here = dh.guild
    members = tuple(u.user for u in dh.users.values())
    other = here
    while shard_of(other.id) == shard_of(here.id):  # ids are timestamps: the next millisecond's
        await asyncio.sleep(0.002)
        other = dh.state.add_guild(f"Shard guild {other.id}", channels=(f"cards{other.id}",), members=members)
    there = next(c for c in dh.state.channels.values() if c.guild_id == other.id and c.name.startswith("cards"))
    url = postgres_server.new_database(migrated=False)  # the two processes migrate it together

    def start(shard: int):
        folder = tmp_path / f"shard{shard}"
        folder.mkdir(exist_ok=True)
        env = bot_env(tmp_path, DATABASE_URL=url, SHARD_COUNT=str(SHARDS), SHARD_IDS=str(shard), LOG_LEVEL="INFO")
        return dh.spawn(env=env, cwd=folder, wait_ready=False)

    procs = dict(enumerate(await asyncio.gather(start(0), start(1))))
    for guild in (here, other):
        await dh.wait_for(lambda g=guild: dh.server.session_for(g.id), 30, what=f"the shard of {guild.name}")
    await dh.wait_for(lambda: all(resumed(p) == [0] for p in procs.values()), 20, what="both processes to start")

    await open_table(dh, "tripoley", 1, channel="general")
    await open_table(dh, "tripoley", 1, channel=there)
    before = await all_audits(url)
    assert set(before) == {here.id, other.id} and all(a.ok and a.tables > 0 for a in before.values())

    killed = procs[shard_of(other.id)]
    killed.stopping = True  # a death the test asked for
    killed.proc.kill()  # SIGKILL mid-game
    await killed.proc.wait()
    assert await all_audits(url) == before, "nothing moved while the process was down"
    # The other process carries on alone: its game ends, the killed one's table is not touched.
    await play(dh, "general", extra_checks=False)
    await dh.wait_for(lambda: finished(dh, "general"), 8, what="the game-over message")
    assert not finished(dh, there)

    restarted = await start(shard_of(other.id))
    await dh.wait_for(lambda: resumed(restarted), 30, what="the restarted process to resume")
    await dh.wait_for(
        lambda: (s := dh.server.session_for(other.id)) and s.identified_at > restarted.started_at,
        30,
        what="the restarted process to connect its shard",
    )
    assert resumed(restarted) == [1], "it resumes its own table, not the finished one of the other shard"
    assert resumed(procs[shard_of(here.id)]) == [0]
    await play(dh, there, extra_checks=False)
    await dh.wait_for(lambda: finished(dh, there), 8, what="the game-over message")

    after = await all_audits(url)
    assert set(after) == {here.id, other.id}
    for guild_id, audit in after.items():
        assert audit.ok and audit.tables == 0, (guild_id, audit)
        assert (audit.granted, audit.removed) == (before[guild_id].granted, before[guild_id].removed)
