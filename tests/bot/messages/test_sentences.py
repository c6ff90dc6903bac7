"""Whole sentences: every line a table tells has words, names are escaped in them, and each case
of a count or a choice is a sentence of its own (the languages issue puts them in catalogs)."""

from __future__ import annotations

import inspect
import string
from types import SimpleNamespace

from bot.messages import answers, notices, tablelines, text
from bot.messages.tablelines import LINES, TABLE_LINES
from bot.tables.telling import Line, Note

# Facts of the right kind for each name a line's wording takes.
FACTS = {
    "name": "Ann_*",
    "level": "hard",
    "admin": "Bob",
    "chips": 40,
    "count": 3,
    "votes": 1,
    "needed": 2,
    "game": "Tripoley",
    "players": 4,
    "rule": "bet_limit",
    "value": 10,
    "line": "Ann\\_\\* checks",
    "why": "channel-deleted",
}


def placeholders(sentence: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(sentence) if field}


def test_every_line_a_table_tells_has_words_and_escapes_the_names_in_it():
    assert set(LINES) == set(Line)
    for line, wording in LINES.items():
        facts = {name: FACTS[name] for name in inspect.signature(wording).parameters}
        said = TABLE_LINES.say(line, **facts)
        assert said.strip() and "{" not in said, line
        assert "Ann_*" not in said, line  # a name as typed is Discord text only escaped


def test_a_count_of_one_has_its_own_sentence():
    assert TABLE_LINES.say(Line.TIMED_OUT_TO_AI, name="Ann", count=1) == (
        "Ann timed out: an AI plays until they press **I'm back**."
    )
    assert TABLE_LINES.say(Line.TIMED_OUT_TO_AI, name="Ann", count=3) == (
        "Ann timed out 3 times in a row: an AI plays until they press **I'm back**."
    )
    assert answers.reset_done(1, 100, 1000) == "Done: 1 wallet is back to 100 chips (the house to 1000)."
    assert answers.forgotten_everywhere(2, 50).startswith("Done: you are forgotten in 2 servers (50 chips")


def test_a_server_managers_stop_names_them_or_says_who_they_are():
    assert (
        TABLE_LINES.say(Line.MANAGER_STOPPED, name="Cy")
        == "Cy (Manage Server) stopped the game; everyone is cashed out."
    )
    assert TABLE_LINES.say(Line.MANAGER_CLOSED, name="") == (
        "A server manager (Manage Server) closed the table; buy-ins are refunded."
    )


def test_each_case_of_a_sentence_takes_the_same_facts():
    """A sentence chosen by a case (a reason, a count, a phase) takes the same placeholders in
    every case, so each is a whole sentence for the same facts."""
    cases = [
        notices.LOBBY_PLACE_LOST,
        notices.GAME_PLACE_LOST,
        notices.LOBBY_PLACE_LOST_NOTICE,
        notices.GAME_PLACE_LOST_NOTICE,
        notices.PINGS,
        text.WAITING_TOGETHER,
        text.WAITING_ON_MAT,
        text.WAITING_ON_MAT_UNTIL,
        text.STILL_WAITING,
        tablelines.ACTION_NOTES,
    ]
    for sentences in cases:
        shapes = {frozenset(placeholders(sentence) - {"link", "time"}) for sentence in sentences.values()}
        assert len(shapes) == 1, sentences
    assert set(notices.LOBBY_PLACE_LOST) == set(notices.GAME_PLACE_LOST) == set(notices.PLACE_LOST)
    assert set(text.WAITING_TOGETHER) == set(text.WAITING_ON_MAT) == set(text.STILL_WAITING)


def test_every_turn_ping_carries_the_mark_a_restart_finds_it_by():
    assert all(notices.PING_MARK in sentence for sentence in notices.PINGS.values())
    ping = notices.ping_text(
        SimpleNamespace(locale="en"), [1, 2], "poker-choose", 1_800_000_000.0, "https://x", hand_view_updated=False
    )
    assert ping.startswith("<@1> <@2>" + notices.PING_MARK) and "<t:1800000000:R>" in ping


def test_a_decision_is_told_with_how_it_came_to_be_made():
    from engine import Action

    names = ["Ann", "Bob"]
    plain = TABLE_LINES.action(names, Action(seat=0, do="check"), [], None)
    assert TABLE_LINES.action(names, Action(seat=0, do="check"), [], None, Note.TIMED_OUT) == plain + " (timed out)"
