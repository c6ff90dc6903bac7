"""scripts/setup.sh installs once, then the README's two commands work with no package index.

The real script runs twice in a copy of the repository. To keep it fast the copy's ``.venv`` is made
beforehand without pip or packages, seeing this test's own environment through a ``.pth`` file: the
first run then only installs the project itself (the index is reachable), and writes its stamp."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("pyproject.toml", "README.md", "LICENSE", "scripts", "engine", "images", "bot", "cogs")
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


def bare_venv_seeing_ours(dest: Path) -> None:
    """A venv of the same Python, without pip, whose sys.path includes this environment's packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(dest / ".venv")], check=True)
    venv_python = dest / ".venv" / "bin" / "python"
    site = subprocess.run(
        [str(venv_python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "outer.pth").write_text(sysconfig.get_path("purelib") + "\n")


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def snapshot(venv: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in venv.rglob("*") if "__pycache__" not in p.parts}


def test_setup_installs_once_then_both_commands_work_offline(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    copy_repo(repo)
    bare_venv_seeing_ours(repo)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "DISCORD_", "VIRTUAL_ENV"))}

    first = run(["bash", "scripts/setup.sh"], repo, base_env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "installing" in first.stdout
    stamp = repo / ".venv" / ".setup-stamp"
    assert stamp.is_file() and "pyproject.toml" in stamp.read_text()

    offline = {**base_env, **NO_INDEX}
    venv_python = str(repo / ".venv" / "bin" / "python")
    probe = run(
        [venv_python, "-m", "pip", "download", "--no-deps", "-d", str(tmp_path / "dl"), "setuptools>=68"], repo, offline
    )
    assert probe.returncode != 0, "the package index was still reachable: the test would prove nothing"

    before = snapshot(repo / ".venv")
    second = run(["bash", "scripts/setup.sh"], repo, offline)
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
