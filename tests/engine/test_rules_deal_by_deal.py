"""Rules pinned deal by deal: the spare hand, Rummoli's boards, the optional suit, nobody able to lead, who holds a card first, Rummy Royal's corner.

Three players, dealer seat 0 unless said: the deal goes seat 1, seat 2, seat 0, spare.
Cadaco/Rummoli presets: everyone starts with 100 and antes 1 per space (9 spaces, 13 in
Rummoli), so a space starts with 3 chips. Rulebook mats: 320 each, round 1 ante 1 per space
and 2 for the dealer, so with three players a space starts with 4 chips (302 / 311 / 311).

``SORTED_DECK`` (2C 2D 2H 2S 3C ...) deals one whole suit to each of the four slots when
three seats are dealt in: clubs to the dealer's left, then diamonds, hearts, and spades
to the spare hand (card *i* goes to slot *i* mod 4: docs/rules.md and docs/replay.md §1).
"""

from __future__ import annotations

import pytest

from engine import Game
from engine import cards as C
from tests.engine.deals import act, hand, new_game, new_game_swapping, payouts, through_poker

CLUBS = [r + "C" for r in "23456789TJQKA"]
DIAMONDS = [r + "D" for r in "23456789TJQKA"]
HEARTS = [r + "H" for r in "23456789TJQKA"]
SPADES = [r + "S" for r in "23456789TJQKA"]
SORTED_DECK = [r + s for r in "23456789TJQKA" for s in "CDHS"]


def cards(text: str) -> list[str]:
    return text.split()


def plays(g: Game) -> list[tuple[int, str]]:
    return [(e["seat"], e["card"]) for e in g.log[-1]["events"] if e["type"] == "play"]


def events(g: Game, *types: str) -> list[dict]:
    return [dict(e) for e in g.log[-1]["events"] if e["type"] in types]


def poker_checks(g: Game):
    """Best five each, everybody checks; returns the next decision after the poker."""
    while (aw := g.awaiting()).phase in ("poker-choose", "poker-betting"):
        if aw.phase == "poker-choose":
            act(g, aw.seat, "choose", cards=aw.detail["best"])
        else:
            act(g, aw.seat, "check")
    return aw


def play_out(g: Game, leads: list[str] = ()) -> None:
    """Keep the spare, claim every pay card, lead the given cards in turn, best five, all check."""
    leads = list(leads)
    while (aw := g.awaiting()) is not None:
        if aw.phase == "claim":
            act(g, aw.seat, "claim")
        elif aw.phase == "michigan-lead":
            act(g, aw.seat, "lead", card=leads.pop(0))
        else:
            through_poker(g)


# ---------------------------------------------------------------- 1. Rummoli's run option
RUMMOLI_RUN_DEAL = {
    # Seat 2 (3C-7C straight flush) wins the poker, leads Low Black 2C and runs the clubs but the 8C,
    # which seat 1 holds; the JC in the widow stops them; seat 2 then runs 2D-6D and goes out.
    2: CLUBS[:6] + ["9C", "TC"] + DIAMONDS[:5],
    1: cards("8C 2H 4H 6H 8H TH QH AH 3S 5S 7S 9S JS"),
    0: cards("3H 5H 7H 9H JH KH 4S 6S 8S TS QS KS AS"),
}
RUMMOLI_RUN_SPARE = cards("JC QC KC AC 7D 8D 9D TD JD QD KD AD 2S")


@pytest.mark.parametrize("run,space,completer", [("6-7-8", "6-7-8", 1), ("8-9-10", "8-9-10", 2)])
def test_rummoli_run_option_pays_whoever_places_the_top_card_right_after_the_other_two(run, space, completer):
    """Rummoli: "8-9-10 All One Suite or 6-7-8 All One Suite" (docs/rules.md, `rummoli`, option `run`);
    paycards=play: the run pays whoever places its top card right after the other two, regardless of
    who placed them; with 6-7-8 there is no 8-9-10 space at all."""
    g = new_game("rummoli", hands=RUMMOLI_RUN_DEAL, spare=RUMMOLI_RUN_SPARE, options={"run": run})
    assert list(g.mat) == ["pot", "AC", "AD", "AH", "AS", space, "k-q", "kitty", "10H", "JH", "QH", "KH", "AH2"]
    assert g.stacks == [87, 87, 87] and all(v == 3 for v in g.mat.values())
    act(g, 0, "keep")
    aw = poker_checks(g)  # seat 2's straight flush wins the 3-chip Pot
    assert (aw.seat, aw.phase, aw.detail) == (completer, "claim", {"space": space, "spaces": [space], "chips": 3})
    act(g, completer, "claim")
    assert g.awaiting() is None
    assert plays(g) == [(2, c) for c in CLUBS[:6]] + [(1, "8C"), (2, "9C"), (2, "TC")] + [(2, c) for c in DIAMONDS[:5]]
    # Seat 2 went out: seat 0 pays 13 and seat 1 12 chips (one per card) into the Kitty, then seat 2 wins it.
    assert payouts(g) == [("pot", 2, 3), (space, completer, 3), ("kitty", 2, 3 + 13 + 12)]
    assert g.stacks == ([74, 78, 118] if run == "6-7-8" else [74, 75, 121])
    assert g.mat[space] == 0 and sum(g.mat.values()) == 10 * 3


# ---------------------------------------------------------------- 2. rummoli-rulebook money spaces
def test_rummoli_rulebook_money_spaces_10s_a_k_diamonds_and_7_8_9_pay_when_placed():
    """docs/rules.md, `rummoli-rulebook`: 10♠, J♦, Q♣, K♥, A♠, A-K♦ (A♦ right after K♦), 7-8-9 one suit
    (the 9 completing it), Poker Pot, Rummoli (centre). The Rulebook: "regardless of who placed the
    K of diamonds" / "the 7 or 8". No 8-9-10 space: 8♠ 9♠ 10♠ in a row pays only the 10♠."""
    g = new_game(
        "rummoli-rulebook",
        hands={
            1: cards("7S TS KD 2H 3H 4H 5H 6H 7H 8H 9H TH JH"),
            2: cards("8S AD 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC"),
            0: cards("9S QC KC AC QH KH AH QS KS AS 2D 3D 4D"),
        },
        spare=cards("JS 3S 4S 5S 6S 5D 6D 7D 8D 9D TD JD QD"),
    )
    assert list(g.mat) == ["10S", "JD", "QC", "KH", "AS", "a-k", "7-8-9", "pot", "rummoli"]
    assert all(v == 4 for v in g.mat.values()) and g.stacks == [302, 311, 311]
    # The dealer holds money cards (no blind swap) and so does every bidder (no auction): no spare decision.
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail["cards"]) == (1, "michigan-lead", ["KD", "2H", "7S"])
    act(g, 1, "lead", card="7S")  # 7S(1) 8S(2) 9S(0): 7-8-9 to seat 0; 10S(1) pays; JS in the spare: stop
    assert payouts(g) == [("7-8-9", 0, 4), ("10S", 1, 4)]
    act(g, 1, "lead", card="KD")  # a red suit: KD(1), AD(2) right after it: A-K to seat 2; an Ace stops
    assert payouts(g)[-1] == ("a-k", 2, 4)
    # Seat 2 runs 2C-JC, seat 0 QC (Q♣) KC AC; seat 0 leads 2D-4D (5D spare), QS KS AS (A♠),
    # QH KH (K♥) AH and goes out: the Rummoli centre.
    play_out(g, leads=["2C", "2D"])
    assert payouts(g) == [
        ("7-8-9", 0, 4),
        ("10S", 1, 4),
        ("a-k", 2, 4),
        ("QC", 0, 4),
        ("AS", 0, 4),
        ("KH", 0, 4),
        ("rummoli", 0, 4),
        ("pot", 1, 4),
        ("pot", 2, 4),
    ]
    # Before poker only J♦ (in the spare) still held chips: it moved to the Poker Pot (4 + 4), which the
    # two J-high straight flushes split (seat 0's whole hand is only a full house).
    assert events(g, "move") == [{"type": "move", "from_space": "JD", "to_space": "pot", "amount": 4}]
    assert g.log[-1]["poker"]["winners"] == [1, 2]
    assert g.stacks == [322, 319, 319] and sum(g.mat.values()) == 0


def test_rummoli_rulebook_a_led_9_or_a_led_ace_of_diamonds_completes_nothing():
    """The 9 must complete 7-8-9 and the A♦ must come right after the K♦: a 9♥ led (7♥ 8♥ in the
    spare) and an A♦ led (K♦ in the spare) leave 7-8-9 and A-K on the mat; a 10♠ led pays (a lead is
    a placement)."""
    g = new_game(
        "rummoli-rulebook", hands={1: cards("9H TH TS KS AD 2C 3C 4C 5C 6C QC KC AC")}, spare=cards("7H 8H JH JS KD")
    )
    act(g, 0, "keep")
    act(g, 1, "lead", card="9H")  # 9H TH, JH in the spare: stop; seat 1 chooses a black suit
    act(g, 1, "lead", card="TS")  # 10♠ pays; JS in the spare: stop; AD is seat 1's only red card
    assert plays(g) == [(1, "9H"), (1, "TH"), (1, "TS"), (1, "AD")]
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail["cards"]) == (1, "michigan-lead", ["2C", "KS"]), "after the A♦ stop"
    assert payouts(g) == [("10S", 1, 4)]
    assert g.mat["7-8-9"] == 4 and g.mat["a-k"] == 4


# ---------------------------------------------------------------- 3. Optional Suit, nobody bids
def test_optional_suit_nobody_bids_hearts_stay_the_pay_suit():
    """Cadaco "Optional Suit" (docs/rules.md); rules-decisions.md: if nobody bids, hearts stay the pay
    suit (event `suit`, reason "nobody bid"), nothing goes on the Kitty, nobody is asked to name a suit.
    The clubs run (8C-9C-10C) pays only the any-suit 8-9-10; the hearts pay."""
    g = new_game_swapping(
        "tripoley-optional-suit",
        hands={0: CLUBS[:6] + HEARTS[6:], 1: CLUBS[6:] + HEARTS[1:6] + ["KS"], 2: DIAMONDS},
        spare=["2H"] + SPADES[:11] + ["AS"],
    )
    act(g, 0, "keep")
    for seat in (0, 1, 2):  # the suit bidding starts with the dealer
        aw = g.awaiting()
        assert (aw.seat, aw.phase) == (seat, "suit-bid")
        act(g, seat, "pass")
    assert events(g, "auction", "pass", "suit", "to_space") == [
        {"type": "auction", "kind": "suit"},
        {"type": "pass", "seat": 0, "kind": "suit"},
        {"type": "pass", "seat": 1, "kind": "suit"},
        {"type": "pass", "seat": 2, "kind": "suit"},
        {"type": "suit", "suit": "H", "reason": "nobody bid"},
    ]
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "poker-choose"), "no name-suit step"
    assert g.view(None)["pay_suit"] == "H" and g.mat["kitty"] == 3 and g.stacks == [91, 91, 91]
    through_poker(g)  # three royal flushes split the 3-chip Pot
    # Dealer leads 2C..7C, seat 1 8C..AC (8-9-10 at the 10C), then 3H..7H (2H in the spare);
    # the dealer places 8H..AH (every heart space) and goes out.
    assert plays(g) == (
        [(0, c) for c in CLUBS[:6]]
        + [(1, c) for c in CLUBS[6:]]
        + [(1, c) for c in HEARTS[1:6]]
        + [(0, c) for c in HEARTS[6:]]
    )
    assert payouts(g) == [
        ("pot", 1, 1),
        ("pot", 2, 1),
        ("pot", 0, 1),
        ("8-9-10", 1, 3),
        ("10H", 0, 3),
        ("JH", 0, 3),
        ("QH", 0, 3),
        ("KH", 0, 3),
        ("k-q", 0, 3),
        ("AH", 0, 3),
        ("kitty", 0, 3),
    ]
    assert [(e["from_seat"], e["amount"]) for e in events(g, "transfer")] == [(1, 1), (2, 13)]
    assert g.stacks == [127, 94, 79] and sum(g.mat.values()) == 0


# ---------------------------------------------------------------- 4. lowest count, a tie
def test_all_stuck_lowest_count_tie_splits_the_centre_and_the_remainder_stays():
    """docs/rules.md, Rulebook: if nobody can lead at all, the lowest total face value in hand wins the
    centre (2-10 face, J/Q/K 10, A 11); §1: a split that does not divide leaves the remainder on the
    space (on a Rulebook mat it then moves to the poker space with the other leftovers, §4).

    Four players (centre 1+1+1+2 = 5). The diamonds 2-J are in the spare; hearts, clubs from 5C,
    Q-K-A of diamonds and spades from 6S are all played; after the A♠ stop a red lead is needed
    and nobody has one: seats 1 (2♣) and 2 (2♠) tie at 2, seat 0 has 4, seat 3 has 15."""
    g = new_game(
        "michigan-rummy",
        n=4,
        hands={
            1: cards("2H 3H 4H 8C 9C TC KD TS JS QS 2C"),
            2: cards("JH QH KH AH 5C 6C 7C 8S 9S KS 2S"),
            3: cards("5H 6H KC AC QD AS 3C 3S 4S 5S"),
            0: cards("7H 8H 9H TH JC QC AD 6S 7S 4C"),
        },
        spare=DIAMONDS[:10],
    )
    assert g.mat["michigan"] == 5 and g.stacks == [302, 311, 311, 311]
    act(g, 1, "lead", card="2H")  # hearts 2-A; seat 2 placed the A♥
    act(g, 2, "lead", card="5C")  # clubs 5-A; seat 3 placed the A♣, leads its only red card QD; seat 0 the A♦
    act(g, 0, "lead", card="6S")  # spades 6-A; seat 3 placed the A♠
    ev = [dict(e) for e in g.log[-1]["events"]]
    stuck = ev.index({"type": "stuck"})
    assert ev[stuck - 5 : stuck] == [{"type": "stop", "seat": 3, "card": "AS"}] + [
        {"type": "cannot-lead", "seat": s, "paid": 0} for s in (3, 0, 1, 2)
    ]
    assert g.log[-1]["michigan"]["out"] is None and g.log[-1]["michigan"]["stuck"]
    assert {s: sorted(hand(g, s)) for s in range(4)} == {0: ["4C"], 1: ["2C"], 2: ["2S"], 3: ["3C", "3S", "4S", "5S"]}
    assert ev[stuck + 1 : stuck + 3] == [
        {"type": "payout", "space": "michigan", "seat": 1, "amount": 2, "reason": "lowest count"},
        {"type": "payout", "space": "michigan", "seat": 2, "amount": 2, "reason": "lowest count"},
    ]
    assert payouts(g) == [
        ("10H", 0, 5),
        ("8-9-10", 0, 5),
        ("KH", 2, 5),
        ("QC", 0, 5),
        ("k-q", 1, 5),
        ("AS", 3, 5),
        ("michigan", 1, 2),
        ("michigan", 2, 2),
    ]
    # the odd chip stayed on the centre until the leftovers moved to the Poker Pot
    assert events(g, "move") == [
        {"type": "move", "from_space": "JD", "to_space": "pot", "amount": 5},
        {"type": "move", "from_space": "michigan", "to_space": "pot", "amount": 1},
    ]
    assert g.awaiting().phase == "poker-choose"
    assert g.mat["pot"] == 5 + 5 + 1 and g.stacks == [317, 318, 318, 316]


# ---------------------------------------------------------------- 5. spare_hand=none
def test_spare_hand_none_deals_the_spare_but_asks_nothing():
    """docs/rules.md: every deal has a spare hand receiving its card right after the dealer's (decided);
    `spare_hand=none` (§3, no preset uses it) leaves out only the spare-hand step: no keep/swap/auction,
    the dealer plays as dealt. The spades 8-9-10 in the spare pays nobody."""
    g = Game.new("tripoley", ["a", "b", "c"], options={"spare_hand": "none"}, dealer=0, seed=1)
    g.next_deal(SORTED_DECK)
    assert events(g, "deal") == [{"type": "deal", "cards": {"1": 13, "2": 13, "0": 13}, "spare": 13}]
    assert (hand(g, 1), hand(g, 2), hand(g, 0)) == (set(CLUBS), set(DIAMONDS), set(HEARTS))
    assert C.to_strs(g.r.spare) == SPADES
    assert not events(g, "keep", "swap", "auction"), "no spare-hand decision"
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "poker-choose")
    # pay cards at the deal: the dealer's hearts; 8-9-10 split by the three seats holding one
    assert payouts(g) == [
        ("10H", 0, 3),
        ("JH", 0, 3),
        ("QH", 0, 3),
        ("KH", 0, 3),
        ("AH", 0, 3),
        ("k-q", 0, 3),
        ("8-9-10", 1, 1),
        ("8-9-10", 2, 1),
        ("8-9-10", 0, 1),
    ]
    assert g.stacks == [110, 92, 92]
    # heads-up, the spare is still dealt: 52 = 18 + 17 + 17
    g2 = Game.new("tripoley", ["a", "b"], options={"spare_hand": "none"}, dealer=0, seed=1)
    g2.next_deal(SORTED_DECK)
    assert events(g2, "deal") == [{"type": "deal", "cards": {"1": 18, "0": 17}, "spare": 17}]
    assert g2.awaiting().phase == "poker-choose"


# ---------------------------------------------------------------- 6. the dealer's double ante
def test_a_dealer_short_of_the_double_ante_passes_the_deal_left():
    """Rulebook: the dealer antes double (`dealer_double_ante`); rules-decisions.md: the deal passes
    left past a seat that cannot pay the doubled ante (it plays and antes single), and the next
    deal is left of the seat that actually dealt (game.py `_seat_round`)."""
    g = Game.new("michigan-rummy", ["a", "b", "c"], stacks=[10, 320, 320], dealer=0, seed=1)
    g.next_deal(SORTED_DECK)  # seat 0 has 10 < 18: seat 1 deals; the deal starts with seat 2
    assert events(g, "round-start") == [{"type": "round-start", "round": 1, "dealer": 1, "ante": 1}]
    antes = events(g, "ante")
    assert [(e["seat"], e["amount"]) for e in antes] == [(2, 1)] * 9 + [(0, 1)] * 9 + [(1, 2)] * 9
    assert g.r.active == [2, 0, 1] and g.view(None)["dealer"] == 1
    assert (hand(g, 0), hand(g, 1)) == (set(DIAMONDS), set(HEARTS)), "seat 2 got the clubs and ran them"
    # Seat 2 (left of the dealer) led 2C and went out: 8-9-10, Q♣ and the centre (4 each).
    assert payouts(g) == [("8-9-10", 2, 4), ("QC", 2, 4), ("michigan", 2, 4)]
    assert g.stacks == [1, 302, 323]
    through_poker(g)  # three royal flushes split the 24-chip pot
    assert g.stacks == [9, 310, 331]
    assert g.dealer == 2
    # Round 2 (ante 2, the dealer 4): seat 2 deals; seat 0 cannot pay 18 and sits out.
    g.next_deal(SORTED_DECK)
    assert events(g, "round-start", "sit-out") == [
        {"type": "round-start", "round": 2, "dealer": 2, "ante": 2},
        {"type": "sit-out", "seat": 0},
    ]
    assert g.r.active == [1, 2] and g.r.dealer_mult == 2


def test_nobody_can_pay_the_double_ante_so_it_is_waived():
    """rules-decisions.md: if nobody can pay a doubled ante, the double is waived this round (the
    dealer stays and antes single) rather than leaving the table without a dealer."""
    g = Game.new("michigan-rummy", ["a", "b", "c"], stacks=[15, 12, 17], dealer=0, seed=1)
    g.next_deal(SORTED_DECK)  # nobody has 18
    assert events(g, "round-start", "sit-out") == [{"type": "round-start", "round": 1, "dealer": 0, "ante": 1}]
    assert [(e["seat"], e["amount"]) for e in events(g, "ante")] == [(1, 1)] * 9 + [(2, 1)] * 9 + [(0, 1)] * 9
    assert g.r.dealer_mult == 1 and g.r.active == [1, 2, 0]
    # seat 1 got the clubs and ran them: 8-9-10, Q♣ and the centre (3 each)
    assert payouts(g) == [("8-9-10", 1, 3), ("QC", 1, 3), ("michigan", 1, 3)]
    assert g.stacks == [15 - 9, 12 - 9 + 9, 17 - 9]
    through_poker(g)
    assert g.stacks == [12, 18, 14] and g.dealer == 1


# ---------------------------------------------------------------- 7. several decks: the first holder
LOW_BLACK_RED = cards("2C 2C 3C 3C 4C 4C 2D 2D 3D 3D 2S 2S 3S 3S")


@pytest.mark.parametrize(
    "hands,placer,other",
    [
        ({1: ["QH", "KH"] + LOW_BLACK_RED[:13], 2: ["KH"]}, 1, 2),
        ({1: ["QH"] + LOW_BLACK_RED, 5: ["KH"], 3: ["KH"]}, 3, 5),
    ],
)
def test_two_decks_a_money_card_held_twice_is_placed_by_the_first_holder_from_the_last_player(hands, placer, other):
    """docs/rules.md (decided): two players hold X: the first holder clockwise from the player who acted
    last plays it; rules-decisions.md: starting with that player. Six players, two decks (7 per
    space). Seat 1 leads its lowest heart, Q♥: the K♥ is placed by seat 1 itself when it holds one,
    else by seat 3 (before seat 5); K♥ and K-Q♥ pay that seat; both A♥ are in the spare."""
    g = new_game("tripoley-rulebook", 6, hands=hands, spare=["AH", "AH", "QH"])
    assert g.n_decks == 2 and g.mat["KH"] == 7
    act(g, 0, "keep")
    act(g, 1, "lead", card="QH")
    assert plays(g) == [(1, "QH"), (placer, "KH")]
    assert payouts(g) == [("QH", 1, 7), ("KH", placer, 7), ("k-q", placer, 7)]
    assert "KH" in hand(g, other), "the other copy stays in its holder's hand"
    assert g.awaiting().seat == placer


DECK2_SPARE = cards("8C 8C 8D 8D 8H 8H 8S 8S JH JH QH QH KH KH AH AH")  # no run, no other heart held


def test_two_decks_pay_card_held_twice_at_the_deal_pays_the_first_holder_from_the_dealers_left():
    """Tripoley with two decks (`decks=2`, paycards=deal): seats 1 and 2 each hold a 10♥. The dealer
    acted last (kept) and holds none: the first holder clockwise is seat 1, which takes the whole
    space; seat 2's copy takes nothing."""
    g = new_game_swapping("tripoley", hands={1: ["TH"], 2: ["TH"]}, spare=DECK2_SPARE, options={"decks": 2})
    assert g.n_decks == 2 and len(g.r.spare) == 26
    act(g, 0, "keep")
    assert payouts(g) == [("10H", 1, 3)]
    assert g.stacks == [91, 94, 91]


def test_two_decks_pay_card_at_the_deal_the_dealer_who_acted_last_holds_a_copy():
    g = new_game_swapping("tripoley", hands={0: ["TH"], 2: ["TH"]}, spare=DECK2_SPARE, options={"decks": 2})
    act(g, 0, "keep")
    assert payouts(g) == [("10H", 0, 3)]


RR_DEALER = cards("9C TC JC QC KC AC 9D TD JD QD KD AD 9S TS JS")  # no money card: the spare choice is asked


def _rummy_royal_corner(hands: dict, covers: set[int]) -> Game:
    g = new_game("rummy-royal", 6, hands=hands)
    assert g.n_decks == 2
    act(g, 0, "corner_bet", ace="AS", amount=5)
    for seat in range(1, 6):
        aw = g.awaiting()
        assert (aw.seat, aw.phase) == (seat, "corner-cover")
        act(g, seat, "cover" if seat in covers else "decline")
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "spare-hand")
    act(g, 0, "keep")
    assert g.awaiting().phase == "michigan-lead"
    return g


def test_two_decks_corner_ace_goes_by_the_first_holder_only():
    """Rummy Royal (docs/rules.md): after the spare-hand step the holder of the Ace takes the corner if
    they bet on it. Both A♠ are held, by seats 2 and 4; seat 4 covered, seat 2 did not: seat 2 is the
    first holder clockwise, so the corner stays (10 chips) although seat 4 holds an A♠ it backed."""
    g = _rummy_royal_corner({0: RR_DEALER, 2: ["AS"], 4: ["AS"]}, covers={4})
    assert events(g, "corner-stays") == [{"type": "corner-stays", "space": "corner-AS", "holder": 2}]
    assert payouts(g) == [] and g.mat["corner-AS"] == 10
    assert g.stacks == [302 - 5, 311, 311, 311, 311 - 5, 311]


def test_two_decks_corner_ace_the_dealer_who_acted_last_holds_a_copy():
    g = _rummy_royal_corner({0: RR_DEALER[:14] + ["AS"], 3: ["AS"]}, covers={3})
    assert payouts(g) == [("corner-AS", 0, 10)]


# ---------------------------------------------------------------- found on the way
def test_paycards_deal_override_on_a_rulebook_mat_pays_at_the_deal():
    g = new_game("tripoley-rulebook", hands={1: ["TH", "JH"]}, options={"paycards": "deal"})
    act(g, 0, "keep")  # seat 1 holds 10♥ and J♥: both spaces are its at the deal
    assert payouts(g)[:2] == [("10H", 1, 4), ("JH", 1, 4)]
