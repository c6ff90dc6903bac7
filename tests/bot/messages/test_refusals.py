"""Typed refusals: the table manager says what it refuses and the facts (never Discord words);
bot.messages.refusals words every kind, escaping what players typed."""

from __future__ import annotations

import ast
import inspect
import pathlib

import pytest

from bot import errors
from bot.i18n import reading
from bot.messages.refusals import WORDS, say, words
from bot.messages.text import escape
from tests.bot.tables.test_manager import ANN, BOB, C, drive_to_human, lobby

# A seat's own view after its choice in a step every seat decides at once.
CHOSEN_VIEW = {
    "phase": "poker-choose",
    "acting": [1],
    "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
    "sealed": {"do": "choose", "cards": ["AH", "KH", "QH", "JH", "TH"]},
}


def test_every_refusal_has_words():
    assert set(WORDS) == set(errors.Refusal)
    for refusal, wording in WORDS.items():
        facts = {name: "x" for name in inspect.signature(wording).parameters}
        given = (
            ("legal", ["check"]),
            ("view", CHOSEN_VIEW if refusal is errors.Refusal.CHOSEN_ALREADY else None),
            ("opening", True),
            ("why", errors.NotEnoughChips(errors.Refusal.NOT_ENOUGH_CHIPS, amount=320, have=10)),
            ("buy_in", 320),
            ("kind", "daily"),
            ("wait", 90.0),
            ("amount", 500),
            ("ago", 30.0),
            ("permissions", ["Send Messages"]),
            ("threads", False),
            ("tool", errors.AdminTool.GRANT),
            ("seats", 8),
            ("players", 3),
            ("have", 10),
        )
        facts.update({k: v for k, v in given if k in facts})
        english = words(refusal, facts)
        assert english.strip()
        for language in ("fr", "de"):  # each translation takes the same facts
            with reading(language):
                assert words(refusal, facts).strip() != english or refusal is errors.Refusal.NOT_NOW, refusal


async def test_the_manager_refuses_with_a_kind_and_facts(manager, clock):
    table = await lobby(manager, ai=0)
    with pytest.raises(errors.NotAllowed) as refused:
        await manager.lobby.start(C, BOB)
    assert refused.value.refusal is errors.Refusal.HOST_ONLY_START and refused.value.facts == {}
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table, in_turn=True)
    other = table.seats[1 - seat].user_id
    with pytest.raises(errors.NotYourTurn) as refused:
        await manager.play.act(manager.registry.get(C), other, {"do": "check"})
    # The fact is the name as typed; the words escape it (no formatting from a player's name).
    assert refused.value.refusal is errors.Refusal.NOT_YOUR_TURN
    assert refused.value.facts == {"name": table.seats[seat].name}
    assert say(refused.value) == f"It's not your turn: waiting for **{escape(table.seats[seat].name)}**."


def test_words_given_as_text_are_shown_as_they_are():
    refused = errors.NotAllowed("You need **Manage Server**.")
    assert refused.refusal is None and say(refused) == str(refused) == "You need **Manage Server**."


def test_a_refusal_is_worded_where_it_is_shown_and_its_facts_stay_out_of_the_log():
    """bot.errors words nothing (it imports nothing of the messages); str() of a refusal, as the log
    shows it, names the refusal but not its facts (they may name a player's cards)."""
    source = ast.parse(pathlib.Path(errors.__file__).read_text())
    imported = [n.module or "" for n in ast.walk(source) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(source) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("bot.")]
    refused = errors.TripoleyError(errors.Refusal.ILLEGAL, reason="you hold the 7♥", view=None)
    assert str(refused) == "ILLEGAL" and "7♥" in say(refused)


def test_names_in_refusals_are_escaped():
    said = words(errors.Refusal.NOT_YOUR_TURN, {"name": "**bob**"})
    assert escape("**bob**") != "**bob**" and said == f"It's not your turn: waiting for **{escape('**bob**')}**."
