from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import yarl

from bot.discordio.login import point_discord_at
from bot.logsetup import RedactingFilter
from bot.settings import Settings, database_path

ROOT = Path(__file__).resolve().parents[2]


def test_no_token_exits_with_help(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["DISCORD_TOKEN"] = ""
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and "python -m engine play" in proc.stderr
    assert "discord.com/developers" in proc.stderr


def test_settings_from_environment(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("DEV_GUILD_ID", "")
    monkeypatch.setenv("TURN_TIMEOUT", "45")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    s = Settings(_env_file=None)
    assert s.token() == "abc.def.ghi" and "abc.def" not in repr(s)
    assert s.dev_guild_id is None and s.turn_timeout == 45 and s.log_level == "DEBUG"
    assert s.database_url == "sqlite:///tripoley.sqlite3" and s.database_path() == "tripoley.sqlite3"
    assert database_path("sqlite:////abs/x.db") == "/abs/x.db"


def test_token_is_redacted_from_logs(caplog):
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456"
    logger = logging.getLogger("test.redact")
    redactor = RedactingFilter(["my-secret-token"])
    caplog.handler.addFilter(redactor)
    try:
        logger.warning("header Authorization: Bot %s", token)
        logger.warning("configured with my-secret-token")
        try:
            raise RuntimeError(f"failed with {token}")
        except RuntimeError:
            logger.exception("boom")
    finally:
        caplog.handler.removeFilter(redactor)
    assert token not in caplog.text and "my-secret-token" not in caplog.text
    assert "[REDACTED]" in caplog.text


def test_point_discord_at_local_server(monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    point_discord_at("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway/")
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL("ws://127.0.0.1:9/gateway/")


def test_every_setting_is_documented_in_the_env_example():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    documented = {line.lstrip("# ").split("=", 1)[0] for line in text.splitlines() if "=" in line}
    missing = [name.upper() for name in Settings.model_fields if name.upper() not in documented]
    assert not missing, f"add these to .env.example: {missing}"


ENV_FILES = {
    "DISCORD_TOKEN=abc.def\n": True,
    "export DISCORD_TOKEN=abc.def\n": True,
    "DISCORD_TOKEN = abc.def  # the bot's\n": True,
    'discord_token="abc.def"\n': True,
    "DISCORD_TOKEN=\n": False,
    "# DISCORD_TOKEN=abc.def\nLOG_LEVEL=debug\n": False,
    "TURN_TIMEOUT=not-a-number\nexport DISCORD_TOKEN=abc.def\n": True,  # the bot reports the rest itself
}


def test_has_token_reads_env_as_the_bot_does(tmp_path):
    """scripts/run.sh asks ``python -m bot has-token``: every way of writing .env that gives the bot
    a token says yes, and the others no."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    for text, has in ENV_FILES.items():
        (tmp_path / ".env").write_text(text)
        done = subprocess.run(
            [sys.executable, "-m", "bot", "has-token"],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == (0 if has else 1), (text, done.stdout, done.stderr)
        assert done.stderr == ""
        if "not-a-number" not in text:  # the bot's full settings read the same token
            assert (Settings(_env_file=tmp_path / ".env").token() is not None) == has, text
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=\xff\n")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "has-token"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith(".env: cannot be read"), done.stderr
