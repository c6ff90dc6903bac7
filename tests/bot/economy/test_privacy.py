"""Privacy and retention, on both databases: forget a user everywhere, prune old games (the audit
still balances), purge the servers that removed the bot, and the bot's own hooks for them."""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest

from bot import errors
from bot.discordio.client import TripoleyBot
from bot.economy import privacy
from bot.economy.bank import FORGOTTEN
from bot.messages.refusals import say
from tests.bot.economy.test_economy import play_out
from tests.bot.tables.test_manager import ANN, BOB, C, G, lobby

G2 = 2  # a second server
DAY = privacy.DAY


async def count(db, sql: str, params: tuple = ()) -> int:
    return int((await db.fetchone(sql, params))[0])


async def finished_game(manager, clock):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"})
    await manager.lobby.start(C, ANN)
    await play_out(manager, clock, table)
    return table


async def test_forget_everywhere_forgets_every_server_and_the_preferences(manager, clock, bank, prefs, db):
    await finished_game(manager, clock)
    await bank.balance(G2, ANN, 500)  # a wallet in a second server
    await prefs.set_pings(ANN, True)
    await lobby(manager, ai=0)  # ANN seated again, at an open lobby
    before = await count(db, "SELECT COUNT(*) FROM wallets WHERE user_id = ?", (ANN,))
    with pytest.raises(errors.NotAllowed) as refused:
        await privacy.forget_everywhere(bank, ANN, lambda guild_id: False)  # seen in the database
    assert re.search("seated at a table", say(refused.value))
    assert await count(db, "SELECT COUNT(*) FROM wallets WHERE user_id = ?", (ANN,)) == before == 2
    await manager.lobby.leave(C, BOB)
    await manager.lobby.leave(C, ANN)  # the host leaving an unstarted lobby closes it

    removed = await privacy.forget_everywhere(bank, ANN, lambda guild_id: manager.registry.seated(guild_id, ANN))
    assert set(removed) == {G, G2} and removed[G2] == 500
    for table in ("wallets", "stats", "ledger"):
        assert await count(db, f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", (ANN,)) == 0, table
    assert await count(db, "SELECT COUNT(*) FROM user_prefs WHERE user_id = ?", (ANN,)) == 0
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE host_id = ?", (ANN,)) == 0
    [game] = await db.fetchall("SELECT state_json, result_json, replay_json FROM tables WHERE status = 'finished'")
    for column in ("state_json", "result_json", "replay_json"):
        text = game[column]
        at = text.find(f"user{ANN}")
        assert at < 0, (column, text[max(0, at - 300) : at + 100])
    assert f"user{BOB}" in game["replay_json"]
    assert await count(db, "SELECT COUNT(*) FROM wallets WHERE user_id = ?", (BOB,)) == 1  # others untouched
    for guild_id in (G, G2):
        assert (await bank.audit(guild_id)).ok
    assert await privacy.forget_everywhere(bank, ANN, lambda guild_id: False) == {}  # twice: nothing left
    with pytest.raises(ValueError):
        await privacy.forget_everywhere(bank, FORGOTTEN, lambda guild_id: False)


async def test_prune_deletes_old_games_anonymises_old_ledger_rows_and_keeps_the_books(manager, clock, bank, db):
    recent = await finished_game(manager, clock)
    await db.execute_alone("UPDATE tables SET ended_at = ? WHERE id = ?", (time.time(), recent.id))
    old = await finished_game(manager, clock)  # ended on the test clock, years ago
    await lobby(manager, ai=1)  # open: its buy-ins are on the table
    books = await bank.audit(G)
    assert books.ok and books.tables > 0

    pruned = await privacy.prune(db, 31, time.time())
    assert pruned == privacy.Pruned(games=1, ledger_rows=0)  # the ledger rows are today's
    ids = {int(r[0]) for r in await db.fetchall("SELECT id FROM tables")}
    assert old.id not in ids and recent.id in ids and len(ids) == 2
    assert await bank.audit(G) == books

    pruned = await privacy.prune(db, 31, time.time() + 40 * DAY)
    assert pruned.games == 1 and pruned.ledger_rows > 0
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE status IN ('finished', 'cancelled')") == 0
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE status = 'lobby'") == 1  # open tables stay
    assert await count(db, "SELECT COUNT(*) FROM ledger WHERE user_id > 0 OR actor_id > 0") == 0
    after = await bank.audit(G)
    assert after == books and after.ok, "no chip created or lost by a prune"
    assert await count(db, "SELECT COUNT(*) FROM stats WHERE user_id = ?", (ANN,)) == 1  # records stay


async def test_a_server_that_removed_the_bot_is_purged_after_the_delay(manager, clock, bank, db):
    await finished_game(manager, clock)
    await bank.balance(G2, BOB, 700)
    t0 = time.time()
    await privacy.mark_departed(db, G2, t0)
    assert await privacy.purge_departed(db, 30, t0 + 29 * DAY) == []
    await privacy.clear_departed(db, G2)  # added back: kept
    assert await privacy.purge_departed(db, 30, t0 + 31 * DAY) == []
    await privacy.mark_departed(db, G, t0)
    await privacy.mark_departed(db, G2, t0)
    await lobby(manager, ai=0)  # a table still open in G: G waits
    assert await privacy.purge_departed(db, 30, t0 + 31 * DAY) == [G2]
    for table in privacy.GUILD_TABLES:
        assert await count(db, f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (G2,)) == 0, table
    assert (await bank.audit(G2)).ok and (await bank.audit(G)).ok
    assert await count(db, "SELECT COUNT(*) FROM wallets WHERE guild_id = ?", (G,)) > 0


async def test_the_bot_marks_a_server_that_removed_it_and_clears_the_mark_when_added_back(db, settings):
    bot = SimpleNamespace(db=db, settings=settings.model_copy(update={"discord_api_base": None}))
    await TripoleyBot.on_guild_remove(bot, SimpleNamespace(id=G2))  # type: ignore[arg-type]
    assert await count(db, "SELECT COUNT(*) FROM departed_guilds WHERE guild_id = ?", (G2,)) == 1
    await TripoleyBot.on_guild_join(bot, SimpleNamespace(id=G2))  # type: ignore[arg-type]
    assert await count(db, "SELECT COUNT(*) FROM departed_guilds") == 0


async def test_retain_applies_the_settings(db, settings):
    t0 = time.time()
    await privacy.mark_departed(db, G2, t0 - 31 * DAY)
    pruned, purged = await privacy.retain(db, settings, t0)
    assert pruned is None and purged == [G2]  # RETENTION_DAYS unset: games kept for ever
    pruned, _ = await privacy.retain(db, settings.model_copy(update={"retention_days": 31.0}), t0)
    assert pruned == privacy.Pruned(0, 0)


DORA = 987_654_321  # an id no amount, round or other id of the test can be


async def every_value(db):
    """(table, column, value) of every row of every table of the database."""
    for name, columns in (await db.table_columns()).items():
        for row in await db.fetchall(f"SELECT * FROM {name}"):
            for column in columns:
                yield name, column, row[column]


async def test_forget_leaves_the_persons_name_and_id_nowhere(manager, clock, bank, db):
    """Every table and column walked after a forget: a lobby the player only passed through, a table
    where they kicked someone as an admin, a quarantined table (readable or not), a finished game."""
    from bot.tables.quarantine import quarantine

    name = f"user{DORA}"
    # A finished game Dora left while it was a lobby ("joined." / "left." in its log).
    await manager.lobby.create_table(G, C, BOB, f"user{BOB}", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.join(C, DORA, name)
    await manager.lobby.leave(C, DORA)
    await manager.lobby.join(C, ANN, f"user{ANN}")
    await manager.lobby.add_ai(C, BOB)
    await manager.lobby.start(C, BOB)
    await play_out(manager, clock, manager.registry.get(C))
    # Dora, as an admin, kicks Ann from a lobby that then closes.
    await manager.lobby.create_table(G, C + 1, BOB, f"user{BOB}", "tripoley", {}, buy_in=100)
    await manager.lobby.join(C + 1, ANN, f"user{ANN}")
    await manager.lobby.kick(G, ANN, name, DORA)
    await manager.lobby.leave(C + 1, BOB)
    # Two tables Dora hosted, quarantined: one readable, one whose state cannot be read.
    for channel in (C + 2, C + 3):
        await manager.lobby.create_table(G, channel, DORA, name, "tripoley", {}, buy_in=100)
        await quarantine(
            db, bank, manager.registry.get(channel).id, f"cannot resume the table of {name} ({DORA})", clock.t
        )
    unreadable = manager.registry.get(C + 3).id
    await db.execute_alone("UPDATE tables SET state_json = ? WHERE id = ?", (f'{{"seats": [{DORA}, ', unreadable))
    assert [1 async for _, _, value in every_value(db) if value == DORA or name in str(value)]

    await privacy.forget_everywhere(bank, DORA, lambda guild_id: False)
    found = [
        (table, column, str(value)[:200])
        async for table, column, value in every_value(db)
        if value == DORA or str(DORA) in str(value) or name in str(value)
    ]
    assert found == []
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE status = 'quarantined'") == 2  # scrubbed, kept
    assert (await bank.audit(G)).ok


async def test_settled_quarantined_tables_are_pruned_with_the_old_games(manager, clock, bank, db):
    from bot.tables.quarantine import quarantine

    await lobby(manager, ai=0)
    table = manager.registry.get(C)
    await quarantine(db, bank, table.id, "cannot resume", time.time() - 40 * DAY)
    assert await count(db, "SELECT chips FROM tables WHERE id = ?", (table.id,)) == 0  # the ledger gave them back
    pruned = await privacy.prune(db, 60, time.time())
    assert pruned.quarantined == 0  # not old enough
    pruned = await privacy.prune(db, 31, time.time())
    assert pruned.quarantined == 1
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE id = ?", (table.id,)) == 0
    assert (await bank.audit(G)).ok
