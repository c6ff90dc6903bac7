"""The game's events and decisions in a table's log and its last moves, in the table's language; the
answer to the player who acted ("Done: you keep the hand as dealt") in theirs."""

from __future__ import annotations

import random

from bot.i18n import reading
from bot.messages.tablelines import TABLE_LINES, describe_event, log_lines
from bot.messages.text import escaped_view
from bot.tables.telling import Line
from engine import Action, Game
from engine import events as ev
from engine.ai import autoplay
from tests.bot.tables.test_manager import ANN, BOB, C, drive_to_human, lobby


def played(preset: str) -> Game:
    game = Game.new(preset, ["Ann", "Bob", "Cat"], options={"game_end": "rounds:1"}, seed=3)
    for _ in autoplay(game, rng=random.Random(3)):
        pass
    return game


def test_a_french_tables_log_lines_are_french():
    for preset in ("tripoley", "rummy-royal", "great-lakes", "wanagan"):
        game = played(preset)
        view = escaped_view(game.view(None))
        english = log_lines(game.history, view)
        with reading("fr"):
            french = log_lines(game.history, view)
        assert english and len(french) == len(english)
        for source, line in zip(english, french, strict=True):
            assert line != source and "{" not in line, (source, line)
    view = escaped_view(played("tripoley").view(None))
    with reading("fr"):
        assert describe_event(ev.RoundEnd(round=1, stacks=[]), view) == "Manche 1 terminée"
        assert describe_event(ev.Out(seat=1), view) == "Bob a fini ses cartes"
    with reading("de"):
        assert describe_event(ev.Payout(space="kitty", seat=0, amount=7, reason="went out"), view) == (
            "Ann kassiert 7 von Kasse, weil alle Karten weg sind"
        )


def test_a_decision_in_the_log_and_said_back_to_its_player():
    names = ["Ann", "Bob"]
    keep = Action(seat=0, do="keep")
    with reading("fr"):
        assert TABLE_LINES.action(names, keep, [], None) == "Ann garde la main telle qu'elle a été donnée"
        own = TABLE_LINES.action(names, keep, [], None, you=True)
        assert TABLE_LINES.say(Line.DONE, line=own) == "C'est fait : vous gardez la main telle qu'elle a été donnée"
    with reading("de"):
        own = TABLE_LINES.action(names, Action(seat=1, do="raise", amount=4), [], None, you=True)
        assert TABLE_LINES.say(Line.DONE, line=own) == "Erledigt: du erhöhst um 4"
    own = TABLE_LINES.action(names, Action(seat=1, do="raise", amount=4), [], None, you=True)
    assert TABLE_LINES.say(Line.DONE, line=own) == "Done: you raise by 4"


async def test_a_move_on_a_french_table_is_logged_in_french_and_answered_in_the_readers_language(manager, clock, bank):
    table = await lobby(manager, ai=1, humans=(ANN, BOB))
    table.locale = "fr"
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    assert seat is not None
    action = manager.flow.ai_action(table, seat).to_dict()
    action.pop("seat")
    logged = len(table.log)
    with reading("de"):  # a German reader's click
        update = await manager.play.act(manager.registry.get(C), table.seats[seat].user_id, action, table.round)
    assert update.message.startswith("Erledigt: du "), update.message
    new = table.log[logged:]
    assert new and all("{" not in line for line in new)
    english = (" picks ", " keeps ", " checks", " bets ", " folds", " calls", " raises ", " leads ", " places ")
    assert not [line for line in new if any(word in line for word in english)], new
    with reading("de"):
        own = TABLE_LINES.action([s.name for s in table.seats], Action(seat=seat, do="fold"), [], None, you=True)
    assert own == "du steigst aus"
