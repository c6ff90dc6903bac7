"""Turn pings, claims that lapse, the AI taking over (and telling the player), and Great Lakes'
secrecy: the channel sees the same whether or not the holder of the next card can place a
combination."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.discordio.publisher import Publisher
from bot.discordio.turns import TurnNotifier
from bot.i18n import reading
from bot.messages.outgoing import table_message
from bot.messages.tablelines import TABLE_LINES
from bot.messages.text import ROUND_OVER
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager
from bot.tables.model import TableUpdate, UpdateKind
from bot.tables.telling import Line, Notice
from engine import Game
from tests.cogs.fakes import FakeCarrier, RecordingSink
from tests.cogs.test_cog_claims import C, drive_to_human_claim
from tests.engine.deals import stack_deck
from tests.engine.test_rulebook_great_lakes import DEAL_A

G = 7
ANN, BOB, CAT = 1, 2, 3


@pytest.fixture
async def stack(db, bank, prefs, settings):
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0)
    turns = TurnNotifier(manager, sink)

    async def settle():
        await publisher.flush()
        await turns.flush()

    return manager, sink, turns, settle


def pings(sink):
    """The pings posted and not closed since (deleted, or edited to say the turn is over): [(message id, Outgoing)]."""
    closed = {c[2] for c in sink.calls if c[0] in ("delete", "edit")}
    return [(c[2], c[3]) for c in sink.calls if c[0] == "post" and " your turn: " in c[3].text and c[2] not in closed]


async def two_humans(manager, preset="tripoley"):
    await manager.lobby.create_table(G, C, ANN, "ann", preset, {"game_end": "rounds:1"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    return manager.registry.get(C)


async def to_human_turn(manager, table):
    """Fire AI deadlines until a human must decide (None: the game is over). In a step every seat
    decides at once the other players choose first, so one is left to decide, as in turn."""
    for _ in range(500):
        if table.status != "playing":
            return None
        aw = table.awaiting()
        if aw is not None and table.deadline_kind == "turn":
            for seat in table.game.acting_seats()[1:] if table.game.is_simultaneous() else []:
                await play_as_the_ai_would(manager, table, table.game.awaiting(seat))
            return table.awaiting()
        manager.clock.t = table.deadline
        await manager.timers.tick()
    raise AssertionError("no human turn")


async def play_as_the_ai_would(manager, table, aw):
    """The awaited human's move: the AI's choice, made through the player's own entry point."""
    action = manager.flow.ai_action(table, aw.seat).to_dict()
    action.pop("seat")
    await manager.play.act(manager.registry.get(C), table.seats[aw.seat].user_id, action)


async def test_one_ping_per_table_naming_only_the_player_edited_to_done_once_answered(stack):
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    seen = set()
    for _ in range(12):
        aw = await to_human_turn(manager, table)
        await settle()
        if aw is None:
            break
        user = table.seats[aw.seat].user_id
        shown = pings(sink)
        assert len(shown) == 1, shown  # at most one per table waits: the last one says it is done
        message_id, out = shown[0]
        assert out.pings == (user,) and out.text.startswith(f"<@{user}> your turn: ")
        assert not set("♠♥♦♣") & set(out.text), out.text  # nothing about the cards
        assert table.ping_message_id == message_id
        seen.add(message_id)
        await play_as_the_ai_would(manager, table, aw)
        await settle()
        (done,) = [c[3] for c in sink.calls if c[0] == "edit" and c[2] == message_id]
        assert done.text == f"<@{user}> \u2713 done \u2014 you played." and done.pings == ()
        assert ("delete", C, message_id, None) not in sink.calls  # it stays: its notification leads somewhere
    assert len(seen) > 1
    await settle()
    assert table.status != "playing" or len(pings(sink)) <= 1


async def test_the_turn_ping_is_the_only_notification(stack):
    """The table message names the player to act with a mention but notifies nobody: a new round's
    post and its turn ping would otherwise notify the same player twice."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await settle()
    assert aw is not None
    user = table.seats[aw.seat].user_id
    out = table_message(table)
    assert f"<@{user}>" in out.text and out.pings == ()
    assert [ping.pings for _, ping in pings(sink)] == [(user,)]


async def test_pings_follow_the_players_choice_then_the_servers(stack):
    manager, sink, turns, settle = stack
    await manager.prefs.update_guild(G, pings=False)
    await manager.prefs.set_pings(BOB, True)
    table = await two_humans(manager)
    pinged = set()
    turns_of = set()
    for _ in range(40):
        aw = await to_human_turn(manager, table)
        await settle()
        if aw is None:
            break
        pinged |= {out.pings[0] for _, out in pings(sink)}
        turns_of.add(table.seats[aw.seat].user_id)
        await play_as_the_ai_would(manager, table, aw)
    assert turns_of == {ANN, BOB} and pinged == {BOB}  # ann follows the server (off), bob chose on


async def test_a_claim_left_to_lapse_is_a_pass_not_a_timeout(stack):
    manager, sink, turns, settle = stack
    await manager.lobby.create_table(G, C, ANN, "ann", "rummoli", {"game_end": "rounds:3"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    aw = await drive_to_human_claim(manager, table)
    seat = table.seats[aw.seat]
    seat.timeouts = manager.settings.timeouts_before_ai - 1  # one more timeout would hand the seat to an AI
    manager.clock.t = table.deadline
    [update] = await manager.timers.tick()
    assert not seat.away and seat.timeouts == manager.settings.timeouts_before_ai - 1
    assert not update.notices and update.message is None
    assert not any("timed out" in line for line in table.log), table.log
    assert any(e.get("type") == "unclaimed" for e in update.events) or table.awaiting() != aw


async def test_the_ai_takes_over_after_missed_turns_and_the_player_is_told(stack):
    manager, sink, turns, settle = stack
    sink.closed_dms.add(BOB)
    table = await two_humans(manager)
    told = {}
    for _ in range(400):
        if table.status != "playing" or all(s.away for s in table.seats if s.user_id):
            break
        if await to_human_turn(manager, table) is None:
            break
        manager.clock.t = table.deadline
        for update in await manager.timers.tick():
            told.update(dict(update.notices))
    await settle()
    assert set(told) == {ANN, BOB} and all(s.away for s in table.seats if s.user_id)
    dms = [c for c in sink.calls if c[0] == "dm" and "an AI is playing your seat" in c[3].text]
    assert [c[1] for c in dms] == [ANN]  # by DM where DMs are open…
    public = [c[3] for c in sink.calls if c[0] == "post" and "an AI is playing your seat" in c[3].text]
    assert (
        len(public) == 1 and public[0].pings == (BOB,) and public[0].text.startswith(f"<@{BOB}> ")
    )  # …else pinging only them


async def test_a_notice_is_worded_in_its_readers_language_not_the_tables(stack):
    """A French table's timer hands Bob's seat to an AI: Bob, whose Discord speaks German, is told in
    German; Ann, whose language we never saw, in English."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    table.locale = "fr"
    await manager.prefs.remember_locale(BOB, "de")
    notice = Notice(Line.AI_TAKEOVER_NOTICE, {"count": 3})
    turns.on_update(TableUpdate(table, UpdateKind.PLAY, notices=[(BOB, notice), (ANN, notice)]))
    await settle()
    dms = {c[1]: c[3].text for c in sink.calls if c[0] == "dm"}
    with reading("de"):
        german = TABLE_LINES.say(notice.line, **notice.facts)
    assert german in dms[BOB] and german != TABLE_LINES.say(notice.line, **notice.facts)
    assert "an AI is playing your seat" in dms[ANN]


# -- Great Lakes: the holder of the next card ----------------------------------------------------

WITHOUT_FULL_HOUSE = {
    **DEAL_A,
    2: [c if c != "QC" else "2D" for c in DEAL_A[2]],
    0: [c if c != "2D" else "QC" for c in DEAL_A[0]],
}


async def public_messages_until_the_holder_decides(db, bank, prefs, settings, monkeypatch, hands, channel):
    """Three humans at Great Lakes, dealt ``hands`` (as seen from the dealer: DEAL_A's seat 1 leads
    2♥ and runs the hearts to the J♥; seat 2 holds the Q♥). The public messages (text and button
    labels, message ids and this table's channel left out) until seat 2 is asked about the Q♥."""
    deal = Game.next_deal

    def stacked(game, deck=None):
        rotated = {(game.dealer + k) % game.n: cards for k, cards in hands.items()}
        return deal(game, deck or stack_deck(game.n, rotated, [], game.dealer, game.n_decks))

    monkeypatch.setattr(Game, "next_deal", stacked)
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=FakeClock(), rng=random.Random(5))
    sink = RecordingSink()
    publisher, turns = Publisher(manager, sink, renderer=None, min_interval=0), TurnNotifier(manager, sink)
    # With auto_forced off: a forced card then waits for its holder too (on, the default, it is played
    # for them after a short pause, which tells the table that no combination was possible).
    await manager.lobby.create_table(G, channel, ANN, "ann", "great-lakes", {"game_end": "rounds:1"}, auto_forced=False)
    await manager.lobby.join(channel, BOB, "bob")
    await manager.lobby.join(channel, CAT, "cat")
    await manager.lobby.start(channel, ANN)
    table = manager.registry.get(channel)
    leader = (table.game.dealer + 1) % 3
    await manager.play.act(manager.registry.get(channel), table.seats[leader].user_id, {"do": "lead", "card": "2H"})
    await publisher.flush()
    await turns.flush()
    aw = table.awaiting()
    assert (aw.seat, aw.phase, aw.detail["card"]) == ((table.game.dealer + 2) % 3, "michigan-play", "QH")
    messages = []
    for kind, where, _, out in sink.calls:
        if kind in ("post", "edit") and where == channel:
            labels = [getattr(c, "label", getattr(c, "placeholder", "")) for c in out.components]
            messages.append((kind, out.text.replace(str(channel), "#"), labels))
        elif kind == "delete":
            messages.append((kind,))
    await manager.play.stop(channel, ANN, True)
    monkeypatch.setattr(Game, "next_deal", deal)
    return messages, aw


async def test_great_lakes_public_messages_same_with_or_without_a_combination(db, bank, prefs, settings, monkeypatch):
    with_combo, asked = await public_messages_until_the_holder_decides(
        db, bank, prefs, settings, monkeypatch, DEAL_A, 801
    )
    assert asked.legal == ["play", "full_house"]
    without, forced = await public_messages_until_the_holder_decides(
        db, bank, prefs, settings, monkeypatch, WITHOUT_FULL_HOUSE, 802
    )
    assert forced.legal == ["play"] and forced.detail["forced"] is True
    assert any(m[0] == "post" and " your turn: " in m[1] for m in with_combo)  # the holder was pinged…
    # …and the channel cannot tell the two apart. The table messages and the turn pings come from two
    # independent workers, so only the order within each of the two streams is compared.
    assert message_streams(with_combo) == message_streams(without)


def message_streams(messages: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """The turn pings (posts and deletes) and the table/lobby messages, each in its own order."""
    is_ping = [m[0] == "delete" or (m[0] == "post" and " your turn: " in m[1]) for m in messages]
    return ([m for m, p in zip(messages, is_ping) if p], [m for m, p in zip(messages, is_ping) if not p])


async def restarted(db, bank, prefs, settings, sink, min_interval=0.0):
    """A new process on the same database and channel (the sink keeps what the channel shows),
    its table resumed."""
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=FakeClock(), rng=random.Random(6))
    publisher = Publisher(manager, sink, renderer=None, min_interval=min_interval)
    turns = TurnNotifier(manager, sink)
    (table,) = await manager.timers.resume()
    return manager, publisher, turns, table


async def test_after_a_kill_one_ping_stands_for_the_turn(stack, db, bank, prefs, settings):
    """SIGKILL right after a ping was posted (its id not saved yet): the restarted bot deletes it
    before it pings for the turn, so one ping stands, not two."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    assert await to_human_turn(manager, table) is not None
    await settle()
    ((lost, _),) = pings(sink)
    await db.execute_alone(  # the kill: the ping's id never reached the database
        "UPDATE tables SET state_json = ? WHERE id = ?",
        (json.dumps({**table.to_state(), "ping_message_id": None}), table.id),
    )
    turns.close()
    manager2, publisher2, turns2, table2 = await restarted(db, bank, prefs, settings, sink)
    assert table2.ping_message_id is None
    publisher2.resume(table2)
    turns2.refresh(table2)
    await publisher2.flush()
    await turns2.flush()
    ((standing, out),) = pings(sink)
    assert standing != lost and ("delete", C, lost, None) in sink.calls
    assert out.pings == (table2.seats[table2.awaiting().seat].user_id,)


async def test_after_a_restart_earlier_rounds_messages_are_closed(stack, db, bank, prefs, settings):
    """Each round's message, once the round is over, shows no "⏳ … to act" and no buttons; one whose
    closing was lost to a restart is closed by the restarted bot."""
    manager, sink, turns, settle = stack
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:3"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    while table.round < 2:
        aw = await to_human_turn(manager, table)
        await play_as_the_ai_would(manager, table, aw)
    assert await to_human_turn(manager, table) is not None
    await settle()
    first = next(c[2] for c in sink.calls if c[0] == "post" and "— round 1" in c[3].text)
    # (closed by an edit that puts the round's results under it, or a strip when there are none)
    closed = [
        c
        for c in sink.calls
        if c[2] == first and (c[0] == "strip" or (c[0] == "edit" and not c[3].components and c[3].embeds))
    ]
    text = closed[-1][3] if closed and closed[-1][0] == "strip" else closed[-1][3].text if closed else ""
    assert closed and "⏳" not in text and text.endswith(ROUND_OVER)
    sink.calls = [c for c in sink.calls if c not in closed]  # the kill: round 1's closing never happened
    turns.close()
    manager2, publisher2, turns2, table2 = await restarted(db, bank, prefs, settings, sink)
    publisher2.resume(table2)
    await publisher2.flush()
    shown = {m.id: m for m in await sink.recent_messages(C, None)}
    assert not shown[first].custom_ids and "⏳" not in shown[first].content
    assert shown[first].content.endswith(ROUND_OVER) and "— round 1" in shown[first].content
    current = shown[table2.mat_message_id]
    assert current.custom_ids and "⏳" in current.content  # the round being played is left as it is


async def test_a_failed_save_still_shows_the_turn_the_hands_show(stack, monkeypatch):
    """The database gone (a PostgreSQL restart) while a turn times out or a player moves: the change
    stands in memory, so the table message must show it too. It kept the turn before, and the table
    message and the players' hands disagreed on whose turn it was."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await settle()

    async def gone(*args, **kwargs):
        raise ConnectionError("the database went away")

    monkeypatch.setattr(manager.store.db, "execute_alone", gone)

    async def shown_now() -> str:
        await settle()
        return {m.id: m for m in await sink.recent_messages(C, None)}[table.mat_message_id].content

    before = await shown_now()
    manager.clock.t = table.deadline  # the turn times out: its save fails
    await manager.timers.tick()
    assert await shown_now() == table_message(table).clipped() != before
    aw = await to_human_turn(manager, table)
    if aw is not None:
        before = await shown_now()
        with pytest.raises(ConnectionError):
            await play_as_the_ai_would(manager, table, aw)
        assert await shown_now() == table_message(table).clipped() != before


async def test_after_a_restart_the_table_message_shows_the_resumed_turn_first(stack, db, bank, prefs, settings):
    """A move saved but never shown (the kill came first): the restarted bot's first edit brings the
    table message to the resumed turn, before the paced edits it also owes the channel (closing the
    lobby again): until then the message and the hands disagreed on whose turn it was."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await settle()
    manager.registry.listeners.clear()  # the kill: what follows is saved, never shown
    await play_as_the_ai_would(manager, table, aw)
    turns.close()
    start = len(sink.calls)
    manager2, publisher2, turns2, table2 = await restarted(db, bank, prefs, settings, sink, min_interval=1.0)
    publisher2.resume(table2)
    await publisher2.flush()
    edits = [c for c in sink.calls[start:] if c[0] in ("edit", "strip")]
    assert edits[0][2] == table2.mat_message_id and edits[0][3].text == table_message(table2).text
    assert any(c[2] == table2.lobby_message_id for c in edits[1:])  # the lobby's edit came after


async def test_a_ping_is_a_follow_up_of_the_tables_freshest_click_and_edited_through_it(stack):
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    old, fresh = FakeCarrier(sink.calls), FakeCarrier(sink.calls)
    turns.carriers.remember(table.id, C, old)
    turns.carriers.remember(table.id, C, fresh)  # the newer click wins
    aw = await to_human_turn(manager, table)
    await settle()
    (ping,) = [c for c in sink.calls if c[0] == "followup"]
    assert ping[1] == id(fresh) and ping[3].pings == (table.seats[aw.seat].user_id,)
    assert not pings(sink)  # nothing posted in the channel
    await play_as_the_ai_would(manager, table, aw)
    await settle()
    (done,) = [c for c in sink.calls if c[0] == "followup_edit" and c[2] == ping[2]]
    assert done[1] == id(fresh) and "\u2713 done" in done[3].text  # through the click: not counted
    assert not [c for c in sink.calls if c[0] in ("delete", "edit", "followup_delete") and c[2] == ping[2]]


async def test_a_ping_falls_back_to_the_channel_when_the_click_is_dead(stack):
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    dead = FakeCarrier(sink.calls, dead=True)
    turns.carriers.remember(table.id, C, dead)
    await to_human_turn(manager, table)
    await settle()
    assert len(pings(sink)) == 1 and turns.carriers.freshest(table.id, C) is None


async def test_a_player_who_decides_within_the_ping_delay_is_not_pinged(stack):
    """The delay is the same for every decision; a decision made within it sends no ping at all."""
    manager, sink, turns, settle = stack
    turns.ping_delay = 3600.0
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await asyncio.sleep(0)  # the ping's worker starts waiting
    await play_as_the_ai_would(manager, table, aw)  # the player decides: the wait ends at once
    nxt = await to_human_turn(manager, table)
    if nxt is not None:
        turns.ping_delay = 0.01  # the next decision: not made in time, pinged after the delay
    await asyncio.wait_for(settle(), 30)
    posted = [c for c in sink.calls if c[0] == "post" and " your turn: " in c[3].text]
    if nxt is None:
        assert posted == []
    else:
        assert [c[3].pings for c in posted] == [(table.seats[nxt.seat].user_id,)]


async def test_a_ping_whose_time_ran_out_says_the_turn_is_over(stack):
    """The timer, not the player, made the decision: the ping stays, saying the turn is over (not "done")."""
    manager, sink, turns, settle = stack
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await settle()
    user = table.seats[aw.seat].user_id
    ((message_id, _),) = pings(sink)
    manager.clock.t = table.deadline
    await manager.timers.tick()
    await settle()
    (closed,) = [c[3] for c in sink.calls if c[0] == "edit" and c[2] == message_id]
    assert closed.text == f"<@{user}> that turn is over." and closed.pings == ()


async def test_a_player_who_just_moved_at_the_table_is_not_pinged(db, bank, prefs, settings):
    """With the watching rule on (as deployed): after a move of their own, the player's next
    decisions at the table wait (up to 20 s before time runs out) instead of pinging at once."""
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0)
    turns = TurnNotifier(manager, sink, ping_watching=60.0)
    table = await two_humans(manager)
    aw = await to_human_turn(manager, table)
    await publisher.flush()
    await turns.flush()
    first = pings(sink)
    assert len(first) == 1  # not seen moving yet: pinged
    user = table.seats[aw.seat].user_id
    await play_as_the_ai_would(manager, table, aw)
    for _ in range(50):  # the same player's next decision
        nxt = await to_human_turn(manager, table)
        if nxt is None or table.seats[nxt.seat].user_id == user:
            break
        await play_as_the_ai_would(manager, table, nxt)
    if nxt is None:
        pytest.skip("the game ended before the player's next decision")
    await asyncio.sleep(0.3)  # a fast ping would be out by now
    assert [c for c in sink.calls if c[0] == "post" and " your turn: " in c[3].text and c[3].pings == (user,)] == [
        ("post", C, first[0][0], first[0][1])
    ]
    time_left = table.deadline - clock.now()
    assert turns.policy.delay(table.id, user, time_left) >= min(55.0, time_left - 20.0)
    turns.close()
