"""A process of a cluster owns the servers of its shards (SHARD_COUNT, SHARD_IDS)."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from tests.bot.tables.test_manager import lobby


def guild_in_shard(shard: int, count: int = 2) -> int:
    return (1000 + shard) << 22 if (1000 + shard) % count == shard else (1001 + shard) << 22


def test_a_server_belongs_to_the_shard_discord_routes_it_to(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/tripoley")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3,1")
    settings = load_settings(_env_file=None)
    assert settings.shards() == (1, 3)
    assert [settings.owns_guild(n << 22) for n in range(8)] == [False, True, False, True] * 2
    monkeypatch.delenv("SHARD_IDS")
    assert load_settings(_env_file=None).shards() == (0, 1, 2, 3)
    monkeypatch.delenv("SHARD_COUNT")
    everything = load_settings(_env_file=None)
    assert everything.shards() is None and everything.owns_guild(12345 << 22)


@pytest.mark.parametrize(
    "env, reason",
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "each shard once, each from 0 to 1"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0,0"}, "each shard once"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "not a list of shard numbers"),
        ({"SHARD_COUNT": "0"}, "a whole number of shards from 1 to 10000"),
    ],
)
def test_bad_shard_settings_are_one_line_each(monkeypatch, env, reason):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    (line,) = caught.value.lines
    assert reason in line and "\n" not in line


def test_a_process_with_some_of_the_shards_needs_postgresql(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/t.sqlite3")
    monkeypatch.setenv("SHARD_COUNT", "2")
    assert load_settings(_env_file=None).shards() == (0, 1)  # every shard in one process: SQLite will do
    monkeypatch.setenv("SHARD_IDS", "1")
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    (line,) = caught.value.lines
    assert line.startswith("SHARD_IDS='1'") and "needs a PostgreSQL DATABASE_URL" in line
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/tripoley")
    assert load_settings(_env_file=None).shards() == (1,)


async def test_a_process_resumes_only_the_tables_of_its_shards(make_manager):
    first = make_manager()
    table = await lobby(first, ai=1)
    await first.lobby.create_table(guild_in_shard(1), 900, 11, "ann", "tripoley", {}, buy_in=100)
    await first.store.flush()
    shard_of_table = (table.guild_id >> 22) % 2
    mine = make_manager(shard_count=2, shard_ids=(shard_of_table,))
    theirs = make_manager(shard_count=2, shard_ids=(1 - shard_of_table,))
    assert [t.guild_id for t in await mine.timers.resume()] == [table.guild_id]
    assert [(t.guild_id >> 22) % 2 for t in await theirs.timers.resume()] == [1 - shard_of_table]
