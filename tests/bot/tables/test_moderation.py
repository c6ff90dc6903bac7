"""The table's own moderation at the manager level: the host removes a player (lobby: refunded at
once; mid-game: confirmed, an AI plays on, cashed out at the end) and the seat vote (after a
missed turn, a majority of the other players at the keyboard, each counted once, closed when the
player acts). Chips are conserved throughout."""

from __future__ import annotations

import pytest

from bot import errors
from bot.messages.components import mat_components
from bot.messages.outgoing import table_message
from bot.messages.tablelines import TABLE_LINES
from bot.tables.flow import safe_default
from bot.tables.telling import Line, Notice
from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby

CAT = 33


async def test_the_host_removes_a_player_from_the_lobby_refunded_at_once(manager, bank):
    table = await lobby(manager, ai=1)
    with pytest.raises(errors.NotAllowed) as refused:
        await manager.moderation.host_kick(C, BOB, ANN)
    assert refused.value.refusal is errors.Refusal.HOST_ONLY_KICK
    with pytest.raises(errors.NotAllowed):
        await manager.moderation.host_kick(C, ANN, ANN)  # the host leaves with /tripoley leave
    with pytest.raises(errors.NotSeated):
        await manager.moderation.host_kick(C, ANN, CAT)
    update = await manager.moderation.host_kick(C, ANN, BOB)
    assert table.seat_of(BOB) is None and len(table.seats) == 2
    assert "100 chips are back in their wallet" in update.message
    assert update.notices == [(BOB, Notice(Line.KICKED_FROM_LOBBY, {"chips": 100}))]
    assert TABLE_LINES.say(Line.KICKED_FROM_LOBBY, chips=100) == (
        "the host removed you from the table; your 100 chips are back in your wallet."
    )
    assert await bank.balance(G, BOB, 0) == 1000
    assert "The host removed user22 from the table." in table.log
    assert (await bank.audit(G)).ok


async def test_the_host_hands_a_seat_to_an_ai_mid_game_after_confirming(manager, clock, bank):
    table = await lobby(manager, ai=1, humans=(ANN, BOB), options={"game_end": "rounds:1"})
    await manager.lobby.start(C, ANN)
    with pytest.raises(errors.TripoleyError) as unconfirmed:
        await manager.moderation.host_kick(C, ANN, BOB)
    assert unconfirmed.value.refusal is errors.Refusal.KICK_UNCONFIRMED
    assert not table.seats[1].left, "nothing changes before the host confirms"
    update = await manager.moderation.host_kick(C, ANN, BOB, confirmed=True)
    bob = table.seats[table.seat_of(BOB)]
    assert bob.left and bob.auto and "An AI plays user22's seat now" in update.message
    # Told as a removal, not as leaving of their own accord: in the log and on the table message.
    assert bob.removed and "The host removed user22 from the table." in table.log
    assert not [line for line in table.log if line.startswith("user22 left")]
    assert "(removed · AI)" in table_message(table).text and "left · AI" not in table_message(table).text
    assert update.notices and update.notices[0][0] == BOB
    with pytest.raises(errors.TripoleyError) as again:
        await manager.moderation.host_kick(C, ANN, BOB, confirmed=True)
    assert again.value.refusal is errors.Refusal.KICK_LEFT_ALREADY
    await manager.play.stop(C, ANN, can_manage=False)
    bob_result = next(s for s in table.result["seats"] if s["user_id"] == BOB)
    assert await bank.balance(G, BOB, 0) == 900 + bob_result["final"], "their chips stay theirs"
    assert (await bank.audit(G)).ok


async def miss_a_turn(manager, clock, table) -> int:
    """Drive the game to a human's turn and let it time out; that seat."""
    seat = await drive_to_human(manager, clock, table)
    assert seat is not None
    clock.t = table.deadline
    await manager.timers.tick()
    assert table.seats[seat].timeouts == 1
    return seat


async def play_until_seat_acts(manager, clock, table, seat: int) -> None:
    """Every human plays a safe move until ``seat`` has made one of its own."""
    for _ in range(300):
        turn = await drive_to_human(manager, clock, table)
        assert turn is not None, "the game ended before the seat acted"
        aw = table.game.awaiting()
        action = safe_default(table.game, aw, lambda aw=aw: manager.flow.ai_action(table, aw.seat))
        await manager.play.act(manager.registry.get(C), table.seats[turn].user_id, action.to_dict())
        if turn == seat:
            return
    raise AssertionError("the seat never acted")


async def test_a_majority_of_the_others_hands_an_absent_seat_to_the_ai(manager, clock, bank):
    table = await lobby(manager, ai=1, humans=(ANN, BOB, CAT), options={"game_end": "rounds:3"})
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    absent = table.seats[seat]
    others = [u for u in (ANN, BOB, CAT) if u != absent.user_id]
    with pytest.raises(errors.StaleButton):  # no missed turn yet: nothing to vote on
        await manager.moderation.vote_ai(C, others[0], seat, table.round)
    clock.t = table.deadline
    await manager.timers.tick()
    assert absent.timeouts == 1 and not absent.auto
    assert f"Vote: AI for {absent.name} (0/2)" in [c.label for c in mat_components(table)]
    with pytest.raises(errors.NotAllowed):  # not on their own seat
        await manager.moderation.vote_ai(C, absent.user_id, seat, table.round)
    with pytest.raises(errors.StaleButton):
        await manager.moderation.vote_ai(C, others[0], seat, table.round + 1)
    first = await manager.moderation.vote_ai(C, others[0], seat, table.round)
    assert first.message == "Your vote counts: 1 of the 2 needed." and not absent.away
    with pytest.raises(errors.TripoleyError) as twice:
        await manager.moderation.vote_ai(C, others[0], seat, table.round)
    assert twice.value.refusal is errors.Refusal.VOTED_ALREADY and absent.votes == [others[0]]
    assert f"Vote: AI for {absent.name} (1/2)" in [c.label for c in mat_components(table)]
    done = await manager.moderation.vote_ai(C, others[1], seat, table.round)
    assert absent.away and absent.votes == [] and "The table voted" in done.message
    assert done.notices and done.notices[0][0] == absent.user_id
    assert not any(c.label.startswith("Vote:") for c in mat_components(table))
    with pytest.raises(errors.StaleButton):  # an AI plays the seat already: the vote is closed
        await manager.moderation.vote_ai(C, others[0], seat, table.round)
    await manager.play.back(C, absent.user_id)  # theirs again, as after three missed turns
    assert not absent.away
    await manager.play.stop(C, ANN, can_manage=False)
    assert (await bank.audit(G)).ok


async def test_the_vote_closes_when_the_player_acts(manager, clock):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:3"})
    await manager.lobby.start(C, ANN)
    seat = await miss_a_turn(manager, clock, table)
    voter = next(u for u in (ANN, BOB) if u != table.seats[seat].user_id)
    await play_until_seat_acts(manager, clock, table, seat)
    assert table.seats[seat].timeouts == 0 and table.seats[seat].votes == []
    with pytest.raises(errors.StaleButton) as closed:
        await manager.moderation.vote_ai(C, voter, seat, table.round)
    assert closed.value.refusal is errors.Refusal.VOTE_CLOSED


async def test_votes_are_saved_with_the_table(make_manager, clock):
    first = make_manager()
    table = await lobby(first, ai=1, humans=(ANN, BOB, CAT), options={"game_end": "rounds:3"})
    await first.lobby.start(C, ANN)
    seat = await miss_a_turn(first, clock, table)
    others = [u for u in (ANN, BOB, CAT) if u != table.seats[seat].user_id]
    await first.moderation.vote_ai(C, others[0], seat, table.round)

    second = make_manager()  # a restart: a new manager on the same database
    [resumed] = await second.timers.resume()
    assert resumed.seats[seat].votes == [others[0]]
    await second.moderation.vote_ai(C, others[1], seat, resumed.round)
    assert resumed.seats[seat].away
