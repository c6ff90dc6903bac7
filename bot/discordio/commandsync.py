"""Syncing the slash commands to Discord: on demand (``python -m bot sync``), and at start only when
the command tree changed, from one process.

Discord rate-limits command syncs tightly and every sync replaces the whole list, so a bot that
synced at every start (or from every process of a cluster) would hit those limits for nothing. The
hash of the tree's JSON, as it is sent, is kept in the database per application and scope; at start,
only the process that runs shard 0 (or the only process) compares it and syncs when it differs."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.settings import Settings
from bot.storage.database import Database

log = logging.getLogger(__name__)


class SyncingBot(Protocol):
    """What a sync reads of the bot (bot.discordio.client.TripoleyBot is one)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def db(self) -> Database | None: ...

    @property
    def application_id(self) -> int | None: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...


def target(bot: SyncingBot) -> discord.Object | None:
    """Where the commands go: the dev server (DEV_GUILD_ID), or everywhere (None: global)."""
    guild_id = bot.settings.dev_guild_id
    return discord.Object(id=guild_id) if guild_id else None


def scope(bot: SyncingBot) -> str:
    guild = target(bot)
    return f"{bot.application_id}:" + (f"guild:{guild.id}" if guild else "global")


async def tree_hash(bot: SyncingBot) -> str:
    """The hash of the commands' JSON as a sync would send it to ``target(bot)`` (with its localisations:
    a changed translation is a changed tree)."""
    guild = target(bot)
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    commands = bot.tree.get_commands(guild=guild)
    translator = bot.tree.translator
    if translator is None:
        payload = [command.to_dict(bot.tree) for command in commands]
    else:
        payload = [await command.get_translated_payload(bot.tree, translator) for command in commands]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def syncs_at_start(bot: SyncingBot) -> bool:
    """One process of a cluster decides: the one running shard 0."""
    return bot.settings.runs_shard_zero()


async def stored_hash(bot: SyncingBot) -> str | None:
    assert bot.db is not None
    row = await bot.db.fetchone("SELECT tree_hash FROM command_sync WHERE scope = ?", (scope(bot),))
    return row["tree_hash"] if row else None


async def sync(bot: SyncingBot) -> int:
    """Sync now, whatever is stored; record the tree's hash. The number of commands synced."""
    assert bot.db is not None
    digest, guild = await tree_hash(bot), target(bot)
    synced = await bot.tree.sync(guild=guild)
    await bot.db.execute_alone(
        "INSERT INTO command_sync (scope, tree_hash, synced_at) VALUES (?, ?, ?)"
        " ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash, synced_at = excluded.synced_at",
        (scope(bot), digest, time.time()),
    )
    where = f"to the dev guild {guild.id}" if guild else "globally"
    log.info("synced %d command(s) %s", len(synced), where)
    return len(synced)


async def sync_if_changed(bot: SyncingBot) -> bool:
    """At start: sync when this process decides and the tree differs from the one last synced."""
    if not syncs_at_start(bot):
        log.info("commands: synced by the process running shard 0")
        return False
    if await stored_hash(bot) == await tree_hash(bot):
        log.info("commands unchanged since the last sync; not synced (python -m bot sync forces it)")
        return False
    await sync(bot)
    return True
