"""The table manager's side of the server economy: the finite house, kick, departed members, rematch."""

from __future__ import annotations

import re
import shutil

import pytest

from bot import errors
from bot.discordio.publisher import Publisher
from bot.economy.bank import HOUSE, Bank
from bot.messages.refusals import say
from bot.storage.database import Database
from bot.storage.schema import MIGRATIONS_DIR
from bot.tables.messageids import ShownMessage, remember_message
from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby
from tests.cogs.fakes import RecordingSink


async def play_out(manager, clock, table, limit=5000):
    for _ in range(limit):
        if table.status != "playing":
            return
        clock.t = table.deadline
        await manager.timers.tick()
    raise AssertionError("the game did not end")


async def test_add_ai_is_refused_when_the_house_cannot_fund_the_seat(make_manager, bank):
    manager = make_manager(house_bankroll=150)
    table = await lobby(manager, ai=1)  # the house opens with 150 and pays 100
    with pytest.raises(errors.HouseShort) as refused:
        await manager.lobby.add_ai(C, ANN)
    assert re.search("house can't fund", say(refused.value))
    assert len(table.seats) == 3 and await bank.balance(G, HOUSE, 0) == 50
    audit = await bank.audit(G)
    assert audit.ok and audit.granted == 2 * 1000 + 150


async def test_kick_from_a_lobby_refunds_and_mid_game_passes_the_seat_to_the_ai(manager, clock, bank):
    await lobby(manager, ai=1)
    [update] = await manager.lobby.kick(G, BOB, "admin")
    assert "back in their wallet" in update.message and manager.registry.get(C).seat_of(BOB) is None
    assert await bank.balance(G, BOB, 0) == 1000
    with pytest.raises(errors.NotSeated):
        await manager.lobby.kick(G, BOB, "admin")
    await manager.lobby.join(C, BOB, "bob")
    table = manager.registry.get(C)
    await manager.lobby.start(C, ANN)
    [update] = await manager.lobby.kick(G, BOB, "admin")
    seat = table.seats[table.seat_of(BOB)]
    assert seat.left and seat.auto and "cashed out at the end" in update.message
    await play_out(manager, clock, table)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0


async def test_a_member_who_left_the_server_gets_the_ai_when_their_timer_fires(manager, clock, bank):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    gone = table.seats[seat].user_id
    asked = []

    async def member(guild_id, user_id):
        asked.append(user_id)
        return user_id != gone

    manager.timers.member_check = member
    clock.t = table.deadline
    [update] = await manager.timers.tick()
    assert asked == [gone] and table.seats[seat].left
    assert "no longer in this server" in update.message and table.seats[seat].timeouts == 0
    await play_out(manager, clock, table)
    assert (await bank.audit(G)).ok


async def test_rematch_seats_the_last_players_and_brings_the_ai_back(manager, clock, bank):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"}, buy_in=40)
    await manager.lobby.start(C, ANN)
    await play_out(manager, clock, table)
    with pytest.raises(errors.NotAllowed, match="REMATCH_NOT_YOURS"):
        await manager.lobby.rematch(table.id, 33, "carol")
    update = await manager.lobby.rematch(table.id, BOB, "bob")
    again = update.table
    assert again.rematch_of == table.id and again.host_id == BOB
    assert (again.preset, again.options, again.buy_in) == ("tripoley", {"game_end": "rounds:1"}, 40)
    assert [s.user_id for s in again.seats] == [BOB, None]
    await manager.lobby.rematch(table.id, ANN, "ann")
    assert [s.user_id for s in again.seats] == [BOB, None, ANN] and all(s.stake == 40 for s in again.seats)
    with pytest.raises(errors.TripoleyError, match="ALREADY_SEATED"):
        await manager.lobby.rematch(table.id, ANN, "ann")
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 120


async def test_rematch_without_the_house_bankroll_opens_without_the_ai(make_manager, clock, bank):
    manager = make_manager(house_bankroll=100)
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.start(C, ANN)
    await play_out(manager, clock, table)
    await bank.adjust(G, HOUSE, -10_000, actor_id=ANN, starting=0)  # the house is emptied
    update = await manager.lobby.rematch(table.id, ANN, "ann")
    assert [s.user_id for s in update.table.seats] == [ANN] and isinstance(update.refused, errors.HouseShort)
    assert "house can't fund" in say(update.refused)
    assert (await bank.audit(G)).ok


async def test_migration_0005_turns_the_old_house_top_ups_into_grants(tmp_path):
    """A database from before 0005: the house was granted its shortfall at each AI buy-in, in rows
    naming the table. After the migration those are house-bankroll grants and the books balance."""
    old_dir = tmp_path / "old"
    old_dir.mkdir()
    for path in MIGRATIONS_DIR.glob("0001_*.sql"):
        shutil.copy(path, old_dir)
    path = str(tmp_path / "db.sqlite3")
    db = await Database(path, migrations_dir=old_dir).connect()
    rows = [  # (user, delta, balance, kind, table, note)
        (ANN, 1000, 1000, "grant", None, "starting balance"),
        (ANN, -100, 900, "buy-in", 1, None),
        (HOUSE, 100, 100, "grant", 1, "house bankroll"),
        (HOUSE, -100, 0, "buy-in", 1, "AI seat"),
        (ANN, 150, 1050, "cash-out", 1, None),
        (HOUSE, 50, 50, "cash-out", 1, None),
    ]
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, preset, status, chips, state_json,"
            " created_at) VALUES (1, ?, ?, ?, 'tripoley', 'finished', 0, '{}', 0)",
            (G, C, ANN),
        )
        await conn.executemany(
            "INSERT INTO ledger (guild_id, user_id, delta, balance, kind, table_id, created_at, note)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
            [(G, *r) for r in rows],
        )
        await conn.executemany(
            "INSERT INTO wallets (guild_id, user_id, balance) VALUES (?, ?, ?)", [(G, ANN, 1050), (G, HOUSE, 50)]
        )
    await db.close()
    db = await Database(path).connect()
    try:
        assert await db.schema_version() >= 5
        bank = Bank(db)
        audit = await bank.audit(G)
        assert audit.ok and (audit.granted, audit.removed, audit.wallets) == (1100, 0, 1100)
        house = await bank.ledger(G, HOUSE)
        assert [(r["kind"], r["table_id"]) for r in house][-1] == ("house-bankroll", None)
        # The house keeps what it holds: 50 chips can't fund a 100-chip AI seat, and nothing is minted.
        with pytest.raises(errors.HouseShort):
            await bank.house_buy_in(G, 1, 100, 10_000)
    finally:
        await db.close()


class ThreadSink(RecordingSink):
    """A sink whose threads start (with the lobby message's id, as on Discord) unless ``refuse``."""

    def __init__(self, refuse: bool = False) -> None:
        super().__init__()
        self.refuse = refuse

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        if self.refuse:
            raise PermissionError("Missing Permissions")
        self.calls.append(("thread", channel_id, message_id, name))
        return message_id

    async def archive(self, thread_id: int) -> None:
        self.calls.append(("archive", thread_id, None, None))


@pytest.mark.parametrize("refuse", [False, True])
async def test_a_threaded_game_plays_in_its_thread_or_else_in_the_channel(manager, clock, refuse):
    sink = ThreadSink(refuse)
    publisher = Publisher(manager, sink, renderer=None, min_interval=0)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"}, thread=True)
    await remember_message(
        manager, manager.registry.get(C).id, ShownMessage.LOBBY, 4242
    )  # as if /tripoley start had posted it
    await manager.lobby.add_ai(C, ANN)
    table = manager.registry.get(C)
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    where = C if refuse else 4242
    assert table.mat_channel == where and table.thread is not refuse
    assert manager.registry.get(where) is table  # commands typed in the thread find the table
    await play_out(manager, clock, table)
    await publisher.flush()
    mats = [c for c in sink.calls if c[0] in ("post", "edit") and c[2] != 4242]
    assert mats and all(c[1] == where for c in mats)
    archived = [c[1] for c in sink.calls if c[0] == "archive"]
    assert archived == ([] if refuse else [4242])
