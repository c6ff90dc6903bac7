"""Quarantine: a saved table that cannot be loaded never stops the bot.

At start-up each open table is loaded on its own (:meth:`bot.tables.timers.Timers.resume`). One
whose saved state is unreadable, does not hold the chips its row says, or fails as it resumes is
quarantined: its row gets the status ``quarantined`` with the reason (so its channel is free for a
new table and it is never loaded again), and in the same transaction its chips go back to the
wallets that paid them. The ledger says who paid what (every buy-in and refund of the table is a
row of it, whatever happened to the saved state), so the game is void: each player, and the house
for the AI seats, gets their stake back.

When the ledger cannot tell (a share paid by a player who has since been forgotten, or rows that
don't add up to the table's chips), the chips stay on the row, frozen and listed by the audit,
until an operator runs ``python -m bot repair TABLE_ID`` (:func:`repair`: a forgotten player's
share goes to the house).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.economy.bank import HOUSE, Bank
from bot.economy.forgetting import FORGOTTEN
from bot.storage.database import Database
from bot.storage.dialect import Connection
from bot.tables.model import TableStatus

log = logging.getLogger(__name__)

REFUND = "quarantine-refund"  # the ledger kind of the chips a quarantined table gives back


class CorruptTable(ValueError):
    """A saved table that loads but cannot be right (no game while playing, chips that differ)."""


@dataclass(frozen=True)
class Plan:
    """Who gets what back from a quarantined table; ``problem``: why it can't be done (None: it can)."""

    payouts: list[tuple[int, int]]
    problem: str | None = None


async def refund_plan(conn: Connection, table_id: int, chips: int, forgotten_to_house: bool = False) -> Plan:
    """Every account's stake at the table, from the ledger (its buy-ins less its refunds)."""
    async with conn.execute(
        "SELECT user_id, SUM(delta) FROM ledger WHERE table_id = ? GROUP BY user_id ORDER BY user_id", (table_id,)
    ) as cur:
        rows = [(int(r[0]), -int(r[1])) for r in await cur.fetchall()]
    paid: dict[int, int] = {}
    for user_id, stake in rows:
        if stake == 0:
            continue
        if user_id == FORGOTTEN and not forgotten_to_house:
            return Plan([], f"{stake} of its chips were paid by a player who has been forgotten since")
        account = HOUSE if user_id == FORGOTTEN else user_id
        paid[account] = paid.get(account, 0) + stake
    payouts = sorted(paid.items())
    if any(stake < 0 for _, stake in payouts):
        return Plan([], "its ledger rows pay some account more than it paid in")
    if sum(stake for _, stake in payouts) != chips:
        return Plan([], f"its ledger rows account for {sum(s for _, s in payouts)} chips, but it holds {chips}")
    return Plan(payouts)


async def quarantine(db: Database, bank: Bank, table_id: int, reason: str, when: float) -> Plan:
    """Quarantine an open table and give its chips back if the ledger can tell (the plan: its
    ``problem`` says why the chips stay frozen). A table closed already is left as it is."""
    async with db.transaction() as conn:
        async with conn.execute(
            "SELECT guild_id, status, chips FROM tables WHERE id = ? FOR UPDATE", (table_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None or row["status"] not in (TableStatus.LOBBY, TableStatus.PLAYING):
            return Plan([], "it is not open")
        chips = int(row["chips"])
        await conn.execute(
            "UPDATE tables SET status = 'quarantined', quarantine_reason = ?, quarantined_at = ?, ended_at = ?"
            " WHERE id = ?",
            (reason[:1000], when, when, table_id),
        )
        plan = await refund_plan(conn, table_id, chips)
        if plan.problem is None and chips:
            await bank.cash_out_all(conn, int(row["guild_id"]), table_id, plan.payouts, kind=REFUND)
    if plan.problem is None:
        log.error(
            "table %s quarantined (%s); its %s chips went back to the wallets that paid them", table_id, reason, chips
        )
    else:
        log.error(
            "table %s quarantined (%s); its %s chips stay frozen because %s: run `python -m bot repair %s`",
            table_id,
            reason,
            chips,
            plan.problem,
            table_id,
        )
    return plan


async def repair(db: Database, bank: Bank, table_id: int) -> str:
    """The operator's repair: a quarantined table's frozen chips back to the wallets that paid them
    (a forgotten player's share to the house). One line saying what was done; raises
    :class:`ValueError` with the reason when nothing can be."""
    async with db.transaction() as conn:
        async with conn.execute(
            "SELECT guild_id, status, chips FROM tables WHERE id = ? FOR UPDATE", (table_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            raise ValueError(f"there is no table {table_id}")
        if row["status"] != TableStatus.QUARANTINED:
            raise ValueError(f"table {table_id} is not quarantined (it is {row['status']})")
        chips = int(row["chips"])
        if not chips:
            return f"table {table_id} holds no chips: nothing to repair"
        plan = await refund_plan(conn, table_id, chips, forgotten_to_house=True)
        if plan.problem is not None:
            raise ValueError(f"table {table_id} can't be repaired: {plan.problem}; its chips stay frozen")
        await bank.cash_out_all(conn, int(row["guild_id"]), table_id, plan.payouts, kind=REFUND)
    shares = ", ".join(f"{'the house' if user == HOUSE else f'user {user}'} {amount}" for user, amount in plan.payouts)
    return f"table {table_id}: {chips} chips returned ({shares})"
