"""Button, select and amount-form ids: one typed codec, used to build them and to read them back.

Discord hands a component's ``custom_id`` back on every click, also after a restart, so the
id carries everything the click needs. Every id is ``tripoley:<table>:<round>:<action>``
(the round is 0 in the lobby and under a finished game's results), so a click is routed to
its table and a click on an earlier round's message is recognised as stale. Buttons that
belong to no table (the pages of a list, an admin's confirmation) write ``0:0`` there: that
is only the wire format of messages already posted, never a table id in the types below.

Actions: ``join`` ``leave`` ``ai`` ``start`` and the select ``pick.house`` (lobby);
``rematch``, ``replay`` and ``gamelog`` / ``gamelog.<page>`` / ``gamelog.<page>.next`` (a finished
game: also under ``/tripoley history``); ``hand`` ``back`` ``best`` ``log`` / ``log.<page>`` /
``log.<page>.next`` (table); ``spaces`` and its select ``pick.spacerule`` (a space's rule);
``vote.<seat>`` (an absent player's seat to the AI); ``kick.<user>`` (the host confirms a
removal); ``do.<verb>`` (a claim's ``do.claim.<token>`` / ``do.pass.<token>``:
see :func:`bot.tables.log.decision_token`); ``amt.<verb>`` / ``amt.corner_bet.<ace>`` (asks an
amount); ``suit.<S>``; ``lead.<card>``; the selects ``pick.<kind>`` (``pick.reveal.<space>``);
``page.<list>.<key>.<page>``; ``confirm.<what>`` / ``confirm.<what>.<arg>…`` (e.g. an admin's
repeated grant: ``confirm.adjust.<user>.<amount>.<ledger row>``). An amount form (a modal) is
``tripoley-modal:<table>:<round>:<verb>[.<ace>]``. A card menu's option values name physical
cards (:func:`card_values`): with several decks a hand may hold the same card twice, and Discord
refuses a menu whose values repeat.

:func:`decode` raises :class:`BadButtonId` for an id it cannot read (e.g. from a version that
had other buttons): the Discord layer answers it as a button no longer in use.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.ai import LEVELS

PREFIX = "tripoley"
FORM_PREFIX = "tripoley-modal:"
MAX_LENGTH = 100  # Discord's limit for a custom_id
ACTION_RE = r"[A-Za-z0-9_.\-]+"
# The patterns discord.py routes clicks by (bot.discordio.ui's dynamic items): buttons, selects, either.
BUTTON_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>(?!pick\.){ACTION_RE})"
SELECT_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>pick\.{ACTION_RE})"
ANY_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<round>\d+):(?P<action>{ACTION_RE})"
PART_RE = re.compile(r"[A-Za-z0-9_\-]+")  # one dot-separated part of an action

LOBBY_VERBS = ("join", "leave", "ai", "start")
AI_LEVELS = LEVELS  # Add AI's levels: the engine's
SEAT_VERBS = ("hand", "back", "best")  # Show my hand, I'm back, Best five
CARD_MENUS = ("choose", "pass_cards", "space", "reveal", "full_house", "straight", "lead")


COPY_MARK = "."  # between a card's code and its copy's number in a card menu's value ("QH.2")


class BadButtonId(ValueError):
    """An id that is not one of ours, or names an action this version does not have."""

    def __init__(self, custom_id: str, why: str, menu: bool = False) -> None:
        super().__init__(f"unreadable button id {custom_id[:MAX_LENGTH]!r}: {why}")
        self.menu = menu  # a select's id (its answer says "menu")


@dataclass(frozen=True)
class LobbyButton:
    table: int
    verb: str  # one of LOBBY_VERBS
    level: str | None = None  # Add AI's level (one of AI_LEVELS; None: Normal)


@dataclass(frozen=True)
class HouseRuleMenu:
    table: int


@dataclass(frozen=True)
class RematchButton:
    table: int  # the finished game to play again


@dataclass(frozen=True)
class GameLogButton:
    """A finished game's whole log (its final message, ``/tripoley history``)."""

    table: int
    page: int | None = None  # None: the first page
    newer: bool = False  # the "Newer ▶" button (its id differs from "◀ Older" on the same page)


@dataclass(frozen=True)
class ReplayButton:
    """A finished game's replay file."""

    table: int


@dataclass(frozen=True)
class SpaceRulesButton:
    """ "What does this space pay?": opens the menu of the mat's spaces."""

    table: int
    round: int


@dataclass(frozen=True)
class SpaceRulesMenu:
    table: int
    round: int


@dataclass(frozen=True)
class VoteButton:
    """A vote to hand an absent player's seat to the AI."""

    table: int
    round: int
    seat: int


@dataclass(frozen=True)
class KickButton:
    """The host confirms removing a player mid-game."""

    table: int
    user: int


@dataclass(frozen=True)
class SeatButton:
    table: int
    round: int
    verb: str  # one of SEAT_VERBS


@dataclass(frozen=True)
class LogButton:
    table: int
    round: int
    page: int | None = None  # None: the newest page
    newer: bool = False  # the "Newer ▶" button (its id differs from "◀ Older" on the same page)


@dataclass(frozen=True)
class MoveButton:
    table: int
    round: int
    verb: str
    token: str | None = None  # a claim's decision token


@dataclass(frozen=True)
class AmountButton:
    """Asks an amount in a form; the form's id carries the same facts (:func:`encode_form`)."""

    table: int
    round: int
    verb: str
    ace: str | None = None  # a corner bet's ace


@dataclass(frozen=True)
class SuitButton:
    table: int
    round: int
    suit: str


@dataclass(frozen=True)
class LeadButton:
    table: int
    round: int
    card: str


@dataclass(frozen=True)
class CardMenu:
    table: int
    round: int
    kind: str  # one of CARD_MENUS
    extra: str | None = None  # reveal: the space declared


@dataclass(frozen=True)
class PageButton:
    """A page of a list (rules, leaderboard, history…); handled by the list's own handler."""

    kind: str
    key: str  # may hold dots
    page: int


@dataclass(frozen=True)
class ConfirmButton:
    what: str
    args: tuple[str, ...] = ()  # what the confirmed action needs (a wallet, an amount…)


TableId = (
    LobbyButton
    | HouseRuleMenu
    | RematchButton
    | GameLogButton
    | ReplayButton
    | SpaceRulesButton
    | SpaceRulesMenu
    | VoteButton
    | KickButton
    | SeatButton
    | LogButton
    | MoveButton
    | AmountButton
    | SuitButton
    | LeadButton
    | CardMenu
)
ButtonId = TableId | PageButton | ConfirmButton


def _parts(*parts: object) -> str:
    for part in parts:
        if not PART_RE.fullmatch(str(part)):
            raise ValueError(f"a button id part must be letters, digits, '_' or '-', not {part!r}")
    return ".".join(str(p) for p in parts)


def _action(button: ButtonId) -> tuple[int, int, str]:
    """The table, round and action an id is written with."""
    match button:
        case PageButton(kind, key, page):
            if not key or any(not PART_RE.fullmatch(k) for k in key.split(".")):
                raise ValueError(f"a page key must be dot-separated letters, digits, '_' or '-', not {key!r}")
            return 0, 0, f"page.{_parts(kind)}.{key}.{_parts(page)}"
        case ConfirmButton(what, args):
            return 0, 0, f"confirm.{_parts(what, *args)}"
        case LobbyButton(table, verb, level):
            if verb not in LOBBY_VERBS:
                raise ValueError(f"not a lobby button: {verb!r}")
            if level is not None and (verb != "ai" or level not in AI_LEVELS):
                raise ValueError(f"not an AI level of Add AI: {verb!r} {level!r}")
            return table, 0, _parts(verb, *([] if level is None else [level]))
        case HouseRuleMenu(table):
            return table, 0, "pick.house"
        case RematchButton(table):
            return table, 0, "rematch"
        case GameLogButton(table, page, newer):
            if page is None:
                if newer:
                    raise ValueError("the first game log page has no 'newer' button")
                return table, 0, "gamelog"
            return table, 0, _parts("gamelog", page, *(["next"] if newer else []))
        case ReplayButton(table):
            return table, 0, "replay"
        case SpaceRulesButton(table, round_number):
            return table, round_number, "spaces"
        case SpaceRulesMenu(table, round_number):
            return table, round_number, "pick.spacerule"
        case VoteButton(table, round_number, seat):
            return table, round_number, _parts("vote", seat)
        case KickButton(table, user):
            return table, 0, _parts("kick", user)
        case SeatButton(table, round_number, verb):
            if verb not in SEAT_VERBS:
                raise ValueError(f"not a seat button: {verb!r}")
            return table, round_number, verb
        case LogButton(table, round_number, page, newer):
            if page is None:
                if newer:
                    raise ValueError("the newest log page has no 'newer' button")
                return table, round_number, "log"
            return table, round_number, _parts("log", page, *(["next"] if newer else []))
        case MoveButton(table, round_number, verb, token):
            return table, round_number, _parts("do", verb, *([] if token is None else [token]))
        case AmountButton(table, round_number, verb, ace):
            return table, round_number, _parts("amt", verb, *([] if ace is None else [ace]))
        case SuitButton(table, round_number, suit):
            return table, round_number, _parts("suit", suit)
        case LeadButton(table, round_number, card):
            return table, round_number, _parts("lead", card)
        case CardMenu(table, round_number, kind, extra):
            if kind not in CARD_MENUS:
                raise ValueError(f"not a card menu: {kind!r}")
            return table, round_number, _parts("pick", kind, *([] if extra is None else [extra]))
    raise TypeError(f"not a button id: {button!r}")


def encode(button: ButtonId) -> str:
    """The ``custom_id`` of a button or select (checked: at most 100 characters)."""
    table, round_number, action = _action(button)
    if table < 0 or round_number < 0:
        raise ValueError("a button's table and round are never negative")
    cid = f"{PREFIX}:{table}:{round_number}:{action}"
    if len(cid) > MAX_LENGTH:
        raise ValueError(f"custom_id longer than {MAX_LENGTH} characters: {cid!r}")
    return cid


def table_prefix(table_id: int, round_number: int) -> str:
    """What every id of a table's round starts with (to find a message posted with them)."""
    return f"{PREFIX}:{table_id}:{round_number}:"


def _optional(rest: list[str]) -> str | None:
    return rest[0] if rest else None


def decode(custom_id: str) -> ButtonId:
    """The button an id names; :class:`BadButtonId` when it is not one of this version's."""
    match = re.fullmatch(ANY_TEMPLATE, custom_id)
    if match is None:
        raise BadButtonId(custom_id, "not a Tripoley id")
    table, round_number, action = int(match["table"]), int(match["round"]), match["action"]
    verb, _, arg = action.partition(".")
    rest = arg.split(".") if arg else []
    menu = verb == "pick"
    if verb == "page":
        kind, _, tail = arg.partition(".")
        key, _, number = tail.rpartition(".")
        if not kind or not number.isdigit():
            raise BadButtonId(custom_id, "a page button needs a list, a key and a page number")
        return PageButton(kind, key, int(number))
    if verb == "confirm" and rest:
        return ConfirmButton(rest[0], tuple(rest[1:]))
    if verb in LOBBY_VERBS and not rest:
        return LobbyButton(table, verb)
    if verb == "ai" and len(rest) == 1 and rest[0] in AI_LEVELS:
        return LobbyButton(table, verb, rest[0])
    if action == "pick.house":
        return HouseRuleMenu(table)
    if action == "rematch":
        return RematchButton(table)
    if action == "replay":
        return ReplayButton(table)
    if verb == "gamelog" and len(rest) <= 2:
        page = int(rest[0]) if rest and rest[0].isdigit() else None
        return GameLogButton(table, page, page is not None and rest[1:] == ["next"])
    if action == "spaces":
        return SpaceRulesButton(table, round_number)
    if action == "pick.spacerule":
        return SpaceRulesMenu(table, round_number)
    if verb in ("vote", "kick") and len(rest) == 1 and rest[0].isdigit():
        return VoteButton(table, round_number, int(rest[0])) if verb == "vote" else KickButton(table, int(rest[0]))
    if verb in SEAT_VERBS and not rest:
        return SeatButton(table, round_number, verb)
    if verb == "log":
        page = int(rest[0]) if rest and rest[0].isdigit() else None
        return LogButton(table, round_number, page, page is not None and rest[1:] == ["next"])
    if verb == "do" and 1 <= len(rest) <= 2:
        return MoveButton(table, round_number, rest[0], _optional(rest[1:]))
    if verb == "amt" and 1 <= len(rest) <= 2:
        return AmountButton(table, round_number, rest[0], _optional(rest[1:]))
    if verb == "suit" and len(rest) == 1:
        return SuitButton(table, round_number, rest[0])
    if verb == "lead" and len(rest) == 1:
        return LeadButton(table, round_number, rest[0])
    if menu and rest and rest[0] in CARD_MENUS and len(rest) <= 2:
        return CardMenu(table, round_number, rest[0], _optional(rest[1:]))
    raise BadButtonId(custom_id, f"no such action {action!r}", menu=menu)


def encode_form(button: AmountButton) -> str:
    """The id of the amount form a button opens (it carries the button's facts)."""
    verb = _parts(button.verb, *([] if button.ace is None else [button.ace]))
    return f"{FORM_PREFIX}{button.table}:{button.round}:{verb}"


def decode_form(custom_id: str) -> AmountButton | None:
    """The button whose form this is; None for an id that is not one of our forms."""
    if not custom_id.startswith(FORM_PREFIX):
        return None
    try:
        _, table, round_number, verb = custom_id.split(":", 3)
        verb, _, ace = verb.partition(".")
        return AmountButton(int(table), int(round_number), verb, ace or None)
    except ValueError:
        return None


class BadCardValue(ValueError):
    """A card menu's choice that is no card of the hand as it is now (a menu shown before the hand
    changed, or a forged value)."""


def card_values(cards: Iterable[str]) -> list[str]:
    """One select value per physical card, in order: a card's first copy is its engine code
    (``QH``), each further copy carries its number (``QH.2``, ``QH.3``). The same cards in the same
    order always give the same values, so a menu stays valid while the hand is unchanged."""
    seen: Counter[str] = Counter()
    out = []
    for code in cards:
        seen[code] += 1
        out.append(code if seen[code] == 1 else f"{code}{COPY_MARK}{seen[code]}")
    return out


def copy_number(value: str) -> int:
    """Which copy of its card a value of :func:`card_values` names (1 for the first)."""
    _, _, number = value.partition(COPY_MARK)
    return int(number) if number.isdigit() else 1


def read_card_values(values: Sequence[str], cards: Sequence[str]) -> list[str]:
    """The engine codes of a card menu's choices, checked against the cards the menu offers now
    (``cards``): :class:`BadCardValue` for a value that names no copy there, or one chosen twice."""
    offered = set(card_values(cards))
    if len(set(values)) != len(values) or any(value not in offered for value in values):
        raise BadCardValue("a card menu's choice names no card of the hand")  # never the cards: logs are public
    return [value.partition(COPY_MARK)[0] for value in values]
