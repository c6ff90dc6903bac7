"""Nobody able to lead, the Rummoli colour flip and claims, game ends, board clearing, Rulebook mats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Action, Game, IllegalAction
from engine import cards as C
from engine.replay import run_replay
from tests.engine.deals import act, hand, new_game, new_game_swapping, payouts

SCENARIOS = Path(__file__).parent / "scenarios"
CLUBS = [r + "C" for r in "23456789TJQKA"]
DIAMONDS = [r + "D" for r in "23456789TJQKA"]
HEARTS = [r + "H" for r in "23456789TJQKA"]
SPADES = [r + "S" for r in "23456789TJQKA"]


def _replayed(name: str) -> Game:
    """Play a stored concrete deal (deck + decisions) through the public API."""
    data = json.loads((SCENARIOS / f"{name}.json").read_text())
    g = Game.new(data["preset"], data["players"], options=data.get("options"), dealer=data["dealer"], seed=0)
    for rnd in data["rounds"]:
        g.next_deal(rnd["deck"])
        for a in rnd["actions"]:
            g.apply(Action.from_dict(a))
    return g


# ---------------------------------------------------------------- nobody can lead
def test_all_stuck_everyone_pays_a_chip_per_card_into_the_kitty_and_nobody_wins_it():
    g = _replayed("stuck_tripoley")
    ev = g.log[-1]["events"]
    stuck = next(i for i, e in enumerate(ev) if e["type"] == "stuck")
    left = {s: len(g.r.hands[s]) for s in g.r.active}
    assert all(n > 0 for n in left.values())
    paid = {e["seat"]: e["amount"] for e in ev[stuck:] if e["type"] == "to_space"}
    assert paid == {s: n for s, n in left.items() if n}
    assert all(e["space"] == "kitty" and e["reason"] == "all stuck" for e in ev[stuck:] if e["type"] == "to_space")
    assert not any(p[0] == "kitty" for p in payouts(g)), "the kitty stays for a later round"
    assert g.log[-1]["michigan"]["out"] is None and g.log[-1]["michigan"]["stuck"]
    assert g.mat["kitty"] >= 2 + sum(left.values())


def test_all_stuck_lowest_count_wins_the_center():
    g = _replayed("stuck_lowest")
    counts = {s: sum([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11][c >> 2] for c in g.r.hands[s]) for s in g.r.active}
    low = min(counts.values())
    winners = [s for s in g.r.active if counts[s] == low]
    won = [p for p in payouts(g) if p[0] == "kitty"]
    assert [p[1] for p in won] == winners


def test_rummoli_colour_flip_after_everyone_paid_the_kitty():
    g = _replayed("flip_rummoli")
    ev = g.log[-1]["events"]
    flip = next(i for i, e in enumerate(ev) if e["type"] == "colour-flip")
    before = ev[flip - 3 : flip]
    assert [e["type"] for e in before] == ["cannot-lead"] * 3, "all three players could not lead in a row"
    assert before[0]["paid"] == 1, "a player who cannot lead pays the kitty one chip (if they have one)"
    stop = [e for e in ev[:flip] if e["type"] == "stop"][-1]
    assert C.is_red(C.parse(stop["card"])) and ev[flip]["colour"] == "red", "needed black, nobody had it: flips to red"
    nxt = next(e for e in ev[flip:] if e["type"] == "play")
    assert C.is_red(C.parse(nxt["card"]))


# ---------------------------------------------------------------- Rummoli specifics
def test_rummoli_round_poker_winner_leads_low_black_claims_and_out_payments_into_the_kitty():
    g = new_game(
        "rummoli",
        hands={
            2: CLUBS,  # royal flush in clubs: wins the poker, then leads Low Black (2C) and runs the clubs
            1: ["2H", "3H", "4H", "5H", "7H", "8H", "9H", "JH", "QH", "KH", "AH", "2D", "3S"],
            0: ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "JD", "QD", "KD", "AD", "6H", "2S"],
        },
        spare=["TD", "TH"] + SPADES[2:],
    )
    act(g, 0, "keep")
    for seat in (1, 2, 0):  # choosing and betting start left of the dealer
        aw = g.awaiting()
        assert (aw.seat, aw.phase) == (seat, "poker-choose")
        act(g, seat, "choose", cards=aw.detail["best"])
    for seat in (1, 2, 0):
        act(g, seat, "check")
    assert g.log[-1]["poker"]["winners"] == [2]
    aw = g.awaiting()
    assert (aw.seat, aw.phase, aw.detail) == (2, "claim", {"space": "8-9-10", "spaces": ["8-9-10"], "chips": 3}), (
        "claim before the next card"
    )
    plays = [e["card"] for e in g.log[-1]["events"] if e["type"] == "play"]
    assert plays == CLUBS[:9], "Low Black: the poker winner leads 2C and places up to the 10C"
    act(g, 2, "claim")
    aw = g.awaiting()
    assert (aw.seat, aw.detail["space"]) == (2, "AC")
    act(g, 2, "pass")  # forgot to claim: the chips stay
    assert g.mat["AC"] == 3 and ("8-9-10", 2, 3) in payouts(g) and not any(p[0] == "AC" for p in payouts(g))
    # Seat 2 went out: everyone else pays one chip per card into the Kitty, then seat 2 wins it.
    assert ("kitty", 2, 3 + 13 + 13) in payouts(g)


def _play_rummoli_claiming(g, winner: int) -> list[tuple[int, dict]]:
    """Keep the widow, `winner` shows its best five (the others their first five), everyone checks,
    every claim is made; returns the claims asked (seat, detail)."""
    asked = []
    while (aw := g.awaiting()) is not None and g.r is not None:
        if aw.phase == "spare-hand":
            act(g, aw.seat, "keep")
        elif aw.phase == "poker-choose":
            act(g, aw.seat, "choose", cards=aw.detail["best"] if aw.seat == winner else aw.detail["cards"][:5])
        elif aw.phase == "poker-betting":
            act(g, aw.seat, "check")
        elif aw.phase == "claim":
            asked.append((aw.seat, aw.detail))
            act(g, aw.seat, "claim")
        else:
            raise AssertionError(f"unexpected decision {aw}")
    return asked


def test_rummoli_one_claim_per_pay_card_covers_every_space_it_pays():
    """A♥ pays both A♥ pockets, K♥ after Q♥ pays K♥ and K-Q, 10♥ after 8-9♥ pays 10♥ and 8-9-10: one
    claim each ("the pay card must be claimed before the next card is played")."""
    g = new_game("rummoli", hands={2: ["2C"] + HEARTS[1:]}, spare=["3C"])  # 2C is a stop: then the hearts
    asked = _play_rummoli_claiming(g, winner=2)
    assert [(seat, d["spaces"], d["chips"]) for seat, d in asked] == [
        (2, ["10H", "8-9-10"], 6),
        (2, ["JH"], 3),
        (2, ["QH"], 3),
        (2, ["KH", "k-q"], 6),
        (2, ["AH", "AH2"], 6),
    ]
    assert all(d["space"] == d["spaces"][0] for _, d in asked)
    won = {space for space, seat, _ in payouts(g) if seat == 2}
    assert {"10H", "8-9-10", "JH", "QH", "KH", "k-q", "AH", "AH2"} <= won


def test_rummoli_a_claim_with_nothing_to_take_is_not_asked():
    """A second 8-9-10 in one round finds the space empty: play goes on without a claim."""
    g = new_game("rummoli", hands={2: CLUBS[:9] + ["2D", "8S", "9S", "TS"]}, spare=["JC", "3D", "JS"])
    asked = _play_rummoli_claiming(g, winner=2)
    plays = [e["card"] for e in g.log[-1]["events"] if e["type"] == "play"]
    assert plays[-3:] == ["8S", "9S", "TS"], "the spades 8-9-10 was played too"
    assert [d["spaces"] for _, d in asked] == [["8-9-10"]], "only the clubs 8-9-10 had chips to claim"


def test_strict_claims_at_the_deal_one_claim_covers_a_players_whole_holding():
    g = new_game_swapping(
        hands={1: ["KH", "QH", "TH"]}, spare=["JH", "AH", "8C", "8D", "8H", "8S"], options={"strict_claims": True}
    )
    act(g, 0, "keep")
    aw = g.awaiting()
    assert (aw.seat, aw.phase, sorted(aw.detail["spaces"]), aw.detail["chips"]) == (
        1,
        "claim",
        ["10H", "KH", "QH", "k-q"],
        12,
    )
    act(g, 1, "pass")  # not claimed: every one of those spaces keeps its chips
    assert all(g.mat[space] == 3 for space in ("10H", "KH", "QH", "k-q"))
    assert g.awaiting() is None or g.awaiting().phase != "claim"


def test_rummoli_look_at_the_widow_means_keeping_it():
    g = new_game("rummoli", hands={0: CLUBS}, spare=DIAMONDS)
    aw = g.awaiting()
    assert aw.legal == ["keep", "swap", "look", "auction"]
    act(g, 0, "look")
    assert hand(g, 0) == set(DIAMONDS)
    assert g.awaiting().legal == ["keep", "auction"], "may auction the old hand"


def test_rummoli_auction_of_the_unseen_widow_with_no_bids_ends_the_step():
    g = new_game("rummoli", hands={0: CLUBS}, spare=DIAMONDS)
    act(g, 0, "auction")
    act(g, 1, "pass")
    act(g, 2, "pass")
    assert g.awaiting().phase == "poker-choose"


# ---------------------------------------------------------------- game end and board clearing
def _auto(g: Game) -> None:
    while (aw := g.awaiting()) is not None:
        if aw.phase == "spare-hand":
            act(g, aw.seat, "keep")
        elif aw.phase in ("auction", "suit-bid"):
            act(g, aw.seat, "pass")
        elif aw.phase == "poker-choose":
            act(g, aw.seat, "choose", cards=aw.detail["best"])
        elif aw.phase == "poker-betting":
            act(g, aw.seat, "check" if "check" in aw.legal else "call")
        elif aw.phase == "claim":
            act(g, aw.seat, "claim")
        elif aw.phase == "name-suit":
            act(g, aw.seat, "name_suit", suit="H")
        else:
            act(g, aw.seat, "lead", card=aw.detail["cards"][0])


def test_game_end_by_rounds_then_the_playoff_clears_the_board():
    g = Game.new("tripoley", ["a", "b", "c"], options={"game_end": "rounds:2"}, seed=5)
    for _ in range(2):
        g.next_deal()
        _auto(g)
    assert g.over and not g.finished and g.phase == "game-over"
    total = g.total_chips()
    assert sum(g.mat.values()) > 0
    deck = ["AS", "AD", "2C", "KS", "KD", "3C", "QS", "QD", "4C", "JS", "JD", "5C", "9S", "9D", "7H"]
    events = g.next_deal(deck)
    # a: AS KS QS JS 9S, b: AD KD QD JD 9D (tie, A K Q J 9), c: 2C 3C 4C 5C 7H.
    assert g.finished and sum(g.mat.values()) == 0 and g.total_chips() == total
    pay = [(e["seat"], e["amount"]) for e in events if e["type"] == "payout"]
    share = total - sum(g.stacks) + sum(a for _, a in pay)  # chips that were on the mat
    # the next dealer is seat 2, so the deal starts with seat 0: a and b tie
    assert [s for s, _ in pay] == [0, 1], "ties split; the odd chip to the first tied player from the dealer's left"
    assert pay[0][1] - pay[1][1] == share % 2


def test_michigan_interests_board_clearing_thirds_halves_and_the_kitty_until_clear():
    from tests.engine.deals import stack_deck

    g = Game.new(
        "tripoley",
        ["a", "b", "c"],
        options={"endgame": "michigan-interests", "spare_hand": "swap-or-auction"},
        dealer=0,
        seed=1,
    )
    g.next_deal(stack_deck(3, {}, [], 0))
    g.end_now()  # the round is abandoned before any pay card: 3 chips on each of the 9 spaces
    total = g.total_chips()
    assert all(v == 3 for v in g.mat.values())
    # Hand 1 (dealer seat 0 leads its lowest card and runs every club): each 8, 9, 10 placed earns a third
    # of 8-9-10; every space but K-Q and 8-9-10 went to the Kitty (21), which going out wins.
    g.next_deal(stack_deck(3, {0: CLUBS, 1: DIAMONDS, 2: SPADES}, HEARTS, 0))
    assert payouts(g) == [("8-9-10", 0, 1), ("8-9-10", 0, 1), ("8-9-10", 0, 1), ("kitty", 0, 21)]
    assert not [e for e in g.log[-1]["events"] if e["type"] == "transfer"], "no per-card payments"
    assert g.mat["k-q"] == 3 and g.phase == "game-over" and not g.finished, "K-Q not cleared: another hand"
    # Hand 2 (dealer seat 1 runs the hearts): Q and K of hearts each earn half of K-Q (2, then the last 1).
    g.next_deal(stack_deck(3, {1: HEARTS, 2: DIAMONDS, 0: SPADES}, CLUBS, 1))
    assert payouts(g) == [("k-q", 1, 2), ("k-q", 1, 1)]
    assert g.finished and sum(g.mat.values()) == 0 and g.total_chips() == total
    assert [rec.get("playoff") for rec in g.log] == [None, True, True]


def test_game_end_by_minutes_finishes_the_round_in_progress():
    now = [1000.0]
    g = Game.new(
        "tripoley", ["a", "b"], options={"game_end": "minutes:1", "endgame": "none"}, seed=1, clock=lambda: now[0]
    )
    g.next_deal()
    now[0] += 61
    assert not g.over, "the round in progress finishes"
    _auto(g)
    assert g.over and g.finished


def test_game_end_by_elimination():
    g = Game.new("tripoley", ["a", "b", "c"], options={"game_end": "elimination"}, stacks=[100, 9, 8], seed=2)
    g.next_deal()
    assert g.eliminated == [False, False, True], "c cannot pay the 9-chip ante: out of the game"
    _auto(g)
    while not g.over:
        g.next_deal()
        _auto(g)
    assert sum(1 for s in range(3) if not g.eliminated[s]) == 1, "the game ends when one player is left"
    last = g.eliminated.index(False)
    out_stacks = {s: g.stacks[s] for s in range(3) if s != last}
    while not g.finished:  # clearing the board: only the last player takes part
        g.next_deal()
        _auto(g)
    assert {s: g.stacks[s] for s in out_stacks} == out_stacks and g.stacks[last] == 117 - sum(out_stacks.values())
    assert sum(g.mat.values()) == 0


def test_elimination_the_player_out_takes_no_part_in_clearing_the_board():
    """Seat 1 (9 chips) antes its last chips and wins nothing; J♥ lies in the spare, so its space keeps 2
    chips. One player is left: seat 1 is eliminated in that round, and the board clearing is dealt to
    seat 0 alone, who takes the J♥ chips (docs/rules.md: "the game ends when one player is left")."""
    seat1 = [r + "C" for r in "23456789"] + [r + "D" for r in "23456789"] + ["2S", "3S"]
    seat0 = [c for c in HEARTS if c != "JH"] + ["TS", "JS", "QS", "KS", "AS"]
    g = new_game_swapping(
        n=2, hands={1: seat1, 0: seat0}, spare=["JH"], stacks=[100, 9], options={"game_end": "elimination"}
    )
    assert g.stacks == [91, 0]
    act(g, 0, "keep")
    act(g, 0, "choose", cards=["TH", "QH", "KH", "AH", "9H"])
    act(g, 1, "choose", cards=["2C", "3C", "4C", "5C", "7D"])
    ends = [e for e in g.log[-1]["events"] if e["type"] in ("out", "eliminated", "game-end")]
    assert ends == [
        {"type": "out", "seat": 0},
        {"type": "eliminated", "seat": 1},
        {"type": "game-end", "reason": "one player left"},
    ]
    assert g.stacks == [107, 0] and g.mat["JH"] == 2 and g.eliminated == [False, True]
    g.next_deal()  # the board clearing
    assert g.finished and g.playoff_result["winners"] == [0] and g.stacks == [109, 0]


def test_short_of_the_ante_sits_out_in_a_rounds_game():
    g = Game.new("tripoley", ["a", "b", "c"], stacks=[100, 100, 5], seed=2)
    g.next_deal()
    assert g.r.active == [1, 0] and g.view(2)["seats"][2]["status"] == "sitting-out"
    assert g.stacks[2] == 5 and g.r.hands[2] == []


def test_host_stop_mid_round_keeps_every_chip_and_clears_the_board():
    g = Game.new("tripoley", ["a", "b", "c"], seed=3)
    g.next_deal()
    total = g.total_chips()
    g.end_now()
    assert g.phase == "game-over"
    g.next_deal()
    assert g.finished and sum(g.mat.values()) == 0 and g.total_chips() == total


# ---------------------------------------------------------------- the Rulebook's mats
def test_rulebook_ante_escalates_and_the_dealer_doubles():
    g = Game.new("michigan-rummy", ["a", "b", "c"], dealer=0, seed=1)
    g.next_deal()
    assert g.stacks == [320 - 18, 320 - 9, 320 - 9]
    assert [g.options.ante_for_round(k) for k in (1, 5, 6, 10, 12)] == [1, 5, 10, 30, 30]


def test_rulebook_decks_by_player_count_and_the_cut_for_the_dealer():
    assert Game.new("michigan-rummy", [str(i) for i in range(5)], seed=1).n_decks == 1
    assert Game.new("michigan-rummy", [str(i) for i in range(6)], seed=1).n_decks == 2
    assert Game.new("michigan-rummy", [str(i) for i in range(15)], seed=1).n_decks == 3
    assert Game.new("michigan-rummy", [str(i) for i in range(20)], seed=1).n_decks == 4
    g = Game.new("michigan-rummy", ["a", "b", "c", "d"], seed=11)
    cuts = [e for e in g.game_events if e["type"] == "cut"]
    last = {int(s): C.parse(c) >> 2 for s, c in cuts[-1]["cards"].items()}
    assert g.dealer == max(last, key=last.get) and sorted(last.values())[-1] != sorted(last.values())[-2]


def test_rulebook_spare_hand_no_swap_with_a_money_card_and_no_bidder_holding_one():
    g = new_game(
        "michigan-rummy",
        hands={
            0: ["TH"] + CLUBS[:11] + ["2H"],
            1: ["JD", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "2S", "3S", "4S", "5S", "6S"],
            2: DIAMONDS[:6] + ["9D", "TD", "AD", "7S", "8S", "9S", "JS"],
        },
    )  # no whole 8-9-10: seat 2 may bid
    aw = g.awaiting()
    assert aw.legal == ["keep", "auction"], "the dealer holds 10♥: no blind swap"
    act(g, 0, "auction")
    assert g.awaiting().seat == 2, "seat 1 holds J♦ (a money card) and may not bid"


def test_rulebook_michigan_then_poker_with_the_whole_hand_and_leftovers_to_the_pot():
    g = new_game("tripoley-rulebook", hands={1: CLUBS, 2: DIAMONDS, 0: SPADES}, spare=HEARTS)
    # every hand holds a whole 8-9-10 (a money hand): no swap and no bidder, so no spare-hand decision
    rec = g.log[-1]
    assert rec["michigan"]["out"] == 1, "left of the dealer leads; seat 1 runs all its clubs and goes out"
    assert ("tripoley", 1, 9 + 9) not in payouts(g)
    moved = [e for e in rec["events"] if e["type"] == "move"]
    assert {e["from_space"] for e in moved} >= {"10H", "JH", "QH", "KH", "AH", "k-q"}
    assert all(e["to_space"] == "kitty" for e in moved), "leftovers go to the poker space (the Kitty here)"
    aw = g.awaiting()
    assert aw.phase == "poker-choose" and len(aw.detail["cards"]) == 13, "poker uses the whole dealt hand"


def test_rulebook_after_a_stop_a_chosen_suit_of_the_opposite_colour():
    g = new_game(
        "michigan-rummy",
        hands={1: ["2C", "3C", "5D", "7H", "9S", "TS", "JS", "QS", "KS", "AS", "6C", "7C", "8C"]},
        spare=["4C"],
    )
    act(g, 0, "keep")
    aw = g.awaiting()
    assert aw.seat == 1 and aw.phase == "michigan-lead"
    act(g, 1, "lead", card="2C")
    aw = g.awaiting()
    assert aw.seat == 1 and aw.detail["cards"] == ["5D", "7H"], "after the 3C stop: lowest of a red suit, chosen"


def test_rummy_royal_corner_ace_backed_and_collected():
    g = Game.new("rummy-royal", ["a", "b", "c"], dealer=0, seed=1)
    from tests.engine.deals import stack_deck

    g.next_deal(stack_deck(3, {1: ["AS"]}, [], 0))
    aw = g.awaiting()
    assert (aw.seat, aw.phase) == (0, "corner-bet")
    with pytest.raises(IllegalAction):
        act(g, 0, "corner_bet", ace="KS", amount=2)
    act(g, 0, "corner_bet", ace="AS", amount=5)
    act(g, 1, "cover")
    act(g, 2, "decline")
    act(g, 0, "keep")
    assert ("corner-AS", 1, 10) in payouts(g), "seat 1 holds the A♠ and covered the bet"


def test_rummy_royal_corner_stays_when_the_holder_did_not_back_it():
    g = Game.new("rummy-royal", ["a", "b", "c"], dealer=0, seed=1)
    from tests.engine.deals import stack_deck

    g.next_deal(stack_deck(3, {2: ["AS"]}, [], 0))
    act(g, 0, "corner_bet", ace="AS", amount=5)
    act(g, 1, "cover")
    act(g, 2, "decline")
    act(g, 0, "keep")
    assert g.mat["corner-AS"] == 10


def test_switching_the_mat_between_rounds_carries_the_chips_to_the_new_poker_space():
    g = Game.new("michigan-rummy", ["a", "b", "c"], dealer=0, seed=4)
    g.next_deal()
    _auto(g)
    total, left = g.total_chips(), sum(g.mat.values())
    with pytest.raises(ValueError, match="unknown preset"):
        g.switch_preset("no-such")
    g.switch_preset("tripoley-rulebook")
    assert g.mat["kitty"] == left and g.total_chips() == total
    g.next_deal()
    assert g.preset_key == "tripoley-rulebook" and g.awaiting() is not None


def test_replay_reports_an_illegal_action_with_its_index():
    data = json.loads((SCENARIOS / "stuck_tripoley.json").read_text())
    data["rounds"][0]["actions"][0] = {"seat": 1, "do": "keep"}
    from engine.replay import ReplayError

    with pytest.raises(ReplayError, match=r"^action 0 \(seat 1, keep\): not your turn"):
        run_replay(data)
