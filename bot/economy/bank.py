"""Wallets, the ledger and the house account.

A wallet per user per server (``user_id`` 0 is the server's house account,
which funds AI seats from a finite bankroll). Every movement is one ledger row;
balances never go negative (checked in SQL). A row with a ``table_id`` moves
chips between a wallet and a table; a row without one brings chips into the
server (a grant: a starting balance, the house's bankroll, daily, relief, an
admin's grant) or takes them out (a removal: an admin's, a reset, a forgotten
player's wallet). So for each server, at all times (:meth:`Bank.audit`),

    sum(wallets) + sum(open tables' chips) == grants - removals

forget-me mints nothing: a forgotten player is remembered only as a keyed hash of (server id,
user id) (:meth:`Bank.forget`, PRIVACY.md), so coming back they start at 0 chips and their daily
and relief cooldowns go on. An admin's grant repeated by mistake (the same admin, wallet and
amount within :data:`REPEAT_WINDOW`) is refused until confirmed (:class:`RepeatedGrant`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.economy.forgetting import FORGOTTEN, entered_in_open_tournament, forget_in_tables, forget_in_tournaments
from bot.errors import HouseShort, NotAllowed, NotEnoughChips, OnCooldown, Refusal, RepeatedGrant
from bot.storage.database import Database
from bot.storage.dialect import Connection, Params, Row

HOUSE = 0
WEEK = "week"
LEADERBOARDS = ("balance", "net", "wins")
# The ledger kinds of grants that a player claims (their own cooldown each).
CLAIMS = ("daily", "relief")
FORGET_KEY = "forget-key"  # the installation's secret for the forgotten players' hashes
# Seconds in which the same admin's same grant (or removal) to the same wallet counts as a repeat
# made by mistake (the first answer lost to a Discord error, a double submit) and asks to confirm.
REPEAT_WINDOW = 300.0


@dataclass(frozen=True)
class Audit:
    """The conservation check: what wallets and tables hold against what came in and went out."""

    granted: int
    removed: int
    wallets: int
    tables: int  # chips on the open and closed tables (closed ones hold none), not quarantined ones
    frozen: int = 0  # chips on quarantined tables (bot.tables.quarantine): accounted for, not in play

    @property
    def ok(self) -> bool:
        return self.wallets + self.tables + self.frozen == self.granted - self.removed


def week_start(now: float) -> float:
    """Monday 00:00 UTC of the week ``now`` falls in: "this week" on the leaderboards."""
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return (day - timedelta(days=day.weekday())).timestamp()


async def _one(conn: Connection, sql: str, params: Params) -> Row:
    """One row of a statement inside the caller's transaction (or None)."""
    async with conn.execute(sql, params) as cur:
        return await cur.fetchone()


def forgotten_digest(key: bytes, guild_id: int, user_id: int) -> str:
    """What is kept of a forgotten player: HMAC-SHA256 of (server id, user id) under the
    installation's secret; without the secret it can't be turned back into a user id."""
    return hmac.new(key, f"{guild_id}:{user_id}".encode(), hashlib.sha256).hexdigest()


class Bank:
    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._forget_key: bytes | None = None  # read once it exists (it never changes)
        self.also_forget: list[Callable[..., Awaitable[None]]] = []  # (conn, guild, user): bot.competition's rows

    # -- helpers usable inside a caller's transaction -------------------------

    async def ensure_wallet(self, conn: Connection, guild_id: int, user_id: int, starting: int) -> int:
        """The wallet's balance; a new wallet is granted ``starting`` chips (the house: its bankroll).

        The wallet stays locked to the end of the caller's transaction (another process sharing
        a PostgreSQL database waits for it; with SQLite the transaction holds the whole database)."""
        row = await self._locked_wallet(conn, guild_id, user_id)
        if row is not None:
            return int(row[0])
        starting = max(0, int(starting))
        if starting and user_id != HOUSE and await self._remembered(conn, guild_id, user_id) is not None:
            starting = 0  # forgotten, and back: their starting balance was given once already
        async with conn.execute(
            "INSERT INTO wallets (guild_id, user_id, balance) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING balance",
            (guild_id, user_id, starting),
        ) as cur:
            created = await cur.fetchone()
        if created is None:  # another process opened it since we looked: theirs stands
            theirs = await self._locked_wallet(conn, guild_id, user_id)
            assert theirs is not None  # the insert found it there
            return int(theirs[0])
        if starting:
            kind, note = ("house-bankroll", "house bankroll") if user_id == HOUSE else ("grant", "starting balance")
            await self._ledger(conn, guild_id, user_id, starting, starting, kind, None, note)
        return starting

    async def _key(self, conn: Connection, create: bool = False) -> bytes | None:
        """The installation's secret for the forgotten players' hashes; None while nobody was ever
        forgotten. ``create``: made now if missing, inside the caller's transaction (so not kept
        here until that transaction is known to have committed)."""
        if self._forget_key is not None:
            return self._forget_key
        if create:
            await conn.execute(
                "INSERT OR IGNORE INTO installation (key, value) VALUES (?, ?)", (FORGET_KEY, secrets.token_hex(32))
            )
        row = await _one(conn, "SELECT value FROM installation WHERE key = ?", (FORGET_KEY,))
        if row is None:
            return None
        key = bytes.fromhex(row[0])
        if not create:
            self._forget_key = key
        return key

    async def _remembered(self, conn: Connection, guild_id: int, user_id: int) -> Row | None:
        """The forgotten-player row (``daily_at``, ``relief_at``) of this player, if they used forget-me here."""
        key = await self._key(conn)
        if key is None:
            return None
        return await _one(
            conn,
            "SELECT daily_at, relief_at FROM forgotten_players WHERE digest = ?",
            (forgotten_digest(key, guild_id, user_id),),
        )

    async def _last_claims(self, conn: Connection, guild_id: int, user_id: int) -> dict[str, float]:
        """When the player last claimed each grant of :data:`CLAIMS` (before a forget-me too)."""
        async with conn.execute(
            "SELECT kind, MAX(created_at) AS at FROM ledger WHERE guild_id = ? AND user_id = ?"
            " AND kind IN ('daily', 'relief') GROUP BY kind",
            (guild_id, user_id),
        ) as cur:
            last = {r[0]: float(r[1]) for r in await cur.fetchall()}
        remembered = await self._remembered(conn, guild_id, user_id)
        for i, kind in enumerate(CLAIMS):
            if remembered is not None and remembered[i] is not None:
                last[kind] = max(last.get(kind, float("-inf")), float(remembered[i]))
        return last

    @staticmethod
    async def _locked_wallet(conn: Connection, guild_id: int, user_id: int) -> Row | None:
        async with conn.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ? FOR UPDATE", (guild_id, user_id)
        ) as cur:
            return await cur.fetchone()

    async def _ledger(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        delta: int,
        balance: int,
        kind: str,
        table_id: int | None,
        note: str | None = None,
        actor_id: int | None = None,
    ) -> None:
        await conn.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance, kind, table_id, created_at, note, actor_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, delta, balance, kind, table_id, self.clock(), note, actor_id),
        )

    async def credit(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: str,
        table_id: int | None,
        note: str | None = None,
        actor_id: int | None = None,
    ) -> int:
        if amount < 0:
            raise ValueError("credit amount must not be negative")
        await self.ensure_wallet(conn, guild_id, user_id, 0)
        async with conn.execute(
            "UPDATE wallets SET balance = balance + ? WHERE guild_id = ? AND user_id = ? RETURNING balance",
            (amount, guild_id, user_id),
        ) as cur:
            balance = int((await cur.fetchone())[0])
        await self._ledger(conn, guild_id, user_id, amount, balance, kind, table_id, note, actor_id)
        return balance

    async def debit(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: str,
        table_id: int | None,
        note: str | None = None,
        actor_id: int | None = None,
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
            raise NotEnoughChips(Refusal.NOT_ENOUGH_CHIPS, amount=amount, have=have)
        balance = int(row[0])
        await self._ledger(conn, guild_id, user_id, -amount, balance, kind, table_id, note, actor_id)
        return balance

    async def _balance(self, conn: Connection, guild_id: int, user_id: int) -> int:
        row = await self._locked_wallet(conn, guild_id, user_id)
        return int(row[0]) if row else 0

    async def _table_chips(self, conn: Connection, table_id: int, delta: int) -> None:
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
        self, guild_id: int, user_id: int, table_id: int, amount: int, starting: int, conn: Connection | None = None
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

    async def house_buy_in(
        self, guild_id: int, table_id: int, amount: int, bankroll: int, conn: Connection | None = None
    ) -> int:
        """House → table for an AI seat. The house holds a finite bankroll (``bankroll`` is granted
        once, when the server's house account is opened): raises :class:`HouseShort` when it can't pay."""
        if conn is None:
            async with self.db.transaction() as conn:
                return await self.house_buy_in(guild_id, table_id, amount, bankroll, conn)
        have = await self.ensure_wallet(conn, guild_id, HOUSE, bankroll)
        if have < amount:
            raise HouseShort(Refusal.HOUSE_SHORT, amount=amount, have=have)
        balance = await self.debit(conn, guild_id, HOUSE, amount, "buy-in", table_id, "AI seat")
        await self._table_chips(conn, table_id, amount)
        return balance

    async def refund(
        self, guild_id: int, user_id: int, table_id: int, amount: int, conn: Connection | None = None
    ) -> int:
        """Table → wallet for a seat leaving an unstarted lobby."""
        if conn is None:
            async with self.db.transaction() as conn:
                return await self.refund(guild_id, user_id, table_id, amount, conn)
        await self._table_chips(conn, table_id, -amount)
        return await self.credit(conn, guild_id, user_id, amount, "refund", table_id)

    async def cash_out_all(
        self, conn: Connection, guild_id: int, table_id: int, payouts: list[tuple[int, int]], kind: str = "cash-out"
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

    # -- grants and removals (no table) -------------------------------------------

    async def claim(
        self,
        guild_id: int,
        user_id: int,
        kind: str,
        amount: int,
        cooldown: float,
        starting: int,
        below: int | None = None,
    ) -> int:
        """A player's ``daily`` or ``relief`` grant: ``amount`` chips once per ``cooldown`` seconds
        (``below``: only while the wallet holds fewer chips). Returns the new balance; refusals
        (:class:`OnCooldown`, :class:`NotAllowed`) change nothing."""
        if kind not in CLAIMS:
            raise ValueError(f"unknown claim {kind!r}")
        async with self.db.transaction() as conn:
            balance = await self.ensure_wallet(conn, guild_id, user_id, starting)
            last = (await self._last_claims(conn, guild_id, user_id)).get(kind)
            now = self.clock()
            if last is not None and now < last + cooldown:
                raise OnCooldown(
                    Refusal.ON_COOLDOWN, last + cooldown, kind=kind, wait=last + cooldown - now, balance=balance
                )
            if below is not None and balance >= below:
                raise NotAllowed(Refusal.RELIEF_NOT_NEEDED, below=below, balance=balance)
            if amount <= 0:
                raise NotAllowed(Refusal.GRANT_OFF, kind=kind)
            return await self.credit(conn, guild_id, user_id, amount, kind, None, f"{kind} grant")

    async def adjust(
        self, guild_id: int, user_id: int, amount: int, actor_id: int, starting: int, after: int | None = None
    ) -> tuple[int, int]:
        """An admin's grant (``amount`` > 0) or removal (< 0, at most what the wallet holds: a wallet
        never goes below 0). ``starting``: a new wallet's starting balance (the house: its bankroll).
        Returns (chips moved, new balance).

        The same admin making the same change to the same wallet within :data:`REPEAT_WINDOW` is
        refused with :class:`RepeatedGrant` (a repeat made by mistake); ``after``: the ledger row
        the admin confirmed repeating (only a change newer than it is a repeat again, so a double
        click on the confirmation still applies once)."""
        async with self.db.transaction() as conn:
            balance = await self.ensure_wallet(conn, guild_id, user_id, starting)
            if amount:
                await self._refuse_repeat(conn, guild_id, user_id, amount, actor_id, after)
            if amount >= 0:
                return amount, await self.credit(conn, guild_id, user_id, amount, "admin-grant", None, None, actor_id)
            taken = min(-amount, balance)
            new = await self.debit(conn, guild_id, user_id, taken, "admin-removal", None, None, actor_id)
            return -taken, new

    async def _refuse_repeat(
        self, conn: Connection, guild_id: int, user_id: int, amount: int, actor_id: int, after: int | None
    ) -> None:
        row = await _one(
            conn,
            "SELECT id, created_at FROM ledger WHERE guild_id = ? AND user_id = ? AND kind IN ('admin-grant', 'admin-removal')"
            " AND actor_id = ? AND delta = ? AND created_at >= ? AND id > ? ORDER BY id DESC LIMIT 1",
            (guild_id, user_id, actor_id, amount, self.clock() - REPEAT_WINDOW, after or 0),
        )
        if row is not None:
            raise RepeatedGrant(Refusal.REPEATED_GRANT, int(row[0]), amount=amount, ago=self.clock() - float(row[1]))

    async def reset(self, guild_id: int, actor_id: int, starting: int, bankroll: int) -> int:
        """Every wallet of the server back to the starting balance (the house: to its bankroll), each
        change a ``reset`` row naming the admin. Refused while a table holds chips (a lobby or a
        game), checked in the same transaction. Returns the number of wallets reset."""
        async with self.db.transaction() as conn:
            async with conn.execute(
                "SELECT COUNT(*) FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')", (guild_id,)
            ) as cur:
                if (await cur.fetchone())[0]:
                    raise NotAllowed(Refusal.TABLES_OPEN)
            await self.ensure_wallet(conn, guild_id, HOUSE, bankroll)
            async with conn.execute(  # (not the tournaments' pots and stacks: negative ids, bot/tournaments)
                "SELECT user_id, balance FROM wallets WHERE guild_id = ? AND user_id >= 0 ORDER BY user_id FOR UPDATE",
                (guild_id,),
            ) as cur:
                wallets = [(int(r[0]), int(r[1])) for r in await cur.fetchall()]
            for user_id, balance in wallets:
                target = bankroll if user_id == HOUSE else starting
                if target == balance:
                    continue
                await conn.execute(
                    "UPDATE wallets SET balance = ? WHERE guild_id = ? AND user_id = ?", (target, guild_id, user_id)
                )
                await self._ledger(
                    conn, guild_id, user_id, target - balance, target, "reset", None, "economy reset", actor_id
                )
            return len(wallets)

    async def forget(self, guild_id: int, user_id: int, still_seated: Callable[[], bool]) -> int:
        """Remove a player's wallet (its chips: a ``forget`` removal) and stats in this server, and
        anonymise their ledger rows (kept, so the totals still add up) and the names stored with
        finished games. ``still_seated`` is asked inside the transaction (a join racing this one
        is either seen or comes after). Returns the chips removed."""
        if user_id in (HOUSE, FORGOTTEN):
            raise ValueError("the house cannot be forgotten")
        async with self.db.transaction() as conn:
            if still_seated():
                raise NotAllowed(Refusal.STILL_SEATED)
            if await entered_in_open_tournament(conn, guild_id, user_id):
                raise NotAllowed(Refusal.STILL_ENTERED)
            wallet = await self._locked_wallet(conn, guild_id, user_id)
            if wallet is not None:  # their starting balance was given: remember that, and their cooldowns
                await self._remember_forgotten(conn, guild_id, user_id)
            balance = int(wallet[0]) if wallet is not None else 0
            if balance:
                await self.debit(conn, guild_id, user_id, balance, "forget", None, "player forgotten")
            await conn.execute("DELETE FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
            await conn.execute("DELETE FROM stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
            for column in ("user_id", "actor_id"):
                sql = f"UPDATE ledger SET {column} = ? WHERE guild_id = ? AND {column} = ?"
                await conn.execute(sql, (FORGOTTEN, guild_id, user_id))
            # inside this transaction: all or nothing
            for scrub in (forget_in_tables, forget_in_tournaments, *self.also_forget):
                await scrub(conn, guild_id, user_id)
            return balance

    async def _remember_forgotten(self, conn: Connection, guild_id: int, user_id: int) -> None:
        """Inside forget's transaction: the player's hash, with their last claims (the newest kept)."""
        last = await self._last_claims(conn, guild_id, user_id)
        key = await self._key(conn, create=True)
        assert key is not None  # created just now if it was missing
        await conn.execute(
            "INSERT INTO forgotten_players (digest, daily_at, relief_at) VALUES (?, ?, ?)"
            " ON CONFLICT (digest) DO UPDATE SET daily_at = excluded.daily_at, relief_at = excluded.relief_at",
            (forgotten_digest(key, guild_id, user_id), *(last.get(kind) for kind in CLAIMS)),
        )

    # -- reading --------------------------------------------------------------

    async def audit(self, guild_id: int) -> Audit:
        flows = await self.db.fetchone(
            "SELECT COALESCE(SUM(MAX(delta, 0)), 0), COALESCE(SUM(MAX(-delta, 0)), 0) FROM ledger"
            " WHERE guild_id = ? AND table_id IS NULL",
            (guild_id,),
        )
        wallets = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = ?", (guild_id,)
        )
        tables = await self.db.fetchone(
            "SELECT COALESCE(SUM(CASE WHEN status = 'quarantined' THEN 0 ELSE chips END), 0),"
            " COALESCE(SUM(CASE WHEN status = 'quarantined' THEN chips ELSE 0 END), 0) FROM tables WHERE guild_id = ?",
            (guild_id,),
        )
        return Audit(int(flows[0]), int(flows[1]), int(wallets[0]), int(tables[0]), int(tables[1]))

    async def last_claims(self, guild_id: int, user_id: int) -> dict[str, float]:
        """When the player last claimed each grant of :data:`CLAIMS` (before a forget-me too)."""
        async with self.db.transaction() as conn:
            return await self._last_claims(conn, guild_id, user_id)

    def _board_query(self, by: str, period: str | None) -> str:
        """``SELECT user_id, value`` rows of one leaderboard (parameters: guild id, then the week's
        start for :data:`WEEK`)."""
        if by not in LEADERBOARDS:
            raise ValueError(f"unknown leaderboard {by!r}")
        if by == "balance":
            return "SELECT user_id, balance AS value FROM wallets WHERE guild_id = ? AND user_id > 0"
        if period != WEEK:
            column = "net" if by == "net" else "wins"
            return f"SELECT user_id, {column} AS value FROM stats WHERE guild_id = ? AND user_id > 0"
        # This week: from the results of the games that ended since Monday.
        field_ = "$.net" if by == "net" else "$.winner"
        return (
            f"SELECT json_extract(s.value, '$.user_id') AS user_id, SUM(json_extract(s.value, '{field_}')) AS value"
            " FROM tables t, json_each(t.result_json, '$.seats') s"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND t.ended_at >= ?"
            " AND json_extract(s.value, '$.user_id') > 0 GROUP BY 1"
        )

    def _board_params(self, guild_id: int, by: str, period: str | None) -> tuple[int | float, ...]:
        if by != "balance" and period == WEEK:
            return (guild_id, week_start(self.clock()))
        return (guild_id,)

    async def leaderboard(
        self, guild_id: int, by: str = "balance", offset: int = 0, limit: int = 10, period: str | None = None
    ) -> list[dict[str, int]]:
        """One page of a leaderboard: ``by`` balance, net winnings or games won; ``period``
        :data:`WEEK` (games ended since Monday 00:00 UTC) or None (all time; balance is always now)."""
        rows = await self.db.fetchall(
            f"SELECT user_id, value FROM ({self._board_query(by, period)}) AS board ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
            (*self._board_params(guild_id, by, period), limit, offset),
        )
        return [{"user_id": int(r["user_id"]), "value": int(r["value"])} for r in rows]

    async def leaderboard_size(self, guild_id: int, by: str = "balance", period: str | None = None) -> int:
        row = await self.db.fetchone(
            f"SELECT COUNT(*) FROM ({self._board_query(by, period)}) AS board", self._board_params(guild_id, by, period)
        )
        return int(row[0])

    async def ledger(self, guild_id: int, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
        rows = await self.db.fetchall(
            "SELECT * FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [dict(r) for r in rows]
