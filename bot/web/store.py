"""What the web pages read from the database: the site's key, a finished game, a server's opt-in
and the names its players were last seen under. Reads only (but the key, made once)."""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass

from bot.i18n import Locale, as_locale
from bot.i18n.choice import public_locale
from bot.storage.database import Database

KEY_BYTES = 32  # the site key: 256 random bits


@dataclass(frozen=True)
class FinishedGame:
    table_id: int
    guild_id: int
    preset: str
    ended_at: float | None
    replay_json: str
    locale: Locale  # its table's language (bot.tables.model.Table.locale), which its pages speak


class WebStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def site_key(self) -> bytes:
        """The key the links are signed with: made at the first start, the same for every process."""
        await self.db.execute_alone(
            "INSERT OR IGNORE INTO web_key (id, secret) VALUES (1, ?)", (secrets.token_hex(KEY_BYTES),)
        )
        row = await self.db.fetchone("SELECT secret FROM web_key WHERE id = 1")
        return bytes.fromhex(str(row["secret"]))

    async def finished_game(self, table_id: int) -> FinishedGame | None:
        """A finished game that kept its replay, of a server that still has the bot (None: no page)."""
        row = await self.db.fetchone(
            "SELECT id, guild_id, preset, ended_at, replay_json, state_json FROM tables t"
            " WHERE id = ? AND status = 'finished' AND replay_json IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM departed_guilds d WHERE d.guild_id = t.guild_id)",
            (table_id,),
        )
        if row is None:
            return None
        ended = row["ended_at"]
        saved = await asyncio.to_thread(json.loads, row["state_json"] or "{}")  # the whole game: off the loop
        code = saved.get("locale") if isinstance(saved, dict) else None
        guild_id = int(row["guild_id"])
        return FinishedGame(
            int(row["id"]),
            guild_id,
            str(row["preset"]),
            float(ended) if ended else None,
            row["replay_json"],
            as_locale(code) if code else await self.server_locale(guild_id),
        )

    async def server_locale(self, guild_id: int) -> Locale:
        """The language of a server's pages: the one its admins chose (``/tripoley-admin settings
        language``), else English (the web has no Discord ``guild_locale`` to fall back on)."""
        row = await self.db.fetchone("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return public_locale(row["language"] if row is not None else None, None)

    async def pages_on(self, guild_id: int) -> bool:
        """Whether the server's pages are served: an admin turned them on, and the bot is still there."""
        row = await self.db.fetchone(
            "SELECT web_pages FROM guild_settings g WHERE guild_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM departed_guilds d WHERE d.guild_id = g.guild_id)",
            (guild_id,),
        )
        return row is not None and bool(row["web_pages"])

    async def names(self, guild_id: int) -> dict[int, str]:
        """Each player's name as their latest finished game in the server shows it (a forgotten
        player's games name nobody: bot.economy.bank.forget_in_tables). Read from the results in
        Python: the SQL of both databases extracts numbers from JSON, not text."""
        rows = await self.db.fetchall(
            "SELECT result_json FROM tables WHERE guild_id = ? AND status = 'finished' AND result_json IS NOT NULL"
            " ORDER BY ended_at, id",
            (guild_id,),
        )
        names: dict[int, str] = {}
        for row in rows:
            for seat in json.loads(row["result_json"]).get("seats") or []:
                user_id, name = seat.get("user_id"), seat.get("name")
                if isinstance(user_id, int) and user_id > 0 and isinstance(name, str):
                    names[user_id] = name
        return names
