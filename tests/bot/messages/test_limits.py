"""Discord's limits at the biggest tables: every preset at its most seats, 32-character names, a
whole game of AI choices. Every table message, hand view, round result, log page and the final
message passes the fake Discord's validation (Discord's own limits), and the table message always
keeps whose turn it is and the deadline."""

from __future__ import annotations

import random

import discord
import pytest

from bot.discordio.ui import build_view
from bot.messages import story
from bot.messages.outgoing import Outgoing, hand_message, table_message
from bot.tables.model import Seat, Table
from engine import Game
from engine.ai import autoplay
from engine.presets import PRESETS
from tests.fakediscord.server import validate_message

NAME = "W" * 30  # with a two-digit seat number: 32 characters, Discord's longest display name
DEADLINE = 2_000_000_000


def check(out) -> None:
    """Raises (as Discord would answer 400) if the message passes a limit."""
    payload = {"content": out.clipped(), "embeds": out.embeds}
    if out.components:
        payload["components"] = build_view(out.components).to_components()
    validate_message(payload, [], creating=True)
    assert len(out.text) <= 2000, len(out.text)
    assert len((out.alt or "")[:1000]) <= 1024


def big_table(preset: str) -> Table:
    n = PRESETS[preset].max_players
    names = [f"{i:02d}{NAME}" for i in range(n)]
    table = Table(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=10**17,
        preset=preset,
        options={"game_end": "rounds:1"},
        buy_in=200,
        turn_timeout=60,
        ai_pause=1,
        status="playing",
    )
    table.seats = [Seat(name=name, user_id=10**17 + i, stake=200) for i, name in enumerate(names)]
    table.game = Game.new(preset, names, options={"game_end": "rounds:1"}, stacks=[200] * n, seed=11)
    return table


@pytest.mark.parametrize("preset", list(PRESETS))
def test_biggest_table_stays_within_discord_limits(preset):
    table = big_table(preset)
    game = table.game
    decisions = 0
    for aw in autoplay(game, rng=random.Random(2)):
        if aw is None:
            continue
        decisions += 1
        table.deadline, table.deadline_kind, table.deadline_seat = DEADLINE, "turn", aw.seat
        for line in ("X" * 150, "Y" * 150):  # a long log: shortened first
            table.add_log(line)
        out = table_message(table)
        check(out)
        mention = f"<@{table.seats[aw.seat].user_id}>"
        assert f"⏳ {mention} to act" in out.text or f"⏳ Waiting for {mention}" in out.text, out.text
        assert f"<t:{DEADLINE}:R>" in out.text, out.text
        check(hand_message(table, aw.seat, game.view(aw.seat)))
    assert decisions > 0
    table.status = "finished"
    table.result = {
        "preset_name": PRESETS[preset].name,
        "rounds": 1,
        "seats": [{"name": s.name, "user_id": s.user_id, "final": 200, "net": 0} for s in table.seats],
    }
    check(table_message(table))
    history = [dict(e) for record in game.log for e in record["events"]]
    results = story.stories(table, history, finished=True)
    assert results and results[0]["title"] == "Round 1 — who collected what"
    for embed in results:
        check(Outgoing("", embeds=[embed]))
    page = 0
    while True:
        embed, page, pages = story.log_embed(table, game.round_number, page)
        check(Outgoing("", embeds=[embed]))
        if page == pages - 1:
            break
        page += 1


def test_long_log_is_shortened_before_the_turn_line():
    table = big_table("rummy-royal")
    table.game.next_deal()
    table.deadline, table.deadline_kind = DEADLINE, "turn"
    table.deadline_seat = table.game.awaiting().seat
    for i in range(10):
        table.add_log(f"line {i} " + "Z" * 180)
    text = table_message(table).text
    assert len(text) <= 2000 and text.rstrip().endswith(f"<t:{DEADLINE}:R>")
    assert "line 9" in text or "line" not in text  # the newest lines are the last to go


def test_log_pages_hold_the_whole_round():
    table = big_table("tripoley-rulebook")
    table.game.next_deal()
    lines = [f"event {i}: " + "V" * 90 for i in range(300)]
    for line in lines:
        table.add_log(line)
    pages = story.log_pages(table, table.round)
    assert len(pages) > 1 and all(len(p) <= 4096 for p in pages)
    text = "\n".join(pages)
    assert all(line in text for line in lines)
    assert (
        discord.Embed.from_dict(story.log_embed(table, table.round, 99)[0]).footer.text
        == f"Page {len(pages)}/{len(pages)}"
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_table_tools_stay_within_discord_limits(preset):
    """Every seat has missed a turn (a vote button each: at most one row of them), the space-rules
    menu lists the whole mat, the host's confirmation names the longest name."""
    from bot.messages.components import kick_confirmation, space_rules_select

    table = big_table(preset)
    table.game.next_deal()
    aw = table.game.awaiting()
    table.deadline, table.deadline_kind, table.deadline_seat = DEADLINE, "turn", aw.seat
    for seat in table.seats:
        seat.timeouts, seat.votes = 1, [1, 2, 3]
    out = table_message(table)
    check(out)
    votes = [c for c in out.components if c.label.startswith("Vote: AI for ")]
    assert len(votes) == 5 and all(c.label.endswith(")") for c in votes)
    check(Outgoing("Pick a space of the mat to see what pays it.", [space_rules_select(table)]))
    check(Outgoing("Hand it to an AI?", kick_confirmation(table.id, 10**19, NAME + "xx")))
