"""pytest fixtures for end-to-end tests against the fake Discord.

tests/conftest.py imports these, so every test can ask for them.
"""

from __future__ import annotations

import pytest

from .harness import DiscordHarness


@pytest.fixture
async def discord_harness():
    """A started fake Discord (127.0.0.1, free port) with a guild, #general, #tripoley and
    users alice, bob, carol, dave, enforcing Discord's global rate limit (and its per-route ones,
    five times as generous: the tests play games far faster than people). Stops every bot it
    started and the server at teardown. A bot that broke the token's global limit, or sent a body
    Discord would refuse (``dh.violations``; a test that means to declares it with
    ``dh.expect_violation`` or sends it with ``dh.raw_request``), fails the test."""
    async with DiscordHarness(route_limit_scale=5) as dh:
        yield dh
    assert not dh.server.errors, f"the fake Discord itself crashed: {dh.server.errors}"
    assert not dh.server.limit_counts["global_429"], f"the bot broke Discord's global limit: {dh.server.limit_counts}"
    bad = dh.unexpected_violations()
    assert not bad, f"the bot sent {len(bad)} request(s) Discord refuses:\n" + "\n".join(v.describe() for v in bad[:5])
