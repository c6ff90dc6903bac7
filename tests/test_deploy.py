"""deploy/: the systemd units run the bot as a user of its own, restart it, and read an environment file."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from bot.__main__ import parser

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def unit(name: str, strict: bool = True) -> configparser.RawConfigParser:
    """The unit's settings (``strict=False``: a key that systemd takes more than once keeps its last value)."""
    config = configparser.RawConfigParser(strict=strict, delimiters=("=",), comment_prefixes=("#",))
    config.optionxform = str  # systemd keys are case-sensitive
    config.read_string((DEPLOY / name).read_text())
    return config


def bot_arguments(exec_start: str) -> list[str]:
    words = shlex.split(exec_start)
    if words[:2] == ["/bin/sh", "-c"]:
        words = shlex.split(words[2].replace("%%", "%"))
    words = words[words.index("-m") + 1 :]
    assert words[0] == "bot"
    return [w for w in words[1:] if w != "exec"]


def test_the_bot_service():
    service = unit("tripoley-bot.service")["Service"]
    assert service["User"] not in ("", "root") and service["Group"] not in ("", "root")
    assert service["Restart"] == "on-failure" and float(service["RestartSec"]) > 0
    assert service["RestartPreventExitStatus"] == "2"  # bad settings: see bot/__main__.py
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["KillSignal"] == "SIGTERM"
    assert bot_arguments(service["ExecStart"]) == []
    assert service["ExecStart"].startswith(service["WorkingDirectory"] + "/.venv/bin/python")
    assert service["StateDirectory"] == "tripoley-bot" and service["ProtectSystem"] == "strict"
    parser().parse_args(bot_arguments(service["ExecStart"]))


def test_the_backup_timer_runs_the_backup_command():
    service = unit("tripoley-bot-backup.service")["Service"]
    assert service["User"] not in ("", "root") and service["Type"] == "oneshot"
    args = bot_arguments(service["ExecStart"])
    parsed = parser().parse_args([a.strip('"') for a in args])
    assert parsed.command == "backup" and parsed.path.startswith("/var/lib/tripoley-bot/backups/")
    assert unit("tripoley-bot-backup.timer")["Timer"]["OnCalendar"] == "daily"


def test_the_cluster_template_runs_one_shard_per_instance():
    text = (DEPLOY / "tripoley-bot@.service").read_text()
    assert "EnvironmentFile=/etc/tripoley-bot/env\nEnvironmentFile=-/etc/tripoley-bot/shard-%i.env" in text
    service = unit("tripoley-bot@.service", strict=False)["Service"]
    assert service["User"] not in ("", "root") and service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2" and service["KillSignal"] == "SIGTERM"
    assert service["Environment"] == "SHARD_IDS=%i"
    assert bot_arguments(service["ExecStart"]) == []


def test_both_units_are_watched_and_wait_long_enough_for_the_start():
    """Type=notify: started once the bot says READY=1; the watchdog restarts a process whose pings stop
    (bot.discordio.health). The start may take as long as the log-in attempts to an unreachable Discord."""
    from bot.discordio.client import LOGIN_ATTEMPT_TIMEOUT, LOGIN_RETRY_DELAYS

    longest_login = sum(LOGIN_RETRY_DELAYS) + (len(LOGIN_RETRY_DELAYS) + 1) * LOGIN_ATTEMPT_TIMEOUT
    for name in ("tripoley-bot.service", "tripoley-bot@.service"):
        service = unit(name, strict=False)["Service"]
        assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
        assert float(service["WatchdogSec"]) > 0 and service["Restart"] == "on-failure"  # a watchdog kill is one
        assert float(service["TimeoutStartSec"]) > longest_login + 30
