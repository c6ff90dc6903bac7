"""The game in words, from a seat's view (``Game.view(seat)``): cards, spaces, events and
decisions in the current language (the events' sentences are :mod:`engine.eventwords`'), shared
by the terminal game (:mod:`engine.screen`) and the bot.

Every function here is pure: a view (a dict) and events (records, or their dicts) in, strings out.
Nothing reads the game object, so what is shown is exactly what the seat may
know. Cards are shown with :func:`engine.cards.pretty` (``10♥``, ``K♠``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import cards as C
from . import events as ev
from .events import as_events
from .eventtexts import (
    ACTIONS,
    ACTIONS_WITH_CARD,
    BETS,
    BIDS,
    BIDS_FOR_SUIT,
    CALLS,
    DECLINES,
    NAMES_SUIT,
    PASSES,
    WANAGAN_NEEDS,
)
from .eventwords import (
    SUIT_WORDS,
    card,
    cards,
    describe_event,
    describe_events,
    event_sentence,
    name_of,
    said,
    space_label,
    spoken_space,
    suit_word,
)
from .language import LANGUAGE, N_, _, ngettext, words
from .phases.auction import PAY_CARD_WARNINGS
from .phases.names import PHASE_TEXTS, PhaseName

__all__ = [
    "PHASE_WORDS",
    "SUIT_WORDS",
    "WANAGAN_NEEDS",
    "card",
    "cards",
    "describe_action",
    "describe_event",
    "describe_events",
    "event_sentence",
    "game_end_words",
    "name_of",
    "plain_message",
    "printable",
    "sorted_hand",
    "space_label",
    "spoken_space",
    "wanagan_refusal",
]


# ---------------------------------------------------------------- small helpers
def sorted_hand(hand: Iterable[str]) -> list[str]:
    """Cards sorted by suit (♣ ♦ ♥ ♠), then rank."""
    return C.to_strs(C.sorted_hand(C.parse_many(hand)))


def game_end_words(game_end: str) -> str:
    """``rounds:5`` → ``after 5 rounds``: the option ``game_end`` in words."""
    kind, _sep, amount = game_end.partition(":")
    if kind == "rounds":
        count = 1 if amount == "1" else 2
        return ngettext("after {amount} round", "after {amount} rounds", count).format(amount=amount)
    if kind == "minutes":
        count = 1 if amount == "1" else 2
        return ngettext(
            "after {amount} minutes (the round in progress finishes)",
            "after {amount} minutes (the round in progress finishes)",
            count,
        ).format(amount=amount)
    return _("when only one player has chips left")


# ---------------------------------------------------------------- a player's decision as a sentence
def describe_action(
    view: Mapping[str, Any],
    action: dict[str, Any],
    events: Sequence[Mapping[str, Any]] = (),
    phase: str | None = None,
    *,
    you: bool = False,
) -> str:
    """A seat's decision as a sentence for everyone ("Bob raises by 4", "Ann keeps the hand as dealt");
    ``events``: what applying it did (a play names the card it put face up, a call what it paid);
    ``phase``: the phase it was decided in (default: the view's); ``you``: said to the seat that
    decided ("you keep the hand as dealt")."""
    seat, do = action.get("seat"), action.get("do", "")
    amount = action.get("amount")
    records = as_events(events)
    phase = phase or view.get("phase", "")
    reader = seat if you else None

    def by(sentences: tuple[str, str], **fields: Any) -> str:
        return said(view, seat, reader, *sentences, **fields)

    if do == "bet":
        return by(BETS, amount=amount)
    if do == "raise":
        return by((N_("{name} raises by {amount}"), N_("you raise by {amount}")), amount=amount)
    if do == "call":
        paid = next((e.amount for e in records if isinstance(e, ev.Call) and e.seat == seat), None)
        return by(CALLS, amount=paid) if paid else by(ACTIONS["call"])
    if do in ("bid", "suit_bid"):
        return by(BIDS_FOR_SUIT if do == "suit_bid" else BIDS, amount=amount)
    if do == "corner_bet":
        return by(
            (N_("{name} bets {amount} on the corner {card}"), N_("you bet {amount} on the corner {card}")),
            amount=amount,
            card=card(action.get("ace") or ""),
        )
    if do == "name_suit":
        suit = action.get("suit") or ""
        if suit in SUIT_WORDS:
            return by(NAMES_SUIT, suit=suit_word(suit))
        return by((N_("{name} names a suit as the pay suit"), N_("you name a suit as the pay suit")))
    if do == "pass_cards":
        count = len(action.get("cards") or [])
        if not count:
            return by((N_("{name} passes their cards"), N_("you pass their cards")))
        if you:
            return ngettext("you pass {count} cards", "you pass {count} cards", count).format(count=count)
        sentence = ngettext("{name} passes {count} cards", "{name} passes {count} cards", count)
        return sentence.format(name=name_of(view, seat), count=count)
    if do in ("lead", "play"):
        placed = next((e.card for e in records if isinstance(e, ev.Play) and e.seat == seat), None) or action.get(
            "card"
        )
        return by(ACTIONS_WITH_CARD[do], cards=card(placed)) if placed else by(ACTIONS[do])
    if do == "pass":
        if phase == PhaseName.CLAIM:
            return by((N_("{name} lets the claim go"), N_("you let the claim go")))
        return by(PASSES)
    if do == "decline":
        if phase == PhaseName.CORNER_COVER:
            return by((N_("{name} does not cover the corner bet"), N_("you do not cover the corner bet")))
        return by(DECLINES)
    if do in ACTIONS:
        return by(ACTIONS[do])
    return f"{'you' if you else name_of(view, seat)} {do.replace('_', ' ')}"  # a decision the engine has no words for


# ---------------------------------------------------------------- plain words
def wanagan_refusal(view: Mapping[str, Any], picked: Sequence[str], space: str, possible: Sequence[str]) -> str:
    """Why a Wanagan declaration is refused: the five cards lack the space's combination, and the
    spaces the hand could make instead."""
    needs = _(WANAGAN_NEEDS[space]) if space in WANAGAN_NEEDS else _("its combination")
    sentence = (
        N_(
            "{cards} do not make {space}: it needs {needs} (wild cards fill gaps). Your hand can make: {spaces}"
            " (`best` declares the suggestion)"
        )
        if (view.get("detail") or {}).get("wild")
        else N_(
            "{cards} do not make {space}: it needs {needs}. Your hand can make: {spaces} (`best` declares the suggestion)"
        )
    )
    return _(sentence).format(
        cards=cards(picked),
        space=spoken_space(view, space),
        needs=needs,
        spaces=", ".join(spoken_space(view, sp) for sp in possible),
    )


_CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b")
#: What the seat awaited in each decision is to do, for "waiting for seat 1 to bet".
PHASE_WORDS: dict[str, str] = {name: text.verb for name, text in PHASE_TEXTS.items() if text.verb}
_PLAIN = (
    (re.compile(r"\bbet_limit\b( \d+)?"), lambda m: "the bet limit" + (f" of{m.group(1)}" if m.group(1) else "")),
    (re.compile(r"\(([a-z]+-[a-z-]+)\)"), lambda m: f"({PHASE_WORDS.get(m.group(1), m.group(1))})"),
    (re.compile(r"\bto ([a-z]+-[a-z-]+)\b"), lambda m: f"to {PHASE_WORDS.get(m.group(1), m.group(1))}"),
)


def plain_message(text: str) -> str:
    """An engine message in the table's words: card codes as symbols (``5D`` → ``5♦``), option
    and phase names as words (``bet_limit`` → ``the bet limit``)."""
    text = _CARD_CODE.sub(lambda m: card(m.group(1).replace("10", "T") + m.group(2)), text)
    for pattern, plain in _PLAIN:
        text = pattern.sub(plain, text)
    return text


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\r``, ``\\x1b``): a message quoting user data
    stays one line, and no escape sequence from a file or an argument reaches the terminal."""
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


def warning_words(warning: str) -> str:
    """Rummoli's advice to a player holding a pay card (the detail's ``warning``, in English) in the
    language read (the terminal's, or the reader's on Discord), its cards in that language's names."""
    for sentence in PAY_CARD_WARNINGS.values():
        head, _sep, tail = sentence.partition("{cards}")
        if warning.startswith(head) and warning.endswith(tail):
            return _(sentence).format(cards=cards(warning[len(head) : len(warning) - len(tail)].split()))
    return plain_message(warning)


# The poker's last move as the engine keeps it (``PokerState.last_action``, English, saved with the game).
_POKER_MOVE = re.compile(
    r"^(?P<name>.+) (?P<verb>checks|folds|calls|bets|raises)(?: (?P<amount>\d+))?(?P<all_in> \(all in\))?$"
)
_POKER_MOVE_WORDS = {
    ("checks", False): N_("{name} checks"),
    ("folds", False): N_("{name} folds"),
    ("calls", False): N_("{name} calls {amount}"),
    ("calls", True): N_("{name} calls {amount} (all in)"),
    ("bets", False): N_("{name} bets {amount}"),
    ("bets", True): N_("{name} bets {amount} (all in)"),
    ("raises", False): N_("{name} raises {amount}"),
    ("raises", True): N_("{name} raises {amount} (all in)"),
}


def poker_move_words(last_action: str, language: str | None = None) -> str:
    """The poker's last move ("Ada calls 9 (all in)") in ``language`` (None: the one read); as kept in
    English, the same text."""
    move = _POKER_MOVE.match(last_action)
    sentence = _POKER_MOVE_WORDS.get((move["verb"], bool(move["all_in"]))) if move else None
    if move is None or sentence is None:
        return last_action
    found = words(LANGUAGE.get() if language is None else language)
    return found.gettext(sentence).format(name=move["name"], amount=move["amount"])
