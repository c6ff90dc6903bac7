"""Wanagan told: every reveal (who declared which space, the five cards, who won it or why not) in
the table message, the log, the round's results and the kept game log; and the declare menu that
chooses no space for the player and says which spaces the hand can make."""

from __future__ import annotations

from bot.messages import story
from bot.messages.components import WANAGAN_MAKES, WANAGAN_MISSES, SelectSpec
from bot.messages.outgoing import hand_message, table_message
from bot.messages.reveals import reveal_lines, told_reveals, verdict
from bot.messages.tablelines import log_lines
from bot.messages.text import escaped_view
from engine import Game
from engine import cards as CARDS
from engine import events as ev
from tests.bot.tables.test_manager import ANN, BOB, C, G


def shown(seat_cards: list[str], space: str, qualifies: bool, hand: str) -> dict:
    return {"cards": seat_cards, "space": space, "qualifies": qualifies, "hand": hand}


def reveal_events() -> list[ev.Event]:
    """Ann and Bob both claim Full House (Bob's kings beat Ann's tens), Cat's flush misses, and
    Dan shares Any Flush with nobody: he wins it."""
    hands = {
        "0": shown(["TH", "TD", "TC", "KD", "KC"], "full-house", True, "full house"),
        "1": shown(["KS", "KH", "KD", "4H", "4C"], "full-house", True, "full house"),
        "2": shown(["QC", "8C", "7C", "4D", "2C"], "flush", False, "high card"),
        "3": shown(["QD", "8D", "7D", "4D", "2D"], "flush", True, "flush"),
    }
    return [
        ev.Reveal(round=1, hands=hands),
        ev.Payout(space="full-house", seat=1, amount=8, reason="wanagan"),
        ev.Payout(space="flush", seat=3, amount=8, reason="wanagan"),
        ev.Chosen(seat=0, round=2),
    ]


def four_view() -> dict:
    return escaped_view(Game.new("wanagan", ["Ann", "Bob", "Cat", "Dan*"], seed=1).view(None))


def test_each_declaration_says_who_won_the_space_and_why_the_others_did_not():
    view = four_view()
    (told,) = told_reveals(reveal_events())
    assert told.winners == {"full-house": [1], "flush": [3]}, "the payouts right after the reveal"
    assert [verdict(told, s, view) for s in range(4)] == [
        "beaten by Bob",
        "wins",
        "does not qualify (high card)",
        "wins",
    ]
    lines = reveal_lines(told, view)
    assert lines[0] == "Reveal 1: Ann declares Full House: 10♥ 10♦ 10♣ K♦ K♣ — beaten by Bob"
    assert lines[3].startswith("Reveal 1: Dan\\* declares Any Flush: Q♦ 8♦ 7♦ 4♦ 2♦"), "names escaped"


def test_equal_claims_share_and_a_tie_too_small_to_split_pays_nobody():
    view = four_view()
    both = {
        "0": shown(["AH", "AD", "5C", "6C", "7D"], "one-pair", True, "one pair"),
        "1": shown(["AS", "AC", "5D", "6D", "7H"], "one-pair", True, "one pair"),
    }
    shares = [ev.Payout(space="one-pair", seat=s, amount=4, reason="wanagan") for s in (0, 1)]
    (told,) = told_reveals([ev.Reveal(round=4, hands=both), *shares])
    assert verdict(told, 0, view) == "shares it with Bob" and verdict(told, 1, view) == "shares it with Ann"
    (unpaid,) = told_reveals([ev.Reveal(round=4, hands=both), ev.WanaganEnd(rounds=4)])
    assert verdict(unpaid, 0, view) == "ties: too few chips to split, they stay"
    assert reveal_lines(told, view)[0].startswith("Reveal 4 (K♥ 10♦ 7♠ 4♣ wild): Ann declares One Pair")


def test_the_log_tells_a_reveal_line_by_line_then_its_payouts():
    lines = log_lines(reveal_events(), four_view())
    assert [line.split(" declares")[0] for line in lines[:4]] == [
        f"Reveal 1: {n}" for n in ("Ann", "Bob", "Cat", "Dan\\*")
    ]
    assert lines[4:6] == [
        "Bob collects 8 from Full House (best qualifying hand)",
        "Dan\\* collects 8 from Any Flush (best qualifying hand)",
    ]


def test_the_results_tell_the_reveal_with_the_showdown():
    lines = story.result_lines(reveal_events(), four_view())
    assert lines[0] == "**Reveal 1**"
    assert lines[1] == "Ann declares Full House: 10♥ 10♦ 10♣ K♦ K♣ — beaten by Bob"
    assert "Bob collects 8 from Full House (best qualifying hand)" in lines


async def wanagan_table(manager):
    await manager.lobby.create_table(G, C, ANN, f"user{ANN}", "wanagan", {"game_end": "rounds:1"}, buy_in=400)
    await manager.lobby.join(C, BOB, f"user{BOB}")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    return manager.registry.get(C)


async def test_a_wanagan_round_shows_its_reveals_everywhere_and_the_menu_chooses_no_space(manager, clock):
    table = await wanagan_table(manager)
    menus = boards = 0
    seen_reveal = False
    for _ in range(3000):
        if table.status != "playing":
            break
        aw = table.awaiting()
        if aw is not None and aw.phase == "wanagan-reveal" and not table.seats[aw.seat].is_ai:
            view = table.game.view(aw.seat)
            out = hand_message(table, aw.seat, view)
            (space,) = [c for c in out.components if c.custom_id.endswith(":pick.space")]
            assert isinstance(space, SelectSpec) and space.defaults == (), "no space is preselected"
            assert not any(":pick.reveal" in c.custom_id for c in out.components), "cards once a space is chosen"
            hand = CARDS.parse_many(view["hand"])
            wild = CARDS.parse_many(view["detail"]["wild"])
            makes = [sp for _, sp in space.options if table.game.wanagan_qualifies(hand, sp, wild)]
            assert space.descriptions == tuple(
                WANAGAN_MAKES if sp in makes else WANAGAN_MISSES for _, sp in space.options
            )
            assert ("Your hand can make: " if makes else "Your hand makes none") in out.text
            chosen = hand_message(table, aw.seat, view, space.options[-1][1])
            (picked,) = [c for c in chosen.components if ":pick.reveal." in c.custom_id]
            assert picked.custom_id.endswith(space.options[-1][1]) and chosen.components[0].defaults == (
                space.options[-1][1],
            )
            menus += 1
        if any(line.startswith("Reveal ") for line in table.log):
            seen_reveal = True
            if table.status == "playing" and "**Reveal " in table_message(table).text:
                boards += 1
        clock.t = table.deadline
        await manager.timers.tick()
    assert table.status == "finished" and menus >= 2 and seen_reveal and boards >= 1
    _, rounds = await manager.store.game_log(G, table.id)
    kept = rounds["1"]
    declared = [line for line in kept if line.startswith("Reveal 1: ") and " declares " in line]
    assert len(declared) == 3, kept
    assert all(
        line.rsplit(" — ", 1)[1].startswith(("wins", "beaten by", "does not", "shares", "ties")) for line in declared
    )
    embeds = story.stories(table, table.game.history, finished=True)
    assert "**Reveal 1**" in embeds[0]["description"], embeds
