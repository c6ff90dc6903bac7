"""What players read: names escaped, decisions as sentences, and the odds and ends of issue 10 (a
stop says who stopped, no empty-hand DMs, no "Next round" once the rounds are over, a round message
posted just before a restart is reused rather than doubled)."""

from __future__ import annotations

import random

import pytest

from bot import errors
from bot.discordio.publisher import Publisher
from bot.messages import tabletext, text
from bot.messages.tablelines import TABLE_LINES
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager
from tests.cogs.fakes import RecordingSink

G, C = 5, 950
ANN, BOB, MOD = 51, 52, 53


@pytest.mark.parametrize(
    "name, shown",
    [
        ("<@123456789012345678>", "\\<\\@123456789012345678\\>"),
        ("<@&42> @everyone @here", "\\<\\@&42\\> \\@everyone \\@here"),
        ("[x](https://evil.example)", "\\[x\\](https\\://evil\\.example)"),
        ("**b** __u__ ~~s~~ ||sp|| `c`", "\\*\\*b\\*\\* \\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|sp\\|\\| \\`c\\`"),
        ("# h", "\\# h"),
        ("- 1. > q", "\\- 1\\. \\> q"),
        ("a\nb\tc", "a b c"),
        ("Ada (AI)", "Ada (AI)"),
        ("🃏 Ann", "🃏 Ann"),
    ],
)
def test_escape_shows_user_text_as_typed(name, shown):
    assert text.escape(name) == shown


def test_escape_isolates_right_to_left_names_and_drops_overrides():
    assert text.escape("abc\u202edef") == "abcdef"
    assert text.escape("שלום") == "\u2068שלום\u2069"  # the words after it keep their order


@pytest.fixture
async def setup(db, bank, prefs, settings):
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0)
    return manager, sink, publisher, clock


async def playing(manager, rounds=2, preset="tripoley"):
    await manager.lobby.create_table(G, C, ANN, "**ann**", preset, {"game_end": f"rounds:{rounds}"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    return manager.registry.get(C)


async def test_a_stop_by_a_manage_server_member_says_who(setup):
    manager, sink, publisher, clock = setup
    table = await playing(manager)
    with pytest.raises(errors.NotAllowed, match="STOP_NOT_ALLOWED"):
        await manager.play.stop(C, BOB, can_manage=False, name="bob")
    update = await manager.play.stop(C, MOD, can_manage=True, name="mod_`x`")
    said = "mod\\_\\`x\\` (Manage Server) stopped the game; everyone is cashed out."
    assert update.message == said and said in table.log
    assert not any("stopped by the host" in line.lower() for line in table.log), table.log


async def test_the_host_stopping_is_told_as_such(setup):
    manager, sink, publisher, clock = setup
    table = await playing(manager)
    update = await manager.play.stop(C, ANN, can_manage=False, name="**ann**")
    assert update.message == "The host stopped the game; everyone is cashed out." and update.message in table.log


async def test_no_hand_dm_for_a_player_sitting_out(setup):
    manager, sink, publisher, clock = setup
    await manager.prefs.set_dm_hands(ANN, True)
    await manager.prefs.set_dm_hands(BOB, True)
    table = await playing(manager, rounds=3)
    await publisher.flush()
    assert sorted(c[1] for c in sink.calls if c[0] == "dm") == [ANN, BOB]
    while table.deadline_kind != "next-deal":  # to the pause before round 2
        clock.t = table.deadline
        await manager.timers.tick()
    game = table.game
    game.stacks[0] += game.stacks[1]  # bob can't pay the ante: he sits round 2 out
    game.stacks[1] = 0
    sink.calls.clear()
    clock.t = table.deadline
    await manager.timers.tick()
    await publisher.flush()
    assert table.round == 2 and not table.game.view(1)["hand"]
    assert [c[1] for c in sink.calls if c[0] == "dm"] == [ANN]


async def test_no_next_round_line_once_the_rounds_are_over(setup):
    manager, sink, publisher, clock = setup
    table = await playing(manager, rounds=1)
    while table.status == "playing" and not table.game.over:
        clock.t = table.deadline
        await manager.timers.tick()
    # The last round is over; the board clearing (the end-of-game showdown) is dealt after the pause.
    assert table.status == "playing" and table.deadline_kind == "next-deal"
    shown = tabletext.mat_text(table, table.game.view(None))
    assert "Next round" not in shown and "Clearing the board" in shown, shown


async def test_a_round_message_posted_before_a_restart_is_reused(setup, db, bank, prefs, settings):
    manager, sink, publisher, clock = setup
    table = await playing(manager)
    table.lobby_message_id = 1
    await publisher.flush()
    posted = table.mat_message_id
    # The restart came after the post, before its id was saved: the table comes back without it.
    resumed = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    await manager.store.flush()
    table.mat_message_id = table.mat_round = None
    await manager.store.save(table)
    [again] = await resumed.timers.resume()
    sink2 = RecordingSink()
    sink2.found[f"tripoley:{again.id}:{again.round}:"] = posted
    publisher2 = Publisher(resumed, sink2, renderer=None, min_interval=0)
    publisher2.resume(again)
    await publisher2.flush()
    assert not [c for c in sink2.calls if c[0] == "post"], sink2.calls  # no second round message
    assert ("find", C, 1, f"tripoley:{again.id}:{again.round}:") in sink2.calls  # looked for after the lobby
    assert [c for c in sink2.calls if c[0] == "edit" and c[2] == posted]
    assert again.mat_message_id == posted and again.mat_round == again.round


def test_engine_refusals_in_players_words():
    from engine import Game

    game = Game.new("rummoli", ["a", "b", "c"], seed=1)
    list(game.next_deal())
    view = game.view(0)
    assert text.in_words("AH is not in your hand", view) == "A♥ is not in your hand"
    assert text.in_words("bet exceeds bet_limit 20", view) == "bet exceeds bet limit 20"
    assert text.in_words("declare one of: AH2, k-q", view) == "declare one of: A♥ (2nd), K-Q♥"


async def test_a_decision_is_logged_as_a_sentence_and_told_back_to_the_player(setup):
    manager, sink, publisher, clock = setup
    table = await playing(manager, preset="three-in-one")  # its round opens with a public spare-hand decision
    aw = table.game.awaiting()
    user = table.seats[aw.seat].user_id
    verb = next(v for v in ("keep", "check", "pass") if v in aw.legal)
    update = await manager.play.act(manager.registry.get(C), user, {"do": verb})
    name = text.escape(table.seats[aw.seat].name)
    words = {"keep": "keeps the hand as dealt", "check": "checks", "pass": "passes"}[verb]
    assert f"{name} {words}" in table.log
    assert update.message == "Done: you " + {"keep": "keep the hand as dealt", "check": "check", "pass": "pass"}[verb]
