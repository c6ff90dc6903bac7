"""Per-server settings and per-user preferences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.settings import Settings
from bot.storage.database import Database

USER_FLAGS = ("dm_hands", "pings")  # the on/off columns of user_prefs
# The settings a server may override (columns of guild_settings).
GUILD_SETTINGS = (
    "default_preset",
    "starting_balance",
    "turn_timeout",
    "ai_pause",
    "daily_amount",
    "daily_cooldown_hours",
    "relief_amount",
    "relief_cooldown_hours",
    "threads",
    "pings",
    "admin_role",
)


@dataclass(frozen=True)
class GuildConfig:
    guild_id: int
    default_preset: str
    starting_balance: int
    turn_timeout: float
    ai_pause: float
    daily_amount: int
    daily_cooldown_hours: float
    relief_amount: int
    relief_cooldown_hours: float
    threads: bool
    pings: bool = True  # turn pings for players who did not choose (``/tripoley ping``)
    admin_role: int | None = None  # a role whose members may use /tripoley-admin besides Manage Server


class Prefs:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings

    async def guild(self, guild_id: int) -> GuildConfig:
        row = await self.db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        s = self.settings

        def pick(key: str, default: Any) -> Any:
            if row is None or row[key] is None:
                return default
            return row[key]

        return GuildConfig(
            guild_id=guild_id,
            default_preset=pick("default_preset", s.default_preset),
            starting_balance=int(pick("starting_balance", s.starting_balance)),
            turn_timeout=float(pick("turn_timeout", s.turn_timeout)),
            ai_pause=float(pick("ai_pause", s.ai_pause)),
            daily_amount=int(pick("daily_amount", s.daily_amount)),
            daily_cooldown_hours=float(pick("daily_cooldown_hours", s.daily_cooldown_hours)),
            relief_amount=int(pick("relief_amount", s.relief_amount)),
            relief_cooldown_hours=float(pick("relief_cooldown_hours", s.relief_cooldown_hours)),
            threads=bool(pick("threads", s.threads)),
            pings=bool(pick("pings", True)),
            admin_role=None if pick("admin_role", None) is None else int(pick("admin_role", None)),
        )

    async def update_guild(self, guild_id: int, clear: tuple[str, ...] = (), **changes: Any) -> GuildConfig:
        """Set the ``changes`` that are not None, and set the settings named in ``clear`` back to
        the installation's default."""
        allowed = set(GUILD_SETTINGS)
        changes = {k: v for k, v in changes.items() if v is not None}
        changes.update(dict.fromkeys(clear))
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        async with self.db.transaction() as conn:
            await conn.execute("INSERT OR IGNORE INTO guild_settings (guild_id) VALUES (?)", (guild_id,))
            for key, value in changes.items():
                await conn.execute(f"UPDATE guild_settings SET {key} = ? WHERE guild_id = ?", (value, guild_id))
        return await self.guild(guild_id)

    async def dm_hands(self, user_id: int) -> bool:
        row = await self.db.fetchone("SELECT dm_hands FROM user_prefs WHERE user_id = ?", (user_id,))
        return bool(row and row["dm_hands"])

    async def set_dm_hands(self, user_id: int, on: bool) -> None:
        await self._set_user_flag(user_id, "dm_hands", on)

    async def _set_user_flag(self, user_id: int, column: str, on: bool) -> None:
        if column not in USER_FLAGS:
            raise ValueError(f"unknown user preference: {column}")
        async with self.db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO user_prefs (user_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
                (user_id, int(on)),
            )

    async def pings(self, guild_id: int, user_id: int) -> bool:
        """Whether the player is pinged when it is their turn: their choice, else the server's."""
        row = await self.db.fetchone("SELECT pings FROM user_prefs WHERE user_id = ?", (user_id,))
        if row is not None and row["pings"] is not None:
            return bool(row["pings"])
        return (await self.guild(guild_id)).pings

    async def set_pings(self, user_id: int, on: bool) -> None:
        await self._set_user_flag(user_id, "pings", on)
