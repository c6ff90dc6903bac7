"""Invariants over every preset, player count, many seeds and both AI kinds.

- chips: ``total_chips()`` never changes, no stack or space goes negative
  (after every deal and every action, via ``engine.simulate.check_conservation``);
- cards: hands + spare + played are always exactly the decks in use;
- progress: mid-round the engine always waits for an active seat with at least one
  legal action; a ``rounds:N`` game finishes within a bounded number of actions and
  (with a board clearing) leaves the mat empty;
- ``check()`` refusing an action leaves the state untouched (``to_json()`` equal);
- the amounts/cards an ``Awaiting.detail`` offers are accepted by ``check()``;
- no view shows a card hidden from its viewer.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import PRESETS, Action, Game, IllegalAction
from engine import cards as C
from engine.ai import autoplay, choose_action
from engine.hands import evaluate
from engine.simulate import check_conservation

AIS = ("heuristic", "random")


def player_counts(preset: str) -> list[int]:
    p = PRESETS[preset]
    counts = list(range(max(2, p.min_players), min(9, p.max_players) + 1))
    if p.max_players > 9:  # Rulebook presets: several decks
        counts += [n for n in (10, 11, 15, 16, 20) if n <= p.max_players]
    return counts


CASES = [(p, n) for p in PRESETS for n in player_counts(p)]
CASE_IDS = [f"{p}-{n}p" for p, n in CASES]


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


# ---------------------------------------------------------------------------- conservation / progress


def _progress_checks(game: Game, total: int) -> None:
    check_conservation(game, total)
    aw = game.awaiting()
    if aw is None:
        assert game.phase in ("round-over", "game-over", "finished"), game.phase
        return
    r = game.r
    assert game.phase == aw.phase
    assert aw.legal, f"waiting for seat {aw.seat} in {aw.phase} with no legal action"
    assert aw.seat in r.active, f"waiting for seat {aw.seat}, not dealt in ({r.active})"
    assert game.current_player() == aw.seat
    assert game.legal_actions() == aw.legal


@pytest.mark.parametrize("ai", AIS)
@pytest.mark.parametrize("preset,n", CASES, ids=CASE_IDS)
def test_chips_cards_and_progress(preset: str, n: int, ai: str) -> None:
    rounds = 3
    for seed in range(6):
        game = Game.new(preset, names(n), options={"game_end": f"rounds:{rounds}"}, seed=seed * 101 + n)
        total = game.total_chips()
        actions = deals = 0
        for aw in autoplay(game, ai, random.Random(seed)):
            _progress_checks(game, total)
            if aw is None:
                deals += 1
                assert deals <= rounds + 1, "more deals than rounds + the board clearing"
            else:
                actions += 1
                assert actions <= 400 * rounds * n, "game does not finish"
        _progress_checks(game, total)
        assert game.total_chips() == total
        assert game.round_number <= rounds
        if game.round_number < rounds:  # ended early: fewer than two players could pay the ante
            assert any(e["type"] == "game-end" and "ante" in e.get("reason", "") for e in game.game_events)
        if PRESETS[preset].options.endgame != "none":
            assert sum(game.mat.values()) == 0, f"board not cleared at the end: {game.mat}"
        assert game.awaiting() is None and game.phase == "finished"
        with pytest.raises(IllegalAction):
            game.next_deal()


SHORT_STACKS = [
    {"start_stack": 14, "game_end": "rounds:6"},  # players sit out, all-ins, side pots
    {"start_stack": 30, "game_end": "elimination", "bet_limit": 7},
    {"start_stack": 60, "game_end": "rounds:3", "bet_limit": 3, "endgame": "none"},
]
SHORT_IDS = ["short-stacks", "elimination", "no-endgame"]
DOUBLE_ANTE = [p for p in PRESETS if PRESETS[p].options.dealer_double_ante]


def _short_stack_games(preset: str, ai: str, opts: dict) -> None:
    for n in (2, 4, 7):
        for seed in range(4):
            game = Game.new(preset, names(n), options=opts, seed=seed)
            total = game.total_chips()
            for step, _ in enumerate(autoplay(game, ai, random.Random(seed))):
                assert step < 80000, "game does not finish"
                _progress_checks(game, total)
            _progress_checks(game, total)
            if opts.get("endgame") == "none":
                assert game.finished
            else:
                assert sum(game.mat.values()) == 0, game.mat


@pytest.mark.parametrize("ai", AIS)
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("opts", SHORT_STACKS, ids=SHORT_IDS)
def test_conservation_with_short_stacks(preset: str, ai: str, opts: dict) -> None:
    _short_stack_games(preset, ai, opts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, PRESETS["great-lakes"].max_players),
    seed=st.integers(0, 2**31),
    ai=st.sampled_from(AIS),
    strict=st.booleans(),
)
def test_great_lakes_with_several_decks_and_claims_keeps_every_chip(n: int, seed: int, ai: str, strict: bool) -> None:
    """Great Lakes deals 1-4 decks, so a Full House may hold two copies of a money card; with
    strict claims every claim is checked too (the mix a table with a tight bet limit plays)."""
    opts = {"strict_claims": strict, "bet_limit": 1, "game_end": "rounds:3"}
    game = Game.new("great-lakes", names(n), options=opts, seed=seed)
    total = game.total_chips()
    for _ in autoplay(game, ai, random.Random(seed)):
        _progress_checks(game, total)
    _progress_checks(game, total)
    assert game.finished


@pytest.mark.parametrize("preset", DOUBLE_ANTE)
def test_awaited_seat_is_dealt_in_when_dealer_cannot_pay_double_ante(preset: str) -> None:
    """Regression: nobody can pay the dealer's double ante; the seat asked to act must be dealt in."""
    game = Game.new(preset, names(4), options={"start_stack": 14}, dealer=2, seed=1)
    game.next_deal()
    rng = random.Random(0)
    while (aw := game.awaiting()) is not None:
        assert aw.seat in game.r.active, f"seat {aw.seat} sits out ({game.r.active}) but is asked to {aw.phase}"
        # corner bets come before the deal; Rulebook poker (after Michigan) uses the whole dealt hand
        if aw.phase not in ("corner-bet", "corner-cover") and not aw.phase.startswith("poker"):
            assert game.r.hands[aw.seat], f"seat {aw.seat} has no cards but is asked to {aw.phase}"
        game.apply(choose_action(game, aw.seat, "random", rng))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_end_now_keeps_every_chip(preset: str) -> None:
    for seed in range(8):
        game = Game.new(preset, names(5), options={"game_end": "rounds:4"}, seed=seed)
        total = game.total_chips()
        rng = random.Random(seed)
        stop_after = rng.randrange(1, 120)
        k = 0
        for aw in autoplay(game, "random", rng):
            if aw is not None:
                if k == stop_after:
                    break
                k += 1
        if game.finished:
            continue
        stacks, mat = list(game.stacks), dict(game.mat)
        game.end_now()
        assert game.stacks == stacks and game.mat == mat, "end_now moved chips"
        assert game.awaiting() is None
        if not game.finished:
            game.next_deal()  # the board clearing
        assert game.finished
        assert game.total_chips() == total
        assert sum(game.mat.values()) == 0


# ---------------------------------------------------------------------------- illegal actions


_VERBS = [
    "keep",
    "swap",
    "auction",
    "bid",
    "pass",
    "look",
    "claim",
    "suit_bid",
    "name_suit",
    "corner_bet",
    "cover",
    "decline",
    "choose",
    "check",
    "bet",
    "call",
    "raise",
    "fold",
    "lead",
    "play",
    "full_house",
    "straight",
    "reveal",
    "pass_cards",
]
_AMOUNT_VERBS = ("bid", "suit_bid", "bet", "raise")


def _illegal_actions(game: Game, rng: random.Random) -> list[Action]:
    """Actions the rules must refuse right now."""
    aw = game.awaiting()
    r = game.r
    n = game.n
    out = [Action(seat=(aw.seat + k) % n, do=aw.legal[0]) for k in range(1, n)]
    out += [Action(seat=n, do=aw.legal[0]), Action(seat=-1, do=aw.legal[0])]
    out += [Action(seat=aw.seat, do=v) for v in _VERBS if v not in aw.legal]
    out.append(Action(seat=aw.seat, do="fly_away"))
    d = aw.detail
    for verb in aw.legal:
        if verb in _AMOUNT_VERBS:
            out += [
                Action(seat=aw.seat, do=verb),
                Action(seat=aw.seat, do=verb, amount=0),
                Action(seat=aw.seat, do=verb, amount=-3),
            ]
            if "max" in d:
                out.append(Action(seat=aw.seat, do=verb, amount=d["max"] + 1))
            if verb in ("bet", "raise"):
                out.append(Action(seat=aw.seat, do=verb, amount=game.options.bet_limit + 1))
            if verb in ("bid", "suit_bid") and d.get("min", 1) > 1:
                out.append(Action(seat=aw.seat, do=verb, amount=d["min"] - 1))
    mine = set(r.hands[aw.seat])
    foreign = [c for s in range(n) if s != aw.seat for c in r.hands[s] if c not in mine]
    foreign += [c for c in r.spare if c not in mine]
    if "choose" in aw.legal:
        hand = C.to_strs(r.hands[aw.seat])
        out += [
            Action(seat=aw.seat, do="choose"),
            Action(seat=aw.seat, do="choose", cards=hand[:4]),
            Action(seat=aw.seat, do="choose", cards=hand[:6] if len(hand) >= 6 else hand + ["ZZ"]),
            Action(seat=aw.seat, do="choose", cards=["XX", *hand[:4]]),
        ]
        if len(hand) >= 5:
            out.append(Action(seat=aw.seat, do="choose", cards=[hand[0]] * 5))
            if foreign:
                out.append(Action(seat=aw.seat, do="choose", cards=hand[:4] + [C.to_str(rng.choice(foreign))]))
    if "lead" in aw.legal:
        allowed = set(d.get("cards", []))
        bad = [c for c in C.to_strs(r.hands[aw.seat]) if c not in allowed]
        out += [Action(seat=aw.seat, do="lead"), Action(seat=aw.seat, do="lead", card="1Z")]
        if bad:
            out.append(Action(seat=aw.seat, do="lead", card=rng.choice(bad)))
        if foreign:
            out.append(Action(seat=aw.seat, do="lead", card=C.to_str(rng.choice(foreign))))
    for verb in ("full_house", "straight"):
        if verb in aw.legal:
            offered = d.get(verb, [])
            hand = C.to_strs(r.hands[aw.seat])
            out += [Action(seat=aw.seat, do=verb), Action(seat=aw.seat, do=verb, cards=hand[:2])]
            if foreign and offered:
                out.append(Action(seat=aw.seat, do=verb, cards=offered[0][:-1] + [C.to_str(foreign[0])]))
    if "pass_cards" in aw.legal:
        hand = d["cards"]
        out += [Action(seat=aw.seat, do="pass_cards"), Action(seat=aw.seat, do="pass_cards", cards=hand[:2])]
        if foreign:
            out.append(Action(seat=aw.seat, do="pass_cards", cards=hand[:2] + [C.to_str(foreign[0])]))
    if "reveal" in aw.legal:
        hand = d["cards"]
        space = (d.get("spaces") or ["pot"])[0]
        out += [
            Action(seat=aw.seat, do="reveal", cards=hand[:4], space=space),
            Action(seat=aw.seat, do="reveal", cards=hand[:5], space="no-such-space"),
        ]
        if foreign:
            out.append(Action(seat=aw.seat, do="reveal", cards=hand[:4] + [C.to_str(foreign[0])], space=space))
    if "corner_bet" in aw.legal:
        out += [
            Action(seat=aw.seat, do="corner_bet", ace="KS", amount=1),
            Action(seat=aw.seat, do="corner_bet", ace=d["aces"][0], amount=0),
            Action(seat=aw.seat, do="corner_bet", ace=d["aces"][0], amount=d["max"] + 1),
        ]
    if "name_suit" in aw.legal:
        out += [Action(seat=aw.seat, do="name_suit"), Action(seat=aw.seat, do="name_suit", suit="X")]
    return out


def _refuse(game: Game, action: Action) -> None:
    with pytest.raises(IllegalAction) as exc:
        game.check(action)
    msg = str(exc.value)
    assert msg.strip() and "\n" not in msg, f"an IllegalAction needs a one-line message, got {msg!r}"
    with pytest.raises(IllegalAction):
        game.apply(action)


def _assert_all_refused(game: Game, actions: list[Action]) -> None:
    """Each action raises IllegalAction from check() and apply(); the state stays exactly the same."""
    before = game.to_json()
    history = len(game.history)
    for action in actions:
        _refuse(game, action)
    if game.to_json() != before or len(game.history) != history:
        for action in actions:  # find the culprit on a fresh copy
            copy = Game.from_json(before)
            _refuse(copy, action)
            assert copy.to_json() == before, f"refused {action.describe()} changed the state"
        raise AssertionError("refused actions changed the state")


@pytest.mark.parametrize("ai", AIS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_illegal_actions_are_refused_without_effect(preset: str, ai: str) -> None:
    phases_seen: set[str] = set()
    for n in (2, 4, 9):
        for seed in range(2):
            game = Game.new(preset, names(n), options={"game_end": "rounds:2"}, seed=seed + 17 * n)
            rng = random.Random(seed)
            k = 0
            for aw in autoplay(game, ai, rng):
                if aw is None:
                    _assert_all_refused(game, [Action(seat=0, do="check"), Action(seat=1, do="keep")])
                    continue
                k += 1
                if aw.phase not in phases_seen or k % 23 == 0:
                    phases_seen.add(aw.phase)
                    _assert_all_refused(game, _illegal_actions(game, rng))
                    with pytest.raises(IllegalAction):
                        game.next_deal()
            _assert_all_refused(game, [Action(seat=0, do="check")])
    assert {"poker-choose", "poker-betting"} <= phases_seen


@pytest.mark.parametrize("preset", list(PRESETS))
def test_offered_amounts_and_cards_are_accepted(preset: str) -> None:
    """Whatever ``Awaiting.detail`` offers (min/max amounts, cards to lead, best five) passes ``check``."""
    for n in (2, 4, 8):
        for seed in range(4):
            game = Game.new(preset, names(n), options={"game_end": "rounds:2"}, seed=seed)
            rng = random.Random(seed)
            for aw in autoplay(game, "random", rng):
                if aw is None:
                    continue
                d = aw.detail
                for verb in aw.legal:
                    if verb == "corner_bet":
                        for ace in d["aces"]:
                            game.check(Action(seat=aw.seat, do=verb, ace=ace, amount=d["min"]))
                            game.check(Action(seat=aw.seat, do=verb, ace=ace, amount=d["max"]))
                    elif verb in _AMOUNT_VERBS and d.get("min", 1) <= d.get("max", 0):
                        game.check(Action(seat=aw.seat, do=verb, amount=d["min"]))
                        game.check(Action(seat=aw.seat, do=verb, amount=d["max"]))
                        if verb in ("bet", "raise"):
                            assert d["max"] <= game.options.bet_limit
                    elif verb == "lead":
                        for card in d["cards"]:
                            game.check(Action(seat=aw.seat, do="lead", card=card))
                    elif verb == "choose":
                        game.check(Action(seat=aw.seat, do="choose", cards=d["best"]))
                        game.check(Action(seat=aw.seat, do="choose", cards=rng.sample(d["cards"], 5)))
                    elif verb == "name_suit":
                        for suit in d["suits"]:
                            game.check(Action(seat=aw.seat, do="name_suit", suit=suit))
                    elif verb in ("full_house", "straight"):
                        for cards in d[verb]:
                            game.check(Action(seat=aw.seat, do=verb, cards=cards))
                    elif verb == "pass_cards":
                        game.check(Action(seat=aw.seat, do=verb, cards=rng.sample(d["cards"], d["count"])))
                    elif verb == "reveal":
                        pass  # whether any five may be declared on any space is the rules' business
                    elif verb not in _AMOUNT_VERBS:
                        game.check(Action(seat=aw.seat, do=verb))


# ---------------------------------------------------------------------------- hidden cards

# Space ids like "AH" are not cards; nor is the Ace named by a (public) Rummy Royal corner bet, nor the
# list of Wanagan's wild cards (K♥ 10♦ 7♠ 4♣ in round 4: a rule, not a hand).
_EXEMPT_KEYS = {"id", "space", "from_space", "to_space", "label", "kind", "ace", "aces", "wild"}
_CARD_RE = re.compile(r"^(?:[2-9TJQKA]|10)[CDHS]$")


def card_strings(obj: Any, key: str | None = None) -> set[str]:
    """Every card-looking string in a view (values and free-text tokens), outside space-id fields."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if _CARD_RE.match(str(k)):
                found.add(str(k))
            if k in _EXEMPT_KEYS:
                continue
            found |= card_strings(v, k)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= card_strings(v, key)
    elif isinstance(obj, str):
        for tok in re.split(r"[\s,;:()\[\]]+", obj):
            if _CARD_RE.match(tok):
                found.add(C.to_str(C.parse(tok)))
    return found


def public_cards(game: Game) -> set[str]:
    """What every player has seen face up, derived from the rules (not from the engine's view):
    cards placed in Michigan; after a showdown (two or more players still in), their five cards;
    the five cards each player reveals in a Wanagan reveal round."""
    r = game.r
    out = set(C.to_strs(r.michigan.played))
    for e in r.events:
        if e["type"] == "reveal":
            for shown in e["hands"].values():
                out |= set(shown["cards"])
    if r.poker.winners:  # poker is over
        live = [s for s in r.active if not r.poker.folded[s]]
        if len(live) > 1:
            for s in live:
                out |= set(C.to_strs(r.poker.chosen[s]))
    return out


def assert_views_hide_cards(game: Game) -> None:
    r = game.r
    if r is None:
        return
    public = public_cards(game)
    for viewer in [None, *range(game.n)]:
        view = game.view(viewer)
        json.dumps(view)  # JSON-able
        own = set(C.to_strs(r.hands[viewer])) if viewer is not None else set()
        hidden = {C.to_str(c) for s in range(game.n) if s != viewer for c in r.hands[s]}
        hidden |= set(C.to_strs(r.spare))
        hidden -= public | own
        leaked = card_strings(view) & hidden
        assert not leaked, f"view({viewer}) in {game.phase} shows hidden cards {sorted(leaked)}"


@pytest.mark.parametrize("ai", AIS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_views_never_show_hidden_cards(preset: str, ai: str) -> None:
    for n in (2, 4, 9):
        for seed in range(2):
            game = Game.new(preset, names(n), options={"game_end": "rounds:2"}, seed=seed * 13 + n)
            previous = None
            for step, aw in enumerate(autoplay(game, ai, random.Random(seed))):
                if previous is None or aw is None or step % 3 == seed % 3:
                    assert_views_hide_cards(game)  # after a deal, before one, and every third step
                previous = aw
            assert_views_hide_cards(game)


def test_card_strings_helper() -> None:
    view = {
        "mat": [{"id": "AH", "label": "A♥"}],
        "hand": ["TH", "2C"],
        "x": "bob leads 10D",
        "events": [{"type": "payout", "space": "KH"}],
    }
    assert card_strings(view) == {"TH", "2C", "TD"}


# ---------------------------------------------------------------------------- rules audit of whole rounds
#
# After each round the log and the round's events are checked against the rules, recomputed here from
# the cards: a seat's hand at any moment is its final hand plus the cards it placed from then on.

_FIRST_LEAD = {
    "lowest-card": ("lowest", None, False),
    "lowest-of-chosen-suit": ("chosen", None, False),
    "low-black": ("lowest", "black", False),
}
_AFTER_STOP = {
    "lowest-other-suit": ("lowest", None, True),
    "chosen-other-suit": ("chosen", None, True),
    "chosen-opposite-colour": ("chosen", "opposite", False),
    "low-opposite-colour": ("lowest", "opposite", False),
}


def _candidates(hand: list[int], colour: str | None, exclude: int | None) -> list[int]:
    out = [c for c in hand if exclude is None or c & 3 != exclude]
    if colour is not None:
        out = [c for c in out if C.is_red(c) == (colour == "red")]
    return out


def _audit_michigan(game: Game) -> None:
    r = game.r
    opts = game.options
    played: list[tuple[int, int]] = [(e["seat"], C.parse(e["card"])) for e in r.events if e["type"] == "play"]
    assert [c for _, c in played] == r.michigan.played

    def hand_at(seat: int, t: int) -> list[int]:
        return list(r.hands[seat]) + [c for s, c in played[t:] if s == seat]

    kind, colour, _ = _FIRST_LEAD[opts.first_lead]
    exclude = None
    t = 0
    for e in r.events:
        typ = e["type"]
        if typ == "play":
            seat, card = played[t]
            if e["how"] == "lead":
                cands = _candidates(hand_at(seat, t), colour, exclude)
                assert card in cands, f"lead {C.to_str(card)} breaks the lead rule ({kind}, {colour}, not {exclude})"
                if kind == "lowest":
                    assert card >> 2 == min(c >> 2 for c in cands), f"lead {C.to_str(card)} is not the lowest"
                else:
                    assert card == min(c for c in cands if c & 3 == card & 3), f"{C.to_str(card)} not lowest of suit"
            else:
                assert e["how"] == "follow", e
                prev = played[t - 1][1]
                assert prev >> 2 != C.ACE and card == prev + 4, f"{C.to_str(card)} does not follow {C.to_str(prev)}"
            t += 1
        elif typ == "stop":
            card = C.parse(e["card"])
            assert played[t - 1][1] == card
            if card >> 2 != C.ACE:
                nxt = card + 4
                assert not any(nxt in hand_at(s, t) for s in r.active), f"stop at {e['card']} but the next is held"
            kind, colour, excl = _AFTER_STOP[opts.after_stop]
            if colour == "opposite":
                colour = "black" if C.is_red(card) else "red"
            exclude = card & 3 if excl else None
        elif typ == "cannot-lead":
            assert not _candidates(hand_at(e["seat"], t), colour, exclude), f"seat {e['seat']} could lead"
        elif typ == "colour-flip":
            colour = e["colour"]
    rec = game.log[-1]["michigan"]
    if rec is None:
        return
    assert rec["order"] == C.to_strs(r.michigan.played)
    if rec["out"] is not None:
        w = rec["out"]
        assert r.hands[w] == [], "the player who went out still holds cards"
        others = [s for s in r.active if s != w]
        assert all(r.hands[s] for s in others) or not others
        pays = {
            e["from_seat"]: e["amount"] for e in r.events if e["type"] == "transfer" and e.get("reason") == "cards left"
        }
        if opts.out_payment == "per-card-to-winner":
            for s in others:
                assert pays.get(s, 0) <= len(r.hands[s])
                assert pays.get(s, 0) == len(r.hands[s]) or game.stacks[s] == 0 or pays.get(s, 0) > 0
    else:
        assert rec["stuck"]


def _audit_poker(game: Game) -> None:
    r = game.r
    rec = game.log[-1]["poker"]
    if rec is None:
        return
    lim = game.options.bet_limit
    for e in r.events:
        if e["type"] in ("bet", "raise"):
            assert 1 <= e["amount"] <= lim, f"{e['type']} {e['amount']} over bet_limit {lim}"
    live = [s for s in r.active if not r.poker.folded[s]]
    pot_winners = {
        e["seat"]
        for e in r.events
        if e["type"] == "payout" and e["space"] == game.pot_id and e.get("reason") == "poker"
    }
    assert pot_winners <= set(live), "a folded or absent seat won poker chips"
    if len(live) > 1:
        values = {s: evaluate(r.poker.chosen[s]) for s in live}
        best = max(values.values())
        assert sorted(rec["winners"]) == sorted(s for s in live if values[s] == best)
        # betting closed with everyone still in having matched the bet, or all in
        top = max(r.poker.committed[s] for s in live)
        all_in = {e["seat"] for e in r.events if e["type"] in ("call", "bet", "raise") and e.get("all_in")}
        for s in live:
            assert r.poker.committed[s] == top or s in all_in or r.poker.committed[s] < top and game.stacks[s] >= 0
    else:
        assert rec["winners"] == live


def _audit_paycards_at_deal(game: Game) -> None:
    r = game.r
    if game.options.paycards != "deal" or game.options.strict_claims or game.n_decks != 1:
        return
    dealt = {
        s: list(r.hands[s]) + [c for c, b in zip(r.michigan.played, r.michigan.played_by) if b == s] for s in r.active
    }
    held = {}
    for e in r.events:
        if e["type"] == "payout" and e.get("reason") == "held":
            held.setdefault(e["space"], []).append((e["seat"], e["amount"]))
    suit = C.SUITS[r.pay_suit]
    for sp in game.spaces:
        got = held.get(sp.id, [])
        if sp.trigger in ("card", "combo"):
            need = [C.parse(t.replace("*", suit)) for t in sp.cards]
            holders = [s for s in r.active if all(c in dealt[s] for c in need)]
            assert [s for s, _ in got] == holders, f"{sp.id}: paid {got}, holders {holders}"
        elif sp.trigger == "run":
            holders = [
                s for s in r.active if any(all(C.make(rk, su) in dealt[s] for rk in sp.ranks) for su in range(4))
            ]
            assert sorted(s for s, _ in got) == sorted(holders), f"{sp.id}: paid {got}, holders {holders}"
            assert len({a for _, a in got}) <= 1, f"{sp.id} split unevenly: {got}"


AUDITED = [p for p in PRESETS if "michigan" in PRESETS[p].order and "great-lakes" != p]


@pytest.mark.parametrize("ai", AIS)
@pytest.mark.parametrize("preset", AUDITED)
def test_rounds_follow_the_rules(preset: str, ai: str) -> None:
    audited = 0
    for n in (2, 3, 4, 5):
        for seed in range(5):
            game = Game.new(preset, names(n), options={"game_end": "rounds:3"}, seed=seed * 7 + n)
            previous = None
            for aw in itertools.chain(autoplay(game, ai, random.Random(seed)), [None]):  # None: the last round ended
                if aw is None and previous is not None:  # an action ended the round
                    _audit_michigan(game)
                    _audit_poker(game)
                    _audit_paycards_at_deal(game)
                    audited += 1
                previous = aw
    assert audited >= 40
