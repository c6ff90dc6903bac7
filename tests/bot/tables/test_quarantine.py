"""A broken saved table never stops the bot: start-up loads each table on its own, quarantines
the ones that can't be loaded (their chips back through the ledger, or frozen for the operator's
repair), frees their channels, and the audit lists them apart. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from bot import __main__ as cli
from bot.economy.bank import FORGOTTEN, HOUSE
from bot.messages.notices import audit_text
from bot.tables.quarantine import REFUND
from tests.bot.tables.test_manager import ANN, BOB, G, drive_to_human

CAT = 33
HEALTHY, LOBBY, EMPTY, NOT_JSON, BAD_GAME = 601, 602, 603, 604, 605


async def open_game(manager, clock, channel: int, host: int, buy_in: int = 100, start: bool = True):
    """A table in ``channel``: ``host`` and an AI (a game, to a human's turn, when ``start``)."""
    await manager.lobby.create_table(
        G, channel, host, f"user{host}", "tripoley", {"game_end": "rounds:2"}, buy_in=buy_in
    )
    await manager.lobby.add_ai(channel, host)
    table = manager.registry.get(channel)
    if start:
        await manager.lobby.start(channel, host)
        await drive_to_human(manager, clock, table)
    return table


async def corrupt(db, table_id: int, state: str) -> None:
    await db.execute_alone("UPDATE tables SET state_json = ? WHERE id = ?", (state, table_id))


async def five_tables(manager, clock, db):
    """Two healthy tables and three whose saved rows are broken in different ways; their ids."""
    ids = {}
    for channel, host in ((HEALTHY, ANN), (EMPTY, BOB), (NOT_JSON, CAT), (BAD_GAME, ANN)):
        ids[channel] = (await open_game(manager, clock, channel, host, buy_in=50)).id
    ids[LOBBY] = (await open_game(manager, clock, LOBBY, BOB, buy_in=50, start=False)).id
    await manager.store.flush()
    await corrupt(db, ids[EMPTY], "{}")  # 'NoneType' object has no attribute 'finished', once
    await corrupt(db, ids[NOT_JSON], '{"seats": [')
    row = await db.fetchone("SELECT state_json FROM tables WHERE id = ?", (ids[BAD_GAME],))
    state = json.loads(row[0])
    state["game"] = json.dumps({"not": "a game"})  # valid JSON, not a game state
    await corrupt(db, ids[BAD_GAME], json.dumps(state))
    return ids


async def test_start_up_quarantines_broken_tables_and_resumes_the_others(make_manager, clock, db, bank):
    first = make_manager()
    ids = await five_tables(first, clock, db)
    wallets_before = {u: await bank.balance(G, u, 0) for u in (ANN, BOB, CAT, HOUSE)}

    second = make_manager()
    resumed = await second.timers.resume()  # the bot comes up
    assert sorted(t.id for t in resumed) == sorted([ids[HEALTHY], ids[LOBBY]])
    rows = {
        r["id"]: r
        for r in await db.fetchall("SELECT id, status, chips, quarantine_reason FROM tables WHERE guild_id = ?", (G,))
    }
    for channel in (EMPTY, NOT_JSON, BAD_GAME):
        row = rows[ids[channel]]
        assert row["status"] == "quarantined" and row["chips"] == 0 and row["quarantine_reason"], dict(row)
    # Their chips went back through the ledger: each player (and the house, for the AI) its stake.
    refunds = await db.fetchall(
        "SELECT user_id, SUM(delta) FROM ledger WHERE kind = ? GROUP BY user_id ORDER BY user_id", (REFUND,)
    )
    assert [tuple(r) for r in refunds] == [(HOUSE, 150), (ANN, 50), (BOB, 50), (CAT, 50)]
    assert await bank.balance(G, CAT, 0) == wallets_before[CAT] + 50
    assert await bank.balance(G, HOUSE, 0) == wallets_before[HOUSE] + 150
    audit = await second.results.audit(G)
    assert audit["ok"] and audit["frozen"] == 0 and audit["tables"] == 200  # the two healthy tables
    assert [q["id"] for q in audit["quarantined"]] == sorted(ids[c] for c in (EMPTY, NOT_JSON, BAD_GAME))
    assert "chips returned to the players" in audit_text(audit) and "✅ Every chip is accounted for." in audit_text(
        audit
    )
    # The healthy game goes on; the broken ones' channels are free again.
    healthy = second.registry.get(HEALTHY)
    assert healthy.status == "playing" and healthy.deadline is not None
    await second.lobby.create_table(G, NOT_JSON, CAT, "cat", "tripoley", {}, buy_in=10)
    # A restart later: the quarantined tables are never loaded again.
    third = make_manager()
    assert sorted(t.id for t in await third.timers.resume()) == sorted(
        [ids[HEALTHY], ids[LOBBY], third.registry.get(NOT_JSON).id]
    )


async def test_a_table_failing_in_its_first_advance_is_quarantined(make_manager, clock, db, bank):
    first = make_manager()
    broken = await open_game(first, clock, EMPTY, ANN)
    healthy = await open_game(first, clock, HEALTHY, BOB)
    await first.store.flush()
    await db.execute_alone(  # saved between steps: resuming decides again what it waits for
        "UPDATE tables SET state_json = ? WHERE id = ?",
        (json.dumps({**broken.to_state(), "deadline": None}), broken.id),
    )
    second = make_manager()
    advance = second.flow.advance

    async def failing(table, events, **kw):
        if table.id == broken.id:
            raise RuntimeError("a bug in advance")
        return await advance(table, events, **kw)

    second.flow.advance = failing
    assert [t.id for t in await second.timers.resume()] == [healthy.id]
    assert second.registry.get_by_id(broken.id) is None and EMPTY not in second.registry.by_channel
    row = await db.fetchone("SELECT status, chips FROM tables WHERE id = ?", (broken.id,))
    assert tuple(row) == ("quarantined", 0)
    assert (await bank.audit(G)).ok


async def test_chips_the_ledger_cannot_explain_stay_frozen_until_repaired(
    make_manager, clock, db, bank, settings, capsys
):
    first = make_manager()
    table = await open_game(first, clock, NOT_JSON, ANN)
    await first.store.flush()
    await corrupt(db, table.id, "not json at all")
    # The ledger's buy-in of that player no longer names them (as if they had been forgotten since).
    await db.execute_alone(
        "UPDATE ledger SET user_id = ? WHERE table_id = ? AND user_id = ?", (FORGOTTEN, table.id, ANN)
    )
    second = make_manager()
    assert await second.timers.resume() == []
    row = await db.fetchone("SELECT status, chips FROM tables WHERE id = ?", (table.id,))
    assert tuple(row) == ("quarantined", 200)  # frozen: not in play, still accounted for
    audit = await second.results.audit(G)
    assert audit["ok"] and audit["frozen"] == 200 and audit["quarantined"][0]["chips"] == 200
    text = audit_text(audit)
    assert "**200 chips frozen**" in text and "python -m bot repair" in text and "⚠️" in text
    assert "+ frozen 200" in text

    house = await bank.balance(G, HOUSE, 0)
    operator = settings.model_copy(update={"database_url": db.path if db.is_postgres else f"sqlite:///{db.path}"})
    assert await cli.repair(operator, table.id) == 0  # python -m bot repair TABLE_ID
    assert capsys.readouterr().out == f"table {table.id}: 200 chips returned (the house 200)\n"
    row = await db.fetchone("SELECT status, chips FROM tables WHERE id = ?", (table.id,))
    assert tuple(row) == ("quarantined", 0)
    assert await bank.balance(G, HOUSE, 0) == house + 200  # the AI's stake, and the forgotten player's
    audit = await second.results.audit(G)
    assert audit["ok"] and audit["frozen"] == 0 and "✅" in audit_text(audit)
    # Repairing again, or a table that isn't quarantined, changes nothing.
    assert await cli.repair(operator, table.id) == 0
    assert "holds no chips: nothing to repair" in capsys.readouterr().out
    assert await cli.repair(operator, table.id + 100) == cli.FAILED
    assert f"there is no table {table.id + 100}" in capsys.readouterr().err
    assert (await bank.audit(G)).ok


@pytest.mark.parametrize("state", ["{}", "[1, 2]", '{"seats": "x"}', '{"seats": [{"name": "a", "user_id": 5}]}'])
async def test_any_broken_lobby_is_quarantined_with_its_chips_back(make_manager, clock, db, bank, state):
    first = make_manager()
    table = await open_game(first, clock, LOBBY, ANN, start=False)
    await first.lobby.join(LOBBY, BOB, "bob")
    await corrupt(db, table.id, state)
    second = make_manager()
    assert await second.timers.resume() == []
    assert await bank.balance(G, ANN, 0) == await bank.balance(G, BOB, 0) == 1000
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0 and audit.frozen == 0
