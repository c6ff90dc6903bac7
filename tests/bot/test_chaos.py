"""A seeded randomized ("chaos") test of the table manager and the money rule.

No chip is ever created or lost: by a rule, a crash, a restart, a double click or a bad
input. Several tables (channels) of one server run at once with several users; every step
is one of: a lobby operation (create, join, leave, add an AI, start), a good move for the
awaited human, a bad input (wrong user, stale round, wrong claim token, illegal action or
amount, malformed action), double and concurrent submissions (``asyncio.gather``, some with
``before_apply`` so the check-then-recheck path of ``Play.act`` runs), time going by
(AI moves, turn timeouts, next deals, lobby expiry), "I'm back", stop, a flush of the
coalesced saves, the economy (daily and relief grants, an admin's grants and removals for
players and the house, a reset, a kick, a player forgotten), and crashes:

* between steps: the manager is dropped without flushing (SIGKILL: coalesced saves are lost);
* in the middle of an operation, right before or right after one of its database writes
  (:class:`Killable` stops the process there, deterministically).

Then a new manager resumes from the database and play goes on with it. The database itself
fails too: its connections are killed (PostgreSQL) or hit an I/O error (SQLite), or another
program holds SQLite's write lock for a moment, before an operation, which must go through all
the same (reopened, retried); and a crash can leave a table's saved row broken (``{}``, invalid
JSON, a game that is not one), which the restart quarantines, its chips back in the wallets.

After every step: the bank's and the manager's audits are ok, the open tables in memory are
exactly the open tables in the database, every open table's chips (lobby stakes, or stacks +
mat) equal its ``chips`` column, the ledger agrees with the wallets and with every table,
every open table has a deadline (nothing is stuck), and no error was logged. A refused input
changes nothing (memory and database compared). At a crash: the saved game is an earlier
state of the game in memory, never behind a move a player was answered for, and a game that
waits for a human is saved exactly. At the end every table is stopped and the wallets (house
included) hold exactly the chips ever granted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
from collections import Counter
from contextlib import asynccontextmanager
from dataclasses import asdict

import aiosqlite
import asyncpg
import pytest

from bot import errors
from bot.economy.bank import HOUSE, Bank
from bot.messages.notices import PLACE_LOST
from bot.messages.refusals import say
from bot.storage.dialect import SqliteConnection
from bot.tables.aiworker import AIPlayers
from bot.tables.log import decision_token
from bot.tables.manager import TableManager
from engine import Game, IllegalAction
from engine.ai import choose_action
from engine.presets import PRESETS

G = 4242  # the server
KILL_CONNECTIONS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
    " AND pid <> pg_backend_pid()"
)
CHANNELS = (7001, 7002, 7003, 7004)
USERS = (301, 302, 303, 304, 305, 306)
ADMIN = 399
PRESET_KEYS = sorted(PRESETS)
SEEDS = range(6)
STEPS = 450

# The one error the manager logs by design (endgame "none": what is left on the mat goes to the house).
ALLOWED_ERRORS = ("chips on the mat; they go to the house",)
OUTAGE_LOGGED = "the database is away"  # the error an outage logs (op_db_away)


async def yield_once():
    """A ``before_apply`` that lets other tasks run (the Discord layer acknowledges there)."""
    await asyncio.sleep(0)


def norm(obj):
    return json.loads(json.dumps(obj))


def event_lists(game) -> tuple[list, list]:
    """The game's events outside rounds and the rounds' events (each list only grows)."""
    return [e.to_dict() for e in game.game_events], [e.to_dict() for rec in game.log for e in rec["events"]]


class Killable:
    """The manager's database, with a kill switch: armed, the process "dies" (hangs until
    cancelled) right before, or right after, its N-th write (transaction or single statement).
    Reads pass through."""

    def __init__(self, db) -> None:
        self._db = db
        self.countdown: int | None = None
        self.when = "before"
        self.dead = asyncio.Event()

    def __getattr__(self, name):
        return getattr(self._db, name)

    def arm(self, countdown: int, when: str) -> None:
        self.countdown, self.when = countdown, when
        self.dead.clear()

    def disarm(self) -> None:
        self.countdown = None

    async def _point(self, when: str) -> None:
        if self.countdown is None or when != self.when:
            return
        if self.countdown > 0:
            self.countdown -= 1
            return
        self.countdown = None
        self.dead.set()
        await asyncio.get_running_loop().create_future()  # never resolved: cancelled by the "kill"

    @asynccontextmanager
    async def transaction(self, priority=None):
        await self._point("before")
        async with self._db.transaction(priority) as conn:
            yield conn
        await self._point("after")

    async def execute_alone(self, sql, params=(), priority=None):
        await self._point("before")
        await self._db.execute_alone(sql, params, priority)
        await self._point("after")


class BeginFailsOnce:
    """SQLite's connection, whose next BEGIN fails with an I/O error (the database reopens it)."""

    def __init__(self, raw) -> None:
        self._raw = raw
        self.failed = False

    def __getattr__(self, name):
        return getattr(self._raw, name)

    async def execute(self, sql, *args):
        if not self.failed and sql.startswith("BEGIN"):
            self.failed = True
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 10  # SQLITE_IOERR
            raise error
        return await self._raw.execute(sql, *args)


class Chaos:
    def __init__(self, seed, make_manager, clock, db, bank, prefs, caplog):
        self.seed = seed
        self.rng = random.Random(seed)
        self.make_manager = make_manager
        self.clock = clock
        self.db = db
        self.bank = bank
        self.prefs = prefs
        self.caplog = caplog
        self.n: Counter = Counter()
        self.floor: dict[int, int] = {}  # table id → history length a player was answered for
        self.rounds: dict[int, int] = {}  # table id → rounds completed (round-end events)
        self.natural: set[int] = set()  # tables whose game ended by its own rule
        self.ended: set[int] = set()
        self.leftover: list = []  # games that ended with chips on the mat (they go to the house)
        self.generation = 0
        self.managers: list[TableManager] = []
        self.overrides = {
            "round_pause": self.rng.choice([0.0, 3.0]),
            "lobby_timeout": self.rng.choice([300.0, 900.0]),
            "timeouts_before_ai": self.rng.choice([2, 3]),
            "claim_timeout": 8.0,
        }
        self.save_delay = self.rng.choice([0.0, 3600.0])  # 3600: coalesced, written only by flush_saves
        self.other_released = asyncio.Event()  # another program's SQLite lock (op_db_fault) is released
        self.other_released.set()
        self.manager = self.new_manager()

    # -- plumbing -----------------------------------------------------------------

    def new_manager(self) -> TableManager:
        self.generation += 1
        # The AI seats decide with a generator of their own, the lobby and the timed-out moves with
        # the generation's.
        m = self.make_manager(
            rng=random.Random(self.seed * 1000 + self.generation),
            ai=AIPlayers(random.Random(7), clock=self.clock),
            **self.overrides,
        )
        m.store.save_delay = self.save_delay
        m.store.db = Killable(self.db)
        m.registry.add_listener(self.on_update)
        self.managers.append(m)
        return m

    def on_update(self, update) -> None:
        t = update.table
        if update.kind == "finished" and t.game is not None:
            if sum(t.game.mat.values()):
                self.leftover.append((t.id, t.preset, t.options, dict(t.game.mat)))
            history = t.game.history
            self.rounds[t.id] = sum(1 for e in history if e.get("type") == "round-end")
            self.ended.add(t.id)
            if any(e.get("type") == "game-end" and e.get("reason") != "stopped by the host" for e in history):
                self.natural.add(t.id)

    def note_rounds(self) -> None:
        for t in self.manager.registry.by_channel.values():
            if t.game is not None:
                self.rounds[t.id] = max(
                    self.rounds.get(t.id, 0), sum(1 for e in t.game.history if e.get("type") == "round-end")
                )

    def tables(self, status=None):
        return [t for t in self.manager.registry.by_channel.values() if status is None or t.status == status]

    def human_turns(self):
        out = []
        for t in self.tables("playing"):
            aw = t.game.awaiting()
            if aw is not None and not t.seats[aw.seat].auto:
                out.append((t, aw))
        return out

    def good_action(self, table, aw) -> dict:
        """A legal action for the awaited seat: the AI's choice, sometimes the random AI's."""
        action = None
        if self.rng.random() < 0.25:
            candidate = choose_action(table.game, aw.seat, kind="random", rng=self.rng)
            try:
                table.game.check(candidate)
                action = candidate
            except IllegalAction:
                pass
        if action is None:
            action = self.manager.flow.ai_action(table, aw.seat)
        data = action.to_dict()
        data.pop("seat")
        return data

    def remember(self, table) -> None:
        """The player was answered: this state (or a later one) must survive a crash."""
        if table.status == "playing" and table.game is not None:
            self.floor[table.id] = len(table.game.history)

    # -- snapshots and invariants -----------------------------------------------------

    async def snapshot(self):
        memory = {}
        for ch, t in self.manager.registry.by_channel.items():
            memory[ch] = (
                t.id,
                t.status,
                t.host_id,
                t.buy_in,
                norm([asdict(s) for s in t.seats]),
                list(t.log),
                t.game.to_json() if t.game is not None else None,
                t.deadline,
                t.deadline_kind,
                t.deadline_seat,
            )
        wallets = [
            tuple(r)
            for r in await self.db.fetchall(
                "SELECT user_id, balance FROM wallets WHERE guild_id = ? ORDER BY user_id", (G,)
            )
        ]
        tables = [
            tuple(r)
            for r in await self.db.fetchall(
                "SELECT id, status, chips, state_json FROM tables WHERE guild_id = ? ORDER BY id", (G,)
            )
        ]
        ledger = tuple(await self.db.fetchone("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM ledger"))
        return memory, wallets, tables, ledger

    def check_logs(self) -> None:
        bad = [
            r
            for r in self.caplog.records
            if r.levelno >= logging.ERROR and not any(a in r.getMessage() for a in ALLOWED_ERRORS)
        ]
        assert not bad, "errors logged: " + "; ".join(
            r.getMessage() + (f" [{r.exc_info[1]!r}]" if r.exc_info else "") for r in bad
        )

    async def check(self) -> None:
        m = self.manager
        audit = await self.bank.audit(G)
        assert audit.ok, audit
        maudit = await m.results.audit(G)
        assert maudit["ok"], maudit
        assert maudit["users"] + maudit["house"] + maudit["tables"] == maudit["granted"] - maudit["removed"], maudit
        rows = await self.db.fetchall(
            "SELECT id, channel_id, status, chips, state_json FROM tables WHERE guild_id = ?", (G,)
        )
        open_rows = {r["channel_id"]: r for r in rows if r["status"] in ("lobby", "playing")}
        assert set(open_rows) == set(m.registry.by_channel), (sorted(open_rows), sorted(m.registry.by_channel))
        for r in rows:
            if r["status"] not in ("lobby", "playing"):
                assert r["chips"] == 0, dict(r)
        for ch, t in m.registry.by_channel.items():
            row = open_rows[ch]
            assert row["id"] == t.id and m.registry.by_id.get(t.id) is t
            assert t.status == row["status"] and t.status in ("lobby", "playing"), (t.status, row["status"])
            assert t.chips_in_play() == row["chips"] == sum(s.stake for s in t.seats), (t.id, row["chips"])
            assert t.deadline is not None, f"table {t.id} ({t.status}) has no deadline: it is stuck"
            if t.status == "lobby":
                assert t.game is None
                saved = json.loads(row["state_json"])
                assert saved["seats"] == norm([asdict(s) for s in t.seats])  # lobby changes are saved with their chips
            else:
                game = t.game
                assert not game.finished, f"table {t.id}: a finished game is still open"
                assert all(s >= 0 for s in game.stacks) and all(v >= 0 for v in game.mat.values())
                assert sum(game.stacks) + sum(game.mat.values()) == row["chips"]
        # The ledger explains every wallet and every table.
        wallets = {
            r[0]: r[1] for r in await self.db.fetchall("SELECT user_id, balance FROM wallets WHERE guild_id = ?", (G,))
        }
        ledger = {
            r[0]: r[1]
            for r in await self.db.fetchall(
                "SELECT user_id, SUM(delta) FROM ledger WHERE guild_id = ? GROUP BY user_id", (G,)
            )
        }
        assert wallets == {u: b for u, b in ledger.items() if u in wallets}, (wallets, ledger)
        assert all(b >= 0 for b in wallets.values())
        moved = {
            r[0]: r[1]
            for r in await self.db.fetchall(
                "SELECT table_id, SUM(delta) FROM ledger WHERE guild_id = ? AND kind != 'grant'"
                " AND table_id IS NOT NULL GROUP BY table_id",
                (G,),
            )
        }
        for r in rows:
            assert -moved.get(r["id"], 0) == r["chips"], (dict(r), moved.get(r["id"]))
        self.check_logs()
        self.note_rounds()

    async def refusable(self, name: str, call, *, must_refuse: bool = False):
        """Run ``call``; a refusal (TripoleyError) must leave memory and database untouched."""
        before = await self.snapshot()
        try:
            result = await call()
        except errors.TripoleyError as exc:
            self.n[f"refused {name}"] += 1
            self.n[f"refusal {type(exc).__name__}"] += 1
            after = await self.snapshot()
            assert after == before, f"the refused {name} ({say(exc)}) changed something"
            return None
        assert not must_refuse, f"bad input accepted: {name}"
        self.n[f"ok {name}"] += 1
        return result

    # -- operations ---------------------------------------------------------------

    def random_options(self, preset: str) -> dict:
        options: dict = {}
        roll = self.rng.random()
        if roll < 0.55:
            options["game_end"] = f"rounds:{self.rng.choice([1, 1, 2])}"
        elif roll < 0.7:
            options["game_end"] = "minutes:2"
        elif roll < 0.85:
            options["game_end"] = "elimination"
        if self.rng.random() < 0.2:
            options["strict_claims"] = True
        if self.rng.random() < 0.15:
            options["endgame"] = self.rng.choice(["poker-showdown", "michigan-interests", "none"])
        if self.rng.random() < 0.1:
            options["bet_limit"] = self.rng.choice([1, 5])
        return options

    async def op_create(self):
        m = self.manager
        free = [c for c in CHANNELS if c not in m.registry.by_channel]
        channel = self.rng.choice(free) if free and self.rng.random() < 0.9 else self.rng.choice(CHANNELS)
        user = self.rng.choice(USERS)
        preset = self.rng.choice(PRESET_KEYS)
        options = self.random_options(preset)
        buy_in = self.rng.choice([None, 3, 10, 25, 25, 40, 60, 150, 400, 1500])
        kind = "create"
        if self.rng.random() < 0.05:
            preset, kind = "no-such-game", "create bad preset"
        elif self.rng.random() < 0.05:
            options, kind = {"game_end": "never"}, "create bad options"
        elif self.rng.random() < 0.05:
            buy_in, kind = 0, "create bad buy-in"
        await self.refusable(
            kind,
            lambda: m.lobby.create_table(G, channel, user, f"user{user}", preset, options, buy_in=buy_in),
            must_refuse=kind != "create",
        )

    async def op_join(self):
        m = self.manager
        if not m.registry.by_channel:
            return await self.op_create()
        table = self.rng.choice(self.tables())
        user = self.rng.choice(USERS)
        await self.refusable("join", lambda: m.lobby.join(table.channel_id, user, f"user{user}"))

    async def op_leave(self):
        m = self.manager
        if not m.registry.by_channel:
            return await self.op_create()
        table = self.rng.choice(self.tables())
        seated = [s.user_id for s in table.humans()]
        user = self.rng.choice(seated) if seated and self.rng.random() < 0.8 else self.rng.choice(USERS)
        playing = table.status == "playing"
        if await self.refusable("leave", lambda: m.lobby.leave(table.channel_id, user)) is not None and playing:
            self.remember(table)

    async def op_add_ai(self):
        m = self.manager
        lobbies = self.tables("lobby")
        if not lobbies:
            return await self.op_create()
        table = self.rng.choice(lobbies)
        seated = [s.user_id for s in table.humans()]
        user = self.rng.choice(seated) if self.rng.random() < 0.85 else self.rng.choice(USERS)
        before_apply = yield_once if self.rng.random() < 0.5 else None
        await self.refusable("add_ai", lambda: m.lobby.add_ai(table.channel_id, user, before_apply=before_apply))

    async def op_start(self):
        m = self.manager
        lobbies = self.tables("lobby")
        if not lobbies:
            return await self.op_create()
        table = self.rng.choice(lobbies)
        if len(table.seats) < table.preset_info.min_players + self.rng.choice([0, 0, 1]) and self.rng.random() < 0.8:
            await self.refusable("add_ai", lambda: m.lobby.add_ai(table.channel_id, table.host_id))
        user = table.host_id if self.rng.random() < 0.8 else self.rng.choice(USERS)
        before_apply = yield_once if self.rng.random() < 0.5 else None
        if await self.refusable("start", lambda: m.lobby.start(table.channel_id, user, before_apply=before_apply)):
            self.remember(table)

    async def op_move(self):
        turns = self.human_turns()
        if not turns:
            if not self.tables("playing") and self.tables("lobby") and self.rng.random() < 0.7:
                return await self.op_start()  # no game running: the host of a lobby starts one
            await self.drive_to_human()
            turns = self.human_turns()
            if not turns:
                return
        table, aw = self.rng.choice(turns)
        user = table.seats[aw.seat].user_id
        action = self.good_action(table, aw)
        kw = {}
        if self.rng.random() < 0.7:
            kw["round_number"] = table.round
        if aw.phase == "claim" and self.rng.random() < 0.6:
            kw["expect"] = decision_token(table.game)
        if self.rng.random() < 0.5:
            kw["before_apply"] = yield_once
        # (a choice made at once adds no event until all are in: its seat is then among those that chose)
        before = (len(table.game.history), table.game.chosen_seats())
        await self.manager.play.act(
            self.manager.registry.get(table.channel_id), user, action, **kw
        )  # a legal move: never refused
        self.n[f"ok move {aw.phase}"] += 1
        assert table.status != "playing" or (len(table.game.history), table.game.chosen_seats()) != before
        self.remember(table)

    def bad_actions(self, table, aw) -> list[tuple[str, dict]]:
        legal = set(aw.legal)
        hand = table.game.view(aw.seat)["hand"] or []
        bad = [
            ("unknown verb", {"do": "dance"}),
            ("empty verb", {"do": ""}),
            ("extra field", {"do": aw.legal[0], "bogus": 1}),
            ("amount not a number", {"do": "bet", "amount": "lots"}),
            ("cards not a list", {"do": "choose", "cards": "AS KS QS JS TS"}),
            ("verb not a string", {"do": 5}),
        ]
        bad += [
            (f"not legal: {v}", {"do": v})
            for v in ("check", "fold", "call", "claim", "keep", "pass", "play")
            if v not in legal
        ]
        for verb in ("bet", "raise", "bid", "suit_bid", "corner_bet"):
            for amount in (-5, 0, 10**9):
                bad.append((f"{verb} {amount}", {"do": verb, "amount": amount, "ace": "AS"}))
            bad.append((f"{verb} without amount", {"do": verb}))
        bad += [
            ("lead no card", {"do": "lead"}),
            ("lead not a card", {"do": "lead", "card": "ZZ"}),
            ("lead 11H", {"do": "lead", "card": "11H"}),
            ("choose four", {"do": "choose", "cards": hand[:4]}),
            ("choose a repeated card", {"do": "choose", "cards": (hand[:1] * 5)}),
            ("choose unknown cards", {"do": "choose", "cards": ["ZZ"] * 5}),
            ("name no suit", {"do": "name_suit"}),
            ("name suit X", {"do": "name_suit", "suit": "X"}),
            ("reveal nowhere", {"do": "reveal", "cards": hand[:5], "space": "nowhere"}),
            ("pass no cards", {"do": "pass_cards", "cards": []}),
            ("full house of nothing", {"do": "full_house", "cards": ["ZZ"]}),
            ("straight of two", {"do": "straight", "cards": hand[:2]}),
        ]
        out = []
        for label, data in bad:
            # Keep only inputs that really are wrong now (a "bet 0" may never be legal, a "pass" may be).
            try:
                from engine import Action

                table.game.check(Action.from_dict({**data, "seat": aw.seat}))
            except (IllegalAction, ValueError, TypeError):
                out.append((label, data))
        return out

    async def op_bad_move(self):
        m = self.manager
        playing = self.tables("playing")
        if not playing:
            # No game: any move is refused (no table here, or the game hasn't started).
            channel = self.rng.choice(CHANNELS)
            return await self.refusable(
                "move without a game",
                lambda: m.play.act(m.registry.get(channel), self.rng.choice(USERS), {"do": "check"}),
                must_refuse=True,
            )
        turns = self.human_turns()
        table = self.rng.choice(turns)[0] if turns and self.rng.random() < 0.8 else self.rng.choice(playing)
        aw = table.game.awaiting()
        if aw is None:
            user = self.rng.choice([s.user_id for s in table.humans()])
            return await self.refusable(
                "move between rounds",
                lambda: m.play.act(m.registry.get(table.channel_id), user, {"do": "check"}),
                must_refuse=True,
            )
        seat = table.seats[aw.seat]
        good = self.good_action(table, aw)
        kinds = ["wrong user", "stale round", "wrong token", "illegal", "illegal", "illegal"]
        kind = self.rng.choice(kinds)
        user = seat.user_id
        kw = {}
        action = good
        if seat.auto or kind == "wrong user":
            # An AI seat, an away or departed player, someone else at the table, or a stranger.
            others = [u for u in USERS if u != seat.user_id or seat.auto]
            user, kind = self.rng.choice(others), "wrong user"
        elif kind == "stale round":
            kw["round_number"] = table.round + self.rng.choice([-1, 1, 5])
        elif kind == "wrong token":
            token = decision_token(table.game)
            kw["expect"] = self.rng.choice([str(int(token) - 1), str(int(token) + 1), "x", token + "0"])
            if aw.phase != "claim" and self.rng.random() < 0.5:
                kw["expect"] = token  # a claim button's token on a decision that is not a claim
        else:
            label, action = self.rng.choice(self.bad_actions(table, aw))
            kind = f"illegal ({label})"
        if self.rng.random() < 0.5:
            kw["before_apply"] = yield_once
        self.n[f"bad move: {kind.split(' (')[0]}"] += 1
        await self.refusable(
            f"bad move {kind}",
            lambda: m.play.act(m.registry.get(table.channel_id), user, action, **kw),
            must_refuse=True,
        )

    async def op_double(self):
        """The same move submitted two or three times at once (a double click)."""
        turns = self.human_turns()
        if not turns:
            return await self.op_lobby_double()
        table, aw = self.rng.choice(turns)
        user = table.seats[aw.seat].user_id
        action = self.good_action(table, aw)
        token = decision_token(table.game) if aw.phase == "claim" and self.rng.random() < 0.7 else None
        round_number = table.round
        copies = self.rng.choice([2, 2, 3])
        before = (len(table.game.history), table.game.chosen_seats())  # (see op_move: a choice made at once)
        calls = [
            self.manager.play.act(
                self.manager.registry.get(table.channel_id),
                user,
                dict(action),
                round_number,
                expect=token,
                before_apply=yield_once if self.rng.random() < 0.7 else None,
            )
            for _ in range(copies)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, errors.TripoleyError):
                raise r
        applied = [r for r in results if not isinstance(r, BaseException)]
        self.n["double submissions"] += 1
        self.n["double: copies applied"] += len(applied)
        self.n["double: copies refused"] += len(results) - len(applied)
        assert applied, f"none of {copies} copies of a legal move was applied: {results}"
        if token is not None:
            assert len(applied) == 1, "a claim button's token let one click claim twice"
        assert table.status != "playing" or (len(table.game.history), table.game.chosen_seats()) != before
        self.remember(table)

    async def op_lobby_double(self):
        """Two joins, starts or AI additions at once."""
        m = self.manager
        lobbies = self.tables("lobby")
        if not lobbies:
            return await self.op_create()
        table = self.rng.choice(lobbies)
        kind = self.rng.choice(["join", "start", "add_ai"])
        if kind == "join":
            user = self.rng.choice(USERS)
            calls = [m.lobby.join(table.channel_id, user, f"user{user}") for _ in range(2)]
        elif kind == "start":
            calls = [m.lobby.start(table.channel_id, table.host_id, before_apply=yield_once) for _ in range(2)]
        else:
            calls = [m.lobby.add_ai(table.channel_id, table.host_id, before_apply=yield_once) for _ in range(3)]
        results = await asyncio.gather(*calls, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, errors.TripoleyError):
                raise r
        applied = sum(not isinstance(r, BaseException) for r in results)
        self.n[f"lobby double {kind}"] += 1
        if kind in ("join", "start"):
            assert applied <= 1, f"{kind} applied {applied} times"
        if kind == "start" and applied:
            self.remember(table)

    async def op_mix(self):
        """Different operations on one table at once: moves, timers, leave, stop, I'm back."""
        m = self.manager
        if not m.registry.by_channel:
            return await self.op_create()
        table = self.rng.choice(self.tables())
        ch = table.channel_id
        calls = []
        for _ in range(self.rng.choice([2, 3, 3, 4])):
            what = self.rng.choice(["act", "act", "tick", "leave", "stop", "back", "join", "start", "ai"])
            aw = table.awaiting()
            if what == "act" and aw is not None and not table.seats[aw.seat].auto:
                user = table.seats[aw.seat].user_id
                calls.append(
                    (
                        "act",
                        m.play.act(
                            m.registry.get(ch), user, self.good_action(table, aw), table.round, before_apply=yield_once
                        ),
                    )
                )
            elif what == "tick":
                nd = m.timers.next_deadline()
                if nd is not None and self.rng.random() < 0.5:
                    self.clock.t = max(self.clock.t, nd)
                calls.append(("tick", m.timers.tick()))
            elif what == "leave" and table.humans():
                calls.append(("leave", m.lobby.leave(ch, self.rng.choice(table.humans()).user_id)))
            elif what == "stop" and self.rng.random() < 0.4:
                calls.append(("stop", m.play.stop(ch, self.rng.choice(USERS), can_manage=self.rng.random() < 0.3)))
            elif what == "back":
                calls.append(("back", m.play.back(ch, self.rng.choice(USERS))))
            elif what == "join":
                user = self.rng.choice(USERS)
                calls.append(("join", m.lobby.join(ch, user, f"user{user}")))
            elif what == "start":
                calls.append(("start", m.lobby.start(ch, table.host_id, before_apply=yield_once)))
            elif what == "ai":
                calls.append(("ai", m.lobby.add_ai(ch, table.host_id, before_apply=yield_once)))
        if not calls:
            return
        results = await asyncio.gather(*(call for _, call in calls), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, errors.TripoleyError):
                raise r
        self.n["concurrent mixes"] += 1
        self.n["concurrent ops"] += len(calls)
        self.n["concurrent refusals"] += sum(isinstance(r, BaseException) for r in results)

    async def op_time(self):
        m = self.manager
        for _ in range(self.rng.choice([1, 1, 2, 5, 10, 25])):
            nd = m.timers.next_deadline()
            if self.rng.random() < 0.97:
                # Mostly the games' deadlines: lobbies are left some time to fill up and start.
                games = [t.deadline for t in self.tables("playing") if t.deadline is not None]
                nd = min(games) if games else None
            if nd is None:
                self.clock.advance(5)
            elif self.rng.random() < 0.1:
                self.clock.advance(self.rng.uniform(0, 2))  # not yet due, most likely
            else:
                self.clock.t = max(self.clock.t, nd)
            updates = await m.timers.tick()
            self.n["ticks"] += 1
            self.n["tick updates"] += len(updates)
            self.n["timeouts"] += sum(1 for u in updates if u.message and "ran out of time" in u.message)
            self.n["seats handed to the AI"] += sum(1 for u in updates if u.message and "I'm back" in u.message)
            self.n["lobbies expired"] += sum(1 for u in updates if u.kind == "cancelled")

    async def drive_to_human(self, limit: int = 40):
        """Fire the AI and next-deal deadlines (not the players' turns) until a human is to act."""
        m = self.manager
        for _ in range(limit):
            if self.human_turns():
                return
            due = [t.deadline for t in self.tables("playing") if t.deadline is not None and t.deadline_kind != "turn"]
            if not due:
                return
            self.clock.t = max(self.clock.t, min(due))
            await m.timers.tick()
            self.n["ticks"] += 1

    async def op_back(self):
        m = self.manager
        away = [(t, s) for t in self.tables("playing") for s in t.seats if s.away and not s.left]
        if away and self.rng.random() < 0.8:
            table, seat = self.rng.choice(away)
            user = seat.user_id
        elif m.registry.by_channel:
            table, user = self.rng.choice(self.tables()), self.rng.choice(USERS)
        else:
            return await self.op_create()
        if await self.refusable("back", lambda: m.play.back(table.channel_id, user)) is not None:
            self.remember(table)

    async def op_stop(self):
        m = self.manager
        if not m.registry.by_channel:
            return await self.op_create()
        table = self.rng.choice(self.tables())
        user = table.host_id if self.rng.random() < 0.5 else self.rng.choice(USERS)
        can_manage = self.rng.random() < 0.3
        await self.refusable("stop", lambda: m.play.stop(table.channel_id, user, can_manage))

    async def op_place_lost(self):
        """The table's place on Discord went away (its channel or thread deleted, the bot removed or
        refused there: bot.discordio.places): it ends at once, its chips back through the ledger;
        now and then while a timer fires there, or twice at once (an event and a refused request)."""
        m = self.manager
        if not m.registry.by_channel:
            return await self.op_create()
        table = self.rng.choice(self.tables())
        why = self.rng.choice(sorted(PLACE_LOST))
        calls = [m.play.end_lost(table, why)]
        if self.rng.random() < 0.3:
            calls.append(m.play.end_lost(table, why))
        if self.rng.random() < 0.3:
            calls.append(m.timers.tick())
        status = table.status
        results = await asyncio.gather(*calls, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        ended = [r for r in results[: len(calls)] if r is not None and not isinstance(r, list)]
        assert table.status in ("finished", "cancelled") and len(ended) == 1, (table.status, results)
        self.n[f"place lost: {status}"] += 1

    # -- the economy --------------------------------------------------------------------

    def economy(self) -> Bank:
        """The bank on the current manager's (killable) database, on the test's clock."""
        return Bank(self.manager.store.db, clock=lambda: self.clock.t)

    def seated(self, user: int) -> bool:
        return any(t.seat_of(user) is not None for t in self.manager.registry.by_id.values())

    def claim(self, kind: str):
        """A daily or relief claim (now and then after the cooldown ran out)."""
        user = self.rng.choice(USERS)
        if self.rng.random() < 0.3:
            self.clock.t += 3600
        below = 100 if kind == "relief" else None
        return user, lambda: self.economy().claim(G, user, kind, 50, 1800, self.starting, below=below)

    async def op_daily(self):
        _, call = self.claim("daily")
        await self.refusable("daily", call)

    async def op_relief(self):
        _, call = self.claim("relief")
        await self.refusable("relief", call)

    def grant(self):
        user = HOUSE if self.rng.random() < 0.2 else self.rng.choice(USERS)
        amount = self.rng.choice([-5000, -300, -40, 25, 200, 2000])
        bankroll = self.manager.settings.house_bankroll
        return lambda: self.economy().adjust(G, user, amount, ADMIN, bankroll if user == HOUSE else self.starting)

    async def op_grant(self):
        await self.refusable("grant", self.grant())

    async def op_reset(self):
        bankroll = self.manager.settings.house_bankroll
        await self.refusable("reset", lambda: self.economy().reset(G, ADMIN, self.starting, bankroll))

    async def op_kick(self):
        m = self.manager
        seated = [s.user_id for t in self.tables() for s in t.humans()]
        user = self.rng.choice(seated) if seated and self.rng.random() < 0.8 else self.rng.choice(USERS)
        playing = [t for t in self.tables("playing") if t.seat_of(user) is not None]
        if await self.refusable("kick", lambda: m.lobby.kick(G, user, "admin")) is not None:
            for table in playing:
                self.remember(table)

    async def op_forget(self):
        user = self.rng.choice(USERS)
        await self.refusable("forget", lambda: self.economy().forget(G, user, lambda: self.seated(user)))

    async def op_flush(self):
        await self.manager.store.flush()
        self.n["flushes"] += 1

    # -- the database fails -------------------------------------------------------------

    async def op_db_fault(self):
        """The database fails just before an operation, which goes through all the same."""
        if self.db.is_postgres:
            fault = "connections killed"
            await self.postgres_admin(KILL_CONNECTIONS)
        elif self.rng.random() < 0.5:
            fault = "I/O error"
            self.db.conn.raw = BeginFailsOnce(self.db.conn.raw)
        else:
            fault = "locked by another program"
            # The other program's previous lock first (an operation may end before it is released):
            # its BEGIN would wait on the event loop, which its release is waiting for.
            await self.other_released.wait()
            await self.db.conn.raw.execute("PRAGMA busy_timeout=10")  # gives up at once, then retried
            other = sqlite3.connect(self.db.path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            self.other_released.clear()
            loop = asyncio.get_running_loop()
            loop.call_later(
                self.rng.uniform(0.02, 0.2),
                lambda: (other.execute("COMMIT"), other.close(), self.other_released.set()),
            )
        self.n[f"db fault: {fault}"] += 1
        name = self.rng.choice(["move", "join", "add_ai", "start", "time", "daily", "grant", "leave", "flush"])
        await getattr(self, f"op_{name}")()
        self.n[f"db fault, then {name}"] += 1

    async def op_db_away(self):
        """The database goes away for a while (SQLite: reopened read-only, as a filesystem
        remounted so; PostgreSQL: a read-only server): a move, a join, a stop, a grant… are refused
        and change nothing (not even in memory), time passing fires no deadline (no timeout is
        charged); once it answers again everything goes on."""
        m = self.manager
        await m.store.flush()  # memory is what the database holds (the coalesced saves written)
        db = self.db
        if db.is_postgres:
            form = "read-only server"
            dbname = db.path.rsplit("/", 1)[1]
            await self.postgres_admin(
                f"ALTER DATABASE {dbname} SET default_transaction_read_only = on", KILL_CONNECTIONS
            )
        else:
            form = "read-only file"
            real = type(db)._open

            async def read_only(db=db):
                conn = await real(db)
                await conn.raw.close()
                ro = await aiosqlite.connect(f"file:{db.path}?mode=ro", uri=True, isolation_level=None)
                ro.row_factory = aiosqlite.Row
                return SqliteConnection(ro)

            db._open = read_only
            db._lost = True  # reopened (read-only) before its next use
        retry_for, db.retry_for = db.retry_for, 0.2
        try:
            for _ in range(self.rng.randint(2, 5)):
                name, call = self.while_away()
                if await self.refusable(f"{name} (database away)", call) is not None:
                    raise AssertionError(f"{name} went through while the database was away")
            assert db.away
            before = await self.snapshot()
            self.clock.advance(self.rng.choice([30.0, 200.0]))  # every player's time runs out meanwhile
            assert await m.timers.tick() == [] and await self.snapshot() == before, "a deadline fired while away"
        finally:
            db.retry_for = retry_for
            if db.is_postgres:
                await self.postgres_admin(
                    "SET default_transaction_read_only = off",  # (this session began read-only too)
                    f"ALTER DATABASE {dbname} RESET default_transaction_read_only",
                )
            else:
                del db._open
                db._lost = True
        for _ in range(1000):
            if not db.away:
                break
            await asyncio.sleep(0.01)
        assert not db.away, "the database did not come back"
        turns = {t.id: t.deadline for t in self.tables("playing") if t.deadline_kind == "turn"}
        await m.timers.tick()  # released: every turn got its time back
        for t in self.tables("playing"):
            if t.id in turns:
                assert t.deadline >= self.clock.now() + m.timers.resume_grace - 1e-6, "a turn lost its time"
        # The outage is logged as an error, by design (any other error is still one: self.check).
        records = self.caplog.handler.records
        records[:] = [r for r in records if not (r.levelno >= logging.ERROR and OUTAGE_LOGGED in r.getMessage())]
        self.n[f"db away: {form}"] += 1

    def while_away(self):
        """One operation (its name and call) for :meth:`op_db_away`, each one that writes."""
        m = self.manager
        options = [("daily", self.claim("daily")[1]), ("grant", self.grant())]
        turns = self.human_turns()
        if turns:
            table, aw = self.rng.choice(turns)
            user, action = table.seats[aw.seat].user_id, self.good_action(table, aw)
            options.append(
                ("move", lambda: m.play.act(m.registry.get(table.channel_id), user, action, before_apply=yield_once))
            )
        if m.registry.by_channel:
            any_table = self.rng.choice(self.tables())
            options.append(("stop", lambda: m.play.stop(any_table.channel_id, any_table.host_id, True)))
            humans = [s.user_id for s in any_table.humans() if not s.left]
            if humans:
                leaver = self.rng.choice(humans)
                options.append(("leave", lambda: m.lobby.leave(any_table.channel_id, leaver)))
        free = [u for u in USERS if not self.seated(u)]
        lobbies = self.tables("lobby")
        if lobbies and free:
            lob, joiner = self.rng.choice(lobbies), self.rng.choice(free)
            options.append(("join", lambda: m.lobby.join(lob.channel_id, joiner, f"user{joiner}")))
            options.append(("start", lambda: m.lobby.start(lob.channel_id, lob.host_id)))
        return self.rng.choice(options)

    async def postgres_admin(self, *statements: str) -> None:
        admin = await asyncpg.connect(self.db.path)
        try:
            for sql in statements:
                await admin.execute(sql)
        finally:
            await admin.close()

    async def op_corrupt(self):
        """SIGKILL, and a table's saved row is broken on restart: it is quarantined, its chips
        back in the wallets that paid them; every other table resumes."""
        if not self.manager.registry.by_channel:
            return await self.op_create()
        victim = self.rng.choice(self.tables())
        old = self.manager
        if old.store._saver_task is not None:
            old.store._saver_task.cancel()
            await asyncio.gather(old.store._saver_task, return_exceptions=True)
        row = await self.db.fetchone("SELECT state_json FROM tables WHERE id = ?", (victim.id,))
        kind = self.rng.choice(["{}", "invalid JSON", "not a game"])
        broken = {"{}": "{}", "invalid JSON": row[0][: len(row[0]) // 2]}.get(kind)
        if broken is None:
            broken = json.dumps({**json.loads(row[0]), "game": json.dumps({"deck": "no"})})
        await self.db.execute_alone("UPDATE tables SET state_json = ? WHERE id = ?", (broken, victim.id))
        others = [r["id"] for r in await self.manager.store.open_tables() if r["id"] != victim.id]
        self.manager = self.new_manager()
        resumed = await self.manager.timers.resume()
        assert sorted(t.id for t in resumed) == sorted(others), "a healthy table did not resume"
        status = await self.db.fetchone("SELECT status, chips FROM tables WHERE id = ?", (victim.id,))
        assert tuple(status) == ("quarantined", 0), (kind, tuple(status))
        self.floor.pop(victim.id, None)
        self.caplog.clear()  # the quarantine is logged as an error, by design
        self.n[f"quarantined a table saved as {kind}"] += 1

    # -- crashes ----------------------------------------------------------------------

    async def crash(self, touched: int | None = None, mid: bool = False, wild: bool = False):
        """SIGKILL and restart: the old manager's memory is gone, its unsaved states with it.

        ``mid``: the crash interrupted an operation on channel ``touched`` (``wild``: on any
        table, e.g. a timer tick or a flush), whose in-memory changes may not be saved."""
        old = self.manager
        if old.store._saver_task is not None:
            old.store._saver_task.cancel()
            await asyncio.gather(old.store._saver_task, return_exceptions=True)
        assert not self.db.conn.in_transaction
        rows = await self.db.fetchall("SELECT * FROM tables WHERE guild_id = ? ORDER BY id", (G,))
        by_id = {t.id: t for t in old.registry.by_channel.values()}
        open_rows = [r for r in rows if r["status"] in ("lobby", "playing")]
        for row in rows:
            t = by_id.get(row["id"])
            exempt = mid and (wild or (t is not None and t.channel_id == touched) or row["channel_id"] == touched)
            if t is None:
                # Closed in memory and in the database, or (only mid-operation) opened in the
                # database just before the crash.
                assert row["status"] not in ("lobby", "playing") or exempt, dict(row)
                continue
            assert row["status"] == t.status or exempt, (t.id, row["status"], t.status)
            state = json.loads(row["state_json"])
            saved = Game.from_json(state["game"]) if state.get("game") else None
            if t.game is not None and saved is not None:
                saved_history = saved.history
                # Events only ever get appended: to the game's own list (cut, eliminations,
                # playoff) and to the rounds' lists.
                for mine, theirs in zip(event_lists(t.game), event_lists(saved)):
                    assert mine[: len(theirs)] == theirs, f"table {t.id}: the save is not an earlier state"
                assert len(saved_history) >= self.floor.get(t.id, 0), (
                    f"table {t.id}: the crash undid a move a player was answered for "
                    f"({len(saved_history)} < {self.floor[t.id]} events)"
                )
            if exempt:
                continue
            if t.status == "playing":
                assert saved is not None, f"table {t.id} is playing without a saved game"
                if t.deadline_kind == "turn":
                    # What a waiting player was shown is saved exactly.
                    assert saved.to_json() == t.game.to_json(), f"table {t.id}: the human turn was not saved"
                    self.n["crash: a human's turn found saved exactly"] += 1
                elif len(saved.history) < len(t.game.history):
                    self.n["crash: unsaved AI moves lost (coalesced saves)"] += 1
            else:
                assert state["seats"] == norm([asdict(s) for s in t.seats])
                self.n["crash: a lobby found saved exactly"] += 1
        self.manager = self.new_manager()
        resumed = await self.manager.timers.resume()
        assert sorted(t.id for t in resumed) == sorted(r["id"] for r in open_rows), "a table failed to resume"
        for t in resumed:
            if t.game is not None:
                # Resuming may run what needs no waiting (AI moves) but not rewrite what was saved.
                row = next(r for r in open_rows if r["id"] == t.id)
                saved = Game.from_json(json.loads(row["state_json"])["game"])
                for mine, theirs in zip(event_lists(t.game), event_lists(saved)):
                    assert mine[: len(theirs)] == theirs, f"table {t.id} resumed as another game"
        self.n["crashes mid-operation" if mid else "crashes between steps"] += 1
        self.n["tables resumed"] += len(resumed)

    async def op_crash_mid(self):
        """Start one operation and kill the process right before or right after its N-th write."""
        m = self.manager
        options = []
        turns = self.human_turns()
        if turns:
            table, aw = self.rng.choice(turns)
            action = self.good_action(table, aw)
            user = table.seats[aw.seat].user_id
            options.append(
                (
                    "act",
                    table.channel_id,
                    False,
                    lambda: m.play.act(
                        m.registry.get(table.channel_id), user, action, table.round, before_apply=yield_once
                    ),
                )
            )
        lobbies = self.tables("lobby")
        if lobbies:
            lob = self.rng.choice(lobbies)
            user = self.rng.choice(USERS)
            options.append(("start", lob.channel_id, False, lambda: m.lobby.start(lob.channel_id, lob.host_id)))
            options.append(("join", lob.channel_id, False, lambda: m.lobby.join(lob.channel_id, user, f"user{user}")))
            options.append(("add_ai", lob.channel_id, False, lambda: m.lobby.add_ai(lob.channel_id, lob.host_id)))
        if m.registry.by_channel:
            any_table = self.rng.choice(self.tables())
            humans = any_table.humans()
            options.append(
                (
                    "stop",
                    any_table.channel_id,
                    False,
                    lambda: m.play.stop(any_table.channel_id, any_table.host_id, True),
                )
            )
            if humans:
                leaver = self.rng.choice(humans).user_id
                options.append(
                    ("leave", any_table.channel_id, False, lambda: m.lobby.leave(any_table.channel_id, leaver))
                )
        free = [c for c in CHANNELS if c not in m.registry.by_channel]
        if free:
            ch, host = self.rng.choice(free), self.rng.choice(USERS)
            preset = self.rng.choice(PRESET_KEYS)
            options.append(
                (
                    "create",
                    ch,
                    False,
                    lambda: m.lobby.create_table(
                        G, ch, host, f"user{host}", preset, {"game_end": "rounds:1"}, buy_in=20
                    ),
                )
            )

        async def time_passes():
            nd = m.timers.next_deadline()
            if nd is not None:
                self.clock.t = max(self.clock.t, nd)
            await m.timers.tick()

        options.append(("daily", None, False, self.claim("daily")[1]))
        options.append(("grant", None, False, self.grant()))
        forgotten = self.rng.choice(USERS)
        options.append(
            ("forget", None, False, lambda: self.economy().forget(G, forgotten, lambda: self.seated(forgotten)))
        )
        kicked = self.rng.choice(USERS)
        options.append(("kick", None, True, lambda: m.lobby.kick(G, kicked, "admin")))
        options.append(("tick", None, True, time_passes))
        options.append(("flush", None, True, m.store.flush))
        name, channel, wild, call = self.rng.choice(options)
        killable: Killable = m.store.db
        killable.arm(self.rng.choice([0, 0, 1, 2]), self.rng.choice(["before", "after"]))
        task = asyncio.ensure_future(call())
        dead = asyncio.ensure_future(killable.dead.wait())
        await asyncio.wait({task, dead}, return_when=asyncio.FIRST_COMPLETED)
        killable.disarm()
        if not task.done():
            task.cancel()  # the process is gone: nothing after that write runs
            self.n[f"killed during {name}"] += 1
        else:
            self.n[f"crashed after {name}"] += 1
        dead.cancel()
        results = await asyncio.gather(task, dead, return_exceptions=True)
        exc = results[0]
        if isinstance(exc, BaseException) and not isinstance(exc, (errors.TripoleyError, asyncio.CancelledError)):
            raise exc
        await self.crash(touched=channel, mid=True, wild=wild)

    # -- the run ----------------------------------------------------------------------

    OPS = (
        ("create", 8),
        ("join", 9),
        ("leave", 4),
        ("add_ai", 7),
        ("start", 7),
        ("move", 30),
        ("bad_move", 12),
        ("double", 6),
        ("lobby_double", 2),
        ("mix", 4),
        ("time", 16),
        ("back", 3),
        ("stop", 2),
        ("flush", 3),
        ("crash", 2),
        ("crash_mid", 3),
        ("daily", 2),
        ("relief", 1),
        ("grant", 2),
        ("reset", 1),
        ("kick", 2),
        ("forget", 1),
        ("db_fault", 4),
        ("db_away", 2),
        ("corrupt", 1),
        ("place_lost", 2),
    )

    async def run(self, steps: int) -> None:
        self.starting = self.rng.choice([400, 1000])
        await self.prefs.update_guild(
            G,
            ai_pause=self.rng.choice([0.0, 0.5, 1.0]),
            turn_timeout=self.rng.choice([20.0, 60.0]),
            starting_balance=self.starting,
        )
        names = [name for name, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        for step in range(steps):
            name = self.rng.choices(names, weights)[0]
            self.n[f"op {name}"] += 1
            try:
                if name == "crash":
                    await self.crash()
                else:
                    await getattr(self, f"op_{name}")()
                await self.check()
            except BaseException as exc:
                exc.add_note(f"chaos seed {self.seed}, step {step}, operation {name}")
                raise
        # The end: every table stopped (a restart first, now and then), everything cashed out.
        if self.rng.random() < 0.5:
            await self.crash()
        m = self.manager
        for table in list(m.registry.by_channel.values()):
            await m.play.stop(table.channel_id, table.host_id, can_manage=True)
        await m.store.flush()
        await self.check()
        assert not m.registry.by_channel
        audit = await self.bank.audit(G)
        assert audit.ok and audit.tables == 0, audit
        maudit = await m.results.audit(G)
        assert maudit["tables"] == 0 and maudit["users"] + maudit["house"] == maudit["granted"] - maudit["removed"], (
            maudit
        )
        assert audit.wallets == audit.granted - audit.removed
        await self.crash()  # nothing left to resume
        assert not self.manager.registry.by_channel

    async def close(self) -> None:
        for m in self.managers:
            if m.store._saver_task is not None:
                m.store._saver_task.cancel()
                await asyncio.gather(m.store._saver_task, return_exceptions=True)


TOTALS: Counter = Counter()


@pytest.mark.parametrize("seed", SEEDS)
async def test_chaos_no_chip_is_created_or_lost(seed, make_manager, clock, db, bank, prefs, caplog):
    caplog.set_level(logging.WARNING, logger="bot")
    chaos = Chaos(seed, make_manager, clock, db, bank, prefs, caplog)
    try:
        await chaos.run(STEPS)
    finally:
        await chaos.close()
    n = chaos.n
    rounds = sum(chaos.rounds.values())
    # Not vacuous: games were played, rounds completed, games ended by their own rules, moves
    # and refusals and crashes happened.
    assert n["ok start"] + n["lobby double start"] >= 5 and rounds >= 5 and len(chaos.natural) >= 2, (rounds, dict(n))
    assert sum(v for k, v in n.items() if k.startswith("ok move")) >= 10, dict(n)
    assert sum(v for k, v in n.items() if k.startswith("refused bad move")) >= 5, dict(n)
    assert n["crashes between steps"] + n["crashes mid-operation"] >= 2, dict(n)
    # The economy's steps ran too (grants and removals among them, and they were checked like the rest).
    assert n["ok daily"] + n["ok grant"] >= 3 and n["op kick"] + n["op forget"] + n["op reset"] >= 2, dict(n)
    # The database failed before operations, which went through all the same.
    assert sum(v for k, v in n.items() if k.startswith("db fault: ")) >= 3, dict(n)
    # It went away for a while: every operation was refused and changed nothing, no deadline fired.
    assert sum(v for k, v in n.items() if k.startswith("db away: ")) >= 1, dict(n)
    # Only a game without board clearing (endgame "none") may end with chips on the mat (the house takes them).
    assert all(options.get("endgame") == "none" for _, _, options, _ in chaos.leftover), chaos.leftover
    TOTALS.update(n)
    TOTALS["rounds completed"] += rounds
    TOTALS["games ended by their rules"] += len(chaos.natural)
    TOTALS["games ended"] += len(chaos.ended)
    print(
        f"\nchaos seed {seed}: rounds {rounds}, games ended {len(chaos.ended)} ({len(chaos.natural)} by their rules), "
        f"leftover mats {len(chaos.leftover)}, " + ", ".join(f"{k}={v}" for k, v in sorted(n.items()))
    )


@pytest.mark.parametrize(
    "race", ["lobby: leave twice", "lobby: stop twice", "game: stop and leave", "game: stop twice"]
)
async def test_leave_or_stop_on_a_table_closed_meanwhile_is_refused(race, make_manager, bank):
    """Found by the chaos test (concurrent mixes): two clicks at once on one table."""
    m = make_manager()
    ann, bob, ch = 11, 22, 7100
    await m.lobby.create_table(G, ch, ann, "ann", "tripoley", {}, buy_in=50)
    if race.startswith("lobby"):
        await m.lobby.add_ai(ch, ann)
    else:
        await m.lobby.join(ch, bob, "bob")
        await m.lobby.start(ch, ann)
    calls = {
        "lobby: leave twice": lambda: [m.lobby.leave(ch, ann), m.lobby.leave(ch, ann)],
        "lobby: stop twice": lambda: [m.play.stop(ch, ann, False), m.play.stop(ch, ann, False)],
        "game: stop and leave": lambda: [m.play.stop(ch, ann, False), m.lobby.leave(ch, bob)],
        "game: stop twice": lambda: [m.play.stop(ch, ann, False), m.play.stop(ch, ann, False)],
    }[race]()
    results = await asyncio.gather(*calls, return_exceptions=True)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0, audit
    assert not isinstance(results[0], BaseException)
    # The second click is refused like any stale click (it used to fail with an internal error).
    assert isinstance(results[1], errors.TripoleyError), repr(results[1])
