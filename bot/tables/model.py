"""A table's state: its seats, its game, its deadline and log, and how it is saved.

A :class:`Table` is a lobby (seats and buy-ins) and then a running engine ``Game``; the table
manager (:mod:`bot.tables.manager`) changes it under its ``lock`` and hands a :class:`TableUpdate` to the
Discord layer. The ids of the Discord messages that show it (lobby, mat, turn ping, thread) are
saved with it, but only the Discord layer sets them (:mod:`bot.tables.messageids`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from bot.economy.bank import HOUSE
from bot.errors import TripoleyError
from bot.storage.dialect import Row
from bot.tables.telling import Notice
from engine import Awaiting, Game
from engine.events import Event
from engine.presets import PRESETS, Preset

LOG_LINES = 10
ROUND_LOG_LINES = 1000  # a round's whole story (the Log button); bounded so a saved table stays small
# The whole game's story (kept with the finished game: the final message's Log): past this many
# lines the oldest rounds are dropped, so a saved table stays small however long the game runs.
GAME_LOG_LINES = 20_000


class TableStatus(StrEnum):
    """Where a table is in its life (saved as its value: the tables' ``status`` column)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    QUARANTINED = "quarantined"  # only a row's: its saved state set aside (bot.tables.quarantine), never loaded


class DeadlineKind(StrEnum):
    """What a table's deadline fires (bot.tables.timers): saved as its value with the table."""

    LOBBY = "lobby"  # nobody started the game in time: the lobby closes
    TURN = "turn"  # a player's time to act runs out
    AI = "ai"  # an AI seat's move, after its pause
    FORCED = "forced"  # a player's only legal card, played for them after a short pause (Table.auto_forced)
    NEXT_DEAL = "next-deal"  # the pause between rounds ends
    FINISH = "finish"  # a finished game's cash-out tried again (set by older versions: saved tables may hold it)


class UpdateKind(StrEnum):
    """What a :class:`TableUpdate` shows: a lobby, a game going on, or its end."""

    LOBBY = "lobby"
    PLAY = "play"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Seat:
    name: str
    user_id: int | None  # None: an AI seat (plays from the house account)
    stake: int = 0  # chips bought in
    timeouts: int = 0  # timeouts in a row
    away: bool = False  # played by AI after too many timeouts, until "I'm back"
    left: bool = False  # left mid-game: AI until the end, cashed out at the end
    removed: bool = False  # that, because the host or an admin removed them (not of their own accord)
    ai_level: str = "normal"  # an AI seat's level (engine.ai.LEVELS); away and left seats play Normal
    votes: list[int] = field(default_factory=list)  # who voted to hand this absent player's seat to the AI
    # The account its chips come from and go back to, when not its player's wallet (or the house's):
    # a tournament table's stack account (bot.tournaments), so a tournament's stacks never reach a wallet.
    funded_by: int | None = None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def auto(self) -> bool:
        """Whether the AI decides for this seat."""
        return self.user_id is None or self.away or self.left

    @property
    def searches(self) -> bool:
        """Whether its AI searches (Hard; away and left seats play Normal): a move that takes a
        while, so the timers play it in a task of its own."""
        return self.is_ai and self.ai_level == "hard"

    @property
    def account(self) -> int:
        if self.funded_by is not None:
            return self.funded_by
        return HOUSE if self.user_id is None else self.user_id


# The fields that name the Discord messages (and thread) showing a table: kept when it is rolled back.
SHOWN_BY = ("lobby_message_id", "mat_message_id", "mat_round", "ping_message_id", "thread", "thread_id")


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    options: dict[str, Any]
    buy_in: int
    turn_timeout: float
    ai_pause: float
    status: TableStatus = TableStatus.LOBBY
    seats: list[Seat] = field(default_factory=list)
    game: Game | None = None  # once started
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    deadline_seat: int | None = None
    lobby_message_id: int | None = None
    mat_message_id: int | None = None
    mat_round: int | None = None
    thread: bool = False  # run the game in a thread started from the lobby message
    thread_id: int | None = None  # that thread, once started
    rematch_of: int | None = None  # the finished table whose players this lobby seats on Rematch
    # A card that is its holder's only choice (Great Lakes' next card without a combination) is played
    # for them after a short pause, not asked for with a click; off, every such card waits for the
    # player (then nobody can tell from the timing whether a combination was possible).
    auto_forced: bool = True
    locale: str = "en"  # the language of its public messages and mat (bot.i18n.choice.public_locale), fixed at opening
    ping_message_id: int | None = None  # the turn ping on show (bot.discordio.turns), deleted once answered
    log: list[str] = field(default_factory=list)  # Discord text: names escaped (bot.messages.text.escape)
    round_logs: dict[str, list[str]] = field(default_factory=dict)  # round → every log line, the whole game
    # Everyone the log has named, user id (as text) → name, seated or not (a lobby they left, an admin who
    # kicked): what forget-me scrubs from the log (bot.economy.forgetting.forget_in_tables).
    named: dict[str, str] = field(default_factory=dict)
    version: int = 0
    created_at: float = 0.0
    result: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    # The state text its database row holds (the last write of it that succeeded): what the table
    # goes back to when a change can't be saved (:meth:`roll_back`), kept so no move pays for a copy.
    saved: str | None = field(default=None, repr=False, compare=False)

    # -- derived --------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round number used in button ids: 0 in the lobby."""
        if self.game is None:
            return 0
        return int(self.game.round_number)

    @property
    def running_game(self) -> Game:
        """The game of a started table (only a lobby has none: an error to ask it then)."""
        if self.game is None:
            raise RuntimeError(f"table {self.id} has no game: it is a lobby")
        return self.game

    @property
    def mat_channel(self) -> int:
        """Where the game's messages go: its thread, else the channel."""
        return self.thread_id or self.channel_id

    @property
    def preset_info(self) -> Preset:
        return PRESETS[self.preset]

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.user_id is not None]

    def awaiting(self) -> Awaiting | None:
        if self.game is None or self.status != TableStatus.PLAYING:
            return None
        return self.game.awaiting()

    def chips_in_play(self) -> int:
        if self.game is not None:
            return int(self.game.total_chips())
        return sum(s.stake for s in self.seats)

    def add_log(self, line: str, naming: tuple[tuple[int, str], ...] = ()) -> None:
        """A log line; ``naming``: the people (user id, name) it names, kept in ``named``."""
        for user_id, name in naming:
            self.named[str(user_id)] = name
        if line:
            self.log.append(line)
            del self.log[:-LOG_LINES]
            story = self.round_logs.setdefault(str(max(self.round, 1)), [])
            if len(story) < ROUND_LOG_LINES:
                story.append(line)
                if sum(len(lines) for lines in self.round_logs.values()) > GAME_LOG_LINES:
                    del self.round_logs[min(self.round_logs, key=int)]

    def round_log(self, round_number: int) -> list[str]:
        """Every log line of a round."""
        return list(self.round_logs.get(str(round_number), ()))

    def ask_humans(self) -> None:
        """Great Lakes: a player at the keyboard is asked about every next card they hold (see
        ``engine.Game.ask_holders``), so being asked never tells the table they could place a
        combination."""
        if self.game is not None:
            self.game.ask_holders = frozenset(i for i, seat in enumerate(self.seats) if not seat.auto)

    # -- persistence ----------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """The saved state: :class:`SavedTable`'s fields, ready for ``json.dumps``."""
        state = {name: getattr(self, name) for name in SAVED_FIELDS}
        state.update(
            format=TABLE_FORMAT,
            seats=[asdict(s) for s in self.seats],
            game=self.game.to_json() if self.game is not None else None,
        )
        return state

    @classmethod
    def from_row(cls, row: Row, clock: Callable[[], float] | None = None) -> Table:
        saved = read_state(row["state_json"])
        table = cls(
            id=int(row["id"]),
            guild_id=int(row["guild_id"]),
            channel_id=int(row["channel_id"]),
            host_id=int(row["host_id"]),
            preset=row["preset"],
            status=TableStatus(row["status"]),
            created_at=float(row["created_at"]),
            **saved.fields(),
        )
        table._load_game(saved, clock)
        table.saved = row["state_json"]
        return table

    def _load_game(self, saved: SavedTable, clock: Callable[[], float] | None) -> None:
        self.game = Game.from_json(saved.game, clock=clock) if saved.game else None
        self.ask_humans()

    def checkpoint(self) -> Checkpoint:
        """What :meth:`roll_back` puts back: the state the database holds (a lobby's, encoded now:
        without a game that is cheap; a game's as last saved, encoded already)."""
        state = self.saved if self.game is not None and self.saved is not None else json.dumps(self.to_state())
        return Checkpoint(state, self.status, self.result)

    def roll_back(self, checkpoint: Checkpoint) -> None:
        """Undo every change since ``checkpoint`` in memory: its save was refused, so the table is as
        its database row holds it (as a restart would load it). The ids of the Discord messages that
        show it are kept: they name messages that exist. The version moves on (the table is shown again)."""
        shown = {name: getattr(self, name) for name in SHOWN_BY}
        version = self.version
        saved = read_state(checkpoint.state)
        for name, value in saved.fields().items():
            setattr(self, name, value)
        self._load_game(saved, self.game.clock if self.game is not None else None)
        self.status, self.result = checkpoint.status, checkpoint.result
        for name, value in shown.items():
            setattr(self, name, value)
        self.version = max(version, self.version) + 1


TABLE_FORMAT = 1  # the shape of SavedTable; 0: saved before the format was (the same fields)


class SavedTableTooNew(ValueError):
    """A table saved by a newer version of the bot, in a format this one does not know: never read as
    if it were one it knows (it is quarantined, its chips refunded, with this as the reason)."""

    def __init__(self, found: int) -> None:
        super().__init__(f"format={found} known={TABLE_FORMAT}")
        self.found = found


class SavedTable(BaseModel):
    """A table's saved state (its row's ``state_json``; the row's columns hold its id, place, host,
    game, status and creation), declared once: :meth:`Table.to_state` writes these fields and
    :meth:`Table.from_row` reads them back, a field missing from an older save at its default.
    A change to the shape bumps :data:`TABLE_FORMAT`, and reads the older formats on."""

    model_config = ConfigDict(extra="ignore")

    format: int = 0
    options: dict[str, Any] = Field(default_factory=dict)
    buy_in: int = 0
    turn_timeout: float = 60
    ai_pause: float = 1
    seats: list[Seat] = Field(default_factory=list)
    game: str | None = None  # engine.Game.to_json, which carries its own format
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    deadline_seat: int | None = None
    lobby_message_id: int | None = None
    mat_message_id: int | None = None
    mat_round: int | None = None
    ping_message_id: int | None = None
    thread: bool = False
    thread_id: int | None = None
    rematch_of: int | None = None
    auto_forced: bool = True
    locale: str = "en"  # the language of its public messages and mat, fixed at opening
    log: list[str] = Field(default_factory=list)
    round_logs: dict[str, list[str]] = Field(default_factory=dict)
    named: dict[str, str] = Field(default_factory=dict)
    version: int = 0

    @field_validator("options", "log", "round_logs", "named", "seats", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any, info: ValidationInfo) -> Any:
        """A collection saved as null (older versions read it as empty): empty."""
        assert info.field_name is not None
        return cls.model_fields[info.field_name].get_default(call_default_factory=True) if value is None else value

    @field_validator("deadline_kind", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return value or None

    def fields(self) -> dict[str, Any]:
        """The fields of :class:`Table` it holds, as the table takes them (the game aside: it needs a clock)."""
        return {name: getattr(self, name) for name in SAVED_FIELDS}


# The saved fields that are the table's as they are (the format and the game's text are not).
SAVED_FIELDS = tuple(name for name in SavedTable.model_fields if name not in ("format", "game"))


def read_state(text: str) -> SavedTable:
    """A saved state, checked: a newer format than this code knows is refused (:class:`SavedTableTooNew`)."""
    state = json.loads(text)
    found = state.get("format", 0) if isinstance(state, dict) else 0
    if not isinstance(found, int) or found > TABLE_FORMAT:
        raise SavedTableTooNew(found)
    return SavedTable.model_validate(state)


@dataclass(frozen=True)
class Checkpoint:
    """A table's state to go back to (:meth:`Table.roll_back`): its state text, status and result."""

    state: str
    status: TableStatus
    result: dict[str, Any] | None


@dataclass
class TableUpdate:
    """What changed at a table, for the Discord layer to show."""

    table: Table
    kind: UpdateKind
    events: list[Event] = field(default_factory=list)  # what the engine emitted meanwhile
    dealt: bool = False  # new hands: DM them to players with DMs on
    message: str | None = None  # feedback for the player who caused it
    refused: TripoleyError | None = None  # a part of it that was refused (Rematch: an AI seat), worded where shown
    notices: list[tuple[int, Notice]] = field(default_factory=list)  # (user id, what) to tell that player privately
    version: int = 0

    @classmethod
    def of(cls, table: Table, kind: UpdateKind, **kw: Any) -> TableUpdate:
        """The update for the table as it is now (its current version)."""
        return cls(table=table, kind=kind, version=table.version, **kw)


Listener = Callable[[TableUpdate], None]
BeforeApply = Callable[[], Awaitable[Any]]
