"""What a database fault means: every form of the database being away (SQLite read-only, an I/O
error, a full disk, locked by another program, a file that can't be opened or is corrupt;
PostgreSQL's connection lost, a shutdown, a read-only transaction, a full disk, too many
connections) is one :func:`fault_of`, :data:`BUSY` or :data:`LOST`; anything else (a constraint, a
bug) stays an error (:class:`bot.storage.database.Database` retries the first, never the second)."""

from __future__ import annotations

import errno
import sqlite3
from types import TracebackType

import asyncpg

# The drivers' errors (a lost connection, a locked or full SQLite file, a failed statement), counted
# for the metrics; a refusal that rolls a transaction back is not one.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class ErrorCount:
    """``async with errors:`` around a database operation counts the driver errors that leave it."""

    def __init__(self) -> None:
        self.total = 0

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(exc, DRIVER_ERRORS):
            self.total += 1


# What a database fault means for the connection that met it.
BUSY = "busy"  # locked, full, a serialisation failure: try again on the same connection
LOST = "lost"  # the connection is gone (a restart, a failover, an I/O error): reopen it
_SQLITE_BUSY = {5, 6, 13}  # SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL
# SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_PROTOCOL,
# SQLITE_NOTADB. Reopened: a file that became read-only (a filesystem remounted read-only after disk
# errors) is opened read-only from then on, and only a new connection writes once it is writable again.
_SQLITE_LOST = {3, 8, 10, 11, 14, 15, 26}


def disk_full(exc: BaseException) -> bool:
    """Whether the fault is a full disk (SQLITE_FULL, ENOSPC, PostgreSQL's disk_full): no retry
    cures that by itself, an operator must act, so it is logged as an error, not a warning."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", 0) & 0xFF == 13
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    return isinstance(exc, asyncpg.DiskFullError)


def fault_of(exc: BaseException) -> str | None:
    """:data:`BUSY` or :data:`LOST` for a fault of the database that trying again may cure; None
    for anything else (a bug, a constraint: trying again would fail the same way)."""
    if isinstance(exc, sqlite3.DatabaseError):  # (a constraint, a syntax error: codes in neither set)
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        return BUSY if code in _SQLITE_BUSY else LOST if code in _SQLITE_LOST else None
    if isinstance(
        exc,
        (
            asyncpg.PostgresConnectionError,  # class 08: the connection failed or does not exist
            asyncpg.OperatorInterventionError,  # 57P0x: shut down, crashed, starting up
            asyncpg.TooManyConnectionsError,
            asyncpg.ReadOnlySQLTransactionError,  # 25006: a standby (a failover's new primary is elsewhere)
            OSError,  # refused, reset, unreachable
            TimeoutError,  # connecting took too long
        ),
    ):
        return LOST
    if isinstance(exc, asyncpg.InsufficientResourcesError):  # class 53: disk full, out of memory
        return BUSY
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return LOST  # a query on a connection that is closed already
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        return LOST  # the client's protocol state broke with the connection ("cannot switch to state")
    if isinstance(exc, asyncpg.TransactionRollbackError):  # serialisation failure, deadlock
        return BUSY
    return None


def contention(exc: BaseException) -> bool:
    """A transaction refused because another one got in its way (PostgreSQL's serialisation
    failure or deadlock): trying it again is enough, the database is not away."""
    return isinstance(exc, asyncpg.TransactionRollbackError)
