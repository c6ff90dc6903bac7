"""What a table tells, as facts: the table service says *what* happened (a :class:`Line` and its
facts, the game's events, a decision) and a :class:`Teller` words it.

The words are the Discord side's (:class:`bot.messages.tablelines.TableLines`, given to the
:class:`~bot.tables.manager.TableManager`), so nothing in ``bot/tables`` writes a sentence or
imports the messages; facts are as typed (names unescaped: the teller escapes them).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Action
from engine.events import Event
from engine.viewtypes import GameView


class Line(enum.Enum):
    """A line of the table's log, its answer to the player who acted, or a notice to one player;
    the facts each needs are in :data:`bot.messages.tablelines.LINES`."""

    # The lobby (bot.tables.lobby)
    OPENED = enum.auto()
    TABLE_OPEN = enum.auto()
    REMATCH = enum.auto()
    YOURE_IN = enum.auto()
    JOINED = enum.auto()
    SAT_DOWN = enum.auto()
    AI_SEAT_TAG = enum.auto()  # what follows an AI seat's name: its level ("(Hard AI)")
    JOINS_TABLE = enum.auto()
    HOUSE_RULE = enum.auto()
    HOUSE_RULE_SET = enum.auto()
    ADMIN_REMOVED = enum.auto()
    LEFT = enum.auto()
    EVERYONE_LEFT = enum.auto()
    NEW_HOST = enum.auto()
    OFF_THE_TABLE = enum.auto()
    YOU_LEFT_LOBBY = enum.auto()
    REMOVED_TO_AI = enum.auto()
    LEFT_TO_AI = enum.auto()
    REMOVED_TO_AI_NOW = enum.auto()
    YOU_LEFT_GAME = enum.auto()
    BEGINS = enum.auto()
    GAME_ON = enum.auto()
    # Moves and the end of a table (bot.tables.play, bot.tables.flow)
    DONE = enum.auto()
    BACK = enum.auto()
    WELCOME_BACK = enum.auto()
    HOST_CLOSED = enum.auto()
    HOST_STOPPED = enum.auto()
    MANAGER_CLOSED = enum.auto()
    MANAGER_STOPPED = enum.auto()
    PLACE_LOST_LOBBY = enum.auto()
    PLACE_LOST_GAME = enum.auto()
    EVERY_PLAYER_LEFT = enum.auto()
    GAME_OVER = enum.auto()
    # Deadlines (bot.tables.timers)
    LOBBY_EXPIRED = enum.auto()
    LEFT_SERVER_TO_AI = enum.auto()
    RAN_OUT_OF_TIME = enum.auto()
    TIMED_OUT_TO_AI = enum.auto()
    AI_TAKEOVER_NOTICE = enum.auto()
    # The host and the table on a seat (bot.tables.moderation)
    HOST_REMOVED = enum.auto()
    KICKED_FROM_LOBBY = enum.auto()
    KICKED_FROM_GAME = enum.auto()
    VOTE_COUNTS = enum.auto()
    VOTED_TO_AI = enum.auto()
    VOTED_AWAY_NOTICE = enum.auto()


@dataclass(frozen=True)
class Notice:
    """A line told to one player privately ("an AI plays your seat now"), worded when it is sent, in
    that player's language (their DM's), whoever's deed or timer caused it."""

    line: Line
    facts: Mapping[str, Any] = field(default_factory=dict)


class Note(enum.Enum):
    """How a decision came to be made, told with its log line."""

    NONE = enum.auto()  # its player (or its AI) decided
    TIMED_OUT = enum.auto()  # its player's time ran out: the safe default
    FORCED = enum.auto()  # the holder's only card, played for them (Table.auto_forced)


class Teller(Protocol):
    """Words for what a table tells (Discord text: names escaped)."""

    def say(self, line: Line, /, **facts: Any) -> str:
        """The sentence of ``line`` with its facts (in the language being read: the one who acted)."""
        ...

    def public(self, locale: str, line: Line, /, **facts: Any) -> str:
        """:meth:`say` in a table's language ``locale``: a line its channel reads (its log)."""
        ...

    def events(self, events: Sequence[Event], view: GameView) -> list[str]:
        """The log's lines for the game's ``events`` (``view``: the public view, names as typed)."""
        ...

    def action(
        self,
        names: Sequence[str],
        action: Action,
        events: Sequence[Event],
        phase: str | None,
        note: Note = Note.NONE,
        *,
        you: bool = False,
    ) -> str:
        """What everyone may read about a decision (``names``: the seats' names as typed); ``you``:
        the same said to the player who decided (their answer: "you keep the hand as dealt")."""
        ...
