"""Great Lakes told as it is played: the worst hand named where the worst hand wins (not "best
hand"), and a card that is its holder's only choice played for them after a short pause (the
table's ``auto_forced``, on by default), still told in the log."""

from __future__ import annotations

import pytest

from bot.messages.outgoing import table_message
from bot.messages.tablelines import ACTION_NOTES
from bot.messages.tabletext import final_text
from bot.tables.flow import FORCED_PAUSE
from bot.tables.model import DeadlineKind
from bot.tables.results import hand_rank
from bot.tables.telling import Note
from tests.bot.tables.test_manager import ANN, BOB, C, G

FORCED_NOTE = ACTION_NOTES[Note.FORCED].format(action="")  # what follows a forced card's log line


async def great_lakes(manager, clock, auto_forced=True):
    """A game of Ann, Bob and an AI played to its end by the timers (the humans time out); every
    deadline met on the way, with the decision it was set for."""
    await manager.lobby.create_table(
        G, C, ANN, f"user{ANN}", "great-lakes", {"game_end": "rounds:1"}, buy_in=400, auto_forced=auto_forced
    )
    await manager.lobby.join(C, BOB, f"user{BOB}")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    seen = []
    for _ in range(5000):
        if table.status != "playing":
            break
        aw = table.awaiting()
        seen.append(
            (table.deadline_kind, table.deadline - clock.t if table.deadline else None, aw, table_message(table).text)
        )
        clock.t = table.deadline
        await manager.timers.tick()
    assert table.status == "finished"
    return table, seen


async def test_the_worst_hand_is_named_where_the_worst_hand_wins(manager, clock):
    table, _ = await great_lakes(manager, clock)
    result = table.result
    assert "best_hand" not in result["highlights"]
    worst = result["highlights"]["worst_hand"]
    shown = [s["worst_hand"] for s in result["seats"] if s["worst_hand"]]
    assert worst is not None and worst["hand"] == min(shown, key=hand_rank)
    text = final_text(table)
    assert "Best hand" not in text and "best hand" not in text
    assert f"Worst hand (the worst hand wins here): {worst['name']}'s **{worst['hand']}**" in text
    assert all(f"worst hand {s['worst_hand']}" in text for s in result["seats"] if s["worst_hand"])


async def test_a_forced_card_is_played_for_its_holder_after_a_short_pause(manager, clock):
    table, seen = await great_lakes(manager, clock)
    forced = [(delay, aw, text) for kind, delay, aw, text in seen if kind == DeadlineKind.FORCED]
    assert forced, "a human held a next card with no combination to place"
    for delay, aw, text in forced:
        assert delay == pytest.approx(FORCED_PAUSE) and aw.detail.get("forced") and aw.legal == ["play"]
        assert not table.seats[aw.seat].is_ai
        assert "time runs out" not in text.rsplit("\n", 1)[-1], "no turn timer for a card played in a moment"
    lines = [line for n in table.round_logs for line in table.round_logs[n] if line.endswith(FORCED_NOTE)]
    assert len(lines) == len(forced) and all(" plays " in line for line in lines), lines
    assert not any(line.endswith(ACTION_NOTES[Note.TIMED_OUT].format(action="")) for line in lines)


async def test_off_every_forced_card_waits_for_its_holder(manager, clock):
    table, seen = await great_lakes(manager, clock, auto_forced=False)
    assert not [kind for kind, *_ in seen if kind == DeadlineKind.FORCED]
    assert any(kind == DeadlineKind.TURN and aw is not None and aw.detail.get("forced") for kind, _, aw, _ in seen)
    assert not any(line.endswith(FORCED_NOTE) for n in table.round_logs for line in table.round_logs[n])
