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

A send that fails (discord.py gives up after five 429s in a row, a 5xx, a
network error) is logged and retried with a backoff until it goes through or
a newer state replaces it, so the channel always ends up showing the latest
state.

A table whose place on Discord is gone (:meth:`Publisher.drop`: its channel or thread deleted,
the bot removed or refused there; bot.discordio.places) has nothing more sent for it. A table
message deleted by someone else (:meth:`Publisher.message_deleted`) is posted again at once.

The actual sending goes through a :class:`~bot.messages.outgoing.Sink` (Discord in production, a
recorder in tests); the messages are built by :mod:`bot.messages.outgoing`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.discordio.carriers import Carriers, Fresh
from bot.discordio.handdms import HandDMs
from bot.discordio.render import ImageService, Renderer, view_key
from bot.messages import story, text
from bot.messages.buttonids import PREFIX, table_prefix
from bot.messages.outgoing import (
    MessageGone,
    Outgoing,
    Sink,
    closed_round_message,
    describe_error,
    image_digest,
    log_failure,
    retryable,
    settle,
    table_message,
)
from bot.tables.manager import TableManager
from bot.tables.messageids import remember_message, remember_thread
from bot.tables.model import Table, TableUpdate

log = logging.getLogger(__name__)
FINAL_MESSAGE = 0  # the mat_round of a finished game's own message (rounds count from 1)


class Job(enum.Enum):
    """What a channel's worker does next (:meth:`Publisher._next_job`)."""

    LOBBY_POST = enum.auto()  # post a lobby's first message
    STORY = enum.auto()  # post a round's results
    FINAL = enum.auto()  # show a finished game's last state (a new table came meanwhile)
    CLOSE = enum.auto()  # close the lobby message of a game that started
    STRIP = enum.auto()  # take the buttons off an earlier round's message
    STATE = enum.auto()  # show the table's newest state


@dataclass
class _Story:
    """A round's results to post, and the tries so far."""

    out: Outgoing
    channel_id: int
    table_id: int  # its follow-up goes through a fresh click on this table, when there is one
    attempts: int = 0


@dataclass
class _Strip:
    """An earlier round's message to close (its buttons and whose turn it was go), and the tries so far."""

    message_id: int
    channel_id: int
    closed: str | None  # its text once closed (None: the text it shows is not known)
    table_id: int | None = None  # the table it is a round of
    attempts: int = 0
    out: Outgoing | None = None  # the last round's message at the game's end: its whole closed state
    archive: Table | None = None  # the game whose thread is archived once this message is closed
    embeds: list[dict] = field(default_factory=list)  # the round's results, told on its own message


@dataclass
class _LobbyClose:
    """The lobby message of a started game to close, and the tries so far."""

    table: Table
    attempts: int = 0


@dataclass
class _Channel:
    """What a channel still has to show, and when it was last edited."""

    table: Table | None = None  # a newer state to show (built at send time)
    final: Table | None = None  # a finished game's last state, still to show when a new table came
    lobby_post: tuple[Table, Outgoing] | None = None  # a lobby with no message yet: posted as it was
    strips: list[_Strip] = field(default_factory=list)  # old mats to strip
    stories: list[_Story] = field(default_factory=list)  # round results to post, in order
    # Per table, the results of rounds that ended, for the round's own message when it closes.
    told: dict[int, list[dict]] = field(default_factory=dict)
    close_lobby: _LobbyClose | None = None  # the lobby message to close
    last_edit: float = float("-inf")
    last_carried: float = float("-inf")  # the last edit through a click (carriers)
    failures: int = 0
    drawing: asyncio.Future | None = None  # the round message's newest picture being drawn (or drawn)
    drawing_key: bytes | None = None  # the view it is drawn from


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
        self.retry_base = retry_base  # first retry delay after a failed send (doubles up to retry_max)
        self.retry_max = retry_max
        self.min_interval = min_interval  # at most one edit per channel per this many seconds
        self.carry_interval = carry_interval  # at most one edit through clicks per channel per this many seconds
        self.carriers = carriers if carriers is not None else Carriers(monotonic)
        # The jobs that are not the table's state, each a message of its own (see _drain).
        self._side_jobs: dict[Job, Callable[[int, _Channel], Awaitable[None]]] = {
            Job.CLOSE: self._close_lobby,
            Job.STRIP: self._strip,
            Job.LOBBY_POST: self._post_lobby,
            Job.STORY: self._post_story,
        }
        self.carried = 0  # requests sent through interactions (not counted by Discord), for the benchmarks
        # Seconds an edit of a round's message waits for its new picture before it shows the text
        # (whose turn it is, the deadline) with the old picture; the picture follows in the next edit.
        self.picture_wait = picture_wait
        self._monotonic = monotonic
        self._channels: dict[int, _Channel] = {}
        self._workers: dict[int, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()
        self._lobby_closed: set[int] = set()
        self._archived: set[int] = set()  # threads archived after their game's results
        self.hand_dms = HandDMs(manager.prefs, sink, self.images)
        self._pictures: dict[int, bytes] = {}  # message id → digest of the picture it shows
        self._texts: dict[int, str] = {}  # message id → the text it shows (a round's, to close it)
        self.uploads = 0  # pictures uploaded (posts and edits), for the benchmarks
        self.uploaded_bytes = 0
        self._resumed: set[int] = set()  # tables loaded after a restart whose round message may be posted already
        # Tables loaded after a restart whose message still shows the state from before it: their
        # state goes first, before the other edits of the channel (closing the lobby, old rounds).
        self._stale: set[int] = set()
        self._dropped: set[int] = set()  # tables whose place is gone: nothing more is sent for them
        self._deleted: set[int] = set()  # table messages deleted by someone else: posted again
        manager.add_listener(self.on_update)

    @property
    def renderer(self) -> ImageService | None:
        """The image service (None when no renderer is configured)."""
        return self.images if self.images.enabled else None

    async def image(self, kind: str | None, view: Mapping[str, Any] | None) -> tuple[bytes | None, str | None]:
        """The picture of ``view`` (a game's view, typed, or a picture's dict)."""
        return await self.images.render(kind, dict(view) if view is not None else None)

    # -- entry point (synchronous, cheap) ---------------------------------------

    def on_update(self, update: TableUpdate) -> None:
        table = update.table
        if table.id in self._dropped:
            return
        embeds = story.stories(table, update.events, finished=update.kind == "finished")
        if embeds:  # told on the round's own message as it closes (one showdown per round)
            channel = self._channels.setdefault(table.channel_id, _Channel())
            channel.told.setdefault(table.id, []).extend(embeds)
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
        self._resumed.add(table.id)
        self._stale.add(table.id)
        self.publish(table)
        if table.status == "playing":
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
        channel = self._channels.setdefault(table.channel_id, _Channel())
        queued = {strip.message_id for strip in channel.strips}
        for message in shown:
            ids = [cid for cid in message.custom_ids if cid.startswith(mine)]
            if ids and not any(cid.startswith(keep) for cid in ids) and message.id not in queued:
                channel.strips.append(
                    _Strip(message.id, table.mat_channel, text.closed_round_text(message.content), table.id)
                )
        self._wake(table.channel_id)

    def publish(self, table: Table) -> None:
        """Show the table's newest state in its channel (soon; built when it is sent)."""
        if table.id in self._dropped:
            return
        channel = self._channels.get(table.channel_id)
        if channel is None:
            channel = self._channels[table.channel_id] = _Channel()
            if len(self._channels) > 4096:
                self._prune()
        old = channel.table
        if old is not None and old is not table and old.status in ("finished", "cancelled"):
            channel.final = old  # a new table in the channel: the old one's end is still shown
        if table.status in ("lobby", "cancelled") and not table.lobby_message_id and channel.lobby_post is None:
            # The lobby message is posted (not edited) once; built now (cheap: no image), so it
            # shows the lobby even if the game starts before it goes out.
            channel.lobby_post = (table, table_message(table))
        channel.table = table
        self._wake(table.channel_id)

    def drop(self, table: Table) -> None:
        """The table's place on Discord is gone: its pending messages are dropped and nothing more
        is sent for it (a request already on its way is the last)."""
        self._dropped.add(table.id)
        if len(self._dropped) > 10_000:
            self._dropped = {table.id}
        ch = self._channels.get(table.channel_id)
        if ch is not None:
            self._purge(ch)

    def _purge(self, ch: _Channel) -> None:
        """Forget the channel's jobs for tables that were dropped."""
        if not self._dropped:
            return
        gone = self._dropped
        if ch.table is not None and ch.table.id in gone:
            ch.table = None
        if ch.final is not None and ch.final.id in gone:
            ch.final = None
        if ch.lobby_post is not None and ch.lobby_post[0].id in gone:
            ch.lobby_post = None
        if ch.close_lobby is not None and ch.close_lobby.table.id in gone:
            ch.close_lobby = None
        ch.stories = [s for s in ch.stories if s.table_id not in gone]
        ch.strips = [s for s in ch.strips if s.table_id not in gone]

    def message_deleted(self, channel_id: int, message_id: int) -> bool:
        """Someone deleted a message in the channel: if it was an open table's message (its lobby, or
        its round's), it is posted again at once. Whether it was."""
        table = self.manager.tables.get(channel_id) or self.manager.threads.get(channel_id)
        if table is None or message_id != self._shown_in(table) or table.id in self._dropped:
            return False
        self._deleted.add(message_id)
        if len(self._deleted) > 10_000:
            self._deleted = {message_id}
        log.info("the message of table %s was deleted in channel %s; posting it again", table.id, channel_id)
        self.publish(table)
        return True

    def _wake(self, channel_id: int) -> None:
        worker = self._workers.get(channel_id)
        if worker is None or worker.done():
            self._workers[channel_id] = asyncio.create_task(self._drain(channel_id))

    def _prune(self) -> None:
        """Forget idle channels whose last edit no longer matters for pacing."""
        now = self._monotonic()
        for cid, ch in list(self._channels.items()):
            worker = self._workers.get(cid)
            idle = (
                ch.table is None
                and ch.final is None
                and ch.lobby_post is None
                and not ch.strips
                and not ch.stories
                and ch.close_lobby is None
                and (worker is None or worker.done())
            )
            if idle and ch.last_edit < now - self.min_interval:
                del self._channels[cid]
                self._workers.pop(cid, None)

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait until every pending message is sent (tests, shutdown)."""
        await settle(lambda: [*self._workers.values(), *self._tasks])

    # -- the per-channel worker --------------------------------------------------

    def _fresh(self, table: Table, status: str, round_number: int) -> bool:
        """Whether this game state goes to a new message (first mat, a new round, or the game's end:
        the standings are posted last, below the last round's results)."""
        if status == "finished":
            return table.mat_round != FINAL_MESSAGE
        return table.mat_message_id is None or (status == "playing" and table.mat_round != round_number)

    def _needs_post(self, table: Table) -> bool:
        if table.status in ("lobby", "cancelled"):
            return not table.lobby_message_id or table.lobby_message_id in self._deleted
        # A new mat message (a new round, or the round's was deleted): posted at once.
        return self._fresh(table, table.status, table.round) or table.mat_message_id in self._deleted

    @staticmethod
    def _shown_in(table: Table) -> int | None:
        """The message an edit of the table's state changes."""
        return table.lobby_message_id if table.status in ("lobby", "cancelled") else table.mat_message_id

    def _next_job(self, ch: _Channel) -> tuple[Job, bool, int | None] | None:
        """The channel's next job, whether it is an edit (paced) and of which message."""
        if ch.lobby_post is not None:
            return Job.LOBBY_POST, False, None
        if ch.stories:
            return Job.STORY, False, None  # a round's results, before the next round's mat and the final results
        if ch.final is not None:
            return Job.FINAL, not self._needs_post(ch.final), ch.final.mat_message_id
        table = ch.table
        if (
            table is not None
            and table.status not in ("lobby", "cancelled")
            and table.lobby_message_id
            and table.id not in self._lobby_closed
            and ch.close_lobby is None
        ):
            ch.close_lobby = _LobbyClose(table)  # the game started: close the lobby message once
        if table is not None and table.id in self._stale:
            # The turn players see must be the resumed one.
            return Job.STATE, not self._needs_post(table), None if self._needs_post(table) else self._shown_in(table)
        if table is not None and self._needs_post(table):
            thread_due = table.thread and table.thread_id is None  # the closed lobby names the thread
            lobby = table.lobby_message_id
            if ch.close_lobby is not None and self._edit_wait(ch, lobby) <= 0 and not thread_due:
                return Job.CLOSE, True, lobby  # due anyway: the lobby closes before the mat appears
            return Job.STATE, False, None  # else the new mat first, the lobby after it, paced
        if ch.close_lobby is not None:
            return Job.CLOSE, True, ch.close_lobby.table.lobby_message_id
        if ch.strips:
            return Job.STRIP, True, ch.strips[0].message_id
        if table is not None:
            return Job.STATE, True, self._shown_in(table)
        return None

    def _edit_wait(self, ch: _Channel, message_id: int | None = None) -> float:
        """Seconds before an edit of ``message_id`` is due: through a click (one per
        ``carry_interval``) when a live one carries it, else a channel edit (``min_interval``)."""
        if self.carriers.for_message(message_id) is not None:
            last, interval = ch.last_carried, self.carry_interval
        else:
            last, interval = ch.last_edit, self.min_interval
        if interval <= 0:
            return 0.0
        return last + interval - self._monotonic()

    async def _drain(self, channel_id: int) -> None:
        ch = self._channels.get(channel_id)
        if ch is None:
            return
        while True:
            self._purge(ch)
            job = self._next_job(ch)
            if job is None:
                return
            kind, is_edit, target = job
            if is_edit:
                wait = self._edit_wait(ch, target)
                if wait > 0:
                    # Too soon after the channel's last edit: wait, then do what is due by then.
                    await asyncio.sleep(wait)
                    continue
            side_job = self._side_jobs.get(kind)
            if side_job is not None:  # a message of its own: the lobby, a result, an old round's
                await side_job(channel_id, ch)
                continue
            if kind is Job.FINAL:
                table, ch.final = ch.final, None
            else:
                table, ch.table = ch.table, None
            assert table is not None  # _next_job names a kind only when its slot is filled
            try:
                if not await self._send(ch, table):
                    # An edit after all (the state changed since): back in the queue, paced.
                    if kind is Job.FINAL:
                        ch.final = table
                    elif ch.table is None:
                        ch.table = table
                    continue
            except Exception as exc:
                if not retryable(exc):
                    ch.failures = 0
                    log_failure(
                        log, exc, "could not update the table message in channel %s; giving up on it", channel_id
                    )
                    continue
                ch.failures += 1
                delay = min(self.retry_base * 2 ** (ch.failures - 1), self.retry_max)
                log.warning(
                    "could not update the table message in channel %s (attempt %d: %s); retrying in %.1f s",
                    channel_id,
                    ch.failures,
                    describe_error(exc),
                    delay,
                )
                # Retry (with the newest state by then: it is built again).
                if kind is Job.FINAL:
                    ch.final = table
                elif ch.table is None:
                    ch.table = table
                await asyncio.sleep(delay)
            else:
                ch.failures = 0
                self._stale.discard(table.id)

    # -- sending -----------------------------------------------------------------------

    async def _edit(self, ch: _Channel, channel_id: int, message_id: int, out: Outgoing) -> None:
        """Edit a message: through a live click on it if there is one, else a (paced) channel edit."""
        if message_id in self._deleted:
            raise MessageGone(message_id)
        digest = image_digest(out.image)
        if digest is not None and self._pictures.get(message_id) == digest:
            out.image, out.keep_image = None, True  # the picture shown already: the text only
        fresh = self.carriers.for_message(message_id)
        if fresh is None or not await self._carry(ch, fresh, lambda: fresh.carrier.edit_original(out)):
            await self._channel_edit_due(ch)
            await self.sink.edit(channel_id, message_id, out)
            ch.last_edit = self._monotonic()
        self._shown(message_id, out, digest)

    async def _carry(self, ch: _Channel, fresh: Fresh, send: Callable[[], Awaitable[object]]) -> bool:
        """Send through a click; False when that failed (its token dead, say: it is forgotten, and
        the caller sends it the usual way)."""
        try:
            await send()
        except MessageGone:
            raise
        except Exception as exc:
            log.info("could not send through an interaction (%s); sending in the channel", describe_error(exc))
            self.carriers.forget(fresh)
            return False
        ch.last_carried = self._monotonic()
        self.carried += 1
        return True

    async def _channel_edit_due(self, ch: _Channel) -> None:
        """Wait until a channel edit is due (after a carried edit fell through to one)."""
        wait = self._edit_wait(ch)
        if wait > 0:
            await asyncio.sleep(wait)

    async def _draw(self, ch: _Channel, table: Table, out: Outgoing, text_first: bool, earlier_ok: bool) -> None:
        """Draw ``out``'s picture. With ``text_first`` (a round's message) the text never waits
        for the render workers more than :attr:`picture_wait` (under load every table's pictures
        queue for them): past that it goes out with the newest picture drawn so far when
        ``earlier_ok`` (an edit of the round's message; else with the picture it shows, or none
        for a new round's post), and the channel is published again once the new one is drawn.
        A channel has at most one picture being drawn, so the queue stays one picture per table
        and a picture lags the text by at most one drawing."""
        if not text_first or out.render is None or out.view is None:
            out.image, out.alt = await self.images.render(out.render, out.view)
            return
        key = view_key(out.render, out.view)
        previous = ch.drawing
        if previous is not None and previous.done() and ch.drawing_key == key and not previous.cancelled():
            out.image, out.alt = previous.result()  # drawn from this very view
            return
        if previous is None or previous.done():
            drawing = ch.drawing = asyncio.ensure_future(self.images.render(out.render, out.view, key))
            ch.drawing_key = key
            done, _ = await asyncio.wait({drawing}, timeout=self.picture_wait)
            if done:
                out.image, out.alt = drawing.result()
                return

            def drawn(picture: asyncio.Future) -> None:  # late: shown once drawn
                if not picture.cancelled() and ch.drawing is picture and table.status == "playing":
                    self.publish(table)  # (a game over since showed its end with its own picture)

            drawing.add_done_callback(drawn)
        if (
            earlier_ok
            and previous is not None
            and previous.done()
            and not previous.cancelled()
            and previous.result()[0]
        ):
            out.image, out.alt = previous.result()  # an earlier state's: the newest drawn so far
        else:
            out.keep_image = True

    def _shown(self, message_id: int, out: Outgoing, digest: bytes | None) -> None:
        """Remember which text and picture a message shows now (and count the upload)."""
        self._texts[message_id] = out.clipped()
        if len(self._texts) > 20_000:
            self._texts.clear()  # only costs an old round's message its closing line
        if out.keep_image:
            return
        if out.image and digest is not None:
            self.uploads += 1
            self.uploaded_bytes += len(out.image)
            self._pictures[message_id] = digest
            if len(self._pictures) > 20_000:
                self._pictures.clear()  # only costs one more upload per message
        else:
            self._pictures.pop(message_id, None)

    async def _send(self, ch: _Channel, table: Table) -> bool:
        """Send the table's newest state; False (nothing sent) if that needs an edit not due yet."""
        channel = table.channel_id
        # Built now, from the newest state, under the table's lock (never a state half-way through
        # a change); the decision post/edit is taken from that same snapshot.
        async with table.lock:
            status, round_number = table.status, table.round
            post = self._needs_post(table)
            if not post and self._edit_wait(ch, self._shown_in(table)) > 0:
                return False
            out = table_message(table)
            edit_of_round = not post and table.mat_message_id is not None
            # The results of the rounds that ended by this state: on the message that closes now.
            results = ch.told.pop(table.id, []) if post and status != "lobby" else []
            final = status == "finished"
            previous = table.mat_message_id
            closing = closed_round_message(table, results) if final and previous and table.game is not None else None
            if results and not previous:  # no round message to tell them on: posted before this one
                self._post_results(ch, table, results)
                return False
        if out.image is None and out.render:
            await self._draw(ch, table, out, text_first=status == "playing", earlier_ok=edit_of_round)
        if status not in ("lobby", "cancelled") and table.thread and table.thread_id is None:
            await self._start_thread(table)
        if status in ("lobby", "cancelled"):
            if table.lobby_message_id:
                try:
                    await self._edit(ch, channel, table.lobby_message_id, out)
                    return True
                except MessageGone:
                    pass
            table.lobby_message_id = await self.sink.post(channel, out)
            self._shown(table.lobby_message_id, out, image_digest(out.image))
            await remember_message(self.manager, table.id, "lobby", table.lobby_message_id)
            return True
        channel = table.mat_channel
        if table.mat_message_id is not None and not self._fresh(table, status, round_number):
            try:
                await self._edit(ch, channel, table.mat_message_id, out)
                await self._archive_when_over(table, status)
                return True
            except MessageGone:
                pass
        # (a round's message found after a restart is reused; the standings always get their own)
        message_id = None if final else await self._posted_before_restart(table, previous, round_number)
        if message_id is not None:
            await self._edit(ch, channel, message_id, out)
        else:
            message_id = await self.sink.post(channel, out)
            self._shown(message_id, out, image_digest(out.image))
        shown_round = FINAL_MESSAGE if final else round_number
        table.mat_message_id, table.mat_round = message_id, shown_round
        if (
            previous
            and previous != message_id
            and previous not in self._deleted
            and all(strip.message_id != previous for strip in ch.strips)
        ):
            shown = self._texts.pop(previous, None)
            closed = None if shown is None else text.closed_round_text(shown, told=bool(results))
            archive = table if final else None
            ch.strips.append(_Strip(previous, channel, closed, table.id, out=closing, archive=archive, embeds=results))
            self._pictures.pop(previous, None)
        else:
            self._post_results(ch, table, results)  # no earlier message to tell them on
            await self._archive_when_over(table, status)
        await remember_message(self.manager, table.id, "mat", message_id, shown_round)
        return True

    async def _start_thread(self, table: Table) -> None:
        """The game's thread, started from the lobby message; without it (no permission, no lobby
        message, Discord refused) the game plays in the channel."""
        thread_id = None
        if table.lobby_message_id:
            try:
                thread_id = await self.sink.start_thread(
                    table.channel_id, table.lobby_message_id, f"{table.preset_info.name} — table {table.id}"
                )
            except Exception as exc:
                log.warning(
                    "could not start a thread for table %s (%s); playing in the channel", table.id, describe_error(exc)
                )
        await remember_thread(self.manager, table, thread_id)

    async def _archive_when_over(self, table: Table, status: str) -> None:
        """Once the results are in a game's thread, the thread is archived (best effort)."""
        if status != "finished" or table.thread_id is None or table.thread_id in self._archived:
            return
        self._archived.add(table.thread_id)
        try:
            await self.sink.archive(table.thread_id)
        except Exception as exc:
            log.warning("could not archive the thread of table %s (%s)", table.id, describe_error(exc))

    async def _posted_before_restart(self, table: Table, previous: int | None, round_number: int) -> int | None:
        """The round message posted for this round before a restart lost its id, if any."""
        if table.id not in self._resumed:
            return None
        self._resumed.discard(table.id)
        try:
            return await self.sink.find_message(
                table.channel_id, previous or table.lobby_message_id, table_prefix(table.id, round_number)
            )
        except Exception as exc:
            log.warning("could not look for the round message of table %s (%s)", table.id, describe_error(exc))
            return None

    async def _post_lobby(self, channel_id: int, ch: _Channel) -> None:
        assert ch.lobby_post is not None  # the job is only named while it is pending
        table, out = ch.lobby_post
        if table.lobby_message_id:
            ch.lobby_post = None
            return
        try:
            table.lobby_message_id = await self.sink.post(channel_id, out)
        except Exception as exc:
            if not retryable(exc):
                log_failure(log, exc, "could not post the lobby message in channel %s", channel_id)
                ch.lobby_post = None
                return
            ch.failures += 1
            delay = min(self.retry_base * 2 ** (ch.failures - 1), self.retry_max)
            log.warning(
                "could not post the lobby message in channel %s (%s); retrying in %.1f s",
                channel_id,
                describe_error(exc),
                delay,
            )
            await asyncio.sleep(delay)
            return
        ch.failures = 0
        ch.lobby_post = None
        await remember_message(self.manager, table.id, "lobby", table.lobby_message_id)

    async def _post_story(self, channel_id: int, ch: _Channel) -> None:
        """Post the oldest round result waiting, as a follow-up of the table's freshest click when
        there is one (retried a few times, then given up: the log has it)."""
        pending = ch.stories[0]
        fresh = self.carriers.freshest(pending.table_id, pending.channel_id)
        try:
            if fresh is None or not await self._carry(ch, fresh, partial(fresh.carrier.send, pending.out)):
                await self.sink.post(pending.channel_id, pending.out)
        except Exception as exc:
            if retryable(exc) and pending.attempts < 3:
                pending.attempts += 1
                log.warning("could not post a round's results in channel %s (%s)", channel_id, describe_error(exc))
                await asyncio.sleep(min(self.retry_base * 2 ** (pending.attempts - 1), self.retry_max))
                return
            log_failure(log, exc, "could not post a round's results in channel %s; giving up on them", channel_id)
        ch.stories.pop(0)

    def _post_results(
        self, ch: _Channel, table: Table | None, embeds: list[dict], channel_id: int | None = None
    ) -> None:
        """Round results with no round message to tell them on: posted as messages of their own."""
        if table is None or not embeds:
            return
        where = channel_id if channel_id is not None else table.mat_channel
        ch.stories += [_Story(Outgoing("", embeds=[embed]), where, table.id) for embed in embeds]

    async def _close_lobby(self, channel_id: int, ch: _Channel) -> None:
        assert ch.close_lobby is not None  # the job is only named while it is pending
        table, attempts = ch.close_lobby.table, ch.close_lobby.attempts
        if table.id in self._lobby_closed or not table.lobby_message_id:
            ch.close_lobby = None
            return
        names = ", ".join(text.escape(s.name) for s in table.seats)
        where = f"\nPlaying in <#{table.thread_id}>" if table.thread_id else ""
        closed = Outgoing(f"## 🃏 {table.preset_info.name} — game started\nPlayers: {names}{where}", [])
        try:
            await self._edit(ch, channel_id, table.lobby_message_id, closed)
        except MessageGone:
            pass
        except Exception as exc:
            log.warning("could not close the lobby message of table %s (%s)", table.id, describe_error(exc))
            if retryable(exc) and attempts < 3:
                ch.close_lobby.attempts += 1
                await asyncio.sleep(min(self.retry_base * 2**attempts, self.retry_max))
                return
        self._lobby_closed.add(table.id)
        if len(self._lobby_closed) > 10_000:
            self._lobby_closed.clear()
        ch.close_lobby = None

    async def _strip(self, channel_id: int, ch: _Channel) -> None:
        """The last round's message loses its buttons and whose turn it was (best effort, paced;
        through a click on it while one is fresh)."""
        pending = ch.strips[0]
        message_id, attempts = pending.message_id, pending.attempts
        fresh = self.carriers.for_message(message_id)
        if pending.out is None and pending.embeds:
            if pending.closed is None:  # its text is not known (a restart): the results on their own
                self._post_results(ch, pending.archive, pending.embeds, pending.channel_id)
            else:  # closed with the round's results under it, its picture kept
                pending.out = Outgoing(pending.closed, [], embeds=pending.embeds, keep_image=True)
        try:
            if pending.out is not None:  # the game is over: the round's own end, with its picture
                if pending.out.image is None and pending.out.render:
                    pending.out.image, pending.out.alt = await self.images.render(pending.out.render, pending.out.view)
                await self._edit(ch, pending.channel_id, message_id, pending.out)
            elif fresh is None or not await self._carry(
                ch, fresh, partial(fresh.carrier.strip_original, pending.closed)
            ):
                await self._channel_edit_due(ch)
                await self.sink.strip(pending.channel_id, message_id, pending.closed)
                ch.last_edit = self._monotonic()
        except MessageGone:
            pass
        except Exception as exc:
            if retryable(exc) and attempts < 2:
                pending.attempts += 1
                await asyncio.sleep(min(self.retry_base * 2**attempts, self.retry_max))
                return
            log.info("could not remove the buttons of message %s", message_id)
        ch.strips.pop(0)
        if pending.archive is not None:
            await self._archive_when_over(pending.archive, "finished")
