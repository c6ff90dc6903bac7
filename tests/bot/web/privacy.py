"""What a seat still hides at each step of a game, from the engine's own state (not from the views
the pages are built from): the cards in every hand and in the spare hand, less those on the table
(played in Michigan, shown down, declared in Wanagan). A page or a datum that names one of them leaks it."""

from __future__ import annotations

import json
import re
from typing import Any

from engine import Game
from engine import cards as C
from engine import events as ev
from engine.replay import run_replay

WILD_CARDS = re.compile(r"\([^()]* wild\)")


def hidden_cards(game: Game) -> set[str]:
    r = game.r
    if r is None or game.finished:
        return set()
    held = {C.to_str(card) for hand in r.hands for card in hand} | {C.to_str(card) for card in r.spare}
    shown = {C.to_str(card) for card in r.michigan.played}
    for hand in r.poker.showdown or []:
        shown |= set(hand.get("cards") or [])
    for event in r.events:  # Wanagan's declarations are shown to the table
        if isinstance(event, ev.Reveal):
            shown |= {card for hand in event.hands.values() for card in hand.get("cards") or []}
    return held - shown


def hidden_at_each_step(replay: dict[str, Any]) -> list[set[str]]:
    """For every step the replay viewer shows (the same watcher, so the same steps), what was hidden."""
    hidden: list[set[str]] = []
    run_replay(replay, watch=lambda game, action, events: hidden.append(hidden_cards(game)))
    return hidden


def leaks(data: Any, hidden: set[str], mat_labels: set[str]) -> list[str]:
    """The hidden cards ``data`` (a page's JSON, text or HTML) names: as a card code (``QC``, a JSON
    string or a word) or as its face (``Q♣``). The mat's space labels (``A♥``, ``K-Q♥``) and ids are
    not cards, nor is Wanagan's rule naming its wild cards (``Reveal 4 (K♥ 10♦ 7♠ 4♣ wild)``): they
    are taken out first."""
    text = data if isinstance(data, str) else json.dumps(_without_mat(data), ensure_ascii=False)
    for label in sorted(mat_labels, key=len, reverse=True):
        text = text.replace(label, " ")
    text = WILD_CARDS.sub(" ", text)
    found = []
    for code in hidden:
        face = C.pretty(C.parse(code))
        if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text) or re.search(
            rf"(?<![\w-]){re.escape(face)}(?![\w-])", text
        ):
            found.append(code)
    return sorted(found)


def _without_mat(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _without_mat(value) for key, value in data.items() if key != "mat"}
    if isinstance(data, list):
        return [_without_mat(item) for item in data]
    return data
