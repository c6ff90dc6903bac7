"""Finished games for the web's tests: played by AI seats in the engine, saved as the bot saves a
finished game (its row, its results with the players' ids and names, its replay file)."""

from __future__ import annotations

import json
import random

from bot.storage.database import Database
from engine import Game
from engine.simulate import choose_action

HOSTILE = ("<script>alert(1)</script>", "{{ 7*7 }}", "Bob & \"Ann\" 'x' </td>")


def played(names: tuple[str, ...] = HOSTILE, seed: int = 3, rounds: int = 2, preset: str = "tripoley") -> Game:
    """A game played to its end by the heuristic AI (the same game for the same arguments)."""
    game = Game.new(preset, list(names), seed=seed, options={"game_end": f"rounds:{rounds}"})
    rng = random.Random(seed)
    while not game.finished:
        game.next_deal()
        while (aw := game.awaiting()) is not None:
            game.apply(choose_action(game, aw.seat, "heuristic", rng))
    return game


async def save_finished(
    db: Database, game: Game, guild_id: int, user_ids: list[int], ended_at: float = 1e9, locale: str | None = None
) -> int:
    """The game as a finished table of the server; its id (``locale``: the table's language, kept in its
    saved state as the bot keeps it; None: a state without one, as an older table's)."""
    seats = [
        {
            "seat": i,
            "name": name,
            "user_id": uid,
            "final": game.stacks[i],
            "net": game.stacks[i] - game.initial_stacks[i],
        }
        for i, (name, uid) in enumerate(zip(game.players, user_ids, strict=True))
    ]
    result = {"preset_name": game.preset.name, "seats": seats}
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, preset, status, chips, state_json, result_json,"
            " replay_json, created_at, started_at, ended_at) VALUES (?, 5, ?, ?, 'finished', 0, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                user_ids[0],
                game.preset_key,
                json.dumps({} if locale is None else {"locale": locale}),
                json.dumps(result),
                json.dumps(game.to_replay()),
                ended_at - 100,
                ended_at - 100,
                ended_at,
            ),
        )
        return int(cursor.lastrowid)
