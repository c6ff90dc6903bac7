"""Every SQL statement about tournaments: the tournament rows, their entrants, the chips of their pot.

The chips move through the ledger (:class:`bot.economy.bank.Bank`): a buy-in from the entrant's
wallet to the tournament's pot account and back (a refund) or on to a winner (a prize), each a pair
of rows whose ``table_id`` is the tournament's id negated. Those rows move chips between two
wallets, so the audit (which counts rows without a table as grants and removals) sees neither.
"""

from __future__ import annotations

import json
from typing import Any

from bot.economy.bank import Bank
from bot.storage.database import Database
from bot.storage.dialect import Connection, Row
from bot.tournaments.model import Entrant, Tournament, TournamentStatus, pot_account, stack_account

OPEN = ("signup", "running")


def ledger_key(tournament: Tournament) -> int:
    """The ``table_id`` of a tournament's pot rows in the ledger (negative: never a table's id)."""
    return -tournament.id


class TournamentStore:
    def __init__(self, db: Database, bank: Bank) -> None:
        self.db = db
        self.bank = bank

    # -- the rows ---------------------------------------------------------------

    async def insert(self, conn: Connection, tournament: Tournament) -> int:
        cur = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, host_id, status, state_json, start_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                tournament.guild_id,
                tournament.channel_id,
                tournament.host_id,
                tournament.status,
                tournament.to_state(),
                tournament.start_at,
                tournament.created_at,
            ),
        )
        assert cur.lastrowid is not None  # an INSERT gives its row's id
        return int(cur.lastrowid)

    async def write(self, conn: Connection, tournament: Tournament, ended_at: float | None = None) -> None:
        """The tournament's state, status and every entrant's row, inside the caller's transaction."""
        await conn.execute(
            "UPDATE tournaments SET state_json = ?, status = ?, ended_at = ? WHERE id = ?",
            (tournament.to_state(), tournament.status, ended_at, tournament.id),
        )
        await conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ?", (tournament.id,))
        for e in tournament.entrants:
            await conn.execute(
                "INSERT INTO tournament_entrants (tournament_id, entry, guild_id, user_id, name, paid, left_game,"
                " place, prize) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament.id, e.entry, tournament.guild_id, e.user_id, e.name, e.paid, int(e.left), e.place, e.prize),
            )

    async def save(self, tournament: Tournament, ended_at: float | None = None) -> None:
        async with self.db.transaction() as conn:
            await self.write(conn, tournament, ended_at)

    async def open_tournaments(self) -> list[Tournament]:
        """The tournaments signing up or running (loaded at start: they resume)."""
        rows = await self.db.fetchall(f"SELECT * FROM tournaments WHERE status IN {OPEN} ORDER BY id")
        return [await self._load(row) for row in rows]

    async def tournament(self, tournament_id: int) -> Tournament | None:
        row = await self.db.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else await self._load(row)

    async def latest(self, guild_id: int, channel_id: int) -> Tournament | None:
        """The newest tournament of a channel, open or not (``standings`` shows a finished one too)."""
        row = await self.db.fetchone(
            "SELECT * FROM tournaments WHERE guild_id = ? AND channel_id = ? ORDER BY id DESC LIMIT 1",
            (guild_id, channel_id),
        )
        return None if row is None else await self._load(row)

    async def _load(self, row: Row) -> Tournament:
        tournament = Tournament(
            id=int(row["id"]),
            guild_id=int(row["guild_id"]),
            channel_id=int(row["channel_id"]),
            host_id=int(row["host_id"]),
            preset="",
            buy_in=0,
            table_size=0,
            advance=0,
            start_at=None if row["start_at"] is None else float(row["start_at"]),
            status=TournamentStatus(row["status"]),
            created_at=float(row["created_at"]),
        )
        tournament.load_state(row["state_json"])
        entrants = await self.db.fetchall(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY entry", (tournament.id,)
        )
        tournament.entrants = [
            Entrant(
                entry=int(e["entry"]),
                user_id=int(e["user_id"]),
                name=e["name"],
                paid=int(e["paid"]),
                left=bool(e["left_game"]),
                place=None if e["place"] is None else int(e["place"]),
                prize=int(e["prize"]),
            )
            for e in entrants
        ]
        return tournament

    async def finished_table(self, table_id: int) -> tuple[dict[str, Any], str] | None:
        """A tournament table's results and saved state once it has finished (None while it plays)."""
        row = await self.db.fetchone(
            "SELECT result_json, state_json FROM tables WHERE id = ? AND status IN ('finished', 'cancelled')",
            (table_id,),
        )
        if row is None:
            return None
        return json.loads(row["result_json"] or "{}"), row["state_json"]

    # -- the chips --------------------------------------------------------------

    async def pay_in(self, conn: Connection, tournament: Tournament, user_id: int, amount: int, starting: int) -> None:
        """Wallet → pot (raises :class:`bot.errors.NotEnoughChips`)."""
        await self.bank.ensure_wallet(conn, tournament.guild_id, user_id, starting)
        if amount:
            key = ledger_key(tournament)
            await self.bank.debit(conn, tournament.guild_id, user_id, amount, "tournament-buy-in", key)
            await self.bank.credit(
                conn, tournament.guild_id, pot_account(tournament.id), amount, "tournament-buy-in", key
            )

    async def pay_out(self, conn: Connection, tournament: Tournament, user_id: int, amount: int, kind: str) -> None:
        """Pot → wallet: a refund or a prize."""
        if amount:
            key = ledger_key(tournament)
            await self.bank.debit(conn, tournament.guild_id, pot_account(tournament.id), amount, kind, key)
            await self.bank.credit(conn, tournament.guild_id, user_id, amount, kind, key)

    async def clear_stacks(self, conn: Connection, guild_id: int, table_id: int) -> int:
        """A finished tournament table's stacks, cashed out to its stack account, removed again (the
        ledger's removal of the grant that funded them); the chips removed."""
        row = await conn.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, stack_account(table_id))
        )
        found = await row.fetchone()
        held = int(found[0]) if found is not None else 0
        if held:
            await self.bank.debit(conn, guild_id, stack_account(table_id), held, "tournament-stacks", None)
        await conn.execute(
            "DELETE FROM wallets WHERE guild_id = ? AND user_id = ? AND balance = 0",
            (guild_id, stack_account(table_id)),
        )
        return held
