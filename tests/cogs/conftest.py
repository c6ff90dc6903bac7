from __future__ import annotations

import pytest

from bot.settings import Settings


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
