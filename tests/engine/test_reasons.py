"""The engine's refusals worded in every language (engine/reasons.py): raised from real game states
of several games, their English (``str``) as it always was, their French and German translated (no
placeholder left, cards in that language's names), the pseudo-locale accented."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine import Action, Game, IllegalAction
from engine import cards as C
from engine.ai import choose_action
from engine.cardnames import card_names
from engine.language import LANGUAGE, N_
from engine.model import Awaiting
from engine.options import Options
from engine.phases.michigan import lead_options
from engine.reasons import Card, Counted, Reason, Worded
from engine.reasontext import players_names


def reach(preset: str, phase: str, players: int = 4, seed: int = 1) -> tuple[Game, Awaiting]:
    """A game of ``preset`` played by the Normal AI until a seat is asked for ``phase``."""
    game = Game.new(preset, [f"p{i}" for i in range(players)], seed=seed)
    game.next_deal()
    rng = random.Random(0)
    for _ in range(3000):
        aw = game.awaiting()
        if aw is None:
            game.next_deal()
            continue
        if aw.phase == phase:
            return game, aw
        game.apply(choose_action(game, aw.seat, "heuristic", rng))
    raise AssertionError(f"no {phase} reached in {preset}")


def refused(game: Game, **action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.check(Action(**action))
    return caught.value


def absent_from(hand: list[str]) -> str:
    return next(code for code in C.to_strs(range(52)) if code not in hand)


def cases() -> list[tuple[str, IllegalAction, str]]:
    """(what, the refusal, its English as the engine has always written it)."""
    out = []
    game, aw = reach("rummy-royal", "auction")
    out.append(
        ("a bid too low", refused(game, seat=aw.seat, do="bid", amount=0), "bid must be at least 1 (the high bid is 0)")
    )
    chips = game.stacks[aw.seat]
    out.append(
        (
            "a bid over the stack",
            refused(game, seat=aw.seat, do="bid", amount=chips + 1),
            f"bid {chips + 1} is more than your {chips} chips",
        )
    )
    game, aw = reach("three-in-one", "auction")
    out.append(("a bid with no amount", refused(game, seat=aw.seat, do="bid"), "bid needs an amount"))
    game, aw = reach("tripoley", "poker-betting")
    limit = game.options.bet_limit
    out.append(
        (
            "a bet over the limit",
            refused(game, seat=aw.seat, do="bet", amount=limit + 1),
            f"bet exceeds bet_limit {limit}",
        )
    )
    other = (aw.seat + 1) % game.n
    out.append(
        (
            "a bet out of turn",
            refused(game, seat=other, do="bet", amount=1),
            f"not your turn: waiting for seat {aw.seat} ({game.players[aw.seat]}) to poker-betting",
        )
    )
    out.append(
        (
            "a move not offered",
            refused(game, seat=aw.seat, do="fold"),
            "cannot fold now (poker-betting); legal: check, bet",
        )
    )
    game, aw = reach("michigan-rummy", "michigan-lead")
    options = C.to_strs(lead_options(game, aw.seat))
    bad = next(code for code in game.view(aw.seat)["hand"] if code not in options)
    out.append(
        (
            "leading an illegal card in Michigan",
            refused(game, seat=aw.seat, do="lead", card=bad),
            f"you cannot lead {bad} now; you may lead {', '.join(options)}",
        )
    )
    game, aw = reach("rummy-royal", "corner-bet")
    top = aw.detail["max"]
    ace = aw.detail["aces"][0]
    out.append(
        (
            "a corner bet out of range",
            refused(game, seat=aw.seat, do="corner_bet", ace=ace, amount=top + 1),
            f"a corner bet is 1 to {top} chips",
        )
    )
    game, aw = reach("wanagan", "wanagan-reveal")
    hand = aw.detail["cards"]
    spaces = ", ".join(aw.detail["spaces"])
    out.append(
        (
            "a Wanagan declaration of an empty space",
            refused(game, seat=aw.seat, do="reveal", cards=hand[:5], space="wanagan"),
            f"declare one of the spaces that still hold chips: {spaces}",
        )
    )
    missing = absent_from(hand)
    out.append(
        (
            "a card not in hand",
            refused(game, seat=aw.seat, do="reveal", cards=[*hand[:4], missing], space=aw.detail["spaces"][0]),
            f"{missing} is not in your hand",
        )
    )
    once = next(code for code in hand if hand.count(code) == 1)
    out.append(
        (
            "a card named twice",
            refused(
                game, seat=aw.seat, do="reveal", cards=[once, once, *[c for c in hand if c != once][:3]], space="flush"
            ),
            f"{once} is named 2 times, but your hand holds it once",
        )
    )
    out.append(
        (
            "a reveal of four cards",
            refused(game, seat=aw.seat, do="reveal", cards=hand[:4], space="flush"),
            "reveal needs exactly 5 cards",
        )
    )
    out.append(
        (
            "a card that cannot be read",
            refused(game, seat=aw.seat, do="reveal", cards=[*hand[:4], "ZZ"], space="flush"),
            "not a card: 'ZZ' (use rank 2-9,T,J,Q,K,A and suit C,D,H,S, e.g. 'TH')",
        )
    )
    game, aw = reach("great-lakes", "michigan-play")
    if "full_house" in aw.legal:
        offered = " or ".join(" ".join(o) for o in aw.detail["full_house"])
        out.append(
            (
                "a Great Lakes full house not offered",
                refused(game, seat=aw.seat, do="full_house", cards=["2C", "2D", "2H", "3S"]),
                f"not a full house you can place now; you may place {offered}",
            )
        )
    return out


CASES = cases()


@pytest.mark.parametrize(("what", "error", "english"), CASES, ids=[c[0] for c in CASES])
def test_each_refusal_keeps_its_english_and_reads_in_french_and_german(what, error, english):
    assert str(error) == english
    assert error.in_language("en", players_names()) != "" and error.in_language("fr") != english
    french, german = error.in_language("fr"), error.in_language("de")
    assert french != german
    for text in (french, german):
        assert "{" not in text and "}" not in text, text
        example = "'TH'" in english  # how the engine's notation writes a card, the same everywhere
        assert example or not re.search(r"\b(?:10|[2-9TJQKA])[CDHS]\b", text), f"a card code left in {text!r}"
    pseudo = error.in_language("qps")
    # kept as the engine writes them: space ids, and the moves as typed (``cannot fold now``)
    kept = set(re.findall(r"[a-z]+(?:-[a-z]+)+|wanagan|flush|straight", english))
    kept |= set(re.findall(r"cannot (\w+) now", english)) | set(
        re.findall(r"legal: (.*)", english)[0].split(", ") if "legal: " in english else []
    )
    unaccented = [w for w in re.findall(r"[^\W\d_]{3,}", pseudo) if w.isascii() and not any(w in k for k in kept)]
    assert not unaccented, f"{what}: not looked up in the catalogs: {unaccented}"


def test_cards_are_named_in_the_language_read():
    game, aw = reach("michigan-rummy", "michigan-lead")
    options = C.to_strs(lead_options(game, aw.seat))
    bad = next(code for code in game.view(aw.seat)["hand"] if code not in options)
    error = refused(game, seat=aw.seat, do="lead", card=bad)
    for language in ("fr", "de"):
        names = card_names(language)
        text = error.in_language(language)
        assert names.pretty_text(bad) in text and all(names.pretty_text(code) in text for code in options)


def test_the_language_by_default_is_the_engines_and_spaces_read_as_their_labels():
    game, aw = reach("wanagan", "wanagan-reveal")
    error = refused(game, seat=aw.seat, do="reveal", cards=aw.detail["cards"][:5], space="wanagan")
    token = LANGUAGE.set("de")
    try:
        assert error.in_language() == error.in_language("de")
    finally:
        LANGUAGE.reset(token)
    labels = {sp["id"]: sp["label"] for sp in game.view(aw.seat)["mat"]}
    french = error.in_language("fr", players_names(labels))
    assert "one-pair" not in french and "full-house" not in french


def test_a_count_decides_the_wording():
    one = IllegalAction(
        Reason(N_("{card} is not in your hand"), {"card": Card("QS")}),
    )
    assert str(one) == "QS is not in your hand"
    for held, french in ((1, "qu'une fois"), (2, "que 2 fois")):
        error = IllegalAction(
            Counted.ngettext(
                "{card} is named {named} times, but your hand holds it once",
                "{card} is named {named} times, but your hand holds it {held} times",
                held,
            ),
            card=Card("QS"),
            named=held + 1,
            held=held,
        )
        assert french in error.in_language("fr")


def test_options_and_cards_refused_in_words():
    with pytest.raises(Worded) as bad:
        Options().with_overrides({"bet_limit": 0})
    assert str(bad.value) == "option bet_limit must be at least 1"
    assert bad.value.in_language("fr") == "l'option bet_limit doit valoir au moins 1"
    with pytest.raises(ValueError, match="unknown option 'colour'") as unknown:
        Options().with_overrides({"colour": 1})
    assert isinstance(unknown.value, Worded) and "Option" in unknown.value.in_language("de")
    with pytest.raises(ValueError) as suit:
        C.parse_suit("X")
    assert str(suit.value) == "not a suit: 'X' (use C, D, H or S)"
    assert isinstance(suit.value, Worded) and suit.value.in_language("de") == "keine Farbe: 'X' (C, D, H oder S)"


def test_a_plain_text_stays_as_it_is_everywhere():
    error = IllegalAction.plain("{not a template}")
    assert str(error) == error.in_language("fr") == error.in_language("qps") == "{not a template}"
