"""The schema's migrations: ``bot/storage/migrations/NNNN_name.sql``, written for SQLite, applied in
order (each in its own transaction) and recorded in ``schema_version``; and the guard against a
database that a newer version of the bot migrated (:class:`SchemaTooNew`)."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage.dialect import POSTGRES, PostgresConnection, SqliteConnection

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w\-]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise RuntimeError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate migration numbers in {directory}")
    return found


def known_version(directory: Path = MIGRATIONS_DIR) -> int:
    """The newest schema version this code can make (and so read)."""
    return max((m.version for m in load_migrations(directory)), default=0)


class SchemaTooNew(Exception):
    """The database was migrated by a newer version of the bot: this code must neither read nor write
    it (its tables may mean something this code does not know). Not a database fault: no retry helps."""

    def __init__(self, found: int, known: int) -> None:
        self.found, self.known = found, known
        super().__init__(
            f"the database is at schema version {found}, newer than this version of the bot knows ({known}):"
            " a newer version used it; run that version, or restore a backup this version made"
        )


def refuse_newer(found: int, directory: Path = MIGRATIONS_DIR) -> None:
    known = known_version(directory)
    if found > known:
        raise SchemaTooNew(found, known)


@dataclass(frozen=True)
class MigrationStatus:
    """What ``python -m bot migrations`` shows: the applied migrations (version, name, when) and those
    this code would apply at the next start."""

    applied: list[tuple[int, str, float]]
    pending: list[Migration]


# The advisory lock that makes processes starting together apply each migration once.
MIGRATION_LOCK = 0x7472_6970  # "trip"
SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
)


def _recorded(migration: Migration) -> str:
    return (
        f"INSERT INTO schema_version (version, name, applied_at) VALUES"
        f" ({migration.version}, '{migration.name}', {time.time()})"
    )


async def apply_on_sqlite(conn: SqliteConnection, migration: Migration) -> None:
    """One migration in its own transaction (``executescript`` commits by itself: the script is
    wrapped in ``BEGIN IMMEDIATE`` … ``COMMIT``), rolled back if it fails."""
    log.info("applying migration %s", migration.name)
    script = "BEGIN IMMEDIATE;\n" + migration.sql + f"\n;{_recorded(migration)};\nCOMMIT;"
    try:
        await conn.raw.executescript(script)
    except Exception:
        if conn.in_transaction:
            await conn.raw.execute("ROLLBACK")
        raise


async def apply_on_postgres(conn: PostgresConnection, migration: Migration | None) -> bool:
    """One migration (None: the schema_version table) in its own transaction, under an advisory
    lock so that processes starting together apply it once; False if it was applied already."""
    raw = conn.raw
    async with raw.transaction():
        await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        if migration is None:
            await raw.execute(POSTGRES.ddl(SCHEMA_VERSION_DDL))
            return False
        if await raw.fetchval("SELECT 1 FROM schema_version WHERE version = $1", migration.version):
            return False
        log.info("applying migration %s", migration.name)
        await raw.execute(POSTGRES.ddl(migration.sql) + f"\n;{_recorded(migration)}")
        # A table the migration rebuilt got its rows back with their ids: its identity follows.
        for (table,) in await raw.fetch(POSTGRES.sql(POSTGRES.ID_TABLES)):
            await raw.execute(POSTGRES.after_copy(table, ["id"]))
        return True
