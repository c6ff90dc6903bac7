"""End to end through the local Discord: three people choose their poker five at the same time. Every
hand view offers its controls at once, the table message lists who is still choosing (and nothing
about what anyone chose), one ping names them all, a second choice is refused, and the books balance."""

from __future__ import annotations

import asyncio

from tests.e2e.test_bot import (
    bot_env,
    button,
    check_no_leak,
    chips_total,
    choosing,
    finished,
    my_turn,
    open_hand,
    play_fast,
    table_message,
)
from tests.e2e.test_turns import PING

PEOPLE = ("alice", "bob", "carol")
CHOOSE = PING + "choose the five cards of your poker hand"


def choose_pings(dh, who):
    """Every ping posted that asks `who` to choose their five (in the channel or as a follow-up)."""
    mention = f"<@{dh.user(who).id}>"
    calls = dh.rest_calls("POST /channels/*/messages") + dh.rest_calls("POST /webhooks/*")
    return [c for c in calls if c.json and CHOOSE in (text := str(c.json.get("content", ""))) and mention in text]


async def test_three_people_choose_their_poker_five_at_once(discord_harness, tmp_path, monkeypatch):
    dh = discord_harness
    await dh.spawn(env=bot_env(tmp_path), cwd=tmp_path, commands=["tripoley"])
    lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=1)).message()
    for who in PEOPLE[1:]:
        assert (await (await dh.click(who, lobby, label="Join")).message()).ephemeral
    await (await dh.click("alice", lobby, label="Start")).response()

    def waiting_for(*names):
        tm = table_message(dh, "general")
        return tm is not None and choosing(dh, tm, PEOPLE) == list(names)

    await dh.wait_for(lambda: waiting_for(*PEOPLE) or None, 10, what="the table waiting for all three to choose")
    tm = table_message(dh, "general")
    assert "to choose their five" in tm.content, tm.content

    # all three open their hand at once: each may choose now (no "not your turn")
    views = await asyncio.gather(*(open_hand(dh, "general", who, tm) for who in PEOPLE))
    for who, view in zip(PEOPLE, views):
        assert my_turn(view) == "choose the five cards of your poker hand", (who, view.content)
        assert button(view, "Best five"), view.content
    spare = await open_hand(dh, "general", "bob", tm)  # a second view of bob's, still showing the controls

    # one ping for the step, naming all three (not one per seat as each chooses)
    await dh.wait_for(lambda: all(choose_pings(dh, who) for who in PEOPLE), 10, what="the ping of the step")

    bob = dict(zip(PEOPLE, views))["bob"]
    h = await dh.click("bob", bob, label="Best five")
    await dh.wait_for(lambda: "You chose" in dh.message(bob.id).content, 10, what="bob's view to show his choice")
    assert "waiting for" in dh.message(bob.id).content and not button(dh.message(bob.id), "Best five")
    assert h.response_type == 6
    await dh.wait_for(lambda: waiting_for("alice", "carol") or None, 10, what="the table to list alice and carol")
    tm = table_message(dh, "general")
    for who, view in zip(PEOPLE, views):
        check_no_leak(dh, "general", who, view.content)  # bob's choice is not told: only that he made it

    again = await dh.click("bob", spare, label="Best five")
    reply = await again.message()
    assert reply.ephemeral and "You chose" in reply.content and "can't be changed" in reply.content, reply.content

    # alice and carol choose at the same moment; the step resolves and betting begins, in turn
    others = [dict(zip(PEOPLE, views))[who] for who in ("alice", "carol")]
    await asyncio.gather(*(dh.click(who, v, label="Best five") for who, v in zip(("alice", "carol"), others)))
    await dh.wait_for(
        lambda: (t := table_message(dh, "general")) is not None and "to act (poker betting)" in t.content or None,
        10,
        what="the betting to begin",
    )
    for who in PEOPLE:
        assert len(choose_pings(dh, who)) == 1, (who, choose_pings(dh, who))

    monkeypatch.setattr("tests.e2e.test_bot.HUMANS", PEOPLE)
    await play_fast(dh, "general")
    await dh.wait_for(lambda: finished(dh, "general"), 10, what="the game-over message")
    wallets, tables, grants = chips_total(f"{tmp_path}/t.sqlite3")
    assert tables == 0 and wallets == grants, (wallets, tables, grants)
