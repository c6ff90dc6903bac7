"""Every SQL statement about ratings and seasons (migration 0011): through the bot's database and a
caller's transaction connection (either dialect, :mod:`bot.storage.dialect`).

A game is rated inside the transaction that records its end (:meth:`CompetitionStore.record_game`,
called by :meth:`bot.tables.flow.Flow.finish`), keyed by its table id in ``rated_games``: a finish
tried again (a restart, a replay of the same end) rates nothing twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.competition.rating import PROVISIONAL_GAMES, Entrant, Skill, rate_game
from bot.storage.database import Database
from bot.storage.dialect import Connection, Row

FORGOTTEN = -1  # the user id a forgotten player's standings rows keep (as the ledger's: bot.economy.bank)
LENGTHS = ("monthly", "weekly", "none")


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a finished game: its player (None: an AI seat, of ``ai_level``) and final chips."""

    user_id: int | None
    ai_level: str
    final: int


@dataclass(frozen=True)
class Rating:
    user_id: int
    skill: Skill
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> int:
        return self.skill.shown


@dataclass(frozen=True)
class Season:
    guild_id: int
    number: int
    length: str
    started_at: float
    ends_at: float | None
    channel_id: int | None


@dataclass(frozen=True)
class Standing:
    """A player's place in a past season's final standings (``user_id`` -1: since forgotten)."""

    place: int
    user_id: int
    rating: int
    games: int


def _rating(row: Row) -> Rating:
    return Rating(int(row["user_id"]), Skill(float(row["mu"]), float(row["sigma"])), int(row["games"]))


def _season(row: Row) -> Season:
    ends_at, channel = row["ends_at"], row["channel_id"]
    return Season(
        int(row["guild_id"]),
        int(row["number"]),
        str(row["length"]),
        float(row["started_at"]),
        None if ends_at is None else float(ends_at),
        None if channel is None else int(channel),
    )


# A rating's ordinal in SQL (the shown rating's order): mu - 3 sigma.
ORDINAL = "mu - 3 * sigma"


class CompetitionStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- inside a caller's transaction ----------------------------------------------------

    async def record_game(
        self, conn: Connection, guild_id: int, table_id: int, seats: Sequence[RatedSeat], when: float
    ) -> bool:
        """Rate a finished game's players from its final order (once per table: False if it was
        rated already, or has fewer than two seats)."""
        if len(seats) < 2:
            return False
        season = await self.current_season(conn, guild_id, when)
        async with conn.execute(
            "INSERT OR IGNORE INTO rated_games (table_id, guild_id, season, rated_at) VALUES (?, ?, ?, ?)"
            " RETURNING table_id",
            (table_id, guild_id, season.number, when),
        ) as cur:
            if await cur.fetchone() is None:
                return False
        before = {}
        for seat in seats:
            if seat.user_id is not None:
                before[seat.user_id] = await self._locked_rating(conn, guild_id, seat.user_id)
        rated = [
            Entrant(
                Skill.of_ai(s.ai_level) if s.user_id is None else before[s.user_id].skill, s.final, s.user_id is None
            )
            for s in seats
        ]
        for seat, skill in zip(seats, rate_game(rated)):
            if seat.user_id is None:
                continue
            await conn.execute(
                "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, updated_at = ? WHERE guild_id = ? AND user_id = ?",
                (skill.mu, skill.sigma, when, guild_id, seat.user_id),
            )
            await conn.execute(
                "INSERT INTO rating_history (guild_id, user_id, table_id, season, mu, sigma, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, seat.user_id, table_id, season.number, skill.mu, skill.sigma, when),
            )
        return True

    async def _locked_rating(self, conn: Connection, guild_id: int, user_id: int) -> Rating:
        """The player's rating, a newcomer's made if they have none; locked to the transaction's end."""
        start = Skill.newcomer()
        await conn.execute(
            "INSERT OR IGNORE INTO ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 0, 0)",
            (guild_id, user_id, start.mu, start.sigma),
        )
        async with conn.execute(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ? FOR UPDATE",
            (guild_id, user_id),
        ) as cur:
            return _rating(await cur.fetchone())

    async def current_season(self, conn: Connection, guild_id: int, when: float) -> Season:
        """The server's season under way (the first one begins with the server's first rated game)."""
        await conn.execute(
            "INSERT OR IGNORE INTO seasons (guild_id, number, started_at)"
            " SELECT ?, 1, ? WHERE NOT EXISTS (SELECT 1 FROM seasons WHERE guild_id = ?)",
            (guild_id, when, guild_id),
        )
        async with conn.execute(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL ORDER BY number DESC LIMIT 1 FOR UPDATE",
            (guild_id,),
        ) as cur:
            return _season(await cur.fetchone())

    async def set_season(
        self, conn: Connection, guild_id: int, number: int, length: str, ends_at: float | None, channel_id: int | None
    ) -> None:
        await conn.execute(
            "UPDATE seasons SET length = ?, ends_at = ?, channel_id = ? WHERE guild_id = ? AND number = ?",
            (length, ends_at, channel_id, guild_id, number),
        )

    async def close_season(self, conn: Connection, season: Season, when: float, next_ends_at: float | None) -> bool:
        """End the season (False: it was ended already): its final standings kept, every rating
        softened (:meth:`Skill.softened`), the next season begun with the same length and channel."""
        async with conn.execute(
            "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ? AND ended_at IS NULL RETURNING number",
            (when, season.guild_id, season.number),
        ) as cur:
            if await cur.fetchone() is None:
                return False
        async with conn.execute(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? ORDER BY {ORDINAL} DESC, user_id"
            " FOR UPDATE",
            (season.guild_id,),
        ) as cur:
            ratings = [_rating(row) for row in await cur.fetchall()]
        async with conn.execute(
            "SELECT DISTINCT user_id FROM rating_history WHERE guild_id = ? AND season = ? AND table_id IS NOT NULL",
            (season.guild_id, season.number),
        ) as cur:
            played = {int(row[0]) for row in await cur.fetchall()}
        placed = [r for r in ratings if not r.provisional and r.user_id in played]
        await conn.executemany(
            "INSERT INTO season_standings (guild_id, season, place, user_id, rating, games) VALUES (?, ?, ?, ?, ?, ?)",
            [(season.guild_id, season.number, place, r.user_id, r.shown, r.games) for place, r in enumerate(placed, 1)],
        )
        number = season.number + 1
        await conn.execute(
            "INSERT INTO seasons (guild_id, number, length, started_at, ends_at, channel_id) VALUES (?, ?, ?, ?, ?, ?)",
            (season.guild_id, number, season.length, when, next_ends_at, season.channel_id),
        )
        for rating in ratings:
            soft = rating.skill.softened()
            await conn.execute(
                "UPDATE ratings SET mu = ?, sigma = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?",
                (soft.mu, soft.sigma, when, season.guild_id, rating.user_id),
            )
            await conn.execute(
                "INSERT INTO rating_history (guild_id, user_id, table_id, season, mu, sigma, at)"
                " VALUES (?, ?, NULL, ?, ?, ?, ?)",
                (season.guild_id, rating.user_id, number, soft.mu, soft.sigma, when),
            )
        return True

    async def forget(self, conn: Connection, guild_id: int, user_id: int) -> None:
        """Inside forget-me's transaction: the player's rating and its history deleted, their places
        in past standings kept anonymised (the others' places still read right)."""
        await conn.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        await conn.execute("DELETE FROM rating_history WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        await conn.execute(
            "UPDATE season_standings SET user_id = ? WHERE guild_id = ? AND user_id = ?", (FORGOTTEN, guild_id, user_id)
        )

    # -- reading ------------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int) -> Rating | None:
        row = await self.db.fetchone(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return None if row is None else _rating(row)

    async def ranked(self, guild_id: int, offset: int, limit: int) -> list[Rating]:
        """One page of the server's ranked players (those past their provisional games), best first."""
        rows = await self.db.fetchall(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND games >= ?"
            f" ORDER BY {ORDINAL} DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, PROVISIONAL_GAMES, limit, offset),
        )
        return [_rating(row) for row in rows]

    async def ranked_count(self, guild_id: int) -> int:
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND games >= ?", (guild_id, PROVISIONAL_GAMES)
        )
        return int(row[0])

    async def provisional(self, guild_id: int, limit: int) -> tuple[list[Rating], int]:
        """The server's provisional players (not ranked), the most games first, and how many there are."""
        rows = await self.db.fetchall(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND games > 0 AND games < ?"
            f" ORDER BY games DESC, {ORDINAL} DESC, user_id LIMIT ?",
            (guild_id, PROVISIONAL_GAMES, limit),
        )
        count = await self.db.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND games > 0 AND games < ?",
            (guild_id, PROVISIONAL_GAMES),
        )
        return [_rating(row) for row in rows], int(count[0])

    async def most_games(self, guild_id: int, offset: int, limit: int) -> list[tuple[int, int]]:
        """One page of the players with the most games finished in the server: (user id, games)."""
        rows = await self.db.fetchall(
            "SELECT user_id, games FROM stats WHERE guild_id = ? AND user_id > 0 AND games > 0"
            " ORDER BY games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def most_games_count(self, guild_id: int) -> int:
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM stats WHERE guild_id = ? AND user_id > 0 AND games > 0", (guild_id,)
        )
        return int(row[0])

    async def trend(self, guild_id: int, user_id: int, games: list[int]) -> list[int | None]:
        """The player's shown rating after each of ``games`` (table ids; None: that game was not rated)."""
        if not games:
            return []
        marks = ", ".join("?" for _ in games)
        rows = await self.db.fetchall(
            "SELECT table_id, mu, sigma FROM rating_history WHERE guild_id = ? AND user_id = ?"
            f" AND table_id IN ({marks})",
            (guild_id, user_id, *games),
        )
        after = {int(row[0]): Skill(float(row[1]), float(row[2])).shown for row in rows}
        return [after.get(game) for game in games]

    async def season(self, guild_id: int) -> Season | None:
        """The server's season under way (None: no game was rated here yet)."""
        row = await self.db.fetchone(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL ORDER BY number DESC LIMIT 1", (guild_id,)
        )
        return None if row is None else _season(row)

    async def ended_season(self, guild_id: int, number: int) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM seasons WHERE guild_id = ? AND number = ? AND ended_at IS NOT NULL", (guild_id, number)
        )
        return row is not None

    async def standings(self, guild_id: int, season: int, offset: int, limit: int) -> list[Standing]:
        rows = await self.db.fetchall(
            "SELECT place, user_id, rating, games FROM season_standings WHERE guild_id = ? AND season = ?"
            " ORDER BY place LIMIT ? OFFSET ?",
            (guild_id, season, limit, offset),
        )
        return [Standing(int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def standings_count(self, guild_id: int, season: int) -> int:
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM season_standings WHERE guild_id = ? AND season = ?", (guild_id, season)
        )
        return int(row[0])

    async def scheduled_seasons(self) -> list[Season]:
        """Every season under way (of every server) that ends by itself, the soonest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM seasons WHERE ended_at IS NULL AND ends_at IS NOT NULL ORDER BY ends_at, guild_id"
        )
        return [_season(row) for row in rows]
