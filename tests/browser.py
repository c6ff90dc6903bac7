"""A real browser for the web pages' tests: Debian's chromium (``/usr/bin/chromium``; scripts/test.sh
installs it in CI, ``--with-chromium`` elsewhere), driven by Playwright for Python (never ``playwright
install``: the system's browser is launched by its path).

One browser for the whole session, in a thread of its own with its own event loop, so that it
outlives each test's event loop (the bot and the web server under test run on that one). A test
hands it coroutines to run there: :meth:`Browser.tab` opens a page whose console errors are kept,
:meth:`Tab.do` runs ``fn(page)`` in the browser's loop and returns what it returns.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "web"
T = TypeVar("T")


def unavailable() -> str | None:
    """Why no browser test can run here, or None."""
    if not CHROMIUM.exists():
        return (
            f"no {CHROMIUM}: install Debian's chromium (apt-get install chromium, or scripts/test.sh --with-chromium)"
        )
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (the test extra: bash scripts/setup.sh test)"
    return None


class Tab:
    """One page of its own context (cookies, storage), with the errors its console showed."""

    def __init__(self, browser: Browser, page: Any, errors: list[str]) -> None:
        self.browser = browser
        self.page = page
        self.errors = errors

    async def do(self, fn: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """``await fn(page)``, in the browser's loop."""
        return await self.browser.call(fn(self.page))

    async def close(self) -> None:
        await self.browser.call(self.page.context.close())


class Browser:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="browser", daemon=True)
        self.playwright: Any = None
        self.chromium: Any = None

    def start(self) -> Browser:
        self.thread.start()
        self._wait(self._launch())
        return self

    async def _launch(self) -> None:
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        self.chromium = await self.playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)

    def stop(self) -> None:
        async def close() -> None:
            await self.chromium.close()
            await self.playwright.stop()

        self._wait(close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def _wait(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        return future.result(60)

    async def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` in the browser's loop and wait for it in the caller's."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        return await asyncio.wrap_future(future)

    async def tab(self, width: int = 1280, height: int = 900) -> Tab:
        """A new page at this window size; its console errors and uncaught exceptions are kept."""
        errors: list[str] = []

        async def open_page() -> Any:
            context = await self.chromium.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(10_000 * float(os.environ.get("FAKEDISCORD_PATIENCE", "4")) / 4)
            page = await context.new_page()
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            return page

        return Tab(self, await self.call(open_page()), errors)


def screenshot_path(name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS / f"{name}.png"
