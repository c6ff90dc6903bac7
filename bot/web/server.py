"""The web server (``WEB_ADDRESS``): aiohttp in the bot's own process, read-only, beside (never on)
the health and metrics address.

Every response carries the headers of :mod:`bot.web.headers` (a strict Content-Security-Policy:
no inline script, no frames). Each client address has a budget of requests
(:class:`RequestBudget`); past it the answer is 429. Only GET (and HEAD) routes exist: a viewer can
read, never act.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources

from aiohttp import web

from bot.messages.weblinks import BOARD, WebLinks
from bot.storage.database import Database
from bot.tables.manager import TableManager
from bot.web.headers import secure
from bot.web.live import LiveHub
from bot.web.pages import Pages
from bot.web.store import WebStore

log = logging.getLogger(__name__)

BURST = 120  # requests an address may make at once
REFILL = 2.0  # requests a second an address earns back (120 a minute)
MOST_ADDRESSES = 10_000  # addresses remembered; the idle ones are forgotten past it

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Budget:
    tokens: float
    at: float


class RequestBudget:
    """A token bucket per client address: :data:`BURST` requests at once, :data:`REFILL` a second
    after that. ``clock``: monotonic seconds (a fake one in tests)."""

    def __init__(self, burst: float = BURST, refill: float = REFILL, clock: Callable[[], float] = time.monotonic):
        self.burst = burst
        self.refill = refill
        self.clock = clock
        self.budgets: dict[str, Budget] = {}

    def allow(self, address: str) -> bool:
        now = self.clock()
        budget = self.budgets.get(address)
        if budget is None:
            if len(self.budgets) >= MOST_ADDRESSES:
                self._forget_idle(now)
            budget = self.budgets[address] = Budget(self.burst, now)
        budget.tokens = min(self.burst, budget.tokens + (now - budget.at) * self.refill)
        budget.at = now
        if budget.tokens < 1:
            return False
        budget.tokens -= 1
        return True

    def _forget_idle(self, now: float) -> None:
        """Forget the addresses whose budget is full again (they are as if never seen)."""
        full = self.burst / self.refill
        for address in [a for a, b in self.budgets.items() if now - b.at >= full]:
            del self.budgets[address]


def client_address(request: web.Request) -> str:
    """Who asks: the peer, or, when the peer is this machine (the reverse proxy of docs/web.md), the
    address the proxy put last in ``X-Forwarded-For`` (the one it saw; the earlier ones a client can
    write itself)."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and _is_loopback(peer):
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return peer


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebServer:
    """The pages on ``host:port`` (port 0: a free one, see :attr:`port`)."""

    def __init__(self, pages: Pages, host: str, port: int, budget: RequestBudget | None = None) -> None:
        self.pages = pages
        self.host = host
        self.port = port
        self.budget = budget or RequestBudget()
        app = web.Application(middlewares=[self._guard])
        pages.route(app.router)
        static = resources.files("bot.web") / "static"
        app.router.add_static("/static/", str(static), show_index=False, follow_symlinks=False)
        self.app = app
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)

    async def start(self) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]  # the one chosen for port 0
        log.info("web pages on http://%s:%d/ (links: %s)", self.host, self.port, self.pages.links.public_url)

    async def stop(self) -> None:
        BOARD.configure(None)  # the messages link to pages no longer served
        self.pages.close()  # the live streams end, so the shutdown does not wait for them
        await self._runner.cleanup()

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The request budget, the pages for 404 and 429, and the security headers on every answer."""
        response: web.StreamResponse
        if not self.budget.allow(client_address(request)):
            response = self.pages.refusal(429)
            response.headers["Retry-After"] = "60"
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = self.pages.refusal(404)
            except web.HTTPMethodNotAllowed:
                response = web.Response(status=405, text="")
        return response if response.prepared else secure(response)


async def open_web(manager: TableManager, db: Database, public_url: str, host: str, port: int) -> WebServer:
    """The web pages started for the bot: the site key read (made at the first start), the links
    the bot's messages carry set, the live hub listening to the tables."""
    store = WebStore(db)
    links = WebLinks(public_url, await store.site_key())
    hub = LiveHub(manager.registry.get_by_id, links.replay_url)
    manager.registry.add_listener(hub.on_update)
    server = WebServer(Pages(links, store, manager.store, manager.bank, hub), host, port)
    await server.start()
    BOARD.configure(links)
    return server
