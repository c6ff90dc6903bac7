"""The terminal game (``python -m engine play``) as a player sees it: colour, grouped forced plays,
skips explained, Wanagan declarations checked, passes shown, plain words, Ctrl-C and ``--help``."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from engine import PRESETS, Game
from engine import cards as C
from engine import textview as TV
from engine.__main__ import main as engine_main
from engine.ai import choose_action
from engine.commands import CARD_SYNTAX, parse_command
from engine.model import Action
from engine.options import CHOICES, Options
from engine.play import MICHIGAN_BY_RULE, TerminalGame, new_game, run, shows_symbols, wants_colour
from engine.screen import render_prompt

ROOT = Path(__file__).resolve().parents[2]
CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def drive(
    game: Game, answers: dict[str, list[str]] | None = None, *, colour: bool = False, seed: int = 0
) -> tuple[int, str, list[str]]:
    """Play ``game`` in the terminal: in a phase listed in ``answers`` the player types its lines
    (one per prompt, in turn), otherwise answers as the heuristic AI would. Returns the exit code,
    the text and the lines typed."""
    rng = random.Random(seed)
    pending = {phase: list(lines) for phase, lines in (answers or {}).items()}
    typed: list[str] = []

    def read(prompt: str) -> str:
        aw = game.awaiting()
        queue = pending.get(aw.phase)
        line = queue.pop(0) if queue else choose_action(game, 0, "heuristic", rng).describe()
        typed.append(line)
        return line

    out = io.StringIO()
    rc = TerminalGame(game, input_fn=read, out=out, echo=True, colour=colour).run()
    return rc, out.getvalue(), typed


# ---------------------------------------------------------------- colour
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color():
    assert wants_colour(FakeTerminal(), {}) is True
    assert wants_colour(FakeTerminal(), {"NO_COLOR": "1"}) is False
    assert wants_colour(FakeTerminal(), {"TERM": "dumb"}) is False
    assert wants_colour(io.StringIO(), {}) is False  # a pipe or a file


def test_coloured_output_marks_red_suits_and_the_seat_to_act():
    game = new_game("tripoley", 3, 1, 1)
    rc, text, _ = drive(game, colour=True)
    assert rc == 0
    assert "\x1b[1;31m10\u2665\x1b[0m" in text  # hearts in red
    assert re.search(r"\x1b\[1;31m(?:10|[2-9JQKA])\u2666", text)  # diamonds too
    assert not re.search(r"\x1b\[1;31m(?:10|[2-9JQKA])[\u2663\u2660]", text)  # clubs and spades are not red
    assert re.search(r"\x1b\[1;7m> you .*to act", text)  # the seat to act stands out


def test_plain_output_has_no_escape_codes():
    rc, text, _ = drive(new_game("tripoley", 3, 1, 1), colour=False)
    assert rc == 0 and "\x1b" not in text
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "1", "--rounds", "1"],
        input="keep\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0 and "\x1b" not in proc.stdout and "\u2665" in proc.stdout


def test_a_terminal_without_the_suit_symbols_gets_letters():
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert shows_symbols(ascii_out) is False and shows_symbols(io.StringIO()) is True
    out = io.StringIO()
    game = new_game("tripoley", 3, 1, 1)
    TerminalGame(game, input_fn=lambda prompt: "quit", out=out, symbols=False).run()
    text = out.getvalue()
    assert text.isascii() and re.search(r"\b(?:10|[2-9JQKA])[cdhs]\b", text)
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "1", "--name", "Zoë"],
        input=b"keep\n",
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr and b"Input ended" in proc.stdout


# ---------------------------------------------------------------- forced plays
def test_forced_plays_are_grouped_with_their_lead_and_stop():
    game = Game.new("tripoley", ["ann", "bob", "cat"], seed=1, dealer=0)
    game.next_deal()
    view = game.view(None)
    events = [
        {"type": "play", "seat": 2, "card": "4C", "how": "lead"},
        {"type": "play", "seat": 2, "card": "5C", "how": "follow"},
        {"type": "play", "seat": 0, "card": "6C", "how": "follow"},
        {"type": "play", "seat": 0, "card": "7C", "how": "follow"},
        {"type": "play", "seat": 1, "card": "8C", "how": "follow"},
        {"type": "play", "seat": 0, "card": "9C", "how": "follow"},
        {"type": "play", "seat": 1, "card": "TC", "how": "follow"},
        {"type": "payout", "space": "8-9-10", "seat": 1, "amount": 6, "reason": "placed"},
        {"type": "stop", "seat": 1, "card": "TC"},
        {"type": "cannot-lead", "seat": 1, "paid": 0},
    ]
    assert TV.describe_events(events, view, group_forced=True) == [
        "cat leads 4♣, then 6 forced plays: cat 5♣, ann 6♣ 7♣, bob 8♣, ann 9♣, bob 10♣ (+6 from 8-9-10); "
        "10♣ is a stop: bob leads next",
        "bob cannot lead, the lead passes left",
    ]
    # without grouping every seat's run is its own line, as before
    assert len(TV.describe_events(events, view)) == 7
    # a combination play keeps what it collects on its line, even between its cards
    full_house = [{"type": "play", "seat": 0, "card": c, "how": "full house"} for c in ("7H", "7S", "JH")]
    full_house += [
        {"type": "payout", "space": "JH", "seat": 0, "amount": 5, "reason": "placed"},
        {"type": "play", "seat": 0, "card": "JS", "how": "full house"},
        {"type": "stop", "seat": 0, "card": "JS", "reason": "full house"},
    ]
    assert TV.describe_events(full_house, view, group_forced=True) == [
        "ann places a full house: 7♥ 7♠ J♥ J♠ (+5 from J♥); the full house ends the sequence: ann leads next"
    ]


def test_a_whole_michigan_hand_reads_in_a_few_lines():
    rc, text, _ = drive(new_game("tripoley", 4, 3, 1))
    assert rc == 0
    michigan = [line for line in text.splitlines() if "forced play" in line]
    assert michigan and all(re.search(r" leads? .*, then \d+ forced play", line) for line in michigan)
    forced = sum(int(m) for m in re.findall(r"(\d+) forced play", text))
    assert forced > len(michigan)  # many plays, few lines
    assert not re.search(r"^  \w+ places ", text, re.M)  # no forced card on a line of its own


# ---------------------------------------------------------------- skips explained
def rulebook_game(seed: int) -> Game:
    """Tripoley (Rulebook), 4 players; the seeds used deal to seat 0, the player, as dealer."""
    game = new_game("tripoley-rulebook", 4, seed, 1)
    game.next_deal()
    assert game.awaiting().seat == 0 and game.awaiting().phase == "spare-hand"
    return game


def test_auction_says_who_may_not_bid_and_why():
    game = rulebook_game(1)  # seats 2 and 3 hold a money card
    names = game.players
    rc, text, _ = drive(game, {"spare-hand": ["auction"]})
    assert rc == 0
    assert (
        f"not bidding for the spare hand: {names[2]} (a money card of this mat in hand), "
        f"{names[3]} (a money card of this mat in hand), you (the dealer, who sells it)"
    ) in text
    # in a swap-or-auction game (Three in One) only the dealer sits the auction out
    rc, text, _ = drive(new_game("three-in-one", 3, 1, 1), {"spare-hand": ["auction"]})
    assert "not bidding for the spare hand: you (the dealer, who sells it)" in text


@pytest.mark.parametrize(
    ("seed", "missing", "why"),
    [
        (20, "swap", "your hand holds a money card of this mat"),
        (39, "auction", "every other player holds a money card of this mat, so nobody may bid"),
    ],
)
def test_a_choice_not_offered_is_explained(seed, missing, why):
    rc, text, _ = drive(rulebook_game(seed))
    assert f"(no `{missing}`: {why})" in text


def test_a_spare_hand_nobody_may_use_is_explained():
    game = new_game("michigan-rummy", 3, 0, 1)  # the dealer and both others hold a money card
    rc, text, _ = drive(game)
    dealer = game.players[game.log[0]["dealer"]]
    assert (
        f"the spare hand stays out: the dealer ({dealer}) holds a money card, so may not swap, "
        "and every other player holds one, so nobody may bid"
    ) in text
    # when the dealer is asked (seat 0 here, with swap and auction offered) nothing of the kind is said
    rc, text, _ = drive(new_game("tripoley-rulebook", 4, 1, 1))
    assert "Your move. Legal actions:\n  keep" in text and "the spare hand stays out" not in text


def test_corner_cover_skips_are_explained():
    game = Game.new(
        "rummy-royal", ["you", "ann", "bob"], stacks=[100, 15, 100], dealer=0, seed=1, options={"game_end": "rounds:1"}
    )
    rc, text, _ = drive(game, {"corner-bet": ["corner_bet AS 10"]})
    assert rc == 0
    assert "too few chips to cover the 10-chip corner bet: ann (6 chips)" in text


# ---------------------------------------------------------------- Wanagan
def wanagan_game() -> Game:
    return Game.new("wanagan", ["you", "ann", "bob"], seed=3, dealer=2)  # seat 0 reveals first


def non_qualifying(game: Game) -> str:
    """A reveal line of five of the player's cards that lack the declared space's combination."""
    d = game.awaiting().detail
    hand = d["cards"]
    for space in d["spaces"]:
        for start in range(len(hand) - 4):
            five = hand[start : start + 5]
            if not game.wanagan_qualifies(C.parse_many(five), space, C.parse_many(d["wild"])):
                return f"reveal {' '.join(five)} {space}"
    raise AssertionError("every five qualifies")


def test_wanagan_declaration_refused_with_the_reason_then_best():
    game = wanagan_game()
    state: dict[str, str] = {}

    def read(prompt: str) -> str:
        aw = game.awaiting()
        if aw.phase == "wanagan-reveal" and "bad" not in state:
            state["bad"] = non_qualifying(game)
            return state["bad"]
        if aw.phase == "wanagan-reveal" and "best" not in state:
            state["best"] = "best"
            state["round"] = str(aw.detail["round"])
            return "best"
        return choose_action(game, 0, "heuristic", random.Random(0)).describe()

    out = io.StringIO()
    assert TerminalGame(game, input_fn=read, out=out).run() == 0
    text = out.getvalue()
    refusal = next(line for line in text.splitlines() if line.startswith("Not allowed:"))
    assert " do not make " in refusal and "it needs " in refusal and "Your hand can make: " in refusal
    assert not CARD_CODE.search(refusal)
    # `best` declared the suggestion the prompt showed
    shown = re.search(r"`best` declares (.+?) with (.+)", text)
    assert shown is not None
    reveal = next(e for e in game.history if e["type"] == "reveal" and str(e["round"]) == state["round"])
    mine = reveal["hands"]["0"]
    assert TV.space_label(game.view(0), mine["space"]) == shown.group(1)
    assert TV.cards(mine["cards"]) == shown.group(2).strip() and mine["qualifies"] is True


def test_wanagan_reveal_goes_ahead_when_nothing_can_qualify():
    game = wanagan_game()
    terminal = TerminalGame(game, input_fn=lambda prompt: "quit", out=io.StringIO())
    view = {
        "detail": {"wild": [], "spaces": ["four-kind"]},
        "hand": ["2C", "3D", "5H", "7S", "9C", "JD"],
        "mat": game.view(None)["mat"],
    }
    note = terminal.check_declaration(
        Action(seat=0, do="reveal", cards=["2C", "3D", "5H", "7S", "9C"], space="four-kind"), view
    )
    assert note == "None of the open spaces can be made from your hand: this reveal cannot win."


def test_the_three_cards_received_are_shown():
    game = Game.new("wanagan", ["you", "ann", "bob"], seed=3, dealer=2, options={"game_end": "rounds:1"})
    hands: list[tuple[str, set[str]]] = []  # (phase, the player's hand) at each prompt

    def read(prompt: str) -> str:
        hands.append((game.awaiting().phase, set(C.to_strs(game.r.hands[0]))))
        return choose_action(game, 0, "heuristic", random.Random(0)).describe()

    out = io.StringIO()
    assert TerminalGame(game, input_fn=read, out=out).run() == 0
    received = re.findall(r"you receive (\S+ \S+ \S+) from (\w+)", out.getvalue())
    assert [giver for _, giver in received] == ["bob", "ann"]  # left: from the seat on the right; then right
    passes = [i for i, (phase, _) in enumerate(hands) if phase == "wanagan-pass"]
    for (shown, _), i in zip(received, passes):
        before, after = hands[i][1], hands[i + 1][1]
        assert shown == TV.cards(TV.sorted_hand(after - before))


# ---------------------------------------------------------------- plain words
def test_engine_messages_in_plain_words():
    assert TV.plain_message("bet exceeds bet_limit 20") == "bet exceeds the bet limit of 20"
    assert TV.plain_message("5D is not in your hand") == "5♦ is not in your hand"
    assert (
        TV.plain_message("you cannot lead 9H now; you may lead 4C, TD")
        == "you cannot lead 9♥ now; you may lead 4♣, 10♦"
    )
    assert (
        TV.plain_message("not your turn: waiting for seat 2 (cat) to poker-betting")
        == "not your turn: waiting for seat 2 (cat) to bet"
    )


@pytest.mark.parametrize("preset", ["tripoley", "great-lakes", "wanagan", "rummoli"])
def test_no_card_code_or_option_name_reaches_the_player(preset):
    bad = ["lead 2C", "choose 2C 3C 4C 5C 6C", "bet 999", "reveal 2C 3C 4C 5C 6C one-pair", "pass_cards 2C"]
    game = new_game(preset, 3, 4, 1)
    rc, text, _ = drive(
        game,
        {
            phase: list(bad)
            for phase in ("michigan-lead", "poker-choose", "poker-betting", "wanagan-reveal", "wanagan-pass")
        },
    )
    assert rc == 0
    refusals = [line for line in text.splitlines() if line.startswith(("Not allowed:", "Cannot read that:"))]
    assert refusals
    for line in refusals:
        assert not CARD_CODE.search(line) and "bet_limit" not in line, line


# ---------------------------------------------------------------- leaving
def test_ctrl_c_shows_the_standings():
    game = new_game("tripoley", 3, 1, 2)

    def read(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    assert TerminalGame(game, input_fn=read, out=out).run() == 130
    text = out.getvalue()
    assert "Interrupted: leaving the game in round 1." in text and "Final standings:" in text


# ---------------------------------------------------------------- the command line
def help_text(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        engine_main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_play_help_describes_every_option_with_its_default(capsys):
    text = help_text(capsys, "play")
    for flag, default in (
        ("--preset", "(default: tripoley)"),
        ("--players", "(default: 4)"),
        ("--seed", "default: a new game"),
        ("--rounds", "default: the preset's"),
        ("--name", "(default: you)"),
        ("-o NAME=VALUE", "(default: none)"),
    ):
        assert flag in text and default in text, flag
    for f in fields(Options):  # every house rule, with its values
        assert re.search(rf"^  {f.name} ", text, re.M), f.name
    for name, values in CHOICES.items():
        assert " | ".join(values) in text, name
    assert "shared" not in help_text(capsys) and "docs/replay.md" in help_text(capsys)
    assert "shared" not in text and "shared" not in help_text(capsys, "simulate")


def test_default_rounds_are_the_presets():
    for key, preset in PRESETS.items():
        assert new_game(key, 3, 1).options.game_end == preset.options.game_end


def test_house_rules_with_o():
    game = new_game("tripoley", 3, 1, options={"bet_limit": "5", "strict_claims": "on"})
    assert game.options.bet_limit == 5 and game.options.strict_claims is True
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "1", "-o", "bet_limit=3"],
        input="keep\nchoose best\nbet 4\nquit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "bet N                N = 1–3" in proc.stdout


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["-o", "nope=1"], "unknown option 'nope'"),
        (["-o", "bet_limit"], "write a house rule as NAME=VALUE"),
        (["-o", "bet_limit=lots"], "option bet_limit must be a whole number"),
        (["-o", "endgame=sometimes"], "option endgame must be one of"),
        (["--rounds", "2", "-o", "game_end=rounds:3"], "not both"),
        (["--rounds", "0"], "--rounds: must be at least 1, got 0"),
        (["--players", "-3"], "--players: must be at least 2, got -3"),
        (["--seed", "-5"], "--seed: must be at least 0, got -5"),
        (["--players", "12"], "takes 2 to 9 players, not 12"),
        (["--preset", "nope"], "unknown preset 'nope'"),
    ],
)
def test_bad_play_arguments_are_one_line_and_exit_2(capsys, argv, says):
    try:
        rc = engine_main(["play", *argv])
    except SystemExit as stop:  # refused by the argument parser
        rc = stop.code
    captured = capsys.readouterr()
    assert rc == 2
    lines = captured.err.splitlines()
    assert len(lines) == 1 and says in lines[0], captured.err


def test_the_ai_level_comes_from_the_command_line(monkeypatch):
    import engine.play as play

    levels: list[str] = []
    monkeypatch.setattr(play.TerminalGame, "run", lambda self: levels.append(self.ai) or 0)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert engine_main(["play", "--seed", "2", "--rounds", "1", "--ai-level", "hard"]) == 0
    assert engine_main(["play", "--seed", "2", "--rounds", "1"]) == 0
    assert levels == ["hard", "normal"]


def test_the_ai_seats_play_at_the_level_chosen(monkeypatch):
    import engine.play as play

    kinds: list[str] = []
    real = play.choose_action

    def spy(game, seat, kind="heuristic", rng=None, budget=None):
        kinds.append(kind)
        return real(game, seat, kind, rng, budget)

    monkeypatch.setattr(play, "choose_action", spy)
    game = new_game("tripoley", 3, 2, 1)
    rng = random.Random(0)
    out = io.StringIO()
    read = lambda prompt: real(game, 0, "heuristic", rng).describe()  # noqa: E731
    assert TerminalGame(game, input_fn=read, out=out, echo=True, ai="hard").run() == 0
    assert game.finished and "hard" in kinds and set(kinds) <= {"hard", "heuristic"}


# ---------------------------------------------------------------- first contact
def typed_lines(game: Game, lines: list[str]) -> str:
    """What the terminal prints when the player types ``lines`` at their first decisions, then quits."""
    feed = iter([*lines, "quit"])
    out = io.StringIO()
    TerminalGame(game, input_fn=lambda prompt: next(feed), out=out, echo=True).run()
    return out.getvalue()


def test_rules_come_in_sections():
    text = typed_lines(new_game("tripoley", 3, seed=5, rounds=1), ["rules", "rules 4", "rules poker", "rules 99"])
    contents = text.split("> rules\n", 1)[1].split("> rules 4\n", 1)[0]
    assert contents.startswith("The rules of Tripoley (Cadaco), in 7 sections:")
    assert len(contents.splitlines()) < 12 and "  3. Poker" in contents and "`rules all`" in contents
    michigan = text.split("> rules 4\n", 1)[1].split("> rules poker\n", 1)[0]
    assert michigan.startswith("Michigan (stops)\n") and "Poker\n" not in michigan and "**" not in michigan
    poker = text.split("> rules poker\n", 1)[1].split("> rules 99\n", 1)[0]
    assert poker.startswith("Poker\n") and "The dealer bets first" in poker
    assert "Cannot read that: no section '99'; the sections are 1 to 7: The mat, A round," in text


@pytest.mark.parametrize(
    ("language", "heading", "poker"),
    [
        ("fr", "Les règles de Tripoley (Cadaco), en 7 parties :", "Le poker\nChoisissez cinq de vos cartes"),
        ("de", "Die Regeln von Tripoley (Cadaco), in 7 Abschnitten:", "Poker\nWähle fünf deiner Karten"),
    ],
)
def test_rules_come_in_the_games_language(language, heading, poker):
    out, lines = io.StringIO(), iter(["rules", "rules poker", "help kitty", "quit"])
    run("tripoley", 3, seed=5, rounds=1, input_fn=lambda _prompt: next(lines), out=out, language=language)
    text = out.getvalue()
    assert heading in text and poker in text
    assert {"fr": "Cagnotte : Le premier qui vide sa main", "de": "Kasse: Wer beim Michigan zuerst"}[language] in text


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "Cannot read that: no space called 'nowhere' on this mat; the spaces are 10♥, J♥, Q♥"),
        ("fr", "Illisible : aucune case ne s'appelle 'nowhere' sur ce tapis ; les cases sont : 10♥, V♥, D♥"),
        ("de", "Nicht lesbar: kein Feld heißt 'nowhere' auf diesem Spielplan; die Felder sind: 10♥, B♥, D♥"),
    ],
)
def test_help_for_an_unknown_space_names_the_mats_spaces_in_the_games_language(language, answer):
    out, lines = io.StringIO(), iter(["help nowhere", "quit"])
    run("tripoley", 3, seed=5, rounds=1, input_fn=lambda _prompt: next(lines), out=out, language=language)
    assert answer in out.getvalue()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_refusals_and_the_prompt_are_coloured_in_every_language(language):
    from engine.language import LANGUAGE, words
    from engine.play import REFUSED, YOUR_MOVE, styled

    token = LANGUAGE.set(language)
    try:
        refusal = words(language).gettext(REFUSED).format(reason="x")
        prompt = words(language).gettext(YOUR_MOVE)
        assert styled(refusal).style == "yellow" and styled(prompt).style == "bold green"
        assert styled("  ann 9, bob 9").style == ""
    finally:
        LANGUAGE.reset(token)


def test_how_to_type_cards_is_said_once_before_the_first_card_decision():
    rc, text, _ = drive(new_game("rummoli", 4, seed=7, rounds=1))
    assert rc == 0
    said = f"How to type cards: {CARD_SYNTAX}."
    assert text.count(said) == 1
    before = text.split(said, 1)[0]
    assert "Your move" in before  # the spare hand's decision came first: it takes no card
    assert not re.search(r"^  (choose|lead|pass_cards|reveal) ", before, re.M)
    assert text.split(said, 1)[1].lstrip().startswith("Your move. Legal actions:\n  choose C C C C C")


def test_a_card_that_cannot_be_read_says_how_to_type_one_consistently():
    text = typed_lines(new_game("tripoley", 3, seed=5, rounds=1), ["choose ZZ 2C 3C 4C 5C"])
    refusal = next(line for line in text.splitlines() if line.startswith("Cannot read that:"))
    assert "'ZZ' is not a card" in refusal and "`th` or `10h` is 10♥, `qs` is Q♠" in refusal
    assert "e.g." not in refusal and not CARD_CODE.search(refusal)
    with pytest.raises(ValueError, match="is not a card"):
        parse_command("lead 11S", 0, ["lead"], {})
    assert parse_command("lead 10♥", 0, ["lead"], {}).card == "TH"  # in the engine's notation


def test_one_line_says_when_the_rules_play_michigan_for_you():
    rc, text, _ = drive(new_game("tripoley", 3, seed=5, rounds=2))
    assert rc == 0 and text.count(MICHIGAN_BY_RULE) == 1
    first_lead = re.search(r"^  \w+ leads? ", text, re.M)
    assert first_lead is not None and text.index(MICHIGAN_BY_RULE) < first_lead.start()
    chosen = new_game("tripoley", 3, seed=5, rounds=1, options={"first_lead": "lowest-of-chosen-suit"})
    rc, text, _ = drive(chosen)
    assert rc == 0 and MICHIGAN_BY_RULE not in text


def test_the_rummoli_warning_shows_cards_as_everywhere_else():
    view = {  # the parts of a view the prompt reads
        "phase": "spare-hand",
        "legal": ["keep", "swap"],
        "detail": {"warning": "you hold pay cards (KH TH): the rules advise against swapping your hand"},
    }
    prompt = render_prompt(view)
    assert "Careful: you hold pay cards (K♥ 10♥)" in prompt and not CARD_CODE.search(prompt)


def test_best_before_the_poker_five_says_what_is_asked_now():
    with pytest.raises(ValueError) as refused:
        parse_command("best", 0, ["keep", "swap"], {})
    assert "not asked now" in str(refused.value) and "`keep` or `swap`" in str(refused.value)


def test_a_card_named_twice_is_refused_as_named_twice():
    from engine.model import IllegalAction
    from engine.phases.base import picked_from

    hand = C.parse_many(["KH", "2C", "3C", "4C", "5C", "6C"])
    with pytest.raises(IllegalAction, match="KH is named 2 times, but your hand holds it once"):
        picked_from(["KH", "KH", "2C", "3C", "4C"], hand, 5, "name five cards")
    two_decks = hand + C.parse_many(["KH"])
    assert len(picked_from(["KH", "KH", "2C", "3C", "4C"], two_decks, 5, "name five cards")) == 5
    with pytest.raises(IllegalAction, match="9S is not in your hand"):
        picked_from(["9S", "2C", "3C", "4C", "5C"], hand, 5, "name five cards")


def test_the_terminal_has_line_editing(monkeypatch):
    """Importing readline is what gives input() arrow keys and history."""
    import importlib.util

    from engine.play import line_editing

    monkeypatch.delitem(sys.modules, "readline", raising=False)
    line_editing()
    assert ("readline" in sys.modules) == (importlib.util.find_spec("readline") is not None)


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [
        ("fr", "choose rc dk vk 10k 10t", "Pas permis : R♥ n'est pas dans votre main. Essayez encore."),
        ("de", "choose khe dka bka 10ka 10kr", "Nicht erlaubt: K♥ ist nicht in deiner Hand. Versuch es noch einmal."),
    ],
)
def test_the_terminal_game_reads_and_writes_cards_in_its_language(language, typed, shown):
    """``--lang`` (or LANG): a French player types ``rc`` for roi de cœur and reads V♦, D♦ in their hand,
    and why a move is refused in French."""
    from engine.language import LANGUAGE

    out, lines = io.StringIO(), iter([typed, "quit"])
    run(
        "tripoley",
        3,
        seed=3,
        rounds=1,
        input_fn=lambda _prompt: next(lines),
        out=out,
        language=language,
    )
    text = out.getvalue()
    hand = next(
        line for line in text.splitlines() if line.startswith({"fr": "Votre main", "de": "Deine Hand"}[language])
    )
    assert {"fr": "Pas permis", "de": "Nicht erlaubt"}[language] in text  # its fixed lines too
    assert {"fr": "V♦ D♦", "de": "B♦ D♦"}[language] in hand
    assert shown in text
    assert LANGUAGE.get() == "en"  # the language is the game's, not left behind


def test_the_terminal_game_with_lang_de_says_why_in_german(monkeypatch, capsys):
    """``python -m engine play --lang de``: a refused move and a line it cannot read are answered in German."""
    typed = ["choose khe", "choose khe dka bka 10ka 10kr", "choose xyz", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in typed)))
    engine_main(["play", "--lang", "de", "--preset", "tripoley", "--players", "3", "--seed", "3", "--rounds", "1"])
    text = capsys.readouterr().out
    assert "Nicht erlaubt: wähle genau fünf Karten für deine Pokerhand. Versuch es noch einmal." in text
    assert "Nicht erlaubt: K♥ ist nicht in deiner Hand. Versuch es noch einmal." in text
    assert "Nicht lesbar: 'xyz' ist keine Karte: eine Karte ist ihr Wert" in text
    assert "not in your hand" not in text and "is not a card" not in text


def test_the_terminal_game_follows_lang_and_lang_option():
    from engine.__main__ import build_parser

    assert build_parser().parse_args(["play", "--lang", "de"]).lang == "de"
    assert build_parser().parse_args(["play"]).lang is None  # then LANGUAGE / LC_ALL / LC_MESSAGES / LANG
