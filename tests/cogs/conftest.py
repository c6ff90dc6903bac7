from __future__ import annotations

import pytest

from bot.settings import Settings
from tests.cogs.fakes import make_stack


@pytest.fixture
def bot_settings(tmp_path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token="fake",
        database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        starting_balance=1000,
        turn_timeout=60,
        ai_pause=0,
        round_pause=0,
    )


@pytest.fixture
async def stack(bot_settings):
    """The controller, manager and publisher on mock interactions, with 1 s AI and round pauses."""
    bot = await make_stack(bot_settings.model_copy(update={"ai_pause": 1.0, "round_pause": 1.0}))
    yield bot
    await bot.publisher.flush()
    await bot.db.close()
