"""The Discord messages that show a table, remembered with its state.

Only the Discord side sets them: the publisher (the lobby and mat messages, the game's thread),
the turn pings (:mod:`bot.discordio.turns`) and ``/tripoley start`` (its lobby message). They are saved
with the table's state, so that after a restart its messages are edited rather than posted
again; the table manager's lobby and play never read them. The table is found in the manager's
registry and saved through its store, like any other change.
"""

from __future__ import annotations

import enum

from bot.errors import DatabaseUnavailable
from bot.tables.manager import TableManager
from bot.tables.model import Table, TableStatus


class ShownMessage(enum.Enum):
    """Which of a table's messages is remembered."""

    LOBBY = enum.auto()  # its lobby's
    MAT = enum.auto()  # its round's (the mat), or its final standings'
    PING = enum.auto()  # its turn ping (deleted after a restart)


async def remember_message(
    manager: TableManager, table_id: int, kind: ShownMessage, message_id: int | None, round_number: int | None = None
) -> None:
    """Remember the lobby or mat message of a table (so it's edited, not re-posted, after a restart),
    or its turn ping (PING: deleted after a restart; saved with the next coalesced save)."""
    table = manager.registry.get_by_id(table_id)
    if table is None:
        return
    if kind is ShownMessage.PING:
        table.ping_message_id = message_id
        if table.status == TableStatus.PLAYING:
            await manager.store.save(table, urgent=False)
        return
    if kind is ShownMessage.MAT and table.status == TableStatus.PLAYING and manager.store.save_delay > 0:
        # A running game: saved with its next coalesced save (no lock, no transaction now: a
        # player clicking the new mat must not wait for this). Lost in a crash, the resumed
        # table just posts a new mat message.
        table.mat_message_id = message_id
        table.mat_round = round_number
        await manager.store.save(table, urgent=False)
        return
    async with table.lock:
        if kind is ShownMessage.LOBBY:
            table.lobby_message_id = message_id
        else:
            table.mat_message_id = message_id
            table.mat_round = round_number
        await manager.store.save_state(table)


async def remember_thread(manager: TableManager, table: Table, thread_id: int | None) -> None:
    """The thread a table's game runs in (None: it could not be started; the channel then)."""
    async with table.lock:
        table.thread, table.thread_id = thread_id is not None, thread_id
        if not manager.registry.thread_started(table, thread_id):
            return  # over already: its results go to the thread, nothing left to save
        try:
            await manager.store.save(table)
        except DatabaseUnavailable:
            manager.store.save_later(table)  # the thread exists: saved once the database answers
