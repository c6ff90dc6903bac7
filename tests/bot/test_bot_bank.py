from __future__ import annotations

import asyncio
import json

import pytest

from bot.bank import HOUSE
from bot.errors import NotEnoughChips

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
    assert "500" in err.value.message
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


async def test_house_is_granted_its_shortfall_and_cash_out_balances(bank, db):
    table = await make_table(db)
    await bank.house_buy_in(G, table, 100)
    await bank.buy_in(G, 1, table, 100, 1000)
    async with db.transaction() as conn:
        await bank.cash_out_all(conn, G, table, [(1, 150), (HOUSE, 50)])
    assert await bank.balance(G, 1, 0) == 1050
    assert await bank.balance(G, HOUSE, 0) == 50
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 1100 and audit.tables == 0


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
