"""Bot settings from the environment and an optional ``.env`` file.

Every setting is documented in ``.env.example``.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite:///tripoley.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    # Play defaults (a server's /tripoley settings override the first four).
    default_preset: str = "tripoley"
    starting_balance: int = Field(default=1000, ge=0)
    turn_timeout: float = Field(default=60.0, gt=0)
    ai_pause: float = Field(default=1.5, ge=0)
    round_pause: float = Field(default=4.0, ge=0)
    claim_timeout: float = Field(default=8.0, gt=0)
    lobby_timeout: float = Field(default=900.0, gt=0)
    timeouts_before_ai: int = Field(default=3, ge=1)

    # The server economy (a server's /tripoley settings overrides these but the house bankroll).
    daily_amount: int = Field(default=100, ge=0)
    daily_cooldown_hours: float = Field(default=20.0, gt=0)
    relief_amount: int = Field(default=200, ge=0)
    relief_cooldown_hours: float = Field(default=24.0, gt=0)
    house_bankroll: int = Field(default=10_000, ge=0)
    threads: bool = False

    # Capacity: worker processes drawing the images (0: threads of the bot's own process).
    render_processes: int = Field(default=1, ge=0, le=16)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _empty_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("dev_guild_id", "discord_api_base", "discord_gateway_url", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("log_level")
    @classmethod
    def _upper_level(cls, value: str) -> str:
        return value.upper()

    def database_path(self) -> str:
        """The SQLite file (or ``:memory:``) named by ``DATABASE_URL``."""
        return database_path(self.database_url)

    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None


def database_path(url: str) -> str:
    """``sqlite:///relative.db``, ``sqlite:////abs/path.db``, ``sqlite://:memory:`` or a bare path."""
    if url in ("sqlite://", "sqlite://:memory:", "sqlite:///:memory:", ":memory:"):
        return ":memory:"
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :]
    if url.startswith("sqlite://"):
        return url[len("sqlite://") :]
    if "://" in url:
        raise ValueError(f"DATABASE_URL must be an sqlite:/// URL; got {url.split('://')[0]}://…")
    return str(Path(url))
