"""The real bot (TripoleyBot, in process) against the fake Discord: lobby, a whole game by clicks,
wrong-user and stale clicks, modals, closed DMs, a restart."""

from __future__ import annotations

import asyncio
import json

from bot.discordio.client import TripoleyBot
from engine.replay import run_replay


async def start_bot(dh, settings):
    bot = TripoleyBot(settings.model_copy(update={"discord_api_base": dh.api_base}), guild_ready_timeout=0.01)
    run = await dh.connect(bot)
    return bot, run


def labels(message):
    return [c.get("label") for row in message.components for c in row.get("components", [])]


def find_button(message, prefix):
    for row in message.components:
        for c in row.get("components", []):
            if (c.get("label") or "").startswith(prefix):
                return c
    return None


async def open_lobby(dh, rounds=1, ai=1):
    h = await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=rounds)
    lobby = await h.message()
    assert "table open" in lobby.content and "Join" in labels(lobby)
    join = await dh.click("bob", lobby, label="Join")
    assert (await join.message()).ephemeral
    for _ in range(ai):
        await (await dh.click("alice", lobby, label="Add AI")).response()
    return lobby


async def settle(bot):
    await bot.publisher.flush()
    await asyncio.sleep(0)


async def start_game(dh, bot, lobby):
    """Start, and wait for the game: the click is acknowledged first, and applied once the Add AI
    clicks before it are."""
    await (await dh.click("alice", lobby, label="Start")).response()
    channel_id = dh.channel("general").id
    await dh.wait_for(
        lambda: bot.manager.registry.by_channel[channel_id].status == "playing", 5, what="the game to start"
    )
    await settle(bot)


async def play_one_move(dh, bot, channel_id, users_by_id):
    """Make the awaited human's move through the fake Discord; returns the phase played."""
    table = bot.manager.registry.by_channel.get(channel_id)
    if table is None:
        return None
    aw = table.awaiting()
    assert aw is not None
    user = users_by_id[table.seats[aw.seat].user_id]
    await settle(bot)
    mat = dh.message(table.mat_message_id)
    version = table.version
    if aw.phase == "poker-choose":
        h = await dh.click(user, mat, label="Show my hand")
        hand = await h.message()
        assert hand.ephemeral and "Your hand" in hand.content
        select = next(
            c for row in hand.components for c in row["components"] if c.get("custom_id", "").endswith("pick.choose")
        )
        h2 = await dh.select(user, hand, select["custom_id"], aw.detail["best"])
        await h2.response()
    elif aw.phase == "poker-betting" and "bet" in aw.legal and aw.detail["max"] >= 2:
        h = await dh.click(user, mat, custom_id=find_button(mat, "Bet")["custom_id"])
        await h.response()
        assert h.modal is not None
        bad = await dh.submit_modal(user, h, {"amount": str(aw.detail["max"] + 1)})
        reply = await bad.message()
        assert reply.ephemeral and "between" in reply.content
        ok = await dh.submit_modal(user, h, {"amount": "2"})
        await ok.response()
    elif aw.phase == "michigan-lead":
        h = await dh.click(user, mat, label="Show my hand")
        hand = await h.message()
        card = aw.detail["cards"][0]
        button = next(
            (
                c
                for row in hand.components
                for c in row["components"]
                if c.get("custom_id", "").endswith(f"lead.{card}")
            ),
            None,
        )
        if button is not None:
            await (await dh.click(user, hand, custom_id=button["custom_id"])).response()
        else:
            select = next(
                c for row in hand.components for c in row["components"] if c.get("custom_id", "").endswith("pick.lead")
            )
            await (await dh.select(user, hand, select["custom_id"], [card])).response()
    else:
        prefer = ["Check", "Call", "Keep my hand", "Pass", "Claim!"]
        label = next(word for word in prefer if find_button(mat, word))
        # A wrong-user click is refused ephemerally and changes nothing.
        other = next(u for uid, u in users_by_id.items() if uid != table.seats[aw.seat].user_id)
        cid = find_button(mat, label)["custom_id"]
        wrong = await dh.click(other, mat, custom_id=cid)
        reply = await wrong.message()
        assert reply.ephemeral and "not your turn" in reply.content.lower()
        assert table.version == version
        await (await dh.click(user, mat, custom_id=cid)).response()
    await dh.wait_for(lambda: table.version != version or table.status != "playing", 5, what="the move to apply")
    return aw.phase


async def test_full_game_through_fake_discord(discord_harness, bot_settings):
    dh = discord_harness
    dh.user("bob").dms_open = False
    bot, run = await start_bot(dh, bot_settings)
    channel_id = dh.channel("general").id
    users_by_id = {dh.user(n).id: n for n in ("alice", "bob")}

    dm = await dh.run_command("bob", "general", "tripoley dm", mode="on")
    assert (await dm.message()).ephemeral
    lobby = await open_lobby(dh)
    await start_game(dh, bot, lobby)
    # The lobby message is closed; bob's closed DMs are reported in the channel.
    assert "game started" in dh.message(lobby.id).content
    await dh.wait_for(
        lambda: any("couldn't DM you" in m.content for m in dh.channel_messages("general")), 5, what="the DM notice"
    )

    phases = set()
    for _ in range(300):
        if channel_id not in bot.manager.registry.by_channel:
            break
        phase = await play_one_move(dh, bot, channel_id, users_by_id)
        phases.add(phase)
    assert channel_id not in bot.manager.registry.by_channel, "the game should have ended"
    await settle(bot)
    assert any("game over" in m.content for m in dh.channel_messages("general"))
    assert "poker-choose" in phases
    audit = await bot.bank.audit(dh.guild.id)
    assert audit.ok and audit.tables == 0
    # A click on a finished game's button is answered, ephemerally.
    old_mat = [m for m in dh.channel_messages("general") if find_button(m, "Show my hand")]
    if old_mat:
        stale = await dh.click("alice", old_mat[0], label="Show my hand")
        reply = await stale.message()
        assert reply.ephemeral and ("closed" in reply.content or "earlier round" in reply.content)
    # Records are there.
    hist = await dh.run_command("alice", "general", "tripoley history")
    listing = await hist.message()
    assert "Recent games" in str(listing.embeds)
    # The finished game's replay file, ephemerally, plays back to the same stacks.
    download = await (await dh.click("alice", listing, label="Replay 1")).message()
    assert download.ephemeral
    (attachment,) = dh.attachments(download)
    data = json.loads(attachment.data.decode("utf-8"))
    out = run_replay(data)
    assert out["finished"] is True
    table_row = (await bot.manager.store.history(dh.guild.id, 1))[0]
    assert [s["final"] for s in sorted(table_row["result"]["seats"], key=lambda s: s["seat"])] == out["stacks"]
    assert max(dh.ack_times()) < 1.0


async def test_restart_keeps_buttons_working(discord_harness, bot_settings):
    dh = discord_harness
    bot, run = await start_bot(dh, bot_settings)
    lobby = await open_lobby(dh, rounds=2)
    await start_game(dh, bot, lobby)
    channel_id = dh.channel("general").id
    table = bot.manager.registry.by_channel[channel_id]
    round_before = table.round
    await run.stop()

    bot2, _ = await start_bot(dh, bot_settings)
    table2 = bot2.manager.registry.by_channel[channel_id]
    assert table2.round == round_before and table2.status == "playing"
    aw = table2.awaiting()
    user = {dh.user(n).id: n for n in ("alice", "bob")}[table2.seats[aw.seat].user_id]
    await settle(bot2)
    mat = dh.message(table2.mat_message_id)
    h = await dh.click(user, mat, label="Show my hand")
    hand = await h.message()
    assert hand.ephemeral and "Your hand" in hand.content


ODD_BUTTONS = (
    "tripoley:-1:0:join",  # fits no template: discord.py routes it nowhere
    "tripoley:abc",
    "tripoley:7:0:join!",
    "tripoley:7:0:bogus",  # fits the template, but no action of this version
    "tripoley:99999999999999999999999:0:join",  # no such table ("This table is closed")
    "tripoley:0:0:page.rules.no-such-game.0",
    "tripoley:0:0:page.rules.table-x.0",
    "tripoley:0:0:page.nothing.key.0",
    "tripoley:0:0:confirm.nothing",
    "tripoley:0:0:confirm.reset.extra",  # a confirmation with arguments it does not take
    "tripoley:0:0:confirm.adjust.x.y.z",
)
ODD_MENUS = ("tripoley:7:0:join", "tripoley:7:0:pick.bogus", "tripoley:-3:0:pick.house")


async def test_every_unreadable_id_is_answered_as_no_longer_in_use(discord_harness, bot_settings):
    """Buttons, menus and forms of other versions (or forged): each click gets the friendly private
    answer, none is left unanswered and none changes a thing."""
    from tests.fakediscord.state import Message

    dh = discord_harness
    bot, _ = await start_bot(dh, bot_settings)
    channel = dh.channel("general")
    row = [{"type": 2, "style": 2, "label": f"b{i}", "custom_id": cid} for i, cid in enumerate(ODD_BUTTONS)]
    menus = [
        {"type": 3, "custom_id": cid, "options": [{"label": "x", "value": "x"}], "min_values": 1, "max_values": 1}
        for cid in ODD_MENUS
    ]
    components = [{"type": 1, "components": row[i : i + 5]} for i in range(0, len(row), 5)]
    old = dh.state.add_message(
        Message(
            id=dh.state.snowflake(),
            channel_id=channel.id,
            guild_id=dh.guild.id,
            author=dh.bot_user,
            content="an old version's message",
            components=components,
        )
    )
    for cid in ODD_BUTTONS:
        answer = await (await dh.click("alice", old, custom_id=cid)).message()
        assert answer.ephemeral and ("no longer" in answer.content or "table is closed" in answer.content), (
            cid,
            answer.content,
        )
    for menu in menus:
        old.components = [{"type": 1, "components": [menu]}]
        answer = await (await dh.select("alice", old, menu["custom_id"], ["x"])).message()
        assert answer.ephemeral and "menu is no longer in use" in answer.content, (menu["custom_id"], answer.content)
    form = {
        "custom_id": "tripoley-modal:x:0:bet",
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": "5"}]}],
    }
    record = dh._new_record(dh.state.user("alice"), channel, 5, form)
    answer = await (await dh._dispatch(record)).message()
    assert answer.ephemeral and "That form is no longer in use." in answer.content
    assert (await bot.db.fetchone("SELECT COUNT(*) FROM tables"))[0] == 0
    assert all(r.response_type is not None for r in dh.state.interactions.values()), "every click answered"
