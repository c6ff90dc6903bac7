"""The rules' second pass, each by a concrete deal: Tripoley as printed (the dead hand is not used),
Cadaco's variation 2 (exchange or sell), the presets built on them, the bet limit per player's
total, Wanagan claims compared by the named combination, the Losers Kitty at the end of the game,
whole runs as money cards, and Rummoli's warnings to players holding a pay card.

Three players, dealer seat 0 unless said: the deal goes seat 1, seat 2, seat 0, spare.
"""

from __future__ import annotations

import pytest

from engine import PRESETS, IllegalAction
from engine import cards as C
from engine import hands as HN
from engine.combinations import combination_key, evens_or_odds_key
from tests.engine.deals import act, hand, new_game, payouts


def H(text: str) -> list[str]:
    return text.split()


def event_types(g) -> list[str]:
    return [e["type"] for e in g.log[-1]["events"]]


# ---------------------------------------------------------------- Tripoley as printed
def test_tripoley_deals_a_dead_hand_nobody_uses_and_its_pay_cards_pay_nobody():
    g = new_game("tripoley", hands={0: ["AH", "KH"], 1: ["QH"]}, spare=["TH", "JH"])
    assert PRESETS["tripoley"].options.spare_hand == "none"
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "poker-choose"), "no spare-hand decision: straight to poker"
    assert len(g.r.spare) == 13 and {"TH", "JH"} <= set(C.to_strs(g.r.spare))
    assert {("KH", 0, 3), ("AH", 0, 3), ("QH", 1, 3)} <= set(payouts(g))
    assert not any(p[0] in ("10H", "JH") for p in payouts(g))
    assert g.mat["10H"] == 3 and g.mat["JH"] == 3, "pay cards in the dead hand pay nobody"
    assert not {"keep", "swap", "auction"} & set(event_types(g))


def test_optional_suit_is_tripoley_with_variation_one_and_the_suit_bidding():
    opts = PRESETS["tripoley-optional-suit"].options
    assert (opts.spare_hand, opts.paycards, opts.optional_suit) == ("none", "play", True)
    g = new_game("tripoley-optional-suit")
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "suit-bid"), "the dealer opens the suit bidding; no spare decision"


def test_three_in_one_offers_the_swap_or_auction():
    g = new_game("three-in-one")
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.legal) == (0, "spare-hand", ["keep", "swap", "auction"])


# ---------------------------------------------------------------- variation 2: exchange or sell
EXCHANGE = {"spare_hand": "exchange-or-sell"}
SPARE = H("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")


def test_exchange_or_sell_the_dealer_exchanges_and_nothing_is_sold():
    g = new_game(hands={0: H("2C 3C 4C")}, spare=SPARE, options=EXCHANGE)
    assert g.awaiting().legal == ["keep", "swap", "auction"]
    act(g, 0, "swap")
    assert hand(g, 0) == set(SPARE)
    assert g.awaiting().phase == "poker-choose", "no sale of the old hand after an exchange"


def test_exchange_or_sell_the_buyer_pays_the_dealer_and_must_exchange():
    g = new_game(hands={0: H("2C 3C 4C")}, spare=SPARE, options=EXCHANGE)
    old = hand(g, 1)
    act(g, 0, "auction")
    assert g.awaiting().seat == 1, "bids in turn from the dealer's left"
    act(g, 1, "bid", amount=3)
    act(g, 2, "pass")
    assert hand(g, 1) == set(SPARE) and set(C.to_strs(g.r.spare)) == old
    assert [e for e in g.log[-1]["events"] if e["type"] == "transfer"] == [
        {"type": "transfer", "from_seat": 1, "to_seat": 0, "amount": 3, "reason": "spare hand"}
    ]
    assert g.awaiting().phase == "poker-choose", "there is no second sale"


def test_exchange_or_sell_an_unsold_dead_hand_leaves_the_dealer_as_dealt():
    g = new_game(hands={0: H("2C 3C 4C")}, spare=SPARE, options=EXCHANGE)
    mine = hand(g, 0)
    act(g, 0, "auction")
    act(g, 1, "pass")
    act(g, 2, "pass")
    assert "no-bids" in event_types(g)
    assert g.awaiting().phase == "poker-choose", "no second chance to exchange"
    assert hand(g, 0) == mine


# ---------------------------------------------------------------- bet limit scope
def _to_betting(g) -> None:
    while (aw := g.awaiting()).phase in ("spare-hand", "poker-choose"):
        if aw.phase == "spare-hand":
            act(g, aw.seat, "keep")
        else:
            act(g, aw.seat, "choose", cards=aw.detail["best"])


def test_bet_limit_total_caps_what_any_player_puts_in_during_the_betting_round():
    g = new_game("three-in-one", options={"bet_limit": 10, "bet_limit_scope": "total"})
    _to_betting(g)
    act(g, 1, "bet", amount=6)
    aw = g.awaiting()
    assert (aw.seat, aw.detail["max"]) == (2, 4), "6 already bet: a raise of 4 brings the total to 10"
    before = g.to_json()
    with pytest.raises(IllegalAction, match="over the limit of 10"):
        act(g, 2, "raise", amount=5)
    assert g.to_json() == before
    act(g, 2, "raise", amount=4)
    assert g.awaiting().legal == ["fold", "call"], "the limit is reached: no more raises"
    act(g, 0, "call")
    assert g.awaiting().legal == ["fold", "call"]
    act(g, 1, "call")
    assert [g.r.poker.committed[s] for s in (0, 1, 2)] == [10, 10, 10]


def test_bet_limit_per_bet_is_the_default_and_limits_each_raise_only():
    assert PRESETS["three-in-one"].options.bet_limit_scope == "per-bet"
    g = new_game("three-in-one", options={"bet_limit": 10})
    _to_betting(g)
    act(g, 1, "bet", amount=6)
    assert g.awaiting().detail["max"] == 10
    act(g, 2, "raise", amount=10)
    assert g.r.poker.committed[2] == 16


# ---------------------------------------------------------------- Wanagan: the named combination
def _wanagan(hands: dict[int, list[str]]):
    g = new_game("wanagan", hands=hands)
    if g.awaiting().phase == "spare-hand":
        act(g, 0, "keep")
    return g


def _reveal_round(g, claims: dict[int, tuple[str, str]]) -> dict:
    """Seats 1, 2, 0 reveal (cards, space); a seat not listed reveals its first five on Four of a Kind."""
    for seat in (1, 2, 0):
        aw = g.awaiting()
        assert (aw.seat, aw.phase) == (seat, "wanagan-reveal")
        cards, space = claims.get(seat, (" ".join(aw.detail["cards"][:5]), "four-kind"))
        act(g, seat, "reveal", cards=H(cards), space=space)
    return next(e for e in g.log[-1]["events"] if e["type"] == "reveal")["hands"]


def test_wanagan_one_pair_a_pair_of_aces_beats_a_full_house_of_kings():
    g = _wanagan({1: H("KS KH KD 3C 3D"), 2: H("AS AH 2C 5D 9H")})
    shown = _reveal_round(g, {1: ("KS KH KD 3C 3D", "one-pair"), 2: ("AS AH 2C 5D 9H", "one-pair")})
    assert shown["1"]["qualifies"] and shown["1"]["hand"] == "full house"
    assert ("one-pair", 2, 4) in payouts(g) and not any(p[0] == "one-pair" and p[1] == 1 for p in payouts(g))


def test_wanagan_equal_pairs_split_whatever_the_kickers():
    g = _wanagan({1: H("AS AD 2C 3C 4C"), 2: H("AH AC KS QS JS")})
    _reveal_round(g, {1: ("AS AD 2C 3C 4C", "one-pair"), 2: ("AH AC KS QS JS", "one-pair")})
    assert ("one-pair", 1, 2) in payouts(g) and ("one-pair", 2, 2) in payouts(g)


def test_wanagan_two_pair_the_top_pair_then_the_second():
    g = _wanagan({1: H("KS KH 3C 3D 2S"), 2: H("QS QH JS JH AS"), 0: H("KD KC 4S 4H 2D")})
    _reveal_round(
        g, {1: ("KS KH 3C 3D 2S", "two-pair"), 2: ("QS QH JS JH AS", "two-pair"), 0: ("KD KC 4S 4H 2D", "two-pair")}
    )
    assert [p for p in payouts(g) if p[0] == "two-pair"] == [("two-pair", 0, 4)], "kings and fours win"


def test_wanagan_four_of_a_kind_does_not_contain_two_pair():
    g = _wanagan({1: H("7S 7H 7D 7C 2S")})
    shown = _reveal_round(g, {1: ("7S 7H 7D 7C 2S", "two-pair")})
    assert not shown["1"]["qualifies"]
    assert g.mat["two-pair"] == 4 and not any(p[0] == "two-pair" for p in payouts(g))


def test_wanagan_evens_or_odds_counts_the_ace_low():
    g = _wanagan({1: H("AS 3C 5D 7H 9S"), 2: H("2C 4D 6H 8S TC")})
    _reveal_round(g, {1: ("AS 3C 5D 7H 9S", "evens-odds"), 2: ("2C 4D 6H 8S TC", "evens-odds")})
    assert [p for p in payouts(g) if p[0] == "evens-odds"] == [("evens-odds", 2, 4)], "10-high beats 9-high"


def test_wanagan_full_house_the_three_then_the_two_and_flush_from_the_top_card_down():
    g = _wanagan({1: H("5S 5H 5D AC AD"), 2: H("9S 9H 9D 2C 2D"), 0: H("KH QH 4H 3H 2H")})
    _reveal_round(
        g, {1: ("5S 5H 5D AC AD", "full-house"), 2: ("9S 9H 9D 2C 2D", "full-house"), 0: ("KH QH 4H 3H 2H", "flush")}
    )
    assert ("full-house", 2, 8) in payouts(g) and ("flush", 0, 8) in payouts(g)


def test_named_combinations_with_wild_cards():
    def key(text: str, category: int, wild: str = "") -> tuple | None:
        return combination_key(C.parse_many(H(text)), category, C.parse_many(H(wild)))

    assert key("KS 4C 7H 2S 9D", HN.ONE_PAIR, "4C") == (11,), "the wild card pairs the king"
    assert key("KS 4C 7S 2S 9D", HN.THREE_OF_A_KIND, "4C 7S") == (11,)
    assert key("KS KH 4C 9D 2S", HN.TWO_PAIR, "4C") == (11, 7)
    assert key("9S 9H 9D 4C 2S", HN.FULL_HOUSE, "4C") == (7, 0)
    assert key("5S 6H 4C 8D 9C", HN.STRAIGHT, "4C") == (7,), "the wild card is the 7: nine-high"
    assert key("AS 2H 3C 4D 7C", HN.STRAIGHT, "7C") == (3,), "A-2-3-4-5 is five-high"
    assert key("2H 5H 9H JH 4C", HN.FLUSH, "4C") == (12, 9, 7, 3, 0), "the wild card is the ace of hearts"
    assert key("7S 7H 7D 7C 2S", HN.TWO_PAIR) is None
    assert evens_or_odds_key(C.parse_many(H("AS 3C 5D 7H 9S"))) == (7,)
    assert evens_or_odds_key(C.parse_many(H("3C 5D 7H 9S 4C")), C.parse_many(["4C"])) == (9,)
    assert evens_or_odds_key(C.parse_many(H("3C 5D 7H 9S 2C"))) is None


# ---------------------------------------------------------------- Great Lakes: the end of the game
def test_great_lakes_end_of_game_losers_kitty_to_the_worst_hand_the_rest_to_the_best():
    g = new_game("great-lakes", options={"game_end": "rounds:1"})
    g.end_now()  # every one of the 9 spaces holds its 4 chips of ante
    assert all(v == 4 for v in g.mat.values())
    best, middling, worst = H("AS KS QS JS TS"), H("9H 9D 5C 6C 8S"), H("7D 5H 4S 3C 2D")
    # five each, one at a time, starting left of the dealer (seat 0): seats 1, 2, 0
    g.next_deal([c for trio in zip(best, middling, worst) for c in trio])
    assert g.finished and sum(g.mat.values()) == 0
    assert g.playoff_result["winners"] == [1] and g.playoff_result["losers"] == [0]
    paid = [(e["space"], e["seat"], e["amount"]) for e in g.game_events if e["type"] == "payout"]
    assert paid == [("great-lakes", 1, 32), ("losers-kitty", 0, 4)]


# ---------------------------------------------------------------- Rulebook: a whole run is money
def test_rulebook_a_whole_8_9_10_makes_a_money_hand():
    g = new_game(
        "michigan-rummy",
        hands={
            0: H("8C 9C TC 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D"),
            1: H("2H 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S 5S 6S"),
            2: H("8D 9D TD 6D 7D JC KC AC 7S 8S 9S JS QS"),
        },
    )
    aw = g.awaiting()
    assert aw.legal == ["keep", "auction"], "the dealer's 8-9-10 of clubs forbids the blind swap"
    act(g, 0, "auction")
    assert g.awaiting().seat == 1
    act(g, 1, "pass")
    assert "no-bids" in event_types(g), "seat 2 holds 8-9-10 of diamonds: it may not bid"
    assert not any(e["type"] in ("bid", "pass") and e["seat"] == 2 for e in g.log[-1]["events"])


# ---------------------------------------------------------------- Rummoli: warnings, not bars
def test_rummoli_warns_a_dealer_and_bidders_holding_a_pay_card_and_lets_them_go_on():
    g = new_game(
        "rummoli",
        hands={
            0: H("AH 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H 3S 4S"),
            1: ["QH"],
            2: H("2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 2S"),
        },
    )
    aw = g.awaiting()
    assert "swap" in aw.legal and "AH" in aw.detail["warning"], "warned, not barred"
    assert "warning" not in str(g.view(None)) and "warning" not in str(g.view(1)), "only the dealer sees it"
    act(g, 0, "auction")
    aw = g.awaiting()
    assert aw.seat == 1 and "QH" in aw.detail["warning"] and "bid" in aw.legal
    act(g, 1, "pass")
    aw = g.awaiting()
    assert aw.seat == 2 and "warning" not in aw.detail
    act(g, 2, "bid", amount=1)
    assert {"type": "swap", "seat": 2, "reason": "bought"} in g.log[-1]["events"]


def test_rummoli_no_warning_without_a_pay_card():
    g = new_game("rummoli", hands={0: H("2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 2S")})
    assert "warning" not in g.awaiting().detail
