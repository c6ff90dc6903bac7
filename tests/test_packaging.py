"""A non-editable install (``pip install .``) is a whole bot: its database migrations and image
assets are package data, and ``python -m bot check`` runs from it, far from the source tree."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def project_files() -> list[str]:
    """What a clone holds (tracked files and new ones not ignored), tests and renders left out."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [n for n in listed if not n.startswith(("tests/", "docs/renders/")) and (ROOT / n).is_file()]


def install(tmp_path: Path) -> Path:
    """The project copied out of this checkout and installed with ``pip install --target``."""
    source, target = tmp_path / "source", tmp_path / "site"
    source.mkdir()
    archive = tmp_path / "source.tar"
    with tarfile.open(archive, "w") as tar:
        for name in project_files():
            tar.add(ROOT / name, arcname=name)
    with tarfile.open(archive) as tar:
        tar.extractall(source, filter="data")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return target


async def run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode or 0, out.decode(), err.decode()


async def test_a_non_editable_install_has_its_migrations_and_passes_check(discord_harness, tmp_path):
    site = await asyncio.to_thread(install, tmp_path)
    shipped = sorted(p.name for p in (site / "bot" / "storage" / "migrations").glob("*.sql"))
    assert shipped == sorted(p.name for p in (ROOT / "bot" / "storage" / "migrations").glob("*.sql"))
    assert (site / "images" / "assets").is_dir()
    assert sorted(p.parent.parent.name for p in site.glob("engine/locale/*/LC_MESSAGES/tripoley.po")) == ["de", "fr"]
    assert sorted(p.parent.name for p in site.glob("engine/locale/*/rules.md")) == ["de", "fr"]

    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(discord_harness.bot_env(DATABASE_URL=f"sqlite:///{workdir}/t.sqlite3"), PYTHONPATH=str(site))
    rc, out, _ = await run(["-c", "import bot, cogs; print(bot.__file__); print(cogs.__file__)"], workdir, env)
    assert rc == 0 and all(Path(line).is_relative_to(site) for line in out.split()), out  # not this checkout
    french = "from engine.language import words; print(words('fr').gettext('Seconds per decision'))"
    rc, out, err = await run(["-c", french], workdir, env)
    assert (rc, out.strip()) == (0, "Secondes par décision"), err  # the catalogs, compiled or not

    rc, out, err = await run(["-m", "bot", "check"], workdir, env)
    assert rc == 0, err
    database = next(line for line in out.splitlines() if line.startswith("database:"))
    newest = max(int(name.split("_", 1)[0]) for name in shipped)  # the schema version is the newest migration's number
    assert database.startswith("database: ok") and database.endswith(f"schema version {newest}"), out


def test_the_install_has_console_scripts_for_the_game_and_the_bot():
    """``tripoley`` (the terminal game) and ``tripoley-bot`` (the bot and its operator commands) sit beside
    the environment's python, as the README says, and name themselves in their messages."""
    bin_dir = Path(sys.executable).parent
    game = subprocess.run([str(bin_dir / "tripoley"), "--help"], capture_output=True, text=True, timeout=60)
    assert game.returncode == 0 and game.stdout.startswith("usage: tripoley "), game.stderr
    bot = subprocess.run([str(bin_dir / "tripoley-bot"), "forget", "x"], capture_output=True, text=True, timeout=60)
    assert bot.returncode == 2 and bot.stderr.startswith("tripoley-bot forget: argument USER_ID"), bot.stderr
