"""Rules of tripoley, tripoley-optional-suit, three-in-one and rummoli, each by a concrete deal.

Three players, dealer seat 0 unless said: the deal goes seat 1, seat 2, seat 0, spare.
Everyone starts with 100 and antes 1 on each of the 9 spaces (13 in Rummoli).
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.cards import to_strs
from tests.engine.deals import act, hand, payouts, through_poker
from tests.engine.deals import new_game_swapping as new_game

CLUBS = [r + "C" for r in "23456789TJQKA"]
DIAMONDS = [r + "D" for r in "23456789TJQKA"]
HEARTS = [r + "H" for r in "23456789TJQKA"]
SPADES = [r + "S" for r in "23456789TJQKA"]
HEART_PAY = ["TH", "JH", "QH", "KH", "AH"]


# ---------------------------------------------------------------- pay cards at the deal
def test_pay_cards_at_deal_kq_and_8910_and_a_pay_card_in_the_spare():
    g = new_game(hands={1: ["KH", "QH"], 2: ["8S", "9S", "TS", "AH"], 0: ["TH"]}, spare=["JH", "8C", "8D", "8H"])
    assert g.mat["JH"] == 3 and g.stacks == [91, 91, 91]
    act(g, 0, "keep")
    assert payouts(g) == [("10H", 0, 3), ("QH", 1, 3), ("KH", 1, 3), ("AH", 2, 3), ("k-q", 1, 3), ("8-9-10", 2, 3)]
    assert g.mat["JH"] == 3, "a pay card in the spare hand pays nobody"
    assert g.stacks == [94, 100, 97]


def test_8910_split_between_two_holders_leaves_the_remainder():
    g = new_game(hands={1: ["8C", "9C", "TC"], 2: ["8D", "9D", "TD"]}, spare=HEART_PAY + ["8S", "8H"])
    act(g, 0, "keep")
    assert ("8-9-10", 1, 1) in payouts(g) and ("8-9-10", 2, 1) in payouts(g)
    assert g.mat["8-9-10"] == 1


def test_strict_claims_at_the_deal_split_shares_are_fixed_when_queued():
    g = new_game(
        hands={1: ["8C", "9C", "TC"], 2: ["8D", "9D", "TD"]},
        spare=HEART_PAY + ["8S", "8H"],
        options={"strict_claims": True},
    )
    act(g, 0, "keep")
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail) == (1, "claim", {"space": "8-9-10", "spaces": ["8-9-10"], "chips": 1})
    act(g, 1, "claim")
    act(g, 2, "claim")
    assert ("8-9-10", 1, 1) in payouts(g) and ("8-9-10", 2, 1) in payouts(g)
    assert g.mat["8-9-10"] == 1


def test_kq_needs_both_cards_in_one_hand():
    g = new_game(hands={1: ["KH"], 2: ["QH"]}, spare=["TH", "JH", "AH", "8S", "8H", "8D", "8C"])
    act(g, 0, "keep")
    assert payouts(g) == [("QH", 2, 3), ("KH", 1, 3)]
    assert g.mat["k-q"] == 3


# ---------------------------------------------------------------- the spare hand
def _transfers(g):
    return [
        (e["from_seat"], e["to_seat"], e["amount"], e["reason"]) for e in g.log[-1]["events"] if e["type"] == "transfer"
    ]


def _spare_game(**kw):
    return new_game(hands={0: CLUBS}, spare=DIAMONDS, **kw)


def test_blind_swap_gives_the_dealer_the_spare_and_then_offers_an_auction_of_the_old_hand():
    g = _spare_game()
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (0, "spare-hand", ["keep", "swap", "auction"])
    act(g, 0, "swap")
    assert hand(g, 0) == set(DIAMONDS)
    assert set(to_strs(g.r.spare)) == set(CLUBS), "the dealer's old hand is now the spare"
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (0, "spare-hand", ["keep", "auction"])
    act(g, 0, "keep")
    assert g.awaiting().phase == "poker-choose"


def test_dealer_auctions_the_old_hand_after_swapping():
    g = _spare_game()
    act(g, 0, "swap")
    act(g, 0, "auction")
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (1, "auction")
    act(g, 1, "bid", amount=4)
    act(g, 2, "pass")
    assert hand(g, 1) == set(CLUBS), "the buyer takes the dealer's old hand"
    assert _transfers(g) == [(1, 0, 4, "spare hand")]


def test_auction_with_bids_goes_to_the_highest_bidder():
    g = _spare_game()
    act(g, 0, "auction")
    act(g, 1, "bid", amount=2)
    act(g, 2, "bid", amount=3)
    with pytest.raises(IllegalAction, match="at least 4"):
        act(g, 1, "bid", amount=3)
    act(g, 1, "pass")
    assert hand(g, 2) == set(DIAMONDS)
    assert _transfers(g) == [(2, 0, 3, "spare hand")]
    assert g.awaiting().phase == "poker-choose"


def test_auction_without_bids_lets_the_dealer_still_swap():
    g = _spare_game()
    act(g, 0, "auction")
    act(g, 1, "pass")
    act(g, 2, "pass")
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (0, "spare-hand", ["keep", "swap"])
    act(g, 0, "swap")
    assert hand(g, 0) == set(DIAMONDS)


def test_a_bid_above_the_stack_is_refused_and_changes_nothing():
    g = _spare_game(stacks=[100, 20, 100])
    act(g, 0, "auction")
    before = g.to_json()
    with pytest.raises(IllegalAction, match="more than your 11 chips"):
        act(g, 1, "bid", amount=12)
    assert g.to_json() == before


# ---------------------------------------------------------------- optional suit
def test_optional_suit_bidding_winner_pays_the_kitty_and_names_the_suit():
    g = new_game("tripoley-optional-suit", hands={1: ["QS", "KS"]})
    act(g, 0, "keep")
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "suit-bid"), "bidding starts with the dealer"
    act(g, 0, "suit_bid", amount=2)
    act(g, 1, "suit_bid", amount=3)
    act(g, 2, "pass")
    act(g, 0, "pass")
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (1, "name-suit")
    act(g, 1, "name_suit", suit="S")
    assert g.mat["kitty"] == 3 + 3 and g.stacks[1] == 91 - 3
    assert g.view(None)["pay_suit"] == "S"
    assert payouts(g) == [], "with paycards=play nothing pays at the deal"


def test_optional_suit_pays_when_played_including_kq_of_the_named_suit():
    # Seat 1 names spades. The dealer (seat 0) holds every spade: it leads 2S (its lowest card), places
    # 8S 9S TS (8-9-10), T/J/Q/K/A of spades (the five pay spaces), QS then KS (K-Q), and goes out.
    # Seat 2 holds the hearts: with spades named, hearts pay nothing.
    g = new_game("tripoley-optional-suit", hands={0: SPADES, 1: CLUBS, 2: HEARTS}, spare=DIAMONDS)
    act(g, 0, "keep")
    act(g, 0, "pass")
    act(g, 1, "suit_bid", amount=1)
    act(g, 2, "pass")
    act(g, 1, "name_suit", suit="S")
    through_poker(g)
    assert g.log[-1]["michigan"]["out"] == 0
    paid = [p for p in payouts(g) if p[0] not in ("pot", "kitty")]
    assert paid == [
        ("10H", 0, 3),
        ("8-9-10", 0, 3),
        ("JH", 0, 3),
        ("QH", 0, 3),
        ("KH", 0, 3),
        ("k-q", 0, 3),
        ("AH", 0, 3),
    ], "the pay spaces follow the named suit, paid in the order the cards are placed"


def test_paycards_play_kq_and_8910_pay_the_player_who_completes_them():
    hands = {
        0: ["2C", "8H", "TH", "QH", "4C", "5C", "6C", "7C", "9C", "TC", "JC", "QC", "KC"],
        1: ["9H", "JH", "KH"],
        2: ["AH"],
    }
    g = new_game("tripoley", hands=hands, spare=["3C"], options={"paycards": "play"})
    through_poker(g)
    pays = payouts(g)
    # Dealer leads 2C (its lowest), 3C is in the spare: stop. Dealer leads lowest other suit: 8H.
    # 8H(0) 9H(1) TH(0) JH(1) QH(0) KH(1) AH(2).
    assert ("10H", 0, 3) in pays and ("JH", 1, 3) in pays and ("QH", 0, 3) in pays
    assert ("KH", 1, 3) in pays and ("AH", 2, 3) in pays
    assert ("k-q", 1, 3) in pays, "K-Q pays whoever places the K right after the Q"
    assert ("8-9-10", 0, 3) in pays, "8-9-10 pays whoever places the 10 right after 8 and 9"


# ---------------------------------------------------------------- poker
def _poker_game(stacks=None, options=None):
    g = new_game(
        hands={0: ["AS", "AD", "AC", "KS", "KD"], 1: ["2S", "3S", "4S", "5S", "6S"], 2: ["QC", "QD", "7H", "4D", "9C"]},
        spare=HEART_PAY + ["8H", "8D", "8C", "8S"],
        stacks=stacks,
        options=options,
    )
    act(g, 0, "keep")
    for seat, five in (
        (0, ["AS", "AD", "AC", "KS", "KD"]),
        (1, ["2S", "3S", "4S", "5S", "6S"]),
        (2, ["QC", "QD", "7H", "4D", "9C"]),
    ):
        aw = g.awaiting()
        assert (aw.seat, aw.phase) == (seat, "poker-choose")
        act(g, seat, "choose", cards=five)
    return g


def test_tripoley_poker_dealer_bets_first_and_a_raise_over_the_limit_is_refused():
    g = _poker_game(options={"bet_limit": 10})
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (0, "poker-betting", ["check", "bet"])
    act(g, 0, "bet", amount=5)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="raise exceeds bet_limit 10"):
        act(g, 1, "raise", amount=11)
    assert g.to_json() == before
    act(g, 1, "raise", amount=10)
    act(g, 2, "fold")
    act(g, 0, "call")
    # Straight flush beats the full house: seat 1 wins 3 (antes) + 15 + 15.
    assert g.log[-1]["poker"] == {"winners": [1], "hands": {"0": "full house", "1": "straight flush"}}
    assert g.stacks[1] == 91 - 15 + 33


def test_three_in_one_poker_starts_left_of_the_dealer():
    g = new_game("three-in-one", hands={0: CLUBS}, spare=HEART_PAY)
    act(g, 0, "keep")
    assert g.awaiting().seat == 1


def test_all_in_side_pot():
    # Seat 1 has 15: after the 9-chip ante, 6 left; it calls all in.
    g = _poker_game(stacks=[100, 15, 100])
    act(g, 0, "bet", amount=10)
    aw = g.awaiting()
    assert aw.legal == ["fold", "call"] and aw.detail["to_call"] == 6
    act(g, 1, "call")
    act(g, 2, "call")
    # Main pot: 3 antes + 3 x 6 = 21 to seat 1 (straight flush). Side pot 2 x 4 = 8 to seat 0 (full house).
    assert g.stacks == [91 - 10 + 8, 21, 91 - 10]
    assert g.mat["pot"] == 0


def test_split_pot_leaves_the_odd_chip():
    g = new_game(
        hands={0: ["AS", "KS", "QS", "JS", "9D"], 1: ["AD", "KD", "QD", "JD", "9C"], 2: ["2C", "3D", "5H", "7S", "8C"]},
        spare=HEART_PAY + ["8H", "8D", "TD", "TC"],
    )
    act(g, 0, "keep")
    for s, five in (
        (0, ["AS", "KS", "QS", "JS", "9D"]),
        (1, ["AD", "KD", "QD", "JD", "9C"]),
        (2, ["2C", "3D", "5H", "7S", "8C"]),
    ):
        act(g, s, "choose", cards=five)
    act(g, 0, "bet", amount=2)
    act(g, 1, "call")
    act(g, 2, "call")
    # Pot 3 + 6 = 9; seats 0 and 1 tie (A K Q J 9 high): 4 each, 1 chip stays.
    assert sorted(p for p in payouts(g) if p[0] == "pot") == [("pot", 0, 4), ("pot", 1, 4)]
    assert g.mat["pot"] == 1


def test_everyone_else_folds_the_bettor_takes_the_pot_unseen():
    g = _poker_game()
    act(g, 0, "bet", amount=3)
    act(g, 1, "fold")
    act(g, 2, "fold")
    assert g.log[-1]["poker"]["winners"] == [0] and g.log[-1]["poker"]["hands"] == {}
    assert g.stacks[0] == 91 + 3


# ---------------------------------------------------------------- Michigan
def test_one_suit_each_dealer_runs_the_clubs_and_collects_out_payments_and_kitty():
    g = new_game(hands={0: CLUBS, 1: DIAMONDS, 2: HEARTS}, spare=SPADES)
    act(g, 0, "keep")
    # seat 2 holds every heart pay card and K-Q; all three hold an 8-9-10: 3 chips split 1 each
    assert g.mat["8-9-10"] == 0
    through_poker(g)
    rec = g.log[-1]
    assert rec["poker"]["winners"] == [1, 2, 0], "three royal flushes tie, listed from the dealer's left"
    assert rec["michigan"]["out"] == 0 and rec["michigan"]["order"] == CLUBS
    # out: each other player pays one chip per card left (13) to the winner, who also takes the kitty (3)
    assert [e for e in rec["events"] if e["type"] == "transfer"] == [
        {"type": "transfer", "from_seat": 1, "to_seat": 0, "amount": 13, "reason": "cards left"},
        {"type": "transfer", "from_seat": 2, "to_seat": 0, "amount": 13, "reason": "cards left"},
    ]
    assert ("kitty", 0, 3) in payouts(g)
    assert g.total_chips() == 300


def test_stop_by_the_spare_hand_then_lowest_other_suit_and_an_ace_stop():
    g = new_game(
        hands={0: CLUBS[:6] + CLUBS[7:] + ["2D"], 1: DIAMONDS[1:] + ["AS"], 2: HEARTS}, spare=["8C"] + SPADES[:-1]
    )
    through_poker(g)
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail["cards"]) == (0, "michigan-lead", ["2C", "2D"]), "lowest card: a tie"
    act(g, 0, "lead", card="2C")
    ev = [(e["type"], e.get("seat"), e.get("card")) for e in g.log[-1]["events"] if e["type"] in ("play", "stop")]
    # 2C..7C by seat 0, 8C is in the spare: stop. Seat 0 leads its lowest other suit, 2D;
    # seat 1 runs 3D..AD (ace: stop), leads AS (its only other suit), and goes out.
    assert ev[5:8] == [("play", 0, "7C"), ("stop", 0, "7C"), ("play", 0, "2D")]
    assert ("stop", 1, "AD") in ev and ev[-1] == ("play", 1, "AS")
    assert g.log[-1]["michigan"]["out"] == 1


def test_stop_by_an_already_played_card():
    g = new_game(
        hands={
            0: ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "8C", "9C", "8D", "9D", "8S"],
            1: ["9S", "TS", "JS", "QS", "KS", "AS", "2H", "3H", "4H", "5H", "6H", "2C", "3C"],
        },
        spare=["2S", "3S", "4S", "5S", "6S", "7S", "2D", "3D", "4D", "5D", "6D", "7D", "4C"],
    )
    act(g, 0, "keep")
    through_poker(g)
    act(g, 0, "lead", card="8S")  # after the hearts ran to the ace: 8C, 8D or 8S
    aw = g.awaiting()
    assert (aw.seat, aw.detail["cards"]) == (1, ["2C", "2H"])
    act(g, 1, "lead", card="2H")
    stops = [e["card"] for e in g.log[-1]["events"] if e["type"] == "stop"]
    assert stops[:3] == ["AH", "AS", "6H"], "6H stops: 7H was played earlier"


@pytest.mark.parametrize("leader_rule,expected", [("dealer", 0), ("left-of-dealer", 1), ("poker-winner", 2)])
def test_michigan_leader_options(leader_rule, expected):
    g = new_game(hands={0: CLUBS, 1: DIAMONDS, 2: HEARTS}, spare=SPADES, options={"michigan_leader": leader_rule})
    act(g, 0, "keep")
    act(g, 0, "choose", cards=["2C", "3C", "4C", "6C", "8C"])
    act(g, 1, "choose", cards=["2D", "3D", "4D", "6D", "8D"])
    act(g, 2, "choose", cards=["TH", "JH", "QH", "KH", "AH"])
    for s in (0, 1, 2):
        act(g, s, "check")
    first = next(e for e in g.log[-1]["events"] if e["type"] == "play")
    assert first["seat"] == expected


@pytest.mark.parametrize(
    "rule,legal",
    [
        ("lowest-card", None),  # single lowest card: led automatically
        ("lowest-of-chosen-suit", ["4C", "3D", "9H", "5S"]),
        ("low-black", None),
    ],
)
def test_first_lead_options(rule, legal):
    g = new_game(
        hands={0: ["4C", "3D", "9H", "5S", "6S", "TC", "JC", "QC", "KC", "AC", "9D", "TD", "JD"]},
        spare=["2C", "2D", "2H", "2S", "3C", "3S", "3H"],
        options={"first_lead": rule},
    )
    through_poker(g)
    if legal is None:
        first = next(e for e in g.log[-1]["events"] if e["type"] == "play")
        assert first["card"] == {"lowest-card": "3D", "low-black": "4C"}[rule]
    else:
        aw = g.awaiting()
        assert aw.phase == "michigan-lead" and aw.seat == 0 and aw.detail["cards"] == legal


@pytest.mark.parametrize(
    "rule,legal",
    [
        ("chosen-other-suit", ["5D", "5H", "7S"]),
        ("chosen-opposite-colour", ["5D", "5H"]),
        ("low-opposite-colour", ["5D", "5H"]),
        ("lowest-other-suit", ["5D", "5H"]),
    ],
)
def test_after_stop_options(rule, legal):
    # Dealer leads 3C (lowest), 4C is in the spare: stop; then the after-stop rule chooses the next lead.
    g = new_game(
        hands={0: ["3C", "5D", "6D", "5H", "7S", "8S", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]},
        spare=["4C", "2C"],
        options={"after_stop": rule},
    )
    through_poker(g)
    aw = g.awaiting()
    assert aw.seat == 0 and aw.detail["cards"] == legal


def test_after_stop_low_opposite_colour_is_forced_when_one_card_qualifies():
    g = new_game(
        hands={0: ["3C", "5D", "6H", "4S", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "9S", "TS"]},
        spare=["4C", "2C"],
        options={"after_stop": "low-opposite-colour"},
    )
    through_poker(g)
    plays = [e["card"] for e in g.log[-1]["events"] if e["type"] == "play" and e["seat"] == 0]
    assert plays[:2] == ["3C", "5D"]


@pytest.mark.parametrize("rule,paid", [("pass", 0), ("pay-kitty-1", 1)])
def test_cannot_lead_pass_and_pay_kitty(rule, paid):
    # Four players: the dealer (seat 0) gets 10 cards, all clubs but 8C (spare), KC and AC.
    g = new_game(n=4, hands={0: CLUBS[:6] + CLUBS[7:11]}, spare=["8C"], options={"cannot_lead": rule})
    through_poker(g)
    ev = [e for e in g.log[-1]["events"] if e["type"] in ("stop", "cannot-lead", "play")]
    kitty_before = g.log[-1]["events"]
    stop = next(i for i, e in enumerate(ev) if e["type"] == "stop")
    assert ev[stop]["card"] == "7C"
    assert ev[stop + 1] == {"type": "cannot-lead", "seat": 0, "paid": paid}
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (1, "michigan-lead"), "the turn to lead passes left"
    assert aw.detail["cards"] == ["2D", "2H", "2S"], "still any suit but the one just stopped"
    to_kitty = [e for e in kitty_before if e["type"] == "to_space" and e["reason"] == "cannot lead"]
    assert to_kitty == (
        [{"type": "to_space", "seat": 0, "space": "kitty", "amount": 1, "reason": "cannot lead"}] if paid else []
    )


def test_out_payment_options():
    for rule in ("per-card-to-winner", "per-card-to-kitty", "none"):
        g = new_game(hands={0: CLUBS, 1: DIAMONDS, 2: HEARTS}, spare=SPADES, options={"out_payment": rule})
        through_poker(g)
        kitty_won = [p for p in payouts(g) if p[0] == "kitty"]
        # before Michigan: 92/92/110 after the pay cards, 93/93/111 after the tied poker pot
        if rule == "per-card-to-winner":
            assert kitty_won == [("kitty", 0, 3)]
            assert g.stacks == [93 + 26 + 3, 93 - 13, 111 - 13]
        elif rule == "per-card-to-kitty":
            assert kitty_won == [("kitty", 0, 3 + 26)], "payments go into the kitty before it is won"
            assert g.stacks == [93 + 29, 93 - 13, 111 - 13]
        else:
            assert kitty_won == [("kitty", 0, 3)]
            assert g.stacks == [96, 93, 111]
            assert not [e for e in g.log[-1]["events"] if e["type"] == "transfer"]
