"""Bot settings from the environment and an optional ``.env`` file.

Every setting is documented in ``.env.example``. :func:`load_settings` checks them all before
anything starts: each bad one becomes one line naming it and what it accepts.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine import PRESETS

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
ERROR_REPORTS = ("owner", "off")
SQLITE_HEADER = b"SQLite format 3\x00"
SQLITE_FORMS = (
    "sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3 (or sqlite:///:memory: to keep nothing)"
)
POSTGRES_FORM = "postgresql://user:password@host:5432/database"
POSTGRES_SCHEMES = ("postgresql", "postgres")
# Sane maxima. Chips: far below PostgreSQL's BIGINT (about 9.2e18), so that sums over every wallet
# and table of a server fit too. Seconds and hours: finite (inf and nan are refused by these bounds).
MAX_CHIPS = 1_000_000_000
MAX_SNOWFLAKE = 2**63 - 1  # a Discord id
DAY = 86_400.0

# What each setting accepts, for the one-line error about it (a setting missing here gets pydantic's words).
ACCEPTS = {
    "database_url": f"an SQLite database: {SQLITE_FORMS}; or a PostgreSQL one: {POSTGRES_FORM}",
    "dev_guild_id": "a server id (a number from 1 to 2^63 - 1), or nothing",
    "log_level": " / ".join(LOG_LEVELS),
    "log_file": "a file the bot may write its log to, or nothing (log to standard error)",
    "discord_api_base": "an http(s):// URL, or nothing (discord.com)",
    "discord_gateway_url": "a ws(s):// URL, or nothing (discord.com)",
    "default_preset": "one of " + ", ".join(PRESETS),
    "starting_balance": f"a whole number of chips from 0 to {MAX_CHIPS:_}",
    "turn_timeout": "a number of seconds greater than 0, at most 86400 (a day)",
    "ai_pause": "a number of seconds from 0 to 60",
    "round_pause": "a number of seconds from 0 to 3600",
    "claim_timeout": "a number of seconds greater than 0, at most 3600",
    "lobby_timeout": "a number of seconds greater than 0, at most 604800 (a week)",
    "timeouts_before_ai": "a whole number from 1 to 100",
    "render_processes": "a whole number from 0 to 16",
    "ping_delay": "a number of seconds from 0 to 600",
    "ping_watching": "a number of seconds from 0 to 3600",
    "rest_rate": "a number of requests a second, at most TOKEN_RATE_LIMIT (0: no pacing, for a local test server)",
    "token_rate_limit": "a number of requests a second greater than 0, at most 10000",
    "ai_processes": "a whole number from 0 to 16",
    "daily_amount": f"a whole number of chips from 0 to {MAX_CHIPS:_}",
    "daily_cooldown_hours": "a number of hours greater than 0, at most 8760 (a year)",
    "relief_amount": f"a whole number of chips from 0 to {MAX_CHIPS:_}",
    "relief_cooldown_hours": "a number of hours greater than 0, at most 8760 (a year)",
    "house_bankroll": f"a whole number of chips from 0 to {MAX_CHIPS:_}",
    "threads": "true or false",
    "retention_days": "a number of days from 31 to 36500, or nothing (keep finished games for ever)",
    "removed_server_days": "a number of days from 0 to 36500",
    "shard_count": "a whole number of shards from 1 to 10000, or nothing (one process, no sharding)",
    "health_address": "HOST:PORT to serve /healthz and /metrics on (e.g. 127.0.0.1:9464; port 0: any free"
    " one), or nothing (not served)",
    "web_address": "HOST:PORT to serve the web pages on (e.g. 127.0.0.1:8080, behind a reverse proxy: docs/web.md),"
    " or nothing (not served)",
    "public_url": "the http(s):// address players reach the web pages at (e.g. https://tripoley.example.org),"
    " or nothing (no links)",
    "sentry_dsn": "a Sentry DSN (https://KEY@HOST/PROJECT), or nothing",
    "error_reports": "owner (tracebacks summarised to the application's owner by DM) or off",
    "shard_ids": "the shards this process runs, as numbers below SHARD_COUNT separated by commas (0,1),"
    " or nothing (all of them)",
}


class SettingsError(ValueError):
    """Bad settings: one line per bad setting in ``lines``."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class TokenSettings(BaseSettings):
    """The token alone, read from the same places by the same rules as every setting
    (``python -m bot has-token`` asks it, so scripts/run.sh decides as the bot would)."""

    # An empty value (``TURN_TIMEOUT=`` as in .env.example) means the default.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None

    @field_validator("discord_token", mode="before")
    @classmethod
    def _empty_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None


class Settings(TokenSettings):
    database_url: str = "sqlite:///tripoley.sqlite3"
    dev_guild_id: int | None = Field(default=None, ge=1, le=MAX_SNOWFLAKE)
    log_level: str = "INFO"
    log_file: str | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    # Play defaults (a server's /tripoley-admin settings override the first four).
    default_preset: str = "tripoley"
    starting_balance: int = Field(default=1000, ge=0, le=MAX_CHIPS)
    turn_timeout: float = Field(default=60.0, gt=0, le=DAY)
    ai_pause: float = Field(default=1.5, ge=0, le=60)
    round_pause: float = Field(default=4.0, ge=0, le=3600)
    claim_timeout: float = Field(default=8.0, gt=0, le=3600)
    lobby_timeout: float = Field(default=900.0, gt=0, le=7 * DAY)
    timeouts_before_ai: int = Field(default=3, ge=1, le=100)
    # Seconds a turn ping waits at least for the player to decide without it (then it is not sent at
    # all); a player's own usual answer time, learnt, makes it longer (bot.discordio.pingpolicy).
    ping_delay: float = Field(default=5.0, ge=0, le=600)
    # Seconds after a player's own move at a table in which they get no turn ping there: they are
    # watching it (0: no such rule).
    ping_watching: float = Field(default=60.0, ge=0, le=3600)

    # The server economy (a server's /tripoley-admin settings overrides these but the house bankroll).
    daily_amount: int = Field(default=100, ge=0, le=MAX_CHIPS)
    daily_cooldown_hours: float = Field(default=20.0, gt=0, le=8760)
    relief_amount: int = Field(default=200, ge=0, le=MAX_CHIPS)
    relief_cooldown_hours: float = Field(default=24.0, gt=0, le=8760)
    house_bankroll: int = Field(default=10_000, ge=0, le=MAX_CHIPS)
    threads: bool = False

    # The bot's own REST calls a second, for the whole bot token (bot.discordio.pacing): a cluster's
    # processes share it by their shards (rest_share). 0: not paced (a local test server only).
    rest_rate: float = Field(default=40.0, ge=0, le=10_000)
    # Discord's global limit for the bot token, shared by all its shards and processes (50 unless
    # Discord raised it for the bot): REST_RATE may not exceed it.
    token_rate_limit: float = Field(default=50.0, gt=0, le=10_000)
    # Capacity: worker processes drawing the images (0: threads of the bot's own process).
    render_processes: int = Field(default=1, ge=0, le=16)
    # Worker processes for the Hard AI's searches (0: threads of the bot's own process); by default
    # one per core but the one the bot's event loop needs (default_ai_processes).
    ai_processes: int = Field(default_factory=lambda: default_ai_processes(), ge=0, le=16)

    # Retention (PRIVACY.md): finished games (state, results, replay) are deleted, and ledger rows
    # anonymised, RETENTION_DAYS after they ended (nothing: kept for ever; at least 31, so the
    # grants' cooldowns, up to 30 days, still read their ledger rows). A server that removes the bot
    # has its data purged REMOVED_SERVER_DAYS later, unless the bot is added back meanwhile.
    retention_days: float | None = Field(default=None, ge=31, le=36_500)
    removed_server_days: float = Field(default=30.0, ge=0, le=36_500)

    # A cluster: the bot's servers are split into SHARD_COUNT shards (a server's shard is
    # (server id >> 22) % SHARD_COUNT); this process runs SHARD_IDS of them (all when empty).
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    shard_ids: tuple[int, ...] | None = None

    # Health and metrics over HTTP (bot.discordio.health): HOST:PORT, or nothing (not served).
    health_address: str | None = None

    # The web pages (bot/web, docs/web.md): WEB_ADDRESS is where they are served (HOST:PORT, its own,
    # never HEALTH_ADDRESS's), PUBLIC_URL the address players reach them at (the base of the links
    # the bot posts). Both or neither: nothing (the default) serves and links nothing.
    web_address: str | None = None
    public_url: str | None = None

    # Unexpected errors (bot.reporting): to Sentry when a DSN is set, else summarised to the owner by DM.
    sentry_dsn: SecretStr | None = None
    error_reports: str = "owner"

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str):
            if not value.strip():
                return None
            try:
                return tuple(int(part) for part in value.split(","))
            except ValueError:
                raise ValueError("not a list of shard numbers") from None
        if isinstance(value, int):  # one shard: the environment's "3" reads as a number
            return (value,)
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_in_range(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        if not value or len(set(value)) != len(value) or any(not 0 <= i < count for i in value):
            raise ValueError(f"each shard once, each from 0 to {count - 1}")
        return tuple(sorted(value))

    @field_validator(
        "shard_count",
        "dev_guild_id",
        "discord_api_base",
        "discord_gateway_url",
        "log_file",
        "health_address",
        "web_address",
        "public_url",
        "retention_days",
        "sentry_dsn",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("error_reports")
    @classmethod
    def _report_choice(cls, value: str) -> str:
        if value.strip().lower() not in ERROR_REPORTS:
            raise ValueError("not a choice")
        return value.strip().lower()

    @field_validator("sentry_dsn")
    @classmethod
    def _dsn(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            parts = urlsplit(value.get_secret_value())
            if parts.scheme not in ("http", "https") or not parts.username or not parts.path.strip("/"):
                raise ValueError("not a Sentry DSN")
        return value

    def sentry(self) -> str | None:
        return self.sentry_dsn.get_secret_value() if self.sentry_dsn else None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.strip().upper() not in LOG_LEVELS:
            raise ValueError("not a log level")
        return value.strip().upper()

    @field_validator("default_preset")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        if value not in PRESETS:
            raise ValueError("no such game")
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        database_path(value)
        return value

    @field_validator("discord_api_base", "discord_gateway_url")
    @classmethod
    def _url(cls, value: str | None, info: ValidationInfo) -> str | None:
        schemes = ("http://", "https://") if info.field_name == "discord_api_base" else ("ws://", "wss://")
        if value is not None and not value.startswith(schemes):
            raise ValueError("not a URL")
        return value

    @field_validator("health_address", "web_address")
    @classmethod
    def _host_and_port(cls, value: str | None) -> str | None:
        if value is not None:
            host_and_port(value)
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("not an http(s):// address")
        return value.strip().rstrip("/")

    def web_bind(self) -> tuple[str, int] | None:
        """Where to serve the web pages (None: nowhere)."""
        return None if self.web_address is None else host_and_port(self.web_address)

    def health_bind(self) -> tuple[str, int] | None:
        """Where to serve /healthz and /metrics (None: nowhere)."""
        return None if self.health_address is None else host_and_port(self.health_address)

    def database_path(self) -> str:
        """The SQLite file (or ``:memory:``) named by ``DATABASE_URL``, or its PostgreSQL URL."""
        return database_path(self.database_url)

    def is_postgres(self) -> bool:
        return is_postgres_url(self.database_url)

    def shards(self) -> tuple[int, ...] | None:
        """The shards this process runs (None: no sharding, every server is this process's)."""
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    def runs_shard_zero(self) -> bool:
        """Whether this process does the cluster's once-only work (command sync, retention): the only
        process, or the one running shard 0."""
        shards = self.shards()
        return shards is None or 0 in shards

    def rest_share(self) -> float:
        """This process's share of ``REST_RATE``: the token's budget split by shards, so that the
        processes of a cluster (each running its SHARD_IDS of SHARD_COUNT) stay under it together."""
        shards = self.shards()
        if shards is None or self.shard_count is None:
            return self.rest_rate
        return self.rest_rate * len(shards) / self.shard_count

    def owns_guild(self, guild_id: int) -> bool:
        """Whether the server's tables are this process's to resume, time and save."""
        shards = self.shards()
        if shards is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in shards


MOST_DEFAULT_AI_PROCESSES = 8


def default_ai_processes(cores: int | None = None) -> int:
    """AI workers where the cores allow: every core this process may use but one (the bot's
    event loop), at least one, at most :data:`MOST_DEFAULT_AI_PROCESSES` (niced below the bot:
    on a busy machine a search waits, a click does not)."""
    if cores is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            cores = os.cpu_count() or 1
    return max(1, min(MOST_DEFAULT_AI_PROCESSES, cores - 1))


def is_postgres_url(url: str) -> bool:
    scheme, found, _ = url.partition("://")
    return bool(found) and scheme.lower() in POSTGRES_SCHEMES


def database_path(url: str) -> str:
    """The file of ``sqlite:///relative.db`` or ``sqlite:////abs/path.db``; ``:memory:`` for
    ``sqlite:///:memory:``; a ``postgresql://`` (or ``postgres://``) URL as it is, once its port
    is checked. Anything else is refused: a bare word would silently become a file of that name,
    and ``sqlite:///`` (no path) a database that keeps nothing."""
    scheme, found, rest = url.partition("://")
    if not found:
        raise ValueError("not an sqlite:/// URL")
    if is_postgres_url(url):
        try:
            urlsplit(url).port  # noqa: B018 - raises on a port that is no number or out of range
        except ValueError:
            raise ValueError("the port is not a number from 1 to 65535") from None
        if not urlsplit(url).path.strip("/"):  # libpq would guess one (the user's name): say which
            raise ValueError("the URL names no database (…@host/DATABASE)")
        return url
    if scheme != "sqlite":
        raise ValueError(f"{scheme}:// is not a database the bot can use")
    if not rest.startswith("/"):
        raise ValueError("an SQLite URL has three slashes before a relative path, four before an absolute one")
    path = rest[1:]
    if not path.strip():
        raise ValueError("the path is empty")
    if path == ":memory:":
        return ":memory:"
    return path


def host_and_port(address: str) -> tuple[str, int]:
    """``127.0.0.1:9464`` → ("127.0.0.1", 9464); ``[::1]:9464`` → ("::1", 9464)."""
    host, colon, port = address.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host:
        raise ValueError("not HOST:PORT")
    if not port.isdigit() or int(port) > 65535:
        raise ValueError("the port is not a number from 0 to 65535")
    return host, int(port)


def unwritable(path: str) -> str | None:
    """Why the bot could not create or write the file ``path`` (and, for SQLite, the journal
    files beside it), or None. Tried for real: os.access says yes to root, even on /proc."""
    target = Path(path)
    if target.is_dir():
        return f"{path} is a folder"
    folder = target.parent
    while not folder.exists():  # the bot creates missing folders: the first existing one decides
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
        if target.exists():
            with open(target, "ab"):
                pass
    except OSError as exc:
        return f"cannot write {path} ({exc.strerror or exc})"
    return None


def not_sqlite(path: str) -> str | None:
    """Why the existing, non-empty file ``path`` is no SQLite database, or None."""
    try:
        with open(path, "rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read {path} ({exc.strerror or exc})"
    return f"{path} is not an SQLite database" if header and header != SQLITE_HEADER else None


def redacted(text: str) -> str:
    """A URL without its user and password (``postgresql://…@host/db``)."""
    scheme, found, rest = text.partition("://")
    if found and "@" in rest:
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return text


def shown(name: str, value: object) -> str:
    """A bad value as quoted in an error line: never a secret, never a password in a URL, never long."""
    if name in ("discord_token", "sentry_dsn"):
        return ""
    text = redacted(str(value))
    if len(text) > 60:
        text = text[:59] + "…"
    return f"={text!r}"


def error_line(name: str, value: object, reason: str) -> str:
    accepts = f"; it accepts {ACCEPTS[name]}" if name in ACCEPTS else ""
    return f"{name.upper()}{shown(name, value)}: {reason}{accepts}."


def unreadable_env(exc: Exception) -> str:
    return f".env: cannot be read as UTF-8 text ({exc})."


def rest_rate_problem(settings: Settings) -> str | None:
    """Why ``REST_RATE`` would break the bot token's global limit, or None. Discord counts every
    process of a cluster against the one token, so the rate is the token's, split by shards
    (:meth:`Settings.rest_share`)."""
    if settings.rest_rate > settings.token_rate_limit:
        return (
            f"more than the bot token's global limit of {settings.token_rate_limit:g} requests a second"
            " (TOKEN_RATE_LIMIT), which every process of a cluster shares"
        )
    if settings.rest_rate == 0 and not settings.discord_api_base:
        return "0 (no pacing) would break Discord's global limit; it is for a local test server (DISCORD_API_BASE)"
    return None


def web_settings_problem(settings: Settings) -> tuple[str, object, str] | None:
    """(setting, value, reason) when the web settings do not fit together, or None: the pages need
    their links' address and the links need pages; their address is not health's (that one stays
    private)."""
    if settings.web_address is not None and settings.public_url is None:
        return "public_url", "", "WEB_ADDRESS serves the web pages, and their links need PUBLIC_URL"
    if settings.public_url is not None and settings.web_address is None:
        return "web_address", "", "PUBLIC_URL links to the web pages, which need WEB_ADDRESS to be served"
    web = settings.web_bind()
    if web is not None and web[1] != 0 and settings.health_bind() == web:  # port 0: a free one each
        return "web_address", settings.web_address, "the web pages need an address of their own, not HEALTH_ADDRESS"
    return None


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment and ``.env``, checked: raises :class:`SettingsError`."""
    try:
        settings = Settings(**overrides)
    except (UnicodeDecodeError, OSError) as exc:
        raise SettingsError([unreadable_env(exc)]) from None
    except ValidationError as exc:
        lines = []
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else "settings"
            if "error" in error.get("ctx", {}):  # our own validators' reasons
                reason = str(error["ctx"]["error"])
            else:
                reason = "not valid" if name in ACCEPTS else error["msg"].lower()
            lines.append(error_line(name, error.get("input"), reason))
        raise SettingsError(lines) from None
    lines = []
    database = settings.database_path()
    database_problem = (
        not settings.is_postgres() and database != ":memory:" and (unwritable(database) or not_sqlite(database))
    )
    if database_problem:
        lines.append(error_line("database_url", settings.database_url, database_problem))
    shards = settings.shards()
    if (
        shards is not None
        and settings.shard_count is not None
        and len(shards) < settings.shard_count
        and not settings.is_postgres()
    ):
        lines.append(
            error_line(
                "shard_ids",
                ",".join(map(str, shards)),
                "a process running some of the shards shares its database with the others'"
                " processes, which needs a PostgreSQL DATABASE_URL",
            )
        )
    rate_problem = rest_rate_problem(settings)
    if rate_problem:
        lines.append(error_line("rest_rate", f"{settings.rest_rate:g}", rate_problem))
    web_problem = web_settings_problem(settings)
    if web_problem:
        lines.append(error_line(*web_problem))
    log_file_problem = settings.log_file and unwritable(settings.log_file)
    if log_file_problem:
        lines.append(error_line("log_file", settings.log_file, log_file_problem))
    if lines:
        raise SettingsError(lines)
    return settings
