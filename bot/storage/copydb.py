"""``python -m bot migrate-db FROM TO``: move a database (an SQLite file to PostgreSQL, typically)
to another, checked.

Both are brought to the current schema (the source as the bot's start would), the target must
hold no rows, every row of every table is copied in one transaction of the target (so a failure
leaves it empty), and the copy is checked before it is called done: the same rows in each table
and, server by server, the same conservation figures (:meth:`bot.economy.bank.Bank.audit`), which must
balance. The bot must not run on the source meanwhile (stop it first).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.economy.bank import Audit, Bank
from bot.storage.database import Database

BATCH = 1000  # rows per INSERT round trip


class MigrationRefused(ValueError):
    """The copy was not made (or not kept): the reason is for the operator."""


@dataclass(frozen=True)
class Moved:
    rows: dict[str, int]
    audits: dict[int, Audit]

    @property
    def chips(self) -> int:
        return sum(a.wallets + a.tables for a in self.audits.values())


async def audits(db: Database) -> dict[int, Audit]:
    """The conservation check of every server that has chips, wallets or tables."""
    rows = await db.fetchall(
        "SELECT guild_id FROM ledger UNION SELECT guild_id FROM wallets UNION SELECT guild_id FROM tables"
    )
    bank = Bank(db)
    return {int(r[0]): await bank.audit(int(r[0])) for r in sorted(rows, key=lambda r: int(r[0]))}


async def row_counts(db: Database, tables: Iterable[str]) -> dict[str, int]:
    return {name: int((await db.fetchone(f"SELECT COUNT(*) FROM {name}"))[0]) for name in tables}


async def migrate_database(source_url: str, target_url: str) -> Moved:
    """Copy every row of ``source_url`` into the empty ``target_url``; raises :class:`MigrationRefused`."""
    if source_url == target_url:
        raise MigrationRefused("FROM and TO are the same database")
    source = await Database(source_url).connect()
    try:
        target = await Database(target_url).connect()
        try:
            return await _copy(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Database, target: Database) -> Moved:
    tables = await source.table_columns()
    wanted = await target.table_columns()
    missing = sorted(set(tables) - set(wanted))
    if missing:
        raise MigrationRefused(f"the target has no table {', '.join(missing)}: is it the bot's database?")
    already = {name: n for name, n in (await row_counts(target, wanted)).items() if n}
    if already:
        held = ", ".join(f"{name} ({n} rows)" for name, n in sorted(already.items()))
        raise MigrationRefused(f"the target already holds rows: {held}; migrate into an empty database")
    before = await audits(source)
    unbalanced = sorted(g for g, a in before.items() if not a.ok)
    if unbalanced:
        raise MigrationRefused(f"the source fails its conservation check in servers {unbalanced}: not copied")
    counts = await row_counts(source, tables)
    async with target.transaction() as conn:
        for name, columns in tables.items():
            shared = [c for c in columns if c in wanted[name]]
            order = "id" if "id" in shared else ", ".join(shared)  # whole rows: equal ones are alike
            insert = f"INSERT INTO {name} ({', '.join(shared)}) VALUES ({', '.join('?' for _ in shared)})"
            for offset in range(0, counts[name], BATCH):
                rows = await source.fetchall(
                    f"SELECT {', '.join(shared)} FROM {name} ORDER BY {order} LIMIT ? OFFSET ?", (BATCH, offset)
                )
                await conn.executemany(insert, [tuple(row) for row in rows])
            fix_ids = target.dialect.after_copy(name, shared)
            if fix_ids:
                await conn.execute(fix_ids)
    copied, after = await row_counts(target, tables), await audits(target)
    if copied != counts or after != before:
        raise MigrationRefused(
            f"the copy differs from the source (rows {counts} → {copied}; audits {before} → {after}); "
            "empty the target before trying again"
        )
    return Moved(counts, after)
