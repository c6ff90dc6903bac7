from __future__ import annotations

import random

import pytest

from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.tablelines import TABLE_LINES
from bot.settings import Settings
from bot.storage.database import Database
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database_url=f"sqlite:///{tmp_path / 'test.sqlite3'}",
        starting_balance=1000,
        turn_timeout=60,
        ai_pause=1.0,
        round_pause=3.0,
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, settings) -> str:
    """Each test that uses the database runs against SQLite and against PostgreSQL (a new
    database of its own, migrated, on the session's server)."""
    if request.param == "sqlite":
        return settings.database_path()
    return request.getfixturevalue("postgres_server").new_database()


@pytest.fixture(scope="module")
def restartable_postgres():
    """A PostgreSQL server of the module's own, which its tests may stop and start again
    (``halt``/``resume``, as a restart or a failover does); skipped where none can run."""
    from tests import pgserver

    reason = pgserver.unavailable()
    if reason:
        if pgserver.in_ci():
            pytest.fail(f"CI runs the PostgreSQL tests, but {reason}")
        pytest.skip(reason)
    server = pgserver.PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
async def db(database_url):
    database = await Database(database_url).connect()
    yield database
    await database.close()


@pytest.fixture
def bank(db) -> Bank:
    return Bank(db)


@pytest.fixture
def prefs(db, settings) -> Prefs:
    return Prefs(db, settings)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_manager(db, bank, prefs, settings, clock):
    def make(rng: random.Random | None = None, ai: AIPlayers | None = None, **overrides):
        """A manager with these settings ``overrides`` (``rng``: the table's, default seeded 7)."""
        s = settings.model_copy(update=overrides) if overrides else settings
        manager = TableManager(db, bank, prefs, s, TABLE_LINES, clock=clock, rng=rng or random.Random(7), ai=ai)
        manager.updates = []
        manager.registry.add_listener(manager.updates.append)
        return manager

    return make


@pytest.fixture
def manager(make_manager):
    return make_manager()
