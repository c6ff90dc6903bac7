"""A tour through the local Discord of everything a player or an admin can open: every command (with
each choice of its options), every page of every game's rules, "What pays?" with each space of the
mat, the round's log and its pages, a finished game's log and replay from ``/tripoley history``.
Every answer is checked for what real Discord would refuse (tests/contract.py) and for the generic
failure; at the end the books balance."""

from __future__ import annotations

from bot.messages.controls import GENERIC_FAILURE
from engine.presets import PRESETS
from tests.contract import check_components, check_requests
from tests.e2e.test_big_tables import books_balance, footer, page_through, play_from_hands, start_bot
from tests.e2e.test_bot import button, finished, selects, table_message

CHANNEL = "general"


async def answered(h):
    """The message an interaction was answered with, checked: it says something, not the generic failure."""
    message = await h.message()
    assert message.content or message.embeds or message.attachments, f"an empty answer to {h!r}"
    assert GENERIC_FAILURE not in message.content, message.content
    check_components(message.components, message.content[:40])
    return message


async def test_a_tour_of_every_command_page_and_button(discord_harness, tmp_path):
    dh = discord_harness
    bot = await start_bot(dh, tmp_path)
    # Commands with no table here.
    tour = [
        ("tripoley help", {}),
        ("tripoley balance", {}),
        ("tripoley daily", {}),
        ("tripoley relief", {}),
        *[
            ("tripoley leaderboard", {"by": by, "period": p})
            for by in ("balance", "net", "wins")
            for p in ("all", "week")
        ],
        ("tripoley stats", {}),
        ("tripoley stats", {"user": "bob"}),
        ("tripoley dm", {"mode": "on"}),
        ("tripoley dm", {"mode": "off"}),
        ("tripoley ping", {"mode": "off"}),
        ("tripoley ping", {"mode": "on"}),
        ("tripoley settings", {}),
        ("tripoley history", {}),
        ("tripoley hand", {}),
        ("tripoley join", {}),
        ("tripoley leave", {}),
        ("tripoley stop", {}),
        ("tripoley kick", {"player": "bob"}),
        ("tripoley forget-me", {}),  # asks to confirm (not given)
    ]
    for name, options in tour:
        await answered(await dh.run_command("alice", CHANNEL, name, **options))
    for name, options in [
        ("tripoley-admin settings", {}),
        ("tripoley-admin house", {}),
        ("tripoley-admin audit", {}),
        ("tripoley-admin grant", {"user": "carol", "amount": 25}),
        ("tripoley-admin kick", {"user": "bob"}),
        ("tripoley-admin reset", {}),  # asks to confirm (not given)
    ]:
        await answered(await dh.run_command("owner", CHANNEL, name, **options))
    # Every page of every game's rules.
    for preset in [None, *PRESETS]:
        options = {} if preset is None else {"preset": preset}
        rules = await answered(await dh.run_command("alice", CHANNEL, "tripoley rules", **options))
        pages = footer(rules)
        assert pages is not None, rules.embeds
        assert await page_through(dh, "alice", rules, "Next ▶") == pages[1], preset

    # A table of 20 (a long log): its tools while the game runs, then the game to its end.
    lobby = await answered(
        await dh.run_command("alice", CHANNEL, "tripoley start", preset="tripoley-rulebook", rounds=1)
    )
    await answered(await dh.click("bob", lobby, label="Join"))
    for _ in range(18):
        await (await dh.click("alice", lobby, label="Add AI")).response()
    await dh.wait_for(lambda: "seats 20/20" in dh.message(lobby.id).content, 10, what="20 seats")
    bot.manager.rng.seed(29)  # the same deal every run (the game's seed is drawn at Start)
    await (await dh.click("alice", lobby, label="Start")).response()
    tm = await dh.wait_for(lambda: table_message(dh, CHANNEL), 10, what="the table message")
    pays = await answered(await dh.click("carol", tm, label="What pays?"))
    (menu,) = selects(pays)
    assert menu["options"]
    for option in menu["options"]:
        rule = await answered(await dh.select("carol", pays, menu["custom_id"], [option["value"]]))
        assert rule.content and "isn't on the mat" not in rule.content
    for name in ("tripoley hand", "tripoley join", "tripoley settings"):
        await answered(await dh.run_command("alice", CHANNEL, name))
    await answered(await dh.run_command("carol", CHANNEL, "tripoley join"))  # started: join the next one
    # The round's log from the table message, once it is long enough for pages of its own.
    paged = 0
    while not paged and not finished(dh, CHANNEL):
        await play_from_hands(dh, CHANNEL, moves=1)
        tm = table_message(dh, CHANNEL)
        if tm is None or finished(dh, CHANNEL):
            break
        log = await answered(await dh.click("carol", tm, label="Log"))
        assert log.embeds and log.embeds[0].get("color"), log.embeds
        pages = footer(log)
        if pages and pages[1] > 1:
            assert pages[0] == pages[1]  # it opens on the newest page
            paged = await page_through(dh, "carol", log, "◀ Older")
            assert paged == pages[1]
    assert paged > 1, "the round's log reached a second page"
    await play_from_hands(dh, CHANNEL)

    # The finished game: its log and replay from the final message and from /tripoley history.
    final = next(m for m in reversed(dh.channel_messages(CHANNEL)) if "🏁" in m.content)
    game_log = await answered(await dh.click("alice", final, label="Log"))
    assert game_log.embeds and game_log.embeds[0].get("color")
    await page_through(dh, "alice", game_log, "Newer ▶")
    history = await answered(await dh.run_command("alice", CHANNEL, "tripoley history"))
    assert button(history, "Log 1") and button(history, "Replay 1"), history.components
    await answered(await dh.click("alice", history, label="Log 1"))
    replay = await answered(await dh.click("alice", history, label="Replay 1"))
    assert replay.attachments and replay.attachments[0].filename.endswith(".json")
    for name, options in [("tripoley stats", {}), ("tripoley leaderboard", {"by": "wins"}), ("tripoley stop", {})]:
        await answered(await dh.run_command("alice", CHANNEL, name, **options))

    seen = check_requests(dh.rest_calls())
    assert seen["selects"] > 0 and seen["messages"] > 50, seen
    await books_balance(dh)
