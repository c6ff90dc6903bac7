"""The release basics a self-hoster checks first: a licence, a changelog entry for the version, and
the version shown by ``python -m bot --version``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import bot

ROOT = Path(__file__).resolve().parents[1]


def test_the_licence_is_mit_and_declared():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "the Tripoley Bot contributors" in (ROOT / "LICENSE").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]


def test_the_changelog_has_the_version_with_a_date():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text
    assert re.search(rf"^## \[{re.escape(bot.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M), bot.__version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}


def test_python_m_bot_version(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == f"python -m bot {bot.__version__}", done.stderr
    assert list(tmp_path.iterdir()) == []
