"""What is kept of a game once it ends: its whole log (saved with the finished game, every round),
its highlights (the biggest pot, the best hand, each player's pots and best hand) in the final
message's words and in the standings picture, and the final message's Rematch, Log and Replay."""

from __future__ import annotations

import json

from bot.messages import story
from bot.messages.components import final_components
from bot.messages.outgoing import summary_view, table_message
from bot.messages.text import escape
from bot.tables.results import hand_rank
from images import render_summary
from tests.bot.tables.test_manager import ANN, BOB, C, G, lobby


async def finished_game(manager, clock, rounds: int):
    """A game of Ann, Bob and an AI played to its end by the timers (the humans time out)."""
    table = await lobby(manager, ai=1, options={"game_end": f"rounds:{rounds}"})
    await manager.lobby.start(C, ANN)
    for _ in range(3000):
        if table.status != "playing":
            break
        clock.t = table.deadline
        await manager.timers.tick()
    assert table.status == "finished"
    return table


async def test_the_whole_game_log_is_kept_with_the_finished_game(manager, clock):
    table = await finished_game(manager, clock, rounds=3)
    preset, rounds = await manager.store.game_log(G, table.id)
    assert preset == "tripoley" and sorted(map(int, rounds)) == list(range(1, table.result["rounds"] + 1))
    assert "user11 opened the table." in rounds["1"]
    assert any("ran out of time" in line or "(timed out)" in line for line in rounds["1"])
    assert table.log[-1] in rounds[max(rounds, key=int)], "the last line is kept too"
    assert await manager.store.game_log(G + 1, table.id) is None, "another server's game is not handed out"
    # Paged as the Log button shows it: every line of every round, in order, each page an embed's worth.
    embed, page, pages = story.game_log_embed(table.id, preset, rounds, 0)
    assert page == 0 and embed["footer"]["text"] == f"Page 1/{pages}" and "Tripoley" in embed["title"]
    text = "\n".join(story.game_log_embed(table.id, preset, rounds, p)[0]["description"] for p in range(pages))
    lines = [f"› {line}" for n in sorted(rounds, key=int) for line in rounds[n]]
    assert [line for line in text.splitlines() if line.startswith("› ")] == lines
    assert all(f"**Round {n}**" in text for n in rounds)


async def test_the_final_message_names_the_biggest_pot_the_best_hand_and_each_result(manager, clock):
    table = await finished_game(manager, clock, rounds=2)
    result = table.result
    highlights = result["highlights"]
    payouts = [e for e in table.game.history if e["type"] == "payout"]
    pot = highlights["biggest_pot"]
    assert pot["amount"] == max(e["amount"] for e in payouts)
    first = next(e for e in payouts if e["amount"] == pot["amount"])  # the earliest of equal pots
    assert pot["name"] == table.seats[first["seat"]].name and pot["round"] >= 1
    best = max(result["seats"], key=lambda s: s["best_hand_rank"])
    if best["best_hand"] is None:
        assert highlights["best_hand"] is None
    else:
        assert highlights["best_hand"]["hand"] == best["best_hand"]
        assert hand_rank(highlights["best_hand"]["hand"]) == best["best_hand_rank"]

    out = table_message(table)
    assert f"💰 Biggest pot: **{pot['amount']}** chips to {escape(pot['name'])}" in out.text
    for seat in result["seats"]:
        assert f"{seat['pots_won']} pot" in out.text
    if highlights["best_hand"]:
        assert f"🃏 Best hand: {escape(highlights['best_hand']['name'])}'s" in out.text
    assert [c.label for c in final_components(table)] == ["Rematch", "Log", "Replay"]
    assert out.render == "summary" and out.view == summary_view(table)
    picture = render_summary(out.view)
    assert f"Biggest pot: {pot['amount']} chips to {pot['name']}" in picture.alt
    assert all(f"{s['pots_won']} pot" in picture.alt for s in result["seats"])
    plain = render_summary(
        {
            **out.view,
            "highlights": [],
            "standings": [{**row, "detail": None} for row in out.view["standings"]],
        }
    )
    assert picture.height > plain.height, "the highlights and each player's line take room of their own"


async def test_a_players_games_one_by_one_and_per_game_of_the_family(manager, clock):
    """What the stats chart is drawn from: the last games oldest first, and the results by preset."""
    games = [await finished_game(manager, clock, rounds=1) for _ in range(2)]
    mine = [next(s for s in t.result["seats"] if s["user_id"] == ANN) for t in games]
    played = await manager.store.player_games(G, ANN)
    assert [(g["id"], g["preset"], g["final"], g["net"], g["winner"]) for g in played] == [
        (t.id, "tripoley", s["final"], s["net"], s["winner"]) for t, s in zip(games, mine)
    ]
    assert [g["id"] for g in await manager.store.player_games(G, ANN, limit=1)] == [games[-1].id]
    assert await manager.store.player_presets(G, ANN) == [
        {
            "preset": "tripoley",
            "games": 2,
            "wins": sum(s["winner"] for s in mine),
            "net": sum(s["net"] for s in mine),
        }
    ]
    assert await manager.store.player_games(G + 1, ANN) == [] and await manager.store.player_presets(G + 1, ANN) == []


async def test_forget_me_takes_the_player_out_of_the_kept_log_and_highlights(manager, clock, bank):
    table = await finished_game(manager, clock, rounds=2)
    named = {key: h for key, h in table.result["highlights"].items() if h and h["name"] == "user22"}
    await bank.forget(G, BOB, lambda: False)
    _, rounds = await manager.store.game_log(G, table.id)
    assert rounds and not any("user22" in line for lines in rounds.values() for line in lines)
    (game,) = await manager.store.history(G)
    for key in named:
        assert game["result"]["highlights"][key]["name"] == "a former player"
    assert "user22" not in json.dumps(game["result"])
