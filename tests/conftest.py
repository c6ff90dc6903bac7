"""Shared test set-up.

- Puts the repository root first on sys.path so `tests.fakediscord` (and the project packages,
  rather than same-named folders under tests/) import the same way under `pytest` and `python -m pytest`.
- Makes the fake-Discord fixtures (tests/fakediscord/fixtures.py) available to every test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.fakediscord.fixtures import discord_harness  # noqa: E402,F401


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for the whole session (tests/pgserver.py), started on first use:
    skipped with the reason where none can run, but in CI (CI=true), where it must."""
    from tests import pgserver

    reason = pgserver.unavailable()
    if reason:
        if pgserver.in_ci():
            pytest.fail(f"CI runs the PostgreSQL tests, but {reason}")
        pytest.skip(reason)
    server = pgserver.PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    """Headless chromium for the whole session (tests/browser.py), started on first use: skipped with
    the reason where none can run, but in CI (CI=true), where it must."""
    from tests import browser as chromium
    from tests import pgserver

    reason = chromium.unavailable()
    if reason:
        if pgserver.in_ci():
            pytest.fail(f"CI runs the browser tests, but {reason}")
        pytest.skip(reason)
    started = chromium.Browser().start()
    yield started
    started.stop()
