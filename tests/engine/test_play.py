"""The terminal game (``python -m engine play``) and its text view."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import PRESETS, Game
from engine import events as ev
from engine import screen as SC
from engine import textview as TV
from engine.ai import autoplay, choose_action
from engine.play import TerminalGame, new_game, parse_command, run

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- helpers
def ai_input(game_ref: dict, seed: int, bad: list[str] | None = None, log: list[str] | None = None):
    """An input function that answers as the heuristic AI would, as typed text.

    ``bad`` lines are given first (each must be refused and re-asked); ``log`` records every line.
    """
    rng = random.Random(seed)
    pending = list(bad or [])

    def read(prompt: str) -> str:
        if pending:
            line = pending.pop(0)
        else:
            game = game_ref["game"]
            aw = game.awaiting()
            assert aw is not None and aw.seat == 0, "asked for input when seat 0 is not to act"
            line = choose_action(game, 0, "heuristic", rng).describe()
        if log is not None:
            log.append(line)
        return line

    return read


def play_through(
    preset: str, players: int, seed: int, rounds: int = 2, bad: list[str] | None = None, log: list[str] | None = None
) -> tuple[int, Game, str]:
    game = new_game(preset, players, seed, rounds)
    ref = {"game": game}
    out = io.StringIO()
    rc = TerminalGame(game, input_fn=ai_input(ref, seed, bad, log), out=out, echo=True).run()
    return rc, game, out.getvalue()


def scripted(lines: list[str]):
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


# ---------------------------------------------------------------- parsing input
AW_BET = {"to_call": 0, "min": 1, "max": 20, "current_bet": 0}


@pytest.mark.parametrize(
    ("text", "legal", "detail", "expected"),
    [
        ("bet 5", ["check", "bet"], AW_BET, {"do": "bet", "amount": 5}),
        ("call", ["fold", "call", "raise"], {}, {"do": "call"}),
        ("ca", ["fold", "call", "raise"], {}, {"do": "call"}),
        ("RAISE 3", ["fold", "call", "raise"], {}, {"do": "raise", "amount": 3}),
        ("lead 4C", ["lead"], {"cards": ["4C"]}, {"do": "lead", "card": "4C"}),
        ("lead 10♥", ["lead"], {"cards": ["TH"]}, {"do": "lead", "card": "TH"}),
        ("4c", ["lead"], {"cards": ["4C"]}, {"do": "lead", "card": "4C"}),
        (
            "choose AS KS QS JS TS",
            ["choose"],
            {"best": ["2C"] * 5},
            {"do": "choose", "cards": ["AS", "KS", "QS", "JS", "TS"]},
        ),
        (
            "best",
            ["choose"],
            {"best": ["AS", "KS", "QS", "JS", "TS"]},
            {"do": "choose", "cards": ["AS", "KS", "QS", "JS", "TS"]},
        ),
        (
            "choose best",
            ["choose"],
            {"best": ["AS", "KS", "QS", "JS", "TS"]},
            {"do": "choose", "cards": ["AS", "KS", "QS", "JS", "TS"]},
        ),
        ("bid 3", ["bid", "pass"], {"min": 1, "max": 50}, {"do": "bid", "amount": 3}),
        ("bid 3", ["suit_bid", "pass"], {"min": 1, "max": 50}, {"do": "suit_bid", "amount": 3}),
        ("name_suit S", ["name_suit"], {"suits": list("CDHS")}, {"do": "name_suit", "suit": "S"}),
        ("name s", ["name_suit"], {"suits": list("CDHS")}, {"do": "name_suit", "suit": "S"}),
        ("suit ♠", ["name_suit"], {"suits": list("CDHS")}, {"do": "name_suit", "suit": "S"}),
        ("keep", ["keep", "swap", "auction"], {}, {"do": "keep"}),
        ("claim", ["claim", "pass"], {}, {"do": "claim"}),
    ],
)
def test_parse_command(text, legal, detail, expected):
    assert parse_command(text, 0, legal, detail).to_dict() == {"seat": 0, **expected}


@pytest.mark.parametrize("text", ["", "bet lots", "keep now"])
def test_parse_command_unreadable(text):
    with pytest.raises(ValueError):
        parse_command(text, 0, ["check", "bet", "keep"], AW_BET)


# ---------------------------------------------------------------- the text view
def test_textview_blocks():
    game = Game.new("tripoley", ["ann", "bob", "cat"], options={"spare_hand": "swap-or-auction"}, seed=5, dealer=0)
    game.next_deal()
    view = game.view(0)
    mat = SC.render_mat(view)
    for label in ("10♥", "J♥", "Q♥", "K♥", "A♥", "K-Q♥", "8-9-10", "Kitty", "Pot"):
        assert f"[{label}: " in mat
    seats = SC.render_seats(view)
    assert "ann (you)" in seats and "dealer" in seats and "to act" in seats
    assert seats.splitlines()[0].startswith(">")  # ann (seat 0, dealer) decides on the spare hand
    hand = SC.render_hand(view)
    shown = hand.split(": ", 1)[1].split()
    assert len(shown) == len(view["hand"])
    suits = [next(ch for ch in c if ch in "♣♦♥♠") for c in shown]
    assert suits == sorted(suits, key="♣♦♥♠".index)  # sorted by suit
    assert TV.sorted_hand(["AS", "2C", "TH", "3C"]) == ["2C", "3C", "TH", "AS"]
    prompt = SC.render_prompt(view)
    assert "keep" in prompt and "swap" in prompt and "auction" in prompt
    # spectators see no hand and no legal list
    public = game.view(None)
    assert SC.render_hand(public) == "" and SC.legal_lines(public) == []


def test_the_prompt_carries_a_rummoli_warning():
    from tests.engine.deals import stack_deck

    game = Game.new("rummoli", ["ann", "bob", "cat"], seed=5, dealer=0)
    game.next_deal(stack_deck(3, {0: ["AH"]}, [], 0))
    assert "Careful: you hold pay cards (" in SC.render_prompt(game.view(0))
    assert "Careful" not in SC.render_prompt(game.view(1))


def test_describe_events_plain_english():
    game = Game.new("rummoli", ["ann", "bob", "cat"], seed=1, dealer=0)
    game.next_deal()
    view = game.view(None)
    events = [
        {"type": "raise", "seat": 1, "amount": 5, "all_in": False},
        {"type": "to_space", "seat": 1, "space": "pot", "amount": 5, "reason": "raise"},
        {"type": "play", "seat": 0, "card": "TH", "how": "follow"},
        {"type": "payout", "space": "10H", "seat": 0, "amount": 4, "reason": "placed"},
        {"type": "play", "seat": 2, "card": "4C", "how": "lead"},
        {"type": "play", "seat": 2, "card": "5C", "how": "follow"},
        {"type": "stop", "seat": 2, "card": "5C"},
        {"type": "out", "seat": 2},
        {"type": "transfer", "from_seat": 0, "to_seat": 2, "amount": 3, "reason": "cards left"},
        {"type": "suit", "seat": 1, "suit": "S"},
    ]
    lines = TV.describe_events(events, view)
    assert lines == [
        "bob raises 5",
        "ann places 10♥ and collects 4 from 10♥",
        "cat leads 4♣ 5♣",
        "5♣ is a stop: cat leads next",
        "cat goes out",
        "ann pays cat 3 for cards left",
        "bob names spades as the pay suit",
    ]
    antes = TV.describe_events([{"type": "ante", "seat": s, "space": "pot", "amount": 1} for s in (1, 2, 0)], view)
    assert antes == ["antes: bob 1, cat 1, ann 1"]


def test_every_engine_event_type_has_a_sentence():
    """No event from a real game falls through to the generic ``type: k=v`` text."""
    seen = set()
    for preset in PRESETS:
        for seed in range(4):
            game = new_game(preset, 3, seed, 2)
            for _ in autoplay(game, "random", random.Random(seed)):
                pass
            view = game.view(0)
            for e in game.history:
                text = TV.describe_event(dict(e), view)
                seen.add(e["type"])
                assert text is None or not text.startswith(f"{e['type']}:"), e
    assert {"ante", "deal", "play", "stop", "payout", "round-end"} <= seen


def test_the_player_called_you_is_told_in_the_second_person():
    game = Game.new("rummoli", ["you", "bob", "cat"], seed=1, dealer=0)
    game.next_deal()
    view = game.view(0)
    events = [
        {"type": "raise", "seat": 0, "amount": 5, "all_in": False},
        {"type": "play", "seat": 0, "card": "4C", "how": "follow"},
        {"type": "payout", "space": "10H", "seat": 0, "amount": 4, "reason": "placed"},
        {"type": "transfer", "from_seat": 1, "to_seat": 0, "amount": 3, "reason": "spare hand"},
        {"type": "pass", "seat": 0, "kind": "spare"},
        {"type": "stop", "seat": 0, "card": "5C"},
    ]
    assert TV.describe_events(events, view) == [
        "you raise 5",
        "you place 4♣ and collect 4 from 10♥",
        "bob pays you 3 for the spare hand",
        "you pass",
        "5♣ is a stop: you lead next",
    ]
    assert TV.describe_events(events[:1], view, you=None) == ["you raises 5"]  # no seat told as "you"
    assert TV.describe_events(events[:1], view, you=1) == ["you raises 5"]  # seat 1 is the reader
    assert TV.event_sentence(ev.Raise(seat=0, amount=5, all_in=False), view) == "you raises 5"  # the bot's log
    assert TV.event_sentence(ev.Raise(seat=0, amount=5, all_in=False), view, you=0) == "you raise 5"


# ---------------------------------------------------------------- whole games, in process
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_whole_game_in_process(preset, players):
    for seed in (1, 2):
        bad = ["frobnicate", "bet lots", "lead ZZ", "table", "help"]
        rc, game, text = play_through(preset, players, seed, rounds=2, bad=bad)
        assert rc == 0
        assert game.finished
        assert "The game is over." in text and "Final standings:" in text
        assert "Not allowed: cannot frobnicate now" in text  # the engine's message, then re-asked
        assert "Cannot read that: bet needs a whole number" in text
        # every round played is reported (a broke seat may end the game before the round limit)
        assert text.count(" results:") == game.round_number >= 1
        assert game.total_chips() == sum(game.initial_stacks)
        assert "Your move. Legal actions:" in text


def test_showdown_and_results_are_shown():
    texts = [play_through("tripoley", 3, seed, rounds=3)[2] for seed in range(1, 6)]
    assert any("showdown:" in t for t in texts)
    assert all("poker:" in t and "stacks:" in t for t in texts)


def test_illegal_amount_uses_engine_message():
    game = new_game("tripoley", 2, 7, 1)
    out = io.StringIO()
    lines = []

    def read(prompt: str) -> str:
        aw = game.awaiting()
        if aw.phase == "poker-betting" and "bet" in aw.legal and not lines:
            lines.append("bet 999")
            return "bet 999"
        if aw.phase == "poker-betting" and "bet" in aw.legal:
            return "check"
        return choose_action(game, 0, "heuristic", random.Random(0)).describe()

    assert TerminalGame(game, input_fn=read, out=out).run() == 0
    if lines:  # seat 0 had a chance to bet
        assert "Not allowed: bet exceeds the bet limit of 20" in out.getvalue()  # the engine's message, in words


def test_eof_leaves_cleanly():
    out = io.StringIO()
    assert run("tripoley", 3, 1, 2, "zed", input_fn=scripted(["keep"]), out=out) == 0
    text = out.getvalue()
    assert "Input ended: leaving the game" in text and "Final standings:" in text


def test_quit():
    out = io.StringIO()
    assert run("tripoley", 3, 1, 2, input_fn=scripted(["quit"]), out=out) == 0
    assert "You left the game" in out.getvalue()


def test_bad_setup():
    out = io.StringIO()
    assert run("no-such-preset", 3, 1, 2, input_fn=scripted([]), out=out) == 2
    assert "unknown preset" in out.getvalue()
    out = io.StringIO()
    assert run("tripoley", 12, 1, 2, input_fn=scripted([]), out=out) == 2


# ---------------------------------------------------------------- whole games, as a subprocess
def _engine(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "engine", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_subprocess_scripted_game(preset):
    seed, players, rounds = 3, 3, 2
    log: list[str] = []
    bad = ["nonsense", "bet -"]
    rc, game, text = play_through(preset, players, seed, rounds, bad=bad, log=log)
    assert rc == 0 and game.finished
    proc = _engine(
        ["--preset", preset, "--players", str(players), "--seed", str(seed), "--rounds", str(rounds), "--name", "you"],
        "\n".join(log) + "\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Not allowed: cannot nonsense now" in proc.stdout
    assert "The game is over." in proc.stdout
    # the same seed and the same answers give the same game as in process
    assert proc.stdout.split("Final standings:")[1] == text.split("Final standings:")[1]


def test_subprocess_eof_and_bad_input():
    proc = _engine(["--seed", "1", "--players", "2"], "whatever\n")
    assert proc.returncode == 0, proc.stderr
    assert "Not allowed: cannot whatever now" in proc.stdout
    assert "Input ended" in proc.stdout


def test_subprocess_empty_stdin():
    proc = _engine(["--seed", "1"], "")
    assert proc.returncode == 0
    assert "Input ended" in proc.stdout


def test_save_writes_a_replay_that_plays_back_the_same_game(tmp_path):
    from engine.replay import outcome, run_replay

    log: list[str] = []
    rc, game, _ = play_through("three-in-one", 3, 4, 2, log=log)
    path = tmp_path / "game.json"
    out = io.StringIO()
    assert run("three-in-one", 3, 4, 2, "you", input_fn=scripted(log), out=out, save=str(path)) == 0
    assert f"Replay saved to {path}" in out.getvalue()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert run_replay(data) == outcome(game) and game.finished


def test_save_on_quit_and_a_subprocess_save(tmp_path):
    path = tmp_path / "left.json"
    out = io.StringIO()
    assert run("tripoley", 3, 1, 2, input_fn=scripted(["quit"]), out=out, save=str(path)) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["rounds"][0]["actions"] == []
    path2 = tmp_path / "piped.json"
    proc = _engine(["--seed", "1", "--players", "2", "--save", str(path2)], "")
    assert proc.returncode == 0 and "Replay saved to" in proc.stdout
    assert json.loads(path2.read_text(encoding="utf-8"))["players"][0] == "you"
    out = io.StringIO()
    assert run("tripoley", 2, 1, 1, input_fn=scripted([]), out=out, save=str(tmp_path / "no" / "dir.json")) == 0
    assert "could not save the replay" in out.getvalue()


# ---------------------------------------------------------------- docs/replay.md stays true
DOC = ROOT / "docs" / "replay.md"


def test_replay_doc_covers_phases_events_and_spaces():
    from engine.events import EVENT_TYPES
    from engine.phases import DECISION
    from engine.presets import spaces_for

    doc = DOC.read_text(encoding="utf-8")
    missing = [p for p in DECISION if f"`{p}`" not in doc]
    assert not missing, f"document these phases in docs/replay.md: {missing}"
    types = set(EVENT_TYPES)
    missing = sorted(t for t in types if f"`{t}`" not in doc)
    assert not missing, f"document these event types in docs/replay.md: {missing}"
    for key, preset in PRESETS.items():
        row = next((line for line in doc.splitlines() if line.startswith(f"| `{key}` |")), None)
        assert row is not None, f"docs/replay.md has no space-id row for preset {key}"
        ids = [s.id for s in spaces_for(preset, preset.options)]
        assert row.split("|")[3].strip() == ", ".join(f"`{i}`" for i in ids), key


def test_replay_doc_example_is_real():
    import json
    import re

    from engine.replay import run_replay

    doc = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)\n```", doc, re.S)
    game = json.loads(
        next(b for b in blocks if b.lstrip().startswith('{\n  "preset": "tripoley",\n  "options": {"game_end"'))
    )
    shown = json.loads(next(b for b in blocks if b.lstrip().startswith('{\n  "stacks": [66')))
    assert run_replay(game) == shown
