from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.economy.bank import FORGOTTEN, HOUSE, REPEAT_WINDOW, WEEK, Bank, forgotten_digest, week_start
from bot.errors import HouseShort, NotAllowed, NotEnoughChips, OnCooldown, RepeatedGrant
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
    with pytest.raises(HouseShort) as refused:
        await bank.house_buy_in(G, table, 60, 100)  # 40 left: no chips from nowhere
    assert re.search("house can't fund", say(refused.value))
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
    with pytest.raises(OnCooldown) as refused:
        await bank.claim(G, 1, "daily", 50, 3600, 1000)
    assert re.search(r"\*\*30 min\*\*", say(refused.value))
    assert refused.value.retry_at == clock.t + 1800
    clock.t += 1800
    assert await bank.claim(G, 1, "daily", 50, 3600, 1000) == 1100
    kinds = [r["kind"] for r in await bank.ledger(G, 1)]
    assert kinds == ["daily", "daily", "grant"]
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 1100


async def test_relief_only_below_the_smallest_buy_in(db):
    bank = Bank(db, Clock())
    with pytest.raises(NotAllowed) as refused:
        await bank.claim(G, 1, "relief", 200, 3600, 1000, below=100)
    assert re.search("below 100 chips", say(refused.value))
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
    with pytest.raises(NotAllowed) as refused:
        await bank.reset(G, 99, 100, 1000)
    assert re.search("table is open", say(refused.value))
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
    with pytest.raises(NotAllowed) as refused:
        await bank.forget(G, 1, lambda: True)
    assert re.search("seated", say(refused.value))
    assert await bank.forget(G, 1, lambda: False) == 100
    assert await bank.ledger(G, 1) == []
    assert len(await bank.ledger(G, FORGOTTEN)) == 2  # the grant and the removal, kept
    assert await bank.leaderboard_size(G) == 1
    audit = await bank.audit(G)
    assert audit.ok and (audit.granted, audit.removed, audit.wallets) == (200, 100, 100)


async def test_forget_me_cycles_mint_nothing_and_keep_the_cooldowns(db):
    """At 0 chips, forget-me, play again: no new starting balance (then or ever), and the daily and
    relief cooldowns go on where they were. Other players and other servers are untouched."""
    clock = Clock()
    bank = Bank(db, clock)
    assert await bank.claim(G, 1, "daily", 50, 3600, 1000) == 1050
    await bank.adjust(G, 1, -1050, actor_id=99, starting=1000)
    assert await bank.claim(G, 1, "relief", 200, 7200, 1000, below=100) == 200
    for _ in range(3):
        await bank.forget(G, 1, lambda: False)
        assert await bank.balance(G, 1, 1000) == 0  # back: no starting balance
        with pytest.raises(OnCooldown):
            await bank.claim(G, 1, "daily", 50, 3600, 1000)
        with pytest.raises(OnCooldown):
            await bank.claim(G, 1, "relief", 200, 7200, 1000, below=100)
    clock.t += 3600
    assert await bank.claim(G, 1, "daily", 50, 3600, 1000) == 50  # the cooldown ran out: as for anyone
    await bank.forget(G, 1, lambda: False)
    with pytest.raises(OnCooldown):  # the newest claim is remembered
        await bank.claim(G, 1, "daily", 50, 3600, 1000)
    assert (await bank.last_claims(G, 1)).keys() == {"daily", "relief"}
    assert await bank.balance(G, 2, 1000) == 1000  # someone else: their starting balance
    assert await bank.balance(G + 1, 1, 1000) == 1000  # the same player in another server too
    audit = await bank.audit(G)
    assert audit.ok and audit.wallets == 1000


async def test_forgotten_players_are_kept_only_as_a_keyed_hash(db):
    bank = Bank(db)
    assert await db.fetchone("SELECT value FROM installation") is None  # nobody forgotten: no secret
    await bank.balance(G, 123456789, 100)
    await bank.forget(G, 123456789, lambda: False)
    key = bytes.fromhex((await db.fetchone("SELECT value FROM installation WHERE key = 'forget-key'"))[0])
    assert len(key) == 32
    rows = await db.fetchall("SELECT digest FROM forgotten_players")
    assert [r[0] for r in rows] == [forgotten_digest(key, G, 123456789)]
    assert "123456789" not in rows[0][0] and forgotten_digest(b"another key", G, 123456789) != rows[0][0]
    await Bank(db).forget(G, 7, lambda: False)  # never had a wallet: nothing to remember
    assert len(await db.fetchall("SELECT digest FROM forgotten_players")) == 1
    other = Bank(db)  # another process (or a restart) uses the same secret
    assert await other.balance(G, 123456789, 100) == 0


async def test_an_admins_repeated_grant_asks_to_confirm_and_a_confirmation_applies_once(db):
    clock = Clock()
    bank = Bank(db, clock)
    assert await bank.adjust(G, 1, 500, actor_id=99, starting=100) == (500, 600)
    clock.t += 30
    with pytest.raises(RepeatedGrant) as repeated:
        await bank.adjust(G, 1, 500, actor_id=99, starting=100)
    assert re.search("granted 500 chips to this wallet 30 s ago", say(repeated.value))
    assert await bank.balance(G, 1, 100) == 600  # nothing changed
    first = repeated.value.row_id
    assert await bank.adjust(G, 1, 500, 99, 100, after=first) == (500, 1100)  # confirmed
    with pytest.raises(RepeatedGrant):  # the confirmation clicked twice: the second is a repeat again
        await bank.adjust(G, 1, 500, 99, 100, after=first)
    assert await bank.adjust(G, 1, 400, 99, 100) == (400, 1500)  # another amount: no question
    assert await bank.adjust(G, 1, 500, 98, 100) == (500, 2000)  # another admin: no question
    assert await bank.adjust(G, HOUSE, 500, 99, 0) == (500, 500)  # another wallet (the house): none either
    assert await bank.adjust(G, 1, -300, 99, 100) == (-300, 1700)
    with pytest.raises(RepeatedGrant) as refused:
        await bank.adjust(G, 1, -300, 99, 100)
    assert re.search("took 300 chips from", say(refused.value))
    clock.t += REPEAT_WINDOW + 1
    assert await bank.adjust(G, 1, 500, 99, 100) == (500, 2200)  # long after: a new decision
    assert (await bank.audit(G)).ok


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
