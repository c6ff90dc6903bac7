"""AI levels at the tables: chosen in the lobby, kept with the seat, played (Hard off the loop)."""

from __future__ import annotations

import json
import random

import pytest

from bot import errors
from bot.tables.aiworker import FULL_BUDGET, LEAST_SECONDS, MAX_QUEUE_WAIT, AIPlayers, adapted_budget
from engine import Game
from engine.ai import choose_action
from engine.search import Budget

G, C = 1, 500  # guild, channel
ANN = 11


async def test_each_level_sits_down_named_and_is_saved_with_the_seat(make_manager, db):
    manager = make_manager()
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    for level in ("easy", "normal", "hard"):
        await manager.lobby.add_ai(C, ANN, level=level)
    table = manager.registry.get(C)
    assert [s.ai_level for s in table.seats[1:]] == ["easy", "normal", "hard"]
    assert [s.name.split(" ", 1)[1] for s in table.seats[1:]] == ["(Easy AI)", "(Normal AI)", "(Hard AI)"]
    with pytest.raises(errors.TripoleyError, match="UNKNOWN_AI_LEVEL"):
        await manager.lobby.add_ai(C, ANN, level="expert")
    assert len(table.seats) == 4  # the refusal changed nothing
    [restored] = await make_manager().timers.resume()
    assert [s.ai_level for s in restored.seats] == ["normal", "easy", "normal", "hard"]


async def test_a_table_saved_before_levels_loads_its_ai_as_normal(make_manager):
    manager = make_manager()
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.add_ai(C, ANN, level="hard")
    table = manager.registry.get(C)
    state = table.to_state()
    for seat in state["seats"]:
        del seat["ai_level"]  # as saved before AI levels
    row = {
        "id": table.id,
        "guild_id": G,
        "channel_id": C,
        "host_id": ANN,
        "preset": "tripoley",
        "status": "lobby",
        "state_json": json.dumps(state),
        "created_at": 0.0,
    }
    old = type(table).from_row(row)
    assert [s.ai_level for s in old.seats] == ["normal", "normal"]


async def test_a_game_with_hard_ai_seats_plays_to_the_end(make_manager, clock, bank):
    manager = make_manager()
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.add_ai(C, ANN, level="hard")
    await manager.lobby.add_ai(C, ANN, level="easy")
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    for _ in range(500):  # every deadline fires: the AI seats' moves, ann's timeouts (then her seat's AI)
        if table.status != "playing":
            break
        clock.t = table.deadline
        await manager.timers.tick()
    assert table.status == "finished"
    assert "(Hard AI)" in "\n".join(table.log)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0


async def test_a_hard_decision_that_comes_after_the_game_moved_on_is_dropped():
    game = Game.new("tripoley", ["a", "b", "c"], seed=4)
    game.next_deal()
    ai = AIPlayers(random.Random(1))
    aw = game.awaiting()
    assert aw is not None
    assert await ai.decide(game, aw.seat, "hard") is not None
    original = ai._run

    async def slow(*args):
        action = await original(*args)
        game.apply(choose_action(game, aw.seat, "normal", random.Random(0)))  # meanwhile the game moves on
        return action

    ai._run = slow  # type: ignore[method-assign]
    assert await ai.decide(game, aw.seat, "hard") is None


async def test_a_hard_search_never_holds_up_another_tables_timers(make_manager, clock):
    """A Hard AI's move runs in a task of its own: while it searches, the timer fires the other
    tables' deadlines (here a Normal AI's moves at another table), and the search's move lands after."""
    import asyncio

    manager = make_manager()
    searching, release = asyncio.Event(), asyncio.Event()
    search = manager.ai._run

    async def slow_search(*args):
        searching.set()
        await release.wait()
        return await search(*args)

    manager.ai._run = slow_search
    manager.ai.search_limit = float("inf")  # the other table's turns take minutes of the test clock
    hard, normal = C, C + 1
    for channel, level in ((hard, "hard"), (normal, "normal")):
        await manager.lobby.create_table(G, channel, ANN + channel, f"p{channel}", "tripoley", buy_in=100)
        await manager.lobby.add_ai(channel, ANN + channel, level=level)
        await manager.lobby.add_ai(channel, ANN + channel, level=level)
        await manager.lobby.start(channel, ANN + channel)
    waiting, other = manager.registry.get(hard), manager.registry.get(normal)
    for _ in range(100):  # to a due Hard AI move
        if waiting.deadline_kind == "ai" and manager.timers._searches(waiting):
            break
        clock.t = waiting.deadline
        await manager.timers.tick()
    assert manager.timers._searches(waiting)
    clock.t = max(clock.t, waiting.deadline)
    await asyncio.wait_for(manager.timers.tick(wait_for_searches=False), 5)  # does not wait for the search
    await asyncio.wait_for(searching.wait(), 5)

    def progress():  # (a choice made at once is held unseen: it adds no event, only a seat that chose)
        return waiting.game.decision_number(), len(waiting.game.chosen_seats())

    decisions = progress()
    moves = 0
    for _ in range(30):  # the other table goes on meanwhile
        if other.deadline is None or other.status != "playing":
            break
        before = other.game.decision_number()
        clock.t = max(clock.t, other.deadline)
        await asyncio.wait_for(manager.timers.tick(wait_for_searches=False), 5)
        moves += other.game.decision_number() > before
    assert moves > 0 and progress() == decisions
    release.set()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if progress() > decisions:
            break
    assert progress() > decisions  # the searched move landed


async def test_every_ai_seat_at_a_table_has_a_name_of_its_own(make_manager):
    """Many AI seats of every level (more than there are AI names): all different, their level
    shown, none taking a player's display name; the Hard one is not a second "Ada"."""
    manager = make_manager()
    await manager.lobby.create_table(G, C, ANN, "Babbage", "michigan-rummy", {"game_end": "rounds:1"}, buy_in=10)
    await manager.lobby.join(C, ANN + 1, "ada")
    table = manager.registry.get(C)
    levels = ["hard", "normal", "easy"] * 6
    for level in levels:
        await manager.lobby.add_ai(C, ANN, level=level)
    names = [s.name for s in table.seats[2:]]
    bases = [name.rsplit(" (", 1)[0].casefold() for name in names]
    assert len(set(bases)) == len(bases) == len(levels)
    assert not {"ada", "babbage"} & set(bases)
    assert names[:3] == ["Curie (Hard AI)", "Dijkstra (Normal AI)", "Euler (Easy AI)"]
    assert names[-1] == "Bot 1 (Easy AI)"  # past the last of the names
    [restored] = await make_manager().timers.resume()
    assert [s.name for s in restored.seats] == [s.name for s in table.seats]  # saved with the seat


async def test_a_table_saved_with_two_adas_loads_as_it_was_and_seats_a_new_name(make_manager):
    """Tables saved before AI seats had names of their own keep theirs; the next AI gets a free one."""
    manager = make_manager()
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.add_ai(C, ANN, level="hard")
    await manager.lobby.add_ai(C, ANN, level="normal")
    table = manager.registry.get(C)
    table.seats[2].name = "Ada (Normal AI)"  # as named before: every AI was Ada
    await manager.store.save(table)
    manager.registry.forget(table)
    again = make_manager()
    [old] = await again.timers.resume()
    assert [s.name for s in old.seats] == ["ann", "Ada (Hard AI)", "Ada (Normal AI)"]
    await again.lobby.add_ai(C, ANN, level="easy")
    assert old.seats[-1].name == "Babbage (Easy AI)"


def test_the_search_budget_shrinks_as_the_queue_grows():
    """Full while the work waiting leaves room for it within a second, less after, never nothing."""
    full = FULL_BUDGET
    assert adapted_budget(0.0, 1) == full
    assert adapted_budget(0.8, 1) == full  # 0.8 s queued + 0.2 s: just fits
    shorter = adapted_budget(0.9, 1)
    assert shorter.seconds == pytest.approx(0.1) and shorter.rollouts == full.rollouts // 2
    least = adapted_budget(50.0, 1)
    assert least.seconds == LEAST_SECONDS and least.rollouts >= 1
    assert adapted_budget(1.6, 2) == adapted_budget(0.8, 1)  # the queue is shared by the workers
    unclocked = Budget(rollouts=40, seconds=None)  # reproducible runs: never cut
    assert adapted_budget(50.0, 1, unclocked) == unclocked


async def test_a_burst_of_hard_decisions_gets_budgets_that_keep_each_wait_near_a_second():
    """Decisions queued at once: each is given a budget from the queue before it, so the budgets
    of those ahead of any decision add up to about a second per worker at most."""
    import asyncio

    game = Game.new("tripoley", ["a", "b", "c"], seed=4)
    game.next_deal()
    seat = game.awaiting().seat
    ai = AIPlayers(random.Random(1), workers=2)
    ai.executor = object()  # a pool of two (its searches are held below)
    budgets, release, all_in = [], asyncio.Event(), asyncio.Event()

    async def held(obs, level, seed, budget):
        budgets.append(budget)
        if len(budgets) == 40:
            all_in.set()
        await release.wait()
        return choose_action(game, seat, "normal", random.Random(0))

    ai._run = held  # type: ignore[method-assign]
    tasks = [asyncio.ensure_future(ai.decide(game, seat, "hard")) for _ in range(40)]
    await asyncio.wait_for(all_in.wait(), 10)
    ahead = 0.0  # seconds of search queued before each decision, per worker
    for budget in budgets:
        if ahead + FULL_BUDGET.seconds <= MAX_QUEUE_WAIT:
            assert budget == FULL_BUDGET
        else:
            assert budget.seconds < FULL_BUDGET.seconds
        ahead += budget.seconds / 2
    assert budgets[-1].seconds == LEAST_SECONDS
    assert ahead <= MAX_QUEUE_WAIT + 40 * LEAST_SECONDS / 2  # the last one waits about a second
    release.set()
    await asyncio.gather(*tasks)
    assert ai.backlog == pytest.approx(0.0)  # every search accounted for once done
