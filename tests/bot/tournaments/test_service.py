"""The tournament service over the table service: sign-up, buy-ins into the pot, stages of tables,
a leaver, a restart mid-stage, the prizes, a cancel; the books balanced after each step."""

from __future__ import annotations

import itertools

import pytest

from bot.economy.bank import Bank
from bot.tables.manager import TableManager
from bot.tournaments.model import TournamentStatus, pot_account
from bot.tournaments.service import Problem, Settings, TournamentError, Tournaments

G, C = 1, 700
PEOPLE = [31, 32, 33, 34, 35]
START = 1000  # the settings' starting balance (tests/bot/conftest.py)


def service_for(manager: TableManager, db) -> Tournaments:
    threads = itertools.count(9000 + 100 * len(manager.registry.by_channel))

    async def places(tournament, table):
        return next(threads) + 1000 * len(tournament.stages)

    return Tournaments(manager, db, places)


async def balanced(bank: Bank) -> None:
    audit = await bank.audit(G)
    assert audit.ok, audit


async def signed_up(service: Tournaments, bank: Bank, **choices) -> int:
    settings = Settings(preset="tripoley", buy_in=50, table_size=3, advance=1, ending="rounds", rounds=1)
    for key, value in choices.items():
        setattr(settings, key, value)
    t = await service.create(G, C, PEOPLE[0], "p0", settings)
    for i, user in enumerate(PEOPLE[1:], 1):
        await service.join(t.id, user, f"p{i}")
        await balanced(bank)
    return t.id


async def play_tables(manager: TableManager, clock, service: Tournaments, until, limit=20000) -> None:
    """Fire every table's deadlines in turn (people time out: safe moves, then the AI) until ``until()``."""
    for _ in range(limit):
        await service.settled()
        if until():
            return
        due = [t.deadline for t in manager.registry if t.deadline is not None]
        if due:
            clock.t = max(clock.t, min(due))
            await manager.timers.tick()
    raise AssertionError("the tournament did not get there")


async def test_a_tournament_from_sign_up_to_champion_with_a_leaver_and_a_restart(
    make_manager, db, bank, clock, settings
):
    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    tid = await signed_up(service, bank, ai_fill=True)
    t = service.open[tid]
    assert await bank.balance(G, pot_account(tid), 0) == 250 and t.pot() == 250
    with pytest.raises(TournamentError) as refused:
        await service.join(tid, PEOPLE[1], "again")
    assert refused.value.problem == Problem.ENTERED_ALREADY
    with pytest.raises(TournamentError):
        await service.start(tid, PEOPLE[1])  # the host's to start
    # A leaver before the start is refunded.
    await service.leave(tid, PEOPLE[4])
    assert await bank.balance(G, PEOPLE[4], 0) == START and t.pot() == 200
    await service.join(tid, PEOPLE[4], "p4")
    await service.start(tid, PEOPLE[0])
    assert t.status == TournamentStatus.RUNNING
    stage = t.stage()
    assert [len(s.seats) for s in stage] == [3, 3]  # five people and one AI seat, filling
    assert sum(k.startswith("a") for s in stage for k in s.seats) == 1
    tables = [manager.registry.get_by_id(s.table_id) for s in stage]
    assert all(tb is not None and tb.status == "playing" for tb in tables)
    assert await bank.balance(G, PEOPLE[0], 0) == START - 50  # the stacks are not the wallets
    await balanced(bank)
    # A leaver after the start forfeits: an AI plays their seat out.
    leaver = PEOPLE[2]
    await service.leave(tid, leaver)
    left_at = next(tb for tb in tables if tb.seat_of(leaver) is not None)
    assert left_at.seats[left_at.seat_of(leaver)].left
    await balanced(bank)
    # One table finishes, then the bot restarts mid-stage.
    await play_tables(manager, clock, service, lambda: any(s.order for s in t.stage()))
    await manager.store.flush()
    await balanced(bank)
    manager2 = make_manager(round_pause=0.0)
    await manager2.timers.resume()
    service2 = service_for(manager2, db)
    await service2.resume()
    t2 = service2.open[tid]
    assert [s.order is not None for s in t2.stage()] == [s.order is not None for s in t.stage()]
    await play_tables(manager2, clock, service2, lambda: t2.status == TournamentStatus.FINISHED)
    assert len(t2.stages) == 2 and len(t2.stages[1]) == 1  # two tables, then the final
    assert t2.entrant_of(leaver).left and t2.entrant_of(leaver).prize == 0
    prizes = sorted((e.prize for e in t2.entrants), reverse=True)
    assert sum(prizes) == 250 and prizes[:2] == [163, 87] and not any(prizes[2:])  # 65/35 of five entrants
    champion = t2.by_key(t2.order[0])
    assert champion is None or champion.place == 1
    assert await bank.balance(G, pot_account(tid), 0) == 0
    wallets = [await bank.balance(G, p, 0) for p in PEOPLE]
    assert sum(wallets) == len(PEOPLE) * START  # the buy-ins came back as prizes, nothing more
    await balanced(bank)
    again = await service2.store.tournament(tid)
    assert again.status == TournamentStatus.FINISHED and again.order == t2.order


async def test_a_cancel_refunds_every_buy_in_mid_stage_too(make_manager, db, bank, clock):
    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    tid = await signed_up(service, bank)
    await service.start(tid, PEOPLE[0])
    t = service.open[tid]
    assert [len(s.seats) for s in t.stage()] == [3, 2]  # no AI seats: balanced
    await service.leave(tid, PEOPLE[1])  # forfeits, but a cancel refunds everyone
    with pytest.raises(TournamentError):
        await service.cancel(tid, PEOPLE[1], can_manage=False)
    await service.cancel(tid, PEOPLE[0], can_manage=False)
    await service.settled()
    assert t.status == TournamentStatus.CANCELLED and tid not in service.open
    assert [await bank.balance(G, p, 0) for p in PEOPLE] == [START] * len(PEOPLE)
    assert not list(manager.registry)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0


async def test_the_start_time_starts_it_and_too_few_entrants_cancel_it(make_manager, db, bank, clock):
    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    t = await service.create(
        G, C, PEOPLE[0], "p0", Settings("tripoley", 20, 3, 1, "rounds", 1, start_at=clock.wall() + 60)
    )
    clock.advance(61)
    await service.start_due(t)
    assert t.status == TournamentStatus.CANCELLED
    assert await bank.balance(G, PEOPLE[0], 0) == START
    await balanced(bank)


async def test_forget_me_scrubs_a_finished_tournament_and_waits_for_an_open_one(make_manager, db, bank, clock):
    from bot import errors
    from bot.economy.privacy import forget_everywhere

    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    tid = await signed_up(service, bank)
    with pytest.raises(errors.NotAllowed):
        await bank.forget(G, PEOPLE[1], lambda: False)
    with pytest.raises(errors.NotAllowed):
        await forget_everywhere(bank, PEOPLE[1], lambda guild: False)
    await service.start(tid, PEOPLE[0])
    t = service.open[tid]
    await play_tables(manager, clock, service, lambda: t.status == TournamentStatus.FINISHED)
    await bank.forget(G, PEOPLE[0], lambda: False)  # the host, and an entrant
    rows = await db.fetchall("SELECT * FROM tournament_entrants WHERE tournament_id = ?", (tid,))
    assert all(r["user_id"] != PEOPLE[0] and r["name"] != "p0" for r in rows)
    assert sum(r["prize"] for r in rows) == t.pot()  # the standings still add up
    host = await db.fetchone("SELECT host_id FROM tournaments WHERE id = ?", (tid,))
    assert host[0] != PEOPLE[0]
    await balanced(bank)


async def test_a_start_time_that_passed_while_the_bot_was_down_starts_it_after_the_restart(
    make_manager, db, bank, clock
):
    import asyncio

    manager = make_manager(round_pause=0.0)
    tid = await signed_up(service_for(manager, db), bank, start_at=clock.wall() + 600)
    clock.advance(601)  # the bot was down meanwhile
    manager2 = make_manager(round_pause=0.0)
    await manager2.timers.resume()
    service2 = service_for(manager2, db)
    await service2.resume()
    assert service2.open[tid].status == TournamentStatus.SIGNUP
    runner = asyncio.create_task(service2.run())
    try:
        t = service2.open[tid]
        for _ in range(500):
            opened = [manager2.registry.get_by_id(s.table_id) for s in t.stage() if s.table_id is not None]
            if t.stage() and len(opened) == len(t.stage()) and all(tb is not None and tb.game for tb in opened):
                break
            await asyncio.sleep(0.01)
        assert service2.open[tid].status == TournamentStatus.RUNNING
        assert all(s.table_id is not None for s in service2.open[tid].stage())
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    await service2.settled()
    await balanced(bank)


async def test_a_tournament_tables_stacks_count_in_no_ones_net_winnings(make_manager, db, bank, clock):
    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    tid = await signed_up(service, bank)
    await service.start(tid, PEOPLE[0])
    t = service.open[tid]
    await play_tables(manager, clock, service, lambda: t.status == TournamentStatus.FINISHED)
    for person in PEOPLE:
        stats = await manager.store.stats(G, person)
        assert stats is not None and stats["games"] >= 1 and stats["net"] == 0


async def test_leaving_the_table_itself_forfeits_too(make_manager, db, bank, clock):
    manager = make_manager(round_pause=0.0)
    service = service_for(manager, db)
    tid = await signed_up(service, bank)
    await service.start(tid, PEOPLE[0])
    t = service.open[tid]
    table = manager.registry.get_by_id(t.stage()[0].table_id)
    leaver = next(s.user_id for s in table.seats if s.user_id is not None)
    await manager.lobby.leave(table.channel_id, leaver)  # /tripoley leave in the table's thread
    await play_tables(manager, clock, service, lambda: t.status == TournamentStatus.FINISHED)
    entrant = t.entrant_of(leaver)
    assert entrant.left and entrant.prize == 0 and t.order.index(entrant.key) == len(t.order) - 1
    await balanced(bank)


async def test_a_table_whose_thread_could_not_be_made_is_opened_when_the_service_tries_again(
    make_manager, db, bank, clock
):
    manager = make_manager(round_pause=0.0)
    threads = itertools.count(5000)
    refused = [True]

    async def places(tournament, table):
        if refused and table.number == 2:
            refused.clear()
            raise OSError("Discord refused the thread")
        return next(threads)

    service = Tournaments(manager, db, places)
    tid = await signed_up(service, bank)
    with pytest.raises(OSError):
        await service.start(tid, PEOPLE[0])
    t = service.open[tid]
    assert [s.table_id is not None for s in t.stage()] == [True, False]
    await balanced(bank)
    await service.settle_logged(tid)  # what the timer's loop does
    assert all(s.table_id is not None for s in t.stage())
    await play_tables(manager, clock, service, lambda: t.status == TournamentStatus.FINISHED)
    await balanced(bank)
