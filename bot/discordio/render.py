"""Images for the messages, rendered off the event loop and cached by view content.

Rendering a mat (Pillow drawing plus PNG encoding, ~10 ms, more for big tables) is
CPU work that holds the GIL for most of its time: in a thread of the bot's process it
would slow the event loop down, and with it every interaction's acknowledgement. So
the bot renders in a separate worker process (:func:`process_pool`, niced, one
worker by default); tests and the fallback use threads.

:class:`ImageService` caches the PNG bytes by the view's content (the same view gives
the same bytes, ``docs/images.md``), so a re-sent or retried message, a mat whose
text changed but not its picture, or "Show my hand" pressed twice costs nothing, and
it shares one rendering between callers asking for the same view at the same time.

This module must stay importable without discord.py: the worker process imports it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import io
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

Renderer = Callable[[str, dict[str, Any]], Any]
Image = tuple[bytes | None, str | None]  # PNG bytes, alt text


def default_renderer() -> Renderer | None:
    """``images.render_mat`` / ``render_hand`` / ``render_summary`` when the package provides them."""
    try:
        import images
    except Exception:  # pragma: no cover - images missing
        return None

    def render(kind: str, view: dict[str, Any]) -> Any:
        try:
            fn = getattr(images, f"render_{kind}", None)
        except ImportError:  # that renderer is not written yet
            return None
        if fn is None:
            return None
        return fn(view)

    return render


def as_image(result: Any) -> Image:
    """A renderer's result (``Rendered``, bytes or None) as (png, alt)."""
    if result is None:
        return None, None
    if isinstance(result, (bytes, bytearray)):
        return bytes(result), None
    png = getattr(result, "png", None)
    return (bytes(png) if png else None), getattr(result, "alt", None)


COMPACT_KINDS = frozenset({"mat", "summary"})  # the public pictures, uploaded again at each change


def rendered(kind: str, result: Any) -> Image:
    """:func:`as_image`, with the public pictures made compact (:func:`compact_png`)."""
    png, alt = as_image(result)
    return (compact_png(png) if png and kind in COMPACT_KINDS else png), alt


def compact_png(png: bytes) -> bytes:
    """The same picture in at most 256 colours: the mats and hands are drawn in flat colours, so
    nothing visible changes and the file is about a third as big (~17 KB instead of ~50 KB for a
    4-seat mat; every table edit that changes the picture uploads it again). Costs ~14 ms in the
    render process (a private hand view, small and sent once per move, is left as drawn). The
    original when that is not smaller or not a picture Pillow reads."""
    try:
        from PIL import Image as PILImage

        with PILImage.open(io.BytesIO(png)) as picture:
            fewer = picture.convert("RGB").quantize(colors=256, method=PILImage.Quantize.FASTOCTREE)
        out = io.BytesIO()
        fewer.save(out, format="PNG")
    except Exception:  # not a PNG Pillow can read (a test renderer's bytes)
        return png
    data = out.getvalue()
    return data if len(data) < len(png) else png


# -- the worker process -----------------------------------------------------------------

_worker_renderer: Renderer | None = None


def _worker_init(parent_pid: int, niceness: int, draws: bool = True) -> None:
    """In the worker: lower its priority (interactions first), exit if the bot dies; load the
    renderers when it ``draws`` (the AI workers of ``bot.tables.aiworker`` do not)."""
    global _worker_renderer
    if niceness:
        try:
            os.nice(niceness)
        except OSError:
            pass

    def watch() -> None:  # the bot was SIGKILLed: don't linger
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    _worker_renderer = default_renderer() if draws else None


def _worker_render(kind: str, view: dict[str, Any]) -> Image:
    if _worker_renderer is None:
        return None, None
    return rendered(kind, _worker_renderer(kind, view))


def _worker_warm() -> bool:
    """Import the renderers and draw one small picture (fonts, caches) before the first mat."""
    return _worker_renderer is not None


def process_pool(
    workers: int = 1, niceness: int = 5, draws: bool = True
) -> concurrent.futures.ProcessPoolExecutor | None:
    """A pool of render worker processes (spawned: the bot's threads and loop are not forked);
    ``draws=False``: the same niced, parent-watching workers without the renderers (AI decisions)."""
    import multiprocessing

    try:
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=max(1, workers),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
            initargs=(os.getpid(), niceness, draws),
        )
        pool.submit(_worker_warm)  # start the worker now, not at the first mat
        return pool
    except Exception:  # pragma: no cover - no multiprocessing here: threads will do
        log.exception("could not start the render process; rendering in threads")
        return None


# -- the service ----------------------------------------------------------------------------


def view_key(kind: str, view: dict[str, Any]) -> bytes:
    data = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str).encode()
    return hashlib.blake2b(kind.encode() + b"\0" + data, digest_size=16).digest()


class ImageService:
    """``await service.render(kind, view)`` → (png, alt), cached; (None, None) on any failure."""

    def __init__(
        self,
        renderer: Renderer | None,
        executor: concurrent.futures.Executor | None = None,
        cache_size: int = 96,
    ) -> None:
        self.renderer = renderer  # in-process renderer: threads (tests, fallback)
        self.executor = executor  # a process pool: runs ``images`` there instead
        self.cache_size = cache_size
        self._cache: OrderedDict[bytes, Image] = OrderedDict()
        self._inflight: dict[bytes, asyncio.Future[Image]] = {}
        self.rendering = 0  # pictures being drawn or queued for a worker now (the metrics' render queue)

    @property
    def enabled(self) -> bool:
        return self.renderer is not None or self.executor is not None

    async def render(self, kind: str | None, view: dict[str, Any] | None, key: bytes | None = None) -> Image:
        """``key``: the view's :func:`view_key`, when the caller has it already."""
        if not self.enabled or kind is None or view is None:
            return None, None
        if key is None:
            try:
                key = view_key(kind, view)
            except (TypeError, ValueError):
                key = None
        if key is not None:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
            pending = self._inflight.get(key)
            if pending is not None:
                return await asyncio.shield(pending)
        future: asyncio.Future[Image] = asyncio.get_running_loop().create_future()
        if key is not None:
            self._inflight[key] = future
        try:
            image = await self._render(kind, view)
            if key is not None and image[0] is not None:
                self._cache[key] = image
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            future.set_result(image)
            return image
        finally:
            if not future.done():
                future.set_result((None, None))
            if key is not None:
                self._inflight.pop(key, None)

    async def _render(self, kind: str, view: dict[str, Any]) -> Image:
        self.rendering += 1
        try:
            if self.executor is not None:
                try:
                    loop = asyncio.get_running_loop()
                    return await loop.run_in_executor(self.executor, _worker_render, kind, view)
                except BrokenProcessPool:
                    log.error("the render process died; rendering in threads from now on")
                    self.executor = None
                    if self.renderer is None:
                        self.renderer = default_renderer()
            renderer = self.renderer
            if renderer is None:
                return None, None
            return await asyncio.to_thread(lambda: rendered(kind, renderer(kind, view)))
        except Exception:
            log.exception("rendering the %s image failed", kind)
            return None, None
        finally:
            self.rendering -= 1

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
