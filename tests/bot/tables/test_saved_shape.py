"""A table's saved shape is declared once (``SavedTable``) and saved with its format: a table saved
before formats were kept loads field for field, a newer format is refused (and quarantined)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from bot.tables.model import (
    SAVED_FIELDS,
    TABLE_FORMAT,
    DeadlineKind,
    SavedTable,
    SavedTableTooNew,
    Seat,
    Table,
    TableStatus,
    read_state,
)
from tests.bot.tables.test_quarantine import open_game

# A playing table's row as the code before SavedTable wrote it (no "format": format 0).
BEFORE_FORMATS = json.loads((Path(__file__).parent / "saved" / "table_before_formats.json").read_text())


def test_a_table_saved_before_formats_loads_every_field() -> None:
    table = Table.from_row(BEFORE_FORMATS)
    assert (table.id, table.guild_id, table.channel_id, table.host_id) == (7, 1, 500, 11)
    assert table.status is TableStatus.PLAYING and table.created_at == 1000.0
    assert table.options == {"game_end": "rounds:1"} and table.buy_in == 100
    assert (table.turn_timeout, table.ai_pause) == (45.0, 1.5)
    assert table.seats == [
        Seat("ann", 11, stake=100, timeouts=1),
        Seat("Bob (Normal AI)", None, stake=100, ai_level="hard"),
    ]
    assert (table.deadline, table.deadline_kind, table.deadline_seat) == (1234.5, DeadlineKind.TURN, 0)
    assert (table.lobby_message_id, table.mat_message_id, table.mat_round, table.ping_message_id) == (901, 902, 1, 904)
    assert (table.thread, table.thread_id, table.rematch_of, table.auto_forced) == (True, 903, None, False)
    assert table.log == ["ann joined."] and table.round_logs == {"1": ["ann joined."]}
    assert table.named == {"11": "ann"} and table.version == 3
    assert table.game is not None and table.game.awaiting() is not None and table.game.awaiting().seat == 0
    assert table.game.ask_holders == frozenset({0})  # the humans asked (set as it loads)
    assert table.saved == BEFORE_FORMATS["state_json"]


def test_saved_again_it_carries_the_format_and_reads_back_the_same() -> None:
    table = Table.from_row(BEFORE_FORMATS)
    state = table.to_state()
    assert state["format"] == TABLE_FORMAT == 1
    old = json.loads(BEFORE_FORMATS["state_json"])
    added_since = {"format", "locale"}  # a field added with its default needs no new format
    seats = [{k: v for k, v in seat.items() if k != "funded_by"} for seat in state["seats"]]  # added since
    assert {k: v for k, v in state.items() if k not in added_since} | {"seats": seats} == old  # nothing else changed
    assert state["locale"] == "en" and all(seat["funded_by"] is None for seat in state["seats"])
    again = Table.from_row({**BEFORE_FORMATS, "state_json": json.dumps(state)})
    assert again.to_state() == state


def test_the_shape_is_declared_once() -> None:
    """What to_state writes is SavedTable's fields, and each of those (bar the format and the game's
    text) is a field of Table by the same name."""
    table = Table.from_row(BEFORE_FORMATS)
    assert set(table.to_state()) == set(SavedTable.model_fields)
    assert set(SAVED_FIELDS) <= {f.name for f in fields(Table)}
    assert set(SavedTable.model_fields) - set(SAVED_FIELDS) == {"format", "game"}


def test_a_lobby_saved_with_nulls_and_missing_fields_takes_the_defaults() -> None:
    state = {"buy_in": 50, "seats": None, "log": None, "named": None, "deadline_kind": ""}
    saved = read_state(json.dumps(state))
    assert saved.format == 0 and saved.seats == [] and saved.log == [] and saved.named == {}
    assert saved.deadline_kind is None and saved.turn_timeout == 60 and saved.auto_forced is True


@pytest.mark.parametrize("found", [TABLE_FORMAT + 1, "2", None])
def test_a_newer_or_unreadable_format_is_refused(found: object) -> None:
    state = {**json.loads(BEFORE_FORMATS["state_json"]), "format": found}
    with pytest.raises(SavedTableTooNew) as refused:
        Table.from_row({**BEFORE_FORMATS, "state_json": json.dumps(state)})
    assert refused.value.found == found
    assert str(refused.value) == f"format={found} known={TABLE_FORMAT}"


async def test_a_table_of_a_newer_format_is_quarantined_at_start_up(make_manager, clock, db) -> None:
    first = make_manager()
    newer = await open_game(first, clock, 611, 11)
    healthy = await open_game(first, clock, 612, 22)
    await first.store.flush()
    await db.execute_alone(
        "UPDATE tables SET state_json = ? WHERE id = ?",
        (json.dumps({**newer.to_state(), "format": TABLE_FORMAT + 1}), newer.id),
    )
    assert [t.id for t in await make_manager().timers.resume()] == [healthy.id]
    row = await db.fetchone("SELECT status, chips, quarantine_reason FROM tables WHERE id = ?", (newer.id,))
    assert tuple(row) == ("quarantined", 0, f"SavedTableTooNew: format={TABLE_FORMAT + 1} known={TABLE_FORMAT}")
