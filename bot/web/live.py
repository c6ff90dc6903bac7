"""Watch live: a table in play as a spectator sees it, pushed to the pages as it changes.

The hub listens to the table service's updates (the ones that refresh the table message on Discord,
:meth:`bot.tables.registry.Registry.notify`) and keeps, per table someone watches, the newest public
snapshot and the recent log lines of the round in play; each watcher has a queue that holds only the newest snapshot (a
slow one skips to it, nobody's backlog grows). Snapshots are built from the spectator view only
(:func:`bot.web.public.public_table`), in the table's language (``Table.locale``): its lines and words.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import reading
from bot.tables.model import Table, TableStatus, TableUpdate, UpdateKind
from bot.web.public import live_lines, public_table
from engine import events as ev

RECENT_LINES = 40  # log lines a page shows (and a new watcher is sent)
MOST_WATCHERS = 500  # per table


@dataclass
class Watched:
    """A watched table: its newest snapshot, its recent lines and the queues of its watchers."""

    snapshot: dict[str, Any]
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    queues: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)


def snapshot_lines(snapshot: dict[str, Any]) -> deque[str]:
    return deque(snapshot.get("lines") or [], maxlen=RECENT_LINES)


def snapshot_of(table: Table, lines: deque[str], replay_url: str, kind: UpdateKind | None = None) -> dict[str, Any]:
    """What a live page is sent: the table (public, in its language), its recent lines, and whether it
    is over (``kind``: the update's, else the table's status says)."""
    finished = kind is UpdateKind.FINISHED or table.status == TableStatus.FINISHED
    cancelled = kind is UpdateKind.CANCELLED or table.status == TableStatus.CANCELLED
    game = table.game
    with reading(table.locale):
        shown = public_table(game.view(None)) if game is not None else None
    return {
        "version": table.version,
        "locale": table.locale,
        "table": shown,
        "lines": list(lines),
        "over": finished or cancelled,
        "cancelled": cancelled and not finished,
        "replay": replay_url if finished else None,
    }


def round_so_far(table: Table) -> deque[str]:
    """The lines of the round in play up to now (a new watcher's first), in the table's language."""
    lines: deque[str] = deque(maxlen=RECENT_LINES)
    game = table.game
    if game is not None and game.r is not None:
        with reading(table.locale):
            lines.extend(live_lines(list(game.r.events), game.view(None)))
    return lines


class LiveHub:
    """``find(table_id)``: the open table of that id in this process (the table service's registry);
    ``replay_url(table_id)``: the link a finished game's watchers are given."""

    def __init__(self, find: Callable[[int], Table | None], replay_url: Callable[[int], str]) -> None:
        self.find = find
        self.replay_url = replay_url
        self.watched: dict[int, Watched] = {}

    def on_update(self, update: TableUpdate) -> None:
        """A listener of the table service: the watched table's new snapshot to its watchers."""
        table = update.table
        watched = self.watched.get(table.id)
        if watched is None or update.kind is UpdateKind.LOBBY:
            return
        game = table.game
        events = list(update.events)
        starts = [i for i, event in enumerate(events) if isinstance(event, ev.RoundStart)]
        if starts:  # a new deal: the page tells this round (the last one's cards are in new hands)
            watched.lines.clear()
            events = events[starts[-1] :]
        if game is not None and events:
            with reading(table.locale):
                watched.lines.extend(live_lines(events, game.view(None)))
        watched.snapshot = snapshot_of(table, watched.lines, self.replay_url(table.id), update.kind)
        for queue in watched.queues:
            if queue.full():
                queue.get_nowait()  # the watcher had not read the older one yet: the newest replaces it
            queue.put_nowait(watched.snapshot)

    def current(self, table_id: int) -> dict[str, Any] | None:
        """The table's snapshot now, or None when no table of that id plays in this process."""
        watched = self.watched.get(table_id)
        if watched is not None:
            return watched.snapshot
        table = self.find(table_id)
        if table is None or table.game is None:
            return None
        return snapshot_of(table, round_so_far(table), self.replay_url(table_id))

    def watch(self, table_id: int) -> asyncio.Queue[dict[str, Any]] | None:
        """A new watcher's queue, holding the snapshot now; None: no such table, or too many watchers."""
        watched = self.watched.get(table_id)
        if watched is None:
            snapshot = self.current(table_id)
            if snapshot is None:
                return None
            watched = self.watched[table_id] = Watched(snapshot, snapshot_lines(snapshot))
        if len(watched.queues) >= MOST_WATCHERS:
            return None
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        queue.put_nowait(watched.snapshot)
        watched.queues.add(queue)
        return queue

    def leave(self, table_id: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        watched = self.watched.get(table_id)
        if watched is None:
            return
        watched.queues.discard(queue)
        if not watched.queues:
            del self.watched[table_id]
