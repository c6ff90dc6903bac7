"""The terminal game's table block, prompt and round results in French, German and the pseudo-locale:
seeded games of the family's presets, the player typing what the AI would (and ``table`` and ``help``
now and then), read with no English heading left; the player's default name in the game's language
(saved as "you"), told in the second person; English as it was."""

from __future__ import annotations

import io
import random
import re

import pytest

from engine import cards as C
from engine.ai import choose_action
from engine.language import LANGUAGE
from engine.play import TerminalGame, new_game, run

PRESETS = ("tripoley", "michigan-rummy", "rummoli", "wanagan", "rummy-royal", "great-lakes")
CARD = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b")
#: The English words of the table block, the legal actions' descriptions and the results that the
#: languages replace (whole words: a command, typed as it is, is between backquotes or heads its line).
ENGLISH = (
    "round",
    "ante",
    "phase",
    "Mat:",
    "on the mat",
    "stack",
    "cards",
    "dealer",
    "to act",
    "(you)",
    "Auction for",
    "Spare hand",
    "current bet",
    "last:",
    "Your poker",
    "Michigan sequence",
    "none yet",
    "cards placed",
    "Corner bet",
    "backed by",
    "Pay suit",
    "Recent:",
    "results:",
    "won",
    "went out",
    "collected",
    "stacks",
    "nobody",
    "keep your hand",
    "swap blind",
    "look at",
    "chips for",
    "high bid",
    "leave the chips",
    "no bid",
    "take",
    "your five",
    "suggested",
    "bet nothing",
    "put in",
    "above the",
    "give up",
    "one of",
    "as usual",
    "making a",
    "to pass",
    "five cards",
    "wild",
    "declares",
    "corner",
    "match the",
    "do not cover",
    "Kitty",
    "folded",
    "sitting-out",
    "eliminated",
    "in pot",
    "you",
    "the",
    "and",
    "with",
    "from",
)
WORDS = re.compile("|".join(rf"(?<![\w`]){re.escape(word)}(?![\w`])" for word in ENGLISH))
#: What the pseudo-locale writes: accented letters (engine.language.pseudo).
ACCENTED = set("áƀçďéƒğĥíĵķĺḿñóṕʠŕšťúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹḾÑÓṔɊŔŠŤÚṼŴẊÝŽåéîøü")
COMMANDS = re.compile(r"^  ([a-z_]+)\b")


def played(preset: str, seed: int, players: int, language: str, name: str = "you") -> str:
    """A seeded two-round game in the terminal in ``language``: every line it wrote (the lines typed left out)."""
    game = new_game(preset, players, seed, 2, name)
    rng = random.Random(seed)
    turns = 0

    def read(_prompt: str) -> str:
        nonlocal turns
        turns += 1
        if turns > 2000:
            raise EOFError
        if turns % 7 == 3:
            return "table"
        if turns % 11 == 5:
            return "help"
        line = choose_action(game, 0, "heuristic", rng).describe()  # cards with their symbols: read everywhere
        return CARD.sub(lambda m: m.group(1).replace("T", "10") + C.SUIT_SYMBOLS[m.group(2)], line)

    out = io.StringIO()
    assert TerminalGame(game, input_fn=read, out=out, echo=True, language=language).run() == 0
    assert LANGUAGE.get() == "en"
    return out.getvalue()


@pytest.fixture(scope="module")
def games() -> dict[str, str]:
    return {
        language: "\n".join(
            played(preset, seed, players, language) for preset in PRESETS for seed in (1, 2) for players in (3, 5)
        )
        for language in ("fr", "de", "qps")
    }


def shown(text: str) -> list[str]:
    """The lines the game wrote, the echo of the lines typed left out."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith("> ")]


@pytest.mark.parametrize("language", ["fr", "de"])
def test_no_english_heading_is_left(games, language):
    """Header, mat, seats, phase lines, Recent, the legal actions and the round results: no English word."""
    left = [line for line in shown(games[language]) if WORDS.search(line)]
    assert not left, "\n".join(left[:20])


@pytest.mark.parametrize("language", ["fr", "de"])
def test_every_part_of_the_table_block_is_there(games, language):
    text = games[language]
    expected = {
        "fr": ("== Tripoley (Cadaco) — manche 1, mise 1 — Poker : choisir cinq cartes ==", "Tapis : [", "Cagnotte: ",
               "(sur le tapis : ", "jetons ", "donneur", "à jouer", "Poker : mise en cours ", "Suite du Michigan : ",
               "Résultats de la manche 1 :", "ramassé sur le tapis : ", "Derniers coups :", "Enchères pour la main morte"),
        "de": ("== Tripoley (Cadaco) — Runde 1, Einsatz 1 — Poker: fünf Karten wählen ==", "Spielplan: [", "Kasse: ",
               "(auf dem Spielplan: ", "Chips ", "Geber", "am Zug", "Poker: aktueller Einsatz ", "Michigan-Folge: ",
               "Ergebnis der Runde 1:", "vom Spielplan kassiert: ", "Zuletzt:", "Versteigerung des Stocks"),
    }[language]  # fmt: skip
    missing = [words for words in expected if words not in text]
    assert not missing
    # the legal actions of the family's decisions, each described
    commands = {m.group(1) for line in shown(text) if (m := COMMANDS.match(line))}
    assert {"choose", "bet", "call", "raise", "fold", "lead", "pass_cards", "reveal", "keep", "swap", "bid"} <= commands


def test_the_pseudo_locale_looks_every_heading_up(games):
    """In the pseudo-locale each line of the table block and each legal action's description is accented."""
    lines = shown(games["qps"])
    blocks = [line for line in lines if line.startswith(("==", "  choose", "  fold", "  lead", "  reveal"))]
    seats = [line for line in lines if re.match(r"^[> ] \S+ +\S+ +\d+ +\S+ +\d+", line)]  # name, stack, cards
    assert blocks and seats
    plain = [line for line in blocks + seats if not ACCENTED & set(line)]
    assert not plain, "\n".join(plain[:10])


@pytest.mark.parametrize(
    ("language", "word", "second", "wrong"),
    [
        ("fr", "vous", ("vous ramassez", "Michigan : vous êtes sorti après", "poker : vous avez gagné"), "vous est "),
        ("de", "du", ("du kassierst", "Michigan: du bist nach", "Poker: du hast gewonnen"), "du ist "),
    ],
)
def test_the_default_player_is_named_in_the_language_and_told_in_the_second_person(
    games, language, word, second, wrong
):
    text = games[language]
    assert f"> {word}   " in text  # the seat line
    assert re.search(rf"^  \d\. {word} +\d", text, re.M)  # the standings
    assert all(words in text for words in second)  # the events and the round's results
    assert wrong not in text
    assert f"{word} ({word})" not in text  # the seat says "(you)" only of a name that does not


def test_the_saved_name_stays_you(tmp_path):
    """The screen says "vous"; the game and its replay keep "you"."""
    path = tmp_path / "game.json"
    out = io.StringIO()
    assert run("tripoley", 3, 3, 1, input_fn=lambda _prompt: "quit", out=out, save=str(path), language="fr") == 0
    assert "Joueurs : vous, ann, bob." in out.getvalue()
    assert '"you"' in path.read_text(encoding="utf-8") and '"vous"' not in path.read_text(encoding="utf-8")


def test_a_named_player_keeps_their_name_and_the_third_person():
    text = played("tripoley", 3, 3, "fr", name="Alice")
    assert "> Alice (vous)" in text
    assert "Alice ramasse" in text and "vous ramassez" not in text


def test_english_is_as_it_was():
    out = io.StringIO()
    assert run("tripoley", 4, 3, input_fn=lambda _prompt: "quit", out=out) == 0
    lines = out.getvalue().splitlines()
    for line in (
        "Players: you, ann, bob, cat. You are you (seat 0). The game ends after 5 rounds.",
        "== Tripoley (Cadaco) — round 1, ante 1, phase poker-choose ==",
        "Mat: [10♥: 4] [J♥: 0] [Q♥: 0] [K♥: 0] [A♥: 0] [K-Q♥: 4] [8-9-10: 0] [Kitty: 4]",
        "     [Pot: 4]   (on the mat: 16)",
        "> you        stack   99  cards 10  dealer, to act",
        "  ann        stack   91  cards 11",
        "Poker: current bet 0",
        "  choose C C C C C     your five poker cards, or `best` for the suggested 6♠ 6♦ 6♣ A♦ A♥",
        "  1. you             99  (-1)",
    ):
        assert line in lines
