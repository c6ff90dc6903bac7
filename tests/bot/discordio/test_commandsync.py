"""Slash commands: ``python -m bot sync`` syncs them; at start the bot syncs only when its command
tree changed since the last sync, and in a cluster only the process running shard 0 does.
``/tripoley-admin`` is a top-level group with Manage Server as its default member permission."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from types import SimpleNamespace

import discord

from bot.discordio.commandsync import syncs_at_start
from bot.settings import Settings

ADMIN_TOOLS = {"grant", "house", "audit", "kick", "reset", "settings", "season"}


async def bot_command(args: list[str], cwd, env) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode(), err.decode()


def global_syncs(dh) -> int:
    return sum(
        1 for c in dh.state.rest_log if c.method == "PUT" and c.path.endswith("/commands") and "/guilds/" not in c.path
    )


async def test_sync_command_then_a_start_syncs_only_a_changed_tree(discord_harness, tmp_path):
    dh = discord_harness
    database = tmp_path / "t.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{database}"}
    rc, out, err = await bot_command(["sync"], tmp_path, dh.bot_env(**env))
    assert rc == 0, err
    assert out.startswith("synced 2 command(s) globally") and global_syncs(dh) == 1

    commands = {c["name"]: c for c in dh.state.global_commands}
    assert set(commands) == {"tripoley", "tripoley-admin"}
    admin = commands["tripoley-admin"]
    assert int(admin["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    assert {o["name"] for o in admin["options"]} == ADMIN_TOOLS
    tripoley = commands["tripoley"]
    assert tripoley["default_member_permissions"] is None and "admin" not in {o["name"] for o in tripoley["options"]}
    shown = next(o for o in tripoley["options"] if o["name"] == "settings")
    assert not shown.get("options"), "/tripoley settings only shows them"

    bot = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley", "tripoley-admin"])
    await bot.stop()
    assert global_syncs(dh) == 1, "an unchanged tree is not synced again at start"

    with sqlite3.connect(database) as db:  # as if the last sync had sent another tree
        db.execute("UPDATE command_sync SET tree_hash = 'an older tree'")
    bot = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley"])
    await bot.stop()
    assert global_syncs(dh) == 2
    bot = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley"])
    await bot.stop()
    assert global_syncs(dh) == 2


def test_in_a_cluster_only_shard_zero_syncs_at_start():
    def deciding(**shards) -> bool:
        return syncs_at_start(SimpleNamespace(settings=Settings(_env_file=None, **shards)))  # type: ignore[arg-type]

    assert deciding()  # one process
    assert deciding(shard_count=4)  # every shard in this process
    assert deciding(shard_count=4, shard_ids="0,1")
    assert not deciding(shard_count=4, shard_ids="2,3")
