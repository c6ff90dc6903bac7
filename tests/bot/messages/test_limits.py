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
from bot.messages.buttonids import card_values
from bot.messages.components import MAX_OPTIONS, SelectSpec, card_pool
from bot.messages.outgoing import Outgoing, hand_message, table_message
from bot.tables.model import Seat, Table
from engine import Game
from engine.ai import autoplay
from engine.presets import PRESETS
from tests.contract import check_components
from tests.fakediscord.server import validate_message

NAME = "W" * 30  # with a two-digit seat number: 32 characters, Discord's longest display name
DEADLINE = 2_000_000_000


def check(out) -> None:
    """Raises (as Discord would answer 400) if the message passes a limit."""
    payload = {"content": out.clipped(), "embeds": out.embeds}
    if out.components:
        payload["components"] = build_view(out.components).to_components()
        check_components(payload["components"])
    validate_message(payload, [], creating=True)
    assert len(out.text) <= 2000, len(out.text)
    assert len((out.alt or "")[:1000]) <= 1024


def wire(embed: dict) -> dict:
    """An embed as discord.py sends it (``from_dict`` reads only the keys Discord knows: a
    ``colour`` key would be dropped and the embed go out grey)."""
    return discord.Embed.from_dict(embed).to_dict()


def big_table(preset: str, n: int | None = None) -> Table:
    n = n or PRESETS[preset].max_players
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


def check_hand_view(table: Table, seat: int, view: dict) -> None:
    """The hand view within Discord's limits, and its card menus offer every card of the hand (no
    hand the bot deals holds more than a select's 25 options, so none is left out)."""
    out = hand_message(table, seat, view)
    check(out)
    pool = card_pool(view)
    assert len(pool) <= MAX_OPTIONS, f"{len(pool)} cards: more than a select offers"
    for spec in out.components:
        if isinstance(spec, SelectSpec) and spec.custom_id.split(":")[3] in ("pick.choose", "pick.pass_cards"):
            assert [v for _, v in spec.options] == card_values(pool)


@pytest.mark.parametrize("seats", [2, 7, 20])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_hand_view_fits_discord_at_every_table_size(preset, seats):
    """Two seats deal the biggest hands; from 6 seats the Rulebook presets deal 2–4 decks (a hand
    may hold a card twice)."""
    if not PRESETS[preset].min_players <= seats <= PRESETS[preset].max_players:
        pytest.skip(f"{preset} seats {PRESETS[preset].min_players}–{PRESETS[preset].max_players}")
    table = big_table(preset, seats)
    game = table.game
    for aw in autoplay(game, rng=random.Random(seats)):
        if aw is not None:
            check_hand_view(table, aw.seat, game.view(aw.seat))


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
        check_hand_view(table, aw.seat, game.view(aw.seat))
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
        assert wire(embed)["color"] == story.RESULT_COLOUR
    page = 0
    while True:
        embed, page, pages = story.log_embed(table, game.round_number, page)
        check(Outgoing("", embeds=[embed]))
        assert wire(embed)["color"] == story.LOG_COLOUR
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


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_lobby_and_its_house_rules_menu_stay_within_discord_limits(preset):
    """The host's menu of house rules: one option per rule value, at most 25 (check_components)."""
    from bot.messages.outgoing import lobby_message
    from engine.rulebook import house_rules

    table = big_table(preset)
    table.status, table.game = "lobby", None
    out = lobby_message(table)
    check(out)
    menus = [c for c in out.components if isinstance(c, SelectSpec)]
    assert len(menus) == (1 if house_rules(preset) else 0)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_deal_gives_a_hand_more_cards_than_a_menu_offers(preset):
    """At every table size the bot offers (decks by the player count: the Rulebook table), no hand
    nor spare hand is dealt more than a select's 25 options, so every card of a hand is in its menus
    (a hand only grows by a swap with the spare hand, and passes keep its size)."""
    info = PRESETS[preset]
    for n in range(info.min_players, info.max_players + 1):
        game = Game.new(preset, [f"p{i}" for i in range(n)], options={"game_end": "rounds:1"}, seed=n)
        for _ in autoplay(game, rng=random.Random(n)):
            if game.r is not None and any(game.r.hands):  # Rummy Royal's corner bets come before its deal
                break
        assert game.r is not None
        sizes = [len(hand) for hand in game.r.hands] + [len(game.r.spare or [])]
        assert 0 < max(sizes) <= MAX_OPTIONS, (n, sizes)
