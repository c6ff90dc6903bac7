"""The bot's faults are never the players' (issue 30): the real bot (in process) against the fake
Discord, with faults injected on a game in progress. A click made in time during a gateway outage is
applied when it arrives and nobody is charged a timeout; a click made after the deadline is refused
and changes nothing; the wall clock stepped either way times nobody out and freezes nothing; a
grant, a buy-in during an outage whose acknowledgements fail grant nothing; a move's callback
answered 502 and then 40060 is applied once and shown. The chip books balance after each.

Times are scaled: Discord's outages of 30-50 s become 2 s here, its 3 s answer window 0.5 s where
an answer must come too late."""

from __future__ import annotations

import asyncio
import logging
import time

import bot.tables.clock as clock_module
from bot.messages.controls import GENERIC_FAILURE
from tests.cogs.test_cog_e2e_fake_discord import find_button, open_lobby, play_one_move, settle, start_bot, start_game

PLAIN = ("Check", "Call", "Keep my hand", "Pass", "Claim!")  # a decision taken with one click on the mat


async def a_game(dh, bot):
    """Alice (host), Bob and an AI playing in #general; the channel's id and the users by id."""
    lobby = await open_lobby(dh, rounds=3)
    await start_game(dh, bot, lobby)
    users = {dh.user(name).id: name for name in ("alice", "bob")}
    return dh.channel("general").id, users


async def a_plain_turn(dh, bot, channel_id, users):
    """Play on until a human is to act with one click on the table message: (table, seat, user,
    the table message, that button's id)."""
    table = bot.manager.registry.by_channel[channel_id]
    for _ in range(80):
        await dh.wait_for(
            lambda: table.deadline_kind == "turn" and table.awaiting() is not None, 10, what="a human's turn"
        )
        await settle(bot)
        mat = dh.message(table.mat_message_id)
        label = next((word for word in PLAIN if find_button(mat, word)), None)
        if label is not None:
            seat = table.awaiting().seat
            return table, seat, users[table.seats[seat].user_id], mat, find_button(mat, label)["custom_id"]
        await play_one_move(dh, bot, channel_id, {uid: name for uid, name in users.items()})
    raise AssertionError("no plain decision came up")


async def books_balance(bot, dh) -> None:
    audit = await bot.bank.audit(dh.guild.id)
    assert audit.ok, audit


def decisions_of(table, seat: int) -> int:
    """How many decisions the seat has made in this game (the replay's record of them)."""
    return sum(1 for rec in table.running_game.log for a in rec.get("actions", []) if a.get("seat") == seat)


def errors_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_click_made_in_time_during_an_outage_is_applied_and_costs_no_timeout(
    discord_harness, bot_settings, caplog
):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    channel_id, users = await a_game(dh, bot)
    table, seat, user, mat, button = await a_plain_turn(dh, bot, channel_id, users)
    version = table.version
    table.deadline = bot.clock.now() + 1.0  # one second left to decide
    bot.manager.flow.wake()
    caplog.set_level(logging.INFO, "bot.tables.timers")
    await dh.gateway_outage(2.0)  # past the deadline
    await asyncio.sleep(0.6)
    click = await dh.click(user, mat, custom_id=button)  # made with 0.4 s left, heard when Discord is back
    await dh.wait_resumed()
    await click.response()
    assert click.response_type == 6  # acknowledged within Discord's 3 s of the click
    await dh.wait_for(lambda: table.version != version, 5, what="the move to apply")
    assert table.seats[seat].timeouts == 0
    assert not [line for line in table.log if "ran out of time" in line]
    assert [r for r in caplog.records if "could not hear its players" in r.getMessage()]
    await books_balance(bot, dh)
    assert not errors_logged(caplog)


async def test_a_click_made_after_the_deadline_is_refused_and_changes_nothing(discord_harness, bot_settings, caplog):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    channel_id, users = await a_game(dh, bot)
    table, seat, user, mat, button = await a_plain_turn(dh, bot, channel_id, users)
    version, log_length = table.version, len(table.log)
    async with table.lock:  # the timer a moment behind (the lock held, e.g. by a save under way)
        table.deadline = bot.clock.now() - 0.2
        click = await dh.click(user, mat, custom_id=button)
        refusal = await click.message()
        assert refusal.ephemeral and "had run out when you clicked" in refusal.content
        assert table.version == version and len(table.log) == log_length
    # The timer then plays the timeout the player was late for.
    await dh.wait_for(lambda: table.seats[seat].timeouts == 1, 5, what="the timeout")
    await books_balance(bot, dh)
    assert not errors_logged(caplog)


class SteppedWall:
    """The ``time`` module as the bot's clock sees it: the wall clock ``ahead`` seconds off, monotonic
    time as it is (an operator or NTP stepping the system clock)."""

    ahead = 0.0
    monotonic = staticmethod(time.monotonic)

    @classmethod
    def time(cls) -> float:
        return time.time() + cls.ahead


async def test_the_wall_clock_stepped_either_way_times_nobody_out_and_freezes_nothing(
    discord_harness, bot_settings, caplog, monkeypatch
):
    dh = discord_harness
    monkeypatch.setattr(SteppedWall, "ahead", 0.0)
    monkeypatch.setattr(clock_module, "time", SteppedWall)
    bot, _ = await start_bot(dh, bot_settings)
    channel_id, users = await a_game(dh, bot)
    lobby = await (await dh.run_command("carol", "tripoley", "tripoley start", preset="tripoley")).message()
    assert "table open" in lobby.content
    waiting = bot.manager.registry.by_channel[dh.channel("tripoley").id]
    table, seat, *_ = await a_plain_turn(dh, bot, channel_id, users)
    deadlines = (table.deadline, waiting.deadline)

    SteppedWall.ahead = 3600.0  # an hour forward
    await asyncio.sleep(1.5)  # the timer loop looks at least every second
    assert table.seats[seat].timeouts == 0 and table.awaiting().seat == seat
    assert waiting.status == "lobby" and (table.deadline, waiting.deadline) == deadlines

    table.deadline = bot.clock.now() + 1.0  # one second left, then 10 minutes back
    bot.manager.flow.wake()
    SteppedWall.ahead = -600.0
    began = time.monotonic()
    await dh.wait_for(lambda: table.seats[seat].timeouts == 1, 5, what="the deadline, not 10 minutes later")
    assert time.monotonic() - began < 4
    steps = [r.getMessage() for r in caplog.records if "wall clock stepped" in r.getMessage()]
    assert len(steps) == 2, steps  # each step logged once
    assert waiting.status == "lobby"
    await books_balance(bot, dh)
    assert not errors_logged(caplog)


async def test_daily_relief_and_join_answered_too_late_after_an_outage_grant_nothing(
    discord_harness, bot_settings, caplog
):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
    table = bot.manager.registry.by_channel[dh.channel("general").id]
    dave = dh.user("dave").id
    await bot.bank.adjust(dh.guild.id, dave, -990, dh.user("alice").id, 1000)  # 10 left: relief is due
    before = {u: await bot.bank.balance(dh.guild.id, dh.user(u).id, 1000) for u in ("alice", "carol", "dave")}
    caplog.set_level(logging.INFO)
    dh.server.ack_window = 0.5  # Discord's 3 s, scaled
    await dh.gateway_outage(1.5)
    await asyncio.sleep(0.2)
    clicks = [
        await dh.run_command("alice", "general", "tripoley daily"),
        await dh.run_command("dave", "general", "tripoley relief"),
        await dh.click("carol", lobby, label="Join"),
    ]
    await dh.wait_resumed()
    await dh.wait_for(lambda: all(c.record.late for c in clicks), 5, what="the answers refused as too late")
    await asyncio.sleep(0.3)  # what a grant made anyway would have had time to do
    after = {u: await bot.bank.balance(dh.guild.id, dh.user(u).id, 1000) for u in ("alice", "carol", "dave")}
    assert after == before
    for user in ("alice", "dave"):
        assert await bot.bank.last_claims(dh.guild.id, dh.user(user).id) == {}
    assert [s.user_id for s in table.seats] == [dh.user("alice").id]
    await books_balance(bot, dh)
    assert not errors_logged(caplog)
    assert [r for r in caplog.records if "(10062): dropped" in r.getMessage()]


async def test_a_move_whose_callback_answers_502_then_40060_is_applied_once_and_shown(
    discord_harness, bot_settings, caplog
):
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    channel_id, users = await a_game(dh, bot)
    table, seat, user, mat, button = await a_plain_turn(dh, bot, channel_id, users)
    version, decisions = table.version, decisions_of(table, seat)
    dh.faults.fail_after_applying("POST /interactions/*", status=502)
    # discord.py sends the answer again after the 502, and Discord refuses that second answer: as meant.
    dh.expect_violation("POST /interactions/*", "40060")
    click = await dh.click(user, mat, custom_id=button)
    await click.response()
    assert click.response_type == 6
    await dh.wait_for(lambda: table.version != version, 8, what="the move to apply")
    shown = await click.message()  # the table message, edited through this click
    assert shown.id == mat.id
    assert decisions_of(table, seat) == decisions + 1  # once
    assert table.seats[seat].timeouts == 0
    assert not [m for m in dh.ephemeral_replies(user) if GENERIC_FAILURE in (m.content or "")]
    await books_balance(bot, dh)
    assert not errors_logged(caplog)
