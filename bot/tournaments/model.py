"""A tournament's state and its rules, without Discord or a database: seating, advancing, the prizes.

A *competitor* is an entrant (a person who bought in: ``e<entry>``) or an AI seat filling a table
of the first stage (``a<n>``: allowed by the host, paying nothing and winning nothing). Each stage
seats the competitors still in at tables of balanced sizes; the top places of each table (by its
final standings) go on, until everyone left fits at one table: the final, whose order is the
tournament's. The pot (every buy-in) is paid to the best placed entrants who did not leave, by
:func:`prize_split`; what the division leaves over goes to the best place, so no chip is lost.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

# Accounts (wallet rows) that are not people: negative, so no leaderboard shows them. A tournament's
# pot holds its buy-ins; a tournament table's stack account funds its fresh stacks and takes them back.
POT_ACCOUNTS = 10**12
STACK_ACCOUNTS = 2 * 10**12
# Paid places by the size of the field (entrants who bought in): the percentage of the pot for each.
SPLITS: tuple[tuple[int, tuple[int, ...]], ...] = ((4, (100,)), (7, (65, 35)), (10**9, (50, 30, 20)))
ENDINGS = ("elimination", "rounds")


def pot_account(tournament_id: int) -> int:
    return -(POT_ACCOUNTS + tournament_id)


def stack_account(table_id: int) -> int:
    return -(STACK_ACCOUNTS + table_id)


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Entrant:
    entry: int  # its place in the order of sign-up (its competitor id is ``e<entry>``)
    user_id: int
    name: str
    paid: int
    left: bool = False  # left after the start: forfeits (no advancing, no prize)
    place: int | None = None
    prize: int = 0

    @property
    def key(self) -> str:
        return f"e{self.entry}"


@dataclass
class StageTable:
    """One table of a stage: its competitors in seat order, its table and thread once opened, and
    its final order (competitor ids, best first) once it has finished."""

    number: int
    seats: list[str]
    table_id: int | None = None
    thread_id: int | None = None
    order: list[str] | None = None


@dataclass
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    buy_in: int
    table_size: int
    advance: int
    ending: str = "elimination"  # or "rounds"
    rounds: int = 3
    ai_fill: bool = False
    start_at: float | None = None  # a wall time: the start, unless the host starts it first
    status: TournamentStatus = TournamentStatus.SIGNUP
    entrants: list[Entrant] = field(default_factory=list)  # saved as rows of their own (forget-me)
    ai_names: dict[str, str] = field(default_factory=dict)  # AI competitor id → its seat's name
    stages: list[list[StageTable]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # the final standings, once finished
    message_id: int | None = None  # the sign-up message
    created_at: float = 0.0
    locale: str = "en"  # the language of its posts and its tables (bot.i18n.choice.public_locale), fixed at creation

    # -- derived --------------------------------------------------------------

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.left]

    def entrant_of(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def by_key(self, key: str) -> Entrant | None:
        return next((e for e in self.entrants if e.key == key), None)

    def name_of(self, key: str) -> str:
        entrant = self.by_key(key)
        return entrant.name if entrant is not None else self.ai_names.get(key, key)

    def pot(self) -> int:
        return sum(e.paid for e in self.entrants)

    def stage(self) -> list[StageTable]:
        return self.stages[-1] if self.stages else []

    def options(self) -> dict[str, Any]:
        """The engine options of its tables: elimination with the Rulebook's escalating antes, or a
        set number of rounds."""
        if self.ending == "elimination":
            return {"game_end": "elimination", "ante": "rulebook"}
        return {"game_end": f"rounds:{self.rounds}"}

    # -- persistence (the entrants are rows of their own) ----------------------

    def to_state(self) -> str:
        return json.dumps(
            {
                "preset": self.preset,
                "buy_in": self.buy_in,
                "table_size": self.table_size,
                "advance": self.advance,
                "ending": self.ending,
                "rounds": self.rounds,
                "ai_fill": self.ai_fill,
                "ai_names": self.ai_names,
                "stages": [[asdict(t) for t in stage] for stage in self.stages],
                "order": self.order,
                "message_id": self.message_id,
                "locale": self.locale,
            }
        )

    def load_state(self, text: str) -> None:
        state = json.loads(text)
        self.preset = state["preset"]
        self.buy_in = int(state["buy_in"])
        self.table_size = int(state["table_size"])
        self.advance = int(state["advance"])
        self.ending = state["ending"]
        self.rounds = int(state["rounds"])
        self.ai_fill = bool(state["ai_fill"])
        self.ai_names = dict(state["ai_names"])
        self.stages = [[StageTable(**t) for t in stage] for stage in state["stages"]]
        self.order = list(state["order"])
        self.message_id = state.get("message_id")
        self.locale = state.get("locale", "en")


def table_sizes(players: int, table_size: int) -> list[int]:
    """Balanced sizes for ``players`` at tables of at most ``table_size``: as few tables as fit them,
    sizes differing by one at most (7 at 4 → 4, 3)."""
    tables = max(1, math.ceil(players / table_size))
    base, extra = divmod(players, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def seat_stage(competitors: list[str], table_size: int) -> list[StageTable]:
    """The tables of a stage, competitors dealt round the tables in turn (so the first entrants, or
    the best of the stage before, do not all meet at one table)."""
    sizes = table_sizes(len(competitors), table_size)
    seats: list[list[str]] = [[] for _ in sizes]
    table = 0
    for competitor in competitors:
        while len(seats[table]) >= sizes[table]:
            table = (table + 1) % len(sizes)
        seats[table].append(competitor)
        table = (table + 1) % len(sizes)
    return [StageTable(number=i + 1, seats=s) for i, s in enumerate(seats)]


def first_field(entrants: int, table_size: int, ai_fill: bool) -> int:
    """How many seats the first stage has: the entrants, or with AI seats allowed every table filled."""
    if not ai_fill:
        return entrants
    return max(1, math.ceil(entrants / table_size)) * table_size


def table_order(seats: list[str], finals: list[int]) -> list[str]:
    """A finished table's order, best first: by final stack, a tie by seat (who sat first)."""
    ranked = sorted(range(len(seats)), key=lambda i: (-finals[i], i))
    return [seats[i] for i in ranked]


def advancing(tournament: Tournament, stage: list[StageTable]) -> list[str]:
    """Who goes on from a finished stage: the best ``advance`` of each table (at most all but one of
    it, so every stage shrinks), passing over entrants who left; ordered by place, then table."""
    chosen: list[list[str]] = []
    for table in stage:
        assert table.order is not None  # called once every table of the stage has finished
        eligible = [key for key in table.order if not _left(tournament, key)]
        chosen.append(eligible[: min(tournament.advance, len(table.order) - 1)])
    width = max((len(c) for c in chosen), default=0)
    return [c[i] for i in range(width) for c in chosen if i < len(c)]


def _left(tournament: Tournament, key: str) -> bool:
    entrant = tournament.by_key(key)
    return entrant is not None and entrant.left


def final_order(tournament: Tournament) -> list[str]:
    """The tournament's standings, best first: the final table's order, then those out at each stage
    before it (the latest first), by their place at their table, then their table; entrants who left
    after the start come last, in the same order."""
    order: list[str] = []
    for stage in reversed(tournament.stages):
        out: list[tuple[int, int, str]] = []
        for table in stage:
            for place, key in enumerate(table.order or []):
                if key not in order:
                    out.append((place, table.number, key))
        order += [key for _, _, key in sorted(out)]
    return [k for k in order if not _left(tournament, k)] + [k for k in order if _left(tournament, k)]


def prize_split(field_size: int) -> tuple[int, ...]:
    """The percentage of the pot paid to each place, best first (winner takes all in a tiny field)."""
    return next(split for most, split in SPLITS if field_size <= most)


def prizes(pot: int, field_size: int, paid_places: int) -> list[int]:
    """The pot divided by :func:`prize_split` over at most ``paid_places`` places (the entrants who
    can be paid): a place that can't be paid gives its share to the best place, as does the
    remainder of the division, so the prizes add up to the pot exactly."""
    split = prize_split(field_size)[: max(paid_places, 1)]
    amounts = [pot * share // 100 for share in split]
    amounts[0] += pot - sum(amounts)
    return amounts
