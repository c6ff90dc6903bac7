"""The start-up self-test: every discord.py internal the bot relies on is there, and one gone stops
``python -m bot`` and ``check`` with one line and exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.discordio import selftest

ROOT = Path(__file__).resolve().parents[3]


def test_the_installed_discord_py_has_everything():
    assert selftest.missing_internals() == [] and selftest.problem() is None


@pytest.mark.parametrize(
    ("owner", "name", "named"),
    [
        (discord.http.Route, "BASE", "discord.http.Route.BASE"),
        (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", "DEFAULT_GATEWAY"),
        (discord.state.ConnectionState, "parse_interaction_create", "INTERACTION_CREATE"),
        (discord.http.HTTPClient, "start_thread_with_message", "HTTPClient.start_thread_with_message"),
    ],
)
def test_each_internal_gone_is_named(monkeypatch, owner, name, named):
    monkeypatch.delattr(owner, name)
    [missing] = selftest.missing_internals()
    assert named in missing
    line = selftest.problem()
    assert line is not None and "\n" not in line and discord.__version__ in line and named in line


def test_a_connector_less_http_client_is_caught(monkeypatch):
    init = discord.http.HTTPClient.__init__

    def without_connector(self, *args, **kwargs):
        init(self, *args, **kwargs)
        del self.connector

    monkeypatch.setattr(discord.http.HTTPClient, "__init__", without_connector)
    assert selftest.missing_internals() == ["HTTPClient.connector"]


@pytest.mark.parametrize("command", [[], ["check"]])
def test_the_bot_stops_with_one_line_and_exit_2(tmp_path, command):
    code = (
        "import sys, discord\n"
        "del discord.http.Route.BASE\n"
        "from bot.__main__ import main\n"
        f"sys.exit(main({command!r}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="not-a-real-token", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("discord.py ") and "Route.BASE" in lines[0], done.stderr
    assert list(tmp_path.iterdir()) == [], "nothing was opened (no database file)"
