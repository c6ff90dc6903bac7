"""``python -m bot``: --help, bad settings (exit 2 before logging in), Discord unreachable (retried,
one line each), ``check`` and ``backup`` as commands."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot import __version__ as bot_version

ROOT = Path(__file__).resolve().parents[2]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="not-a-real-token", LOG_LEVEL="INFO", **extra)
    return env


def bot(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_help_prints_usage_and_starts_nothing(tmp_path):
    done = bot(["--help"], tmp_path, clean_env())
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m bot")
    for command in ("run", "check", "has-token", "backup", "migrate-db"):
        assert command in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_bad_settings_exit_2_before_logging_in(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    port = listener.getsockname()[1]
    env = clean_env(
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DATABASE_URL="nonsense",
        TURN_TIMEOUT="abc",
        DEFAULT_PRESET="nope",
    )
    try:
        for args in ([], ["check"]):
            done = bot(args, tmp_path, env)
            assert done.returncode == 2
            lines = done.stderr.splitlines()
            assert [line.split("=")[0] for line in lines[:3]] == ["DATABASE_URL", "DEFAULT_PRESET", "TURN_TIMEOUT"]
            assert len(lines) == 4 and ".env.example" in lines[3] and "Traceback" not in done.stderr
        try:
            listener.accept()
            raise AssertionError("the bot reached Discord despite bad settings")
        except BlockingIOError:
            pass
    finally:
        listener.close()
    assert list(tmp_path.iterdir()) == [], "no database file named 'nonsense' (or anything else)"


def test_discord_unreachable_is_retried_then_one_line(tmp_path):
    code = (
        "import sys, bot.discordio.login as c; c.LOGIN_RETRY_DELAYS = (0.05, 0.1)\n"
        "from bot.__main__ import main; sys.exit(main([]))"
    )
    env = clean_env(DISCORD_API_BASE="http://127.0.0.1:9/api/v10", DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"Tripoley Bot {bot_version} starting" in done.stderr.splitlines()[0], done.stderr
    mine = [line for line in done.stderr.splitlines() if "Discord is unreachable" in line]
    assert len(mine) == 3, done.stderr
    assert "trying again in 0.05 s (attempt 1 of 3)" in mine[0] and "trying again in 0.1 s (attempt 2 of 3)" in mine[1]
    assert "ERROR" in mine[2] and "giving up after 3 attempts" in mine[2]


async def run_bot_command(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode, out.decode(), err.decode()


async def test_check_validates_database_and_token_then_exits(discord_harness, tmp_path):
    dh = discord_harness
    env = dh.bot_env(DATABASE_URL=f"sqlite:///{tmp_path}/data/t.sqlite3")
    rc, out, err = await run_bot_command(["check"], tmp_path, env)
    assert rc == 0, err
    settings, library, database, discord = out.splitlines()
    assert settings == "settings: ok" and library.startswith("discord.py: ok")
    assert database.startswith("database: ok") and "schema version" in database
    assert discord.startswith("discord: ok, logged in as")
    with sqlite3.connect(tmp_path / "data" / "t.sqlite3") as db:  # migrated
        assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] >= 1

    rc, out, err = await run_bot_command(["check"], tmp_path, {**env, "DISCORD_TOKEN": "wrong"})
    assert rc == 1 and "discord: the token was refused" in err and "Traceback" not in err


def test_backup_command(tmp_path):
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3")
    done = bot(["backup", str(tmp_path / "b.sqlite3")], tmp_path, env)
    assert done.returncode == 1 and "there is no database" in done.stderr and "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)")
        db.execute("INSERT INTO schema_version VALUES (1, '0001_initial.sql', 0)")
    done = bot(["backup", str(tmp_path / "backups" / "b.sqlite3")], tmp_path, env)
    assert done.returncode == 0 and "schema version 1" in done.stdout, done.stderr
    done = bot(["backup", str(tmp_path / "backups" / "b.sqlite3")], tmp_path, env)
    assert done.returncode == 1 and "already exists" in done.stderr


def test_log_file_gets_the_log_redacted_and_survives_rotation(tmp_path):
    log_file = tmp_path / "logs" / "bot.log"
    code = (
        "import logging, os, sys\n"
        "from bot.logsetup import setup_logging\n"
        "setup_logging('INFO', ['secret-token-123'], sys.argv[1])\n"
        "logging.getLogger('t').warning('first with secret-token-123')\n"
        "os.rename(sys.argv[1], sys.argv[1] + '.1')  # logrotate moves it away\n"
        "logging.getLogger('t').warning('second')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(log_file)], env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    rotated = Path(str(log_file) + ".1").read_text()
    assert "first with [REDACTED]" in rotated and "secret-token-123" not in rotated
    assert "second" in log_file.read_text() and "second" not in rotated


async def test_check_opens_a_postgresql_database_without_showing_its_password(
    discord_harness, tmp_path, postgres_server
):
    url = postgres_server.new_database(migrated=False).replace("postgres@", "postgres:s3cret@")
    env = discord_harness.bot_env(DATABASE_URL=url)
    rc, out, err = await run_bot_command(["check"], tmp_path, env)
    assert rc == 0, err
    database = out.splitlines()[2]
    assert database.startswith("database: ok, postgresql://…@127.0.0.1") and "schema version" in database
    assert "s3cret" not in out + err
    closed = f"postgresql://postgres:s3cret@127.0.0.1:{free_port()}/nothing"
    rc, out, err = await run_bot_command(["check"], tmp_path, {**env, "DATABASE_URL": closed})
    assert rc == 1 and "database: cannot open postgresql://…@127.0.0.1" in err and "Traceback" not in err
    assert "s3cret" not in out + err
    rc, out, err = await run_bot_command(["backup", str(tmp_path / "b")], tmp_path, env)
    assert rc == 1 and "pg_dump" in err


async def test_forget_and_prune_for_operators(tmp_path):
    from bot.economy.bank import Bank
    from bot.storage.database import Database

    url = f"sqlite:///{tmp_path}/t.sqlite3"
    db = await Database(str(tmp_path / "t.sqlite3")).connect()
    try:
        for guild_id in (1, 2):
            await Bank(db).balance(guild_id, 11, 1000)
        await Bank(db).balance(1, 22, 1000)
    finally:
        await db.close()
    env = clean_env(DATABASE_URL=url)
    done = bot(["forget", "11"], tmp_path, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("forgot user 11 in 2 server(s): 2000 chip(s) removed")
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        assert conn.execute("SELECT user_id FROM wallets").fetchall() == [(22,)]
    bad = bot(["forget", "0"], tmp_path, env)
    assert bad.returncode == 2 and "not a user id" in bad.stderr
    kept = bot(["prune"], tmp_path, env)
    assert kept.returncode == 0 and "RETENTION_DAYS is not set" in kept.stdout, kept.stderr
    pruned = bot(["prune"], tmp_path, {**env, "RETENTION_DAYS": "31"})
    assert pruned.returncode == 0 and "0 finished game(s) older than 31 days deleted" in pruned.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def newer_database(path: Path) -> int:
    """A database as a newer bot would leave it: every migration this code knows, and one more."""
    from bot.storage.schema import known_version

    known = known_version()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)")
        db.executemany(
            "INSERT INTO schema_version VALUES (?, ?, 0)", [(v, f"{v:04d}_x.sql") for v in range(1, known + 2)]
        )
    return known


def test_a_database_newer_than_the_code_is_refused_by_every_command(tmp_path):
    known = newer_database(tmp_path / "t.sqlite3")
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    for args in ([], ["run"], ["check"], ["migrations"], ["prune"], ["forget", "5"], ["repair", "1"],
                 ["backup", str(tmp_path / "b.sqlite3")], ["migrate-db", f"sqlite:///{tmp_path}/t.sqlite3",
                 f"sqlite:///{tmp_path}/new.sqlite3"]):  # fmt: skip
        done = bot(args, tmp_path, env)
        refusal = [line for line in done.stderr.splitlines() if "newer than this version of the bot" in line]
        assert done.returncode == 2, (args, done.stderr)
        assert len(refusal) == 1 and f"schema version {known + 1}" in refusal[0] and f"({known})" in refusal[0]
        assert "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "b.sqlite3").exists() and not (tmp_path / "b.sqlite3.part").exists()
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:  # untouched: no table created, no migration recorded
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0] == 1


def test_migrations_lists_what_is_applied_and_pending(tmp_path):
    from bot.storage.schema import load_migrations

    names = [m.name for m in load_migrations()]
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3")
    done = bot(["migrations"], tmp_path, env)
    assert done.returncode == 0, done.stderr
    assert [line.split()[1] for line in done.stdout.splitlines() if "pending" in line.split()[:1]] == names
    assert f"{len(names)} pending" in done.stdout
    done = bot(["check"], tmp_path, {**env, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})  # applies them
    assert "database: ok" in done.stdout, done.stderr
    done = bot(["migrations"], tmp_path, env)
    applied = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("  applied")]
    assert applied == names and "up to date" in done.stdout and "pending" not in done.stdout
    assert done.stdout.count(" UTC)") == len(names)


def test_command_line_faults_are_one_line_naming_what_was_given(tmp_path):
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3")
    done = bot(["forget", "abc"], tmp_path, env)
    assert done.returncode == 2 and done.stderr.count("usage:") == 0
    assert done.stderr.splitlines() == [
        "python -m bot forget: argument USER_ID: invalid int value: 'abc' (see python -m bot forget --help)"
    ]
    done = bot(["run", "--shards", "5"], tmp_path, env)
    assert done.returncode == 2 and done.stderr.startswith("--shards 5: it needs SHARD_COUNT")
    assert "SHARD_IDS" not in done.stderr
    done = bot(["migrate-db", f"sqlite:///{tmp_path}/t.sqlite3", "postgresql://tripoley@db-host"], tmp_path, env)
    assert done.returncode == 2 and "the URL names no database" in done.stderr
    assert list(tmp_path.iterdir()) == []
