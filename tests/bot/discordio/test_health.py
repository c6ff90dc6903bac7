"""bot.discordio.health and bot.discordio.metrics: /healthz and /metrics on a real HTTP server, over
a table manager with a test database and a stand-in for the discord.py client; then the real bot
through the fake Discord, and `python -m bot` speaking systemd's notify protocol."""

from __future__ import annotations

import asyncio
import gzip
import re
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest
import yarl
from prometheus_client.parser import text_string_to_metric_families

from bot import __version__ as bot_version
from bot.discordio.client import TripoleyBot
from bot.discordio.health import TIMER_STALE, Health, HealthServer, gateway_problem, is_loopback, watchdog
from bot.discordio.metrics import BotCollector, DiscordTraffic, registry_for
from bot.discordio.pacing import Pacer
from bot.discordio.render import ImageService
from engine import Game

README = Path(__file__).resolve().parents[3] / "bot" / "README.md"
G = 1  # guild
ANN = 11
API = "https://discord.com/api/v10"


class FakeGateway:
    """What the health check reads of a discord.py client (a plain, unsharded one)."""

    latency = 0.042

    def __init__(self) -> None:
        self.closed = False
        self.ready = True
        self.ws = SimpleNamespace(open=True)

    def is_closed(self) -> bool:
        return self.closed

    def is_ready(self) -> bool:
        return self.ready


class FakePerf:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


async def until(predicate: Callable[[], object], what: str, timeout: float = 5.0) -> None:
    """Wait for a condition another task makes true (a guard, not a measure: the timeout only stops a hang)."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


@dataclass
class Served:
    manager: object
    db: object
    client: FakeGateway
    traffic: DiscordTraffic
    pacer: Pacer
    images: ImageService
    gate: asyncio.Event  # what the pacer's waiting requests wait for
    server: HealthServer
    timer: asyncio.Task | None = None

    async def start_timers(self) -> None:
        self.timer = asyncio.create_task(self.manager.timers.run())

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{self.server.port}{path}") as r:
            return r.status, await r.text()

    async def healthz(self) -> tuple[int, dict]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{self.server.port}/healthz") as r,
        ):
            assert r.headers["Content-Type"].startswith("application/json")
            return r.status, await r.json()

    async def metrics(self) -> dict[str, dict[tuple, float]]:
        """Every family: {(sample name, labels…): value}, checked to parse as the Prometheus text format."""
        status, text = await self.get("/metrics")
        assert status == 200
        return {
            family.name: {(s.name, *sorted(s.labels.items())): s.value for s in family.samples}
            for family in text_string_to_metric_families(text)
        }


@pytest.fixture
async def served(make_manager, db):
    manager = make_manager()
    client = FakeGateway()
    traffic = DiscordTraffic(perf=FakePerf())
    gate = asyncio.Event()
    elapsed = [0.0]  # the pacer's clock: it moves on by what the pacer slept, once the gate opens

    async def sleep(seconds: float) -> None:
        await gate.wait()
        elapsed[0] += seconds

    pacer = Pacer(1.0, monotonic=lambda: elapsed[0], sleep=sleep)
    images = ImageService(None)
    s = Served(manager, db, client, traffic, pacer, images, gate, server=None)  # type: ignore[arg-type]
    health = Health(manager, db, client, lambda: s.timer)
    collector = BotCollector(manager, db, traffic, pacer, images, latency=lambda: client.latency)
    s.server = HealthServer(health, registry_for(collector), "127.0.0.1", 0)
    await s.server.start()
    assert s.server.port > 0
    yield s
    await s.server.stop()
    if s.timer is not None:
        s.timer.cancel()
        await asyncio.gather(s.timer, return_exceptions=True)


async def test_healthy_when_the_database_the_gateway_and_the_timers_are(served, clock):
    await served.start_timers()
    status, body = await served.healthz()
    assert status == 200, body
    assert body == {
        "ok": True,
        "checks": {"database": "ok", "gateway": "ok", "timers": "ok"},
        "gateway_latency_seconds": 0.042,
        "open_tables": 0,
    }
    clock.advance(3600)  # an idle bot (nothing due, no wake-up) is alive however long it waits
    assert (await served.healthz())[0] == 200


async def test_unhealthy_without_the_database(served, db):
    await served.start_timers()
    await db.close()
    status, body = await served.healthz()
    assert status == 503 and not body["ok"]
    assert body["checks"]["database"] == "database is not connected"
    assert body["checks"]["gateway"] == body["checks"]["timers"] == "ok"


@pytest.mark.parametrize(
    "fault, problem",
    [
        ("closed", "the client is closed"),
        ("not ready", "not connected yet"),
        ("socket", "disconnected (discord.py is reconnecting)"),
    ],
)
async def test_unhealthy_without_the_gateway(served, fault, problem):
    await served.start_timers()
    if fault == "closed":
        served.client.closed = True
    elif fault == "not ready":
        served.client.ready = False
    else:
        served.client.ws.open = False
    status, body = await served.healthz()
    assert status == 503 and body["checks"] == {"database": "ok", "gateway": problem, "timers": "ok"}


class TwoShards(discord.AutoShardedClient):
    """An AutoShardedClient of two shards whose connections are up but those in ``down`` (nothing connects)."""

    down: frozenset[int] = frozenset()

    @property
    def shards(self):
        return {i: SimpleNamespace(is_closed=lambda i=i: i in self.down) for i in (0, 1)}

    def is_ready(self) -> bool:
        return True


def test_a_sharded_process_is_connected_when_each_of_its_shards_is():
    client = TwoShards(intents=discord.Intents.none(), shard_count=2)
    assert gateway_problem(client) is None
    client.down = frozenset({1})
    assert gateway_problem(client) == "disconnected shard(s): 1"


async def test_a_stuck_timer_loop_is_unhealthy_and_stops_the_watchdog(served, clock):
    """A tick that never ends (here: a lobby expiry stuck on its way) makes the loop stuck; the
    watchdog pings stop; once the tick ends, both come back."""
    manager = served.manager
    await served.start_timers()
    await manager.lobby.create_table(G, 500, ANN, "ann", "tripoley", buy_in=100)
    entered, release = asyncio.Event(), asyncio.Event()
    fire = manager.timers._fire

    async def stuck(table, *args):
        entered.set()
        await release.wait()
        return await fire(table, *args)

    manager.timers._fire = stuck
    clock.advance(manager.settings.lobby_timeout + 1)
    manager.timers.wake()
    await asyncio.wait_for(entered.wait(), 5)
    assert (await served.healthz())[0] == 200  # a tick under way, not for long yet
    clock.advance(TIMER_STALE + 1)
    status, body = await served.healthz()
    assert status == 503 and body["checks"]["timers"] == f"stuck in one step for {TIMER_STALE + 1:.0f} s"
    health = served.server.health
    assert await pings(health, rounds=3) == []
    release.set()
    await until(lambda: manager.registry.by_channel == {}, "the lobby to expire")
    await until(lambda: health.timers_problem() is None, "the loop to wait again")
    assert (await served.healthz())[0] == 200
    assert await pings(health, rounds=3) == ["WATCHDOG=1"] * 3


async def test_a_stopped_timer_loop_is_unhealthy(served):
    assert (await served.healthz())[1]["checks"]["timers"] == "not started"
    await served.start_timers()
    served.timer.cancel()
    await asyncio.gather(served.timer, return_exceptions=True)
    status, body = await served.healthz()
    assert status == 503 and body["checks"]["timers"] == "stopped"


class Enough(Exception):
    pass


async def pings(health: Health, rounds: int) -> list[str]:
    """What the watchdog sends in ``rounds`` rounds."""
    sent: list[str] = []
    done = 0

    def notify(state: str) -> bool:
        sent.append(state)
        return True

    async def sleep(seconds: float) -> None:
        nonlocal done
        done += 1
        if done == rounds:
            raise Enough

    with pytest.raises(Enough):
        await watchdog(health, 15.0, notify=notify, sleep=sleep)
    return sent


async def test_metrics_read_the_bot_as_it_is_at_each_scrape(served, clock, db):
    manager, traffic = served.manager, served.traffic
    perf = traffic._perf
    # Tables: one lobby, one game (its first deadline: an AI's pause or a player's turn).
    await manager.lobby.create_table(G, 500, ANN, "ann", "tripoley", buy_in=100)
    await manager.lobby.create_table(G, 501, ANN + 1, "bob", "tripoley", buy_in=100)
    await manager.lobby.add_ai(501, ANN + 1)
    await manager.lobby.start(501, ANN + 1)
    playing = manager.registry.get(501)
    assert playing.status == "playing" and playing.deadline is not None
    # Requests: a message (global), an acknowledgement 20 ms after its receipt and a follow-up (exempt),
    # the gateway (not a REST call); a 429 on a global one.
    traffic.received(901)
    perf.t += 0.020
    traffic.sent(yarl.URL(f"{API}/interactions/901/tok/callback?with_response=1"))
    traffic.sent(yarl.URL(f"{API}/webhooks/42/tok"))
    traffic.sent(yarl.URL(f"{API}/channels/500/messages"))
    traffic.sent(yarl.URL("wss://gateway.discord.gg/?v=10"))
    traffic.answered(yarl.URL(f"{API}/channels/500/messages"), 429)
    traffic.answered(yarl.URL(f"{API}/channels/500/messages"), 200)
    # The queues: a request waiting for the pacer, a picture being drawn, a Hard AI thinking.
    release = served.gate
    drawn = threading.Event()
    served.images.renderer = lambda kind, view: drawn.wait(5) and b"png"
    game = Game.new("tripoley", ["a", "b", "c"], seed=4)
    game.next_deal()
    search = manager.ai._run

    async def slow_search(*args):
        await release.wait()
        return await search(*args)

    manager.ai._run = slow_search
    await served.pacer()  # the first slot is free
    waiting = [
        asyncio.create_task(served.pacer()),
        asyncio.create_task(served.images.render("mat", {"n": 1})),
        asyncio.create_task(manager.ai.decide(game, game.awaiting().seat, "hard")),
    ]
    # Database errors: a failed statement counts; a refusal rolling a transaction back does not.
    with pytest.raises(Exception, match="no_such_table"):
        await db.fetchone("SELECT * FROM no_such_table")
    with pytest.raises(ValueError):
        async with db.transaction():
            raise ValueError("refused")
    await until(lambda: served.images.rendering == 1 and manager.ai.thinking == 1, "the work under way")

    m = await served.metrics()
    assert m["tripoley_tables"] == {
        ("tripoley_tables", ("status", "lobby")): 1,
        ("tripoley_tables", ("status", "playing")): 1,
    }
    assert m["tripoley_tables_overdue"] == {("tripoley_tables_overdue",): 0}
    acks = m["tripoley_interaction_ack_seconds"]
    assert acks[("tripoley_interaction_ack_seconds_bucket", ("le", "0.01"))] == 0
    assert acks[("tripoley_interaction_ack_seconds_bucket", ("le", "0.025"))] == 1  # 20 ms
    assert acks[("tripoley_interaction_ack_seconds_bucket", ("le", "+Inf"))] == 1
    assert acks[("tripoley_interaction_ack_seconds_count",)] == 1
    assert acks[("tripoley_interaction_ack_seconds_sum",)] == pytest.approx(0.020)
    assert m["tripoley_gateway_latency_seconds"] == {("tripoley_gateway_latency_seconds",): 0.042}
    [(labels, built)] = m["tripoley_build_info"].items()
    assert built == 1 and ("version", bot_version) in labels
    assert m["tripoley_discord_requests"] == {
        ("tripoley_discord_requests_total", ("budget", "exempt")): 2,
        ("tripoley_discord_requests_total", ("budget", "global")): 1,
    }
    assert m["tripoley_discord_rate_limited"] == {
        ("tripoley_discord_rate_limited_total", ("budget", "exempt")): 0,
        ("tripoley_discord_rate_limited_total", ("budget", "global")): 1,
    }
    assert m["tripoley_pacer_queue"] == {("tripoley_pacer_queue",): 1}
    assert m["tripoley_render_queue"] == {("tripoley_render_queue",): 1}
    assert m["tripoley_ai_queue"] == {("tripoley_ai_queue",): 1}
    assert m["tripoley_database_errors"] == {("tripoley_database_errors_total",): 1}

    # The next scrape: the work is done, the game's deadline is long past (no timer loop runs here).
    release.set()
    drawn.set()
    await asyncio.gather(*waiting)
    clock.t = playing.deadline + manager.timers.overdue_after + 1
    m = await served.metrics()
    assert m["tripoley_tables_overdue"] == {("tripoley_tables_overdue",): 1}
    for queue in ("pacer", "render", "ai"):
        assert m[f"tripoley_{queue}_queue"] == {(f"tripoley_{queue}_queue",): 0}


async def test_before_any_acknowledgement_the_histogram_is_empty(served):
    acks = (await served.metrics())["tripoley_interaction_ack_seconds"]
    assert acks[("tripoley_interaction_ack_seconds_bucket", ("le", "+Inf"))] == 0
    assert acks[("tripoley_interaction_ack_seconds_count",)] == 0


async def test_metrics_are_served_by_prometheus_clients_handler_with_the_standard_collectors(served):
    """OpenMetrics when the scraper asks for it, gzip when it may, and the process and Python figures."""
    url = f"http://127.0.0.1:{served.server.port}/metrics"
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        async with session.get(url, headers={"Accept-Encoding": "gzip"}) as r:
            assert r.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(await r.read()).startswith(b"# HELP")
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers={"Accept": "application/openmetrics-text; version=1.0.0"}) as r:
            assert r.headers["Content-Type"].startswith("application/openmetrics-text")
            assert (await r.text()).rstrip().endswith("# EOF")
    families = await served.metrics()
    for name in ("process_cpu_seconds", "process_resident_memory_bytes", "python_info", "python_gc_collections"):
        assert name in families, name


async def test_the_operators_guide_explains_every_metric(served):
    _, text = await served.get("/metrics")
    served_names = {
        f.name + ("_total" if f.type == "counter" else "")
        for f in text_string_to_metric_families(text)
        if f.name.startswith("tripoley_")  # the standard process_* and python_* ones are prometheus-client's
    }
    section = README.read_text(encoding="utf-8").split("## Health and metrics")[1].split("\n## ")[0]
    assert set(re.findall(r"^\| `(tripoley_\w+)", section, re.MULTILINE)) == served_names


def test_only_loopback_addresses_stay_on_this_machine():
    assert all(map(is_loopback, ["127.0.0.1", "127.0.0.53", "::1", "localhost"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "10.0.0.5", "metrics.example"]))


async def test_unknown_paths_are_not_found(served):
    assert (await served.get("/"))[0] == 404


# -- the real bot ---------------------------------------------------------------------------------


async def test_the_bot_serves_health_and_metrics_through_the_fake_discord(discord_harness, settings):
    dh = discord_harness
    bot = TripoleyBot(
        settings.model_copy(update={"discord_api_base": dh.api_base, "health_address": "127.0.0.1:0"}),
        guild_ready_timeout=0.01,
    )
    run = await dh.connect(bot)
    assert bot.health_server is not None
    base = f"http://127.0.0.1:{bot.health_server.port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/healthz") as r:
            assert r.status == 200, await r.text()
            assert (await r.json())["checks"] == {"database": "ok", "gateway": "ok", "timers": "ok"}
        dh.faults.rate_limit("POST /channels/*", count=1, retry_after=0.05)
        lobby = await (await dh.run_command("alice", "general", "tripoley start", preset="tripoley")).message()
        await (await dh.click("alice", lobby, label="Add AI")).response()
        await (await dh.click("alice", lobby, label="Start")).response()
        channel = dh.channel("general").id
        await dh.wait_for(
            lambda: (
                channel in bot.manager.registry.by_channel
                and bot.manager.registry.by_channel[channel].status == "playing"
            )
        )
        await dh.wait_for(lambda: bot.traffic.rate_limited["global"] == 1, what="the 429 on a channel message")
        await bot.publisher.flush()
        async with session.get(f"{base}/metrics") as r:
            families = {f.name: f for f in text_string_to_metric_families(await r.text())}
        values = {(s.name, *s.labels.values()): s.value for f in families.values() for s in f.samples}
        assert values[("tripoley_tables", "playing")] == 1
        assert values[("tripoley_interaction_ack_seconds_count",)] >= 3  # the command and two clicks
        assert values[("tripoley_discord_requests_total", "exempt")] >= 3
        assert values[("tripoley_discord_requests_total", "global")] >= 2  # commands synced, the 429, its retry
        assert values[("tripoley_discord_rate_limited_total", "global")] == 1
        await run.stop()
        with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the bot
            await session.get(f"{base}/healthz")


async def test_the_bot_process_tells_systemd_it_is_ready_and_pings_its_watchdog(discord_harness, tmp_path):
    dh = discord_harness
    path = str(tmp_path / "notify")
    states: list[str] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(path)
        notify.setblocking(False)
        loop = asyncio.get_running_loop()

        async def listen() -> None:  # as systemd does: at once (the socket's queue is short)
            while True:
                states.append((await loop.sock_recv(notify, 4096)).decode())
                dh.state.touch()  # dh.wait_for looks again

        listener = asyncio.create_task(listen())
        env = {
            "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3",
            "NOTIFY_SOCKET": path,
            "WATCHDOG_USEC": "200000",  # a ping every 0.1 s
            "HEALTH_ADDRESS": "127.0.0.1:0",
            "LOG_LEVEL": "INFO",
        }
        try:
            proc = await dh.spawn(env=env, cwd=tmp_path, commands=["tripoley"])
            await dh.wait_for(lambda: states.count("WATCHDOG=1") >= 2, 20, what="READY=1, then watchdog pings")
            assert states[0] == "READY=1"
            port = int(re.search(r"health and metrics on http://127\.0\.0\.1:(\d+)/", proc.output()).group(1))
            async with aiohttp.ClientSession() as session:

                async def healthy() -> bool:
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as r:
                        return r.status == 200

                await dh.wait_for(healthy, 10, what="/healthz to answer 200 once the bot is ready")
            await proc.stop()
            await dh.wait_for(lambda: "STOPPING=1" in states, 10, what="STOPPING=1")
        finally:
            listener.cancel()
    assert states[-1] == "STOPPING=1" and set(states[1:-1]) == {"WATCHDOG=1"}
