"""pytest fixtures for end-to-end tests against the fake Discord.

tests/conftest.py imports these, so every test can ask for them.
"""

from __future__ import annotations

import pytest

from .harness import DiscordHarness


@pytest.fixture
async def discord_harness():
    """A started fake Discord (127.0.0.1, free port) with a guild, #general, #tripoley and
    users alice, bob, carol, dave. Stops every bot it started and the server at teardown."""
    async with DiscordHarness() as dh:
        yield dh
    assert not dh.server.errors, f"the fake Discord itself crashed: {dh.server.errors}"
