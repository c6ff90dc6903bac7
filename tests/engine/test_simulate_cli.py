"""``python -m engine simulate``: AI-only games with a conservation check, for every preset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import PRESETS

REPO = Path(__file__).resolve().parents[2]


def simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "simulate", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def players_for(preset: str) -> int:
    return 12 if PRESETS[preset].max_players > 9 else 4  # several decks where the preset allows them


def stable(stdout: str) -> list[str]:
    """The report without the timing line."""
    return [line for line in stdout.splitlines() if "rounds/s" not in line]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulate_every_preset(preset: str) -> None:
    n = players_for(preset)
    proc = simulate("--preset", preset, "--players", str(n), "--rounds", "4", "--seed", "5", "--quiet")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conservation: OK" in proc.stdout
    assert proc.stdout.splitlines()[0].startswith(f"preset {preset}, {n} players, 4 rounds")
    assert proc.stderr == ""


@pytest.mark.parametrize("preset", ["tripoley", "rummoli", "great-lakes", "wanagan"])
def test_simulate_random_ai(preset: str) -> None:
    proc = simulate("--preset", preset, "--players", "3", "--rounds", "4", "--seed", "2", "--ai", "random", "--quiet")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conservation: OK" in proc.stdout
    assert "ai random" in proc.stdout


def test_simulate_is_deterministic_and_takes_options() -> None:
    args = (
        "--preset",
        "three-in-one",
        "--players",
        "5",
        "--rounds",
        "6",
        "--seed",
        "9",
        "-o",
        "bet_limit=5",
        "--option",
        "ante=flat:2",
        "--quiet",
    )
    a, b = simulate(*args), simulate(*args)
    assert a.returncode == b.returncode == 0, a.stdout + a.stderr
    assert stable(a.stdout) == stable(b.stdout)
    assert "conservation: OK" in a.stdout


def test_simulate_many_rounds_shows_progress_on_stderr() -> None:
    proc = simulate("--preset", "tripoley", "--players", "2", "--rounds", "200", "--seed", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conservation: OK" in proc.stdout
    assert "200/200" in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--preset", "no-such-preset"),
        ("--preset", "tripoley", "--players", "1"),
        ("--preset", "tripoley", "--players", "25"),
        ("--preset", "tripoley", "-o", "bet_limit=lots"),
        ("--preset", "tripoley", "-o", "no_such_option=1"),
    ],
)
def test_simulate_bad_arguments_exit_2(args: tuple[str, ...]) -> None:
    proc = simulate(*args, "--rounds", "2", "--quiet")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "conservation: OK" not in proc.stdout
