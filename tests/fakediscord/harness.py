"""User-side driver of the fake Discord: start the server, connect a bot (in-process or as a
subprocess), act as human users (slash commands, clicks, selects, modals) and read what they see.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from . import state as S
from .server import EXPECT_VIOLATION_HEADER, INTERACTION_ACK_WINDOW, FakeDiscordServer, ViolationExpectation
from .state import Attachment, Channel, FakeState, InteractionRecord, Message, User, Violation

REPO_ROOT = Path(__file__).resolve().parents[2]
# Every wait is for a condition, so a generous bound costs nothing when things go right, and a
# machine busy with other work (CI beside a CPU-heavy job) only makes a test slower, never red.
# The bounds the tests name are for a quiet machine; FAKEDISCORD_PATIENCE scales them all.
PATIENCE = float(os.environ.get("FAKEDISCORD_PATIENCE", "4"))

UserRef = Any  # FakeUser | User | int | str (username)
ChannelRef = Any  # Channel | int | str (channel name)
MessageRef = Any  # Message | int | discord.Message


class BotDied(AssertionError):
    """The bot under test stopped while the test still expected it to run."""


# ---------------------------------------------------------------------------
# Users and interaction handles
# ---------------------------------------------------------------------------


class FakeUser:
    """A human Discord user, with shortcuts to act through the harness."""

    def __init__(self, harness: DiscordHarness, user: User) -> None:
        self.harness = harness
        self.user = user

    id = property(lambda self: self.user.id)
    name = property(lambda self: self.user.username)
    username = property(lambda self: self.user.username)
    mention = property(lambda self: self.user.mention)

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.user.dms_open = value

    async def run_command(self, channel: ChannelRef, name: str, /, **options: Any) -> InteractionHandle:
        return await self.harness.run_command(self, channel, name, **options)

    async def click(
        self, message: MessageRef, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionHandle:
        return await self.harness.click(self, message, label=label, custom_id=custom_id)

    async def select(self, message: MessageRef, custom_id: str, values: Sequence[Any]) -> InteractionHandle:
        return await self.harness.select(self, message, custom_id, values)

    async def submit_modal(self, modal: Any, values: dict[str, Any]) -> InteractionHandle:
        return await self.harness.submit_modal(self, modal, values)

    async def say(self, channel: ChannelRef, content: str) -> Message:
        return await self.harness.say(self, channel, content)

    def ephemeral_replies(self) -> list[Message]:
        return self.harness.ephemeral_replies(self)

    def dms(self) -> list[Message]:
        return self.harness.dms(self)

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


class InteractionHandle:
    """An interaction sent to the bot. Await `response()` for the ack, `message()` for the result."""

    def __init__(self, harness: DiscordHarness, record: InteractionRecord) -> None:
        self.harness = harness
        self.record = record

    id = property(lambda self: self.record.id)
    token = property(lambda self: self.record.token)
    type = property(lambda self: self.record.type)
    user = property(lambda self: self.record.user)
    channel = property(lambda self: self.record.channel)
    response_type = property(lambda self: self.record.response_type)
    response_data = property(lambda self: self.record.response_data)
    ack_latency = property(lambda self: self.record.ack_latency)
    modal = property(lambda self: self.record.modal)
    original = property(lambda self: self.record.original_message)
    followups = property(lambda self: list(self.record.followups))
    autocomplete_choices = property(lambda self: self.record.autocomplete_choices)

    @property
    def acked(self) -> bool:
        return self.record.response_type is not None

    @property
    def ephemeral(self) -> bool:
        m = self.record.original_message
        return bool(m is not None and m.ephemeral and m is not self.record.source_message)

    async def response(self, timeout: float = INTERACTION_ACK_WINDOW + 2) -> InteractionHandle:
        """Wait for the callback POST; fail if it is late (> 3 s) or missing."""
        rec = self.record
        hint = ""
        if rec.type == 3:
            hint = (
                " (discord.py drops a click whose message id is not the one the view was sent on,"
                " unless the view is persistent or a DynamicItem)"
            )
        await self.harness.wait_for(
            lambda: rec.response_type is not None or rec.late, timeout, what=f"the bot to acknowledge {rec!r}{hint}"
        )
        if rec.late:
            raise AssertionError(
                f"{rec!r} was acknowledged after {rec.ack_latency:.3f}s (> {self.harness.server.ack_window}s)"
            )
        return self

    async def message(self, timeout: float = 5.0) -> Message:
        """The message the user sees as the result (waits past a 'thinking' defer)."""
        await self.response(timeout)
        rec = self.record
        if rec.response_type == 9:
            raise AssertionError("the bot answered with a modal, not a message (see .modal)")
        if rec.response_type == 8:
            raise AssertionError("autocomplete interactions do not produce messages")
        if rec.response_type in (4, 7):
            return rec.original_message  # type: ignore[return-value]
        if rec.response_type == 5:
            return await self.harness.wait_for(
                lambda: rec.original_message if rec.original_message and not rec.original_message.loading else None,
                timeout,
                what=f"the deferred answer to {rec!r}",
            )
        # 6: deferred update: wait for the click's first followup (its answer: later ones may be
        # anything the bot sends through the interaction) or an edit of the clicked message made
        # through this interaction (or, for a private message, by anyone: only its own clicks can).
        acked = rec.acked_at or 0.0
        src = rec.source_message

        def result():
            if rec.followups:
                return rec.followups[0]
            if src is not None and any(e.monotonic >= acked and (e.by == rec.id or src.ephemeral) for e in src.edits):
                return src
            return None

        return await self.harness.wait_for(result, timeout, what=f"the update after {rec!r}")

    async def followup(self, n: int = 1, timeout: float = 5.0) -> Message:
        """Wait for the n-th followup message (1-based)."""
        rec = self.record
        await self.harness.wait_for(lambda: len(rec.followups) >= n, timeout, what=f"followup #{n} of {rec!r}")
        return rec.followups[n - 1]

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record!r}>"


# ---------------------------------------------------------------------------
# Bots under test
# ---------------------------------------------------------------------------

_patch_depth = 0
_patch_saved: tuple[Any, Any] | None = None


def _patch_discord(api_base: str, gateway_url: str) -> None:
    """Point discord.py at the fake server (see discord-facts.md)."""
    global _patch_depth, _patch_saved
    import discord.gateway
    import discord.http
    import yarl

    if _patch_depth == 0:
        _patch_saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    _patch_depth += 1
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def _unpatch_discord() -> None:
    global _patch_depth, _patch_saved
    import discord.gateway
    import discord.http

    _patch_depth = max(0, _patch_depth - 1)
    if _patch_depth == 0 and _patch_saved is not None:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _patch_saved
        _patch_saved = None


class BotRun:
    """Common part of an in-process or subprocess bot: the death hook."""

    kind = "bot"

    def __init__(self, harness: DiscordHarness) -> None:
        self.harness = harness
        self.died = asyncio.Event()  # set when the bot stops for any reason
        self.stopping = False  # True when the harness itself stops it
        self.exit_info: Any = None  # exception (in-process) or return code (subprocess)
        self.started_at = time.perf_counter()

    @property
    def alive(self) -> bool:
        return not self.died.is_set()

    @property
    def crashed(self) -> bool:
        """Died without being asked to."""
        return self.died.is_set() and not self.stopping

    def _mark_dead(self, info: Any) -> None:
        if self.died.is_set():
            return
        self.exit_info = info
        self.died.set()
        self.harness._on_bot_died(self)

    def check(self) -> None:
        if self.crashed:
            raise BotDied(f"the {self.kind} died: {self.describe_death()}")

    def describe_death(self) -> str:
        return repr(self.exit_info)

    async def wait_died(self, timeout: float = 10.0) -> Any:
        await asyncio.wait_for(self.died.wait(), timeout)
        return self.exit_info


class InProcessBot(BotRun):
    """A discord.Client / commands.Bot running in the test's event loop against the fake server."""

    kind = "in-process bot"

    def __init__(self, harness: DiscordHarness, client: Any, token: str | None = None) -> None:
        super().__init__(harness)
        self.client = client
        self.token = token or harness.state.token
        self.task: asyncio.Task | None = None
        self._patched = False

    async def start(self, *, timeout: float = 10.0, wait_ready: bool = True) -> InProcessBot:
        _patch_discord(self.harness.api_base, self.harness.gateway_url)
        self._patched = True
        self.task = asyncio.get_running_loop().create_task(self.client.start(self.token), name="fakediscord-bot")
        self.task.add_done_callback(self._task_done)
        if wait_ready:
            ready = asyncio.ensure_future(self.client.wait_until_ready())
            try:
                done, _ = await asyncio.wait({ready, self.task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not ready.done():
                    ready.cancel()
                    await asyncio.gather(ready, return_exceptions=True)
            if self.task.done():
                exc = self.task.exception() if not self.task.cancelled() else None
                raise BotDied(f"the bot stopped during start-up: {exc!r}") from exc
            if not done:
                raise TimeoutError(f"the bot was not ready after {timeout}s")
        return self

    def _task_done(self, task: asyncio.Task) -> None:
        info = None if task.cancelled() else task.exception()
        if info is None and self.client.is_closed():
            self.stopping = True  # client.close() was called: a deliberate stop, not a crash
        self._mark_dead(info)

    async def stop(self, timeout: float = 5.0) -> None:
        self.stopping = True
        try:
            if not self.client.is_closed():
                await asyncio.wait_for(self.client.close(), timeout)
            if self.task is not None and not self.task.done():
                try:
                    await asyncio.wait_for(asyncio.shield(self.task), timeout)
                except TimeoutError:
                    self.task.cancel()
                    await asyncio.gather(self.task, return_exceptions=True)
            if self.task is not None and self.task.done() and not self.task.cancelled():
                self.task.exception()  # retrieved: no "exception never retrieved" noise
        finally:
            if self._patched:
                self._patched = False
                _unpatch_discord()


class BotProcess(BotRun):
    """A bot started as a subprocess (e.g. `python -m bot`) with the DISCORD_* env variables."""

    kind = "bot process"

    def __init__(self, harness: DiscordHarness, cmd: Sequence[str], env: dict[str, str], cwd: str) -> None:
        super().__init__(harness)
        self.cmd = list(cmd)
        self.env = env
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None
        self._watch: asyncio.Task | None = None
        fd, self.log_path = tempfile.mkstemp(prefix="fakediscord-bot-", suffix=".log")
        os.close(fd)
        self._output: str | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc else None

    async def start(self) -> BotProcess:
        self.started_at = time.perf_counter()
        with open(self.log_path, "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.cmd, env=self.env, cwd=self.cwd, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log
            )
        self._watch = asyncio.get_running_loop().create_task(self._watcher())
        return self

    async def _watcher(self) -> None:
        assert self.proc is not None
        rc = await self.proc.wait()
        self._mark_dead(rc)

    def describe_death(self) -> str:
        tail = self.output()[-2000:]
        return f"exit code {self.exit_info}; output tail:\n{tail}"

    def output(self) -> str:
        if self._output is not None:
            return self._output
        try:
            return Path(self.log_path).read_text(errors="replace")
        except OSError:
            return ""

    async def wait_ready(self, *, commands: Iterable[str] = (), timeout: float = 20.0) -> BotProcess:
        """Wait until the process identified on the gateway (after it started) and registered `commands`."""
        server = self.harness.server
        names = list(commands)

        def ready() -> bool:
            self.check()
            sess = server.current_session()
            if sess is None or sess.identified_at < self.started_at:
                return False
            have = {c["name"] for c, _ in self.harness.state.commands_for(self.harness.guild.id)}
            return all(n in have for n in names)

        await self.harness.wait_for(ready, timeout, what="the bot process to connect")
        return self

    async def stop(self, timeout: float = 5.0) -> None:
        self.stopping = True
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._watch is not None:
            await asyncio.gather(self._watch, return_exceptions=True)
        self._output = self.output()
        try:
            os.unlink(self.log_path)
        except OSError:
            pass


# ---------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------


class DiscordHarness:
    """A fake Discord on 127.0.0.1 plus helpers to act as its human users.

    >>> async with DiscordHarness() as dh:
    ...     await dh.connect(bot)                 # in-process discord.py bot
    ...     h = await dh.run_command("alice", "general", "demo start", rounds=3)
    ...     msg = await h.message()
    """

    def __init__(
        self,
        *,
        humans: Sequence[str] = ("alice", "bob", "carol", "dave"),
        channels: Sequence[str] = ("general", "tripoley"),
        guild_name: str = "Tripoley Test",
        extra_guilds: Sequence[str] = (),
        bot_name: str = "TripoleyBot",
        token: str = "fake",
        realistic_rate_limits: bool = True,
        route_limit_scale: int = 1,
        ack_window: float = INTERACTION_ACK_WINDOW,
    ) -> None:
        self.state = FakeState(bot_name=bot_name, token=token)
        self.server = FakeDiscordServer(self.state, realistic_rate_limits=realistic_rate_limits, ack_window=ack_window)
        # Tests of fast games may allow more per route (the global limit stays Discord's).
        self.server.rate_limit_windows = {
            route: (count * route_limit_scale, window)
            for route, (count, window) in self.server.rate_limit_windows.items()
        }
        self.faults = self.server.faults
        self.users: dict[str, FakeUser] = {}
        for name in humans:
            self.users[name] = FakeUser(self, self.state.add_user(name))
        self.guild = self.state.add_guild(
            guild_name, channels=tuple(channels), members=tuple(u.user for u in self.users.values())
        )
        for gname in extra_guilds:
            self.state.add_guild(gname, members=tuple(u.user for u in self.users.values()))
        self.bots: list[BotRun] = []
        self.bot_died = asyncio.Event()  # set when any bot dies on its own
        self._death_hooks: list[Callable[[BotRun], Any]] = []
        self._started = False

    # -- lifecycle ----------------------------------------------------------------
    async def start(self) -> DiscordHarness:
        await self.server.start()
        self._started = True
        return self

    async def close(self) -> None:
        for b in reversed(self.bots):
            try:
                await b.stop()
            except Exception:
                pass
        self.bots.clear()
        if self._started:
            await self.server.close()
            self._started = False

    async def __aenter__(self) -> DiscordHarness:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- addresses ----------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self.server.port is not None, "start() the harness first"
        return self.server.port

    @property
    def api_base(self) -> str:
        return self.server.api_base

    @property
    def gateway_url(self) -> str:
        return self.server.gateway_url

    def bot_env(self, **extra: str) -> dict[str, str]:
        """Environment for a bot subprocess: DISCORD_API_BASE, DISCORD_GATEWAY_URL, DISCORD_TOKEN."""
        env = dict(os.environ)
        env.update(
            DISCORD_API_BASE=self.api_base,
            DISCORD_GATEWAY_URL=self.gateway_url,
            DISCORD_TOKEN=self.state.token,
            PYTHONUNBUFFERED="1",
            # the repo's packages (bot, tests.fakediscord...) import from any working directory
            PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p),
        )
        env.update(extra)
        return env

    # -- bots ------------------------------------------------------------------------
    async def connect(
        self, client: Any, *, timeout: float = 10.0, wait_ready: bool = True, token: str | None = None
    ) -> InProcessBot:
        """Start a discord.py Client/Bot (created by the test) against this server; wait for on_ready.

        Patches discord.http.Route.BASE and DiscordWebSocket.DEFAULT_GATEWAY while it runs.
        Set guild_ready_timeout small (e.g. 0.01) on the client to make on_ready fast.
        """
        run = InProcessBot(self, client, token)
        self.bots.append(run)
        await run.start(timeout=timeout, wait_ready=wait_ready)
        return run

    async def spawn(
        self,
        cmd: Sequence[str] | None = None,
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        wait_ready: bool = True,
        commands: Iterable[str] = (),
        timeout: float = 20.0,
    ) -> BotProcess:
        """Start the bot as a subprocess (default `python -m bot` in the repo root) and wait for it."""
        cmd = list(cmd) if cmd else [sys.executable, "-m", "bot"]
        run = BotProcess(self, cmd, self.bot_env(**(env or {})), str(cwd or REPO_ROOT))
        self.bots.append(run)
        await run.start()
        if wait_ready:
            await run.wait_ready(commands=commands, timeout=timeout)
        return run

    def on_bot_death(self, callback: Callable[[BotRun], Any]) -> None:
        """Call `callback(bot_run)` when a bot dies without the harness stopping it."""
        self._death_hooks.append(callback)

    def _on_bot_died(self, run: BotRun) -> None:
        if run.stopping:
            return
        self.bot_died.set()
        for cb in self._death_hooks:
            res = cb(run)
            if inspect.isawaitable(res):
                asyncio.ensure_future(res)
        self.state.touch()

    def check_bots(self) -> None:
        for b in self.bots:
            b.check()

    # -- world -------------------------------------------------------------------------
    def user(self, ref: UserRef) -> FakeUser:
        u = self.state.user(ref)
        fu = self.users.get(u.username)
        if fu is None or fu.user is not u:
            fu = FakeUser(self, u)
        return fu

    def add_user(self, name: str, *, dms_open: bool = True, member: bool = True) -> FakeUser:
        u = self.state.add_user(name, dms_open=dms_open)
        if member:
            self.state.add_member(self.guild, u)
        fu = self.users[name] = FakeUser(self, u)
        return fu

    def channel(self, ref: ChannelRef) -> Channel:
        return self.state.channel(ref)

    @property
    def bot_user(self) -> User:
        return self.state.bot

    def commands(self, guild: Any = None) -> list[dict]:
        gid = self.state.guild(guild).id
        return [c for c, _ in self.state.commands_for(gid)]

    # -- waiting -----------------------------------------------------------------------
    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, *, what: str = "condition") -> Any:
        """Re-evaluate `predicate` (sync or async) on every state change until truthy; return its value
        (`timeout`, for a quiet machine, is scaled by :data:`PATIENCE`)."""
        deadline = time.perf_counter() + timeout * PATIENCE
        while True:
            self.check_bots()
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout * PATIENCE:g}s waiting for {what}")
            await self.state.wait_changed(min(remaining, 0.05))

    async def wait_for_message(
        self,
        channel: ChannelRef,
        predicate: Callable[[Message], bool] = lambda m: True,
        *,
        viewer: UserRef | None = None,
        after: Message | None = None,
        timeout: float = 5.0,
    ) -> Message:
        ch = self.channel(channel)
        start_id = after.id if after is not None else 0

        def find():
            for m in reversed(self.channel_messages(ch, viewer=viewer)):
                if m.id > start_id and predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout, what=f"a message in {ch!r}")

    # -- reading -----------------------------------------------------------------------
    def channel_messages(self, channel: ChannelRef, *, viewer: UserRef | None = None) -> list[Message]:
        """Messages in a channel, oldest first, as `viewer` sees them (no viewer: public ones only)."""
        ch = self.channel(channel)
        v = self.state.user(viewer) if viewer is not None else None
        return [m for m in ch.messages if m.visible_for(v)]

    def last_message(self, channel: ChannelRef, *, viewer: UserRef | None = None) -> Message | None:
        msgs = self.channel_messages(channel, viewer=viewer)
        return msgs[-1] if msgs else None

    def ephemeral_replies(self, user: UserRef) -> list[Message]:
        u = self.state.user(user)
        return [m for m in self.state.messages.values() if m.visible_to == u.id and not m.deleted]

    def dms(self, user: UserRef) -> list[Message]:
        u = self.state.user(user)
        ch = self.state.dm_channels.get(u.id)
        return [m for m in ch.messages if not m.deleted] if ch else []

    def attachments(self, message: MessageRef) -> list[Attachment]:
        return list(self.state.message(message).attachments)

    def message(self, ref: MessageRef) -> Message:
        return self.state.message(ref)

    def rest_calls(self, pattern: str = "*") -> list[S.RestCall]:
        import fnmatch

        if " " not in pattern and pattern != "*":
            pattern = "* " + pattern
        return [
            c
            for c in self.state.rest_log
            if pattern == "*"
            or fnmatch.fnmatchcase(c.route, pattern)
            or fnmatch.fnmatchcase(f"{c.method} {c.path}", pattern)
        ]

    # -- Discord's contract ------------------------------------------------------------
    @property
    def violations(self) -> list[Violation]:
        """Every request the local Discord refused as Discord would (see validation.py)."""
        return self.server.violations

    def unexpected_violations(self) -> list[Violation]:
        return self.server.unexpected_violations()

    def expect_violation(self, route: str = "*", error_code: str | None = None) -> ViolationExpectation:
        """Declare that this test makes the bot send bodies Discord refuses (matching ``route``, an
        fnmatch pattern like the faults', and ``error_code``, a code of the error tree or the JSON
        code): the ``discord_harness`` fixture then does not fail the test for them."""
        x = ViolationExpectation(route, error_code)
        self.server.violation_expectations.append(x)
        return x

    async def raw_request(
        self, method: str, path: str, *, json: Any = None, data: Any = None, bad: bool = True
    ) -> tuple[int, Any]:
        """Send a request as the bot (its token) outside discord.py, e.g. a deliberately bad body:
        ``bad`` marks what it breaks as an expected violation. Returns (status, JSON body or None)."""
        import aiohttp

        headers = {"Authorization": f"Bot {self.state.token}"}
        if bad:
            headers[EXPECT_VIOLATION_HEADER] = "true"
        async with aiohttp.ClientSession() as s:
            async with s.request(method, f"{self.api_base}{path}", json=json, data=data, headers=headers) as r:
                body = await r.json() if r.content_type == "application/json" else None
                return r.status, body

    # -- ack statistics ----------------------------------------------------------------
    def interactions(self) -> list[InteractionRecord]:
        return list(self.state.interactions.values())

    def ack_times(self) -> list[float]:
        return [r.ack_latency for r in self.state.interactions.values() if r.ack_latency is not None and not r.late]

    def ack_stats(self) -> dict[str, Any]:
        xs = sorted(self.ack_times())
        late = sum(1 for r in self.state.interactions.values() if r.late)
        unacked = sum(1 for r in self.state.interactions.values() if r.response_type is None and not r.late)
        if not xs:
            return {"count": 0, "late": late, "unacked": unacked, "median": None, "p99": None, "max": None}
        p99 = xs[min(len(xs) - 1, max(0, int(-(-0.99 * len(xs) // 1)) - 1))]
        return {
            "count": len(xs),
            "late": late,
            "unacked": unacked,
            "median": statistics.median(xs),
            "p99": p99,
            "max": xs[-1],
        }

    # -- acting as users ----------------------------------------------------------------
    def _new_record(
        self,
        user: User,
        channel: Channel,
        type_: int,
        data: dict,
        *,
        source: Message | None = None,
        command_name: str | None = None,
    ) -> InteractionRecord:
        rec = InteractionRecord(
            id=self.state.snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=type_,
            user=user,
            channel=channel,
            guild_id=channel.guild_id,
            data=data,
            application_id=self.state.application_id,
            source_message=source,
            command_name=command_name,
        )
        rec.expires_at = time.perf_counter() + self.server.token_ttl
        self.state.interactions[rec.id] = rec
        self.state.interactions_by_token[rec.token] = rec
        return rec

    def _interaction_payload(self, rec: InteractionRecord) -> dict:
        ch = rec.channel
        d: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(rec.application_id),
            "type": rec.type,
            "data": rec.data,
            "token": rec.token,
            "version": 1,
            "locale": rec.user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(ch.id),
        }
        if ch.guild_id is not None:
            g = self.state.guilds[ch.guild_id]
            member = g.members.get(rec.user.id)
            if member is None:
                raise ValueError(f"{rec.user!r} is not a member of {g!r}")
            perms = g.member_permissions(rec.user.id)
            chd = ch.payload()
            chd["permissions"] = str(perms)
            d.update(
                guild_id=str(g.id),
                guild_locale=g.preferred_locale,
                guild={"id": str(g.id), "locale": g.preferred_locale, "features": []},
                member=member.payload(permissions=perms),
                app_permissions=str(g.member_permissions(self.state.bot.id)),
                channel=chd,
                authorizing_integration_owners={"0": str(g.id)},
                context=0,
            )
        else:
            d.update(
                user=rec.user.payload(),
                channel=ch.payload(),
                app_permissions=str(S.EVERYONE_PERMISSIONS),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if rec.source_message is not None:
            d["message"] = rec.source_message.payload()
        return d

    async def _dispatch(self, rec: InteractionRecord) -> InteractionHandle:
        self.check_bots()
        payload = self._interaction_payload(rec)
        rec.dispatched_at = time.perf_counter()

        def sent() -> None:  # timed right before the websocket send (after the payload is encoded)
            rec.dispatched_at = time.perf_counter()

        try:
            await self.server.dispatch("INTERACTION_CREATE", payload, on_send=sent)
        except RuntimeError:
            del self.state.interactions[rec.id]
            del self.state.interactions_by_token[rec.token]
            raise
        self.state.touch()
        return InteractionHandle(self, rec)

    def _find_command(self, channel: Channel, name: str, ctype: int = 1) -> tuple[dict, int | None]:
        for cmd, scope in self.state.commands_for(channel.guild_id):
            if cmd["name"] == name and int(cmd.get("type", 1)) == ctype:
                return cmd, scope
        have = sorted({c["name"] for c, _ in self.state.commands_for(channel.guild_id)})
        raise LookupError(f"no registered command /{name} usable in {channel!r}; registered: {have}")

    async def run_command(self, user: UserRef, channel: ChannelRef, name: str, /, **options: Any) -> InteractionHandle:
        """Invoke a slash command as `user`: `run_command("alice", "general", "tripoley start", rounds=3)`.

        The command, its subcommand group/subcommand and option types come from the commands the bot
        registered (PUT .../commands). Values: str/int/float/bool; users, channels, roles as objects or
        ids; attachments as bytes or (filename, bytes).
        """
        u = self.state.user(user)
        ch = self.channel(channel)
        data, resolved = self._command_data(ch, name, options)
        if resolved:
            data["resolved"] = resolved
        rec = self._new_record(u, ch, 2, data, command_name=name)
        return await self._dispatch(rec)

    async def autocomplete(
        self, user: UserRef, channel: ChannelRef, name: str, /, focused: str, **options: Any
    ) -> list[dict]:
        """Send an autocomplete interaction for option `focused` (its partial value in options) and return the choices."""
        u = self.state.user(user)
        ch = self.channel(channel)
        data, _ = self._command_data(ch, name, options, focused=focused)
        rec = self._new_record(u, ch, 4, data, command_name=name)
        h = await self._dispatch(rec)
        await h.response()
        return list(rec.autocomplete_choices or [])

    def _command_data(
        self, ch: Channel, name: str, options: dict[str, Any], focused: str | None = None
    ) -> tuple[dict, dict]:
        parts = name.strip().lstrip("/").split()
        cmd, scope = self._find_command(ch, parts[0])
        resolved: dict[str, dict] = {}
        node_defs = cmd.get("options") or []
        top: list[dict] = []
        holder = top
        for part in parts[1:]:
            sub = next((o for o in node_defs if o.get("name") == part and o.get("type") in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in node_defs if o.get("type") in (1, 2)]
                raise LookupError(f"/{' '.join(parts)}: no subcommand {part!r}; have {subs}")
            entry: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
            holder.append(entry)
            holder = entry["options"]
            node_defs = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in node_defs):
            subs = [o["name"] for o in node_defs if o.get("type") in (1, 2)]
            raise LookupError(f"/{' '.join(parts)} is a group: name a subcommand, one of {subs}")
        defs = {o["name"]: o for o in node_defs}
        unknown = set(options) - set(defs)
        if unknown:
            raise TypeError(f"/{' '.join(parts)} has no option(s) {sorted(unknown)}; options: {sorted(defs)}")
        for o in node_defs:
            if o.get("required") and o["name"] not in options and o["name"] != focused:
                raise TypeError(f"/{' '.join(parts)}: required option {o['name']!r} missing")
        for oname, value in options.items():
            odef = defs[oname]
            if oname == focused:
                holder.append({"name": oname, "type": odef["type"], "value": str(value), "focused": True})
            else:
                holder.append(
                    {"name": oname, "type": odef["type"], "value": self._option_value(odef, value, ch, resolved)}
                )
        if focused is not None and focused not in options:
            holder.append({"name": focused, "type": defs[focused]["type"], "value": "", "focused": True})
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": top}
        if scope is not None:
            data["guild_id"] = str(scope)
        return data, resolved

    def _option_value(self, odef: dict, value: Any, ch: Channel, resolved: dict[str, dict]) -> Any:
        t = odef["type"]
        name = odef["name"]
        choices = odef.get("choices")
        if t in (3, 4, 10) and choices:
            for c in choices:
                if c["value"] == value or c["name"] == value:
                    return c["value"]
            raise ValueError(f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        if t == 3:
            v = str(value)
            if not odef.get("min_length", 0) <= len(v) <= odef.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length out of range")
            return v
        if t in (4, 10):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"option {name!r} needs a number, got {value!r}")
            if t == 4 and int(value) != value:
                raise TypeError(f"option {name!r} needs an integer, got {value!r}")
            v = int(value) if t == 4 else float(value)
            if "min_value" in odef and odef["min_value"] is not None and v < odef["min_value"]:
                raise ValueError(f"option {name!r}: {v} < min {odef['min_value']}")
            if "max_value" in odef and odef["max_value"] is not None and v > odef["max_value"]:
                raise ValueError(f"option {name!r}: {v} > max {odef['max_value']}")
            return v
        if t == 5:
            return bool(value)
        if t in (6, 9) and not isinstance(value, S.Role):
            try:
                u = self.state.user(value)
            except KeyError:
                if t == 6:
                    raise
            else:
                resolved.setdefault("users", {})[str(u.id)] = u.payload()
                if ch.guild_id is not None:
                    g = self.state.guilds[ch.guild_id]
                    m = g.members.get(u.id)
                    if m is not None:
                        resolved.setdefault("members", {})[str(u.id)] = m.payload(
                            with_user=False, permissions=g.member_permissions(u.id)
                        )
                return str(u.id)
        if t in (8, 9):
            g = self.state.guilds[ch.guild_id] if ch.guild_id else self.guild
            role = value if isinstance(value, S.Role) else g.role(value)
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if t == 7:
            c = self.channel(value)
            cd = {
                "id": str(c.id),
                "name": c.name,
                "type": c.type,
                "permissions": str(S.ALL_PERMISSIONS),
                "parent_id": str(c.parent_id) if c.parent_id else None,
            }
            if c.guild_id:
                cd["guild_id"] = str(c.guild_id)
            resolved.setdefault("channels", {})[str(c.id)] = cd
            return str(c.id)
        if t == 11:
            fname, data = value if isinstance(value, tuple) else ("upload.bin", value)
            aid = self.state.snowflake()
            att = Attachment(
                id=aid,
                filename=fname,
                data=bytes(data),
                url=f"{self.server.base_url}/attachments/{ch.id}/{aid}/{fname}",
                ephemeral=True,
            )
            self.state.uploads[aid] = att
            resolved.setdefault("attachments", {})[str(aid)] = att.payload()
            return str(aid)
        raise TypeError(f"option {name!r}: unsupported option type {t}")

    def _visible_message(self, user: User, message: MessageRef) -> Message:
        msg = self.state.message(message)
        if not msg.visible_for(user):
            raise PermissionError(f"{user!r} cannot see {msg!r}")
        return msg

    async def click(
        self, user: UserRef, message: MessageRef, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionHandle:
        """Click a button (by label or custom_id) on a message the user can see."""
        u = self.state.user(user)
        msg = self._visible_message(u, message)
        comp = msg.find_component(custom_id=custom_id, label=label, type=S.C_BUTTON)
        if comp.get("disabled"):
            raise PermissionError(f"button {comp.get('label') or comp.get('custom_id')!r} is disabled")
        if comp.get("style") in (5, 6) or not comp.get("custom_id"):
            raise ValueError("link/premium buttons do not send interactions")
        data = {"custom_id": comp["custom_id"], "component_type": S.C_BUTTON}
        if "id" in comp:
            data["id"] = comp["id"]
        rec = self._new_record(u, self.state.channels[msg.channel_id], 3, data, source=msg)
        return await self._dispatch(rec)

    async def select(
        self, user: UserRef, message: MessageRef, custom_id: str, values: Sequence[Any]
    ) -> InteractionHandle:
        """Choose `values` in a select menu (string select: option values; user/role/channel selects: objects or ids)."""
        u = self.state.user(user)
        msg = self._visible_message(u, message)
        comp = next((c for c in msg.selects() if c.get("custom_id") == custom_id), None)
        if comp is None:
            raise LookupError(
                f"no select {custom_id!r} on {msg!r}; selects: {[c.get('custom_id') for c in msg.selects()]}"
            )
        if comp.get("disabled"):
            raise PermissionError(f"select {custom_id!r} is disabled")
        ch = self.state.channels[msg.channel_id]
        data, _ = self._select_data(comp, values, ch)
        rec = self._new_record(u, ch, 3, data, source=msg)
        return await self._dispatch(rec)

    def _select_data(self, comp: dict, values: Sequence[Any], ch: Channel) -> tuple[dict, dict]:
        t = comp["type"]
        vals = list(values)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(vals) <= hi:
            raise ValueError(f"select {comp.get('custom_id')!r} takes {lo}..{hi} values, got {len(vals)}")
        resolved: dict[str, dict] = {}
        if t == S.C_STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options") or []]
            out = []
            for v in vals:
                opt = next((o for o in comp.get("options") or [] if o["value"] == v or o.get("label") == v), None)
                if opt is None:
                    raise ValueError(f"select {comp.get('custom_id')!r}: {v!r} not in {allowed}")
                out.append(opt["value"])
            vals = out
        else:
            kind = {S.C_USER_SELECT: 6, S.C_ROLE_SELECT: 8, S.C_MENTIONABLE_SELECT: 9, S.C_CHANNEL_SELECT: 7}[t]
            vals = [self._option_value({"type": kind, "name": comp.get("custom_id")}, v, ch, resolved) for v in vals]
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": t, "values": vals}
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    def modals_for(self, user: UserRef) -> list[dict]:
        u = self.state.user(user)
        return [r.modal for r in self.state.interactions.values() if r.user.id == u.id and r.modal]

    async def submit_modal(self, user: UserRef, modal: Any, values: dict[str, Any]) -> InteractionHandle:
        """Submit a modal the bot showed to `user`: `modal` is the InteractionHandle that opened it, or its custom_id.

        `values` maps each text input's (or select's) custom_id to what the user typed (chose).
        """
        u = self.state.user(user)
        opener: InteractionRecord | None = None
        if isinstance(modal, InteractionHandle):
            opener = modal.record
            if opener.modal is None:
                raise LookupError(f"{opener!r} did not answer with a modal")
        else:
            for r in reversed(list(self.state.interactions.values())):
                if r.user.id == u.id and r.modal and r.modal.get("custom_id") == modal:
                    opener = r
                    break
            if opener is None:
                raise LookupError(f"no modal {modal!r} was shown to {u!r}")
        if opener.user.id != u.id:
            raise PermissionError(f"the modal was shown to {opener.user!r}, not {u!r}")
        spec = opener.modal
        assert spec is not None
        values = dict(values)
        used: set[str] = set()
        ch = opener.channel

        def fill(c: dict) -> dict | None:
            t = c.get("type")
            cid = c.get("custom_id")
            if t == S.C_TEXT_INPUT:
                v = values.get(cid, c.get("value") or "")
                used.add(cid)
                v = str(v)
                if c.get("required", True) and not v:
                    raise ValueError(f"text input {cid!r} is required")
                if not c.get("min_length", 0) <= len(v) <= c.get("max_length", 4000):
                    raise ValueError(f"text input {cid!r}: length {len(v)} out of range")
                return {"type": S.C_TEXT_INPUT, "custom_id": cid, "value": v}
            if t in S.SELECT_TYPES:
                used.add(cid)
                data, _ = self._select_data(c, list(values.get(cid, [])), ch)
                return {"type": t, "custom_id": cid, "values": data["values"]}
            return None

        comps: list[dict] = []
        for top in spec.get("components") or []:
            if top.get("type") == S.C_ACTION_ROW:
                inner = [x for x in (fill(c) for c in top.get("components") or []) if x]
                if inner:
                    comps.append({"type": S.C_ACTION_ROW, "components": inner})
            elif top.get("type") == S.C_LABEL:
                x = fill(top.get("component") or {})
                if x:
                    comps.append({"type": S.C_LABEL, "component": x})
            else:
                x = fill(top)
                if x:
                    comps.append(x)
        unknown = set(values) - used
        if unknown:
            raise LookupError(f"modal {spec.get('custom_id')!r} has no fields {sorted(unknown)}")
        data = {"custom_id": spec["custom_id"], "components": comps}
        rec = self._new_record(u, ch, 5, data, source=opener.source_message)
        return await self._dispatch(rec)

    async def say(self, user: UserRef, channel: ChannelRef, content: str) -> Message:
        """A human posts a plain message (the bot gets MESSAGE_CREATE if its intents allow)."""
        u = self.state.user(user)
        ch = self.channel(channel)
        msg = Message(id=self.state.snowflake(), channel_id=ch.id, guild_id=ch.guild_id, author=u, content=content)
        self.state.add_message(msg)
        self.server._dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    # -- Discord-side changes (gateway events: tests/fakediscord/server.py) -------------------------
    async def delete_channel(self, channel: ChannelRef) -> None:
        await self.server.delete_channel(self.channel(channel))

    async def archive_thread(self, thread: ChannelRef, *, locked: bool = False) -> None:
        await self.server.update_thread(self.channel(thread), archived=True, locked=locked)

    async def delete_thread(self, thread: ChannelRef) -> None:
        await self.server.delete_thread(self.channel(thread))

    async def remove_bot_from_guild(self, guild: Any = None) -> None:
        await self.server.remove_bot_from_guild(self.state.guild(guild))

    async def guild_outage(self, guild: Any = None) -> None:
        await self.server.guild_outage(self.state.guild(guild))

    async def guild_back(self, guild: Any = None) -> None:
        await self.server.guild_back(self.state.guild(guild))

    def revoke_access(self, channel: ChannelRef) -> None:
        """The bot loses View Channel there (no gateway event without the members/overwrites it
        would need): every request to it answers 403 / 50001 from now on."""
        self.channel(channel).bot_denied |= S.P_VIEW_CHANNEL
        self.state.touch()

    async def delete_message(self, message: MessageRef) -> None:
        """A moderator deletes a message (the bot gets MESSAGE_DELETE if its intents allow)."""
        await self.server.moderator_deletes(self.state.message(message))

    async def reset_token(self) -> None:
        """The bot's token is reset: REST answers 401, the gateway closes with 4004."""
        await self.server.reset_token()

    def expire_token(self, handle: InteractionHandle | InteractionRecord) -> None:
        """Make an interaction token dead now, as Discord does after 15 minutes (webhook calls get 401)."""
        rec = handle.record if isinstance(handle, InteractionHandle) else handle
        rec.expires_at = 0.0

    async def gateway_outage(self, seconds: float) -> None:
        """Drop the bot's gateway connection and keep Discord unreachable for `seconds`: events
        dispatched meanwhile (clicks included, with their ids made at the click) are buffered and
        replayed on RESUME. Returns at once; ``wait_resumed`` waits for the end."""
        self.faults.gateway_outage(seconds)
        sess = self.server.current_session()
        self._resumes_before_outage = sess.resumes if sess else 0
        await self.faults.drop_gateway()

    async def wait_resumed(self, timeout: float = 10.0) -> None:
        """Until the bot has RESUMEd after the last ``gateway_outage``."""
        sess = self.server.current_session()
        before = getattr(self, "_resumes_before_outage", 0)
        await self.wait_for(
            lambda: sess is not None and sess.resumes > before and sess.conn is not None,
            timeout,
            what="the bot to RESUME after the outage",
        )

    async def drop_gateway(
        self, *, code: int = 4000, abrupt: bool = False, wait_resume: bool = True, timeout: float = 10.0
    ) -> None:
        """Drop the bot's gateway connection and (by default) wait until it has RESUMEd."""
        sess = self.server.current_session()
        before = sess.resumes if sess else 0
        await self.faults.drop_gateway(code=code, abrupt=abrupt)
        if wait_resume:
            await self.wait_for(
                lambda: sess is not None and sess.resumes > before and sess.conn is not None,
                timeout,
                what="the bot to RESUME",
            )
