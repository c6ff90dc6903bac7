"""The publisher's sending: a channel's jobs (:mod:`bot.discordio.channeljobs`) turned into posts
and edits through the :class:`~bot.messages.outgoing.Sink`.

Each job's request raises when it fails: whether it is tried again is the retry policy's
(:mod:`bot.discordio.retry`), applied by the queue (:mod:`bot.discordio.jobqueue`). A table's state
is built from the table *at send time* (under its lock), its picture drawn then; an edit goes
through a live click on the message when there is one (:mod:`bot.discordio.carriers`: outside
Discord's global limit, one per ``carry_interval``), else as a channel edit (one per
``min_interval``). What each message shows (its text, its picture's digest) is remembered, so an
unchanged picture is not uploaded again and an old round's message can be closed with its text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from bot.discordio.carriers import Carriers, Fresh
from bot.discordio.channeljobs import Channel, Picture, Story, Strip
from bot.discordio.render import ImageService, view_key
from bot.messages import text
from bot.messages.buttonids import table_prefix
from bot.messages.outgoing import (
    MessageGone,
    Outgoing,
    Sink,
    closed_round_message,
    describe_error,
    image_digest,
    lobby_closed_message,
    table_message,
    thread_name,
)
from bot.tables.manager import TableManager
from bot.tables.messageids import ShownMessage, remember_message, remember_thread
from bot.tables.model import Table, TableStatus

log = logging.getLogger(__name__)
FINAL_MESSAGE = 0  # the mat_round of a finished game's own message (rounds count from 1)
LOBBY_SHOWN = (TableStatus.LOBBY, TableStatus.CANCELLED)  # the statuses its lobby message shows
REMEMBERED = 20_000  # messages whose text and picture are remembered (past it: forgotten, at a small cost)


def shown_in(table: Table) -> int | None:
    """The message an edit of the table's state changes."""
    return table.lobby_message_id if table.status in LOBBY_SHOWN else table.mat_message_id


class Sender:
    def __init__(
        self,
        manager: TableManager,
        sink: Sink,
        images: ImageService,
        carriers: Carriers,
        *,
        min_interval: float,
        carry_interval: float,
        picture_wait: float,
        monotonic: Callable[[], float],
        republish: Callable[[Table], None],
    ) -> None:
        self.manager = manager
        self.sink = sink
        self.images = images
        self.carriers = carriers
        self.min_interval = min_interval  # at most one edit per channel per this many seconds
        self.carry_interval = carry_interval  # at most one edit through clicks per channel per this many seconds
        # Seconds an edit of a round's message waits for its new picture before it shows the text
        # (whose turn it is, the deadline) with the old picture; the picture follows in the next edit.
        self.picture_wait = picture_wait
        self._monotonic = monotonic
        self._republish = republish  # the table shown again (its late picture is drawn)
        self.carried = 0  # requests sent through interactions (not counted by Discord), for the benchmarks
        self.uploads = 0  # pictures uploaded (posts and edits), for the benchmarks
        self.uploaded_bytes = 0
        self.lobby_closed: set[int] = set()  # tables whose lobby message is closed
        self.archived: set[int] = set()  # threads archived after their game's results
        self.resumed: set[int] = set()  # tables loaded after a restart whose round message may be posted already
        self.deleted: set[int] = set()  # table messages deleted by someone else: posted again
        self._pictures: dict[int, bytes] = {}  # message id → digest of the picture it shows
        self._texts: dict[int, str] = {}  # message id → the text it shows (a round's, to close it)

    # -- what is due ----------------------------------------------------------------------

    def edit_wait(self, ch: Channel, message_id: int | None = None) -> float:
        """Seconds before an edit of ``message_id`` is due: through a click (one per
        ``carry_interval``) when a live one carries it, else a channel edit (``min_interval``)."""
        if self.carriers.for_message(message_id) is not None:
            last, interval = ch.last_carried, self.carry_interval
        else:
            last, interval = ch.last_edit, self.min_interval
        if interval <= 0:
            return 0.0
        return last + interval - self._monotonic()

    def paced_out(self, ch: Channel) -> bool:
        """Whether the channel's last edit no longer delays its next one."""
        return ch.last_edit < self._monotonic() - self.min_interval

    @staticmethod
    def fresh(table: Table, status: TableStatus, round_number: int) -> bool:
        """Whether this game state goes to a new message (first mat, a new round, or the game's end:
        the standings are posted last, below the last round's results)."""
        if status == TableStatus.FINISHED:
            return table.mat_round != FINAL_MESSAGE
        return table.mat_message_id is None or (status == TableStatus.PLAYING and table.mat_round != round_number)

    def needs_post(self, table: Table) -> bool:
        if table.status in LOBBY_SHOWN:
            return not table.lobby_message_id or table.lobby_message_id in self.deleted
        # A new mat message (a new round, or the round's was deleted): posted at once.
        return self.fresh(table, table.status, table.round) or table.mat_message_id in self.deleted

    # -- the table's state ------------------------------------------------------------------

    async def send(self, ch: Channel, table: Table) -> bool:
        """Send the table's newest state; False (nothing sent) if that needs an edit not due yet."""
        channel = table.channel_id
        # Built now, from the newest state, under the table's lock (never a state half-way through
        # a change); the decision post/edit is taken from that same snapshot.
        async with table.lock:
            status, round_number = table.status, table.round
            post = self.needs_post(table)
            if not post and self.edit_wait(ch, shown_in(table)) > 0:
                return False
            out = table_message(table)
            edit_of_round = not post and table.mat_message_id is not None
            # The results of the rounds that ended by this state: on the message that closes now.
            results = ch.told.pop(table.id, []) if post and status != TableStatus.LOBBY else []
            final = status == TableStatus.FINISHED
            previous = table.mat_message_id
            closing = closed_round_message(table, results) if final and previous and table.game is not None else None
            if results and not previous:  # no round message to tell them on: posted before this one
                self.post_results(ch, table, results)
                return False
        if out.image is None and out.render:
            await self._draw(ch, table, out, text_first=status == TableStatus.PLAYING, earlier_ok=edit_of_round)
        if status not in LOBBY_SHOWN and table.thread and table.thread_id is None:
            await self._start_thread(table)
        if status in LOBBY_SHOWN:
            if table.lobby_message_id:
                try:
                    await self.edit(ch, channel, table.lobby_message_id, out)
                    return True
                except MessageGone:
                    pass
            table.lobby_message_id = await self.sink.post(channel, out)
            self._shown(table.lobby_message_id, out, image_digest(out.image))
            await remember_message(self.manager, table.id, ShownMessage.LOBBY, table.lobby_message_id)
            return True
        channel = table.mat_channel
        if table.mat_message_id is not None and not self.fresh(table, status, round_number):
            try:
                await self.edit(ch, channel, table.mat_message_id, out)
                await self.archive_when_over(table, status)
                return True
            except MessageGone:
                pass
        # (a round's message found after a restart is reused; the standings always get their own)
        message_id = None if final else await self._posted_before_restart(table, previous, round_number)
        if message_id is not None:
            await self.edit(ch, channel, message_id, out)
        else:
            message_id = await self.sink.post(channel, out)
            self._shown(message_id, out, image_digest(out.image))
        shown_round = FINAL_MESSAGE if final else round_number
        table.mat_message_id, table.mat_round = message_id, shown_round
        if (
            previous
            and previous != message_id
            and previous not in self.deleted
            and all(strip.message_id != previous for strip in ch.strips)
        ):
            shown = self._texts.pop(previous, None)
            closed = None if shown is None else text.closed_round_text(shown, told=bool(results))
            archive = table if final else None
            ch.strips.append(Strip(previous, channel, closed, table.id, out=closing, archive=archive, embeds=results))
            self._pictures.pop(previous, None)
        else:
            self.post_results(ch, table, results)  # no earlier message to tell them on
            await self.archive_when_over(table, status)
        await remember_message(self.manager, table.id, ShownMessage.MAT, message_id, shown_round)
        return True

    async def _draw(self, ch: Channel, table: Table, out: Outgoing, text_first: bool, earlier_ok: bool) -> None:
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

            def drawn(picture: asyncio.Future[Picture]) -> None:  # late: shown once drawn
                if not picture.cancelled() and ch.drawing is picture and table.status == TableStatus.PLAYING:
                    self._republish(table)  # (a game over since showed its end with its own picture)

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
        if len(self._texts) > REMEMBERED:
            self._texts.clear()  # only costs an old round's message its closing line
        if out.keep_image:
            return
        if out.image and digest is not None:
            self.uploads += 1
            self.uploaded_bytes += len(out.image)
            self._pictures[message_id] = digest
            if len(self._pictures) > REMEMBERED:
                self._pictures.clear()  # only costs one more upload per message
        else:
            self._pictures.pop(message_id, None)

    async def _start_thread(self, table: Table) -> None:
        """The game's thread, started from the lobby message; without it (no permission, no lobby
        message, Discord refused) the game plays in the channel."""
        thread_id = None
        if table.lobby_message_id:
            try:
                thread_id = await self.sink.start_thread(table.channel_id, table.lobby_message_id, thread_name(table))
            except Exception as exc:
                log.warning(
                    "could not start a thread for table %s (%s); playing in the channel", table.id, describe_error(exc)
                )
        await remember_thread(self.manager, table, thread_id)

    async def archive_when_over(self, table: Table, status: TableStatus) -> None:
        """Once the results are in a game's thread, the thread is archived (best effort)."""
        if status != TableStatus.FINISHED or table.thread_id is None or table.thread_id in self.archived:
            return
        self.archived.add(table.thread_id)
        try:
            await self.sink.archive(table.thread_id)
        except Exception as exc:
            log.warning("could not archive the thread of table %s (%s)", table.id, describe_error(exc))

    async def _posted_before_restart(self, table: Table, previous: int | None, round_number: int) -> int | None:
        """The round message posted for this round before a restart lost its id, if any."""
        if table.id not in self.resumed:
            return None
        self.resumed.discard(table.id)
        try:
            return await self.sink.find_message(
                table.channel_id, previous or table.lobby_message_id, table_prefix(table.id, round_number)
            )
        except Exception as exc:
            log.warning("could not look for the round message of table %s (%s)", table.id, describe_error(exc))
            return None

    # -- editing ----------------------------------------------------------------------------

    async def edit(self, ch: Channel, channel_id: int, message_id: int, out: Outgoing) -> None:
        """Edit a message: through a live click on it if there is one, else a (paced) channel edit."""
        if message_id in self.deleted:
            raise MessageGone(message_id)
        digest = image_digest(out.image)
        if digest is not None and self._pictures.get(message_id) == digest:
            out.image, out.keep_image = None, True  # the picture shown already: the text only
        fresh = self.carriers.for_message(message_id)
        if fresh is None or not await self._carry(ch, fresh, partial(fresh.carrier.edit_original, out)):
            await self._channel_edit_due(ch)
            await self.sink.edit(channel_id, message_id, out)
            ch.last_edit = self._monotonic()
        self._shown(message_id, out, digest)

    async def _carry(self, ch: Channel, fresh: Fresh, send: Callable[[], Awaitable[object]]) -> bool:
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

    async def _channel_edit_due(self, ch: Channel) -> None:
        """Wait until a channel edit is due (after a carried edit fell through to one)."""
        wait = self.edit_wait(ch)
        if wait > 0:
            await asyncio.sleep(wait)

    # -- the messages of their own (each job: its request, then what is done once it is over) ------

    async def post_lobby(self, channel_id: int, ch: Channel) -> None:
        assert ch.lobby_post is not None  # the job is only named while it is pending
        table, out = ch.lobby_post
        if not table.lobby_message_id:
            table.lobby_message_id = await self.sink.post(channel_id, out)
            await remember_message(self.manager, table.id, ShownMessage.LOBBY, table.lobby_message_id)

    async def lobby_posted(self, ch: Channel) -> None:
        ch.lobby_post = None

    async def post_story(self, channel_id: int, ch: Channel) -> None:
        """Post the oldest round result waiting, as a follow-up of the table's freshest click when
        there is one."""
        pending = ch.stories[0]
        fresh = self.carriers.freshest(pending.table_id, pending.channel_id)
        if fresh is None or not await self._carry(ch, fresh, partial(fresh.carrier.send, pending.out)):
            await self.sink.post(pending.channel_id, pending.out)

    async def story_posted(self, ch: Channel) -> None:
        ch.stories.pop(0)

    def post_results(
        self, ch: Channel, table: Table | None, embeds: list[dict[str, object]], channel_id: int | None = None
    ) -> None:
        """Round results with no round message to tell them on: posted as messages of their own."""
        if table is None or not embeds:
            return
        where = channel_id if channel_id is not None else table.mat_channel
        ch.stories += [Story(Outgoing("", embeds=[embed]), where, table.id) for embed in embeds]

    async def close_lobby(self, channel_id: int, ch: Channel) -> None:
        table = ch.close_lobby
        assert table is not None  # the job is only named while it is pending
        if table.id not in self.lobby_closed and table.lobby_message_id:
            await self.edit(ch, channel_id, table.lobby_message_id, lobby_closed_message(table))

    async def lobby_closing_over(self, ch: Channel) -> None:
        if ch.close_lobby is not None:
            self.lobby_closed.add(ch.close_lobby.id)
            if len(self.lobby_closed) > 10_000:
                self.lobby_closed.clear()
        ch.close_lobby = None

    async def strip(self, channel_id: int, ch: Channel) -> None:
        """The last round's message loses its buttons and whose turn it was (paced; through a click
        on it while one is fresh)."""
        pending = ch.strips[0]
        if pending.out is None and pending.embeds:
            if pending.closed is None:  # its text is not known (a restart): the results on their own
                self.post_results(ch, pending.archive, pending.embeds, pending.channel_id)
                pending.embeds = []
            else:  # closed with the round's results under it, its picture kept
                pending.out = Outgoing(pending.closed, [], embeds=pending.embeds, keep_image=True)
        if pending.out is not None:  # the game is over: the round's own end, with its picture
            if pending.out.image is None and pending.out.render:
                pending.out.image, pending.out.alt = await self.images.render(pending.out.render, pending.out.view)
            await self.edit(ch, pending.channel_id, pending.message_id, pending.out)
            return
        fresh = self.carriers.for_message(pending.message_id)
        if fresh is None or not await self._carry(ch, fresh, partial(fresh.carrier.strip_original, pending.closed)):
            await self._channel_edit_due(ch)
            await self.sink.strip(pending.channel_id, pending.message_id, pending.closed)
            ch.last_edit = self._monotonic()

    async def stripped(self, ch: Channel) -> None:
        pending = ch.strips.pop(0)
        if pending.archive is not None:
            await self.archive_when_over(pending.archive, TableStatus.FINISHED)
