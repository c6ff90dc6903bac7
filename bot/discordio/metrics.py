"""The bot's figures in the Prometheus text format (``/metrics``, served by bot.discordio.health).

Most figures are read when Prometheus scrapes, not kept up to date as things happen:
:class:`BotCollector` reads the open tables, the pacer's queue, the pictures and AI decisions under
way and the database's error count at that moment. Only what happens in discord.py's HTTP client is
counted as it goes, by :class:`DiscordTraffic`, an ``aiohttp`` trace on the client's session (every
request the bot makes, interaction answers included, goes through it). docs/benchmarks.md explains
why these figures are the ones that matter: the acknowledgement latency, the requests counted
against Discord's global limit, the pacer's queue, the render and AI queues.
"""

from __future__ import annotations

import bisect
import math
import platform
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from types import SimpleNamespace

import aiohttp
import discord
import yarl
from prometheus_client import GCCollector, PlatformCollector, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from bot import __version__
from bot.discordio.pacing import Pacer
from bot.discordio.render import ImageService
from bot.storage.database import Database
from bot.tables.manager import TableManager
from bot.tables.model import TableStatus

# The acknowledgement histogram's buckets (seconds): fine where a healthy bot answers (tens of ms), up
# to Discord's 3 s, past which the user saw "This interaction failed". A histogram, not quantiles of
# recent samples: buckets add up across the processes of a cluster (histogram_quantile over a sum).
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 3.0, 5.0)
RECEIPTS_KEPT = 10_000  # interactions received and not yet answered that are remembered (the oldest go)
STATUSES = (TableStatus.LOBBY, TableStatus.PLAYING)  # an open table's status: always reported, 0 or not
BUDGETS = ("global", "exempt")


def budget(url: yarl.URL) -> str | None:
    """Which of Discord's budgets a request to ``url`` spends: ``"exempt"`` for the interaction
    endpoints (the callback, and the interaction's webhook: follow-ups, ``@original``), which are not
    bound to the global limit; ``"global"`` for every other REST call; None for the gateway's websocket."""
    if url.scheme in ("ws", "wss"):
        return None
    parts = url.path.split("/")
    return "exempt" if "interactions" in parts or "webhooks" in parts else "global"


def interaction_answered(url: yarl.URL) -> int | None:
    """The interaction id of an acknowledgement (``POST /interactions/{id}/{token}/callback``)."""
    parts = url.path.split("/")
    try:
        at = parts.index("interactions")
        if parts[at + 3] == "callback":
            return int(parts[at + 1])
    except (ValueError, IndexError):
        pass
    return None


class DiscordTraffic:
    """Counts the bot's requests to Discord by budget, and the 429s among the answers; times every
    acknowledgement from the interaction's receipt (:meth:`received`, from the gateway's event) to the
    moment its request starts, as the load bench's ``ACK_STATS_FILE`` does (bench/ackstats.py), but always on
    and in constant memory. Give :attr:`trace` to the client as ``http_trace``. With ``gate``, a
    request counted against the global limit waits for it before it leaves (the pacer's window)."""

    def __init__(
        self, perf: Callable[[], float] = time.perf_counter, gate: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self._perf = perf
        self._gate = gate  # awaited by each request counted against the global limit as it leaves (the pacer)
        self.requests = dict.fromkeys(BUDGETS, 0)
        self.rate_limited = dict.fromkeys(BUDGETS, 0)
        self.ack_buckets = [0] * (len(ACK_BUCKETS) + 1)  # acknowledgements per bucket (not cumulative), +Inf last
        self.ack_count = 0
        self.ack_sum = 0.0
        self._received: OrderedDict[int, float] = OrderedDict()  # interaction id → receipt
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_start.append(self._started)
        self.trace.on_request_end.append(self._ended)

    def received(self, interaction_id: int) -> None:
        self._received[interaction_id] = self._perf()
        if len(self._received) > RECEIPTS_KEPT:
            self._received.popitem(last=False)  # never answered (the answer failed, or none was due)

    def sent(self, url: yarl.URL) -> None:
        spent = budget(url)
        if spent is None:
            return
        self.requests[spent] += 1
        interaction = interaction_answered(url) if spent == "exempt" else None
        began = self._received.pop(interaction, None) if interaction is not None else None
        if began is not None:
            took = self._perf() - began
            self.ack_buckets[bisect.bisect_left(ACK_BUCKETS, took)] += 1
            self.ack_count += 1
            self.ack_sum += took

    def answered(self, url: yarl.URL, status: int) -> None:
        spent = budget(url)
        if spent is not None and status == 429:
            self.rate_limited[spent] += 1

    async def _started(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if self._gate is not None and budget(params.url) == "global":
            await self._gate()
        self.sent(params.url)

    async def _ended(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        self.answered(params.url, params.response.status)


class BotCollector(Collector):
    """Reads the bot's figures when Prometheus scrapes (``registry.register(collector)``)."""

    def __init__(
        self,
        manager: TableManager,
        db: Database,
        traffic: DiscordTraffic,
        pacer: Pacer,
        images: ImageService,
        latency: Callable[[], float] = lambda: math.nan,
    ) -> None:
        self.manager = manager
        self.db = db
        self.traffic = traffic
        self.pacer = pacer
        self.images = images
        self.latency = latency  # the gateway's heartbeat round trip (discord.py's Client.latency)

    def collect(self) -> Iterable[Metric]:
        build = GaugeMetricFamily(
            "tripoley_build_info",
            "The running build: its release, and the discord.py and Python it runs on (always 1).",
            labels=["version", "discord_py", "python"],
        )
        build.add_metric([__version__, discord.__version__, platform.python_version()], 1)
        yield build
        latency = self.latency()
        yield GaugeMetricFamily(
            "tripoley_gateway_latency_seconds",
            "The gateway's last heartbeat round trip (NaN while no heartbeat was answered).",
            value=latency if math.isfinite(latency) else math.nan,
        )
        tables = GaugeMetricFamily("tripoley_tables", "Open tables of this process, by status.", labels=["status"])
        counts = dict.fromkeys(STATUSES, 0)
        for table in self.manager.registry.by_id.values():
            counts[table.status] = counts.get(table.status, 0) + 1
        for status, n in sorted(counts.items()):
            tables.add_metric([status], n)
        yield tables
        timers = self.manager.timers
        yield GaugeMetricFamily(
            "tripoley_tables_overdue",
            f"Open tables whose deadline passed more than {timers.overdue_after:g} s ago (the timers fall behind).",
            value=timers.overdue_now(),
        )
        yield CounterMetricFamily(
            "tripoley_overdue_deadlines",
            "Deadlines the timer loop's watchdog found overdue and fired, since the start (each counted once).",
            value=timers.overdue_total,
        )
        yield CounterMetricFamily(
            "tripoley_ai_searches_abandoned",
            "Hard AI searches given up (no answer within the limit: the Normal AI's move was played).",
            value=self.manager.ai.abandoned,
        )
        yield self._acks()
        t = self.traffic
        requests = CounterMetricFamily(
            "tripoley_discord_requests",
            "REST requests sent to Discord: 'global' ones count against its global limit, 'exempt' ones"
            " (interaction answers, follow-ups) do not.",
            labels=["budget"],
        )
        limited = CounterMetricFamily(
            "tripoley_discord_rate_limited",
            "429 answers from Discord, by the budget of the request.",
            labels=["budget"],
        )
        for name in BUDGETS:
            requests.add_metric([name], t.requests[name])
            limited.add_metric([name], t.rate_limited[name])
        yield requests
        yield limited
        yield GaugeMetricFamily(
            "tripoley_pacer_queue",
            "Requests waiting under REST_RATE now (for their slot, or to leave).",
            value=self.pacer.waiting,
        )
        yield GaugeMetricFamily(
            "tripoley_render_queue",
            "Pictures being drawn or waiting for a render worker now.",
            value=self.images.rendering,
        )
        yield GaugeMetricFamily(
            "tripoley_ai_queue",
            "Hard AI decisions searching or waiting for an AI worker now.",
            value=self.manager.ai.thinking,
        )
        yield CounterMetricFamily(
            "tripoley_database_errors",
            "Errors from the database (lost connections, locked or full files, failed statements).",
            value=self.db.errors.total,
        )
        yield CounterMetricFamily(
            "tripoley_database_outages",
            "Times the database went away (writes refused and deadlines held until it answered again).",
            value=self.db.outages,
        )
        yield GaugeMetricFamily(
            "tripoley_database_away",
            "1 while the database is away (writes refused, deadlines held), else 0.",
            value=int(self.db.away),
        )

    def _acks(self) -> Metric:
        """A histogram of every acknowledgement since the start (:data:`ACK_BUCKETS`)."""
        cumulative, buckets = 0, []
        for bound, n in zip((*ACK_BUCKETS, math.inf), self.traffic.ack_buckets):
            cumulative += n
            buckets.append(("+Inf" if bound == math.inf else f"{bound:g}", cumulative))
        return HistogramMetricFamily(
            "tripoley_interaction_ack_seconds",
            "Seconds from an interaction's receipt to its acknowledgement's request.",
            buckets=buckets,
            sum_value=self.traffic.ack_sum,
        )


def registry_for(collector: BotCollector) -> CollectorRegistry:
    """A registry of the bot's own (not the process-wide default one: two bots in one test process
    would collide there)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    # The standard figures of any Python service: CPU, memory, open files (process_*), the Python
    # build (python_info), the garbage collector (python_gc_*).
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return registry
