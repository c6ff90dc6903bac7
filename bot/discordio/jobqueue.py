"""The publisher's per-channel job queue: one worker per channel does the channel's jobs
(:mod:`bot.discordio.channeljobs`) in order, through the sending (:mod:`bot.discordio.sending`).

Edits are paced per channel, not per message (Discord limits edits by channel): at most one edit of
any of the channel's messages (the lobby, the mat, the old mat losing its buttons) per
``min_interval``; a job whose edit is not due yet waits, and whatever is due by then goes first (a
pending state meanwhile replaced by a newer one: newest wins). Posts (a lobby's first message, a new
round's mat, a round's results) go at once. A failed job is tried again, or given up, as the retry
policy says (:mod:`bot.discordio.retry`): this module is the only one that applies it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.discordio.channeljobs import Channel, Job
from bot.discordio.retry import QUIET, RetryPolicy
from bot.discordio.sending import LOBBY_SHOWN, Sender, shown_in
from bot.messages.outgoing import MessageGone, describe_error, log_failure
from bot.tables.model import Table

log = logging.getLogger(__name__)
CHANNELS_KEPT = 4096  # channels remembered before the idle ones are forgotten
FORGOTTEN_AFTER = 10_000  # tables dropped (or resumed) remembered before the set starts again
# What each job does, for the log: "could not <this> in channel N".
WHAT = {
    Job.LOBBY_POST: "post the lobby message",
    Job.STORY: "post a round's results",
    Job.FINAL: "update the table message",
    Job.CLOSE: "close the lobby message",
    Job.STRIP: "remove the buttons of an earlier round's message",
    Job.STATE: "update the table message",
}
SideJob = tuple[Callable[[int, Channel], Awaitable[None]], Callable[[Channel], Awaitable[None]]]


class JobQueue:
    def __init__(self, sender: Sender, policy: RetryPolicy) -> None:
        self.sender = sender
        self.policy = policy
        self.channels: dict[int, Channel] = {}
        self.workers: dict[int, asyncio.Task[None]] = {}
        self.dropped: set[int] = set()  # tables whose place is gone: nothing more is sent for them
        # Tables loaded after a restart whose message still shows the state from before it: their
        # state goes first, before the other edits of the channel (closing the lobby, old rounds).
        self.stale: set[int] = set()
        # The jobs that are not the table's state, each a message of its own: its request, and
        # what is done once it is over (sent, its message gone, or given up).
        self._side_jobs: dict[Job, SideJob] = {
            Job.CLOSE: (sender.close_lobby, sender.lobby_closing_over),
            Job.STRIP: (sender.strip, sender.stripped),
            Job.LOBBY_POST: (sender.post_lobby, sender.lobby_posted),
            Job.STORY: (sender.post_story, sender.story_posted),
        }

    def channel(self, channel_id: int) -> Channel:
        """The channel's jobs (made when it has none yet)."""
        ch = self.channels.get(channel_id)
        if ch is None:
            ch = self.channels[channel_id] = Channel()
            if len(self.channels) > CHANNELS_KEPT:
                self._prune()
        return ch

    def drop(self, table: Table) -> None:
        """Nothing more is sent for the table (a request already on its way is the last)."""
        self.dropped.add(table.id)
        if len(self.dropped) > FORGOTTEN_AFTER:
            self.dropped = {table.id}
        ch = self.channels.get(table.channel_id)
        if ch is not None:
            ch.purge(self.dropped)

    def wake(self, channel_id: int) -> None:
        worker = self.workers.get(channel_id)
        if worker is None or worker.done():
            self.workers[channel_id] = asyncio.create_task(self._drain(channel_id))

    def _prune(self) -> None:
        """Forget idle channels whose last edit no longer matters for pacing."""
        for cid, ch in list(self.channels.items()):
            worker = self.workers.get(cid)
            if ch.idle() and (worker is None or worker.done()) and self.sender.paced_out(ch):
                del self.channels[cid]
                self.workers.pop(cid, None)

    def next_job(self, ch: Channel) -> tuple[Job, bool, int | None] | None:
        """The channel's next job, whether it is an edit (paced) and of which message."""
        sender = self.sender
        if ch.lobby_post is not None:
            return Job.LOBBY_POST, False, None
        if ch.stories:
            return Job.STORY, False, None  # a round's results, before the next round's mat and the final results
        if ch.final is not None:
            return Job.FINAL, not sender.needs_post(ch.final), ch.final.mat_message_id
        table = ch.table
        if (
            table is not None
            and table.status not in LOBBY_SHOWN
            and table.lobby_message_id
            and table.id not in sender.lobby_closed
            and ch.close_lobby is None
        ):
            ch.close_lobby = table  # the game started: close the lobby message once
        if table is not None and table.id in self.stale:
            # The turn players see must be the resumed one.
            post = sender.needs_post(table)
            return Job.STATE, not post, None if post else shown_in(table)
        if table is not None and sender.needs_post(table):
            thread_due = table.thread and table.thread_id is None  # the closed lobby names the thread
            lobby = table.lobby_message_id
            if ch.close_lobby is not None and sender.edit_wait(ch, lobby) <= 0 and not thread_due:
                return Job.CLOSE, True, lobby  # due anyway: the lobby closes before the mat appears
            return Job.STATE, False, None  # else the new mat first, the lobby after it, paced
        if ch.close_lobby is not None:
            return Job.CLOSE, True, ch.close_lobby.lobby_message_id
        if ch.strips:
            return Job.STRIP, True, ch.strips[0].message_id
        if table is not None:
            return Job.STATE, True, shown_in(table)
        return None

    async def _drain(self, channel_id: int) -> None:
        ch = self.channels.get(channel_id)
        if ch is None:
            return
        while True:
            ch.purge(self.dropped)
            job = self.next_job(ch)
            if job is None:
                return
            kind, is_edit, target = job
            if is_edit:
                wait = self.sender.edit_wait(ch, target)
                if wait > 0:
                    # Too soon after the channel's last edit: wait, then do what is due by then.
                    await asyncio.sleep(wait)
                    continue
            side_job = self._side_jobs.get(kind)
            if side_job is not None:
                await self._side(kind, side_job, channel_id, ch)
            else:
                await self._state(kind, channel_id, ch)

    async def _side(self, kind: Job, side_job: SideJob, channel_id: int, ch: Channel) -> None:
        """A message of its own: sent, or tried again later, or given up; then done with."""
        send, done = side_job
        try:
            await send(channel_id, ch)
        except MessageGone:
            pass  # nothing left to change
        except Exception as exc:
            delay = self._failed(kind, channel_id, ch, exc)
            if delay is not None:
                await asyncio.sleep(delay)
                return
        ch.failures.pop(kind, None)
        await done(ch)

    async def _state(self, kind: Job, channel_id: int, ch: Channel) -> None:
        """The table's newest state (built at send time: a retry shows the newest state by then)."""
        table = ch.take(kind)
        assert table is not None  # next_job names a kind only when its slot is filled
        try:
            sent = await self.sender.send(ch, table)
        except Exception as exc:
            delay = self._failed(kind, channel_id, ch, exc)
            if delay is not None:
                ch.put_back(kind, table)
                await asyncio.sleep(delay)
            return
        if not sent:  # an edit after all (the state changed since): back in the queue, paced
            ch.put_back(kind, table)
            return
        ch.failures.pop(kind, None)
        self.stale.discard(table.id)

    def _failed(self, kind: Job, channel_id: int, ch: Channel, exc: Exception) -> float | None:
        """Count the job's failure and log it; the seconds before it is tried again (None: given up)."""
        failures = ch.failures[kind] = ch.failures.get(kind, 0) + 1
        delay = self.policy.after(kind, failures, exc)
        what = WHAT[kind]
        if delay is not None:
            log.warning(
                "could not %s in channel %s (attempt %d: %s); retrying in %.1f s",
                what,
                channel_id,
                failures,
                describe_error(exc),
                delay,
            )
            return delay
        ch.failures.pop(kind, None)
        if kind in QUIET:
            log.warning("could not %s in channel %s (%s); giving up on it", what, channel_id, describe_error(exc))
        else:
            log_failure(log, exc, "could not %s in channel %s; giving up on it", what, channel_id)
        return None
