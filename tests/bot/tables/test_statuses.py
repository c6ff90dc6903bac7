"""A table's status is one vocabulary: ``TableStatus`` in Python, the same values in SQL. The SQL keeps
its literals (a CHECK and a partial index can only name values), so this keeps them in step: the
schema allows exactly the enum's values, and every status the bot's SQL names is one of them. A
tournament's status (bot.tournaments, its own table) is kept the same way beside it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.schema import load_migrations
from bot.tables.model import TableStatus
from bot.tournaments.model import TournamentStatus

ROOT = Path(__file__).resolve().parents[3]
STATUS_CHECK = re.compile(r"status\s+TEXT\s+NOT\s+NULL\s+CHECK\s*\(status\s+IN\s*\(([^)]*)\)\)", re.IGNORECASE)
# status = 'x', status != 'x', status IN ('x', 'y'), SET status = 'x'
STATUS_IN_SQL = re.compile(r"status\s*(?:=|!=|<>|\bIN\b)\s*\(?((?:\s*'[a-z]+'\s*,?)+)\)?", re.IGNORECASE)


def literals(text: str) -> set[str]:
    return set(re.findall(r"'([a-z]+)'", text))


def test_the_schema_allows_exactly_the_statuses() -> None:
    checks = {
        migration.name: literals(m.group(1))
        for migration in load_migrations()
        for m in STATUS_CHECK.finditer(migration.sql)
    }
    tournaments = {name: values for name, values in checks.items() if "tournament" in name}
    tables = [values for name, values in checks.items() if "tournament" not in name]
    assert tables, "no CHECK on tables.status found in the migrations"
    assert tables[-1] == {s.value for s in TableStatus}  # the newest tables table's CHECK
    assert list(tournaments.values()) == [{s.value for s in TournamentStatus}]


def test_every_status_the_sql_names_is_a_table_status() -> None:
    named: dict[str, set[str]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in STATUS_IN_SQL.finditer(text):
            named.setdefault(str(path.relative_to(ROOT)), set()).update(literals(match.group(1)))
    assert {"bot/tables/store.py", "bot/tables/quarantine.py", "bot/economy/bank.py"} <= set(named)
    known = {s.value for s in TableStatus} | {s.value for s in TournamentStatus}
    unknown = {path: words - known for path, words in named.items()}
    assert not any(unknown.values()), unknown


def test_the_privacy_sweeps_name_the_open_and_closed_statuses() -> None:
    """bot/economy sits below bot/tables (whose model imports the bank), so its SQL fragments are
    literals too: the open tables, and the closed ones a retention sweep may delete."""
    from bot.economy.privacy import CLOSED, OPEN

    assert set(OPEN) == {TableStatus.LOBBY, TableStatus.PLAYING}
    assert set(CLOSED) == {TableStatus.FINISHED, TableStatus.CANCELLED}
