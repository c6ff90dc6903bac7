"""What forget-me changes besides the wallets and the ledger (:meth:`bot.economy.bank.Bank.forget` runs
it in its own transaction): the names and ids kept with closed tables and with tournaments, and the
check that the player is not still in an open tournament (bot/tournaments: their buy-in is in its pot)."""

from __future__ import annotations

import json

from bot.messages.text import escape
from bot.storage.dialect import Connection

FORGOTTEN = -1  # the user id of ledger rows whose player asked to be forgotten

FORGOTTEN_NAME = "a former player"
# A quarantine reason that named a forgotten player (an error text may quote anything).
FORGOTTEN_REASON = "set apart (its reason named a player who has since been forgotten)"


# A quarantined table's state that cannot be read, once it named a forgotten player: the table's chips
# are settled from the ledger (bot.tables.quarantine), never from its state, so nothing is lost.
UNREADABLE_STATE_REMOVED = json.dumps({"seats": [], "log": [], "unreadable_state_removed": True})


async def entered_in_open_tournament(conn: Connection, guild_id: int, user_id: int) -> bool:
    """Whether the player is an entrant still in a tournament of the server that is signing up or
    running (bot/tournaments): their buy-in is in its pot, a prize may be theirs."""
    async with conn.execute(
        "SELECT COUNT(*) FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.guild_id = ? AND e.user_id = ? AND e.left_game = 0 AND t.status IN ('signup', 'running')",
        (guild_id, user_id),
    ) as cur:
        row = await cur.fetchone()
    return bool(row[0])


async def forget_in_tournaments(conn: Connection, guild_id: int, user_id: int) -> None:
    """Inside the caller's transaction: the player's entries in the server's tournaments lose their name
    and id (their place and prize stay, so the standings still add up), and so does a tournament they
    hosted. Their seats at the tournaments' tables are tables' seats (:func:`forget_in_tables`)."""
    await conn.execute(
        "UPDATE tournament_entrants SET user_id = ?, name = ? WHERE guild_id = ? AND user_id = ?",
        (FORGOTTEN, FORGOTTEN_NAME, guild_id, user_id),
    )
    await conn.execute(
        "UPDATE tournaments SET host_id = ? WHERE guild_id = ? AND host_id = ?", (FORGOTTEN, guild_id, user_id)
    )


async def forget_in_tables(conn: Connection, guild_id: int, user_id: int) -> None:
    """Inside the caller's transaction: the player's seat in every closed or quarantined table of the
    server loses its name and id (saved seats, the game's players, results, the host), and the log
    lines naming them are dropped, also at tables they only passed through (a lobby they left: the
    table keeps the names of everyone it ever named, ``named``)."""
    await conn.execute(
        "UPDATE tables SET host_id = ? WHERE guild_id = ? AND host_id = ?", (FORGOTTEN, guild_id, user_id)
    )
    async with conn.execute(
        "SELECT id, status, state_json, result_json, replay_json, quarantine_reason FROM tables"
        " WHERE guild_id = ? AND status IN ('finished', 'cancelled', 'quarantined')",
        (guild_id,),
    ) as cur:
        fetched = await cur.fetchall()
    replays = {r["id"]: r["replay_json"] for r in fetched}
    rows = []
    for r in fetched:
        try:
            state = json.loads(r["state_json"] or "{}")
            if not isinstance(state, dict):
                raise ValueError("not an object")
        except ValueError:  # a quarantined table's unreadable state: dropped if it may name them
            if str(user_id) in (r["state_json"] or ""):
                await conn.execute("UPDATE tables SET state_json = ? WHERE id = ?", (UNREADABLE_STATE_REMOVED, r["id"]))
            state = {}
        rows.append((r["id"], state, r["result_json"], r["quarantine_reason"]))
    key = str(user_id)
    names = {s.get("name") for _, state, _, _ in rows for s in state.get("seats") or [] if s.get("user_id") == user_id}
    names |= {state.get("named", {}).get(key) for _, state, _, _ in rows}
    names.discard(None)
    names.discard("")
    names |= {escape(n) for n in names}  # the log's lines name players as Discord text

    def unnamed(lines: list[str]) -> list[str]:
        return [line for line in lines if not any(n in line for n in names)]

    for table_id, state, result_json, reason in rows:
        log = state.get("log") or []
        kept = unnamed(log)
        stories = state.get("round_logs") or {}
        kept_stories = {number: unnamed(lines) for number, lines in stories.items()}
        mine = any(s.get("user_id") == user_id for s in state.get("seats") or []) or key in state.get("named", {})
        if reason and (key in reason or any(n in reason for n in names)):
            await conn.execute("UPDATE tables SET quarantine_reason = ? WHERE id = ?", (FORGOTTEN_REASON, table_id))
        if not mine and len(kept) == len(log) and kept_stories == stories:
            continue
        state.get("named", {}).pop(key, None)
        state["log"] = kept
        state["round_logs"] = kept_stories
        game = json.loads(state["game"]) if isinstance(state.get("game"), str) else None
        for index, seat in enumerate(state["seats"]):
            if seat.get("user_id") == user_id:
                seat["name"], seat["user_id"] = FORGOTTEN_NAME, FORGOTTEN
                if game is not None and index < len(game.get("players") or []):
                    game["players"][index] = FORGOTTEN_NAME  # the game's record names its players
        if game is not None:
            state["game"] = json.dumps(game, separators=(",", ":"))
        result = json.loads(result_json) if result_json else None
        forgotten_seats = set()
        for seat in (result or {}).get("seats") or []:
            if seat.get("user_id") == user_id:
                seat["name"], seat["user_id"] = FORGOTTEN_NAME, FORGOTTEN
                forgotten_seats.add(seat.get("seat"))
        for highlight in ((result or {}).get("highlights") or {}).values():
            if highlight and highlight.get("seat") in forgotten_seats:
                highlight["name"] = FORGOTTEN_NAME
        replay = json.loads(replays[table_id]) if replays.get(table_id) else None
        if replay is not None and game is not None:  # the replay file names the players as the game does
            replay["players"] = list(game.get("players") or replay.get("players") or [])
        await conn.execute(
            "UPDATE tables SET state_json = ?, result_json = ?, replay_json = ? WHERE id = ?",
            (
                json.dumps(state),
                json.dumps(result) if result is not None else None,
                json.dumps(replay) if replay is not None else None,
                table_id,
            ),
        )
