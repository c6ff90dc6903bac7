"""A French player and a German player in one French server, through the local Discord: the command
list carries both languages; each one's private answers (help, rules, their hand, their refusals) are in
their own language, the table's public messages and mat in the server's; an English player sees nothing
changed. The game is played to its end by the components' ids and the table's state, since none of its
texts is English."""

from __future__ import annotations

import asyncio
import re

from bot.i18n import Locale, translator
from bot.messages.outgoing import hand_message
from images import render_hand
from tests.e2e.test_big_tables import start_bot
from tests.e2e.test_bot import public_text

CHANNEL = "general"
# The moves a seat makes when it has them, cheapest first (a button's action, after its round).
PREFERRED = ("do.check", "do.call", "do.keep", "do.pass", "do.decline", "do.claim", "do.play", "best", "lead.")


def action_of(component: dict) -> str:
    return (component.get("custom_id") or "").split(":", 3)[-1]


def components(message) -> list[dict]:
    return [c for row in message.components or [] for c in row.get("components", [])]


def with_action(message, prefix: str) -> dict | None:
    return next((c for c in components(message) if action_of(c).startswith(prefix) and not c.get("disabled")), None)


def table_message(dh):
    """The newest public message with a "Show my hand" button (found by its id: its label is French)."""
    return next((m for m in reversed(dh.channel_messages(CHANNEL)) if with_action(m, "hand")), None)


def finished(dh) -> bool:
    return any("🏁" in m.content for m in dh.channel_messages(CHANNEL))


def seat_to_play(bot, dh) -> tuple[str, int] | None:
    """The first human the table waits for, and their seat (by the table's own state)."""
    table = bot.manager.registry.by_channel.get(dh.channel(CHANNEL).id)
    if table is None or table.game is None:
        return None
    for seat in table.game.acting_seats():
        user_id = table.seats[seat].user_id
        if user_id is not None and not table.seats[seat].left:
            return next(name for name in ("alice", "bob") if dh.user(name).id == user_id), seat
    return None


async def move(dh, bot, user: str, seat: int) -> bool:
    """One legal move of ``user``'s: a public button of the table message, else one of their hand view.
    False when their hand view offers none: the table moved on between the look and the click."""
    tm = table_message(dh)
    for prefix in PREFERRED:
        if tm is not None and (b := with_action(tm, prefix)):
            await (await dh.click(user, tm, custom_id=b["custom_id"])).response()
            return True
    hand = await (await dh.click(user, tm, custom_id=with_action(tm, "hand")["custom_id"])).message()
    assert hand.ephemeral
    for prefix in (*PREFERRED, "suit."):
        if b := with_action(hand, prefix):
            await (await dh.click(user, hand, custom_id=b["custom_id"])).response()
            return True
    for menu in components(hand):
        if action_of(menu).startswith("pick.") and menu.get("type") == 3:
            chosen = [o["value"] for o in menu["options"] if o.get("default")]
            chosen = chosen or [o["value"] for o in menu["options"][: menu.get("min_values", 1) or 1]]
            await (await dh.select(user, hand, menu["custom_id"], chosen)).response()
            return True
    if b := with_action(hand, "amt."):
        opened = await dh.click(user, hand, custom_id=b["custom_id"])
        await opened.response()
        table = bot.manager.registry.by_channel[dh.channel(CHANNEL).id]
        low = (table.game.view(seat).get("detail") or {}).get("min", 1)
        await (await dh.submit_modal(user, opened, {"amount": str(low)})).response()
        return True
    return False


def state(bot, dh) -> tuple[int, list[int]] | None:
    """Where the table is: its version and the seats it waits for (None once it is gone)."""
    table = bot.manager.registry.by_channel.get(dh.channel(CHANNEL).id)
    if table is None:
        return None
    return table.version, table.game.acting_seats() if table.game else []


async def play_to_the_end(dh, bot, moves: int = 500) -> None:
    for _ in range(moves):
        if finished(dh):
            return
        waiting = seat_to_play(bot, dh)
        if waiting is None:  # the AI seats play, or the next round is dealt
            await asyncio.sleep(0.1)
            continue
        before = state(bot, dh)
        if not await move(dh, bot, *waiting):
            await asyncio.sleep(0.1)
            continue
        await dh.wait_for(
            lambda seen=before: finished(dh) or state(bot, dh) != seen, 8, what="the table to take the move"
        )
    raise AssertionError("the game did not end")


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
    lobby = await (await dh.run_command("alice", CHANNEL, "tripoley start", preset="tripoley", rounds=1)).message()
    assert "table ouverte" in lobby.content, lobby.content  # the server's language, whoever opened it
    french = translator(Locale.FR)
    labels = [b.get("label") for b in components(lobby)][:2]
    assert labels == [french.pgettext("button", "Join"), french.pgettext("button", "Leave")], labels
    joined = await (await dh.click("bob", lobby, custom_id=with_action(lobby, "join")["custom_id"])).message()
    assert joined.ephemeral and joined.content != "You're in!"  # Bob's answer: in German
    await (await dh.click("alice", lobby, custom_id=with_action(lobby, "ai")["custom_id"])).response()
    await (await dh.click("alice", lobby, custom_id=with_action(lobby, "start")["custom_id"])).response()
    await dh.wait_for(lambda: table_message(dh), 8, what="the table message")
    table = bot.manager.registry.get(dh.channel(CHANNEL).id)
    assert table.locale == "fr"  # the server's Discord language: its public messages and mat

    tm = table_message(dh)
    hand = await (await dh.click("bob", tm, custom_id=with_action(tm, "hand")["custom_id"])).message()
    await dh.wait_for(lambda: dh.attachments(hand.id), 8, what="the hand's picture")
    seat = table.seat_of(dh.user("bob").id)
    german = hand_message(table, seat, table.running_game.view(seat), locale="de")
    assert hand.content == german.text  # Bob's hand view: in German
    got = dh.attachments(hand.id)[0].data
    assert got == render_hand(german.view).png  # drawn in Bob's German
    assert render_hand(german.view).png != render_hand(german.view | {"locale": "fr"}).png
    dm = await dh.wait_for(lambda: next((m for m in dh.dms("bob") if m.attachments), None), 8, what="Bob's DM")
    assert dh.attachments(dm.id)[0].data == render_hand(german.view).png  # the language his client last showed

    carol = await (await dh.click("carol", tm, custom_id=with_action(tm, "hand")["custom_id"])).message()
    assert carol.ephemeral and "not playing at this table" in carol.content  # told in English, her language

    await play_to_the_end(dh, bot)
    final = next(m for m in reversed(dh.channel_messages(CHANNEL)) if "🏁" in m.content)
    rematch = with_action(final, "rematch")
    assert rematch is not None and rematch["label"] == french.pgettext("button", "Rematch")
    # Every public message of the game (the lobby, the table message and its moves, the mat's alt text,
    # the AI seats' names, the round's results, the final message) has no English word left.
    english = re.compile(
        r"\b(?:collects|pays|chips|Round|round|Mat|Showdown|Game over|leads|pay suit|dealer|Kitty|Clearing|"
        r"wins|cards|goes out|folds|calls|checks|raises|bets|hand|Poker:|Michigan:|AI|Players|Last)\b"
    )
    for m in dh.channel_messages(CHANNEL):
        if m.ephemeral or m.author.id != dh.state.bot.id:
            continue
        text = public_text(dh, m)
        found = english.findall(text)
        assert not found, f"English {sorted(set(found))} in a French server's public message:\n{text}"
