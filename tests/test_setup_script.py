"""scripts/setup.sh installs once, then the README's two commands work with no package index; the
run command sets up the runtime only (no test tools) and never calls the system's package manager.

The real scripts run in a copy of the repository. To keep it fast the copy's ``.venv`` is made
beforehand without pip or packages, seeing packages of this test's own environment through a ``.pth``
file (all of them, or only the runtime's): the first run then only installs the project itself (the
index is reachable), and writes its stamp."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
COPIED = (
    "pyproject.toml",
    "requirements.lock",
    "requirements-test.lock",
    "README.md",
    "LICENSE",
    "scripts",
    "engine",
    "images",
    "bot",
    "cogs",
)
# Every way pip could reach a package: no config file (it holds find-links and extra indexes
# here), no index, an index URL nothing answers, no find-links.
NO_INDEX = {
    "PIP_CONFIG_FILE": os.devnull,
    "PIP_NO_INDEX": "1",
    "PIP_INDEX_URL": "http://127.0.0.1:9/",
    "PIP_EXTRA_INDEX_URL": "",
    "PIP_FIND_LINKS": "",
}


def copy_repo(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.sqlite3*")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=ignore)
        else:
            shutil.copy2(source, dest / name)
    (dest / "tests").mkdir()
    (dest / "tests" / "test_offline.py").write_text(
        "import aiosqlite\n"
        "import discord\n"
        "import hypothesis\n"
        "import PIL\n"
        "import pytest_asyncio\n\n"
        "import bot.settings\n"
        "import engine\n\n\n"
        "def test_the_packages_import():\n"
        "    assert engine.PRESETS and discord.__version__\n"
        "    assert all((aiosqlite, hypothesis, PIL, pytest_asyncio, bot.settings))  # every one imported\n"
    )


def bare_venv_seeing(dest: Path, packages: Path) -> None:
    """A venv of the same Python, without pip, whose sys.path includes the folder ``packages``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(dest / ".venv")], check=True)
    venv_python = dest / ".venv" / "bin" / "python"
    site = subprocess.run(
        [str(venv_python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "outer.pth").write_text(f"{packages}\n")


def runtime_distributions() -> set[str]:
    """The distributions the project needs to run (its requirements without extras, and theirs), and pip."""
    wanted, todo = {"pip"}, ["tripoley-bot"]
    while todo:
        for text in importlib.metadata.distribution(todo.pop()).requires or []:
            requirement = Requirement(text)
            name = requirement.name.lower().replace("_", "-")
            if name not in wanted and (requirement.marker is None or requirement.marker.evaluate({"extra": ""})):
                wanted.add(name)
                todo.append(name)
    return wanted


def runtime_packages(dest: Path) -> Path:
    """A folder holding (as links) only the runtime distributions of this test's environment."""
    dest.mkdir()
    for name in runtime_distributions():
        dist = importlib.metadata.distribution(name)
        for top in {f.parts[0] for f in dist.files or [] if f.parts[0] != ".."}:
            if not (dest / top).exists():
                (dest / top).symlink_to(dist.locate_file(top))
    return dest


def fake_system_tools(dest: Path) -> tuple[Path, Path]:
    """A PATH folder whose apt-get and sudo only record that they were called, and that record."""
    calls = dest / "calls"
    dest.mkdir()
    for tool in ("apt-get", "sudo", "apt"):
        (dest / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> {calls}\n')
        (dest / tool).chmod(0o755)
    return dest, calls


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def snapshot(venv: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in venv.rglob("*") if "__pycache__" not in p.parts}


def test_setup_installs_once_then_both_commands_work_offline(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    copy_repo(repo)
    bare_venv_seeing(repo, Path(sysconfig.get_path("purelib")))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "DISCORD_", "VIRTUAL_ENV"))}

    first = run(["bash", "scripts/setup.sh", "test"], repo, base_env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "installing the project and its test tools" in first.stdout
    stamp = repo / ".venv" / ".setup-stamp"
    assert stamp.is_file() and "pyproject.toml" in stamp.read_text() and stamp.read_text().endswith(" test\n")

    offline = {**base_env, **NO_INDEX}
    venv_python = str(repo / ".venv" / "bin" / "python")
    probe = run(
        [venv_python, "-m", "pip", "download", "--no-deps", "-d", str(tmp_path / "dl"), "setuptools>=68"], repo, offline
    )
    assert probe.returncode != 0, "the package index was still reachable: the test would prove nothing"

    before = snapshot(repo / ".venv")
    second = run(["bash", "scripts/setup.sh", "test"], repo, offline)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "installing" not in second.stdout + second.stderr
    assert snapshot(repo / ".venv") == before, "the second set-up changed .venv"

    tests = run(["bash", "scripts/test.sh", "-p", "no:cacheprovider"], repo, offline)
    assert tests.returncode == 0 and "1 passed" in tests.stdout, tests.stdout + tests.stderr
    play = run(["bash", "scripts/run.sh", "--help"], repo, offline)
    assert play.returncode == 0 and "usage" in play.stdout.lower(), play.stdout + play.stderr
    assert snapshot(repo / ".venv") == before

    # A changed pyproject.toml needs an install again: offline, that fails and says so.
    with open(repo / "pyproject.toml", "a") as f:
        f.write("\n# changed\n")
    changed = run(["bash", "scripts/setup.sh"], repo, offline)
    assert "installing" in changed.stdout and changed.returncode != 0
    assert not stamp.exists()


def test_run_sets_up_the_runtime_only_and_never_calls_the_package_manager(tmp_path):
    """Even in CI and as root: no pytest, hypothesis, ruff or mypy in the venv, no apt-get; then the
    token decides between the bot and the terminal game as the bot's settings read it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    copy_repo(repo)
    bare_venv_seeing(repo, runtime_packages(tmp_path / "runtime"))
    tools, calls = fake_system_tools(tmp_path / "bin")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "DISCORD_", "VIRTUAL_ENV"))}
    env = {**base_env, "CI": "true", "PATH": f"{tools}:{base_env['PATH']}"}

    play = run(["bash", "scripts/run.sh", "--help"], repo, env)
    assert play.returncode == 0 and "usage" in play.stdout.lower(), play.stdout + play.stderr
    assert "installing the project (the runtime only)" in play.stdout
    assert "Starting the game in your terminal" in play.stdout
    assert (repo / ".venv" / ".setup-stamp").read_text().endswith(" runtime\n")
    assert not calls.exists(), calls.read_text()
    venv_python = str(repo / ".venv" / "bin" / "python")
    for tool in ("pytest", "hypothesis", "ruff", "mypy", "pytest_asyncio"):
        found = run([venv_python, "-c", f"import {tool}"], repo, env)
        assert found.returncode != 0, f"{tool} is in the runtime's venv"
    assert run([venv_python, "-c", "import discord, PIL, bot, engine"], repo, env).returncode == 0

    # With a token (written as the bot accepts it), run.sh starts the bot: here it stops at a bad setting.
    offline = {**env, **NO_INDEX}
    (repo / ".env").write_text("export DISCORD_TOKEN = abc.def\nTURN_TIMEOUT=soon\n")
    bot = run(["bash", "scripts/run.sh"], repo, offline)
    assert bot.returncode == 2 and "TURN_TIMEOUT='soon'" in bot.stderr, bot.stdout + bot.stderr
    assert "terminal" not in bot.stdout and "installing" not in bot.stdout
    assert not calls.exists()
