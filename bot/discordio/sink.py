"""The publisher's and the notifiers' way to Discord (a :class:`~bot.messages.outgoing.Sink`):
discord.py's requests, paced under the global limit, with Discord's answers told in the outgoing
module's terms (a message gone, a channel lost, a DM refused)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import discord

from bot.discordio.pacing import Pacer
from bot.discordio.ui import message_kwargs, pings_only
from bot.messages.outgoing import LOST_CHANNEL_CODES, ChannelLost, DMForbidden, MessageGone, Outgoing, SentMessage

# The channels a table's messages go to (posted, edited, read back).
TableChannel = (
    discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel | discord.PartialMessageable
)
TABLE_CHANNELS = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.StageChannel)


class DiscordSink:
    """Sends the publisher's messages through discord.py, paced under Discord's global limit
    (bot.discordio.pacing: interaction answers go around it). A channel that answers as lost
    (:data:`~bot.messages.outgoing.LOST_CHANNEL_CODES`) raises :class:`ChannelLost` and is
    reported to ``on_lost`` (its tables end: bot.discordio.places)."""

    def __init__(self, bot: discord.Client, pace: Pacer | None = None) -> None:
        self.bot = bot
        self.pace = pace or Pacer(0)
        self.on_lost: Callable[[int, int], None] | None = None  # (channel id, Discord's error code)

    def channel(self, channel_id: int) -> TableChannel:
        """The channel as cached (a partial one, by its id alone, when it is not)."""
        found = self.bot.get_channel(channel_id)
        if isinstance(found, TABLE_CHANNELS):
            return found
        return self.bot.get_partial_messageable(channel_id)

    @contextlib.contextmanager
    def _in(self, channel_id: int) -> Iterator[None]:
        """Around a request to a channel: Discord's answer that the channel is lost becomes
        :class:`ChannelLost`, told to ``on_lost``."""
        try:
            yield
        except discord.HTTPException as exc:
            if exc.code not in LOST_CHANNEL_CODES:
                raise
            if self.on_lost is not None:
                self.on_lost(channel_id, exc.code)
            raise ChannelLost(channel_id, exc.code) from None

    async def post(self, channel_id: int, out: Outgoing) -> int:
        await self.pace()
        with self._in(channel_id):
            message = await self.channel(channel_id).send(**message_kwargs(out))
        return message.id

    async def edit(self, channel_id: int, message_id: int, out: Outgoing) -> None:
        await self.pace()
        with self._in(channel_id):
            try:
                await self.channel(channel_id).get_partial_message(message_id).edit(**message_kwargs(out, edit=True))
            except discord.NotFound as exc:
                if exc.code in LOST_CHANNEL_CODES:
                    raise
                raise MessageGone(message_id) from None

    async def dm(self, user_id: int, out: Outgoing) -> None:
        await self.pace()
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**message_kwargs(out))
        except discord.Forbidden:
            raise DMForbidden(user_id) from None

    async def strip(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        await self.pace()
        changes: dict[str, Any] = {"view": None} if content is None else {"view": None, "content": content}
        with self._in(channel_id):
            try:
                await self.channel(channel_id).get_partial_message(message_id).edit(**changes)
            except discord.NotFound as exc:
                if exc.code in LOST_CHANNEL_CODES:
                    raise

    async def recent_messages(self, channel_id: int, since_id: int | None) -> list[SentMessage]:
        await self.pace()
        found = []
        with self._in(channel_id):
            async for message in self.channel(channel_id).history(limit=100):  # newest first
                if since_id is not None and message.id <= since_id:
                    break
                if self.bot.user is not None and message.author.id == self.bot.user.id:
                    ids = tuple(
                        getattr(c, "custom_id", None) or ""
                        for row in message.components
                        for c in getattr(row, "children", [])
                    )
                    found.append(SentMessage(message.id, message.content, ids))
        return found[::-1]

    async def delete(self, channel_id: int, message_id: int) -> None:
        await self.pace()
        with self._in(channel_id):
            try:
                await self.channel(channel_id).get_partial_message(message_id).delete()
            except discord.NotFound as exc:
                if exc.code in LOST_CHANNEL_CODES:
                    raise

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        await self.pace()
        data = await self.bot.http.start_thread_with_message(
            channel_id, message_id, name=name[:100], auto_archive_duration=1440
        )
        return int(data["id"])

    async def archive(self, thread_id: int) -> None:
        await self.pace()
        await self.bot.http.edit_channel(thread_id, archived=True)

    async def find_message(self, channel_id: int, after_id: int | None, prefix: str) -> int | None:
        await self.pace()
        found = None
        after = discord.Object(id=after_id) if after_id else None
        with self._in(channel_id):
            async for message in self.channel(channel_id).history(limit=50, after=after):
                mine = self.bot.user is not None and message.author.id == self.bot.user.id
                ids = [
                    getattr(c, "custom_id", None) or ""
                    for row in message.components
                    for c in getattr(row, "children", [])
                ]
                if mine and any(cid.startswith(prefix) for cid in ids):
                    found = message.id  # oldest first: the newest match wins
        return found

    async def notice(self, channel_id: int, content: str, ping: int) -> None:
        await self.pace()
        with self._in(channel_id):
            await self.channel(channel_id).send(content, allowed_mentions=pings_only([ping]))
