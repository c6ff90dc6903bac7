"""The web pages' fixture: the pages on a real HTTP server over the test database (``web``); the
browser is tests/conftest.py's."""

from __future__ import annotations

import aiohttp
import pytest

from bot.messages.weblinks import WebLinks
from bot.web.live import LiveHub
from bot.web.pages import Pages
from bot.web.server import WebServer
from bot.web.store import WebStore

PUBLIC = "https://tripoley.example.org"


@pytest.fixture
async def web(db, manager):
    """A WebServer on a free port (``.session``: an HTTP client to it; ``.base``: its address)."""
    store = WebStore(db)
    links = WebLinks(PUBLIC, await store.site_key())
    hub = LiveHub(manager.registry.get_by_id, links.replay_url)
    server = WebServer(Pages(links, store, manager.store, manager.bank, hub), "127.0.0.1", 0)
    await server.start()
    server.base = f"http://127.0.0.1:{server.port}"
    async with aiohttp.ClientSession(server.base) as session:
        server.session = session
        yield server
    await server.stop()
