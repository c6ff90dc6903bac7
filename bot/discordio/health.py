"""Health and metrics over HTTP (``HEALTH_ADDRESS``), and systemd's watchdog.

``GET /healthz`` answers 200 when the bot can serve: the database is not away (its writes are not
being refused: ``Database.away``, a read-only or full one answers reads) and answers a trivial query
within :data:`DATABASE_TIMEOUT`, the gateway is connected (every shard of the process), and the timer loop
is alive; 503 otherwise, and the JSON body says which check failed. ``GET /metrics`` gives
bot.discordio.metrics' figures in the Prometheus text format.

The timer loop is alive while its task runs and no tick of it has lasted more than
:data:`TIMER_STALE` seconds (``Timers.ticking_since``). Its waits need no check: they end by
themselves (at the next deadline) unless the event loop is wedged, and then nothing answers at all.
An idle bot with no tables is alive; a tick stuck on a database that never answers is not. Tables
left waiting past their deadline show in the metrics (``tripoley_tables_overdue``).

The watchdog (:func:`watchdog`) pings systemd while the timer loop is alive. It runs on the event
loop, so a wedged loop stops the pings as well, and systemd restarts the process. The database and
the gateway are left out of it on purpose: a restart cannot bring an unreachable database or Discord
back, and restarts in a loop while they are away would only add start-ups to the outage.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler
from prometheus_client.registry import CollectorRegistry

from bot.discordio import sdnotify
from bot.storage.database import Database
from bot.tables.manager import TableManager

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 2.0  # seconds the health check waits for ``SELECT 1``
TIMER_STALE = 10.0  # seconds one tick of the timer loop may last before the loop counts as stuck


class Gateway(Protocol):
    """What the health check reads of the discord.py client."""

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...

    @property
    def latency(self) -> float: ...


def gateway_problem(client: Gateway) -> str | None:
    """What is wrong with the client's gateway connection(s), or None."""
    if client.is_closed():
        return "the client is closed"
    if not client.is_ready():
        return "not connected yet"
    if isinstance(client, discord.AutoShardedClient):
        down = sorted(shard_id for shard_id, shard in client.shards.items() if shard.is_closed())
        if down:
            return "disconnected shard(s): " + ", ".join(map(str, down))
        return None
    ws = getattr(client, "ws", None)
    if ws is None or not ws.open:
        return "disconnected (discord.py is reconnecting)"
    return None


class Health:
    """The three checks of ``/healthz``; ``timer`` is the task running ``manager.timers.run()``."""

    def __init__(
        self,
        manager: TableManager,
        db: Database,
        client: Gateway,
        timer: Callable[[], asyncio.Task[None] | None],
    ) -> None:
        self.manager = manager
        self.db = db
        self.client = client
        self.timer = timer

    def timers_problem(self) -> str | None:
        """Why the timer loop is not alive, or None."""
        task = self.timer()
        if task is None:
            return "not started"
        if task.done():
            return "stopped"
        since = self.manager.timers.ticking_since
        if since is not None and self.manager.clock.now() - since > TIMER_STALE:
            return f"stuck in one step for {self.manager.clock.now() - since:.0f} s"
        return None

    async def database_problem(self) -> str | None:
        if self.db.away_since is not None:
            return f"away for {time.monotonic() - self.db.away_since:.0f} s ({self.db.away_reason})"
        try:
            await asyncio.wait_for(self.db.fetchone("SELECT 1"), DATABASE_TIMEOUT)
        except TimeoutError:
            return f"no answer in {DATABASE_TIMEOUT:g} s"
        except Exception as exc:  # noqa: BLE001 - any failure is the answer
            return str(exc) or type(exc).__name__
        return None

    async def report(self) -> dict[str, Any]:
        """``{"ok": bool, "checks": {name: "ok" or the problem}, ...}``."""
        problems = {
            "database": await self.database_problem(),
            "gateway": gateway_problem(self.client),
            "timers": self.timers_problem(),
        }
        latency = self.client.latency
        return {
            "ok": not any(problems.values()),
            "checks": {name: problem or "ok" for name, problem in problems.items()},
            "gateway_latency_seconds": round(latency, 4) if math.isfinite(latency) else None,
            "open_tables": len(self.manager.registry.by_id),
        }


def is_loopback(host: str) -> bool:
    """Whether ``host`` can be reached from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # another host name
        return False


class HealthServer:
    """``/healthz`` and ``/metrics`` on ``host:port`` (port 0: a free one, see :attr:`port`)."""

    def __init__(self, health: Health, registry: CollectorRegistry, host: str, port: int) -> None:
        self.health = health
        self.registry = registry
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        # prometheus-client's own handler: the text or OpenMetrics format as the scraper asks, gzipped when it may.
        app.router.add_get("/metrics", make_aiohttp_handler(registry))
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]  # the one chosen for port 0
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)
        if not is_loopback(self.host):
            log.warning("health and metrics are served beyond this machine (%s), without authentication", self.host)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        report = await self.health.report()
        return web.Response(
            status=200 if report["ok"] else 503, text=json.dumps(report), content_type="application/json"
        )


async def watchdog(
    health: Health,
    interval: float,
    notify: Callable[[str], bool] = sdnotify.notify,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Ping systemd's watchdog every ``interval`` seconds while the timer loop is alive (forever;
    cancel to stop). A stuck loop is logged once; the pings resume if it comes back."""
    stuck = False
    while True:
        problem = health.timers_problem()
        if problem is None:
            notify("WATCHDOG=1")
        elif not stuck:
            log.error("the timer loop is %s: no watchdog pings until it runs again", problem)
        stuck = problem is not None
        await sleep(interval)
