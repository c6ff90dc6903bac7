"""The table's log lines read typed engine events: the engine's sentence, unframed, capitalised."""

from __future__ import annotations

import logging

import pytest

from bot.messages.tablelines import describe_event
from bot.tables.log import worth_a_line
from engine import Game
from engine import events as ev
from engine.events import EndReason


@pytest.fixture
def view():
    return Game.new("tripoley", ["Ann", "Bob", "Cat"], seed=1).view(None)


@pytest.mark.parametrize("reason", [r for r in EndReason if r is not EndReason.HOST_STOP])
def test_a_game_end_is_told_without_the_terminal_frame(view, reason):
    assert describe_event(ev.GameEnd(reason=reason), view) == f"Game over ({reason.value})"


def test_the_host_stop_is_left_to_the_table_line_that_says_who_stopped(view):
    assert not worth_a_line(ev.GameEnd(reason=EndReason.HOST_STOP))
    assert describe_event({"type": "game-end", "reason": "stopped by the host"}, view) is None


def test_a_record_and_its_dict_make_the_same_line(view):
    end = ev.RoundEnd(round=3, stacks=[1, 2, 3])
    assert describe_event(end, view) == describe_event(end.to_dict(), view) == "Round 3 over"
    named = ev.PaySuit(seat=1, suit="S")
    assert describe_event(named, view) == "Bob names spades as the pay suit"
    assert describe_event(ev.PaySuit(suit="", reason="nobody bid"), view) is None
    assert describe_event(ev.ToSpace(seat=0, space="pot", amount=2, reason="raise"), view) is None


def test_a_damaged_event_is_no_line_and_a_warning(view, caplog):
    with caplog.at_level(logging.WARNING, logger="bot.tables.log"):
        assert describe_event({"type": "payout", "seat": 1}, view) is None
    assert "bad payout event" in caplog.text
