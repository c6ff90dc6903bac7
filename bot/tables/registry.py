"""The open tables of this process, found by channel, id or thread, and who listens to their changes.

Every part of the table service finds a table here (a button carries the table's id, a slash
command its channel) and tells its changes to the listeners (the Discord side: the mat
publisher, the turn pings). A table is remembered when it opens or resumes and forgotten when it
closes; the registry holds memory only, the table's saved state is the store's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from bot import errors
from bot.tables.model import Listener, Table, TableStatus, TableUpdate, UpdateKind

log = logging.getLogger(__name__)


class Registry:
    def __init__(self) -> None:
        self._by_channel: dict[int, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._by_thread: dict[int, Table] = {}  # a table running in a thread
        self.listeners: list[Listener] = []

    # -- listeners ----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def notify(self, update: TableUpdate) -> None:
        """Tell every listener; one that fails is logged and the others still hear of it."""
        for listener in self.listeners:
            try:
                listener(update)
            except Exception:
                log.exception("table listener failed")

    def changed_unsaved(self, table: Table) -> None:
        """A change applied to the table in memory whose save failed (the database went away, e.g. a
        PostgreSQL restart): the listeners are told all the same, so the table message shows the
        turn the players' hands show (it kept the one before: the two disagreed). The coalesced
        saves write the state once the database is back."""
        if table.status == TableStatus.PLAYING and self._by_id.get(table.id) is table:
            self.notify(TableUpdate.of(table, UpdateKind.PLAY))

    def show_again(self, table: Table) -> None:
        """The table changed in memory without a move to tell (put back as its database row holds
        it, or its deadline moved): the listeners show it as it is now, if it is still open."""
        if self._by_id.get(table.id) is table and table.status in (TableStatus.LOBBY, TableStatus.PLAYING):
            kind = UpdateKind.PLAY if table.status == TableStatus.PLAYING else UpdateKind.LOBBY
            self.notify(TableUpdate.of(table, kind))

    # -- open and closed ----------------------------------------------------------------

    def remember(self, table: Table) -> None:
        self._by_channel[table.channel_id] = table
        self._by_id[table.id] = table
        if table.thread_id is not None:
            self._by_thread[table.thread_id] = table

    def forget(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        if table.thread_id is not None and self._by_thread.get(table.thread_id) is table:
            del self._by_thread[table.thread_id]
        self._by_id.pop(table.id, None)

    def thread_started(self, table: Table, thread_id: int | None) -> bool:
        """The table's game runs in this thread now (None: in its channel): found by it too.
        False: the table is closed already."""
        if self._by_id.get(table.id) is not table:
            return False
        if thread_id is not None:
            self._by_thread[thread_id] = table
        return True

    # -- finding ------------------------------------------------------------------------

    def get(self, channel_id: int) -> Table:
        """The open table of a channel, or of the thread it runs in."""
        table = self._by_channel.get(channel_id) or self._by_thread.get(channel_id)
        if table is None:
            raise errors.NoTable(errors.Refusal.NO_TABLE)
        return table

    @property
    def by_channel(self) -> Mapping[int, Table]:
        """The open tables by the channel they were opened in (read only: remember and forget change it)."""
        return MappingProxyType(self._by_channel)

    @property
    def by_id(self) -> Mapping[int, Table]:
        return MappingProxyType(self._by_id)

    @property
    def by_thread(self) -> Mapping[int, Table]:
        """The open tables whose game runs in a thread, by that thread."""
        return MappingProxyType(self._by_thread)

    def get_by_id(self, table_id: int) -> Table | None:
        return self._by_id.get(table_id)

    def __iter__(self) -> Iterator[Table]:
        """The open tables (a copy: a table may close while the caller goes through them)."""
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)

    def of_guild(self, guild_id: int) -> list[Table]:
        return [t for t in self._by_id.values() if t.guild_id == guild_id]

    def seated(self, guild_id: int, user_id: int) -> bool:
        """Whether the user has a seat at an open table of the server (their chips are in play)."""
        return any(t.seat_of(user_id) is not None for t in self.of_guild(guild_id))

    def is_open(self, table: Table) -> bool:
        """Whether the table is still open here (neither over nor forgotten meanwhile)."""
        return table.status in (TableStatus.LOBBY, TableStatus.PLAYING) and self._by_id.get(table.id) is table

    def still_open(self, table: Table) -> None:
        """Under the table's lock: refuse if the table closed while we waited for it (a double
        click, the lobby timer, the game's end)."""
        if (
            table.status not in (TableStatus.LOBBY, TableStatus.PLAYING)
            or self._by_channel.get(table.channel_id) is not table
        ):
            raise errors.NoTable(errors.Refusal.TABLE_CLOSED)
