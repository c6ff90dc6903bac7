"""deploy/: the systemd units run the bot as a user of its own, restart it, and read an environment file."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.__main__ import parser
from bot.discordio.client import TOKEN_DEAD

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
    service = unit("tripoley-bot.service", strict=False)["Service"]
    assert service["User"] not in ("", "root") and service["Group"] not in ("", "root")
    assert service["Restart"] == "on-failure" and float(service["RestartSec"]) > 0
    assert service["RestartPreventExitStatus"] == "2"  # bad settings: see bot/__main__.py
    assert service["RestartPreventExitStatus"] == str(TOKEN_DEAD)  # a refused token: bot/discordio/client.py
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["KillSignal"] == "SIGTERM"
    assert bot_arguments(service["ExecStart"]) == []
    assert service["ExecStart"].startswith(service["WorkingDirectory"] + "/.venv/bin/python")
    assert service["StateDirectory"] == "tripoley-bot" and service["ProtectSystem"] == "strict"
    parser().parse_args(bot_arguments(service["ExecStart"]))


def test_the_backup_timer_runs_the_backup_command():
    service = unit("tripoley-bot-backup.service", strict=False)["Service"]
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
    assert bot_arguments(service["ExecStart"]) == ["run", "--shards", "%i"]


def service_lines(text: str) -> list[tuple[str, str]]:
    """The [Service] section's assignments in order, a key given several times kept each time."""
    section, out = None, []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out.append((key, value))
    return out


def read_environment_file(text: str) -> dict[str, str]:
    """systemd's reading of an environment file: KEY=VALUE lines, # comments, blank lines."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip().strip('"')
    return out


def as_systemd_runs(unit_text: str, instance: str, files: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The environment and the bot's arguments of ``unit@instance`` as systemd composes them: every
    Environment= first, then every EnvironmentFile= in order, whose settings override Environment=
    (and a later one an earlier one; ``-``: optional), then the command line."""
    lines = [(key, value.replace("%i", instance)) for key, value in service_lines(unit_text)]
    environment: dict[str, str] = {}
    for key, value in lines:
        if key == "Environment":
            name, _, setting = value.partition("=")
            environment[name] = setting
    for key, value in lines:
        if key == "EnvironmentFile":
            optional, path = value.startswith("-"), value.lstrip("-")
            if path in files:
                environment.update(read_environment_file(files[path]))
            else:
                assert optional, f"systemd refuses to start: {path} is missing"
    (exec_start,) = [value for key, value in lines if key == "ExecStart"]
    return environment, bot_arguments(exec_start)


def settings_as_systemd_runs(monkeypatch, tmp_path, unit_text: str, instance: str, files: dict[str, str]):
    """The settings ``python -m bot`` reads under the unit (the same steps as bot.__main__.main)."""
    from bot.__main__ import command_line_settings
    from bot.settings import Settings, load_settings

    environment, arguments = as_systemd_runs(unit_text, instance, files)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)  # no .env here
    return load_settings(**command_line_settings(parser().parse_args(arguments)))


def cluster_env() -> str:
    """/etc/tripoley-bot/env as bot/README.md says to make it: .env.example, edited for a cluster."""
    text = (Path(__file__).resolve().parents[1] / ".env.example").read_text()
    text = text.replace(
        "DATABASE_URL=sqlite:///tripoley.sqlite3", "DATABASE_URL=postgresql://tripoley@db-host/tripoley"
    )
    return text.replace("\nSHARD_COUNT=\n", "\nSHARD_COUNT=4\n")


def test_no_environment_file_turns_an_instance_into_every_shard(monkeypatch, tmp_path):
    template = (DEPLOY / "tripoley-bot@.service").read_text()
    env = cluster_env()
    assert "\nSHARD_IDS=\n" in env  # empty: every shard, for a process outside the template
    for instance in ("0", "3"):
        settings = settings_as_systemd_runs(monkeypatch, tmp_path, template, instance, {"/etc/tripoley-bot/env": env})
        assert settings.shards() == (int(instance),)
    # Nor the instance's own file.
    own = {"/etc/tripoley-bot/env": env, "/etc/tripoley-bot/shard-2.env": "SHARD_IDS=\nLOG_LEVEL=DEBUG\n"}
    settings = settings_as_systemd_runs(monkeypatch, tmp_path, template, "2", own)
    assert settings.shards() == (2,) and settings.log_level == "DEBUG"
    # What the template did before: Environment=SHARD_IDS=%i, which the file's SHARD_IDS= overrode.
    old = template.replace(
        "ExecStart=/opt/tripoley-bot/.venv/bin/python -m bot run --shards %i",
        "ExecStart=/opt/tripoley-bot/.venv/bin/python -m bot",
    )
    old = old.replace("[Service]\n", "[Service]\nEnvironment=SHARD_IDS=%i\n")
    settings = settings_as_systemd_runs(monkeypatch, tmp_path, old, "3", {"/etc/tripoley-bot/env": env})
    assert settings.shards() == (0, 1, 2, 3)


def test_an_empty_shard_list_on_the_command_line_is_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        parser().parse_args(["run", "--shards", ""])
    assert exited.value.code == 2 and "name at least one shard" in capsys.readouterr().err


def test_both_units_are_watched_and_wait_long_enough_for_the_start():
    """Type=notify: started once the bot says READY=1; the watchdog restarts a process whose pings stop
    (bot.discordio.health). The start may take as long as the log-in attempts to an unreachable Discord."""
    from bot.discordio.login import LOGIN_ATTEMPT_TIMEOUT, LOGIN_RETRY_DELAYS

    longest_login = sum(LOGIN_RETRY_DELAYS) + (len(LOGIN_RETRY_DELAYS) + 1) * LOGIN_ATTEMPT_TIMEOUT
    for name in ("tripoley-bot.service", "tripoley-bot@.service"):
        service = unit(name, strict=False)["Service"]
        assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
        assert float(service["WatchdogSec"]) > 0 and service["Restart"] == "on-failure"  # a watchdog kill is one
        assert float(service["TimeoutStartSec"]) > longest_login + 30


SERVICES = ("tripoley-bot.service", "tripoley-bot@.service", "tripoley-bot-backup.service")


@pytest.mark.parametrize("name", SERVICES)
def test_every_unit_keeps_its_files_private_and_is_hardened(name):
    """Files the bot or a backup makes are not world-readable (the database names players), and the
    sandbox settings that systemd-analyze security weighs are all there."""
    lines = service_lines((DEPLOY / name).read_text())
    settings = {key: value for key, value in lines}
    assert settings["UMask"] == "0027"
    if "StateDirectory" in settings:
        assert settings["StateDirectoryMode"] == "0750"  # else every start resets the directory to 0755
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "PrivateDevices": "yes",
        "CapabilityBoundingSet": "",
        "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
        "SystemCallArchitectures": "native",
    }.items():
        assert settings[key] == value, key
    filters = [value for key, value in lines if key == "SystemCallFilter"]
    assert filters[0] == "@system-service" and all(f.startswith("~") for f in filters[1:])


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
@pytest.mark.parametrize("name", SERVICES)
def test_systemd_rates_every_unit_ok(name):
    """systemd's own offline analysis: exposure below 5.0 ("OK" or better)."""
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(DEPLOY / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "--offline" in done.stderr and "unrecognized" in done.stderr:
        pytest.skip("this systemd-analyze has no offline analysis (systemd < 250)")
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) < 5.0 and found.group(2) in ("OK", "SAFE"), found.group(0)
