"""Cadaco's Optional Suit wherever it can be switched on: the named suit is the pay suit of every
pay card and of K-Q, at the deal or when placed; hearts then pay nothing. Elsewhere it is refused.

Three players, dealer seat 0: the deal goes seat 1, seat 2, seat 0, spare. Everyone antes 1 on
each of the 9 spaces (3 chips a space); the suit bid starts with the dealer.
"""

from __future__ import annotations

import pytest

from engine import Game
from engine.presets import HOUSE_RULES, PRESETS, names_pay_suit
from engine.rulebook import house_rules
from tests.engine.deals import act, new_game, payouts, through_poker

PAY_SPACES = ["10H", "JH", "QH", "KH", "AH", "k-q"]  # the ids stay the hearts ids, whatever suit is named

# Where the suit bid can be switched on, and how each table gets there.
AT_THE_DEAL = [
    ("tripoley", {"optional_suit": True}),
    ("three-in-one", {"optional_suit": True}),
    ("tripoley-optional-suit", {"paycards": "deal"}),
]


def bid_and_name(g: Game, seat: int, suit: str) -> None:
    """Keep the spare hand if asked; ``seat`` (1 or 2) alone bids 1 for the suit and names ``suit``."""
    if g.awaiting().phase == "spare-hand":
        act(g, 0, "keep")
    for bidder in (0, 1, 2):  # the dealer first; a pass drops out, so one round of bids settles it
        assert (g.awaiting().seat, g.awaiting().phase) == (bidder, "suit-bid")
        if bidder == seat:
            act(g, bidder, "suit_bid", amount=1)
        else:
            act(g, bidder, "pass")
    assert (g.awaiting().seat, g.awaiting().phase) == (seat, "name-suit")
    act(g, seat, "name_suit", suit=suit)
    assert g.view(None)["pay_suit"] == suit


@pytest.mark.parametrize("preset, options", AT_THE_DEAL, ids=[p for p, _ in AT_THE_DEAL])
def test_the_named_suit_pays_at_the_deal_and_hearts_do_not(preset, options):
    # Seat 2 holds the spade pay cards (so K♠+Q♠ too), seat 1 the hearts; seat 2 names spades.
    hands = {1: ["TH", "JH", "QH", "KH", "AH"], 2: ["TS", "JS", "QS", "KS", "AS"]}
    g = new_game(preset, hands=hands, options=options)
    assert g.options.optional_suit and g.options.paycards == "deal"
    bid_and_name(g, 2, "S")
    pays = [p for p in payouts(g) if p[0] in PAY_SPACES]
    assert pays == [(sid, 2, 3) for sid in PAY_SPACES], "every pay card and K-Q follow the named suit"
    assert g.stacks[1] == 91, "the hearts pay nothing"


def test_a_house_rule_suit_pays_when_placed_including_kq():
    # Tripoley with both house rules (variation 1 and the suit bid) is Cadaco's Optional Suit. Seat 1
    # names diamonds. The dealer (seat 0) leads its lowest card, the 2♦, and places every diamond,
    # Q♦ then K♦ among them, and goes out. Seat 2 holds the hearts: they pay nothing.
    diamonds = [r + "D" for r in "23456789TJQKA"]
    hearts = [r + "H" for r in "23456789TJQKA"]
    clubs = [r + "C" for r in "23456789TJQKA"]
    spades = [r + "S" for r in "23456789TJQKA"]
    house = {"optional_suit": True, "paycards": "play"}
    g = new_game("tripoley", hands={0: diamonds, 1: clubs, 2: hearts}, spare=spades, options=house)
    bid_and_name(g, 1, "D")
    assert [p for p in payouts(g) if p[0] in PAY_SPACES] == [], "nothing pays at the deal"
    through_poker(g)
    assert g.log[-1]["michigan"]["out"] == 0
    paid = [p for p in payouts(g) if p[0] in PAY_SPACES or p[0] == "8-9-10"]
    assert paid == [
        ("10H", 0, 3),
        ("8-9-10", 0, 3),
        ("JH", 0, 3),
        ("QH", 0, 3),
        ("KH", 0, 3),
        ("k-q", 0, 3),
        ("AH", 0, 3),
    ], "the diamonds pay, in the order they are placed; K-Q for the K♦ right after the Q♦"


def test_without_a_bid_the_mat_stays_hearts_and_its_labels_say_so():
    g = new_game("three-in-one", hands={1: ["QH", "KH"]}, options={"optional_suit": True})
    act(g, 0, "keep")
    for seat in (0, 1, 2):
        act(g, seat, "pass")
    assert g.view(None)["pay_suit"] == "H" and ("k-q", 1, 3) in payouts(g)
    labels = {sp["id"]: sp["label"] for sp in g.view(None)["mat"]}
    assert labels["k-q"] == "K-Q", "a mat whose suit is bid for names no suit on its spaces"
    plain = {sp["id"]: sp["label"] for sp in new_game("three-in-one").view(None)["mat"]}
    assert (plain["10H"], plain["k-q"]) == ("10♥", "K-Q♥"), "without the suit bid the mat is printed in hearts"


def test_offered_where_the_mat_has_one_pay_suit_and_refused_elsewhere():
    can = sorted(key for key, preset in PRESETS.items() if names_pay_suit(preset))
    assert can == ["three-in-one", "tripoley", "tripoley-optional-suit"]
    for key in PRESETS:
        offered = "optional_suit" in house_rules(key)
        assert offered == (key in ("tripoley", "three-in-one")), key  # the Optional Suit preset has it on
        if key in can:
            continue
        assert "optional_suit" not in HOUSE_RULES.get(key, {})
        with pytest.raises(
            ValueError, match=r"optional_suit \(bidding to name the pay suit\) is played only on tripoley, "
        ):
            Game.new(key, ["a", "b", "c"], options={"optional_suit": True})
