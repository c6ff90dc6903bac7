"""``python -m engine replay FILE`` (docs/replay.md) on handcrafted games, worked out by hand."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import PRESETS, Game
from engine import cards as C
from engine.ai import choose_action
from engine.replay import ReplayError, run_replay

REPO = Path(__file__).resolve().parents[2]

CLUBS_2_8 = ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]
DIAMONDS_2_6 = ["2D", "3D", "4D", "5D", "6D"]

# Round 1 of the worked example (3 players, dealer seat 0: the deal goes seat 1, seat 2, seat 0, spare).
#  seat 0: clubs 2-8, diamonds 2-6, A♥      → A♥ space; poker 4-8♣ straight flush; Michigan: leads 2♣,
#          runs to 8♣ (9♣ is in the spare: stop), must lead 2♦ (lowest other suit), runs to 6♦ (7♦ in the
#          spare: stop), leads A♥ (stop) and is out.
#  seat 1: 10♥ J♥, spades 2-5 and 8-A      → 10♥, J♥, half of 8-9-10; poker royal flush.
#  seat 2: Q♥ K♥, 8-9-10♦, hearts 2-9       → Q♥, K♥, K-Q, half of 8-9-10.
HANDS_R1 = {
    0: CLUBS_2_8 + DIAMONDS_2_6 + ["AH"],
    1: ["TH", "JH", "2S", "3S", "4S", "5S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    2: ["QH", "KH", "8D", "9D", "TD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
}
SPARE_R1 = ["9C", "7D", "TC", "JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD", "6S", "7S"]

ACTIONS_R1 = [
    {"seat": 0, "do": "keep"},
    {"seat": 0, "do": "choose", "cards": ["4C", "5C", "6C", "7C", "8C"]},
    {"seat": 1, "do": "choose", "cards": ["TS", "JS", "QS", "KS", "AS"]},
    {"seat": 2, "do": "choose", "cards": ["5H", "6H", "7H", "8H", "9H"]},
    {"seat": 0, "do": "bet", "amount": 5},
    {"seat": 1, "do": "raise", "amount": 10},
    {"seat": 2, "do": "fold"},
    {"seat": 0, "do": "call"},
    {"seat": 0, "do": "lead", "card": "2C"},
]


def deck_for(hands: dict[int, list[str]], spare: list[str], dealer: int, n: int = 3) -> list[str]:
    """Top card first: one card at a time from the dealer's left, the spare right after the dealer."""
    order = [(dealer + k) % n for k in range(1, n + 1)]
    slots = [hands[s] for s in order] + [spare]
    assert all(len(s) == len(slots[0]) for s in slots)
    deck = [slots[i % len(slots)][i // len(slots)] for i in range(52)]
    assert sorted(deck) == sorted(C.to_strs(C.full_deck()))
    return deck


def game_file(**over) -> dict:
    data = {
        "preset": "tripoley",
        "options": {},
        "players": ["ann", "bob", "cat"],
        "stacks": [100, 100, 100],
        "dealer": 0,
        "rounds": [{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": list(ACTIONS_R1)}],
    }
    data.update(over)
    # the worked example keeps the spare hand: the Overview's flow, a house rule of `tripoley`
    data["options"] = {"spare_hand": "swap-or-auction", **data["options"]}
    return data


def replay(tmp_path: Path, data: dict, *extra: str) -> subprocess.CompletedProcess:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path), *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_deck_helper_deals_as_specified() -> None:
    g = Game.new("tripoley", ["a", "b", "c"], dealer=0, seed=0)
    g.next_deal(deck_for(HANDS_R1, SPARE_R1, 0))
    for seat, cards in HANDS_R1.items():
        assert sorted(C.to_strs(g.r.hands[seat])) == sorted(cards)
    assert sorted(C.to_strs(g.r.spare)) == sorted(SPARE_R1)


def test_full_round_of_tripoley(tmp_path: Path) -> None:
    proc = replay(tmp_path, game_file())
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    # ante 9 each (1 on 9 spaces) → 91; pay cards: seat 0 A♥ (+3) → 94; seat 1 10♥ J♥ + 1 of 8-9-10 → 98;
    # seat 2 Q♥ K♥ K-Q + 1 of 8-9-10 → 101 (the odd chip stays on 8-9-10). Poker: 0 bets 5, 1 raises 10
    # (puts in 15), 2 folds, 0 calls 10; pot 3 + 30 = 33 to seat 1 (royal flush) → 0: 79, 1: 116.
    # Michigan: seat 0 goes out; 1 and 2 pay one chip per card left (13 each) → 0: 105, 1: 103, 2: 88;
    # seat 0 takes the Kitty (3) → 108.
    assert out["stacks"] == [108, 103, 88]
    assert out["mat"] == {"10H": 0, "JH": 0, "QH": 0, "KH": 0, "AH": 0, "k-q": 0, "8-9-10": 1, "kitty": 0, "pot": 0}
    assert sum(out["stacks"]) + sum(out["mat"].values()) == 300
    assert out["finished"] is False
    assert out["awaiting"]["seat"] is None and out["awaiting"]["legal"] == []
    [rnd] = out["rounds"]
    assert rnd["dealer"] == 0
    assert rnd["payouts"] == [
        {"space": "10H", "seat": 1, "amount": 3},
        {"space": "JH", "seat": 1, "amount": 3},
        {"space": "QH", "seat": 2, "amount": 3},
        {"space": "KH", "seat": 2, "amount": 3},
        {"space": "AH", "seat": 0, "amount": 3},
        {"space": "k-q", "seat": 2, "amount": 3},
        {"space": "8-9-10", "seat": 1, "amount": 1},
        {"space": "8-9-10", "seat": 2, "amount": 1},
        {"space": "pot", "seat": 1, "amount": 33},
        {"space": "kitty", "seat": 0, "amount": 3},
    ]
    assert rnd["poker"]["winners"] == [1]
    assert rnd["poker"]["hands"] == {"0": "straight flush", "1": "royal flush"}
    assert rnd["michigan"]["out"] == 0
    assert rnd["michigan"]["order"] == CLUBS_2_8 + DIAMONDS_2_6 + ["AH"]
    # the events audit every chip: replaying them from the start stacks gives the outcome
    stacks = [100, 100, 100]
    mat = {k: 0 for k in out["mat"]}
    for e in rnd["events"]:
        t = e["type"]
        if t == "ante" or t == "to_space":
            stacks[e["seat"]] -= e["amount"]
            mat[e["space"]] += e["amount"]
        elif t == "payout":
            mat[e["space"]] -= e["amount"]
            stacks[e["seat"]] += e["amount"]
        elif t == "transfer":
            stacks[e["from_seat"]] -= e["amount"]
            stacks[e["to_seat"]] += e["amount"]
        elif t == "move":
            mat[e["from_space"]] -= e["amount"]
            mat[e["to_space"]] += e["amount"]
    assert stacks == out["stacks"] and mat == out["mat"]
    played = [e["card"] for e in rnd["events"] if e["type"] == "play"]
    assert played == rnd["michigan"]["order"]
    transfers = [(e["from_seat"], e["to_seat"], e["amount"]) for e in rnd["events"] if e["type"] == "transfer"]
    assert transfers == [(1, 0, 13), (2, 0, 13)]


def test_illegal_raise_exits_2_with_one_line(tmp_path: Path) -> None:
    actions = list(ACTIONS_R1)
    actions[5] = {"seat": 1, "do": "raise", "amount": 30}
    proc = replay(tmp_path, game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}]))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == "action 5 (seat 1, raise 30): raise exceeds bet_limit 20"
    assert len(proc.stderr.strip().splitlines()) == 1


def test_bet_limit_option_is_used(tmp_path: Path) -> None:
    actions = list(ACTIONS_R1)
    actions[4] = {"seat": 0, "do": "bet", "amount": 12}
    data = game_file(options={"bet_limit": 10}, rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}])
    proc = replay(tmp_path, data)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "action 4 (seat 0, bet 12): bet exceeds bet_limit 10"


def test_wrong_seat_exits_2(tmp_path: Path) -> None:
    actions = list(ACTIONS_R1)
    actions[2] = {"seat": 2, "do": "choose", "cards": ["5H", "6H", "7H", "8H", "9H"]}
    proc = replay(tmp_path, game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}]))
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1
    assert line.startswith("action 2 (seat 2, choose 5H 6H 7H 8H 9H): ")
    assert "seat 1" in line  # names the seat the engine waits for


def test_wrong_verb_and_foreign_card_exit_2() -> None:
    actions = list(ACTIONS_R1)
    actions[0] = {"seat": 0, "do": "fold"}
    with pytest.raises(ReplayError, match=r"^action 0 \(seat 0, fold\): "):
        run_replay(game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}]))
    actions = list(ACTIONS_R1)
    actions[1] = {"seat": 0, "do": "choose", "cards": ["4C", "5C", "6C", "7C", "AS"]}
    with pytest.raises(ReplayError, match=r"^action 1 \(seat 0, choose 4C 5C 6C 7C AS\): .*AS"):
        run_replay(game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}]))
    actions = list(ACTIONS_R1)
    actions[8] = {"seat": 0, "do": "lead", "card": "3C"}
    with pytest.raises(ReplayError, match=r"^action 8 \(seat 0, lead 3C\): "):
        run_replay(game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": actions}]))


def test_bad_deck_exits_2(tmp_path: Path) -> None:
    deck = deck_for(HANDS_R1, SPARE_R1, 0)
    deck[0] = deck[1]
    proc = replay(tmp_path, game_file(rounds=[{"deck": deck, "actions": []}]))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1


def test_actions_running_out_report_awaiting(tmp_path: Path) -> None:
    proc = replay(tmp_path, game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": ACTIONS_R1[:5]}]))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    aw = out["awaiting"]
    assert aw["seat"] == 1 and aw["phase"] == "poker-betting"
    assert sorted(aw["legal"]) == ["call", "fold", "raise"]
    assert out["finished"] is False
    assert out["stacks"] == [89, 98, 101]  # after antes, pay cards and seat 0's bet of 5
    assert out["mat"]["pot"] == 8
    assert sum(out["stacks"]) + sum(out["mat"].values()) == 300
    # no actions at all: the dealer's spare-hand decision is awaited
    out = json.loads(
        replay(tmp_path, game_file(rounds=[{"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": []}])).stdout
    )
    assert out["awaiting"]["seat"] == 0 and out["awaiting"]["phase"] == "spare-hand"
    assert set(out["awaiting"]["legal"]) == {"keep", "swap", "auction"}


def test_trace_prints_one_json_line_per_event(tmp_path: Path) -> None:
    proc = replay(tmp_path, game_file(), "--trace")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    lines = proc.stderr.strip().splitlines()
    events = [json.loads(line) for line in lines]
    assert all(isinstance(e, dict) and "type" in e for e in events)
    expected = out.get("events", []) + [e for r in out["rounds"] for e in r["events"]]
    assert sorted(map(json.dumps, events)) == sorted(map(json.dumps, expected))
    assert [e for e in events if e["type"] != "cut"] == [e for r in out["rounds"] for e in r["events"]]
    no_trace = replay(tmp_path, game_file())
    assert no_trace.stderr == "" and json.loads(no_trace.stdout) == out


def test_trace_includes_game_level_events_raised_by_a_deal() -> None:
    """`eliminated` is raised while the deal seats the players: it is traced too, before the round."""
    import io

    trace = io.StringIO()
    out = run_replay(
        {
            "preset": "tripoley",
            "players": ["a", "b", "c"],
            "stacks": [100, 100, 8],
            "options": {"game_end": "elimination"},
            "dealer": 0,
            "rounds": [{"deck": C.to_strs(C.full_deck()), "actions": []}],
        },
        trace=trace,
    )
    traced = [json.loads(line) for line in trace.getvalue().splitlines()]
    assert out["events"] == [{"type": "eliminated", "seat": 2}]
    assert traced[0] == {"type": "eliminated", "seat": 2} and traced[1]["type"] == "round-start"
    assert traced[1:] == out["rounds"][0]["events"]


# Round 2 (dealer seat 1; the deal goes seat 2, seat 0, seat 1, spare): the hands move one seat left,
# except that 10♥ goes to the spare hand (for 6♠), so the 10♥ space keeps its chips for the playoff.
HANDS_R2 = {1: HANDS_R1[0], 2: ["6S" if c == "TH" else c for c in HANDS_R1[1]], 0: HANDS_R1[2]}
SPARE_R2 = ["TH" if c == "6S" else c for c in SPARE_R1]
ACTIONS_R2 = [
    {"seat": 1, "do": "keep"},
    {"seat": 1, "do": "choose", "cards": ["4C", "5C", "6C", "7C", "8C"]},
    {"seat": 2, "do": "choose", "cards": ["TS", "JS", "QS", "KS", "AS"]},
    {"seat": 0, "do": "choose", "cards": ["5H", "6H", "7H", "8H", "9H"]},
    {"seat": 1, "do": "check"},
    {"seat": 2, "do": "check"},
    {"seat": 0, "do": "check"},
    {"seat": 1, "do": "lead", "card": "2C"},
]
# Playoff: five cards each, one at a time from the dealer's left; the first seat dealt gets the royal flush.
PLAYOFF = ["AS", "2C", "3D", "KS", "4C", "5D", "QS", "6C", "7D", "JS", "8C", "9D", "TS", "TC", "JD"]


def two_rounds(**over) -> dict:
    return game_file(
        options={"game_end": "rounds:2"},
        rounds=[
            {"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": list(ACTIONS_R1)},
            {"deck": deck_for(HANDS_R2, SPARE_R2, 1), "actions": list(ACTIONS_R2)},
        ],
        **over,
    )


def test_two_rounds_and_playoff_clear_the_board(tmp_path: Path) -> None:
    proc = replay(tmp_path, two_rounds(playoff={"deck": PLAYOFF, "actions": []}))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [r["dealer"] for r in out["rounds"]] == [0, 1]
    r2 = out["rounds"][1]
    # round 2 from [108, 103, 88]: ante 9 → [99, 94, 79]; every space +3 (8-9-10 now 4, 10♥ 3).
    # pay cards: 10♥ is in the spare (stays 3); seat 2 J♥ +3; seat 0 Q♥ K♥ K-Q +9; seat 1 A♥ +3;
    # 8-9-10 (4): 2 each to seats 2 and 0 → [110, 97, 84]. Poker: all check, seat 2's royal flush
    # takes the Pot's 3 → 87. Michigan: seat 1 goes out: 13 from each other seat, then the Kitty (3)
    # → [97, 126, 74] with 3 chips left on 10♥.
    assert r2["poker"]["winners"] == [2]
    assert r2["poker"]["hands"] == {"1": "straight flush", "2": "royal flush", "0": "straight flush"}
    assert r2["michigan"]["out"] == 1
    assert {"space": "10H", "seat": 2, "amount": 3} not in r2["payouts"]
    # the game is over after round 2 (rounds:2); the playoff (dealer now seat 2, so seat 0 is dealt
    # first and holds the royal flush) moves the 3 chips of 10♥ to the Pot and pays them to seat 0
    assert out["playoff"]["winners"] == [0]
    assert out["stacks"] == [100, 126, 74]
    assert all(v == 0 for v in out["mat"].values()), out["mat"]
    assert out["finished"] is True
    assert out["awaiting"] is None


def test_two_rounds_without_playoff_deck_await_the_playoff(tmp_path: Path) -> None:
    out = json.loads(replay(tmp_path, two_rounds()).stdout)
    assert out["finished"] is False
    assert out["stacks"] == [97, 126, 74]
    assert out["mat"]["10H"] == 3
    assert out["awaiting"]["seat"] is None and out["awaiting"]["legal"] == []


def test_no_playoff_needed_when_the_board_is_clear(tmp_path: Path) -> None:
    data = game_file(
        options={"game_end": "rounds:2"},
        rounds=[
            {"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": list(ACTIONS_R1)},
            {
                "deck": deck_for({1: HANDS_R1[0], 2: HANDS_R1[1], 0: HANDS_R1[2]}, SPARE_R1, 1),
                "actions": list(ACTIONS_R2),
            },
        ],
        playoff={"deck": PLAYOFF, "actions": []},
    )
    out = run_replay(data)
    # 10♥ paid this time and the 8-9-10 (1 + 3 = 4) split evenly: nothing left to clear
    assert out["finished"] is True
    assert all(v == 0 for v in out["mat"].values())
    assert sum(out["stacks"]) == 300


def test_one_round_playoff_takes_the_odd_chip(tmp_path: Path) -> None:
    data = game_file(options={"game_end": "rounds:1"}, playoff={"deck": PLAYOFF, "actions": []})
    out = json.loads(replay(tmp_path, data).stdout)
    assert out["finished"] is True
    assert all(v == 0 for v in out["mat"].values())
    # dealer is now seat 1, so the playoff deals seat 2 first: seat 2 holds the royal flush
    assert out["playoff"]["winners"] == [2]
    assert out["stacks"] == [108, 103, 88 + 1]  # the odd chip of 8-9-10


def test_rounds_after_the_game_ended_are_rejected() -> None:
    data = game_file(
        options={"game_end": "rounds:1"},
        rounds=[
            {"deck": deck_for(HANDS_R1, SPARE_R1, 0), "actions": list(ACTIONS_R1)},
            {"deck": deck_for(HANDS_R2, SPARE_R2, 1), "actions": []},
        ],
    )
    with pytest.raises(ReplayError):
        run_replay(data)


# ----------------------------------------------------------------------------- round trip


def record_game(preset: str, n: int, seed: int, ai: str, rounds: int = 2) -> tuple[dict, Game]:
    """Play an AI game with our own shuffled decks; return the replay file and the finished game."""
    rng = random.Random(seed)
    game = Game.new(
        preset, [f"p{i}" for i in range(n)], options={"game_end": f"rounds:{rounds}"}, dealer=seed % n, seed=seed
    )
    data: dict = {
        "preset": preset,
        "options": {"game_end": f"rounds:{rounds}"},
        "players": list(game.players),
        "stacks": list(game.stacks),
        "dealer": game.dealer,
        "rounds": [],
    }
    current: dict | None = None
    guard = 0
    while not game.finished:
        aw = game.awaiting()
        if aw is None:
            if game.over:
                deck = C.to_strs(C.full_deck(max(game.n_decks, 1)))
                rng.shuffle(deck)
                data["playoff"] = {"deck": deck, "actions": []}
                game.next_deal(deck)
                continue
            deck = C.to_strs(C.full_deck(game.n_decks))
            rng.shuffle(deck)
            current = {"deck": deck, "actions": []}
            data["rounds"].append(current)
            game.next_deal(deck)
            continue
        action = choose_action(game, aw.seat, ai, rng)
        current["actions"].append(action.to_dict())
        game.apply(action)
        guard += 1
        assert guard < 20000
    return data, game


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_reproduces_a_recorded_game(preset: str) -> None:
    for seed, n, ai in [(1, 3, "heuristic"), (2, 5, "random"), (3, 2, "random")]:
        data, game = record_game(preset, n, seed, ai)
        out = run_replay(json.loads(json.dumps(data)))
        assert out["stacks"] == game.stacks
        assert out["mat"] == game.mat
        assert out["finished"] is True and out["awaiting"] is None
        assert [r["payouts"] for r in out["rounds"]] == [rec["payouts"] for rec in game.log]


def test_replay_cli_reproduces_a_recorded_game(tmp_path: Path) -> None:
    data, game = record_game("tripoley", 4, 7, "heuristic", rounds=3)
    proc = replay(tmp_path, data)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["stacks"] == game.stacks
    assert out["finished"] is True
    # stopping one action early leaves that action awaited
    last_round = data["rounds"][-1]
    if last_round["actions"]:
        dropped = last_round["actions"].pop()
        data.pop("playoff", None)
        out = json.loads(replay(tmp_path, data).stdout)
        assert out["awaiting"]["seat"] == dropped["seat"]
        assert dropped["do"] in out["awaiting"]["legal"]
        assert out["finished"] is False


@pytest.mark.parametrize("rounds", [2, 7])
def test_without_game_end_the_files_rounds_are_the_game(rounds: int) -> None:
    """The rules set no default game end: the preset's own default (5 rounds) never cuts a file's rounds
    short, and a file that includes the board clearing ends after its last round."""
    data, game = record_game("tripoley", 3, 11, "heuristic", rounds=rounds)
    del data["options"]
    assert "playoff" in data, "the recorded game ends with chips on the mat"
    out = run_replay(json.loads(json.dumps(data)))
    assert len(out["rounds"]) == rounds and out["finished"] is True and out["stacks"] == game.stacks
    del data["playoff"]
    out = run_replay(json.loads(json.dumps(data)))
    assert len(out["rounds"]) == rounds and out["awaiting"]["phase"] == ("playoff" if rounds > 5 else "deal")


def test_the_outcome_is_json_for_programs_and_a_summary_on_request(tmp_path: Path) -> None:
    """A pipe (as here) gets the JSON of docs/replay.md; ``--summary`` (the default on a terminal) a few
    lines a person reads; ``--json`` the JSON wherever the output goes."""
    piped = replay(tmp_path, game_file())
    assert json.loads(piped.stdout)["stacks"] == [108, 103, 88]
    assert json.loads(replay(tmp_path, game_file(), "--json").stdout) == json.loads(piped.stdout)
    summary = replay(tmp_path, game_file(), "--summary")
    assert summary.returncode == 0, summary.stderr
    lines = summary.stdout.splitlines()
    assert lines[0] == "Round 1 (dealer ann):"
    assert "  poker: bob (royal flush)" in lines and "  out first: ann" in lines
    assert "Stacks: ann 108, bob 103, cat 88" in lines
    assert len(lines) < 10  # the whole outcome with its events is hundreds of lines


def test_a_terminal_gets_the_summary(tmp_path: Path) -> None:
    import io

    from engine.replay import main

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_file()), encoding="utf-8")
    shown = Terminal()
    assert main(str(path), out=shown) == 0
    assert shown.getvalue().startswith("Round 1 (dealer ann):")
    forced = Terminal()
    assert main(str(path), out=forced, as_json=True) == 0 and json.loads(forced.getvalue())["finished"] is False
