"""Shared test set-up.

- Puts the repository root first on sys.path so `tests.fakediscord` (and the project packages,
  rather than same-named folders under tests/) import the same way under `pytest` and `python -m pytest`.
- Makes the fake-Discord fixtures (tests/fakediscord/fixtures.py) available to every test.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.fakediscord.fixtures import discord_harness  # noqa: E402,F401
