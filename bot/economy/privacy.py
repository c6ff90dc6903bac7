"""What the bot keeps about people and servers, and for how long (PRIVACY.md says it in words).

- :func:`forget_everywhere`: a user forgotten in every server where the bot keeps something about
  them (``/tripoley forget-me everywhere:True``, ``python -m bot forget USER_ID``), each server as
  ``Bank.forget`` forgets in one, and their preferences, which belong to no server.
- :func:`prune`: finished games older than ``RETENTION_DAYS`` deleted (state, results, replay), and
  the ledger rows of that age anonymised. A ledger row's amount stays, so every server's audit
  balances after a prune as before.
- :func:`mark_departed` / :func:`purge_departed`: a server that removed the bot is marked, and its
  data (wallets, ledger, stats, games, settings) purged ``REMOVED_SERVER_DAYS`` later, unless the bot
  came back meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from bot.economy.bank import HOUSE, Bank
from bot.economy.forgetting import FORGOTTEN
from bot.errors import NotAllowed, Refusal
from bot.settings import Settings
from bot.storage.database import Database

DAY = 86_400.0
OPEN = ("lobby", "playing")
CLOSED = ("finished", "cancelled")
# Every table with a guild_id column, in the order a server's purge deletes from them.
GUILD_TABLES = (
    "ledger",
    "wallets",
    "stats",
    "tables",
    "tournament_entrants",
    "tournaments",
    "guild_settings",
    "ratings",  # bot.competition's five
    "rated_games",
    "rating_history",
    "seasons",
    "season_standings",
    "departed_guilds",
)


@dataclass(frozen=True)
class Pruned:
    games: int  # finished games deleted
    ledger_rows: int  # ledger rows anonymised
    quarantined: int = 0  # quarantined tables deleted (settled: no chips left on them)


async def guilds_with(db: Database, user_id: int) -> list[int]:
    """The servers where the bot keeps something about the user (a wallet, stats, ledger rows, a game)."""
    rows = await db.fetchall(
        "SELECT guild_id FROM wallets WHERE user_id = ? UNION SELECT guild_id FROM stats WHERE user_id = ?"
        " UNION SELECT guild_id FROM ledger WHERE user_id = ? OR actor_id = ?"
        " UNION SELECT guild_id FROM tables WHERE host_id = ?"
        " UNION SELECT guild_id FROM tournament_entrants WHERE user_id = ?"
        " UNION SELECT guild_id FROM tournaments WHERE host_id = ?"
        " UNION SELECT guild_id FROM tables WHERE state_json LIKE ?",  # named by a log (Table.named)
        (user_id,) * 7 + (f'%"{user_id}": %',),
    )
    return sorted(int(r[0]) for r in rows)


async def seated_at_an_open_table(db: Database, user_id: int) -> bool:
    """Whether an open table, in any server and whichever process runs it, seats the user (from the
    saved seats: a join is saved with its buy-in)."""
    rows = await db.fetchall(f"SELECT state_json FROM tables WHERE status IN {OPEN}")
    return any(
        seat.get("user_id") == user_id for r in rows for seat in json.loads(r["state_json"] or "{}").get("seats") or []
    )


async def entered_in_a_tournament(db: Database, user_id: int) -> bool:
    """Whether a tournament signing up or running, in any server, has the user as an entrant still in."""
    row = await db.fetchone(
        "SELECT COUNT(*) FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.user_id = ? AND e.left_game = 0 AND t.status IN ('signup', 'running')",
        (user_id,),
    )
    return bool(row[0])


async def forget_everywhere(bank: Bank, user_id: int, seated_here: Callable[[int], bool]) -> dict[int, int]:
    """Forget the user in every server (``seated_here(guild_id)``: this process's own tables, asked
    again inside each server's transaction) and delete their preferences. Refused, with nothing
    forgotten, while an open table seats them. The chips removed, per server."""
    if user_id in (HOUSE, FORGOTTEN) or user_id < 0:
        raise ValueError("not a user id")
    if await seated_at_an_open_table(bank.db, user_id) or await entered_in_a_tournament(bank.db, user_id):
        raise NotAllowed(Refusal.SEATED_ELSEWHERE)
    removed = {}
    for guild_id in await guilds_with(bank.db, user_id):
        removed[guild_id] = await bank.forget(guild_id, user_id, partial(seated_here, guild_id))
    await bank.db.execute_alone("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
    return removed


async def prune(db: Database, retention_days: float, now: float) -> Pruned:
    """Delete the finished games (no chips on them) that ended more than ``retention_days`` ago, and the
    quarantined tables set apart that long ago whose chips went back (a table whose chips are still
    frozen waits for ``python -m bot repair``), and anonymise the ledger rows as old (their amounts
    stay: the audits balance as before)."""
    cutoff = now - retention_days * DAY
    async with db.transaction() as conn:
        old = await (
            await conn.execute(
                f"SELECT COUNT(*) FROM tables WHERE status IN {CLOSED} AND chips = 0"
                " AND COALESCE(ended_at, created_at) < ?",
                (cutoff,),
            )
        ).fetchone()
        await conn.execute(
            f"DELETE FROM tables WHERE status IN {CLOSED} AND chips = 0 AND COALESCE(ended_at, created_at) < ?",
            (cutoff,),
        )
        settled = "status = 'quarantined' AND chips = 0 AND COALESCE(quarantined_at, created_at) < ?"
        quarantined = await (await conn.execute(f"SELECT COUNT(*) FROM tables WHERE {settled}", (cutoff,))).fetchone()
        await conn.execute(f"DELETE FROM tables WHERE {settled}", (cutoff,))
        named = await (
            await conn.execute(
                "SELECT COUNT(*) FROM ledger WHERE created_at < ? AND (user_id > 0 OR actor_id > 0)", (cutoff,)
            )
        ).fetchone()
        await conn.execute("UPDATE ledger SET user_id = ? WHERE created_at < ? AND user_id > 0", (FORGOTTEN, cutoff))
        await conn.execute("UPDATE ledger SET actor_id = ? WHERE created_at < ? AND actor_id > 0", (FORGOTTEN, cutoff))
    return Pruned(int(old[0]), int(named[0]), int(quarantined[0]))


async def mark_departed(db: Database, guild_id: int, now: float) -> None:
    """The bot was removed from the server: its data is purged ``REMOVED_SERVER_DAYS`` from now."""
    await db.execute_alone(
        "INSERT INTO departed_guilds (guild_id, left_at) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at",
        (guild_id, now),
    )


async def clear_departed(db: Database, guild_id: int) -> None:
    """The bot is back in the server: nothing of it is purged."""
    await db.execute_alone("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))


async def purge_departed(db: Database, after_days: float, now: float) -> list[int]:
    """Delete every row of each server the bot left more than ``after_days`` ago (a server with a
    table still open waits until it closes). The servers purged."""
    cutoff = now - after_days * DAY
    rows = await db.fetchall("SELECT guild_id FROM departed_guilds WHERE left_at <= ?", (cutoff,))
    purged = []
    for guild_id in sorted(int(r[0]) for r in rows):
        async with db.transaction() as conn:
            still = await (
                await conn.execute(
                    "SELECT COUNT(*) FROM departed_guilds WHERE guild_id = ? AND left_at <= ?", (guild_id, cutoff)
                )
            ).fetchone()
            playing = await (
                await conn.execute(f"SELECT COUNT(*) FROM tables WHERE guild_id = ? AND status IN {OPEN}", (guild_id,))
            ).fetchone()
            if not still[0] or playing[0]:
                continue  # the bot came back, or a game still runs there
            for name in GUILD_TABLES:
                await conn.execute(f"DELETE FROM {name} WHERE guild_id = ?", (guild_id,))
        purged.append(guild_id)
    return purged


async def retain(db: Database, settings: Settings, now: float) -> tuple[Pruned | None, list[int]]:
    """The retention settings applied once (at start, daily, ``python -m bot prune``): the finished
    games pruned (None: RETENTION_DAYS keeps them for ever) and the departed servers purged."""
    pruned = await prune(db, settings.retention_days, now) if settings.retention_days is not None else None
    return pruned, await purge_departed(db, settings.removed_server_days, now)
