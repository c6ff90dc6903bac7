"""The table manager: one table per channel, testable without Discord.

A table is a lobby (seats and buy-ins) and then a running engine ``Game``.
Every entry point takes the table's ``asyncio.Lock``, changes state, saves it
(engine JSON, seats, deadline, message ids) and returns a :class:`TableUpdate`
that the Discord layer turns into messages. Updates are also pushed to the
registered listeners (the mat publisher), so changes made by timers and AI
seats reach the channel too.

Deadlines are absolute times from an injectable clock; :meth:`TableManager.tick`
fires the due ones (lobby expiry, turn timeout, AI move, next deal) and
:meth:`TableManager.run` calls it as they come due.

Saving: whenever chips move between wallets and a table (buy-in, refund, cash-out)
the chips and the table's state are written in one transaction. Moves inside a
game only change the engine JSON, so the states a table passes through while AIs
play (and between rounds) are coalesced: the newest state of each table is
written at most every ``save_delay`` seconds, many tables per short
transaction (:meth:`TableManager.flush_saves` writes them all, e.g. at
shutdown). A state that waits for a human (their turn), a human's move whose
answer shows its result, and the start of a game are written at once, before
anyone is told about them. A crash therefore loses at most a few seconds of AI
moves, never chips and never a move a player was shown. After a restart,
:meth:`TableManager.resume` loads every open table and re-arms its deadline. A
player's turn whose time ran out (or nearly) while the bot was down gets a grace
period (``TableManager.resume_grace``, 15 s) instead of an instant timeout: it
only counts as a timeout if it runs out again after the restart. Other deadlines
(AI moves, the next deal, lobby expiry) fire at once when past.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from . import errors, storage
from .aiworker import LEVEL_NAMES, AIPlayers
from .bank import HOUSE, Bank
from .clock import Clock, SystemClock
from .prefs import Prefs
from .settings import Settings
from .storage import Database
from .text import escape, in_words, not_now, you_did

log = logging.getLogger(__name__)

AI_NAMES = [
    "Ada",
    "Babbage",
    "Curie",
    "Dijkstra",
    "Euler",
    "Fermat",
    "Gauss",
    "Hopper",
    "Isaac",
    "Jacquard",
    "Knuth",
    "Lovelace",
    "Marple",
    "Noether",
    "Oppie",
    "Pascal",
    "Quine",
    "Ramanujan",
    "Shannon",
]

LOG_LINES = 10
ROUND_LOG_LINES = 1000  # a round's whole story (the Log button); bounded so a saved table stays small


def hand_rank(name: str | None) -> int:
    """How strong a hand named in a showdown is (stored as a player's best hand; -1: none)."""
    from engine.hands import name_strength

    return name_strength(name)


# ---------------------------------------------------------------------------
# State


@dataclass
class Seat:
    name: str
    user_id: int | None  # None: an AI seat (plays from the house account)
    stake: int = 0  # chips bought in
    timeouts: int = 0  # timeouts in a row
    away: bool = False  # played by AI after too many timeouts, until "I'm back"
    left: bool = False  # left mid-game: AI until the end, cashed out at the end
    ai_level: str = "normal"  # an AI seat's level (engine.ai.LEVELS); away and left seats play Normal

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def auto(self) -> bool:
        """Whether the AI decides for this seat."""
        return self.user_id is None or self.away or self.left

    @property
    def account(self) -> int:
        return HOUSE if self.user_id is None else self.user_id


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
    status: str = "lobby"  # lobby | playing | finished | cancelled
    seats: list[Seat] = field(default_factory=list)
    game: Any = None  # engine.Game once started
    deadline: float | None = None
    deadline_kind: str | None = None  # lobby | turn | ai | next-deal
    deadline_seat: int | None = None
    lobby_message_id: int | None = None
    mat_message_id: int | None = None
    mat_round: int | None = None
    thread: bool = False  # run the game in a thread started from the lobby message
    thread_id: int | None = None  # that thread, once started
    rematch_of: int | None = None  # the finished table whose players this lobby seats on Rematch
    ping_message_id: int | None = None  # the turn ping on show (bot.turns), deleted once answered
    log: list[str] = field(default_factory=list)  # Discord text: names escaped (bot.text.escape)
    round_logs: dict[str, list[str]] = field(default_factory=dict)  # round → every log line (this round and the last)
    version: int = 0
    created_at: float = 0.0
    result: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    # -- derived --------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round number used in button ids: 0 in the lobby."""
        if self.game is None:
            return 0
        return int(self.game.round_number)

    @property
    def mat_channel(self) -> int:
        """Where the game's messages go: its thread, else the channel."""
        return self.thread_id or self.channel_id

    @property
    def preset_info(self):
        from engine.presets import PRESETS

        return PRESETS[self.preset]

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.user_id is not None]

    def awaiting(self):
        if self.game is None or self.status != "playing":
            return None
        return self.game.awaiting()

    def chips_in_play(self) -> int:
        if self.game is not None:
            return int(self.game.total_chips())
        return sum(s.stake for s in self.seats)

    def add_log(self, line: str) -> None:
        if line:
            self.log.append(line)
            del self.log[:-LOG_LINES]
            story = self.round_logs.setdefault(str(max(self.round, 1)), [])
            if len(story) < ROUND_LOG_LINES:
                story.append(line)
            for key in [k for k in self.round_logs if int(k) < self.round - 1]:
                del self.round_logs[key]

    def round_log(self, round_number: int) -> list[str]:
        """Every log line of a round (the current one or the one before it)."""
        return list(self.round_logs.get(str(round_number), ()))

    def ask_humans(self) -> None:
        """Great Lakes: a player at the keyboard is asked about every next card they hold (see
        ``engine.Game.ask_holders``), so being asked never tells the table they could place a
        combination."""
        if self.game is not None:
            self.game.ask_holders = frozenset(i for i, seat in enumerate(self.seats) if not seat.auto)

    # -- persistence ----------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "buy_in": self.buy_in,
            "turn_timeout": self.turn_timeout,
            "ai_pause": self.ai_pause,
            "seats": [asdict(s) for s in self.seats],
            "game": self.game.to_json() if self.game is not None else None,
            "deadline": self.deadline,
            "deadline_kind": self.deadline_kind,
            "deadline_seat": self.deadline_seat,
            "lobby_message_id": self.lobby_message_id,
            "mat_message_id": self.mat_message_id,
            "mat_round": self.mat_round,
            "ping_message_id": self.ping_message_id,
            "thread": self.thread,
            "thread_id": self.thread_id,
            "rematch_of": self.rematch_of,
            "log": self.log,
            "round_logs": self.round_logs,
            "version": self.version,
        }

    @classmethod
    def from_row(cls, row, clock: Callable[[], float] | None = None) -> Table:
        state = json.loads(row["state_json"])
        table = cls(
            id=int(row["id"]),
            guild_id=int(row["guild_id"]),
            channel_id=int(row["channel_id"]),
            host_id=int(row["host_id"]),
            preset=row["preset"],
            options=state.get("options") or {},
            buy_in=int(state.get("buy_in", 0)),
            turn_timeout=float(state.get("turn_timeout", 60)),
            ai_pause=float(state.get("ai_pause", 1)),
            status=row["status"],
            seats=[Seat(**s) for s in state.get("seats", [])],
            deadline=state.get("deadline"),
            deadline_kind=state.get("deadline_kind"),
            deadline_seat=state.get("deadline_seat"),
            lobby_message_id=state.get("lobby_message_id"),
            mat_message_id=state.get("mat_message_id"),
            mat_round=state.get("mat_round"),
            ping_message_id=state.get("ping_message_id"),
            thread=bool(state.get("thread")),
            thread_id=state.get("thread_id"),
            rematch_of=state.get("rematch_of"),
            log=list(state.get("log") or []),
            round_logs=dict(state.get("round_logs") or {}),
            version=int(state.get("version", 0)),
            created_at=float(row["created_at"]),
        )
        if state.get("game"):
            from engine import Game

            table.game = Game.from_json(state["game"], clock=clock)
            table.ask_humans()
        return table


@dataclass
class TableUpdate:
    """What changed at a table, for the Discord layer to show."""

    table: Table
    kind: str  # lobby | play | finished | cancelled
    events: list[dict] = field(default_factory=list)
    new_round: bool = False  # a fresh mat message is due
    dealt: bool = False  # new hands: DM them to players with DMs on
    message: str | None = None  # feedback for the player who caused it
    notices: list[tuple[int, str]] = field(default_factory=list)  # (user id, text) to tell that player privately
    version: int = 0


Listener = Callable[[TableUpdate], None]
BeforeApply = Callable[[], Awaitable[Any]]


# ---------------------------------------------------------------------------
# Events as text


# Events worth a line in the table's log. Players' own decisions (check, bet, bid, keep…) are
# logged from the action itself; antes and the chips of bets/calls are not worth a line each.
LOGGED_EVENTS = frozenset(
    {
        "payout",
        "transfer",
        "to_space",
        "stop",
        "out",
        "poker-win",
        "suit",
        "cannot-lead",
        "colour-flip",
        "stuck",
        "unclaimed",
        "round-end",
        "game-end",
        "sit-out",
        "eliminated",
    }
)
QUIET_TO_SPACE = frozenset({None, "", "ante", "call", "bet", "raise"})
STOPPED = "stopped by the host"  # the engine's game-end reason for Game.end_now


def describe_event(event: dict, view: dict) -> str | None:
    """One line for the table's event log, or None for events not worth a line.

    The wording is :func:`engine.textview.describe_event`'s (``view``: the public view, for
    names and space labels); only the public events in :data:`LOGGED_EVENTS` are told.
    """
    from engine.textview import describe_event as engine_text

    kind = event.get("type")
    if kind not in LOGGED_EVENTS:
        return None
    if kind == "to_space" and event.get("reason") in QUIET_TO_SPACE:
        return None
    if kind == "suit" and not event.get("suit"):
        return None
    if kind == "game-end" and event.get("reason") == STOPPED:
        return None  # the table's own line says who stopped the game
    try:
        line = engine_text(event, view)
    except (KeyError, IndexError, TypeError, ValueError):
        log.warning("could not describe a %s event", kind)
        return None
    if not line:
        return None
    line = line.strip("-= ")  # the terminal's "--- round 1 over ---" / "=== game over ===" frames
    return line[:1].upper() + line[1:]


def escaped_view(view: dict) -> dict:
    """The view with every seat's name escaped for Discord (the table's log is Discord text)."""
    return {**view, "seats": [{**s, "name": escape(s["name"])} for s in view.get("seats", [])]}


def public_action_text(names: list[str], action, events=(), phase: str | None = None) -> str:
    """What everyone may read about a decision, as a sentence with the seat's escaped name
    (:func:`engine.textview.describe_action`: a chosen poker hand stays secret); ``names``: the
    seats' names; ``events``: what applying it did; ``phase``: the phase it was decided in."""
    from engine.textview import describe_action

    seats = [{"name": escape(name)} for name in names]
    return describe_action({"seats": seats}, action.to_dict(), events, phase)


# ---------------------------------------------------------------------------
# Claims (strict claims: each pay card waits for its owner's Claim!)


def decision_token(game) -> str:
    """Which awaited decision this is: the number of events so far this round.

    A claim button carries it (``do.claim.<token>``), so a second, fast click on the same
    button can never claim the player's *next* pay card: once the first click is applied the
    round has more events and the old token no longer matches. It tells nothing about
    anyone's cards."""
    return str(game.decision_number())


def claim_is_public(game) -> bool:
    """Whether the pay card being claimed is on the table (played in Michigan), so its space may
    be named publicly; a claim right after the deal is for a card still hidden in the hand."""
    return game.cards_on_table()


AI_TAKEOVER_NOTICE = (
    "you ran out of time {count} times in a row, so an AI is playing your seat now."
    " Press **I'm back** on the table message to play again."
)

STALE_CLAIM = "Already claimed, or too late: that claim is settled, so nothing happened."


# ---------------------------------------------------------------------------
# Safe defaults on timeout


def card_rank(card: str) -> int:
    from engine.cards import parse, rank_of

    return rank_of(parse(card))


def safe_default(game, aw, ai_choice: Callable[[], Any]):
    """The action played for a seat that ran out of time (RULES: check or fold, best five,
    the forced or lowest lead, no bid). Falls back to the AI's choice when none applies."""
    from engine import Action

    legal = list(aw.legal)
    detail = aw.detail or {}
    candidates: list[Action] = []
    if "check" in legal:
        candidates.append(Action(seat=aw.seat, do="check"))
    if "fold" in legal:
        candidates.append(Action(seat=aw.seat, do="fold"))
    if "choose" in legal and detail.get("best"):
        candidates.append(Action(seat=aw.seat, do="choose", cards=list(detail["best"])))
    if "lead" in legal:
        cards = detail.get("cards") or []
        if cards:
            candidates.append(Action(seat=aw.seat, do="lead", card=min(cards, key=card_rank)))
        else:
            candidates.append(Action(seat=aw.seat, do="lead"))
    if "pass" in legal:
        candidates.append(Action(seat=aw.seat, do="pass"))
    if "keep" in legal:
        candidates.append(Action(seat=aw.seat, do="keep"))
    if "decline" in legal:
        candidates.append(Action(seat=aw.seat, do="decline"))
    if "play" in legal:
        candidates.append(Action(seat=aw.seat, do="play"))
    for action in candidates:
        try:
            game.check(action)
            return action
        except ValueError:
            continue
    return ai_choice()


# ---------------------------------------------------------------------------
# The manager


class TableManager:
    resume_grace = 15.0  # seconds a player's overdue turn gets after a restart

    def __init__(
        self,
        db: Database,
        bank: Bank,
        prefs: Prefs,
        settings: Settings,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        save_delay: float = 0.0,
    ) -> None:
        self.db = db
        self.save_delay = save_delay  # > 0: coalesce the saves of AI moves (see the module doc)
        self.save_batch = 8  # tables per coalesced-save transaction
        self._dirty: dict[int, Table] = {}  # table id → table whose newest state is not saved yet
        self._saver_task: asyncio.Task | None = None
        self.bank = bank
        self.prefs = prefs
        self.settings = settings
        self.clock = clock or SystemClock()
        self.rng = rng or random.Random()
        self.ai = AIPlayers(self.rng)  # the bot gives it a worker process pool for Hard decisions
        self.tables: dict[int, Table] = {}  # by channel id
        self.by_id: dict[int, Table] = {}
        self.threads: dict[int, Table] = {}  # by thread id: a table running in a thread
        # Whether a user is still a member of a server (the Discord layer asks Discord); None: assume so.
        self.member_check: Callable[[int, int], Awaitable[bool]] | None = None
        self.listeners: list[Listener] = []
        self._wake = asyncio.Event()
        self._busy_due = False  # the last tick skipped a due table whose lock was held
        self._create_lock = asyncio.Lock()

    # -- plumbing -------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def _notify(self, update: TableUpdate) -> None:
        for listener in self.listeners:
            try:
                listener(update)
            except Exception:
                log.exception("table listener failed")

    def _set_deadline(self, table: Table, delay: float | None, kind: str | None = None, seat: int | None = None):
        if delay is None:
            table.deadline = table.deadline_kind = table.deadline_seat = None
        else:
            table.deadline = self.clock.now() + delay
            table.deadline_kind = kind
            table.deadline_seat = seat
        self._wake.set()

    async def _save(self, table: Table, urgent: bool = True, priority: int | None = None) -> None:
        """Save the table's state: at once when ``urgent`` (or when saves are not coalesced),
        else soon (:meth:`_saver`), together with other tables' states. ``priority``: of the
        immediate save's transaction (:data:`bot.storage.INTERACTIVE` when an interaction's answer
        waits for it)."""
        if urgent or self.save_delay <= 0:
            self._dirty.pop(table.id, None)
            try:
                # One statement, no BEGIN/COMMIT: one trip to the database thread. The version moves
                # on once it is written (a coalesced save encoded before is then left out).
                await self.db.execute_alone(
                    "UPDATE tables SET state_json = ?, status = ? WHERE id = ?",
                    (json.dumps({**table.to_state(), "version": table.version + 1}), table.status, table.id),
                    priority,
                )
                table.version += 1
            except BaseException:
                if self.save_delay > 0 and table.status == "playing":
                    self._dirty.setdefault(table.id, table)  # the coalesced saves try again
                raise
            return
        table.version += 1
        self._dirty.setdefault(table.id, table)
        if self._saver_task is None or self._saver_task.done():
            self._saver_task = asyncio.get_running_loop().create_task(self._saver())

    async def _saver(self) -> None:
        """Write the coalesced states, ``save_delay`` after the first of them changed."""
        while self._dirty:
            await asyncio.sleep(self.save_delay)
            try:
                await self.flush_saves()
            except Exception:
                log.exception("saving table states failed; retrying")

    async def flush_saves(self) -> None:
        """Write every table state not saved yet (newest state each; short transactions).

        The states are encoded before the transaction, not inside it: the transaction holds the
        one database connection, and letting the event loop run in between (under load each turn
        of the loop takes milliseconds) kept every other save, and the interactions waiting for
        them, queued for 100-300 ms. A state that changed after it was encoded (its ``version``
        moved on) is left out: the newer one is either saved already or queued again."""
        while self._dirty:
            batch = []
            for table_id in list(self._dirty)[: self.save_batch]:
                batch.append(self._dirty.pop(table_id))
            try:
                encoded = []
                began = time.perf_counter()
                for i, t in enumerate(batch):
                    if t.status == "playing" and t.game is not None:
                        encoded.append((t, t.version, json.dumps(t.to_state())))
                    if time.perf_counter() - began > 0.004:  # a short turn of the loop: the rest next
                        for rest in batch[i + 1 :]:
                            self._dirty.setdefault(rest.id, rest)
                        batch = batch[: i + 1]
                        break
                await asyncio.sleep(0)
                async with self.db.transaction(storage.BACKGROUND) as conn:
                    rows = [(text, t.id) for t, version, text in encoded if t.version == version]
                    # A table finished (or stopped) meanwhile was saved with its chips: never overwrite it.
                    await conn.executemany("UPDATE tables SET state_json = ? WHERE id = ? AND status = 'playing'", rows)
            except BaseException:
                for t in batch:
                    self._dirty.setdefault(t.id, t)
                raise
            await asyncio.sleep(0)  # let interactions through between batches

    async def _write(self, conn, table: Table) -> None:
        """Save the table's state inside the caller's transaction."""
        table.version += 1
        await conn.execute(
            "UPDATE tables SET state_json = ?, status = ? WHERE id = ?",
            (json.dumps(table.to_state()), table.status, table.id),
        )

    @staticmethod
    def _snapshot(table: Table) -> tuple:
        return list(table.seats), list(table.log), table.host_id

    @staticmethod
    def _restore(table: Table, snapshot: tuple) -> None:
        """Undo in-memory lobby changes whose transaction failed (the database rolled back)."""
        seats, lines, host = snapshot
        table.seats[:] = seats
        table.log[:] = lines
        table.host_id = host

    def _forget(self, table: Table) -> None:
        self._dirty.pop(table.id, None)
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        if table.thread_id is not None and self.threads.get(table.thread_id) is table:
            del self.threads[table.thread_id]
        self.by_id.pop(table.id, None)

    def _remember(self, table: Table) -> None:
        self.tables[table.channel_id] = table
        self.by_id[table.id] = table
        if table.thread_id is not None:
            self.threads[table.thread_id] = table

    def get(self, channel_id: int) -> Table:
        """The open table of a channel, or of the thread it runs in."""
        table = self.tables.get(channel_id) or self.threads.get(channel_id)
        if table is None:
            raise errors.NoTable("There's no Tripoley table in this channel. Start one with `/tripoley start`.")
        return table

    def get_by_id(self, table_id: int) -> Table | None:
        return self.by_id.get(table_id)

    def seated(self, guild_id: int, user_id: int) -> bool:
        """Whether the user has a seat at an open table of the server (their chips are in play)."""
        return any(t.guild_id == guild_id and t.seat_of(user_id) is not None for t in self.by_id.values())

    def _update(self, table: Table, kind: str, **kw) -> TableUpdate:
        return TableUpdate(table=table, kind=kind, version=table.version, **kw)

    def next_deadline(self) -> float | None:
        times = [t.deadline for t in self.tables.values() if t.deadline is not None]
        return min(times) if times else None

    # -- start-up -------------------------------------------------------------

    async def resume(self) -> list[Table]:
        """Load every open table (lobby or playing) of this process's servers from the database
        (in a cluster, the other processes' tables are theirs: settings.owns_guild)."""
        rows = await self.db.fetchall("SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id")
        resumed = []
        for row in rows:
            if not self.settings.owns_guild(row["guild_id"]):
                continue
            try:
                table = Table.from_row(row, clock=self.clock.now)
            except Exception:
                log.exception("could not resume table %s", row["id"])
                continue
            self._remember(table)
            if table.status == "playing" and table.deadline is None:
                # Saved between steps: decide again what we wait for.
                async with table.lock:
                    await self._advance(table, [])
            elif table.status == "playing" and table.deadline_kind == "turn" and table.deadline is not None:
                # The player could not act while we were down: no instant timeout.
                grace = self.clock.now() + self.resume_grace
                if table.deadline < grace:
                    async with table.lock:
                        table.deadline = grace
                        await self._save(table)
            resumed.append(table)
        self._wake.set()
        log.info("resumed %d table(s)", len(resumed))
        return resumed

    async def run(self) -> None:
        """Fire deadlines as they come due (forever; cancel the task to stop)."""
        while True:
            nd = self.next_deadline()
            timeout = None if nd is None else max(0.0, nd - self.clock.now())
            if self._busy_due and timeout is not None:
                timeout = max(timeout, 0.02)  # a due table was busy: retry soon, don't spin
            self._wake.clear()
            if timeout is None or timeout > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout)
                except TimeoutError:
                    pass
            try:
                await self.tick()
            except Exception:
                log.exception("table timer failed")
                await asyncio.sleep(0.5)

    # -- lobby ----------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        buy_in: int | None = None,
        turn_timeout: float | None = None,
        thread: bool = False,
        rematch_of: int | None = None,
    ) -> TableUpdate:
        """Open a lobby, the host seated and bought in. ``thread``: the game runs in a thread
        started from the lobby message; ``rematch_of``: the finished table whose players Rematch seats."""
        from engine.presets import PRESETS

        config = await self.prefs.guild(guild_id)
        preset = preset or config.default_preset
        if preset not in PRESETS:
            raise errors.TripoleyError(f"Unknown game `{preset}`.")
        info = PRESETS[preset]
        options = dict(options or {})
        try:
            info.options.with_overrides(options)
        except ValueError as exc:
            raise errors.TripoleyError(f"Those options don't work: {in_words(str(exc))}") from None
        if buy_in is None:
            buy_in = int(info.options.with_overrides(options).start_stack)
        if buy_in < 1:
            raise errors.AmountOutOfRange("The buy-in must be at least 1 chip.")
        async with self._create_lock:
            if channel_id in self.tables:
                raise errors.TableExists(
                    "A game is already running in this channel. Join it, or start one in another channel."
                )
            table = Table(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=preset,
                options=options,
                buy_in=buy_in,
                turn_timeout=float(turn_timeout or config.turn_timeout),
                ai_pause=float(config.ai_pause),
                created_at=self.clock.now(),
                thread=thread,
                rematch_of=rematch_of,
            )
            table.seats.append(Seat(name=host_name, user_id=host_id, stake=buy_in))
            table.add_log(f"{escape(host_name)} opened the table.")
            # One transaction: the table, the host's buy-in and the seat it pays for (a crash in
            # between can't leave chips on a table whose saved seats don't hold them).
            try:
                async with self.db.transaction() as conn:
                    cur = await conn.execute(
                        "INSERT INTO tables (guild_id, channel_id, host_id, preset, status, chips, state_json, created_at)"
                        " VALUES (?, ?, ?, ?, 'lobby', 0, '{}', ?)",
                        (guild_id, channel_id, host_id, preset, table.created_at),
                    )
                    table.id = cur.lastrowid
                    await self.bank.buy_in(guild_id, host_id, table.id, buy_in, config.starting_balance, conn=conn)
                    table.deadline = self.clock.now() + self.settings.lobby_timeout
                    table.deadline_kind, table.deadline_seat = "lobby", None
                    await self._write(conn, table)
            except errors.NotEnoughChips as exc:
                raise errors.NotEnoughChips(
                    f"The buy-in is {buy_in} chips. {exc.message} Try a smaller `buy_in`."
                ) from None
            self._wake.set()
            self._remember(table)
        return self._update(table, "lobby", message=f"Table open: you bought in for {buy_in} chips.")

    async def rematch(self, old_table_id: int, user_id: int, name: str, thread: bool = False) -> TableUpdate:
        """Rematch: the first player of a finished game to click opens a lobby in its channel with the
        same game, house rules and settings (and the AI seats again, as far as the house can fund
        them); every other player of that game is seated and bought in when they click."""
        row = await self.db.fetchone("SELECT * FROM tables WHERE id = ? AND status = 'finished'", (old_table_id,))
        if row is None:
            raise errors.StaleButton("That game can't be replayed any more. Start a new one with `/tripoley start`.")
        # Its seats and settings, not its game (no need to rebuild the engine's whole record).
        old = Table.from_row({**dict(row), "state_json": json.dumps({**json.loads(row["state_json"]), "game": None})})
        if old.seat_of(user_id) is None:
            raise errors.NotAllowed(
                "Rematch is for the players of that game. Join the new table with its **Join** button."
            )
        busy = "Another table is open in this channel: join it, or play the rematch later."
        for _ in range(2):
            table = self.tables.get(old.channel_id)
            if table is not None:
                if table.rematch_of != old.id:
                    raise errors.TableExists(busy)
                return await self.join(old.channel_id, user_id, name)
            try:
                update = await self.create_table(
                    old.guild_id,
                    old.channel_id,
                    user_id,
                    name,
                    old.preset,
                    old.options,
                    buy_in=old.buy_in,
                    turn_timeout=old.turn_timeout,
                    thread=thread,
                    rematch_of=old.id,
                )
            except errors.TableExists:  # another player's click opened it just now: join that one
                continue
            break
        else:
            raise errors.TableExists(busy)
        table = update.table
        message = f"Rematch! You bought in for {table.buy_in} chips."
        for ai_seat in (s for s in old.seats if s.is_ai):
            try:
                await self.add_ai(old.channel_id, user_id, level=ai_seat.ai_level)
            except errors.TripoleyError as exc:  # the house is short, or the lobby changed meanwhile
                message += f" Not every AI seat came back: {exc.message}"
                break
        update = self._update(table, "lobby", message=message)
        self._notify(update)
        return update

    def _lobby_table(self, channel_id: int) -> Table:
        table = self.get(channel_id)
        if table.status != "lobby":
            raise errors.WrongPhase("The game has already started.")
        return table

    async def join(self, channel_id: int, user_id: int, name: str) -> TableUpdate:
        table = self.get(channel_id)
        async with table.lock:
            if table.status != "lobby":
                raise errors.WrongPhase("The game has already started; you can join the next one.")
            if table.seat_of(user_id) is not None:
                raise errors.TripoleyError("You're already at this table.")
            if len(table.seats) >= table.preset_info.max_players:
                raise errors.LobbyFull(f"The table is full ({table.preset_info.max_players} seats).")
            config = await self.prefs.guild(table.guild_id)
            snapshot = self._snapshot(table)
            table.seats.append(Seat(name=name, user_id=user_id, stake=table.buy_in))
            table.add_log(f"{escape(name)} joined.")
            try:
                async with self.db.transaction() as conn:  # the chips and the seat, together
                    await self.bank.buy_in(
                        table.guild_id, user_id, table.id, table.buy_in, config.starting_balance, conn=conn
                    )
                    await self._write(conn, table)
            except BaseException as exc:
                self._restore(table, snapshot)
                if isinstance(exc, errors.NotEnoughChips):
                    raise errors.NotEnoughChips(f"The buy-in is {table.buy_in} chips. {exc.message}") from None
                raise
            update = self._update(table, "lobby", message=f"You're in! Bought in for {table.buy_in} chips.")
        self._notify(update)
        return update

    async def add_ai(
        self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None, level: str = "normal"
    ) -> TableUpdate:
        table = self.get(channel_id)
        if level not in LEVEL_NAMES:
            raise errors.TripoleyError("Choose the AI's level: Easy, Normal or Hard.")
        async with table.lock:
            if table.status != "lobby":
                raise errors.WrongPhase("The game has already started.")
            if table.seat_of(user_id) is None:
                raise errors.NotSeated("Only players at the table can add AI seats. Join first.")
            if len(table.seats) >= table.preset_info.max_players:
                raise errors.LobbyFull(f"The table is full ({table.preset_info.max_players} seats).")
            if before_apply is not None:
                await before_apply()
            taken = {s.name for s in table.seats}
            tag = f"({LEVEL_NAMES[level]} AI)"
            name = next(
                (f"{n} {tag}" for n in AI_NAMES if f"{n} {tag}" not in taken), f"Bot {len(table.seats) + 1} {tag}"
            )
            snapshot = self._snapshot(table)
            table.seats.append(Seat(name=name, user_id=None, stake=table.buy_in, ai_level=level))
            table.add_log(f"{escape(name)} sat down.")
            try:
                async with self.db.transaction() as conn:
                    await self.bank.house_buy_in(
                        table.guild_id, table.id, table.buy_in, self.settings.house_bankroll, conn=conn
                    )
                    await self._write(conn, table)
            except BaseException:
                self._restore(table, snapshot)
                raise
            update = self._update(table, "lobby", message=f"{escape(name)} joins the table.")
        self._notify(update)
        return update

    @staticmethod
    def _host_in_lobby(table: Table, user_id: int, refusal: str) -> None:
        """Refuse a host's lobby action once the game has started, or to anyone but the host."""
        if table.status != "lobby":
            raise errors.WrongPhase("The game has already started.")
        if user_id != table.host_id:
            raise errors.NotAllowed(refusal)

    async def set_house_rule(self, channel_id: int, user_id: int, name: str, value: str) -> TableUpdate:
        """The host switches one of the preset's house rules (lobby only). Stored with the table, so a
        restart keeps it; an option equal to the preset's own value is dropped from the overrides."""
        from engine.rulebook import OPTION_TEXT, house_rules, value_label

        table = self.get(channel_id)
        async with table.lock:
            self._host_in_lobby(table, user_id, "Only the host can change the house rules.")
            offered = house_rules(table.preset)
            if name not in offered or value not in {str(v).lower() for v in offered[name]}:
                raise errors.TripoleyError("That house rule isn't offered for this game.")
            preset = table.preset_info.options
            try:
                chosen = getattr(preset.with_overrides({**table.options, name: value}), name)
            except ValueError as exc:
                raise errors.TripoleyError(f"That house rule doesn't work with this table: {exc}") from None
            before = dict(table.options)
            snapshot = self._snapshot(table)
            if chosen == getattr(preset, name):
                table.options.pop(name, None)
            else:
                table.options[name] = chosen
            phrase = f"{OPTION_TEXT[name].title}: {value_label(name, chosen)}"
            table.add_log(f"House rule: {phrase}.")
            try:
                async with self.db.transaction() as conn:
                    await self._write(conn, table)
            except BaseException:
                self._restore(table, snapshot)
                table.options = before
                raise
            update = self._update(table, "lobby", message=f"House rule set: {phrase}.")
        self._notify(update)
        return update

    def _still_open(self, table: Table) -> None:
        """Under the table's lock: refuse if the table closed while we waited for it (a double
        click, the lobby timer, the game's end)."""
        if table.status not in ("lobby", "playing") or self.tables.get(table.channel_id) is not table:
            raise errors.NoTable("That table is closed already. Start a new one with `/tripoley start`.")

    async def leave(self, channel_id: int, user_id: int) -> TableUpdate:
        table = self.get(channel_id)
        async with table.lock:
            self._still_open(table)
            if table.seat_of(user_id) is None:
                raise errors.NotSeated("You're not at this table.")
            update = await self._leave(table, user_id)
        self._notify(update)
        return update

    async def kick(self, guild_id: int, user_id: int, admin_name: str) -> list[TableUpdate]:
        """An admin removes a player from every open table of the server they sit at: from a lobby
        (their buy-in refunded), or mid-game (an AI plays their seat; cashed out at the end)."""
        updates = []
        for table in [
            t for t in list(self.by_id.values()) if t.guild_id == guild_id and t.seat_of(user_id) is not None
        ]:
            async with table.lock:
                if table.status not in ("lobby", "playing") or self.by_id.get(table.id) is not table:
                    continue
                index = table.seat_of(user_id)
                if index is None or table.seats[index].left:
                    continue
                table.add_log(f"{escape(admin_name)} removed {escape(table.seats[index].name)} from the table.")
                updates.append(await self._leave(table, user_id, kicked=True))
            self._notify(updates[-1])
        if not updates:
            raise errors.NotSeated("That member isn't seated at any open table in this server.")
        return updates

    async def _leave(self, table: Table, user_id: int, kicked: bool = False) -> TableUpdate:
        """Under the table's lock: the player leaves (a lobby: refunded; a game: the AI plays on).
        ``kicked``: an admin removed them (the update's message is for the admin)."""
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated("You're not at this table.")
        seat = table.seats[index]
        if table.status == "lobby":
            if not [s for s in table.humans() if s.user_id != user_id]:
                # The last human: close the table, every stake (theirs too) back in one go.
                table.add_log(f"{escape(seat.name)} left.")
                return await self._cancel(table, "Everyone left; the table is closed.")
            snapshot = self._snapshot(table)
            del table.seats[index]
            table.add_log(f"{escape(seat.name)} left.")
            if table.host_id == user_id:
                new_host = table.humans()[0]
                assert new_host.user_id is not None  # humans() are the seats with a member
                table.host_id = new_host.user_id
                table.add_log(f"{escape(new_host.name)} is the host now.")
            try:
                async with self.db.transaction() as conn:  # the refund and the freed seat, together
                    await self.bank.refund(table.guild_id, user_id, table.id, seat.stake, conn=conn)
                    await self._write(conn, table)
            except BaseException:
                self._restore(table, snapshot)
                raise
            message = (
                f"{escape(seat.name)} is off the table; their {seat.stake} chips are back in their wallet."
                if kicked
                else f"You left; {seat.stake} chips are back in your wallet."
            )
            return self._update(table, "lobby", message=message)
        if seat.left:
            raise errors.TripoleyError("You've already left this game.")
        ended = await self._seat_to_ai(
            table, seat, f"{escape(seat.name)} left; an AI plays the seat and they are cashed out at the end."
        )
        if ended is not None:
            return ended
        await self._advance(table, [], rearm=False, urgent=True)
        message = (
            f"An AI plays {escape(seat.name)}'s seat now; they are cashed out at the end."
            if kicked
            else "You left the game: an AI plays your seat and you're cashed out at the end."
        )
        return self._update(table, "play", message=message)

    async def _seat_to_ai(self, table: Table, seat: Seat, line: str) -> TableUpdate | None:
        """Under the table's lock, mid-game: the player is gone for good, so an AI plays the seat to
        the end (they are cashed out then). With no player left the game ends: its update."""
        seat.left = True
        table.add_log(line)
        if not any(not s.left for s in table.humans()):
            return await self._stop_game(table, "Every player left, so the game ended.")
        return None

    async def _cancel(self, table: Table, reason: str) -> TableUpdate:
        """Close a lobby: every stake back to its wallet (or the house)."""
        payouts = [(s.account, s.stake) for s in table.seats]
        table.add_log(reason)
        state = {**table.to_state(), "deadline": None, "deadline_kind": None, "deadline_seat": None}
        self._dirty.pop(table.id, None)
        async with self.db.transaction() as conn:
            await self.bank.cash_out_all(conn, table.guild_id, table.id, payouts, kind="refund")
            await conn.execute(
                "UPDATE tables SET status = 'cancelled', state_json = ?, ended_at = ? WHERE id = ?",
                (json.dumps(state), self.clock.now(), table.id),
            )
        # Only once the refunds are committed: a failure leaves the lobby open (and its timer armed).
        table.status = "cancelled"
        self._set_deadline(table, None)
        table.version += 1
        self._forget(table)
        return self._update(table, "cancelled", message=reason)

    async def start(self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None) -> TableUpdate:
        """Start the game. ``before_apply``: awaited once the start is known to be allowed, before
        anything changes (the Discord layer acknowledges the click there)."""
        from engine import Game

        table = self.get(channel_id)
        async with table.lock:
            self._host_in_lobby(table, user_id, "Only the host can start the game.")
            info = table.preset_info
            if len(table.seats) < info.min_players:
                raise errors.TripoleyError(
                    f"{info.name} needs at least {info.min_players} players. Invite someone or press **Add AI**."
                )
            if before_apply is not None:
                await before_apply()
            table.game = Game.new(
                table.preset,
                [s.name for s in table.seats],
                options=table.options or None,
                stacks=[s.stake for s in table.seats],
                seed=self.rng.randrange(2**31),
                clock=self.clock.now,
            )
            table.ask_humans()
            table.status = "playing"
            async with self.db.transaction() as conn:
                await conn.execute("UPDATE tables SET started_at = ? WHERE id = ?", (self.clock.now(), table.id))
            table.add_log(f"{info.name} begins with {len(table.seats)} players.")
            events = list(table.game.next_deal())
            update = await self._advance(table, events, urgent=True)  # status "playing" with its game
            update.message = "The game is on!"
        self._notify(update)
        return update

    # -- play -----------------------------------------------------------------

    def _playing_table(self, channel_id: int, round_number: int | None) -> Table:
        table = self.get(channel_id)
        if round_number is not None and round_number != table.round:
            raise errors.StaleButton("That button is from an earlier round. Use the newest table message.")
        return table

    def _check_move(
        self, table: Table, user_id: int, action: dict[str, Any], round_number: int | None, expect: str | None
    ):
        """The seat and the validated :class:`engine.Action`, or the refusal (raised) that says why not."""
        from engine import Action, IllegalAction

        if round_number is not None and round_number != table.round:
            raise errors.StaleButton("That button is from an earlier round. Use the newest table message.")
        if table.status != "playing":
            raise errors.WrongPhase("The game hasn't started yet." if table.status == "lobby" else "That game is over.")
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated("You're not playing at this table.")
        seat = table.seats[index]
        if seat.left:
            raise errors.NotAllowed("You left this game; an AI plays your seat until the end.")
        if seat.away:
            raise errors.NotAllowed("An AI is playing for you. Press **I'm back** to take your seat again.")
        aw = table.game.awaiting()
        if expect is not None and (aw is None or aw.phase != "claim" or decision_token(table.game) != expect):
            raise errors.StaleButton(STALE_CLAIM)
        if aw is None:
            raise errors.WrongPhase("Nobody is to act right now: the next round is coming up.")
        if aw.seat != index:
            raise errors.NotYourTurn(f"It's not your turn: waiting for **{escape(table.seats[aw.seat].name)}**.")
        try:
            act = Action.from_dict({**action, "seat": index})
        except ValueError:
            raise errors.TripoleyError("That action isn't one this game knows.") from None
        if act.do not in aw.legal:
            raise errors.WrongPhase(not_now(act.do, aw.legal))
        try:
            table.game.check(act)
        except IllegalAction as exc:
            raise errors.TripoleyError(f"Not allowed: {in_words(str(exc), table.game.view(index))}") from None
        return index, act

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: dict[str, Any],
        round_number: int | None = None,
        expect: str | None = None,
        before_apply: BeforeApply | None = None,
    ) -> TableUpdate:
        """Apply a player's action (``{"do": "bet", "amount": 5}``; the seat is filled in).

        ``expect``: the :func:`decision_token` the button was made for (claims); a different
        one means the decision is already settled and the click is refused.

        With ``before_apply`` (the Discord layer acknowledges the click there) the action is
        first checked against the current state without waiting for the table's lock (a check
        is synchronous, so it sees a consistent state): refusals are raised before the
        acknowledgement and answered as such, and a legal move is acknowledged at once, not
        after the save or timer that holds the lock. Under the lock the action is checked again
        (a concurrent click may have changed the state: that refusal comes after the
        acknowledgement) and applied. The new state is saved at once (the acknowledgement went
        out already, so nobody waits for it): a crash never undoes a player's move."""
        from engine import IllegalAction

        table = self._playing_table(channel_id, round_number)
        if before_apply is not None:
            self._check_move(table, user_id, action, round_number, expect)
            await before_apply()
        async with table.lock:
            index, act = self._check_move(table, user_id, action, round_number, expect)
            seat = table.seats[index]
            phase = table.game.awaiting().phase
            try:
                events = list(table.game.apply(act))
            except IllegalAction as exc:
                raise errors.TripoleyError(f"Not allowed: {in_words(str(exc), table.game.view(index))}") from None
            seat.timeouts = 0
            line = public_action_text([s.name for s in table.seats], act, events, phase)
            table.add_log(line)
            update = await self._advance(table, events, urgent=True)
            update.message = "Done: " + you_did(line, seat.name)
        self._notify(update)
        return update

    async def back(self, channel_id: int, user_id: int) -> TableUpdate:
        """ "I'm back": the player takes their seat from the AI again."""
        table = self.get(channel_id)
        async with table.lock:
            index = table.seat_of(user_id)
            if index is None or table.status != "playing":
                raise errors.NotSeated("You're not playing at this table.")
            seat = table.seats[index]
            if seat.left:
                raise errors.NotAllowed("You left this game; you can join the next one.")
            if not seat.away:
                raise errors.TripoleyError("You're already in control of your seat.")
            seat.away = False
            seat.timeouts = 0
            table.add_log(f"{escape(seat.name)} is back.")
            await self._advance(table, [], rearm=False, urgent=True)
            update = self._update(table, "play", message="Welcome back! Your seat is yours again.")
        self._notify(update)
        return update

    async def stop(self, channel_id: int, user_id: int, can_manage: bool, name: str = "") -> TableUpdate:
        """The host, or a member with Manage Server (``can_manage``; ``name``: theirs), ends the
        table; the log and the answer say who did."""
        table = self.get(channel_id)
        async with table.lock:
            self._still_open(table)
            if user_id != table.host_id and not can_manage:
                raise errors.NotAllowed("Only the host or someone with **Manage Server** can stop the game.")
            who = "The host" if user_id == table.host_id else f"{escape(name) or 'A server manager'} (Manage Server)"
            if table.status == "lobby":
                update = await self._cancel(table, f"{who} closed the table; buy-ins are refunded.")
            else:
                update = await self._stop_game(table, f"{who} stopped the game; everyone is cashed out.")
        self._notify(update)
        return update

    async def _stop_game(self, table: Table, reason: str) -> TableUpdate:
        game = table.game
        events = list(game.end_now())
        guard = 0
        # Play the board clearing out (it can take a whole Michigan hand or more): stopping early
        # would send the chips still on the mat to the house instead of to the players.
        while not game.finished and guard < 100_000:
            guard += 1
            if game.awaiting() is None:
                events += list(game.next_deal())
            else:
                await self._play_auto(table, events)
        table.add_log(reason)
        update = await self._finish(table, events)
        update.message = reason
        return update

    # -- the engine loop --------------------------------------------------------

    def _ai_action(self, table: Table, seat: int):
        """The Normal AI's choice for ``seat`` (what a timed-out player falls back to)."""
        from engine.ai import choose_action

        return choose_action(table.game, seat, kind="normal", rng=self.rng)

    async def _play_auto(self, table: Table, events: list, timeout: bool = False, note: str = " (timed out)"):
        """Play one move for the awaited seat: its AI's (None: the game moved on meanwhile), or the
        safe default on a timeout (``note`` follows its log line)."""
        aw = table.game.awaiting()
        if timeout:
            action = safe_default(table.game, aw, lambda: self._ai_action(table, aw.seat))
        else:
            seat = table.seats[aw.seat]
            action = await self.ai.decide(table.game, aw.seat, seat.ai_level if seat.is_ai else "normal")
            if action is None:
                return None
        applied = list(table.game.apply(action))
        events += applied
        line = public_action_text([s.name for s in table.seats], action, applied, aw.phase)
        table.add_log(line + (note if timeout else ""))
        return action

    async def _advance(self, table: Table, events: list, rearm: bool = True, urgent: bool = False) -> TableUpdate:
        """After a change: run whatever needs no waiting, set the next deadline, save.

        The save is immediate when ``urgent`` or when the table now waits for a human (their turn
        is shown to them, so it must survive a crash); otherwise it is coalesced."""
        game = table.game
        table.ask_humans()
        dealt = any(e.get("type") == "deal" for e in events)
        logged = 0  # events told in the log so far (a round's lines go to that round's story)
        for _ in range(10_000):
            if game.finished:
                return await self._finish(table, events, logged)
            aw = game.awaiting()
            if aw is None:
                pause = self.settings.round_pause
                if pause <= 0:
                    self._log_events(table, events[logged:])
                    logged = len(events)
                    new = list(game.next_deal())
                    dealt = dealt or any(e.get("type") == "deal" for e in new)
                    events += new
                    continue
                self._set_deadline(table, pause, "next-deal")
                break
            seat = table.seats[aw.seat]
            if seat.auto:
                # Great Lakes: an AI holder of the next card decides at once, combination or not
                # (a pause only when it has one would show the table that it has one).
                if table.ai_pause <= 0 or aw.phase == "michigan-play":
                    await self._play_auto(table, events)
                    continue
                if rearm or table.deadline_kind != "ai" or table.deadline_seat != aw.seat:
                    self._set_deadline(table, table.ai_pause, "ai", aw.seat)
                break
            timeout = self.settings.claim_timeout if aw.phase == "claim" else table.turn_timeout
            if rearm or table.deadline_kind != "turn" or table.deadline_seat != aw.seat:
                self._set_deadline(table, timeout, "turn", aw.seat)
            break
        self._log_events(table, events[logged:])
        # urgent: an interaction is answered after this save (a hand view's move): it goes first.
        await self._save(
            table,
            urgent=urgent or table.deadline_kind == "turn",
            priority=storage.INTERACTIVE if urgent else storage.NORMAL,
        )
        return self._update(
            table,
            "play",
            events=[dict(e) for e in events],
            new_round=table.mat_round != table.round,
            dealt=dealt,
        )

    def _log_events(self, table: Table, events: list) -> None:
        if not any(e.get("type") in LOGGED_EVENTS for e in events):
            return
        view = escaped_view(table.game.view(None))  # public: names, space labels, pay suit
        for event in events:
            line = describe_event(event, view)
            if line:
                table.add_log(line)

    async def tick(self) -> list[TableUpdate]:
        """Fire every deadline that is due now."""
        now = self.clock.now()
        updates: list[TableUpdate] = []
        self._busy_due = False
        for table in [t for t in list(self.tables.values()) if t.deadline is not None and t.deadline <= now]:
            if table.lock.locked():
                # A player's click is being handled there: come back to it shortly instead of
                # holding up every other table's timers.
                self._busy_due = True
                continue
            if updates:
                await asyncio.sleep(0)  # one table at a time: interactions get through in between
            async with table.lock:
                if (
                    table.deadline is None
                    or table.deadline > self.clock.now()
                    or table.status
                    in (
                        "finished",
                        "cancelled",
                    )
                ):
                    continue
                try:
                    update = await self._fire(table)
                except Exception:
                    log.exception("deadline %s failed at table %s", table.deadline_kind, table.id)
                    # Don't spin on a broken table: try again a bit later.
                    self._set_deadline(table, 5.0, table.deadline_kind, table.deadline_seat)
                    continue
            if update is not None:
                updates.append(update)
                self._notify(update)
        return updates

    async def _fire(self, table: Table) -> TableUpdate | None:
        kind = table.deadline_kind
        if kind == "lobby":
            return await self._cancel(table, "Nobody started the game in time; buy-ins are refunded.")
        game = table.game
        if game is None:
            self._set_deadline(table, None)
            return None
        if kind == "next-deal":
            if game.awaiting() is None and not game.finished:
                return await self._advance(table, list(game.next_deal()))
            return await self._advance(table, [])
        aw = game.awaiting()
        if aw is None:
            return await self._advance(table, [])
        seat = table.seats[aw.seat]
        events: list = []
        if kind == "turn" and not seat.auto and not await self._still_member(table, seat):
            message = f"{escape(seat.name)} is no longer in this server: an AI plays their seat and they are cashed out at the end."
            ended = await self._seat_to_ai(table, seat, message)
            if ended is not None:
                return ended
            update = await self._advance(table, events)
            update.message = message
            return update
        if kind == "turn" and not seat.auto and aw.phase == "claim":
            # Letting a claim window pass is a pass (a legal choice), not a missed turn.
            await self._play_auto(table, events, timeout=True, note="")
            return await self._advance(table, events)
        if kind == "turn" and not seat.auto:
            seat.timeouts += 1
            await self._play_auto(table, events, timeout=True)
            message = f"{escape(seat.name)} ran out of time."
            notices = []
            if seat.timeouts >= self.settings.timeouts_before_ai:
                seat.away = True
                message = f"{escape(seat.name)} timed out {seat.timeouts} times in a row: an AI plays until they press **I'm back**."
                table.add_log(message)
                notices.append((seat.user_id, AI_TAKEOVER_NOTICE.format(count=seat.timeouts)))
            update = await self._advance(table, events)
            update.message = message
            update.notices = notices
            return update
        await self._play_auto(table, events)
        return await self._advance(table, events)

    async def _still_member(self, table: Table, seat: Seat) -> bool:
        """Whether the seat's player is still in the server (asked when their timer fires: a member
        who left would otherwise time out turn after turn)."""
        if self.member_check is None or seat.user_id is None:
            return True
        try:
            return await self.member_check(table.guild_id, seat.user_id)
        except Exception:  # noqa: BLE001 - Discord unreachable: treat as present, the timeout applies
            log.warning("could not check whether a player is still in server %s", table.guild_id)
            return True

    # -- the end ----------------------------------------------------------------

    async def _finish(self, table: Table, events: list, logged: int = 0) -> TableUpdate:
        """The game is over: everyone cashed out, results recorded. ``events[:logged]`` are in the
        log already."""
        game = table.game
        stacks = list(game.stacks)
        on_mat = sum(game.mat.values()) if isinstance(game.mat, dict) else 0
        held = sum(stacks) + on_mat
        if on_mat:
            log.error("table %s ended with %s chips on the mat; they go to the house", table.id, on_mat)
        payouts = [(seat.account, int(stacks[i])) for i, seat in enumerate(table.seats)]
        if on_mat:
            payouts.append((HOUSE, int(on_mat)))
        results = self._results(table, stacks, events)
        replay = self._replay_json(table)
        self._log_events(table, events[logged:])
        now = self.clock.now()
        state = {**table.to_state(), "deadline": None, "deadline_kind": None, "deadline_seat": None}
        self._dirty.pop(table.id, None)  # this transaction writes the newest state
        async with self.db.transaction() as conn:
            await self.bank.cash_out_all(conn, table.guild_id, table.id, payouts)
            await self._record_stats(conn, table, results)
            await conn.execute(
                "UPDATE tables SET status = 'finished', state_json = ?, result_json = ?, replay_json = ?, ended_at = ?"
                " WHERE id = ?",
                (json.dumps(state), json.dumps(results), replay, now, table.id),
            )
        # Only once everyone is cashed out: if that failed, the table stays open and its next
        # deadline tries again, rather than a finished table holding chips nobody gets back.
        table.status = "finished"
        table.result = results
        self._set_deadline(table, None)
        table.version += 1
        if held != sum(s.stake for s in table.seats):
            log.error(
                "table %s: chips changed during the game (%s → %s)", table.id, sum(s.stake for s in table.seats), held
            )
        self._forget(table)
        return self._update(table, "finished", events=[dict(e) for e in events], message="Game over.")

    @staticmethod
    def _replay_json(table: Table) -> str | None:
        """The finished game as a replay file's text; None for a game begun before games were kept
        as replays (its early decks are not known)."""
        try:
            return json.dumps(table.game.to_replay())
        except ValueError as exc:
            log.info("table %s has no replay: %s", table.id, exc)
            return None

    def _results(self, table: Table, stacks: list[int], events: list) -> dict[str, Any]:
        history = list(getattr(table.game, "history", []) or []) or list(events)
        pots = [0] * len(table.seats)
        best: list[tuple[int, str | None]] = [(-1, None)] * len(table.seats)
        for event in history:
            kind = event.get("type")
            if kind == "payout" and isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(pots):
                pots[event["seat"]] += 1
            if kind == "showdown":
                hands = event.get("hands") or []
                items = hands.items() if isinstance(hands, dict) else enumerate(hands)
                for key, hand in items:
                    seat = hand.get("seat", key) if isinstance(hand, dict) else key
                    name = hand.get("hand") if isinstance(hand, dict) else hand
                    if seat is None:
                        continue
                    try:
                        seat = int(seat)
                    except (TypeError, ValueError):
                        continue
                    if 0 <= seat < len(best) and hand_rank(name) > best[seat][0]:
                        best[seat] = (hand_rank(name), str(name))
        top = max(stacks) if stacks else 0
        seats = []
        for i, seat in enumerate(table.seats):
            seats.append(
                {
                    "seat": i,
                    "name": seat.name,
                    "user_id": seat.user_id,
                    "stake": seat.stake,
                    "final": int(stacks[i]),
                    "net": int(stacks[i]) - seat.stake,
                    "pots_won": pots[i],
                    "best_hand": best[i][1],
                    "best_hand_rank": best[i][0],
                    "winner": int(stacks[i]) == top and top > 0,
                }
            )
        from engine.rulebook import house_rule_changes

        return {
            "preset": table.preset,
            "preset_name": table.preset_info.name,
            "house_rules": house_rule_changes(table.preset, table.options),
            "rounds": table.round,
            "seats": sorted(seats, key=lambda s: -s["final"]),
        }

    async def _record_stats(self, conn, table: Table, results: dict[str, Any]) -> None:
        for entry in results["seats"]:
            if entry["user_id"] is None:
                continue
            await conn.execute(
                "INSERT OR IGNORE INTO stats (guild_id, user_id) VALUES (?, ?)", (table.guild_id, entry["user_id"])
            )
            await conn.execute(
                "UPDATE stats SET games = games + 1, wins = wins + ?, rounds = rounds + ?, pots_won = pots_won + ?,"
                " net = net + ?,"
                " best_hand = CASE WHEN ? > best_hand_rank THEN ? ELSE best_hand END,"
                " best_hand_rank = MAX(best_hand_rank, ?)"
                " WHERE guild_id = ? AND user_id = ?",
                (
                    int(entry["winner"]),
                    results["rounds"],
                    entry["pots_won"],
                    entry["net"],
                    entry["best_hand_rank"],
                    entry["best_hand"],
                    entry["best_hand_rank"],
                    table.guild_id,
                    entry["user_id"],
                ),
            )

    # -- for the Discord layer ------------------------------------------------------

    async def set_message(
        self, table_id: int, kind: str, message_id: int | None, round_number: int | None = None
    ) -> None:
        """Remember the lobby or mat message of a table (so it's edited, not re-posted, after a restart),
        or its turn ping (``kind`` "ping": deleted after a restart; saved with the next coalesced save)."""
        table = self.by_id.get(table_id)
        if table is None:
            return
        if kind == "ping":
            table.ping_message_id = message_id
            if table.status == "playing":
                await self._save(table, urgent=False)
            return
        if kind != "lobby" and table.status == "playing" and self.save_delay > 0:
            # A running game: saved with its next coalesced save (no lock, no transaction now: a
            # player clicking the new mat must not wait for this). Lost in a crash, the resumed
            # table just posts a new mat message.
            table.mat_message_id = message_id
            table.mat_round = round_number
            await self._save(table, urgent=False)
            return
        async with table.lock:
            if kind == "lobby":
                table.lobby_message_id = message_id
            else:
                table.mat_message_id = message_id
                table.mat_round = round_number
            async with self.db.transaction() as conn:
                await conn.execute(
                    "UPDATE tables SET state_json = ? WHERE id = ?", (json.dumps(table.to_state()), table.id)
                )

    async def set_thread(self, table: Table, thread_id: int | None) -> None:
        """The thread a table's game runs in (None: it could not be started; the channel then)."""
        async with table.lock:
            table.thread, table.thread_id = thread_id is not None, thread_id
            if self.by_id.get(table.id) is not table:
                return  # over already: its results go to the thread, nothing left to save
            if thread_id is not None:
                self.threads[thread_id] = table
            await self._save(table)

    def private_view(self, channel_id: int, user_id: int) -> tuple[Table, int, dict]:
        table = self.get(channel_id)
        if table.status != "playing":
            raise errors.WrongPhase("The game hasn't started yet: your cards come with the first deal.")
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated("You're not playing at this table, so there's no hand to show.")
        return table, index, table.game.view(index)

    async def audit(self, guild_id: int) -> dict[str, Any]:
        """Chips of users + house + tables (stacks and mats) against grants - removals; ``ok`` when
        they agree and every open table's engine holds exactly the chips the database says it holds."""
        audit = await self.bank.audit(guild_id)
        house = await self.db.fetchone(
            "SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, HOUSE)
        )
        rows = await self.db.fetchall(
            "SELECT id, chips FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')", (guild_id,)
        )
        mismatched = []
        for row in rows:
            table = self.by_id.get(int(row["id"]))
            if table is not None and table.chips_in_play() != int(row["chips"]):
                mismatched.append(table.id)
        on_mats = sum(
            sum(t.game.mat.values()) for t in self.by_id.values() if t.guild_id == guild_id and t.game is not None
        )
        return {
            "granted": audit.granted,
            "removed": audit.removed,
            "users": audit.wallets - int(house[0]),
            "house": int(house[0]),
            "tables": audit.tables,
            "on_mats": on_mats,
            "mismatched_tables": mismatched,
            "ok": audit.ok and not mismatched,
        }

    async def stats(self, guild_id: int, user_id: int) -> dict[str, Any] | None:
        """The player's stats in the server, with ``favourite``: the game they finished most often."""
        row = await self.db.fetchone("SELECT * FROM stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        if row is None:
            return None
        favourite = await self.db.fetchone(
            "SELECT t.preset FROM tables t, json_each(t.result_json, '$.seats') s"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND json_extract(s.value, '$.user_id') = ?"
            " GROUP BY t.preset ORDER BY COUNT(*) DESC, MAX(t.ended_at) DESC LIMIT 1",
            (guild_id, user_id),
        )
        return {**dict(row), "favourite": favourite[0] if favourite else None}

    async def history(self, guild_id: int, limit: int = 10) -> list[dict[str, Any]]:
        rows = await self.db.fetchall(
            "SELECT id, channel_id, preset, started_at, ended_at, result_json, replay_json IS NOT NULL AS has_replay"
            " FROM tables WHERE guild_id = ? AND status = 'finished' ORDER BY ended_at DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        out = []
        for row in rows:
            item = dict(row)
            item["result"] = json.loads(row["result_json"]) if row["result_json"] else None
            item["has_replay"] = bool(row["has_replay"])
            out.append(item)
        return out

    async def replay(self, guild_id: int, table_id: int) -> str | None:
        """The replay file's text of a finished game of this server (None if there is none)."""
        row = await self.db.fetchone(
            "SELECT replay_json FROM tables WHERE id = ? AND guild_id = ? AND status = 'finished'", (table_id, guild_id)
        )
        return row["replay_json"] if row else None
