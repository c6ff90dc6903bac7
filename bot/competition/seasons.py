"""A server's seasons: ``/tripoley-admin season`` sets their length (monthly, weekly, none) or ends
the one under way; a season with a length ends by itself.

Its end is an absolute wall time saved with the season (``seasons.ends_at``): :meth:`Seasons.run`
waits for the soonest one of the servers this process owns, so a restart re-arms it from the
database, and a season whose end passed while the bot was down ends as soon as it is back. Ending is
one transaction keyed by the season (:meth:`CompetitionStore.close_season`): the final standings
kept, the ratings softened, the next season begun; ending twice ends nothing the second time.

Wallets are untouched, unless the admin asks (``reset_chips``): then every balance goes back to the
starting amount through the bank's ledger (:meth:`bot.economy.bank.Bank.reset`, refused while a
table is open), before the season is ended.
"""

from __future__ import annotations

import asyncio
import calendar
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.competition.store import LENGTHS, CompetitionStore, Season, Standing
from bot.economy.bank import Bank, week_start

log = logging.getLogger(__name__)
TOP_PLACES = 10  # the places a season's end posts (all of them: /tripoley leaderboard season:N)
LONGEST_WAIT = 300.0  # seconds the timer sleeps at most before it looks again (a wall clock stepped)


def season_end(length: str, now: float) -> float | None:
    """When a season of ``length`` begun at ``now`` ends: the next Monday 00:00 UTC (weekly), the
    first of the next month 00:00 UTC (monthly), never (none)."""
    if length not in LENGTHS:
        raise ValueError(f"unknown season length {length!r}")
    if length == "weekly":
        return (datetime.fromtimestamp(week_start(now), UTC) + timedelta(days=7)).timestamp()
    if length == "monthly":
        day = datetime.fromtimestamp(now, UTC)
        year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
        return float(calendar.timegm((year, month, 1, 0, 0, 0)))
    return None


@dataclass(frozen=True)
class Reset:
    """The wallets reset with a season's end: by whom, to what (the house: to its bankroll)."""

    actor_id: int
    starting: int
    bankroll: int


@dataclass(frozen=True)
class SeasonEnded:
    """A season that just ended: where to post it, its top places, how many were placed, the
    wallets reset with it and how many (None: untouched)."""

    guild_id: int
    number: int
    channel_id: int | None
    top: list[Standing]
    placed: int
    reset: Reset | None = None
    wallets_reset: int | None = None


class Seasons:
    def __init__(self, store: CompetitionStore, bank: Bank, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.db = store.db
        self.bank = bank
        self.clock = clock
        self.changed = asyncio.Event()  # a season's end time changed: the timer looks again

    async def set_length(self, guild_id: int, length: str, channel_id: int | None) -> Season:
        """The season under way runs for ``length`` from its start (an end already past ends it at
        the timer's next look); its standings are posted in ``channel_id``."""
        now = self.clock()
        async with self.db.transaction() as conn:
            season = await self.store.current_season(conn, guild_id, now)
            ends_at = season_end(length, season.started_at)
            await self.store.set_season(conn, guild_id, season.number, length, ends_at, channel_id)
        self.changed.set()
        return Season(guild_id, season.number, length, season.started_at, ends_at, channel_id)

    async def current(self, guild_id: int) -> Season:
        """The season under way (the first one begun now if the server has none yet)."""
        async with self.db.transaction() as conn:
            return await self.store.current_season(conn, guild_id, self.clock())

    async def end(self, guild_id: int, channel_id: int | None = None, reset: Reset | None = None) -> SeasonEnded | None:
        """End the season under way now (None: it was ended meanwhile). ``channel_id``: where to post
        it when the admin set no channel."""
        wallets = None
        if reset is not None:
            wallets = await self.bank.reset(guild_id, reset.actor_id, reset.starting, reset.bankroll)
        now = self.clock()
        async with self.db.transaction() as conn:
            season = await self.store.current_season(conn, guild_id, now)
            ended = await self.store.close_season(conn, season, now, season_end(season.length, now))
        self.changed.set()
        if not ended:
            return None
        return SeasonEnded(
            guild_id,
            season.number,
            season.channel_id or channel_id,
            await self.store.standings(guild_id, season.number, 0, TOP_PLACES),
            await self.store.standings_count(guild_id, season.number),
            reset,
            wallets,
        )

    async def end_due(self, owns: Callable[[int], bool]) -> tuple[list[SeasonEnded], float | None]:
        """End every season of this process's servers whose time has come; when the next one ends."""
        ended: list[SeasonEnded] = []
        soonest = None
        for season in await self.store.scheduled_seasons():
            if not owns(season.guild_id) or season.ends_at is None:
                continue
            if season.ends_at > self.clock():
                soonest = season.ends_at if soonest is None else min(soonest, season.ends_at)
                continue
            done = await self.end_if_current(season)
            if done is not None:
                ended.append(done)
        return ended, soonest

    async def end_if_current(self, season: Season) -> SeasonEnded | None:
        """End ``season`` by its timer, unless an admin ended it meanwhile."""
        current = await self.store.season(season.guild_id)
        if current is None or current.number != season.number:
            return None
        return await self.end(season.guild_id)

    async def run(self, owns: Callable[[int], bool], announce: Callable[[SeasonEnded], Awaitable[None]]) -> None:
        """The seasons' timer, for ever: each season that runs out is ended and ``announce``-d."""
        while True:
            self.changed.clear()
            try:
                ended, soonest = await self.end_due(owns)
            except Exception:  # noqa: BLE001 - the database away, a bug: logged, tried again later
                log.exception("ending the seasons that ran out failed; trying again later")
                ended, soonest = [], self.clock() + LONGEST_WAIT
            for season in ended:
                try:
                    await announce(season)
                except Exception:  # noqa: BLE001 - a channel gone: the standings stay kept
                    log.exception("posting season %s's standings in server %s failed", season.number, season.guild_id)
            wait = LONGEST_WAIT if soonest is None else min(LONGEST_WAIT, max(0.0, soonest - self.clock()))
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=wait)
            except TimeoutError:
                pass
