"""The game's events and decisions in French, German and the pseudo-locale: every sentence of seeded
games of the family's presets is looked up (no English left, no placeholder unfilled), in both persons
(the terminal's player is "you", "vous", "du"), and the terminal game with ``--lang`` tells them."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import Game
from engine import textview as TV
from engine.ai import choose_action
from engine.events import Event
from engine.language import LANGUAGE
from engine.model import Action
from engine.play import TerminalGame, new_game

PRESETS = ("tripoley", "michigan-rummy", "rummoli", "wanagan", "rummy-royal", "great-lakes")
LANGUAGES = ("fr", "de")
#: What the pseudo-locale writes: accented letters and its padding (engine.language.pseudo).
ACCENTED = set("áƀçďéƒğĥíĵķĺḿñóṕʠŕšťúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹḾÑÓṔɊŔŠŤÚṼŴẊÝŽåéîøü")


@contextmanager
def speaking(language: str) -> Iterator[None]:
    token = LANGUAGE.set(language)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


@dataclass
class Played:
    """A seeded game played by the AI, seat 0 named "you", and each decision with what it did."""

    game: Game
    decisions: list[tuple[dict[str, Any], Action, list[Event], str]] = field(default_factory=list)


def play(preset: str, seed: int, players: int = 4) -> Played:
    game = Game.new(preset, ["you", "ann", "bob", "cat"][:players], options={"game_end": "rounds:2"}, seed=seed)
    played = Played(game)
    rng = random.Random(seed)
    while not game.finished:
        aw = game.awaiting()
        if aw is None:
            game.next_deal()
            continue
        before = game.view(None)
        action = choose_action(game, aw.seat, "heuristic", rng)
        played.decisions.append((before, action, list(game.apply(action)), aw.phase))
    return played


@pytest.fixture(scope="module")
def games() -> list[Played]:
    return [play(preset, seed) for preset in PRESETS for seed in (1, 2)]


def told(played: Played) -> list[str | None]:
    """Every sentence the game's history and decisions make, in the language spoken: each event alone
    (third person, and said to seat 0), the terminal's log (grouped and not), each decision (both persons)."""
    game = played.game
    view, public = game.view(0), game.view(None)
    lines: list[str | None] = []
    for e in game.history:
        record = Event.from_dict(e)
        lines += [TV.event_sentence(record, public), TV.event_sentence(record, view, you=0)]
    lines += TV.describe_events(game.history, view) + TV.describe_events(game.history, view, group_forced=True)
    for before, action, events, phase in played.decisions:
        lines.append(TV.describe_action(before, action.to_dict(), events, phase))
        lines.append(TV.describe_action(before, action.to_dict(), events, phase, you=True))
    return lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_of_the_presets_games_is_translated(games, language):
    for played in games:
        english = told(played)
        with speaking(language):
            translated = told(played)
        assert len(translated) == len(english)
        for source, line in zip(english, translated, strict=True):
            assert (source is None) == (line is None), (source, line)
            if source is None or line is None:
                continue
            assert "{" not in line and "}" not in line, line
            assert line != source, f"{played.game.preset_key}: still English in {language}: {line!r}"


def test_every_sentence_is_looked_up_in_the_pseudo_locale(games):
    for played in games:
        with speaking("qps"):
            lines = [line for line in told(played) if line is not None]
        unlooked = [line for line in lines if not ACCENTED & set(line)]
        assert not unlooked, f"{played.game.preset_key}: not looked up: {unlooked[:5]}"


def test_the_second_person_speaks_to_the_player_in_each_language(games):
    played = games[0]
    view = played.game.view(0)
    round_start = next(e for e in played.game.history if e["type"] == "round-start" and e["dealer"] == 0)
    english = TV.describe_events([round_start], view)
    with speaking("fr"):
        french = TV.describe_events([round_start], view)
    with speaking("de"):
        german = TV.describe_events([round_start], view)
    assert english[0].startswith("--- round ") and ": you deal, ante " in english[0]
    assert ": vous donnez, mise de " in french[0]
    assert ": du gibst, Einsatz " in german[0]


def test_a_decision_said_to_its_player():
    view = {"seats": [{"name": "Ann"}, {"name": "Bob"}], "phase": "spare-hand"}
    keep = {"seat": 0, "do": "keep"}
    assert TV.describe_action(view, keep) == "Ann keeps the hand as dealt"
    assert TV.describe_action(view, keep, you=True) == "you keep the hand as dealt"
    with speaking("fr"):
        assert TV.describe_action(view, keep, you=True) == "vous gardez la main telle qu'elle a été donnée"
        assert TV.describe_action(view, {"seat": 1, "do": "raise", "amount": 4}) == "Bob relance de 4"
    with speaking("de"):
        assert TV.describe_action(view, keep, you=True) == "du behältst die ausgeteilte Hand"
        assert TV.describe_action(view, {"seat": 1, "do": "name_suit", "suit": "S"}) == "Bob sagt Pik als Zahlfarbe an"


def test_the_game_length_and_a_wanagan_refusal_in_french():
    with speaking("fr"):
        assert TV.game_end_words("rounds:1") == "après 1 manche"
        assert TV.game_end_words("rounds:5") == "après 5 manches"
        assert TV.game_end_words("elimination") == "quand un seul joueur a encore des jetons"
        game = Game.new("wanagan", ["you", "ann"], seed=1)
        view = game.view(0)
        refusal = TV.wanagan_refusal(view, ["2C", "3D", "5H", "9S", "JC"], "one-pair", ["flush"])
    assert refusal.startswith("2♣ 3♦ 5♥ 9♠ V♣ ne font pas ")
    assert "il faut deux cartes de même rang" in refusal and "{" not in refusal


CARD = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b")
SYMBOL = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", ("manche 1 : ", "mises : ", "Joueurs : vous, ann, bob.", "« vous »", "après 2 manches")),
        ("de", ("Runde 1: ", "Einsätze: ", "Spieler: du, ann, bob.", "„du“", "nach 2 Runden")),
    ],
)
def test_the_terminal_game_tells_the_events_in_its_language(language, said):
    """``--lang fr``: the event lines are French (a card typed with its suit symbol reads in any language)."""
    game = new_game("tripoley", 3, seed=4, rounds=2)
    rng = random.Random(4)

    def read(_prompt: str) -> str:
        line = choose_action(game, 0, "heuristic", rng).describe()
        return CARD.sub(lambda m: m.group(1).replace("T", "10") + SYMBOL[m.group(2)], line)

    out = io.StringIO()
    assert TerminalGame(game, input_fn=read, out=out, language=language).run() == 0
    text = out.getvalue()
    for words in said:
        assert words in text
    events = [line.strip() for line in text.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    english = ("collects", " antes", " deals", "round ", "cards dealt", "game over", " places ", " leads ")
    assert events and not [line for line in events if any(word in line for word in english)]
    assert LANGUAGE.get() == "en"
