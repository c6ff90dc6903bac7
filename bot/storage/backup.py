"""``python -m bot backup PATH``: a consistent copy of the SQLite database while the bot runs."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.storage.schema import refuse_newer


def backup(source: str, destination: str) -> int:
    """Copy the SQLite database ``source`` to the new file ``destination``; return its schema version.

    SQLite's online backup API copies one consistent snapshot in a single step, so it is safe while
    the bot runs and writes (in WAL mode the reader blocks no writer). The copy is a single
    self-contained file (journal mode DELETE), checked before it is moved into place."""
    if source == ":memory:":
        raise ValueError("the database is in memory (sqlite:///:memory:): there is nothing to back up")
    if not Path(source).is_file():
        raise ValueError(f"there is no database at {source}")
    target = Path(destination)
    if target.exists():
        raise ValueError(f"{destination} already exists: back up to a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as copy:
            src.execute("PRAGMA busy_timeout=5000")
            src.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise ValueError(f"the copy failed its integrity check: {verdict}")
            (version,) = copy.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            refuse_newer(int(version))
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return int(version)
