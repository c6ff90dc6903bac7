"""What the bot needs where a table plays: the permissions checked before a table is opened there,
so that a missing one is named at once instead of failing half-way through a game."""

from __future__ import annotations

import discord

from bot import errors
from bot.discordio.answering import guild_of
from bot.economy.prefs import Prefs

# Every permission the bot uses where a table plays: read the channel (and its history: a restart
# finds its messages again), post its messages with their embeds and pictures.
TABLE_PERMISSIONS = ("view_channel", "embed_links", "attach_files", "read_message_history")
# A table in a thread of its own: start the thread, post in it, archive it when the game ends.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads", "manage_threads")


async def wants_thread(interaction: discord.Interaction, prefs: Prefs) -> bool:
    """Whether a table opened by this interaction runs in its own thread: the server's setting
    (:func:`check_bot_permissions` then asks for the thread's permissions too)."""
    return bool((await prefs.guild(guild_of(interaction))).threads)


def required_permissions(interaction: discord.Interaction, new_thread: bool) -> tuple[str, ...]:
    """What the bot needs here: posting in a thread is its own permission, and so are the thread's."""
    in_thread = isinstance(interaction.channel, discord.Thread)
    posting = "send_messages_in_threads" if in_thread else "send_messages"
    needed = (*TABLE_PERMISSIONS, posting, *(THREAD_PERMISSIONS if new_thread else ()))
    return tuple(dict.fromkeys(needed))


def check_bot_permissions(interaction: discord.Interaction, new_thread: bool = False) -> None:
    """Refuse, naming every missing permission, before a table is opened where the bot could not run it
    (a missing one would otherwise fail later, half-way, without a word to the host)."""
    perms = interaction.app_permissions
    if perms.value == 0:  # not reported (e.g. a test server): rely on Forbidden at send time
        return
    missing = [p for p in required_permissions(interaction, new_thread) if not getattr(perms, p)]
    if missing:
        raise errors.MissingBotPermissions([errors.permission_label(p) for p in missing], new_thread)
