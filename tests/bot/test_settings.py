"""Every bad setting is one line naming it and what it accepts (bot.settings.load_settings)."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, database_path, load_settings


def problems(monkeypatch, **env) -> list[str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    return caught.value.lines


@pytest.mark.parametrize(
    "name, value, reason",
    [
        ("DATABASE_URL", "postgres://bot:hunter2@db.example:99999/tripoley", "the port is not a number"),
        ("DATABASE_URL", "mysql://bot@db.example/tripoley", "mysql:// is not a database the bot can use"),
        ("DATABASE_URL", "nonsense", "not an sqlite:/// URL"),
        ("DATABASE_URL", "sqlite:///", "the path is empty"),
        ("DATABASE_URL", "sqlite://relative.db", "three slashes"),
        ("DATABASE_URL", "sqlite:////proc/tripoley/t.sqlite3", "cannot write /proc/tripoley/t.sqlite3"),
        ("LOG_LEVEL", "nonsense", "DEBUG / INFO / WARNING / ERROR / CRITICAL"),
        ("LOG_FILE", "/proc/tripoley.log", "cannot write /proc/tripoley.log"),
        ("DEFAULT_PRESET", "nope", "one of tripoley, tripoley-optional-suit"),
        ("TURN_TIMEOUT", "abc", "a number of seconds greater than 0"),
        ("TURN_TIMEOUT", "-1", "a number of seconds greater than 0"),
        ("RENDER_PROCESSES", "99", "a whole number from 0 to 16"),
        ("REST_RATE", "-5", "a number of requests a second from 0 (no pacing)"),
        ("AI_PROCESSES", "-1", "a whole number from 0 to 16"),
        ("DEV_GUILD_ID", "my-server", "a server id"),
        ("DISCORD_API_BASE", "discord.example", "an http(s):// URL"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(monkeypatch, name, value, reason):
    (line,) = problems(monkeypatch, **{name: value})
    assert line.startswith(f"{name}=") and reason in line and "\n" not in line
    assert "validation error" not in line and "pydantic" not in line


# Amounts beyond what the database's integers hold, infinite or undefined times: each one refused.
TOO_BIG = str(2**64)
UNBOUNDED = [
    ("STARTING_BALANCE", TOO_BIG),
    ("DAILY_AMOUNT", "1000000001"),
    ("RELIEF_AMOUNT", TOO_BIG),
    ("HOUSE_BANKROLL", TOO_BIG),
    ("TURN_TIMEOUT", "inf"),
    ("TURN_TIMEOUT", "nan"),
    ("TURN_TIMEOUT", "1e300"),
    ("AI_PAUSE", "inf"),
    ("ROUND_PAUSE", "nan"),
    ("CLAIM_TIMEOUT", "infinity"),
    ("LOBBY_TIMEOUT", "-inf"),
    ("DAILY_COOLDOWN_HOURS", "inf"),
    ("RELIEF_COOLDOWN_HOURS", "nan"),
    ("REST_RATE", "inf"),
    ("TIMEOUTS_BEFORE_AI", TOO_BIG),
    ("SHARD_COUNT", TOO_BIG),
    ("DEV_GUILD_ID", TOO_BIG),
    ("DEV_GUILD_ID", "-5"),
]


@pytest.mark.parametrize("name, value", UNBOUNDED)
def test_amounts_and_times_are_bounded(monkeypatch, name, value):
    (line,) = problems(monkeypatch, **{name: value})
    assert line.startswith(f"{name}=") and "it accepts" in line and "\n" not in line, line


def test_every_unbounded_value_is_its_own_line(monkeypatch):
    env = {name: value for name, value in UNBOUNDED}  # one value per setting
    assert sorted(line.split("=")[0] for line in problems(monkeypatch, **env)) == sorted(env)


def test_the_largest_accepted_values(monkeypatch):
    for name in ("STARTING_BALANCE", "DAILY_AMOUNT", "RELIEF_AMOUNT", "HOUSE_BANKROLL"):
        monkeypatch.setenv(name, "1000000000")
    monkeypatch.setenv("TURN_TIMEOUT", "86400")
    monkeypatch.setenv("LOBBY_TIMEOUT", "604800")
    settings = load_settings(_env_file=None)
    assert settings.house_bankroll == 10**9 and settings.turn_timeout == 86400


def test_every_bad_setting_is_reported_at_once(monkeypatch):
    lines = problems(monkeypatch, TURN_TIMEOUT="abc", LOG_LEVEL="loud", DEFAULT_PRESET="nope")
    assert sorted(line.split("=")[0] for line in lines) == ["DEFAULT_PRESET", "LOG_LEVEL", "TURN_TIMEOUT"]


def test_secrets_are_never_quoted(monkeypatch):
    (line,) = problems(monkeypatch, DATABASE_URL="postgresql://bot:hunter2@db.example:port/tripoley")
    assert "hunter2" not in line and "db.example" in line


def test_postgresql_urls_are_accepted(monkeypatch):
    for url in ("postgresql://bot:hunter2@db.example:5432/tripoley", "postgres://bot@/tripoley?host=/run/postgresql"):
        monkeypatch.setenv("DATABASE_URL", url)
        settings = load_settings(_env_file=None)
        assert settings.is_postgres() and settings.database_path() == url


def test_a_database_location_that_is_not_a_folder_or_not_sqlite(monkeypatch, tmp_path):
    (tmp_path / "file").write_text("x")
    (line,) = problems(monkeypatch, DATABASE_URL=f"sqlite:///{tmp_path}/file/t.sqlite3")
    assert f"{tmp_path}/file is not a folder" in line
    (line,) = problems(monkeypatch, DATABASE_URL=f"sqlite:///{tmp_path}/file")
    assert "is not an SQLite database" in line


def test_good_settings_and_empty_values_mean_the_default(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/new/folder/t.sqlite3")
    monkeypatch.setenv("TURN_TIMEOUT", "")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    monkeypatch.setenv("DEFAULT_PRESET", "rummoli")
    settings = load_settings(_env_file=None)
    assert settings.turn_timeout == 60 and settings.log_level == "WARNING" and settings.default_preset == "rummoli"
    assert settings.database_path() == f"{tmp_path}/new/folder/t.sqlite3"
    assert not (tmp_path / "new").exists(), "checking the settings created nothing"


def test_database_urls():
    assert database_path("sqlite:///tripoley.sqlite3") == "tripoley.sqlite3"
    assert database_path("sqlite:////var/lib/tripoley-bot/t.sqlite3") == "/var/lib/tripoley-bot/t.sqlite3"
    assert database_path("sqlite:///:memory:") == ":memory:"
    for refused in ("tripoley.sqlite3", "sqlite://", "sqlite:///", "mysql://x/y", "file:///x.db"):
        with pytest.raises(ValueError):
            database_path(refused)
