"""Load benchmark of the Discord bot: N concurrent tables through the local fake Discord.

    python bench/bench_bot_load.py [--tables 200] [--seconds 60] [--rounds 3] [--ai 3] [--humans 1]
                                   [--think 3] [--ai-level hard] [--postgres] [--processes 2]

Starts the fake Discord (``tests/fakediscord``) on 127.0.0.1 in this process and ``python -m bot``
as a subprocess against it (temporary SQLite database, ``AI_PAUSE`` 0.2 s, ``ROUND_PAUSE`` 0.5 s).
``--postgres``: a throwaway PostgreSQL server instead (``tests/pgserver.py``: initdb + pg_ctl; its
binaries must be installed). ``--processes N`` (PostgreSQL): a cluster of N bot processes, one
shard each (``SHARD_COUNT`` N), the tables spread over N servers, one in each shard.
The fake Discord enforces Discord's rate limits (the global limit per bot token, interaction
endpoints exempt, per-route buckets): a bot that breaks one gets 429s, and the bench prints FAIL.
Opens ``--tables`` tables, one per channel, each with ``--humans`` scripted humans of its own
(distinct users) and ``--ai`` AI seats of ``--ai-level`` (Hard: searching in the bot's
``AI_PROCESSES`` workers), ``rounds: --rounds``; then plays for ``--seconds`` seconds: every
scripted human reads the table message (like a user: whose turn it is) and, on its turn, thinks
``--think`` seconds (give or take half; 0: full speed) and answers with a simple
policy (check / call / keep / pass / play from the public buttons, else "Show my hand" and best
five, first legal lead, first select options, the lowest amount). A table whose game ends starts a
new one, so the load stays at N tables. Then the bot is stopped (SIGTERM, SIGKILL after 5 s) and
the script prints:

* tables, games and rounds completed;
* interaction → acknowledgement latency (``dh.ack_stats()``): median and p99, whole run and play phase;
* REST calls of the bot per completed round; the requests counted against the token's global
  limit and the exempt ones (interaction endpoints) per human decision and per round, and the
  counted ones a second (mean, and the most in any second: every process together); 429s;
* the time from a move to the table message showing it (p50 / p95);
* mat edits per channel per second: mean over the play phase, and the max count in any 1 s window;
* the bot process's peak RSS (``VmHWM`` from ``/proc/PID/status``);
* pictures uploaded to the channels (posts and edits with a file) and their bytes, per round, and
  how many repeated the picture their channel had just been sent (an upload per visible change: 0);
* the targets next to them (p99 ≤ 100 ms, ≤ 1 paced mat edit/s per channel, ≤ 300 MB,
  ≤ 1.5 MB of pictures per 5 rounds of a 4-player game, ≤ 1 counted request per human decision,
  the move shown within 1.5 s at p95, no 429);
* the conservation check over the whole database at the end (no chip created or lost).

The fake Discord and the scripted users share this process's event loop: its own loop lag is printed
too, since a busy driver inflates the measured latencies (acks are timed when the callback POST is
handled here). Everything is bounded: loopback only, set-up and play time limits, and the bot is
killed at the end. Exit code 0 when every target is met, 1 otherwise, 2 on a failed set-up.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import gc
import json
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.settings import database_path  # noqa: E402
from bot.storage.copydb import audits  # noqa: E402
from bot.storage.database import Database  # noqa: E402
from tests import pgserver  # noqa: E402
from tests.fakediscord import DiscordHarness  # noqa: E402

TARGET_P99 = 0.100  # seconds: click → acknowledgement, p99 over the whole run
TARGET_EDITS = 1.0  # mat edits per second per channel
TARGET_RSS_MB = 300.0
TARGET_BYTES_5_ROUNDS = 1_500_000  # pictures uploaded for 5 rounds of a 4-player game
TARGET_COUNTED_PER_DECISION = 1.0  # requests counted against the token's global limit, per human decision
TARGET_SHOWN_P95 = 1.5  # seconds from a move to the table message showing it, p95
TOKEN_BUDGET = 50  # Discord's global limit: requests a second per bot token, every process together
STOP_TIMEOUT = 60.0  # seconds from SIGTERM to SIGKILL (systemd waits 90 s by default)
# The bot as `python -m bot` runs, with its acknowledgements timed (ACK_STATS_FILE).
TIMED_BOT = (sys.executable, str(Path(__file__).resolve().with_name("ackstats.py")))

PREFER = ("Check", "Call", "Keep my hand", "Keep", "Pass", "Claim", "Play", "Decline", "Cover")
HAND_PREFIX = ("Lead", "Play", "Check", "Call", "Keep", "Pass", "Claim", "Decline")
TO_ACT = re.compile(r"⏳ <@(\d+)> to act")
ADD_AI = {"easy": "Add Easy AI", "normal": "Add AI", "hard": "Add Hard AI"}  # the lobby button of each AI level
ROUND_HEAD = re.compile(r"^## 🃏 .* — round (\d+)")


# ---------------------------------------------------------------------------
# Reading what a user sees
# ---------------------------------------------------------------------------


def buttons(msg) -> list[dict]:
    return [c for row in msg.components for c in row.get("components", []) if c.get("type") == 2]


def selects(msg) -> list[dict]:
    return [c for row in msg.components for c in row.get("components", []) if c.get("type") == 3]


def button(msg, prefix: str):
    return next((b for b in buttons(msg) if (b.get("label") or "").startswith(prefix) and not b.get("disabled")), None)


def is_mat(msg) -> bool:
    return not msg.ephemeral and bool(ROUND_HEAD.match(msg.content or ""))


def is_final(msg) -> bool:
    return not msg.ephemeral and (msg.content or "").startswith("## 🏁")


RECENT = 200  # messages looked at from the end of a channel (turn pings and round results come in between)


def table_message(channel):
    """The newest public message with the "Show my hand" button (looks at the recent ones only)."""
    for m in reversed(channel.messages[-RECENT:]):
        if not m.deleted and not m.ephemeral and button(m, "Show my hand"):
            return m
    return None


# ---------------------------------------------------------------------------
# A scripted human at one table
# ---------------------------------------------------------------------------


@dataclass
class TableRun:
    index: int
    channel: object
    users: list  # FakeUser: the table's humans, the first one hosts
    games_started: int = 0
    games_finished: int = 0
    moves: int = 0
    stuck: int = 0
    errors: list[str] = field(default_factory=list)
    finished_ids: set = field(default_factory=set)
    shown: list = field(default_factory=list)  # (move dispatched at, table message id, its content then)

    @property
    def user(self):
        return self.users[0]

    def note(self, text: str) -> None:
        if len(self.errors) < 5:
            self.errors.append(text)


def count_pictures(dh) -> dict:
    """Count the pictures the bot uploads to the channels (not the private hand views): their
    number, bytes, and uploads repeating the picture last sent to that channel under that name."""
    counts = {"uploads": 0, "bytes": 0, "repeats": 0}
    last: dict[tuple, bytes] = {}
    make_attachments = dh.server._make_attachments

    def recording(channel_id, payload, files, existing, *, ephemeral):
        if not ephemeral:
            for _, name, data, _ in files:
                counts["uploads"] += 1
                counts["bytes"] += len(data)
                counts["repeats"] += last.get((channel_id, name)) == data
                last[(channel_id, name)] = data
        return make_attachments(channel_id, payload, files, existing, ephemeral=ephemeral)

    dh.server._make_attachments = recording
    return counts


async def open_table(dh, t: TableRun, args) -> None:
    """/tripoley start, Add AI × n, Start; returns once the first table message is up."""
    h = await dh.run_command(t.user, t.channel, "tripoley start", preset=args.preset, rounds=args.rounds)
    lobby = await h.message(timeout=20)
    if "table open" not in (lobby.content or ""):
        raise RuntimeError(f"table {t.index}: no lobby: {lobby.content!r}")
    for guest in t.users[1:]:
        await (await dh.click(guest, lobby, label="Join")).response(timeout=20)
    for _ in range(args.ai):
        await (await dh.click(t.user, lobby, label=ADD_AI[args.ai_level])).response(timeout=20)
    await (await dh.click(t.user, lobby, label="Start")).response(timeout=20)
    t.games_started += 1


async def move(dh, user, tm):
    """One legal move from the table message `tm` (simple policy): the interaction that made it,
    or None if it was not our turn after all."""
    for label in PREFER:
        b = button(tm, label)
        if b:
            return await (await dh.click(user, tm, custom_id=b["custom_id"])).response()
    hand = await (await dh.click(user, tm, label="Show my hand")).message(timeout=10)
    if not hand.ephemeral:
        raise RuntimeError("Show my hand did not answer privately")
    if "**Your turn:**" not in (hand.content or ""):
        return None  # the table message was behind: not our turn any more
    for b in buttons(hand):
        label = b.get("label") or ""
        if label == "Best five" or label.startswith(HAND_PREFIX):
            return await (await dh.click(user, hand, custom_id=b["custom_id"])).response()
    for s in selects(hand):
        cid = s["custom_id"]
        if cid.endswith(("pick.full_house", "pick.straight", "pick.space")):
            continue
        n = s.get("min_values", 1) or 1
        return await (await dh.select(user, hand, cid, [o["value"] for o in s["options"][:n]])).response()
    for b in buttons(hand):
        if ":suit." in b.get("custom_id", ""):
            return await (await dh.click(user, hand, custom_id=b["custom_id"])).response()
    for b in buttons(hand):
        if ":amt." in b.get("custom_id", ""):
            h = await dh.click(user, hand, custom_id=b["custom_id"])
            await h.response()
            if h.modal is None:
                raise RuntimeError(f"no modal for {b.get('label')}")
            low = re.search(r"Amount:\s*(\d+)", hand.content or "")
            return await (await dh.submit_modal(user, h, {"amount": low.group(1) if low else "1"})).response()
    raise RuntimeError(f"no move found in the hand:\n{hand.content}")


def state_key(channel):
    """What the human acts on: the table message as shown (a turn ping or a round's results
    beside it is no new state)."""
    tm = table_message(channel)
    return (tm.id if tm else None, len(tm.edits) if tm else 0)


async def play_table(dh, t: TableRun, user, args, deadline: float, poll: float) -> None:
    """One scripted human of the table: act on our turn (after thinking ``--think`` seconds, give
    or take half), the host starts a new game when one ends, until the deadline."""
    uid = str(user.id)
    host = user is t.users[0]
    rng = random.Random(user.id)
    acted_on = None  # state key at which we last acted
    acted_at = 0.0
    while time.perf_counter() < deadline:
        await asyncio.sleep(poll * (0.5 + rng.random()))
        ch = t.channel
        newest = next((m for m in reversed(ch.messages[-RECENT:]) if is_mat(m) or is_final(m)), None)
        final = newest if newest is not None and is_final(newest) else None
        if final is not None and not host:
            continue
        if final is not None and final.id not in t.finished_ids:
            t.finished_ids.add(final.id)
            t.games_finished += 1
            if args.restart and time.perf_counter() < deadline - 5:
                try:
                    await open_table(dh, t, args)
                except Exception as exc:  # noqa: BLE001 - reported, table stops
                    t.note(f"restart: {type(exc).__name__}: {exc}")
                    return
            continue
        tm = table_message(ch)
        if tm is None:
            continue
        m = TO_ACT.search(tm.content or "")
        if not m or m.group(1) != uid:
            continue
        key = state_key(ch)
        if key == acted_on:
            if time.perf_counter() - acted_at > args.stuck_after:
                t.stuck += 1
                t.note(
                    f"table did not move {args.stuck_after:.0f} s after a move (message {tm.id}): "
                    + (tm.content or "").splitlines()[-1][:120]
                )
                acted_on = None  # try again
            continue
        if args.think:
            await asyncio.sleep(args.think * (0.5 + rng.random()))
            tm = table_message(ch)
            if tm is None or state_key(ch) != key:
                continue  # the table moved on while we thought (a timeout): look again
        try:
            made = await move(dh, user, tm)
            if made is not None:
                t.moves += 1
                t.shown.append((made.record.dispatched_at, tm.id, tm.content))
        except Exception as exc:  # noqa: BLE001 - a failed move is reported, play goes on
            t.note(f"move: {type(exc).__name__}: {str(exc)[:200]}")
        acted_on, acted_at = key, time.perf_counter()


# ---------------------------------------------------------------------------
# Measurements
# ---------------------------------------------------------------------------


def interaction_kind(rec) -> str:
    """ "/tripoley start", "click hand", "click do", "select pick", "modal"... for the latency breakdown."""
    if rec.type == 2:
        return "/" + (rec.command_name or "command")
    if rec.type == 5:
        return "modal"
    cid = (rec.data or {}).get("custom_id", "")
    action = cid.split(":")[-1].split(".")[0] if cid else "?"
    return ("select " if (rec.data or {}).get("component_type") == 3 else "click ") + action


def latency_by_kind(records: list) -> str:
    """Median and p99 of the acknowledged interactions, by kind, the most frequent first."""
    kinds: dict[str, list[float]] = {}
    for r in records:
        if r.ack_latency is not None and not r.late:
            kinds.setdefault(interaction_kind(r), []).append(r.ack_latency)
    return "; ".join(
        f"{k} n={len(v)} med {ms(statistics.median(v))} p99 {ms(pct(v, 0.99))}"
        for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1]))
    )


def vm_hwm_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


async def loop_lag(samples: list[float], stop: asyncio.Event, period: float = 0.05) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(period)
        samples.append(time.perf_counter() - t0 - period)


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(-(-q * len(xs) // 1)) - 1))]


def ms(x: float | None) -> str:
    return "n/a" if x is None else f"{x * 1000:.1f} ms"


def max_in_window(times: list[float], width: float = 1.0) -> int:
    """The largest number of events in any window [t, t + width)."""
    times = sorted(times)
    best = 0
    for i, t0 in enumerate(times):
        best = max(best, bisect.bisect_left(times, t0 + width) - i)
    return best


def busiest_window(counted: list, t_play: float) -> None:
    """The second in which the most counted requests arrived: when, and how they came (per 100 ms)."""
    times = sorted(c.at for c in counted)
    start = max(range(len(times)), key=lambda i: bisect.bisect_left(times, times[i] + 1.0) - i)
    t0 = times[start]
    inside = [c for c in counted if t0 <= c.at < t0 + 1.0]
    tenths = Counter(int((c.at - t0) * 10) for c in inside)
    print(
        f"  busiest second        at +{t0 - t_play:.2f} s: {len(inside)} counted"
        f" ({sum(c.status == 429 for c in inside)} answered 429), per 100 ms {[tenths[i] for i in range(10)]}"
    )


def rounds_completed(channel) -> int:
    """Rounds whose mat message was followed by a newer one, plus last rounds of finished games (the
    last round's mat message becomes the game-over message)."""
    done = 0
    pending = False
    for m in channel.messages:
        if m.ephemeral:
            continue
        if is_mat(m):
            done += pending
            pending = True
        elif is_final(m):  # the last round (its mat edited into the results) and the one before it
            done += pending + 1
            pending = False
    return done


def mat_edit_times(channel, t0: float, t1: float) -> list[float]:
    """When the round messages were edited in the channel (paced by the bot to one a second; the
    edits through clicks have buckets of their own and are not counted here)."""
    out = []
    for m in channel.messages:
        if m.ephemeral:
            continue
        for e in m.edits:
            if (
                t0 <= e.monotonic <= t1
                and e.via.startswith("PATCH /channels/")
                and ROUND_HEAD.match((e.before or {}).get("content") or "")
            ):
                out.append(e.monotonic)
    return out


def move_to_shown(dh, tables: list[TableRun], after: float = float("-inf")) -> list[float]:
    """Seconds from each move (its interaction sent; from ``after`` on) to the table message showing
    a later state: the first change of that message's text after the move, or a newer table message."""
    out = []
    for t in tables:
        later = sorted(
            m.created_monotonic
            for m in t.channel.messages
            if not m.ephemeral and (is_mat(m) or is_final(m)) and t.shown and m.created_monotonic > t.shown[0][0]
        )
        for at, message_id, content in t.shown:
            if at < after:
                continue
            msg = dh.state.messages.get(message_id)
            times = [e.monotonic for e in msg.edits if e.monotonic > at and (e.after or {}).get("content") != content]
            newer = later[bisect.bisect_right(later, at)] if bisect.bisect_right(later, at) < len(later) else None
            first = min([x for x in (*times[:1], newer) if x is not None], default=None)
            if first is not None:
                out.append(first - at)
    return out


def bot_side(path: Path, t_play: float, t_end: float, verbose: bool, records: list, phase: str = "play") -> None:
    """The bot's own figures (bench/ackstats.py): gateway receipt → ack request started, in one phase
    (set-up or play; the bot's perf_counter is the same clock as ours on Linux: CLOCK_MONOTONIC)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        print("bot-side ack times      n/a (no ACK_STATS_FILE written)")
        return
    print(f"-- bot side, {phase} phase --")
    rows = [row for row in data.get("samples", []) if t_play <= row[0] <= t_end]
    samples = [(dt / 1000, kind) for at, dt, kind, _ in rows]
    xs = [dt for dt, _ in samples]
    print(
        f"bot-side ack ({phase})  receipt → ack sent: median {ms(statistics.median(xs) if xs else None)}"
        f"   p99 {ms(pct(xs, 0.99))}   max {ms(max(xs) if xs else None)}   (n={len(xs)})"
    )
    kinds: dict[str, list[float]] = {}
    for dt, kind in samples:
        kinds.setdefault(kind, []).append(dt)
    print(
        f"  by kind ({phase})      "
        + "; ".join(
            f"{k} n={len(v)} med {ms(statistics.median(v))} p99 {ms(pct(v, 0.99))}"
            for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1]))
        )
    )
    split_latency(rows, records)
    slow = [(dt, what) for at, dt, what in data.get("slow_steps", []) if t_play <= at <= t_end]
    by_what: dict[str, list[float]] = {}
    for dt, what in slow:
        by_what.setdefault(what, []).append(dt)
    print(
        f"bot loop steps > 10 ms  n={len(slow)}, {sum(dt for dt, _ in slow) / 1000:.1f} s in all"
        f" ({sum(dt for dt, _ in slow) / 10 / max(1e-9, t_end - t_play):.1f}% of the {phase} time)"
    )
    for what, v in sorted(by_what.items(), key=lambda kv: -sum(kv[1]))[: 12 if verbose else 6]:
        print(f"  {len(v):5d} × max {max(v):6.1f} ms  {what[:150]}")
    if verbose:  # the same clock as the fake Discord's arrivals (CLOCK_MONOTONIC): compare with the busiest second
        longest = sorted((s for s in data.get("slow_steps", []) if t_play <= s[0] <= t_end), key=lambda s: -s[1])[:3]
        print("  longest steps at      " + "; ".join(f"+{at - t_play:.2f} s {dt:.0f} ms" for at, dt, _ in longest))
    g = data.get("gc_pauses", {})
    print(
        "  bot GC pauses         "
        + "; ".join(f"gen {k}: n={v.get('n', 0)} max {v.get('max_ms', 0)} ms" for k, v in sorted(g.items()))
    )
    if verbose and data.get("gc_longest"):
        longest = "; ".join(
            f"gen {gen} {took} ms ({cpu} ms CPU, {freed} freed)" for gen, took, cpu, freed in data["gc_longest"]
        )
        print(f"  bot longest GC pauses {longest}")
    heap = data.get("heap")
    if heap and verbose:
        print(f"  bot heap at the end   tracked by generation {heap['by_generation']}, frozen {heap['frozen']}")
        print("    " + ", ".join(f"{name} {n}" for name, n in heap["top_types"]))


def split_latency(rows: list, records: list) -> None:
    """Where the slowest acknowledgements' time went: the driver's dispatch → the bot's receipt
    (the websocket, the bot's event loop before it reads the event), the bot's receipt → its ack
    request, that request → its arrival here (the bot's HTTP client, our event loop)."""
    by_id = {r.id: r for r in records if r.ack_latency is not None and not r.late}
    parts = []
    for at, dt, _, iid in rows:
        rec = by_id.get(iid)
        if rec is None:
            continue
        receipt = at - dt / 1000
        parts.append((rec.ack_latency, receipt - rec.dispatched_at, dt / 1000, rec.acked_at - at))
    if not parts:
        return
    parts.sort()
    slowest = parts[-max(1, len(parts) // 100) :]
    for label, i in (("dispatch → bot receipt", 1), ("bot receipt → ack sent", 2), ("ack sent → arrival", 3)):
        print(
            f"  {label:22s} median {ms(statistics.median(p[i] for p in parts))}"
            f"   mean in the slowest 1% {ms(statistics.fmean(p[i] for p in slowest))}"
        )


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


async def conservation(url: str) -> tuple[bool, str]:
    """The conservation check of every server in the database."""
    db = await Database(database_path(url)).connect()
    try:
        found = await audits(db)
    finally:
        await db.close()
    bad = [g for g, a in found.items() if not a.ok]
    chips = sum(a.wallets + a.tables for a in found.values())
    return not bad, f"{len(found)} servers, {chips} chips; " + (
        "every server balances" if not bad else f"UNBALANCED {bad}"
    )


def guild_in_shard(dh: DiscordHarness, shard: int, count: int, channels: list[str], members) -> None:
    """A server whose shard is ``shard``, holding ``channels`` (ids are timestamps: a server made in
    another shard's millisecond stays empty)."""
    while True:
        guild = dh.state.add_guild(f"bench shard {shard}", channels=(), members=members)
        if (guild.id >> 22) % count == shard:
            break
        time.sleep(0.001)
    for name in channels:
        dh.state.add_channel(guild, name)


async def start_bots(dh: DiscordHarness, env: dict, tmp: str, processes: int) -> list:
    """One bot process, or a cluster of ``processes`` (one shard each), each connected."""
    if processes == 1:
        return [await dh.spawn(TIMED_BOT, env=env, cwd=tmp, commands=["tripoley"], timeout=60)]
    procs = []
    for shard in range(processes):
        shard_env = dict(
            env, SHARD_COUNT=str(processes), SHARD_IDS=str(shard), ACK_STATS_FILE=f"{tmp}/ack-stats-{shard}.json"
        )
        procs.append(await dh.spawn(TIMED_BOT, env=shard_env, cwd=tmp, wait_ready=False))
    for guild in dh.state.guilds.values():
        await dh.wait_for(lambda g=guild: dh.server.session_for(g.id), 60, what=f"the shard of {guild.name}")
    await asyncio.sleep(2.0)  # the per-server command sync after READY
    return procs


async def run(args) -> int:
    n = args.tables
    names = [f"player{i:04d}" for i in range(n * args.humans)]
    channels = [f"table-{i:03d}" for i in range(n)]
    lag: list[float] = []
    stop_lag = asyncio.Event()
    server = None
    if args.postgres or args.processes > 1:
        reason = pgserver.unavailable()
        if reason:
            print(f"cannot run over PostgreSQL: {reason}")
            return 2
        server = pgserver.PostgresServer().start()
    try:
        return await measure(args, n, names, channels, lag, stop_lag, server)
    finally:
        if server is not None:
            server.stop()


async def measure(args, n, names, channels, lag, stop_lag, server) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-bot-load-") as tmp:
        database = server.new_database(migrated=False) if server else f"sqlite:///{tmp}/bench.sqlite3"
        env = {
            "DATABASE_URL": database,
            "AI_PAUSE": str(args.ai_pause),
            "ROUND_PAUSE": str(args.round_pause),
            "TURN_TIMEOUT": "60",
            "CLAIM_TIMEOUT": "2",
            "STARTING_BALANCE": "1000000",
            # The house funds every AI seat (its default bankroll, 10,000, pays for ~31 seats of 320
            # chips per server: most tables would stay lobbies, their Start refused).
            "HOUSE_BANKROLL": "1000000000",
            "LOG_LEVEL": "WARNING",
            # The bot's own receipt → acknowledgement times (bench/ackstats.py), written at shutdown.
            "ACK_STATS_FILE": f"{tmp}/ack-stats.json",
        }
        if args.render_processes is not None:
            env["RENDER_PROCESSES"] = str(args.render_processes)
        if args.rest_rate is not None:
            env["REST_RATE"] = str(args.rest_rate)
        if args.ai_processes is not None:
            env["AI_PROCESSES"] = str(args.ai_processes)
        share = -(-n // args.processes)  # channels per server: one server per process's shard
        async with DiscordHarness(humans=names, channels=channels[:share]) as dh:
            members = tuple(u.user for u in dh.users.values())
            first_shard = (dh.guild.id >> 22) % args.processes
            for k in range(1, args.processes):
                guild_in_shard(
                    dh,
                    (first_shard + k) % args.processes,
                    args.processes,
                    channels[k * share : (k + 1) * share],
                    members,
                )
            pictures = count_pictures(dh)
            lag_task = asyncio.create_task(loop_lag(lag, stop_lag))
            t_spawn = time.perf_counter()
            procs = await start_bots(dh, env, tmp, args.processes)
            pids = [p.pid for p in procs]
            print(
                f"bot pid(s) {pids} ready in {time.perf_counter() - t_spawn:.1f} s over {database.split(':')[0]};"
                f" opening {n} tables…",
                flush=True,
            )
            h = args.humans
            tables = [
                TableRun(i, dh.channel(channels[i]), [dh.user(name) for name in names[i * h : (i + 1) * h]])
                for i in range(n)
            ]

            # Set-up: bounded concurrency, bounded time.
            sem = asyncio.Semaphore(args.open_concurrency)
            setup_failed: list[str] = []

            async def opener(t: TableRun) -> None:
                async with sem:
                    try:
                        await open_table(dh, t, args)
                    except Exception as exc:  # noqa: BLE001
                        setup_failed.append(f"table {t.index}: {type(exc).__name__}: {str(exc)[:200]}")

            t_open = time.perf_counter()
            try:
                await asyncio.wait_for(asyncio.gather(*(opener(t) for t in tables)), args.setup_timeout)
            except TimeoutError:
                setup_failed.append(f"set-up did not finish in {args.setup_timeout:.0f} s")
            opened = [t for t in tables if t.games_started]
            print(f"{len(opened)}/{n} tables started in {time.perf_counter() - t_open:.1f} s", flush=True)
            for line in setup_failed[:5]:
                print("  set-up problem:", line)
            if not opened:
                for p in procs:
                    print(p.output()[-3000:])
                return 2

            # Play. This process (fake Discord + scripted users) keeps millions of objects (every
            # message and its edits): with the default GC thresholds its full collections paused the
            # loop 100-200 ms, counted in the measured ack times. Freeze what the set-up made and
            # collect far less often (the bench runs for minutes; memory is not what it measures).
            gc.collect()
            gc.freeze()
            gc.set_threshold(50_000, 100, 1_000)
            gc_pauses: list[float] = []
            gc_began = [0.0]

            def on_gc(phase: str, info: dict) -> None:
                if phase == "start":
                    gc_began[0] = time.perf_counter()
                else:
                    gc_pauses.append(time.perf_counter() - gc_began[0])

            gc.callbacks.append(on_gc)
            pictures.update(uploads=0, bytes=0, repeats=0)  # the play phase only
            n_inter0 = len(dh.interactions())
            n_rest0 = len(dh.state.rest_log)
            rounds0 = sum(rounds_completed(t.channel) for t in tables)
            cpu0 = sum_over(cpu_seconds, pids)
            self0 = resource.getrusage(resource.RUSAGE_SELF)
            lag0 = len(lag)
            t_play = time.perf_counter()
            deadline = t_play + args.seconds
            peak_rss = max_over(vm_hwm_mb, pids)

            async def rss_sampler():
                nonlocal peak_rss
                while time.perf_counter() < deadline:
                    await asyncio.sleep(1.0)
                    v = max_over(vm_hwm_mb, pids)
                    if v is not None:
                        peak_rss = v

            limits0 = dict(dh.server.limit_counts)
            players = [
                asyncio.create_task(play_table(dh, t, user, args, deadline, args.poll))
                for t in opened
                for user in t.users
            ]
            sampler = asyncio.create_task(rss_sampler())
            await asyncio.wait(players + [sampler], timeout=args.seconds + 30)
            for task in players + [sampler]:
                task.cancel()
            await asyncio.gather(*players, sampler, return_exceptions=True)
            t_end = time.perf_counter()
            play_secs = t_end - t_play
            cpu1 = sum_over(cpu_seconds, pids)
            self1 = resource.getrusage(resource.RUSAGE_SELF)
            v = max_over(vm_hwm_mb, pids)
            if v is not None:
                peak_rss = v
            alive = all(p.returncode is None for p in procs)
            gc.callbacks.remove(on_gc)
            stop_lag.set()
            await lag_task

            # Figures.
            stats = dh.ack_stats()
            play_inter = dh.interactions()[n_inter0:]
            play_acks = [r.ack_latency for r in play_inter if r.ack_latency is not None and not r.late]
            by_type = Counter(r.type for r in play_inter)
            late = sum(1 for r in play_inter if r.late)
            unacked = sum(1 for r in play_inter if r.response_type is None and not r.late)
            rest_play = dh.state.rest_log[n_rest0:]
            rest_total = len(rest_play)
            rest_routes = Counter(c.route for c in rest_play)
            rest_cb = sum(v for k, v in rest_routes.items() if "/callback" in k)
            rounds = sum(rounds_completed(t.channel) for t in tables) - rounds0
            games = sum(t.games_finished for t in tables)
            moves = sum(t.moves for t in tables)
            stuck = sum(t.stuck for t in tables)
            per_ch_rate, per_ch_max = [], []
            for t in opened:
                times = mat_edit_times(t.channel, t_play, t_end)
                per_ch_rate.append(len(times) / play_secs)
                per_ch_max.append(max_in_window(times))
            mean_rate = statistics.fmean(per_ch_rate) if per_ch_rate else 0.0
            max_rate = max(per_ch_rate) if per_ch_rate else 0.0
            max_window = max(per_ch_max) if per_ch_max else 0
            over_1 = sum(1 for x in per_ch_max if x > 1)
            play_lag = lag[lag0:]
            p99_all = stats.get("p99")

            print()
            print(
                f"=== bench_bot_load: {n} tables, {args.seconds:.0f} s of play, preset {args.preset}, "
                f"{args.humans} human(s) + {args.ai} {args.ai_level} AI per table"
                f"{f' (thinking ~{args.think:g} s)' if args.think else ' (full speed)'}, rounds {args.rounds}, AI_PAUSE {args.ai_pause}, "
                f"ROUND_PAUSE {args.round_pause}, {args.processes} process(es) over "
                f"{'PostgreSQL' if server else 'SQLite'} ==="
            )
            playing = sum(1 for t in opened if any(is_mat(m) or is_final(m) for m in t.channel.messages))
            print(
                f"tables started          {len(opened)}/{n}   (set-up problems: {len(setup_failed)};"
                f" games dealt at {playing})"
            )
            print(f"play time               {play_secs:.1f} s; bot alive at the end: {alive}")
            print(
                f"rounds completed        {rounds}   ({rounds / play_secs * 60:.0f}/min; games finished {games}; "
                f"human moves {moves})"
            )
            print(
                f"interactions            {stats['count']} acked in all, {len(play_inter)} in play "
                f"({', '.join(f'type {k}: {v}' for k, v in sorted(by_type.items()))}); late {stats['late']}, "
                f"unacked {stats['unacked']}"
            )
            # dh.ack_stats() leaves out late acks (> 3 s: "This interaction failed"): see the play line.
            print(
                f"ack latency (all)       median {ms(stats.get('median'))}   p99 {ms(p99_all)}   max {ms(stats.get('max'))}"
                f"   target p99 ≤ {TARGET_P99 * 1000:.0f} ms"
            )
            with_late = [r.ack_latency for r in play_inter if r.ack_latency is not None]
            print(
                f"ack latency (play)      median {ms(statistics.median(play_acks) if play_acks else None)}"
                f"   p99 {ms(pct(play_acks, 0.99))}   late {late}, unacked {unacked};"
                f"  p99 counting late acks {ms(pct(with_late, 0.99))}"
            )
            setup_inter = dh.interactions()[:n_inter0]
            setup_acks = [r.ack_latency for r in setup_inter if r.ack_latency is not None and not r.late]
            print(
                f"ack latency (set-up)    median {ms(statistics.median(setup_acks) if setup_acks else None)}"
                f"   p99 {ms(pct(setup_acks, 0.99))}   max {ms(max(setup_acks) if setup_acks else None)}"
            )
            print("  by kind (set-up)      " + latency_by_kind(setup_inter))
            print("  by kind (play)        " + latency_by_kind(play_inter))
            print(
                f"REST calls per round    {rest_total / rounds:.1f}"
                if rounds
                else "REST calls per round    n/a (no round completed)",
                f"  ({rest_total} calls in play, of which {rest_cb} interaction callbacks)",
            )
            top = ", ".join(f"{k} {v}" for k, v in rest_routes.most_common(5))
            print(f"  top routes            {top}")
            counted = [c for c in rest_play if c.counted]
            exempt = rest_total - len(counted)
            per_decision = len(counted) / moves if moves else None
            print(
                f"counted requests        {len(counted)} ({len(counted) / play_secs:.1f}/s, all processes; max in any"
                f" 1 s window {max_in_window([c.at for c in counted])}, token budget {TOKEN_BUDGET}/s);"
                f" per human decision {per_decision:.2f}"
                + (f", per round {len(counted) / rounds:.1f}" if rounds else "")
                if per_decision is not None
                else "counted requests        n/a (no human decision)",
                f"  target ≤ {TARGET_COUNTED_PER_DECISION:g} per decision",
            )
            top_counted = ", ".join(f"{k} {v}" for k, v in Counter(c.route for c in counted).most_common(4))
            print(f"  counted routes        {top_counted}")
            if args.verbose and counted:
                busiest_window(counted, t_play)
            if moves:
                print(
                    f"exempt requests         {exempt} (interaction endpoints: {rest_cb} callbacks, the rest follow-ups"
                    f" and @original edits); per human decision {exempt / moves:.2f}"
                    + (f", per round {exempt / rounds:.1f}" if rounds else "")
                )
            limits = {k: dh.server.limit_counts[k] - limits0.get(k, 0) for k in ("global_429", "route_429")}
            print(
                f"429s                    global {limits['global_429']}, per route {limits['route_429']} in play;"
                f" whole run: global {dh.server.limit_counts['global_429']}, per route {dh.server.limit_counts['route_429']}"
            )
            to_shown = move_to_shown(dh, opened)
            print(
                f"move → table message    p50 {ms(pct(to_shown, 0.5))}   p95 {ms(pct(to_shown, 0.95))}   (n={len(to_shown)})"
                f"   target p95 ≤ {TARGET_SHOWN_P95 * 1000:.0f} ms"
            )
            if args.verbose:  # the tables' first rounds, all dealt within the set-up, are behind us
                settled = move_to_shown(dh, opened, after=t_play + 20)
                print(
                    f"  from 20 s into play   p50 {ms(pct(settled, 0.5))}   p95 {ms(pct(settled, 0.95))}   (n={len(settled)})"
                )
            if rounds:
                per_round = pictures["bytes"] / rounds
                print(
                    f"pictures uploaded       {pictures['uploads'] / rounds:.1f} per round, {per_round / 1000:.0f} KB per round"
                    f" ({per_round * 5 / 1e6:.2f} MB per 5 rounds; target ≤ {TARGET_BYTES_5_ROUNDS / 1e6:.1f} MB);"
                    f" the same picture again: {pictures['repeats']}"
                )
            print(
                f"mat edits /s/channel    mean {mean_rate:.2f}  (busiest channel {max_rate:.2f});"
                f"  max in any 1 s window {max_window}  ({over_1} channels > 1)   target ≤ {TARGET_EDITS:.0f}/s"
            )
            print(
                f"bot peak RSS (VmHWM)    {peak_rss:.0f} MB (the largest process)   target ≤ {TARGET_RSS_MB:.0f} MB"
                if peak_rss
                else "bot peak RSS (VmHWM)    n/a"
            )
            if cpu0 is not None and cpu1 is not None:
                print(
                    f"bot CPU                 {(cpu1 - cpu0) / play_secs * 100:.0f}% of one core during play"
                    f" (all processes)"
                )
            drv = (self1.ru_utime + self1.ru_stime - self0.ru_utime - self0.ru_stime) / play_secs * 100
            print(
                f"driver (fake Discord)   {drv:.0f}% of one core; loop lag p99 {ms(pct(play_lag, 0.99))}, "
                f"max {ms(max(play_lag) if play_lag else None)}"
            )
            print(
                f"driver GC               {len(gc_pauses)} collections, max pause {ms(max(gc_pauses) if gc_pauses else None)}"
            )
            print(f"scripted-human problems stuck {stuck}")
            shown = 0
            for t in tables:
                for e in t.errors:
                    if shown < 8:
                        print(f"  table {t.index}: {e}")
                        shown += 1
            for p in procs:
                if p.returncode is not None:
                    print("bot died:", p.describe_death())

            # Targets.
            ok_p99 = p99_all is not None and p99_all <= TARGET_P99
            ok_edits = max_window <= TARGET_EDITS
            ok_rss = peak_rss is not None and peak_rss <= TARGET_RSS_MB
            ok_bytes = (
                bool(rounds) and pictures["bytes"] / rounds * 5 <= TARGET_BYTES_5_ROUNDS and not pictures["repeats"]
            )
            ok_counted = per_decision is not None and per_decision <= TARGET_COUNTED_PER_DECISION
            ok_shown = bool(to_shown) and pct(to_shown, 0.95) <= TARGET_SHOWN_P95
            ok_limits = not dh.server.limit_counts["global_429"] and not dh.server.limit_counts["route_429"]

            def mark(ok: bool) -> str:
                return "OK" if ok else "MISSED"

            print(
                f"targets                 p99 {mark(ok_p99)} · mat edits {mark(ok_edits)} · memory {mark(ok_rss)}"
                f" · picture bytes {mark(ok_bytes)} · counted/decision {mark(ok_counted)}"
                f" · move shown p95 {mark(ok_shown)} · Discord's limits {mark(ok_limits)}"
            )
            if not ok_limits:
                print(f"FAIL: the bot broke Discord's rate limits ({dict(dh.server.limit_counts)})")
            if args.verbose:
                ch = tables[0].channel
                print(f"-- public messages of #{ch.name} (first line, edits, created at +s) --")
                for m in ch.messages:
                    if not m.ephemeral:
                        head = (m.content or "").splitlines()[0][:70] if m.content else "(no content)"
                        last = (m.content or "").splitlines()[-1][:60] if m.content else ""
                        print(f"  {m.id} {m.created_monotonic - t_play:+7.1f} edits {len(m.edits):3d}  {head} | {last}")
            if dh.server.errors:
                print("fake Discord errors:", dh.server.errors[:3])
            # SIGTERM: the bot saves every table and sends what is pending (the stats file last);
            # SIGKILL only if that takes longer than an operator's stop would wait.
            t_stop = time.monotonic()
            for p in procs:
                await p.stop(timeout=STOP_TIMEOUT)
                if p.returncode is None and p.proc is not None:
                    p.proc.kill()
            print(f"bot shutdown            {time.monotonic() - t_stop:.1f} s (SIGTERM to exit, all processes)")
            for p in procs:
                stats_file = Path(p.env["ACK_STATS_FILE"])
                bot_side(stats_file, t_open, t_play, args.verbose, dh.interactions()[:n_inter0], "set-up")
                bot_side(stats_file, t_play, t_end, args.verbose, play_inter)
            balanced, books = await conservation(database)
            print(f"conservation            {books}")
        met = ok_p99 and ok_edits and ok_rss and ok_bytes and ok_counted and ok_shown and ok_limits
        return 0 if (met and alive and balanced) else 1


def sum_over(measure, pids: list[int]) -> float | None:
    values = [measure(pid) for pid in pids]
    return None if any(v is None for v in values) else sum(values)


def max_over(measure, pids: list[int]) -> float | None:
    values = [v for v in (measure(pid) for pid in pids) if v is not None]
    return max(values) if values else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="concurrent tables, one channel and one human each (200)")
    p.add_argument("--seconds", type=float, default=60.0, help="seconds of play after the set-up (60)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per game (3)")
    p.add_argument("--ai", type=int, default=3, help="AI seats per table (3)")
    p.add_argument("--humans", type=int, default=1, help="scripted humans per table (1)")
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="human pace: mean seconds a scripted human thinks before each decision, give or take half (0: full speed)",
    )
    p.add_argument("--preset", default="tripoley")
    p.add_argument("--ai-pause", type=float, default=0.2, help="AI_PAUSE for the bot (0.2)")
    p.add_argument("--round-pause", type=float, default=0.5, help="ROUND_PAUSE for the bot (0.5)")
    p.add_argument("--render-processes", type=int, default=None, help="RENDER_PROCESSES for the bot (its default)")
    p.add_argument(
        "--rest-rate",
        type=float,
        default=None,
        help="REST_RATE for the bot (its default, under Discord's global limit)",
    )
    p.add_argument("--ai-level", choices=tuple(ADD_AI), default="normal", help="level of the AI seats (normal)")
    p.add_argument("--ai-processes", type=int, default=None, help="AI_PROCESSES for the bot (its default)")
    p.add_argument("--poll", type=float, default=0.25, help="mean seconds between a human's looks at the table (0.25)")
    p.add_argument("--open-concurrency", type=int, default=10, help="tables being opened at once (10)")
    p.add_argument("--setup-timeout", type=float, default=240.0, help="limit for opening all tables (240 s)")
    p.add_argument(
        "--stuck-after", type=float, default=10.0, help="report a table that does not move this long after a move"
    )
    p.add_argument("--no-restart", dest="restart", action="store_false", help="do not start a new game when one ends")
    p.add_argument("--verbose", action="store_true", help="print the first table's public messages at the end")
    p.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database instead of SQLite")
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, over PostgreSQL (1; more implies --postgres)",
    )
    args = p.parse_args(argv)
    if not (1 <= args.tables <= 1000 and 1 <= args.seconds <= 1800 and 0 <= args.ai <= 8 and 1 <= args.humans <= 8):
        p.error("--tables 1..1000, --seconds 1..1800, --ai 0..8, --humans 1..8")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
