"""A player's hand view through the fake Discord: the answer to a private move is drawn before it
is sent, and must not undo a newer state of the view shown meanwhile."""

from __future__ import annotations

from tests.cogs.test_cog_e2e_fake_discord import open_lobby, play_one_move, settle, start_bot, start_game


async def test_a_private_moves_late_answer_does_not_undo_a_newer_hand_view(discord_harness, bot_settings):
    """The hand view after a private move is drawn first; if the view changed meanwhile (the next
    decision shown in it, a newer view opened), that older answer is not sent over it."""
    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    lobby = await open_lobby(dh)
    await start_game(dh, bot, lobby)
    channel_id = dh.channel("general").id
    table = bot.manager.tables[channel_id]
    users_by_id = {dh.user(n).id: n for n in ("alice", "bob")}
    for _ in range(50):
        aw = table.awaiting()
        if aw is not None and aw.phase == "poker-choose" and table.seats[aw.seat].user_id in users_by_id:
            break
        await play_one_move(dh, bot, channel_id, users_by_id)
    else:
        raise AssertionError("no human chose a poker hand")
    user_id = table.seats[aw.seat].user_id
    await settle(bot)
    hand = await (
        await dh.click(users_by_id[user_id], dh.message(table.mat_message_id), label="Show my hand")
    ).message()
    draw = bot.publisher.image

    async def newer_change_while_drawing(kind, view):
        if kind == "hand":
            bot.turns.touch(table.id, user_id)  # e.g. the next decision shown in the view meanwhile
        return await draw(kind, view)

    bot.publisher.image = newer_change_while_drawing
    choose = next(c for row in hand.components for c in row["components"] if c["custom_id"].endswith("pick.choose"))
    move = await dh.select(users_by_id[user_id], hand, choose["custom_id"], aw.detail["best"])
    await move.response()
    await dh.wait_for(lambda: not bot.controller._clicks, 5, what="the move handled")
    assert table.awaiting() is None or table.awaiting().phase != "poker-choose" or table.awaiting().seat != aw.seat
    assert not [e for e in dh.message(hand.id).edits if e.by == move.record.id]
