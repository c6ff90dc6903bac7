"""What a player types in the terminal game, read into an engine ``Action``.

One line per decision (``bet 5``, ``call``, ``lead 4C``, ``choose best``, ``bid 3``,
``name_suit S``...): verbs may be shortened or spelled as the aliases below, cards written
with letters or suit symbols. Reading is all this does: whether the action is allowed is the
engine's to say (``Game.check``).
"""

from __future__ import annotations

from typing import Any

from . import cards as C
from .cardnames import read_card
from .language import LANGUAGE, N_, _
from .model import Action
from .reasons import Either, Reason, Worded

SYMBOLS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
#: How a card is typed: told before the player's first decision that takes cards, and after a card
#: that cannot be read (written so that no example reads as another card once shown with symbols).
#: In the terminal game's language (:func:`card_syntax`): a French player types ``rc`` for roi de cœur.
CARD_SYNTAX = N_(
    "a card is its rank (2-9, T or 10, J, Q, K, A) then its suit (C, D, H, S, or \u2663 \u2666 \u2665 \u2660):"
    " `th` or `10h` is 10\u2665, `qs` is Q\u2660; cards are separated by spaces"
)


def card_syntax() -> str:
    return _(CARD_SYNTAX)


#: The moves that take cards.
CARD_VERBS = frozenset({"choose", "lead", "full_house", "straight", "pass_cards", "reveal", "corner_bet"})
ALIASES = {
    "name": "name_suit",
    "suit": "name_suit",
    "namesuit": "name_suit",
    "suitbid": "suit_bid",
    "fullhouse": "full_house",
    "passcards": "pass_cards",
    "cornerbet": "corner_bet",
}


def _card_token(text: str) -> str:
    t = text.strip().upper()
    for sym, letter in SYMBOLS.items():
        t = t.replace(sym, letter)
    return t


def _card(text: str) -> str:
    """A typed card (in the terminal game's language, or English) as the engine writes it; ``ValueError``
    saying how to type one."""
    try:
        return C.to_str(read_card(text, LANGUAGE.get()))
    except ValueError:
        raise Worded(N_("{text} is not a card: {syntax}"), text=repr(text), syntax=Reason(CARD_SYNTAX)) from None


def _looks_like_card(text: str) -> bool:
    try:
        _card(text)
        return True
    except ValueError:
        return False


def parse_command(text: str, seat: int, legal: list[str], detail: dict[str, Any]) -> Action:
    """Turn a typed line into an Action for ``seat``.

    ``ValueError`` for a line that cannot be read (the message says how to write it); whether
    the action is *allowed* is left to the engine (``Game.check``), whose message is shown.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise Worded(N_("type an action, e.g. {moves}"), moves=_typed(legal))
    verb = words[0].lower().replace("-", "_")
    args = words[1:]
    verb = ALIASES.get(verb, verb)
    if verb == "best":
        if "reveal" in legal or "pass_cards" in legal:
            return _suggested(seat, legal, detail)
        if "choose" not in legal:  # e.g. the spare-hand choice: the poker five comes later
            raise Worded(
                N_("`best` picks your best poker five, which is not asked now; now type {moves}"), moves=_typed(legal)
            )
        verb, args = "choose", ["best"]
    elif verb not in legal and "lead" in legal and not args and _looks_like_card(verb):
        verb, args = "lead", [words[0]]  # a bare card leads it
    if verb == "bid" and "bid" not in legal and "suit_bid" in legal:
        verb = "suit_bid"
    if verb not in legal:
        starts = [x for x in legal if x.startswith(verb)]
        if len(starts) == 1:
            verb = starts[0]
    if verb in ("bid", "suit_bid", "bet", "raise"):
        amount = None
        if args:
            try:
                amount = int(args[0])
            except ValueError:
                raise Worded(
                    N_("{verb} needs a whole number of chips, e.g. `{verb} {amount}`"),
                    verb=verb,
                    amount=detail.get("min", 1),
                ) from None
        return Action(seat=seat, do=verb, amount=amount)
    if verb == "lead":
        return Action(seat=seat, do=verb, card=_card(args[0]) if args else None)
    if verb == "choose":
        if not args or (len(args) == 1 and args[0].lower() == "best"):
            if not detail.get("best"):
                raise Worded(N_("no best five is offered now; name five cards"))
            return Action(seat=seat, do=verb, cards=list(detail["best"]))
        return Action(seat=seat, do=verb, cards=[_card(a) for a in args])
    if verb == "name_suit":
        if not args:
            raise Worded(N_("name_suit needs a suit: C, D, H or S"))
        return Action(seat=seat, do=verb, suit=_card_token(args[0]))
    if verb in ("full_house", "straight", "pass_cards"):
        return Action(seat=seat, do=verb, cards=[_card(a) for a in args] or None)
    if verb == "reveal":
        space = None
        picked: list[str] = []
        for a in args:
            if _looks_like_card(a) and len(picked) < 5:
                picked.append(_card(a))
            else:
                space = a
        return Action(seat=seat, do=verb, cards=picked or None, space=space)
    if verb == "corner_bet":
        ace = next((_card(a) for a in args if _looks_like_card(a)), None)
        amount = next((int(a) for a in args if a.isdigit()), None)
        return Action(seat=seat, do=verb, ace=ace, amount=amount)
    if args:
        raise Worded(N_("`{verb}` takes nothing after it"), verb=verb)
    return Action(seat=seat, do=verb)


def _typed(moves: list[str]) -> Either:
    """The moves one may type, as alternatives: `` `bet` or `check` ``."""
    return Either(tuple(f"`{move}`" for move in moves))


def _suggested(seat: int, legal: list[str], detail: dict[str, Any]) -> Action:
    """``best`` in Wanagan: the suggested reveal or pass the prompt showed."""
    hint = detail.get("suggested")
    if not hint:
        raise Worded(N_("no suggestion is offered now; name the cards"))
    if "reveal" in legal:
        return Action(seat=seat, do="reveal", cards=list(hint["cards"]), space=hint["space"])
    return Action(seat=seat, do="pass_cards", cards=list(hint))
