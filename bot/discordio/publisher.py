"""Coalesced table messages.

The table manager only calls the synchronous :meth:`Publisher.on_update`, which
marks the channel as having a newer state to show: nothing is built or drawn per
action. One worker per channel sends what is due, building the message (text,
buttons) and rendering its image from the table's state *at send time* (so a
burst of AI moves costs one message, showing the newest state; images come from
:class:`~bot.discordio.render.ImageService`: a render process and a cache by view content).

Edits are paced per channel, not per message (Discord limits edits by channel):
at most one edit of any of the channel's messages (the lobby, the mat, the old
mat losing its buttons) per ``min_interval`` (1 s). A new round gets a fresh mat
message (a post, sent at once); the previous one loses its buttons and the lobby
message is closed in paced edits after it. A pending state that has to wait is
replaced by any newer one meanwhile (newest wins).

A message a player clicked recently is edited through that click instead
(:mod:`bot.discordio.carriers`: the interaction's ``@original``, not counted
against Discord's global limit, and in a bucket of its own, so at most one
such edit per ``carry_interval``). Whichever way it goes, an edit shows the
newest state, so a click's consequence and the AI moves after it never cost a
carried edit and a channel edit for the same state. Round results are posted
as follow-ups of the table's freshest click when there is one.

Publishing is fire-and-forget and nothing in the game ever waits on Discord.
A table with threads on plays in a thread started from its lobby message when
the game starts (if the thread can't be started, in the channel); the thread is
archived once the results are posted there.

A send that fails is logged and tried again or given up as one retry policy says
(:mod:`bot.discordio.retry`): the table's state until it goes through or a newer state
replaces it, so the channel always ends up showing the latest state.

The parts: this module's :class:`Publisher` takes the updates and keeps the channels' jobs
(:mod:`bot.discordio.channeljobs`); the per-channel queue (:mod:`bot.discordio.jobqueue`) runs
them in order, paced; the sending (:mod:`bot.discordio.sending`) builds and sends each.

A table whose place on Discord is gone (:meth:`Publisher.drop`: its channel or thread deleted,
the bot removed or refused there; bot.discordio.places) has nothing more sent for it. A table
message deleted by someone else (:meth:`Publisher.message_deleted`) is posted again at once.

The actual sending goes through a :class:`~bot.messages.outgoing.Sink` (Discord in production, a
recorder in tests); the messages are built by :mod:`bot.messages.outgoing`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from bot.discordio.carriers import Carriers
from bot.discordio.channeljobs import Picture, Strip
from bot.discordio.handdms import HandDMs
from bot.discordio.jobqueue import FORGOTTEN_AFTER, JobQueue
from bot.discordio.render import ImageService, Renderer
from bot.discordio.retry import RetryPolicy
from bot.discordio.sending import LOBBY_SHOWN, Sender, shown_in
from bot.messages import story, text
from bot.messages.buttonids import PREFIX, table_prefix
from bot.messages.outgoing import Sink, describe_error, settle, table_message
from bot.tables.manager import TableManager
from bot.tables.model import Table, TableStatus, TableUpdate, UpdateKind

log = logging.getLogger(__name__)
ENDED = (TableStatus.FINISHED, TableStatus.CANCELLED)


class Publisher:
    def __init__(
        self,
        manager: TableManager,
        sink: Sink,
        renderer: Renderer | ImageService | None = None,
        *,
        retry_base: float = 0.5,
        retry_max: float = 15.0,
        min_interval: float = 1.0,
        carry_interval: float = 0.5,
        picture_wait: float = 0.3,
        monotonic: Callable[[], float] = time.monotonic,
        carriers: Carriers | None = None,
    ) -> None:
        self.manager = manager
        self.sink = sink
        self.images = renderer if isinstance(renderer, ImageService) else ImageService(renderer)
        self.carriers = carriers if carriers is not None else Carriers(monotonic)
        self.sender = Sender(
            manager,
            sink,
            self.images,
            self.carriers,
            min_interval=min_interval,
            carry_interval=carry_interval,
            picture_wait=picture_wait,
            monotonic=monotonic,
            republish=self.publish,
        )
        self.queue = JobQueue(self.sender, RetryPolicy(retry_base, retry_max))
        self.hand_dms = HandDMs(manager.prefs, sink, self.images)
        self._tasks: set[asyncio.Task[None]] = set()
        manager.registry.add_listener(self.on_update)

    @property
    def renderer(self) -> ImageService | None:
        """The image service (None when no renderer is configured)."""
        return self.images if self.images.enabled else None

    async def image(self, kind: str | None, view: Mapping[str, Any] | None) -> Picture:
        """The picture of ``view`` (a game's view, typed, or a picture's dict)."""
        return await self.images.render(kind, dict(view) if view is not None else None)

    @property
    def carried(self) -> int:
        """Requests sent through interactions (not counted by Discord), for the benchmarks."""
        return self.sender.carried

    @property
    def uploads(self) -> int:
        """Pictures uploaded (posts and edits), for the benchmarks."""
        return self.sender.uploads

    @property
    def uploaded_bytes(self) -> int:
        return self.sender.uploaded_bytes

    # -- entry point (synchronous, cheap) ---------------------------------------

    def on_update(self, update: TableUpdate) -> None:
        table = update.table
        if table.id in self.queue.dropped:
            return
        embeds = story.stories(table, update.events, finished=update.kind == UpdateKind.FINISHED)
        if embeds:  # told on the round's own message as it closes (one showdown per round)
            self.queue.channel(table.channel_id).told.setdefault(table.id, []).extend(embeds)
        self.publish(table)
        if update.dealt and table.game is not None:
            views = {
                i: table.game.view(i)
                for i, seat in enumerate(table.seats)
                if seat.user_id is not None and not seat.left
            }
            views = {i: view for i, view in views.items() if view.get("hand")}  # sitting out: nothing to show
            self._spawn(self.hand_dms.send(table, views))

    def resume(self, table: Table) -> None:
        """Show a table loaded after a restart. A round message posted just before the restart (its
        id not saved yet) is found and reused rather than posted twice with live buttons, and the
        messages of its other rounds still showing buttons (their closing was lost) are closed."""
        self.sender.resumed.add(table.id)
        self.queue.stale.add(table.id)
        self.publish(table)
        if table.status == TableStatus.PLAYING:
            self._spawn(self._close_other_rounds(table))

    async def _close_other_rounds(self, table: Table) -> None:
        """Queue the closing of this table's round messages but the current round's (and the lobby's,
        closed by its own job), found among the channel's recent messages."""
        since = table.lobby_message_id if table.mat_channel == table.channel_id else None
        try:
            shown = await self.sink.recent_messages(table.mat_channel, since)
        except Exception as exc:
            log.warning("could not look for the old round messages of table %s (%s)", table.id, describe_error(exc))
            return
        mine, keep = f"{PREFIX}:{table.id}:", (table_prefix(table.id, 0), table_prefix(table.id, table.round))
        channel = self.queue.channel(table.channel_id)
        queued = {strip.message_id for strip in channel.strips}
        for message in shown:
            ids = [cid for cid in message.custom_ids if cid.startswith(mine)]
            if ids and not any(cid.startswith(keep) for cid in ids) and message.id not in queued:
                channel.strips.append(
                    Strip(message.id, table.mat_channel, text.closed_round_text(message.content), table.id)
                )
        self.queue.wake(table.channel_id)

    def publish(self, table: Table) -> None:
        """Show the table's newest state in its channel (soon; built when it is sent)."""
        if table.id in self.queue.dropped:
            return
        channel = self.queue.channel(table.channel_id)
        old = channel.table
        if old is not None and old is not table and old.status in ENDED:
            channel.final = old  # a new table in the channel: the old one's end is still shown
        if table.status in LOBBY_SHOWN and not table.lobby_message_id and channel.lobby_post is None:
            # The lobby message is posted (not edited) once; built now (cheap: no image), so it
            # shows the lobby even if the game starts before it goes out.
            channel.lobby_post = (table, table_message(table))
        channel.table = table
        self.queue.wake(table.channel_id)

    def drop(self, table: Table) -> None:
        """The table's place on Discord is gone: its pending messages are dropped and nothing more
        is sent for it (a request already on its way is the last)."""
        self.queue.drop(table)

    def message_deleted(self, channel_id: int, message_id: int) -> bool:
        """Someone deleted a message in the channel: if it was an open table's message (its lobby, or
        its round's), it is posted again at once. Whether it was."""
        registry = self.manager.registry
        table = registry.by_channel.get(channel_id) or registry.by_thread.get(channel_id)
        if table is None or message_id != shown_in(table) or table.id in self.queue.dropped:
            return False
        deleted = self.sender.deleted
        deleted.add(message_id)
        if len(deleted) > FORGOTTEN_AFTER:
            self.sender.deleted = {message_id}
        log.info("the message of table %s was deleted in channel %s; posting it again", table.id, channel_id)
        self.publish(table)
        return True

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait until every pending message is sent (tests, shutdown)."""
        await settle(lambda: [*self.queue.workers.values(), *self._tasks])
