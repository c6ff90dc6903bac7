"""A step every seat decides at once, at a table: the AI seats choose at its start, each player may
choose in any order under one timer, a second choice is refused with the player's own choice, the
log tells nothing until all are in, and the timer's end gives everyone still choosing the default."""

from __future__ import annotations

import pytest

from bot import errors
from bot.messages.handtext import hand_text
from bot.messages.refusals import say
from bot.messages.tabletext import mat_text
from tests.bot.tables.test_manager import ANN, BOB, C, lobby

CAT = 33


async def to_the_five(manager, clock, table):
    """Fire deadlines until the players choose their poker five together."""
    for _ in range(200):
        game = table.game
        if table.deadline_kind == "turn" and game.is_simultaneous() and game.phase == "poker-choose":
            return
        if table.deadline_kind == "turn":  # a player's decision in turn (the spare hand): the timer plays it
            pytest.fail(f"a decision in turn before the five: {game.phase}")
        clock.t = table.deadline
        await manager.timers.tick()
    pytest.fail("the five were never chosen together")


def best(table, user):
    index = table.seat_of(user)
    return {"do": "choose", "cards": table.game.awaiting(index).detail["best"]}


async def test_players_choose_in_any_order_under_one_timer(manager, clock):
    table = await lobby(manager, ai=1, humans=(ANN, BOB, CAT))
    await manager.lobby.start(C, ANN)
    await to_the_five(manager, clock, table)
    game = table.game
    ai_seat = next(i for i, s in enumerate(table.seats) if s.is_ai)
    assert game.chosen_seats() == [ai_seat]  # the AI chose at the step's start
    players = [table.seat_of(u) for u in (ANN, BOB, CAT)]
    assert sorted(game.acting_seats()) == sorted(players)
    deadline, log = table.deadline, table.round_log(table.round)
    text = mat_text(table, game.view(None))
    assert "Waiting for" in text and "to choose their five" in text
    assert all(f"<@{u}>" in text for u in (ANN, BOB, CAT))  # (the table message names them; not notified)

    clock.t += 5
    last = game.acting_seats()[-1]
    user = table.seats[last].user_id
    first = best(table, user)
    await manager.play.act(manager.registry.get(C), user, first, table.round)
    assert table.deadline == deadline  # one timer for the step: a choice does not rearm it
    assert table.round_log(table.round) == log  # nothing is told yet
    assert last not in game.acting_seats() and last in game.chosen_seats()
    mine = hand_text(game.view(last), last)
    assert "You chose" in mine and "waiting for" in mine
    assert f"**{table.seats[last].name}**" not in mat_text(table, game.view(None)).split("Waiting for")[1]

    with pytest.raises(errors.TripoleyError) as again:
        await manager.play.act(manager.registry.get(C), user, first, table.round)
    assert "You chose" in say(again.value) and "can't be changed" in say(again.value)

    for u in (ANN, BOB, CAT):
        if u != user:
            await manager.play.act(manager.registry.get(C), u, best(table, u), table.round)
    assert not (game.is_simultaneous() and game.phase == "poker-choose")  # resolved: betting goes on
    told = table.round_log(table.round)[len(log) :]
    assert sum("picks a poker hand" in line for line in told) == 4, told  # each choice, once all are in
    assert game.total_chips() == sum(s.stake for s in table.seats)  # (every chip still on the table)


async def test_the_steps_timer_gives_everyone_still_choosing_the_default(manager, clock):
    table = await lobby(manager, ai=1, humans=(ANN, BOB, CAT))
    await manager.lobby.start(C, ANN)
    await to_the_five(manager, clock, table)
    game = table.game
    await manager.play.act(manager.registry.get(C), ANN, best(table, ANN), table.round)
    late = [table.seat_of(u) for u in (BOB, CAT)]
    clock.t = table.deadline
    await manager.timers.tick()
    assert game.phase != "poker-choose"  # everyone's five is in: the step went on
    assert [table.seats[i].timeouts for i in late] == [1, 1] and table.seats[table.seat_of(ANN)].timeouts == 0
    told = table.round_log(table.round)
    for i in late:  # each told with its timeout, once the step resolved
        assert any(line.startswith(f"{table.seats[i].name} picks a poker hand (timed out)") for line in told), told
