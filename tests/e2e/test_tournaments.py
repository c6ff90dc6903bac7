"""A whole tournament through the local Discord: sign-up with the Join button, six seats (five people
and an AI filling), a table in a thread each, a leaver after the start, a restart of the bot
mid-stage, the final, the prizes and the champion announced with the standings picture; then a
second tournament cancelled with every buy-in refunded. The books balance after each step."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter

from bot.tournaments.model import TournamentStatus
from cogs.tournaments import TournamentCommands
from tests.e2e.test_big_tables import books_balance, hand_view, move_in_hand, start_bot
from tests.e2e.test_bot import applied_in_hand, finished, my_turn, table_message
from tests.fakediscord.harness import PATIENCE

CHANNEL = "general"
PEOPLE = ("alice", "bob", "carol", "dave", "erin")
BUY_IN = 40


def service(bot):
    cog = bot.get_cog("Tripoley")
    assert isinstance(cog, TournamentCommands)
    return cog.tournaments


async def wallet(dh, user: str) -> int:
    answer = await (await dh.run_command(user, CHANNEL, "tripoley balance")).message()
    found = re.search(r"\*\*([\d,]+)\*\* chips", answer.content)
    assert found, answer.content
    return int(found.group(1).replace(",", ""))


async def play_stage(dh, bot, until, seconds: float = 120) -> None:
    """The people play their decisions from their hand views, in every table's thread, until ``until()``."""
    deadline = time.monotonic() + seconds * PATIENCE
    while time.monotonic() < deadline:
        if until():
            return
        moved = False
        for tournament in list(service(bot).open.values()):
            for st in tournament.stage():
                if st.thread_id is None or finished(dh, st.thread_id):
                    continue
                tm = table_message(dh, st.thread_id)
                seated = [e.user_id for k in st.seats if (e := tournament.by_key(k)) is not None and not e.left]
                for user in seated if tm else ():
                    hand = await hand_view(dh, user, tm)
                    if hand is None or not my_turn(hand):
                        continue
                    before = hand.content
                    h = await move_in_hand(dh, user, hand, Counter())
                    await applied_in_hand(dh, user, h, hand, before)
                    moved = True
                    break
        if not moved:
            await asyncio.sleep(0.05)
    raise AssertionError("the tournament's tables did not get there")


async def test_a_tournament_from_sign_up_to_champion_with_a_leaver_a_restart_and_a_cancel(discord_harness, tmp_path):
    dh = discord_harness
    dh.add_user("erin")
    bot = await start_bot(dh, tmp_path)
    run = dh.bots[-1]
    before = {user: await wallet(dh, user) for user in PEOPLE}
    created = await dh.run_command(
        "alice", CHANNEL, "tripoley tournament create", preset="tripoley", buy_in=BUY_IN, seats=3, advance=1,
        ending="rounds", rounds=1, ai_fill=True,
    )  # fmt: skip
    signup = await created.message()
    assert "Tournament #1" in signup.content and "1st 100%" in signup.content, signup.content
    for user in PEOPLE[1:]:
        joined = await (await dh.click(user, signup, label="Join")).message()
        assert "You're in" in joined.content, joined.content
    again = await (await dh.click("bob", signup, label="Join")).message()
    assert "already" in again.content
    await dh.wait_for(lambda: "Entrants (5)" in dh.message(signup.id).content, 10, what="the sign-up updated")
    assert "1st 65% (130 chips), 2nd 35% (70 chips)" in dh.message(signup.id).content
    await books_balance(dh)
    refused = await (await dh.run_command("bob", CHANNEL, "tripoley tournament start")).message()
    assert "host" in refused.content
    await (await dh.run_command("alice", CHANNEL, "tripoley tournament start")).message()
    tournament = next(iter(service(bot).open.values()))
    assert tournament.status == TournamentStatus.RUNNING
    await dh.wait_for(lambda: len(dh.state.threads(CHANNEL)) == 2, 10, what="a thread for each table")
    await dh.wait_for(lambda: all(table_message(dh, t.id) for t in dh.state.threads(CHANNEL)), 10, what="the tables")
    assert any("Stage 1 is seated at 2 tables" in m.content for m in dh.channel_messages(CHANNEL))
    await books_balance(dh)

    # A leaver after the start: forfeits, an AI plays the seat out.
    left = await (await dh.run_command("carol", CHANNEL, "tripoley tournament leave")).message()
    assert "forfeit" in left.content, left.content
    await books_balance(dh)

    # One table finishes; then the bot restarts mid-stage.
    threads = [st.thread_id for st in tournament.stage()]
    await play_stage(dh, bot, lambda: any(finished(dh, t) for t in threads))
    await run.stop()
    bot = await start_bot(dh, tmp_path)
    run = dh.bots[-1]
    await dh.wait_for(lambda: service(bot).open, 10, what="the tournament resumed")
    await books_balance(dh)
    await play_stage(dh, bot, lambda: not service(bot).open)
    await dh.wait_for(
        lambda: any("wins tournament #1" in m.content for m in dh.channel_messages(CHANNEL)), 10, what="the champion"
    )
    champion = next(m for m in dh.channel_messages(CHANNEL) if "wins tournament #1" in m.content)
    assert champion.attachments and champion.attachments[0].filename == "standings.png"
    assert "final standings" in champion.content
    done = await service(bot).store.tournament(tournament.id)
    assert done is not None and done.status == TournamentStatus.FINISHED and len(done.stages) == 2
    threads = [st.thread_id for stage in done.stages for st in stage]
    await dh.wait_for(lambda: all(dh.channel(t).archived for t in threads), 10, what="the tables' threads archived")
    assert sum(e.prize for e in done.entrants) == BUY_IN * len(PEOPLE)
    assert done.entrant_of(dh.user("carol").id).prize == 0
    after = {user: await wallet(dh, user) for user in PEOPLE}
    assert sum(after.values()) == sum(before.values())  # the buy-ins came back as the prizes, nothing else
    standings = await (await dh.run_command("dave", CHANNEL, "tripoley tournament standings")).message()
    assert "final standings" in standings.content and standings.attachments
    await books_balance(dh)

    # A second tournament, cancelled: every buy-in refunded.
    created = await dh.run_command("bob", CHANNEL, "tripoley tournament create", buy_in=25, seats=4, advance=2)
    signup = await created.message()
    await (await dh.click("alice", signup, label="Join")).message()
    await (await dh.click("dave", signup, label="Join")).message()
    await (await dh.click("dave", signup, label="Leave")).message()  # before the start: refunded
    assert await wallet(dh, "dave") == after["dave"]
    refused = await (await dh.run_command("alice", CHANNEL, "tripoley tournament cancel")).message()
    assert "host" in refused.content
    cancelled = await (await dh.run_command("bob", CHANNEL, "tripoley tournament cancel")).message()
    assert "cancelled" in cancelled.content
    assert {user: await wallet(dh, user) for user in PEOPLE} == after
    await dh.wait_for(
        lambda: any("was cancelled" in m.content for m in dh.channel_messages(CHANNEL)), 10, what="the cancel told"
    )
    await books_balance(dh)
    await run.stop()
