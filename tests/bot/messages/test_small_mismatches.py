"""The table's words agree with what it shows: the hand's suits in the picture's order, a round over
names its own dealer, no "in pot" once the pot is paid, a pay suit only on mats with one, the space
rules without a spare hand where none is used, a replay file of its own per game, plurals, and an
unaffordable buy-in that says how to play anyway."""

from __future__ import annotations

import json

from bot.errors import NotEnoughChips, Refusal
from bot.messages.outgoing import table_message
from bot.messages.refusals import words
from bot.messages.rules import space_rules
from bot.messages.tabletext import has_pay_suit, mat_text
from bot.messages.text import counted, hand_by_suit, replay_file_name
from bot.tables.model import DeadlineKind
from engine import Game
from engine.presets import PRESETS
from images.base import card_sort_key
from tests.bot.tables.test_manager import ANN, C, lobby


def test_the_hand_text_lists_suits_in_the_order_of_the_picture():
    hand = ["AS", "2C", "KH", "9D", "3S", "TC"]
    lines = hand_by_suit(hand).splitlines()
    pictured = sorted(hand, key=card_sort_key)
    suits_drawn = list(dict.fromkeys(c[-1] for c in pictured))
    assert [line[0] for line in lines] == [{"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[s] for s in suits_drawn]
    assert lines[0] == "♣ 2 10"


def test_counts():
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert counted(1, "chip") == "1 chip" and counted(-1, "chip") == "-1 chip"


def test_a_pay_suit_is_named_only_on_mats_with_one():
    shown = {key: has_pay_suit(Game.new(key, ["a", "b", "c"], seed=1).view(None)) for key in PRESETS}
    assert shown["tripoley"] and shown["three-in-one"] and shown["tripoley-optional-suit"]
    assert not shown["rummoli"] and not shown["michigan-rummy"], "money cards of several suits"
    assert not shown["great-lakes"], "three named cards of three suits"
    assert not shown["wanagan"], "a mat of poker hands"


def test_the_space_rules_name_the_spare_hand_only_where_it_is_used():
    game = Game.new("tripoley", ["a", "b", "c"], seed=1, options={"spare_hand": "none"})
    texts = [text for _, _, text in space_rules(game)]
    assert texts and not any("spare hand" in text for text in texts)
    used = Game.new("tripoley", ["a", "b", "c"], seed=1, options={"spare_hand": "swap-or-auction"})
    assert any("once the spare hand is settled" in text for _, _, text in space_rules(used))


def test_each_game_has_a_replay_file_of_its_own():
    replay = json.dumps({"preset": "great-lakes", "rounds": []})
    names = {
        replay_file_name(replay, 7, 1_800_000_000.0),
        replay_file_name(replay, 8, 1_800_000_000.0),
        replay_file_name(json.dumps({"preset": "wanagan"}), 7, 1_800_000_000.0),
    }
    assert len(names) == 3 and "great-lakes-game-7-2027-01-15.json" in names
    assert replay_file_name("not json", 3, None) == "tripoley-game-3.json"


def test_an_unaffordable_buy_in_names_buy_in_and_the_cheaper_games():
    why = NotEnoughChips("You need 320 chips but your wallet holds 250.")
    joining = words(Refusal.BUY_IN_UNAFFORDABLE, {"buy_in": 320, "why": why, "opening": False})
    assert "`buy_in:`" in joining and "Tripoley (Cadaco)" in joining and "(100 chips)" in joining
    assert "Tripoley Rulebook" not in joining, "only games cheaper than this one"
    opening = words(Refusal.BUY_IN_UNAFFORDABLE, {"buy_in": 320, "why": why, "opening": True})
    assert "Try a smaller `buy_in:`" in opening


async def test_between_rounds_the_round_names_its_own_dealer_and_no_pot_is_left(manager, clock):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:2"})
    await manager.lobby.start(C, ANN)
    for _ in range(3000):
        if table.deadline_kind == DeadlineKind.NEXT_DEAL:
            break
        clock.t = table.deadline
        await manager.timers.tick()
    assert table.deadline_kind == DeadlineKind.NEXT_DEAL, "the pause after round 1"
    dealt = table.game.log[-1]["dealer"]
    assert table.game.dealer != dealt, "the engine names the next round's dealer already"
    text = table_message(table).text
    marked = [line for line in text.splitlines() if "dealer" in line and "**" in line]
    assert len(marked) == 1 and f"**{table.seats[dealt].name}**" in marked[0]
    shown = table_message(table).view
    assert shown["seats"][dealt]["is_dealer"] and shown["dealer"] == dealt, "and so does its picture"
    assert [s["seat"] for s in shown["seats"] if s["is_dealer"]] == [dealt]
    assert "in pot" not in text, "the pot is paid"
    view = table.game.view(None)
    poker = {**view, "phase": "poker-betting", "seats": [{**s, "committed": 3} for s in view["seats"]]}
    assert "in pot 3" in mat_text(table, poker)
