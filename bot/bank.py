"""Wallets, the ledger and the house account.

A wallet per user per server (``user_id`` 0 is the server's house account,
which funds AI seats). Every movement is one ledger row; balances never go
negative (checked in SQL). Chips only enter the system through ``grant`` rows
(a new wallet's starting balance, the house bankroll), so for each server

    sum(wallets) + sum(open tables' chips) == sum(grant rows)

at all times (:meth:`Bank.audit`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import aiosqlite

from .errors import NotEnoughChips
from .storage import Database

HOUSE = 0


@dataclass(frozen=True)
class Audit:
    granted: int
    wallets: int
    tables: int

    @property
    def ok(self) -> bool:
        return self.granted == self.wallets + self.tables


class Bank:
    def __init__(self, db: Database, clock=time.time) -> None:
        self.db = db
        self.clock = clock

    # -- helpers usable inside a caller's transaction -------------------------

    async def ensure_wallet(self, conn: aiosqlite.Connection, guild_id: int, user_id: int, starting: int) -> int:
        async with conn.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cur:
            row = await cur.fetchone()
        if row is not None:
            return int(row[0])
        starting = 0 if user_id == HOUSE else max(0, int(starting))
        await conn.execute(
            "INSERT INTO wallets (guild_id, user_id, balance) VALUES (?, ?, ?)", (guild_id, user_id, starting)
        )
        if starting:
            await self._ledger(conn, guild_id, user_id, starting, starting, "grant", None, "starting balance")
        return starting

    async def _ledger(self, conn, guild_id, user_id, delta, balance, kind, table_id, note=None) -> None:
        await conn.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance, kind, table_id, created_at, note)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, delta, balance, kind, table_id, self.clock(), note),
        )

    async def credit(
        self, conn, guild_id: int, user_id: int, amount: int, kind: str, table_id: int | None, note: str | None = None
    ) -> int:
        if amount < 0:
            raise ValueError("credit amount must not be negative")
        await self.ensure_wallet(conn, guild_id, user_id, 0)
        async with conn.execute(
            "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? RETURNING balance",
            (amount, guild_id, user_id),
        ) as cur:
            balance = int((await cur.fetchone())[0])
        await self._ledger(conn, guild_id, user_id, amount, balance, kind, table_id, note)
        return balance

    async def debit(
        self, conn, guild_id: int, user_id: int, amount: int, kind: str, table_id: int | None, note: str | None = None
    ) -> int:
        if amount < 0:
            raise ValueError("debit amount must not be negative")
        async with conn.execute(
            "UPDATE wallets SET balance = balance - ? WHERE guild_id = ? AND user_id = ? AND balance >= ?"
            " RETURNING balance",
            (amount, guild_id, user_id, amount),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            have = await self._balance(conn, guild_id, user_id)
            raise NotEnoughChips(f"You need {amount} chips but your wallet holds {have}.")
        balance = int(row[0])
        await self._ledger(conn, guild_id, user_id, -amount, balance, kind, table_id, note)
        return balance

    async def _balance(self, conn, guild_id: int, user_id: int) -> int:
        async with conn.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _table_chips(self, conn, table_id: int, delta: int) -> None:
        async with conn.execute(
            "UPDATE tables SET chips = chips + ? WHERE id = ? AND chips + ? >= 0 RETURNING chips",
            (delta, table_id, delta),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            raise RuntimeError(f"table {table_id} cannot move {delta} chips")

    # -- one transaction each -------------------------------------------------

    async def balance(self, guild_id: int, user_id: int, starting: int) -> int:
        async with self.db.transaction() as conn:
            return await self.ensure_wallet(conn, guild_id, user_id, starting)

    async def buy_in(
        self, guild_id: int, user_id: int, table_id: int, amount: int, starting: int, conn=None
    ) -> int:
        """Wallet → table. Raises :class:`NotEnoughChips`; returns the new balance.

        With ``conn``, runs inside the caller's transaction (so the seat that the chips pay for
        is saved in the same transaction)."""
        if conn is None:
            async with self.db.transaction() as conn:
                return await self.buy_in(guild_id, user_id, table_id, amount, starting, conn)
        await self.ensure_wallet(conn, guild_id, user_id, starting)
        balance = await self.debit(conn, guild_id, user_id, amount, "buy-in", table_id)
        await self._table_chips(conn, table_id, amount)
        return balance

    async def house_buy_in(self, guild_id: int, table_id: int, amount: int, conn=None) -> int:
        """House → table for an AI seat; the house is granted any shortfall first."""
        if conn is None:
            async with self.db.transaction() as conn:
                return await self.house_buy_in(guild_id, table_id, amount, conn)
        have = await self.ensure_wallet(conn, guild_id, HOUSE, 0)
        if have < amount:
            await self.credit(conn, guild_id, HOUSE, amount - have, "grant", table_id, "house bankroll")
        balance = await self.debit(conn, guild_id, HOUSE, amount, "buy-in", table_id, "AI seat")
        await self._table_chips(conn, table_id, amount)
        return balance

    async def refund(self, guild_id: int, user_id: int, table_id: int, amount: int, conn=None) -> int:
        """Table → wallet for a seat leaving an unstarted lobby."""
        if conn is None:
            async with self.db.transaction() as conn:
                return await self.refund(guild_id, user_id, table_id, amount, conn)
        await self._table_chips(conn, table_id, -amount)
        return await self.credit(conn, guild_id, user_id, amount, "refund", table_id)

    async def cash_out_all(
        self, conn, guild_id: int, table_id: int, payouts: list[tuple[int, int]], kind: str = "cash-out"
    ) -> None:
        """Inside the caller's transaction: every (user_id, amount) → wallet; the table ends empty."""
        async with conn.execute("SELECT chips FROM tables WHERE id = ?", (table_id,)) as cur:
            held = int((await cur.fetchone())[0])
        total = sum(amount for _, amount in payouts)
        if total != held:
            raise RuntimeError(f"table {table_id} holds {held} chips but cash-out pays {total}")
        for user_id, amount in payouts:
            await self.credit(conn, guild_id, user_id, amount, kind, table_id)
        await conn.execute("UPDATE tables SET chips = 0 WHERE id = ?", (table_id,))

    # -- reading --------------------------------------------------------------

    async def audit(self, guild_id: int) -> Audit:
        granted = await self.db.fetchone(
            "SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE guild_id = ? AND kind = 'grant'", (guild_id,)
        )
        wallets = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = ?", (guild_id,)
        )
        tables = await self.db.fetchone("SELECT COALESCE(SUM(chips), 0) FROM tables WHERE guild_id = ?", (guild_id,))
        return Audit(int(granted[0]), int(wallets[0]), int(tables[0]))

    async def leaderboard(self, guild_id: int, by: str = "balance", offset: int = 0, limit: int = 10) -> list[dict]:
        if by == "net":
            rows = await self.db.fetchall(
                "SELECT user_id, net AS value FROM stats WHERE guild_id = ? AND user_id != 0"
                " ORDER BY net DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
        else:
            rows = await self.db.fetchall(
                "SELECT user_id, balance AS value FROM wallets WHERE guild_id = ? AND user_id != 0"
                " ORDER BY balance DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
        return [{"user_id": int(r["user_id"]), "value": int(r["value"])} for r in rows]

    async def leaderboard_size(self, guild_id: int, by: str = "balance") -> int:
        table = "stats" if by == "net" else "wallets"
        row = await self.db.fetchone(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ? AND user_id != 0", (guild_id,))
        return int(row[0])

    async def ledger(self, guild_id: int, user_id: int, limit: int = 20) -> list[dict]:
        rows = await self.db.fetchall(
            "SELECT * FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [dict(r) for r in rows]
