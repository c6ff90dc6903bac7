"""A table's place on Discord taken away ends the table at once.

The gateway says so (its channel deleted: CHANNEL_DELETE; its thread deleted, archived or locked:
THREAD_DELETE, THREAD_UPDATE; the bot removed from the server: GUILD_DELETE without
``unavailable``), or Discord answers a request to the table's channel as lost
(:class:`~bot.messages.outgoing.ChannelLost`: deleted, access or a permission lost, a locked
thread). Played on unseen, the game would only time its players out and send failing requests
(403s and 404s count as invalid requests, which Discord limits per IP). So the table ends as if
stopped, through the ledger (:meth:`bot.tables.play.Play.end_lost`: a lobby's buy-ins refunded,
a game's players cashed out), nothing more is sent to its channel (:meth:`Publisher.drop`,
:meth:`TurnNotifier.drop`), and its host is told by DM (one that fails is only logged: the bot
may share no server with them any more).

A server that is unavailable (GUILD_DELETE with ``unavailable: true``) is a Discord outage, not a
removal: its tables are kept.
"""

from __future__ import annotations

import asyncio
import logging

from bot.discordio.publisher import Publisher
from bot.discordio.turns import TurnNotifier
from bot.messages.notices import PLACE_LOST, place_lost_notice
from bot.messages.outgoing import Outgoing, Sink, describe_error, settle
from bot.tables.manager import TableManager
from bot.tables.model import Table, TableStatus

log = logging.getLogger(__name__)

# Why a channel answered as lost, by Discord's error code (bot.messages.outgoing.LOST_CHANNEL_CODES).
LOST_BY_CODE = {10003: "channel-deleted", 50083: "thread-closed"}  # else (50001, 50013): "no-access"


class Places:
    def __init__(self, manager: TableManager, publisher: Publisher, turns: TurnNotifier, sink: Sink) -> None:
        self.manager = manager
        self.publisher = publisher
        self.turns = turns
        self.sink = sink
        self._ending: set[int] = set()  # tables being ended now (an event and a refused request may both say so)
        self._tasks: set[asyncio.Task[None]] = set()

    def channel_gone(self, channel_id: int, why: str) -> int:
        """The channel (or thread) is gone for the bot (``why``: a key of
        :data:`~bot.messages.notices.PLACE_LOST`): every open table there ends. How many."""
        tables = [t for t in self.manager.registry.by_id.values() if channel_id in (t.channel_id, t.thread_id)]
        return sum(self._end(table, why) for table in tables)

    def guild_gone(self, guild_id: int) -> int:
        """The bot was removed from the server: every open table of it ends. How many."""
        tables = [t for t in self.manager.registry.by_id.values() if t.guild_id == guild_id]
        return sum(self._end(table, "removed") for table in tables)

    def refused(self, channel_id: int, code: int) -> None:
        """Discord answered a request to the channel as lost (``code``): its tables end."""
        self.channel_gone(channel_id, LOST_BY_CODE.get(code, "no-access"))

    def _end(self, table: Table, why: str) -> bool:
        if table.id in self._ending or table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            return False
        self._ending.add(table.id)
        self.publisher.drop(table)  # first: the table's last update must not be sent there
        self.turns.drop(table)
        task = asyncio.get_running_loop().create_task(self._finish(table, why), name=f"tripoley-place-lost-{table.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def _finish(self, table: Table, why: str) -> None:
        lobby = table.status == TableStatus.LOBBY
        try:
            update = await self.manager.play.end_lost(table, why)
        except Exception:
            # The database away: a game's end is retried by its timer (DeadlineKind.FINISH), a lobby
            # is closed by its own; nothing is sent there meanwhile.
            log.exception("table %s could not be ended (%s); its timer tries again", table.id, PLACE_LOST[why])
            return
        finally:
            self._ending.discard(table.id)  # closed now (or its timer ends it): the status tells
        if update is None:
            return  # it closed meanwhile (its game's end, a stop)
        log.warning("table %s in channel %s ended: %s", table.id, table.channel_id, PLACE_LOST[why])
        notice = place_lost_notice(table.preset_info.name, table.channel_id, why, lobby, table.locale)
        try:
            await self.sink.dm(table.host_id, Outgoing(notice))
        except Exception as exc:
            log.info("could not tell the host of table %s that it ended (%s)", table.id, describe_error(exc))

    async def flush(self) -> None:
        """Wait until every table being ended is ended and its host told (tests, shutdown)."""
        await settle(lambda: list(self._tasks))
