"""Unexpected errors reported where an operator sees them, not only in the log.

- With ``SENTRY_DSN`` (and the ``sentry-sdk`` package, the ``sentry`` extra): every ERROR logged with
  a traceback becomes a Sentry event, the release and the shard on it. No local variables, no
  personal data, and every string of an event (breadcrumbs too) passes the log's token redaction
  before it leaves (:func:`setup_sentry`).
- Otherwise (``ERROR_REPORTS=owner``, the default): :class:`OwnerReports` summarises the tracebacks to
  the application's owner by DM, at most one message per :data:`REPORT_INTERVAL`, each kind of error
  counted once with how often it came. The bot wires its ``send`` (bot.discordio.client).

Routine refusals are never ERRORs with tracebacks (bot.errors, Discord's 10062 and the like), so what
reaches either is what an operator should look at.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import __version__
from bot.logsetup import RedactingFilter

log = logging.getLogger(__name__)

REPORT_INTERVAL = 900.0  # seconds between two reports to the owner (the first one goes at once)
REPORTED_KINDS = 10  # kinds of error one report lists (the rest are counted)


def setup_sentry(dsn: str, redactor: RedactingFilter, environment: str | None = None) -> bool:
    """Start Sentry's client for this process; False (and a warning) when sentry-sdk is missing."""
    try:
        import sentry_sdk
        from sentry_sdk.integrations.logging import LoggingIntegration
    except ImportError:
        log.warning("SENTRY_DSN is set but sentry-sdk is not installed (pip install 'tripoley-bot[sentry]')")
        return False

    def scrubbed(event: Any, hint: Any) -> Any:
        return _redacted(event, redactor)

    sentry_sdk.init(
        dsn=dsn,
        release=f"tripoley-bot@{__version__}",
        environment=environment,
        send_default_pii=False,
        include_local_variables=False,  # a frame's locals may hold a hand, a token or a player's name
        integrations=[LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)],
        before_send=scrubbed,
        before_breadcrumb=scrubbed,
        traces_sample_rate=0.0,
    )
    log.info("errors are reported to Sentry")
    return True


def _redacted(value: Any, redactor: RedactingFilter) -> Any:
    """Every string inside ``value`` (dicts, lists, tuples) with the token redacted."""
    if isinstance(value, str):
        return redactor.redact(value)
    if isinstance(value, dict):
        return {key: _redacted(item, redactor) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_redacted(item, redactor) for item in value)
    return value


@dataclass
class ErrorSeen:
    """One kind of error since the last report: where it was raised and what it said the first time."""

    kind: str  # e.g. "KeyError"
    where: str  # "bot/tables/flow.py:123 in deal"
    logger: str
    message: str  # the log line and the exception's text, redacted, as first seen
    count: int = 1


class OwnerReports(logging.Handler):
    """A logging handler that collects ERROR records with a traceback and has them summarised to the
    owner (``send`` gets the text; ``words`` makes it: bot.messages). Thread-safe: a record logged in a
    render thread is handed to the event loop."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        words: Callable[[list[ErrorSeen], int], str],
        loop: asyncio.AbstractEventLoop,
        redactor: RedactingFilter,
        interval: float = REPORT_INTERVAL,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(level=logging.ERROR)
        self.send, self.words, self.loop = send, words, loop
        self.redactor = redactor
        self.interval = interval
        self.monotonic = monotonic
        self.seen: dict[tuple[str, str], ErrorSeen] = {}
        self.last_sent: float | None = None
        self._flushing: asyncio.TimerHandle | asyncio.Handle | None = None
        self.sent = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info is None or record.exc_info[1] is None or record.name == __name__:
            return  # a traceback is what makes it unexpected; our own failures are not reported again
        try:
            seen = self._seen(record)
        except Exception:  # noqa: BLE001 - a handler must never raise into the code that logged
            self.handleError(record)
            return
        self.loop.call_soon_threadsafe(self._add, seen)

    def _seen(self, record: logging.LogRecord) -> ErrorSeen:
        assert record.exc_info is not None and record.exc_info[1] is not None  # emit() checked
        exc, tb = record.exc_info[1], record.exc_info[2]
        frame = tb
        while frame is not None and frame.tb_next is not None:
            frame = frame.tb_next
        where = "?"
        if frame is not None:
            code = frame.tb_frame.f_code
            where = f"{_short_path(code.co_filename)}:{frame.tb_lineno} in {code.co_name}"
        text = f"{record.getMessage()}: {exc}" if str(exc) else record.getMessage()
        return ErrorSeen(type(exc).__name__, where, record.name, self.redactor.redact(text)[:300])

    def _add(self, seen: ErrorSeen) -> None:
        key = (seen.kind, seen.where)
        if key in self.seen:
            self.seen[key].count += 1
        else:
            self.seen[key] = seen
        if self._flushing is None:
            wait = 0.0 if self.last_sent is None else max(0.0, self.last_sent + self.interval - self.monotonic())
            self._flushing = self.loop.call_later(wait, lambda: asyncio.ensure_future(self._flush()))

    async def _flush(self) -> None:
        seen, self.seen = sorted(self.seen.values(), key=lambda s: -s.count), {}
        self._flushing = None
        self.last_sent = self.monotonic()
        if not seen:
            return
        try:
            await self.send(self.words(seen[:REPORTED_KINDS], sum(s.count for s in seen[REPORTED_KINDS:])))
            self.sent += 1
        except Exception as exc:  # noqa: BLE001 - DMs closed, Discord away: the log has them anyway
            log.warning("could not report %d error(s) to the owner: %s", len(seen), exc)


PROJECT = str(Path(__file__).resolve().parents[1]) + "/"  # the checkout (or the install's site-packages)


def _short_path(path: str) -> str:
    """``/opt/tripoley-bot/bot/tables/flow.py`` → ``bot/tables/flow.py``; a library's file from its package."""
    if path.startswith(PROJECT):
        return path[len(PROJECT) :]
    _, found, inside = path.rpartition("/site-packages/")
    return inside if found else path.rsplit("/", 1)[-1]
