from __future__ import annotations

import asyncio
import json

import pytest

from bot.economy.bank import FORGOTTEN, HOUSE, WEEK, Bank, week_start
from bot.errors import HouseShort, NotAllowed, NotEnoughChips, OnCooldown
from bot.messages.refusals import say

G = 10


async def make_table(db, chips: int = 0) -> int:
    async with db.transaction() as conn:
        cur = await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, preset, status, chips, state_json, created_at)"
            " VALUES (?, ?, 1, 'tripoley', 'lobby', ?, ?, 0)",
            (G, 100 + chips, chips, json.dumps({})),
        )
        return cur.lastrowid


async def test_new_wallet_gets_starting_balance_with_a_grant_row(bank):
    assert await bank.balance(G, 1, 500) == 500
    assert await bank.balance(G, 1, 999) == 500  # only once
    rows = await bank.ledger(G, 1)
    assert [(r["kind"], r["delta"], r["balance"]) for r in rows] == [("grant", 500, 500)]


async def test_buy_in_and_refund_move_chips_with_ledger_rows(bank, db):
    table = await make_table(db)
    assert await bank.buy_in(G, 1, table, 200, 500) == 300
    assert (await bank.audit(G)).tables == 200
    assert await bank.refund(G, 1, table, 200) == 500
    kinds = [r["kind"] for r in reversed(await bank.ledger(G, 1))]
    assert kinds == ["grant", "buy-in", "refund"]
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0


async def test_no_negative_balance(bank, db):
    table = await make_table(db)
    with pytest.raises(NotEnoughChips) as err:
        await bank.buy_in(G, 1, table, 600, 500)
    assert "500" in say(err.value)
    assert await bank.balance(G, 1, 500) == 500
    assert (await bank.audit(G)).tables == 0  # nothing moved


async def test_concurrent_buy_ins_never_overdraw(bank, db):
    tables = [await make_table(db) for _ in range(1)]
    await bank.balance(G, 7, 100)

    async def attempt():
        try:
            await bank.buy_in(G, 7, tables[0], 30, 100)
            return True
        except NotEnoughChips:
            return False

    results = await asyncio.gather(*(attempt() for _ in range(10)))
    assert sum(results) == 3
    assert await bank.balance(G, 7, 100) == 10
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 90
    rows = await bank.ledger(G, 7, limit=100)
    assert len([r for r in rows if r["kind"] == "buy-in"]) == 3
    assert all(r["balance"] >= 0 for r in rows)


async def test_house_buys_in_from_its_bankroll_and_cash_out_balances(bank, db):
    table = await make_table(db)
    await bank.house_buy_in(G, table, 100, 1000)  # the house account opens with its 1000-chip bankroll
    await bank.buy_in(G, 1, table, 100, 1000)
    async with db.transaction() as conn:
        await bank.cash_out_all(conn, G, table, [(1, 150), (HOUSE, 50)])
    assert await bank.balance(G, 1, 0) == 1050
    assert await bank.balance(G, HOUSE, 0) == 950
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 2000 and audit.removed == 0 and audit.tables == 0


async def test_a_short_house_is_refused_and_never_granted_chips(bank, db):
    table = await make_table(db)
    await bank.house_buy_in(G, table, 60, 100)
    with pytest.raises(HouseShort, match="house can't fund"):
        await bank.house_buy_in(G, table, 60, 100)  # 40 left: no chips from nowhere
    assert await bank.balance(G, HOUSE, 0) == 40
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 100 and audit.tables == 60


async def test_cash_out_must_pay_exactly_what_the_table_holds(bank, db):
    table = await make_table(db)
    await bank.buy_in(G, 1, table, 100, 1000)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await bank.cash_out_all(conn, G, table, [(1, 101)])
    assert await bank.balance(G, 1, 0) == 900
    assert (await bank.audit(G)).ok


async def test_leaderboard(bank):
    for user, start in [(1, 10), (2, 30), (3, 20)]:
        await bank.balance(G, user, start)
    await bank.balance(G, HOUSE, 0)
    top = await bank.leaderboard(G, "balance", 0, 2)
    assert [r["user_id"] for r in top] == [2, 3]
    assert await bank.leaderboard_size(G) == 3


class Clock:
    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def test_daily_grant_once_per_cooldown_with_the_time_left(db):
    clock = Clock()
    bank = Bank(db, clock)
    assert await bank.claim(G, 1, "daily", 50, 3600, 1000) == 1050
    clock.t += 1800
    with pytest.raises(OnCooldown, match=r"\*\*30 min\*\*") as refused:
        await bank.claim(G, 1, "daily", 50, 3600, 1000)
    assert refused.value.retry_at == clock.t + 1800
    clock.t += 1800
    assert await bank.claim(G, 1, "daily", 50, 3600, 1000) == 1100
    kinds = [r["kind"] for r in await bank.ledger(G, 1)]
    assert kinds == ["daily", "daily", "grant"]
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 1100


async def test_relief_only_below_the_smallest_buy_in(db):
    bank = Bank(db, Clock())
    with pytest.raises(NotAllowed, match="below 100 chips"):
        await bank.claim(G, 1, "relief", 200, 3600, 1000, below=100)
    assert await bank.claim(G, 2, "relief", 200, 3600, 30, below=100) == 230
    with pytest.raises(OnCooldown):
        await bank.claim(G, 2, "relief", 200, 3600, 30, below=100)
    assert (await bank.audit(G)).ok


async def test_admin_grant_and_removal_never_below_zero(bank):
    assert await bank.adjust(G, 1, 250, actor_id=99, starting=100) == (250, 350)
    assert await bank.adjust(G, 1, -1000, actor_id=99, starting=100) == (-350, 0)
    rows = await bank.ledger(G, 1)
    assert [(r["kind"], r["delta"], r["actor_id"]) for r in rows[:2]] == [
        ("admin-removal", -350, 99),
        ("admin-grant", 250, 99),
    ]
    audit = await bank.audit(G)
    assert audit.ok and (audit.granted, audit.removed, audit.wallets) == (350, 350, 0)


async def test_reset_restores_starting_balances_and_is_refused_while_a_table_is_open(bank, db):
    await bank.balance(G, 1, 100)
    await bank.adjust(G, 2, 500, 99, 100)
    table = await make_table(db)
    await bank.buy_in(G, 1, table, 40, 100)
    with pytest.raises(NotAllowed, match="table is open"):
        await bank.reset(G, 99, 100, 1000)
    assert await bank.balance(G, 1, 0) == 60  # nothing changed
    await bank.refund(G, 1, table, 40)
    await db.execute_alone("UPDATE tables SET status = 'cancelled' WHERE id = ?", (table,))
    assert await bank.reset(G, 99, 100, 1000) == 3  # two players and the house
    assert [await bank.balance(G, u, 0) for u in (1, 2, HOUSE)] == [100, 100, 1000]
    assert [r["kind"] for r in await bank.ledger(G, 2)][0] == "reset"
    audit = await bank.audit(G)
    assert audit.ok and audit.wallets == 1200


async def test_forget_removes_the_wallet_and_anonymises_the_ledger(bank, db):
    await bank.balance(G, 1, 100)
    await bank.balance(G, 2, 100)
    with pytest.raises(NotAllowed, match="seated"):
        await bank.forget(G, 1, lambda: True)
    assert await bank.forget(G, 1, lambda: False) == 100
    assert await bank.ledger(G, 1) == []
    assert len(await bank.ledger(G, FORGOTTEN)) == 2  # the grant and the removal, kept
    assert await bank.leaderboard_size(G) == 1
    audit = await bank.audit(G)
    assert audit.ok and (audit.granted, audit.removed, audit.wallets) == (200, 100, 100)


async def test_leaderboards_by_net_and_wins_this_week_and_all_time(db):
    clock = Clock()
    bank = Bank(db, clock)
    last_week = week_start(clock.t) - 3600
    for ended, seats in ((last_week, [(1, 50, True), (2, -50, False)]), (clock.t, [(2, 30, True), (1, -30, False)])):
        result = {"seats": [{"user_id": u, "net": n, "winner": w} for u, n, w in seats]}
        await db.execute_alone(
            "INSERT INTO tables (guild_id, channel_id, host_id, preset, status, state_json, result_json, created_at,"
            " ended_at) VALUES (?, 1, 1, 'tripoley', 'finished', '{}', ?, 0, ?)",
            (G, json.dumps(result), ended),
        )
        for u, n, w in seats:
            await db.execute_alone(
                "INSERT INTO stats (guild_id, user_id, games, wins, net) VALUES (?, ?, 1, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET games = stats.games + 1, wins = stats.wins + excluded.wins, net = stats.net + excluded.net",
                (G, u, int(w), n),
            )
    assert await bank.leaderboard(G, "net") == [{"user_id": 1, "value": 20}, {"user_id": 2, "value": -20}]
    assert await bank.leaderboard(G, "net", period=WEEK) == [{"user_id": 2, "value": 30}, {"user_id": 1, "value": -30}]
    assert await bank.leaderboard(G, "wins", period=WEEK) == [{"user_id": 2, "value": 1}, {"user_id": 1, "value": 0}]
    assert await bank.leaderboard_size(G, "wins") == 2
