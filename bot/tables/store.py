"""The tables' repository: every SQL statement about tables, their results and players' stats.

Saving: whenever chips move between wallets and a table (buy-in, refund, cash-out) the chips
and the table's state are written in one transaction (the caller's: :meth:`TableStore.write`).
Moves inside a game only change the engine JSON, so the states a table passes through while
AIs play (and between rounds) are coalesced: the newest state of each table is written at most
every ``save_delay`` seconds, many tables per short transaction (:meth:`TableStore.flush`
writes them all, e.g. at shutdown). A state that waits for a human (their turn), a human's
move whose answer shows its result, and the start of a game are written at once
(``urgent``), before anyone is told about them. A crash therefore loses at most a few seconds
of AI moves, never chips and never a move a player was shown.

When the database is away (:mod:`bot.storage.database`), an immediate save is refused
(:class:`~bot.errors.DatabaseUnavailable`) and its caller puts the table back as the database holds
it (:meth:`bot.tables.flow.Flow.all_or_nothing`: what a player would be shown is never kept unsaved).
The coalesced saves wait for it and then write what they hold: a save is never dropped.
Each table keeps the state text of its last write that succeeded (``Table.saved``): that is
what it goes back to.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.economy.bank import HOUSE
from bot.errors import DatabaseUnavailable
from bot.storage import priority
from bot.storage.database import Database
from bot.storage.dialect import Connection, Row
from bot.tables.clock import Clock, wall_offset
from bot.tables.model import Table, TableStatus

log = logging.getLogger(__name__)
RETRY_DELAY = 1.0  # seconds between two tries of saves that failed while the database was away


class TableStore:
    def __init__(self, db: Database, save_delay: float = 0.0, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock  # the game's (deadlines are saved as wall times); None: saved as they are
        self.save_delay = save_delay  # > 0: coalesce the saves of AI moves (see the module doc)
        self.save_batch = 8  # tables per coalesced-save transaction
        self._dirty: dict[int, Table] = {}  # table id → table whose newest state is not saved yet
        self._saver_task: asyncio.Task[None] | None = None

    def transaction(self, priority: int | None = None) -> AbstractAsyncContextManager[Connection]:
        """A transaction on the bot's database (chips and a table's state written together)."""
        return self.db.transaction(priority)

    def unsaved(self) -> int:
        """How many tables' newest states are not saved yet (written by the coalesced saves)."""
        return len(self._dirty)

    def discard(self, table: Table) -> None:
        """Drop a pending coalesced save (the caller writes the newest state itself)."""
        self._dirty.pop(table.id, None)

    # -- a table's state --------------------------------------------------------------

    def state(self, table: Table) -> dict[str, Any]:
        """The table's state as saved, with the wall clock's lead over the game's clock then
        (``wall_offset``): the game's clock is monotonic (bot.tables.clock) and starts again with
        the process, so the timers re-arm a deadline from the wall time it stood for
        (``deadline + wall_offset``). The deadline itself stays on the game's clock, so a table put
        back as last saved (Table.roll_back) keeps its deadline."""
        state = table.to_state()
        if self.clock is not None:
            state["wall_offset"] = wall_offset(self.clock)
        return state

    async def save(self, table: Table, urgent: bool = True, priority: int | None = None) -> None:
        """Save the table's state: at once when ``urgent`` (or when saves are not coalesced),
        else soon (:meth:`_saver`), together with other tables' states. ``priority``: of the
        immediate save's transaction (:data:`bot.storage.priority.INTERACTIVE` when an interaction's answer
        waits for it)."""
        if urgent or self.save_delay <= 0:
            self._dirty.pop(table.id, None)
            try:
                # One statement, no BEGIN/COMMIT: one trip to the database thread. The version moves
                # on once it is written (a coalesced save encoded before is then left out).
                text = json.dumps({**self.state(table), "version": table.version + 1})
                await self.db.execute_alone(
                    "UPDATE tables SET state_json = ?, status = ? WHERE id = ?",
                    (text, table.status, table.id),
                    priority,
                )
                table.version += 1
                table.saved = text
            except DatabaseUnavailable:
                raise  # not kept: the caller puts the table back as the database holds it
            except BaseException:
                if table.status != TableStatus.PLAYING or table.game is None:
                    raise  # a lobby's state is saved with its chips, in transactions
                self._queue(table)  # the coalesced saves try again
                raise
            return
        table.version += 1
        self._queue(table)

    def save_later(self, table: Table) -> None:
        """A game's state written by the coalesced saves whatever ``save_delay`` (a change that is no
        move and needs no save at once: a deadline moved, a message id, while the database is away)."""
        table.version += 1
        self._queue(table)

    def _queue(self, table: Table) -> None:
        """The table's newest state is written by the coalesced saves (:meth:`_saver`, started if idle)."""
        self._dirty.setdefault(table.id, table)
        self._start_saver()

    def _start_saver(self) -> None:
        if self._saver_task is None or self._saver_task.done():
            self._saver_task = asyncio.get_running_loop().create_task(self._saver())

    async def _saver(self) -> None:
        """Write the coalesced states, ``save_delay`` after the first of them changed (while the
        database is away, once it answers again; after a failure, again :data:`RETRY_DELAY` seconds
        later: nothing is dropped)."""
        while self._dirty:
            await asyncio.sleep(self.save_delay if self.save_delay > 0 else RETRY_DELAY)
            await self.db.wait_back()
            try:
                await self.flush()
            except DatabaseUnavailable as exc:
                log.warning("saving %d table state(s) waits for the database (%s)", len(self._dirty), exc.detail)
            except Exception:
                log.exception("saving table states failed; retrying")

    async def flush(self) -> None:
        """Write every table state not saved yet (newest state each; short transactions).

        The states are encoded before the transaction, not inside it: the transaction holds the
        one database connection, and letting the event loop run in between (under load each turn
        of the loop takes milliseconds) kept every other save, and the interactions waiting for
        them, queued for 100-300 ms. A state that changed after it was encoded (its ``version``
        moved on) is left out: the newer one is either saved already or queued again."""
        while self._dirty:
            batch = []
            for table_id in list(self._dirty)[: self.save_batch]:
                batch.append(self._dirty.pop(table_id))
            try:
                encoded = []
                began = time.perf_counter()
                for i, t in enumerate(batch):
                    if t.status == TableStatus.PLAYING and t.game is not None:
                        encoded.append((t, t.version, json.dumps(self.state(t))))
                    if time.perf_counter() - began > 0.004:  # a short turn of the loop: the rest next
                        for rest in batch[i + 1 :]:
                            self._dirty.setdefault(rest.id, rest)
                        batch = batch[: i + 1]
                        break
                await asyncio.sleep(0)
                async with self.db.transaction(priority.BACKGROUND) as conn:
                    written = [(t, text) for t, version, text in encoded if t.version == version]
                    rows = [(text, t.id) for t, text in written]
                    # A table finished (or stopped) meanwhile was saved with its chips: never overwrite
                    # it. A lobby row is a game whose start was saved here (its save failed).
                    await conn.executemany(
                        "UPDATE tables SET state_json = ?, status = 'playing' WHERE id = ?"
                        " AND status IN ('lobby', 'playing')",
                        rows,
                    )
                for t, text in written:
                    t.saved = text
            except BaseException:
                for t in batch:
                    self._dirty.setdefault(t.id, t)
                raise
            await asyncio.sleep(0)  # let interactions through between batches

    async def write(self, conn: Connection, table: Table) -> None:
        """Save the table's state inside the caller's transaction."""
        table.version += 1
        await conn.execute(
            "UPDATE tables SET state_json = ?, status = ? WHERE id = ?",
            (json.dumps(self.state(table)), table.status, table.id),
        )

    async def save_state(self, table: Table) -> None:
        """Write the table's state now, in a transaction of its own (its status unchanged)."""
        text = json.dumps(self.state(table))
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE tables SET state_json = ? WHERE id = ?", (text, table.id))
        table.saved = text

    async def insert(self, conn: Connection, table: Table) -> int:
        """A new lobby's row (its state follows with :meth:`write`); its id."""
        cur = await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, preset, status, chips, state_json, created_at)"
            " VALUES (?, ?, ?, ?, 'lobby', 0, '{}', ?)",
            (table.guild_id, table.channel_id, table.host_id, table.preset, table.created_at),
        )
        assert cur.lastrowid is not None  # an INSERT gives its row's id
        return int(cur.lastrowid)

    async def mark_started(self, table: Table, when: float) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE tables SET started_at = ? WHERE id = ?", (when, table.id))

    @staticmethod
    def closing_state(table: Table) -> str:
        """The state a closed table is saved with: no deadline left."""
        return json.dumps({**table.to_state(), "deadline": None, "deadline_kind": None, "deadline_seat": None})

    async def cancel(self, conn: Connection, table: Table, when: float) -> None:
        """Inside the caller's transaction (with the refunds): the lobby is closed."""
        await conn.execute(
            "UPDATE tables SET status = 'cancelled', state_json = ?, ended_at = ? WHERE id = ?",
            (self.closing_state(table), when, table.id),
        )

    async def finish(
        self, conn: Connection, table: Table, results: dict[str, Any], replay: str | None, when: float
    ) -> None:
        """Inside the caller's transaction (with the cash-outs): the game is over, its results and
        replay kept, every player's stats counted."""
        await self._record_stats(conn, table.guild_id, results)
        await conn.execute(
            "UPDATE tables SET status = 'finished', state_json = ?, result_json = ?, replay_json = ?, ended_at = ?"
            " WHERE id = ?",
            (self.closing_state(table), json.dumps(results), replay, when, table.id),
        )

    async def _record_stats(self, conn: Connection, guild_id: int, results: dict[str, Any]) -> None:
        for entry in results["seats"]:
            if entry["user_id"] is None:
                continue
            await conn.execute(
                "INSERT OR IGNORE INTO stats (guild_id, user_id) VALUES (?, ?)", (guild_id, entry["user_id"])
            )
            await conn.execute(
                "UPDATE stats SET games = games + 1, wins = wins + ?, rounds = rounds + ?, pots_won = pots_won + ?,"
                " net = net + ?,"
                " best_hand = CASE WHEN ? > best_hand_rank THEN ? ELSE best_hand END,"
                " best_hand_rank = MAX(best_hand_rank, ?)"
                " WHERE guild_id = ? AND user_id = ?",
                (
                    int(entry["winner"]),
                    results["rounds"],
                    entry["pots_won"],
                    entry["net"],
                    entry["best_hand_rank"],
                    entry["best_hand"],
                    entry["best_hand_rank"],
                    guild_id,
                    entry["user_id"],
                ),
            )

    # -- reading ------------------------------------------------------------------------

    async def open_tables(self) -> list[Row]:
        """Every open table's row (lobby or playing), oldest first."""
        return await self.db.fetchall("SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id")

    async def finished_table(self, table_id: int) -> Row:
        """A finished table's row, or None."""
        return await self.db.fetchone("SELECT * FROM tables WHERE id = ? AND status = 'finished'", (table_id,))

    async def open_table_chips(self, guild_id: int) -> dict[int, int]:
        """The chips the database says each open table of the server holds, by table id."""
        rows = await self.db.fetchall(
            "SELECT id, chips FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')", (guild_id,)
        )
        return {int(row["id"]): int(row["chips"]) for row in rows}

    async def quarantined_tables(self, guild_id: int) -> list[dict[str, Any]]:
        """The server's quarantined tables (bot.tables.quarantine): id, channel, chips still frozen, why."""
        rows = await self.db.fetchall(
            "SELECT id, channel_id, chips, quarantine_reason FROM tables WHERE guild_id = ? AND status = 'quarantined'"
            " ORDER BY id",
            (guild_id,),
        )
        return [
            {"id": int(r["id"]), "channel_id": int(r["channel_id"]), "chips": int(r["chips"]), "reason": r[3]}
            for r in rows
        ]

    async def house_balance(self, guild_id: int) -> int:
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, HOUSE)
        )
        return int(row[0])

    async def stats(self, guild_id: int, user_id: int) -> dict[str, Any] | None:
        """The player's stats in the server, with ``favourite``: the game they finished most often."""
        row = await self.db.fetchone("SELECT * FROM stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is None:
            return None
        favourite = await self.db.fetchone(
            "SELECT t.preset FROM tables t, json_each(t.result_json, '$.seats') s"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND json_extract(s.value, '$.user_id') = ?"
            " GROUP BY t.preset ORDER BY COUNT(*) DESC, MAX(t.ended_at) DESC LIMIT 1",
            (guild_id, user_id),
        )
        return {**dict(row), "favourite": favourite[0] if favourite else None}

    async def player_games(self, guild_id: int, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The player's last finished games in the server, oldest first: each game's id, preset,
        end time and their chips at the end (``final``), ``net`` and whether they won."""
        rows = await self.db.fetchall(
            "SELECT t.id, t.preset, t.ended_at, json_extract(s.value, '$.final') AS final,"
            " json_extract(s.value, '$.net') AS net, json_extract(s.value, '$.winner') AS winner"
            " FROM tables t, json_each(t.result_json, '$.seats') s"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND json_extract(s.value, '$.user_id') = ?"
            " ORDER BY t.ended_at DESC, t.id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        games = [
            {
                "id": int(row["id"]),
                "preset": row["preset"],
                "ended_at": row["ended_at"],
                "final": int(row["final"] or 0),
                "net": int(row["net"] or 0),
                "winner": bool(row["winner"]),
            }
            for row in rows
        ]
        return games[::-1]

    async def player_presets(self, guild_id: int, user_id: int) -> list[dict[str, Any]]:
        """The player's results per game of the family (every finished game in the server): games,
        wins and net chips by preset, the most played first."""
        rows = await self.db.fetchall(
            "SELECT t.preset, COUNT(*) AS games, SUM(json_extract(s.value, '$.winner')) AS wins,"
            " SUM(json_extract(s.value, '$.net')) AS net"
            " FROM tables t, json_each(t.result_json, '$.seats') s"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND json_extract(s.value, '$.user_id') = ?"
            " GROUP BY t.preset ORDER BY COUNT(*) DESC, t.preset",
            (guild_id, user_id),
        )
        return [
            {
                "preset": row["preset"],
                "games": int(row["games"]),
                "wins": int(row["wins"] or 0),
                "net": int(row["net"] or 0),
            }
            for row in rows
        ]

    async def game_log(self, guild_id: int, table_id: int) -> tuple[str, dict[str, list[str]]] | None:
        """A finished game of this server: its preset and its whole log, round by round (saved with
        its last state); None: no such game."""
        row = await self.db.fetchone(
            "SELECT preset, state_json FROM tables WHERE id = ? AND guild_id = ? AND status = 'finished'",
            (table_id, guild_id),
        )
        if row is None:
            return None
        return row["preset"], dict(json.loads(row["state_json"]).get("round_logs") or {})

    async def history(self, guild_id: int, limit: int = 10) -> list[dict[str, Any]]:
        """The server's last finished games, newest first, with their results."""
        rows = await self.db.fetchall(
            "SELECT id, channel_id, preset, started_at, ended_at, result_json, replay_json IS NOT NULL AS has_replay"
            " FROM tables WHERE guild_id = ? AND status = 'finished' ORDER BY ended_at DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        out = []
        for row in rows:
            item = dict(row)
            item["result"] = json.loads(row["result_json"]) if row["result_json"] else None
            item["has_replay"] = bool(row["has_replay"])
            out.append(item)
        return out

    async def replay(self, guild_id: int, table_id: int) -> str | None:
        """The replay file's text of a finished game of this server (None if there is none)."""
        found = await self.replay_and_end(guild_id, table_id)
        return found[0] if found else None

    async def replay_and_end(self, guild_id: int, table_id: int) -> tuple[str, float | None] | None:
        """The replay file's text of a finished game of this server and when the game ended (None:
        no replay)."""
        row = await self.db.fetchone(
            "SELECT replay_json, ended_at FROM tables WHERE id = ? AND guild_id = ? AND status = 'finished'",
            (table_id, guild_id),
        )
        if row is None or row["replay_json"] is None:
            return None
        return row["replay_json"], row["ended_at"]
