"""Typed refusals: the table manager says what it refuses and the facts (never Discord words);
bot.messages.refusals words every kind, escaping what players typed."""

from __future__ import annotations

import ast
import inspect
import pathlib
import re

import pytest

from bot import errors
from bot.i18n import reading
from bot.messages.refusals import WORDS, say, words
from bot.messages.text import escape
from tests.bot.tables.test_manager import ANN, BOB, C, G, drive_to_human, lobby

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


async def test_a_french_readers_refusal_of_an_illegal_move_is_all_french(manager, clock):
    """The engine's reason for a refused move (bot/tables/play.py hands the refusal the engine's error)
    is worded in the reader's language, its cards in their names; in English as it always was."""
    from engine.cardnames import card_names
    from engine.cards import to_strs

    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    game = table.running_game
    aw = game.awaiting(seat)
    assert aw is not None and aw.phase == "poker-choose"
    hand = aw.detail.get("cards") or game.view(seat)["hand"]
    absent = next(code for code in to_strs(range(52)) if code not in hand)
    with pytest.raises(errors.TripoleyError) as refused:
        await manager.play.act(
            manager.registry.get(C), table.seats[seat].user_id, {"do": "choose", "cards": [absent, *hand[:4]]}
        )
    assert refused.value.refusal is errors.Refusal.ILLEGAL
    assert say(refused.value) == f"Not allowed: {card_names('en').pretty_text(absent)} is not in your hand"
    with reading("fr"):
        french = say(refused.value)
    assert french == f"Pas permis : {card_names('fr').pretty_text(absent)} n'est pas dans votre main"
    with reading("de"):
        assert say(refused.value) == f"Nicht erlaubt: {card_names('de').pretty_text(absent)} ist nicht in deiner Hand"
    with reading("qps"):
        pseudo = say(refused.value)
    assert not re.search(r"[A-Za-z]{2,}", pseudo), pseudo  # every word looked up (the card's rank stays a letter)


async def test_options_that_dont_work_are_refused_in_the_readers_language(manager):
    with pytest.raises(errors.TripoleyError) as refused:
        await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"bet_limit": 0}, buy_in=100)
    assert refused.value.refusal is errors.Refusal.BAD_OPTIONS
    assert say(refused.value) == "Those options don't work: option bet limit must be at least 1"
    with reading("fr"):
        assert say(refused.value) == "Ces options ne vont pas : l'option bet_limit doit valoir au moins 1"
    with reading("de"):
        assert say(refused.value) == "Diese Optionen passen nicht: die Option bet_limit muss mindestens 1 sein"
