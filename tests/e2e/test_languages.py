"""A French player and a German player in one French server, through the local Discord: the command
list carries both languages; each one's private answers (help, rules, their hand's picture) are in their
own language, the table's public language is the server's; an English player sees nothing changed."""

from __future__ import annotations

from bot.messages.outgoing import hand_message
from images import render_hand
from tests.e2e.test_big_tables import start_bot
from tests.e2e.test_bot import button, finished, open_table, play, table_message

CHANNEL = "general"


async def test_a_french_and_a_german_player_in_a_french_server(discord_harness, tmp_path):
    dh = discord_harness
    dh.guild.preferred_locale = "fr"
    dh.user("alice").user.locale = "fr"
    dh.user("bob").user.locale = "de"
    bot = await start_bot(dh, tmp_path)
    tripoley = next(c for c in dh.commands(dh.guild) or dh.commands() if c["name"] == "tripoley")
    start = next(o for o in tripoley["options"] if o["name"] == "start")
    assert start["name_localizations"] == {"fr": "ouvrir", "de": "eröffnen"}

    helps = {}
    for user in ("alice", "bob", "carol"):
        helps[user] = (await (await dh.run_command(user, CHANNEL, "tripoley help")).message()).content
    assert "/tripoley ouvrir" in helps["alice"] and "/tripoley eröffnen" in helps["bob"]
    assert "/tripoley start" in helps["carol"] and "Comment" not in helps["carol"]
    rules = {}
    for user in ("alice", "bob", "carol"):
        answer = await (await dh.run_command(user, CHANNEL, "tripoley rules", preset="rummoli")).message()
        rules[user] = answer.embeds[0]["title"]
    assert rules["alice"].startswith("Comment jouer") and rules["bob"].startswith("So wird gespielt")
    assert rules["carol"].startswith("How to play")

    await (await dh.run_command("bob", CHANNEL, "tripoley dm", mode="on")).response()  # his DMs: in German
    await open_table(dh, "tripoley", 1)
    table = bot.manager.registry.get(dh.channel(CHANNEL).id)
    assert table.locale == "fr"  # the server's Discord language: its public messages and mat
    hand = await (await dh.click("bob", table_message(dh, CHANNEL), label="Show my hand")).message()
    await dh.wait_for(lambda: dh.attachments(hand.id), 8, what="the hand's picture")
    seat = table.seat_of(dh.user("bob").id)
    german = hand_message(table, seat, table.running_game.view(seat), locale="de").view
    got = dh.attachments(hand.id)[0].data
    assert got == render_hand(german).png  # drawn in Bob's German
    assert render_hand(german).png != render_hand(german | {"locale": "fr"}).png
    dm = await dh.wait_for(lambda: next((m for m in dh.dms("bob") if m.attachments), None), 8, what="Bob's DM")
    assert dh.attachments(dm.id)[0].data == render_hand(german).png  # the language his client last showed
    await play(dh, CHANNEL)
    assert finished(dh, CHANNEL) and button(dh.channel_messages(CHANNEL)[-1], "Rematch") is not None
