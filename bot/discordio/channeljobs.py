"""What a channel still has to show: its pending jobs (the state of the publisher's per-channel
queue, :mod:`bot.discordio.jobqueue`), read and filled by the sending (:mod:`bot.discordio.sending`).

A pending state is a slot, not a list: a newer state replaces it (newest wins). The other jobs are
messages of their own (a lobby's first post, a round's results, an old round's closing), kept in
order. Failures in a row are counted per kind of job, for the retry policy
(:mod:`bot.discordio.retry`): they belong to the first job of that kind, the one being tried.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field
from typing import Any

from bot.messages.outgoing import Outgoing
from bot.tables.model import Table

# A picture drawn for a message: its PNG (None: none) and its description.
Picture = tuple[bytes | None, str | None]


class Job(enum.Enum):
    """What a channel's worker does next (:meth:`bot.discordio.jobqueue.JobQueue.next_job`)."""

    LOBBY_POST = enum.auto()  # post a lobby's first message
    STORY = enum.auto()  # post a round's results
    FINAL = enum.auto()  # show a finished game's last state (a new table came meanwhile)
    CLOSE = enum.auto()  # close the lobby message of a game that started
    STRIP = enum.auto()  # take the buttons off an earlier round's message
    STATE = enum.auto()  # show the table's newest state


@dataclass
class Story:
    """A round's results to post."""

    out: Outgoing
    channel_id: int
    table_id: int  # its follow-up goes through a fresh click on this table, when there is one


@dataclass
class Strip:
    """An earlier round's message to close (its buttons and whose turn it was go)."""

    message_id: int
    channel_id: int
    closed: str | None  # its text once closed (None: the text it shows is not known)
    table_id: int | None = None  # the table it is a round of
    out: Outgoing | None = None  # the last round's message at the game's end: its whole closed state
    archive: Table | None = None  # the game whose thread is archived once this message is closed
    embeds: list[dict[str, Any]] = field(default_factory=list)  # the round's results, told on its own message


@dataclass
class Channel:
    """What a channel still has to show, and when it was last edited."""

    table: Table | None = None  # a newer state to show (built at send time)
    final: Table | None = None  # a finished game's last state, still to show when a new table came
    lobby_post: tuple[Table, Outgoing] | None = None  # a lobby with no message yet: posted as it was
    strips: list[Strip] = field(default_factory=list)  # old mats to strip
    stories: list[Story] = field(default_factory=list)  # round results to post, in order
    # Per table, the results of rounds that ended, for the round's own message when it closes.
    told: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    close_lobby: Table | None = None  # the started game whose lobby message is to close
    last_edit: float = float("-inf")
    last_carried: float = float("-inf")  # the last edit through a click (carriers)
    failures: dict[Job, int] = field(default_factory=dict)  # failures in a row, by kind of job
    drawing: asyncio.Future[Picture] | None = None  # the round message's newest picture being drawn (or drawn)
    drawing_key: bytes | None = None  # the view it is drawn from

    def idle(self) -> bool:
        """Nothing left to send."""
        return (
            self.table is None
            and self.final is None
            and self.lobby_post is None
            and not self.strips
            and not self.stories
            and self.close_lobby is None
        )

    def take(self, kind: Job) -> Table | None:
        """The state a STATE or FINAL job shows, taken out of its slot."""
        if kind is Job.FINAL:
            table, self.final = self.final, None
        else:
            table, self.table = self.table, None
        return table

    def put_back(self, kind: Job, table: Table) -> None:
        """A state not shown after all (an edit not due yet, a failure to retry): back in its slot,
        unless a newer state came meanwhile."""
        if kind is Job.FINAL:
            self.final = table
        elif self.table is None:
            self.table = table

    def purge(self, gone: set[int]) -> None:
        """Forget the jobs of the tables in ``gone`` (their place on Discord is gone)."""
        if not gone:
            return
        if self.table is not None and self.table.id in gone:
            self.table = None
        if self.final is not None and self.final.id in gone:
            self.final = None
        if self.lobby_post is not None and self.lobby_post[0].id in gone:
            self.lobby_post = None
        if self.close_lobby is not None and self.close_lobby.id in gone:
            self.close_lobby = None
        stories = [s for s in self.stories if s.table_id not in gone]
        strips = [s for s in self.strips if s.table_id not in gone]
        if len(stories) + len(strips) < len(self.stories) + len(self.strips):
            self.failures.clear()  # the jobs being tried may be gone: the next ones start afresh
        self.stories, self.strips = stories, strips
