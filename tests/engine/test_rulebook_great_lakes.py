"""Great Lakes (Rulebook) by concrete deals: J♥/Q♠/K♦ placed, 6 Lead, A-2, the Full House
and 5-Card Straight plays, the Losers Kitty (worst poker hand), two decks.

Three players, dealer seat 0: the deal goes seat 1, seat 2, seat 0, spare (13 cards each).
Round 1 ante is 1 per space (dealer 2), so every one of the 9 spaces starts with 4 chips;
stacks start at 320 - 9 = 311 (seat 0: 302).
"""

from __future__ import annotations

import itertools

import pytest

from engine import IllegalAction
from tests.engine.deals import act, new_game, payouts, through_poker


def H(text: str) -> list[str]:
    return text.split()


# Deal A: hearts 2..J to seat 1; seat 2 has Q-K-A of hearts, the 2 of spades and Q♠; seat 0 spades 3..J.
DEAL_A = {
    1: H("2H 3H 4H 5H 6H 7H 8H 9H TH JH 2C 3C 4C"),
    2: H("QH KH AH 2S QS 5C 6C 7C 8C 9C TC JC QC"),
    0: H("3S 4S 5S 6S 7S 8S 9S TS JS KD 2D 3D 4D"),
}
# Deal B: seat 1 leads clubs 2-3-4 (or the 6 of spades); seat 2 holds 5C and 6, 7 of other suits and 8D.
DEAL_B = {
    1: H("2C 3C 4C 6S 7S 8S KD 2H 3H 4H 5H 2D 3D"),
    2: H("5C 6H 7H 8D 9C TC JC QC KC AC 6D 7D 9H"),
    0: H("9D JD QD AD 9S TS JS QS KS AS 6C 7C 8C"),
}
SPARE_B = H("4D 5D TD 8H TH JH QH KH AH 2S 3S 4S 5S")


def plays(g, round_index: int = -1) -> list[tuple[int, str]]:
    return [(e["seat"], e["card"]) for e in g.log[round_index]["events"] if e["type"] == "play"]


def finish(g, leads: list[str] = ()) -> None:
    """Keep the spare, lead the given cards (then the first offered), decline combinations, check poker."""
    leads = list(leads)
    while (aw := g.awaiting()) is not None:
        if aw.phase == "spare-hand":
            act(g, aw.seat, "keep")
        elif aw.phase == "michigan-lead":
            card = leads.pop(0) if leads else aw.detail["cards"][0]
            act(g, aw.seat, "lead", card=card)
        elif aw.phase == "michigan-play":
            act(g, aw.seat, "play")
        else:
            through_poker(g)


def test_mat_and_antes():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    assert list(g.mat) == ["JH", "QS", "KD", "6-lead", "a-2", "full-house", "straight", "losers-kitty", "great-lakes"]
    assert all(v == 4 for v in g.mat.values())
    assert g.stacks == [302, 311, 311]


def test_money_cards_a2_going_out_and_a_tied_losers_kitty():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    assert g.awaiting().phase == "michigan-lead", "dealer holds K♦ and every bidder a money card: no spare choice"
    act(g, 1, "lead", card="2H")
    # Seat 2 could make a full house onto the J♥ (J♣ + Q♣ Q♥ Q♠): offered, declined.
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (2, "michigan-play", ["play", "full_house"])
    assert aw.detail["full_house"] == [["JC", "QC", "QH", "QS"]]
    act(g, 2, "play")
    # A♥ stops; seat 2 leads a black suit: the 2♠ right after its Ace pays A-2.
    aw = g.awaiting()
    assert aw.phase == "michigan-lead" and aw.detail["requirement"]["colour"] == "black"
    act(g, 2, "lead", card="2S")
    aw = g.awaiting()  # seat 0 could run a straight 3♠ + 4 5 6: declined
    assert (aw.seat, aw.legal) == (0, ["play", "straight"])
    act(g, 0, "play")
    aw = g.awaiting()
    assert aw.phase == "poker-choose"
    # Michigan: seat 1 went out with 2-3-4♣ (after seat 2 and seat 0 could not lead red/black).
    assert g.log[-1]["michigan"]["out"] == 1
    assert aw.detail["best"] == ["7H", "5H", "4C", "3H", "2H"], "the Losers Kitty offers the WORST five"
    through_poker(g)
    # K♦ stayed in seat 0's hand: its chips, 6 Lead, Full House and Straight went to the Losers Kitty (20).
    # Seats 1 and 0 both hold 7-5-4-3-2 (worst), seat 2's worst is 8-high: the Kitty is split.
    assert payouts(g) == [
        ("JH", 1, 4),
        ("a-2", 2, 4),
        ("QS", 2, 4),
        ("great-lakes", 1, 4),
        ("losers-kitty", 1, 10),
        ("losers-kitty", 0, 10),
    ]
    assert g.stacks == [312, 329, 319]
    assert sum(g.mat.values()) == 0


def test_full_house_play_pays_stops_the_sequence_and_the_player_leads_next():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    act(g, 1, "lead", card="2H")
    with pytest.raises(IllegalAction):
        act(g, 2, "full_house", cards=["QC", "QH", "QS", "KH"])
    act(g, 2, "full_house", cards=["QS", "JC", "QH", "QC"])  # any order
    assert ("full-house", 2, 4) in payouts(g) and ("QS", 2, 4) in payouts(g), "Q♠ inside the full house pays too"
    ev = g.log[-1]["events"]
    stop = next(e for e in ev if e["type"] == "stop")
    assert stop == {"type": "stop", "seat": 2, "card": "JH", "reason": "full house"}, "the sequence stopped at J♥"
    assert plays(g)[-4:] == [(2, "JC"), (2, "QC"), (2, "QH"), (2, "QS")]
    # The hearts sequence stopped: seat 2 leads a black suit (2♠ or 5♣); K♥ A♥ stay in hand.
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (2, "michigan-lead")
    assert aw.detail["cards"] == ["5C", "2S"] and aw.detail["requirement"]["colour"] == "black"
    assert "KH" in set(g.view(2)["hand"])


def test_five_card_straight_play_and_the_next_player_follows_its_last_suit():
    g = new_game("great-lakes", 3, hands=DEAL_B, spare=SPARE_B)
    act(g, 0, "keep")
    act(g, 1, "lead", card="2C")
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (2, "michigan-play", ["play", "straight"])
    assert aw.detail["card"] == "5C"
    assert aw.detail["straight"] == [
        ["5C", "6D", "7D", "8D"],
        ["5C", "6D", "7H", "8D"],
        ["5C", "6H", "7D", "8D"],
        ["5C", "6H", "7H", "8D"],
    ]
    act(g, 2, "straight", cards=["6H", "7H", "8D"])  # the forced 5♣ may be left out
    assert payouts(g) == [("straight", 2, 4)]
    assert plays(g)[-4:] == [(2, "5C"), (2, "6H"), (2, "7H"), (2, "8D")]
    # The next card is the 9 of the straight's last suit (diamonds): seat 0 holds it.
    aw = g.awaiting()
    assert (aw.seat, aw.detail["card"], aw.detail["last_card"]) == (0, "9D", "8D")
    act(g, 0, "play")
    assert plays(g)[-1] == (0, "9D")
    stop = [e for e in g.log[-1]["events"] if e["type"] == "stop"][-1]
    assert (stop["seat"], stop["card"]) == (0, "9D"), "10♦ is in the spare: the diamonds stop at 9♦"


def test_six_lead_pays_the_first_sequence_started_with_a_six():
    g = new_game("great-lakes", 3, hands=DEAL_B, spare=SPARE_B)
    act(g, 0, "keep")
    aw = g.awaiting()
    assert aw.detail["cards"] == ["2C", "2D", "2H", "6S"]  # 2-5♠ are in the spare: 6♠ is seat 1's lowest spade
    act(g, 1, "lead", card="6S")
    assert payouts(g) == [("6-lead", 1, 4)]
    finish(g)
    assert [p for p in payouts(g) if p[0] == "6-lead"] == [("6-lead", 1, 4)], "paid once: the first 6 lead"
    kd = [s for s, c in plays(g) if c == "KD"]
    if kd:
        assert ("KD", kd[0], 4) in payouts(g), "Suicide King pays whoever places it"


def test_suicide_king_pays_when_placed():
    g = new_game("great-lakes", 3, hands=DEAL_B, spare=SPARE_B)
    act(g, 0, "keep")
    act(g, 1, "lead", card="2D")  # 2-3♦ seat 1, 4-5♦ in the spare: stop
    assert plays(g) == [(1, "2D"), (1, "3D")]
    finish(g, leads=["2C"])
    placed = [s for s, c in plays(g) if c == "KD"]
    assert placed == [1]
    assert ("KD", 1, 4) in payouts(g)


def test_a2_needs_the_same_player_and_the_opposite_colour():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    act(g, 1, "lead", card="2H")
    act(g, 2, "play")
    act(g, 2, "lead", card="5C")  # a black lead that is not a 2: no A-2
    finish(g)
    assert not [p for p in payouts(g) if p[0] == "a-2"]
    moved = [e for e in g.log[-1]["events"] if e["type"] == "move" and e["from_space"] == "a-2"]
    assert moved and moved[0]["to_space"] == "losers-kitty", "unwon, A-2 goes to the poker space"


def test_losers_kitty_goes_to_the_last_player_in_when_everyone_else_folds():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    act(g, 1, "lead", card="2H")
    act(g, 2, "play")
    act(g, 2, "lead", card="2S")
    act(g, 0, "play")
    for seat in (1, 2, 0):
        act(g, seat, "choose", cards=g.awaiting().detail["best"])
    act(g, 1, "bet", amount=5)
    act(g, 2, "fold")
    act(g, 0, "fold")
    assert payouts(g)[-1] == ("losers-kitty", 1, 25)
    assert g.log[-1]["poker"]["winners"] == [1]


def test_losers_kitty_single_worst_hand_wins_at_showdown():
    g = new_game("great-lakes", 3, hands=DEAL_A)
    act(g, 1, "lead", card="2H")
    act(g, 2, "play")
    act(g, 2, "lead", card="2S")
    act(g, 0, "play")
    act(g, 1, "choose", cards=H("2H 3H 4C 5H 8H"))  # 8-high: no longer the worst
    act(g, 2, "choose", cards=g.awaiting().detail["best"])  # 8-7-6-5-2
    act(g, 0, "choose", cards=g.awaiting().detail["best"])  # 7-5-4-3-2
    for seat in (1, 2, 0):
        act(g, seat, "check")
    assert payouts(g)[-1] == ("losers-kitty", 0, 20)


def test_two_decks_the_first_holder_clockwise_from_the_last_player_plays_a_duplicate():
    # Six players: two decks. Both 3♥ are held, by seats 3 and 5; seat 1 leads the 2♥.
    g = new_game("great-lakes", 6, hands={1: ["2H"], 3: ["3H"], 5: ["3H"]})
    assert g.n_decks == 2
    finish(g, leads=["2H"])
    seq = plays(g)
    i = seq.index((1, "2H"))
    assert seq[i + 1] == (3, "3H")
    assert sum(1 for s, c in seq if c == "3H") <= 2
    assert g.total_chips() == 6 * 320


# ---------------------------------------------------------------- A-2 after a combination play
# Seat 1 runs the diamonds 2..K; the A♦ after the K♦ is seat 2's, who may place a Full House onto
# the K♦. The sequence stops at the K♦ (red): seat 2 leads black, the 2♠ or the 5♣.
DEAL_FH = {
    1: H("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 3C"),
    2: H("KC KH AC AD AH AS 2S 5C 3H 4H 6H 7H 8H"),
}
# As DEAL_FH, but after its Full House seat 2 holds no black card: the lead passes to seat 0.
DEAL_FH_RED = {
    1: DEAL_FH[1],
    2: H("KC AD AH AS 2H 3H 4H 5H 6H 7H 8H 9H TH"),
    0: H("2S 3S 4S"),
}


def a2_paid(g) -> list[tuple[str, int, int]]:
    return [p for p in payouts(g) if p[0] == "a-2"]


def onto_king_of_diamonds(deal: dict[int, list[str]], full_house: list[str]):
    """Seat 1 leads the 2♦ and runs to the K♦; seat 2 places ``full_house`` onto it."""
    g = new_game("great-lakes", 3, hands=deal)
    if g.awaiting().phase == "spare-hand":
        act(g, 0, "keep")
    act(g, 1, "lead", card="2D")
    act(g, 2, "full_house", cards=full_house)
    stop = [e for e in g.log[-1]["events"] if e["type"] == "stop"][-1]
    assert (stop["seat"], stop["card"], stop.get("reason")) == (2, "KD", "full house")
    return g


@pytest.mark.parametrize("order", list(itertools.permutations(["KC", "AD", "AH", "AS"])), ids="-".join)
def test_a2_counts_every_ace_of_a_full_house_whatever_the_order_of_its_cards(order):
    g = onto_king_of_diamonds(DEAL_FH, list(order))
    aw = g.awaiting()
    assert (aw.seat, aw.detail["cards"], aw.detail["requirement"]["colour"]) == (2, ["5C", "2S"], "black")
    act(g, 2, "lead", card="2S")
    assert a2_paid(g) == [("a-2", 2, 4)], "the 2♠ is of the other colour than the A♦ and the A♥ placed with it"


def test_a2_not_paid_when_the_2_has_the_colour_of_every_ace_of_the_full_house():
    g = onto_king_of_diamonds(DEAL_FH, ["AS", "KH", "AC", "KC"])  # three Kings, the two black Aces
    act(g, 2, "lead", card="2S")
    assert a2_paid(g) == [] and g.mat["a-2"] == 4


def test_a2_not_paid_for_a_lead_that_is_not_a_2_after_the_full_house():
    g = onto_king_of_diamonds(DEAL_FH, ["KC", "AD", "AH", "AS"])
    act(g, 2, "lead", card="5C")
    assert plays(g)[-1] == (2, "5C") and a2_paid(g) == []


def test_a2_not_paid_for_a_2_led_by_another_player_after_the_full_house():
    g = onto_king_of_diamonds(DEAL_FH_RED, ["KC", "AD", "AH", "AS"])
    # Seat 2 holds only red cards and cannot lead black: seat 0 leads the 2♠.
    assert [e["seat"] for e in g.log[-1]["events"] if e["type"] == "cannot-lead"] == [2]
    aw = g.awaiting()
    assert (aw.seat, aw.detail["cards"]) == (0, ["2C", "2S"])
    act(g, 0, "lead", card="2S")
    assert (0, "2S") in plays(g) and a2_paid(g) == []


def test_a2_after_a_five_card_straight_ending_in_an_ace():
    # Seat 1 runs the hearts 2..10; seat 2, holding the J♥, places J♥ Q♣ K♠ A♣. Nothing follows
    # the A♣: seat 2 leads red, and its only red suit is diamonds, from the 2♦.
    deal = {
        1: H("2H 3H 4H 5H 6H 7H 8H 9H TH 3C 4C 5C 7C"),
        2: H("JH QC KS AC 2D 3D 4D 5D 6D 7D 8D 9D JD"),
    }
    g = new_game("great-lakes", 3, hands=deal)
    if g.awaiting().phase == "spare-hand":
        act(g, 0, "keep")
    act(g, 1, "lead", card="2H")
    aw = g.awaiting()
    assert (aw.seat, aw.detail["straight"]) == (2, [["JH", "QC", "KS", "AC"]])
    act(g, 2, "straight", cards=["AC", "KS", "QC"])
    placed = plays(g)
    i = placed.index((2, "JH"))
    assert placed[i : i + 5] == [(2, "JH"), (2, "QC"), (2, "KS"), (2, "AC"), (2, "2D")], "the 2♦ at once"
    assert a2_paid(g) == [("a-2", 2, 4)]


def test_a2_after_a_single_ace_then_not_after_a_later_sequence():
    # Seat 1 runs the diamonds 3..A, leads its only black card, the 2♣, and is paid; the space is
    # then empty, so only the first such lead collects.
    g = new_game("great-lakes", 3, hands={1: H("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2C")})
    if g.awaiting().phase == "spare-hand":
        act(g, 0, "keep")
    act(g, 1, "lead", card="3D")
    assert plays(g)[11:13] == [(1, "AD"), (1, "2C")]
    assert a2_paid(g) == [("a-2", 1, 4)]


# ---------------------------------------------------------------- two copies of a money card in one move
# Two decks: seat 1 runs the clubs 2..K; seat 2, holding the A♣, places a Full House of both K♦
# and A♦ A♥ onto the K♣. The K♦ "Suicide King" space is won once: the second K♦ finds it won.
DEAL_TWO_KD = {1: H("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"), 2: H("AC KD KD AD AH")}


@pytest.mark.parametrize("strict", [False, True], ids=["paid-at-once", "strict-claims"])
def test_a_full_house_with_both_kings_of_diamonds_wins_the_space_once(strict: bool):
    g = new_game("great-lakes", 3, hands=DEAL_TWO_KD, options={"decks": 2, "strict_claims": strict})
    total = g.total_chips()
    act(g, 0, "keep")
    act(g, 1, "lead", card="2C")
    act(g, 2, "full_house", cards=["KD", "KD", "AD", "AH"])
    if strict:
        aw = g.awaiting()
        assert (aw.seat, aw.phase, aw.detail["spaces"], aw.detail["chips"]) == (2, "claim", ["KD", "full-house"], 8)
        act(g, 2, "claim")
    assert payouts(g) == [("KD", 2, 4), ("full-house", 2, 4)]
    assert g.mat["KD"] == 0 and min(g.mat.values()) == 0
    assert g.total_chips() == total
