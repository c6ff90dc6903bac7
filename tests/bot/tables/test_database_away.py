"""The database goes away mid-game (PostgreSQL stopped and started again; SQLite locked by another
program): players are answered with the friendly refusal, moves go on in memory and are saved once
it is back, the timers never die, and no chip is lost or doubled."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest

from bot import errors
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.refusals import say
from bot.storage.database import Database
from bot.tables.manager import TableManager
from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby

CAT = 33
BUSY = "The game's database is busy — try again in a moment."


class Outage:
    """Takes the database away and brings it back: PostgreSQL's server stopped (as a restart or
    failover does), or SQLite's write lock held by another program."""

    def __init__(self, kind: str, tmp_path, request) -> None:
        self.kind = kind
        if kind == "postgresql":
            self.server = request.getfixturevalue("restartable_postgres")
            self.url = self.server.new_database()
        else:
            self.url = str(tmp_path / "away.sqlite3")
        self._holder: sqlite3.Connection | None = None

    async def open(self) -> Database:
        db = Database(self.url)
        db.busy_timeout_ms = 20
        return await db.connect()

    def away(self) -> None:
        if self.kind == "postgresql":
            self.server.halt()
        else:
            self._holder = sqlite3.connect(self.url, isolation_level=None)
            self._holder.execute("BEGIN IMMEDIATE")

    def back(self) -> None:
        if self.kind == "postgresql":
            self.server.resume()
        else:
            assert self._holder is not None
            self._holder.execute("COMMIT")
            self._holder.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def outage(request, tmp_path) -> Outage:
    return Outage(request.param, tmp_path, request)


@pytest.fixture
async def stack(outage, settings, clock):
    db = await outage.open()
    bank = Bank(db)
    manager = TableManager(db, bank, Prefs(db, settings), settings, clock=clock, rng=random.Random(5))
    yield manager, bank, db
    if manager.store._saver_task is not None:
        manager.store._saver_task.cancel()
    await db.close()


async def eventually(check, timeout: float = 30.0) -> None:
    """Until the coroutine function ``check`` returns true (tried every 20 ms), at most ``timeout`` s."""

    async def poll() -> None:
        while not await check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


def a_move(manager, table) -> tuple[int, dict]:
    aw = table.game.awaiting()
    action = manager.flow.ai_action(table, aw.seat).to_dict()
    action.pop("seat")
    return table.seats[aw.seat].user_id, action


async def test_the_game_survives_the_database_going_away(stack, outage, clock):
    manager, bank, db = stack
    table = await lobby(manager, ai=1)
    await manager.start(C, ANN)
    await drive_to_human(manager, clock, table)
    db.retry_for = 0.5  # how long a click waits before the friendly refusal (10 s in the bot)

    outage.away()
    try:
        # Whatever needs a transaction is refused, with the friendly words, and changes nothing.
        for refused in (
            manager.create_table(G, C + 1, CAT, "cat", "tripoley", {}, buy_in=10),
            bank.balance(G, ANN, 1000),
        ):
            with pytest.raises(errors.DatabaseUnavailable) as why:
                await refused
            assert say(why.value) == BUSY
        assert C + 1 not in manager.tables
        # A move is served (in memory); its save waits for the database.
        user, action = a_move(manager, table)

        def moved() -> tuple[int, list[int]]:  # (a choice made at once adds no event until all are in)
            return len(table.game.history), table.game.chosen_seats()

        before = moved()
        await manager.act(C, user, action, table.round)
        assert moved() != before and table.id in manager.store._dirty
        # The timers go on firing (the AI's moves, a turn running out) without dying.
        for _ in range(3):
            clock.t = table.deadline
            await manager.tick()
    finally:
        outage.back()
    db.retry_for = 10.0

    async def saved() -> bool:
        row = await db.fetchone("SELECT state_json FROM tables WHERE id = ?", (table.id,))
        return json.loads(row[0])["game"] == table.game.to_json()

    await eventually(saved)  # the kept save is written by itself within seconds
    # The game goes on; at its end every chip is where it should be.
    for _ in range(3):
        if table.status != "playing":
            break
        seat = await drive_to_human(manager, clock, table)
        if seat is None:
            break
        user, action = a_move(manager, table)
        await manager.act(C, user, action, table.round)
    if table.status == "playing":
        await manager.stop(C, ANN, can_manage=True)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0, audit
    assert audit.wallets == audit.granted - audit.removed


async def test_a_click_during_a_short_restart_waits_and_is_applied_once(stack, outage):
    manager, bank, db = stack
    await lobby(manager, ai=0, humans=(ANN,))
    outage.away()
    try:
        joining = asyncio.ensure_future(manager.join(C, BOB, "bob"))

        async def retrying() -> bool:
            return db.errors.total > 0 and not joining.done()

        await eventually(retrying)
    finally:
        outage.back()
    await joining
    assert [s.user_id for s in manager.get(C).seats] == [ANN, BOB]
    buy_ins = await db.fetchone("SELECT COUNT(*) FROM ledger WHERE user_id = ? AND kind = 'buy-in'", (BOB,))
    assert buy_ins[0] == 1  # bought in once
    assert (await bank.audit(G)).ok


async def test_a_game_end_that_met_the_database_away_is_cashed_out_when_it_is_back(stack, outage, clock):
    manager, bank, db = stack
    table = await lobby(manager, ai=1)
    await manager.start(C, ANN)
    await drive_to_human(manager, clock, table)
    db.retry_for = 0.3
    outage.away()
    try:
        with pytest.raises(errors.DatabaseUnavailable):
            await manager.stop(C, ANN, can_manage=True)  # the cash-out's transaction is refused
        assert C in manager.tables and table.deadline_kind == "finish"
    finally:
        outage.back()
    db.retry_for = 10.0
    # Its deadline fires again soon and cashes everyone out.
    for _ in range(400):
        if table.status == "finished":
            break
        clock.t = max(clock.t, table.deadline or clock.t)
        await manager.tick()
    assert table.status == "finished" and C not in manager.tables
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0, audit
