"""Wanagan (Rulebook) by concrete deals: double antes, reveal rounds with declared spaces,
two claims on one space (best hand wins, ties split), passing three cards left then right,
the wild-card round, the early stop, and five of a kind with two decks.

Three players, dealer seat 0 unless said: the deal goes seat 1, seat 2, seat 0, spare.
Round 1 ante is 1 per space (dealer 2), doubled on Full House, 4 of a Kind, Any Straight,
Any Flush and the Wanagan centre: a single space starts with 4 chips, a double one with 8.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine import cards as C
from tests.engine.deals import act, hand, new_game, payouts, through_poker


def H(text: str) -> list[str]:
    return text.split()


DEAL = {
    1: H("AS AH AD KS KH 3C 3D 4C 4D 5C 6C 7C 8C"),
    2: H("QS QH QD JS JH 3H 3S 4H 4S 5D 6D 7D 8D"),
    0: H("2C 2D 7S 8H 9D 6H 6S TS JC QC TH JD KC"),
}


def reveal(g, seat: int, cards: str, space: str) -> None:
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (seat, "wanagan-reveal"), aw
    act(g, seat, "reveal", cards=H(cards), space=space)


def pass_cards(g, seat: int, cards: str) -> None:
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (seat, "wanagan-pass"), aw
    act(g, seat, "pass_cards", cards=H(cards))


def start(hands=DEAL, n: int = 3, **kw):
    g = new_game("wanagan", n, hands=hands, **kw)
    if g.awaiting().phase == "spare-hand":
        act(g, g.r.dealer, "keep")
    return g


def reveals(g) -> list[dict]:
    return [e for e in g.log[-1]["events"] if e["type"] == "reveal"]


def test_double_antes_and_no_michigan():
    g = start()
    assert g.mat == {
        "full-house": 8,
        "one-pair": 4,
        "four-kind": 8,
        "evens-odds": 4,
        "two-pair": 4,
        "straight": 8,
        "three-kind": 4,
        "flush": 8,
        "wanagan": 8,
    }
    assert g.stacks == [320 - 28, 320 - 14, 320 - 14]
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (1, "wanagan-reveal", ["reveal"])
    assert aw.detail["spaces"] == [
        "full-house",
        "one-pair",
        "four-kind",
        "evens-odds",
        "two-pair",
        "straight",
        "three-kind",
        "flush",
    ]
    assert aw.detail["wild"] == [] and aw.detail["round"] == 1


def test_reveal_checks_cards_and_space():
    g = start()
    with pytest.raises(IllegalAction):
        act(g, 1, "reveal", cards=H("AS AH AD KS"), space="full-house")
    with pytest.raises(IllegalAction):
        act(g, 1, "reveal", cards=H("AS AH AD KS QS"), space="full-house")  # Q♠ is not seat 1's
    with pytest.raises(IllegalAction):
        act(g, 1, "reveal", cards=H("AS AH AD KS KH"), space="wanagan")  # the centre is for poker


def test_two_claims_on_one_space_the_better_hand_wins():
    g = start()
    reveal(g, 1, "AS AH AD KS KH", "full-house")
    reveal(g, 2, "QS QH QD JS JH", "full-house")
    assert payouts(g) == [], "hands are revealed together, after everyone chose"
    reveal(g, 0, "2C 2D 7S 8H 9D", "one-pair")
    assert payouts(g) == [("full-house", 1, 8), ("one-pair", 0, 4)]
    shown = reveals(g)[0]["hands"]
    assert shown["2"] == {"cards": H("QS QH QD JS JH"), "space": "full-house", "qualifies": True, "hand": "full house"}
    # Round 2 opens with the pass to the left; spaces that were won are no longer declarable.
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail["direction"], aw.detail["count"]) == (1, "wanagan-pass", "left", 3)


def _through_round_1(g) -> None:
    reveal(g, 1, "AS AH AD KS KH", "full-house")
    reveal(g, 2, "QS QH QD JS JH", "full-house")
    reveal(g, 0, "2C 2D 7S 8H 9D", "one-pair")


def test_passing_left_then_right_a_tie_splits_and_the_wild_card_round():
    g = start()
    _through_round_1(g)
    # Round 2: three cards to the left, applied once everyone chose.
    pass_cards(g, 1, "6C 7C 8C")
    assert "6C" in hand(g, 1), "nothing moves before everyone chose"
    pass_cards(g, 2, "6D 7D 8D")
    pass_cards(g, 0, "TH JD KC")
    assert {"6C", "7C", "8C"} <= hand(g, 2) and {"6D", "7D", "8D"} <= hand(g, 0) and {"TH", "JD", "KC"} <= hand(g, 1)
    assert all(len(g.r.hands[s]) == 13 for s in range(3))
    aw = g.awaiting()
    assert aw.detail["spaces"] == ["four-kind", "evens-odds", "two-pair", "straight", "three-kind", "flush"]
    # Equal two pairs (suits never rank) split the space; seat 0's passed-in 6♦ makes three sixes.
    reveal(g, 1, "3C 3D 4C 4D 5C", "two-pair")
    reveal(g, 2, "3H 3S 4H 4S 5D", "two-pair")
    reveal(g, 0, "6H 6S 6D 7D 8D", "three-kind")
    assert payouts(g)[2:] == [("two-pair", 1, 2), ("two-pair", 2, 2), ("three-kind", 0, 4)]
    # Round 3: three cards to the right.
    aw = g.awaiting()
    assert (aw.phase, aw.detail["direction"]) == ("wanagan-pass", "right")
    pass_cards(g, 1, "TH JD KC")
    pass_cards(g, 2, "6C 7C 8C")
    pass_cards(g, 0, "7S 8H 9D")
    assert {"TH", "JD", "KC"} <= hand(g, 0) and {"6C", "7C", "8C"} <= hand(g, 1) and {"7S", "8H", "9D"} <= hand(g, 2)
    reveal(g, 1, "4C 5C 6C 7C 8C", "straight")  # a straight flush contains a straight
    reveal(g, 2, "QS QH QD JS JH", "flush")  # declared, does not qualify: the flush stays
    reveal(g, 0, "TH JD KC 2C 2D", "four-kind")
    assert payouts(g)[5:] == [("straight", 1, 8)]
    assert g.mat["flush"] == 8 and g.mat["four-kind"] == 8
    assert [h["qualifies"] for h in reveals(g)[-1]["hands"].values()] == [True, False, False]
    # Round 4: no pass; K♥ 10♦ 7♠ 4♣ are wild. K♥ + three Aces is four of a kind.
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail["round"]) == (1, "wanagan-reveal", 4)
    assert aw.detail["wild"] == ["KH", "TD", "7S", "4C"]
    reveal(g, 1, "AS AH AD KH 3C", "four-kind")
    reveal(g, 2, "QS QH QD JS JH", "flush")
    reveal(g, 0, "TH JD KC 2C 2D", "flush")
    assert payouts(g)[6:] == [("four-kind", 1, 8)]
    assert reveals(g)[-1]["hands"]["1"]["hand"] == "four of a kind"
    # After four rounds: leftovers (evens-odds 4, flush 8) move to the Wanagan centre, then poker.
    aw = g.awaiting()
    assert aw.phase == "poker-choose"
    assert g.mat["wanagan"] == 8 + 4 + 8 and g.mat["evens-odds"] == 0 and g.mat["flush"] == 0
    through_poker(g)
    winners = g.log[-1]["poker"]["winners"]
    assert payouts(g)[-1][0] == "wanagan" and payouts(g)[-1][1] in winners
    assert g.total_chips() == 960


def test_early_stop_and_five_of_a_kind_with_two_decks():
    # Eight players (two decks): each claims a different space in round 1, so no space holds
    # chips and the reveal rounds stop at once; seat 1's five Aces win the Wanagan poker.
    picks = {
        1: ("AS AS AH AH AD", "four-kind"),
        2: ("KS KH KD QS QH", "full-house"),
        3: ("2D 5D 7D 9D JD", "flush"),
        4: ("3C 4H 5S 6D 7C", "straight"),
        5: ("2C 4D 6H 8S TC", "evens-odds"),
        6: ("JS JH JD 8C 3S", "three-kind"),
        7: ("TH TD 9H 9S 4S", "two-pair"),
        0: ("QC QD 6S 8D 2H", "one-pair"),
    }
    g = start({s: H(c) for s, (c, _) in picks.items()}, n=8)
    assert g.n_decks == 2
    assert g.mat["four-kind"] == 2 * 8 + 2 and g.mat["one-pair"] == 8 + 1
    for s in (1, 2, 3, 4, 5, 6, 7, 0):
        reveal(g, s, *picks[s])
    won = {p[0]: p[1] for p in payouts(g)}
    assert won == {sp: s for s, (_, sp) in picks.items()}
    assert all(h["qualifies"] for h in reveals(g)[0]["hands"].values())
    assert reveals(g)[0]["hands"]["1"]["hand"] == "five of a kind"
    end = [e for e in g.log[-1]["events"] if e["type"] == "wanagan-end"]
    assert end == [{"type": "wanagan-end", "rounds": 1}]
    assert g.awaiting().phase == "poker-choose"
    assert g.awaiting().seat == 1 and sorted(g.awaiting().detail["best"]) == sorted(H("AS AS AH AH AD"))
    through_poker(g)
    assert g.log[-1]["poker"]["winners"] == [1]
    assert g.log[-1]["poker"]["hands"]["1"] == "five of a kind"
    assert payouts(g)[-1] == ("wanagan", 1, 2 * 8 + 2)
    assert g.total_chips() == 8 * 320


def test_heuristic_ai_declares_the_richest_space_it_qualifies_for():
    from engine.ai import choose_action

    g = start()
    a = choose_action(g, 1, "heuristic")
    assert a.do == "reveal"
    cards = C.parse_many(a.cards)
    assert g.wanagan_qualifies(cards, a.space, [])
    # A double space; seat 1's 4-8 of clubs is a straight flush, its strongest qualifying five.
    assert g.mat[a.space] == 8 and a.space in ("straight", "flush")
    assert sorted(a.cards) == sorted(H("4C 5C 6C 7C 8C"))
    act(g, 1, "reveal", cards=a.cards, space=a.space)
    a = choose_action(g, 2, "heuristic")
    assert a.space == "full-house" and sorted(a.cards) == sorted(H("QS QH QD JS JH"))
