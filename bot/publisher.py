"""Coalesced table messages.

Every :class:`~bot.tables.TableUpdate` becomes an :class:`Outgoing` message
right away (cheap: text and component specs), but at most one send/edit per
channel is in flight: while one runs, newer updates replace the pending one,
so the newest state always wins and a burst of AI moves costs one edit. Each
message (lobby or mat) is edited at most once per ``min_interval`` (1 s): an
update that comes sooner waits, and is replaced by any newer one meanwhile. A
new round gets a fresh mat message (edits of old messages are rate limited
harder). Images are rendered off the event loop (``asyncio.to_thread``).

Publishing is fire-and-forget: the table manager only calls the synchronous
:meth:`Publisher.on_update`, and nothing in the game ever waits on Discord.
A send that fails (discord.py gives up after five 429s in a row, a 5xx, a
network error) is logged and retried with a backoff until it goes through or
a newer state replaces it, so the channel always ends up showing the latest
state.

The actual sending goes through a :class:`Sink` (Discord in production, a
recorder in tests).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from . import text
from .components import Component, hand_components, lobby_components, mat_components
from .tables import Table, TableManager, TableUpdate

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


class MessageGone(Exception):
    """The message to edit no longer exists."""


class DMForbidden(Exception):
    """The user does not accept DMs from the bot."""


@dataclass
class Outgoing:
    text: str
    components: list[Component] = field(default_factory=list)
    image: bytes | None = None
    image_name: str = "mat.png"
    alt: str | None = None
    view: dict | None = None  # the public view to render the image from
    render: str | None = None  # which renderer: mat | hand | summary
    mentions: bool = True
    rendered: bool = False  # the image was rendered already (or could not be)

    def clipped(self) -> str:
        if len(self.text) <= MAX_CONTENT:
            return self.text
        return self.text[: MAX_CONTENT - 1] + "…"


class Sink(Protocol):
    async def post(self, channel_id: int, out: Outgoing) -> int: ...

    async def edit(self, channel_id: int, message_id: int, out: Outgoing) -> None: ...

    async def dm(self, user_id: int, out: Outgoing) -> None: ...

    async def notice(self, channel_id: int, content: str) -> None: ...

    async def strip(self, channel_id: int, message_id: int) -> None: ...


Renderer = Callable[[str, dict], Any]


def default_renderer() -> Renderer | None:
    """``images.render_mat`` / ``render_hand`` / ``render_summary`` when the package provides them."""
    try:
        import images
    except Exception:  # pragma: no cover - images missing
        return None

    def render(kind: str, view: dict):
        try:
            fn = getattr(images, f"render_{kind}", None)
        except ImportError:  # that renderer is not written yet
            return None
        if fn is None:
            return None
        return fn(view)

    return render


async def render_image(renderer: Renderer | None, kind: str | None, view: dict | None) -> tuple[bytes | None, str | None]:
    """PNG bytes and alt text, rendered in a worker thread; (None, None) on any failure."""
    if renderer is None or kind is None or view is None:
        return None, None
    try:
        result = await asyncio.to_thread(renderer, kind, view)
    except Exception:
        log.exception("rendering the %s image failed", kind)
        return None, None
    if result is None:
        return None, None
    if isinstance(result, (bytes, bytearray)):
        return bytes(result), None
    png = getattr(result, "png", None)
    return (bytes(png) if png else None), getattr(result, "alt", None)


def lobby_message(table: Table) -> Outgoing:
    return Outgoing(text.lobby_text(table, table.preset_info), lobby_components(table))


def table_message(table: Table) -> Outgoing:
    """The message for a table's current state (lobby, mat, results)."""
    if table.status == "lobby":
        return lobby_message(table)
    if table.status == "cancelled":
        return Outgoing(text.cancelled_text(table, table.preset_info), [])
    if table.status == "finished":
        view = table.game.view(None) if table.game is not None else None
        return Outgoing(text.final_text(table), [], view=view, render="summary", image_name="summary.png")
    view = table.game.view(None)
    return Outgoing(text.mat_text(table, view), mat_components(table), view=view, render="mat")


def hand_message(table: Table, seat: int, view: dict, choice: str | None = None) -> Outgoing:
    return Outgoing(
        text.hand_text(view, seat), hand_components(table, seat, view, choice), view=view, render="hand",
        image_name="hand.png",
    )


def retryable(exc: BaseException) -> bool:
    """Whether sending again may work: rate limits, server errors and network trouble, yes;
    a request Discord refuses as such (400 bad request, 401, 403 missing access, 404), no."""
    status = getattr(exc, "status", None)
    return not (isinstance(status, int) and status in (400, 401, 403, 404))


def describe_error(exc: BaseException) -> str:
    status = getattr(exc, "status", None)
    return f"{type(exc).__name__} {status}" if status else type(exc).__name__


@dataclass
class _Pending:
    table: Table
    kind: str
    round: int
    out: Outgoing


class Publisher:
    def __init__(
        self,
        manager: TableManager,
        sink: Sink,
        renderer: Renderer | None = None,
        *,
        retry_base: float = 0.5,
        retry_max: float = 15.0,
        min_interval: float = 1.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.manager = manager
        self.sink = sink
        self.renderer = renderer
        self.retry_base = retry_base  # first retry delay after a failed send (doubles up to retry_max)
        self.retry_max = retry_max
        self.min_interval = min_interval  # at most one edit per message per this many seconds
        self._monotonic = monotonic
        self._last_edit: dict[int, float] = {}  # message id → when it was last edited
        self._pending: dict[int, _Pending] = {}
        self._workers: dict[int, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()
        self._lobby_closed: set[int] = set()
        self._dm_warned: set[tuple[int, int]] = set()
        manager.add_listener(self.on_update)

    # -- entry point (synchronous, cheap) ---------------------------------------

    def on_update(self, update: TableUpdate) -> None:
        table = update.table
        self.publish(table)
        if update.dealt and table.game is not None:
            views = {
                i: table.game.view(i)
                for i, seat in enumerate(table.seats)
                if seat.user_id is not None and not seat.left
            }
            self._spawn(self._send_hands(table, views))

    def publish(self, table: Table) -> None:
        self._pending[table.channel_id] = _Pending(table, table.status, table.round, table_message(table))
        worker = self._workers.get(table.channel_id)
        if worker is None or worker.done():
            self._workers[table.channel_id] = asyncio.create_task(self._drain(table.channel_id))

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait until every pending message is sent (tests, shutdown)."""
        while True:
            busy = [t for t in list(self._workers.values()) + list(self._tasks) if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    # -- the per-channel worker --------------------------------------------------

    async def _drain(self, channel_id: int) -> None:
        failures = 0
        while True:
            item = self._pending.pop(channel_id, None)
            if item is None:
                return
            wait = self._edit_wait(item)
            if wait > 0:
                # Too soon after the last edit of that message: wait, then send the newest state.
                self._pending.setdefault(channel_id, item)
                await asyncio.sleep(wait)
                continue
            try:
                await self._send(item)
            except Exception as exc:
                if not retryable(exc):
                    failures = 0
                    log.exception("could not update the table message in channel %s; giving up on it", channel_id)
                    continue
                failures += 1
                delay = min(self.retry_base * 2 ** (failures - 1), self.retry_max)
                log.warning(
                    "could not update the table message in channel %s (attempt %d: %s); retrying in %.1f s",
                    channel_id, failures, describe_error(exc), delay,
                )
                # Retry this state unless a newer one came in meanwhile (newest wins).
                self._pending.setdefault(channel_id, item)
                await asyncio.sleep(delay)
            else:
                failures = 0

    # -- pacing ------------------------------------------------------------------------

    def _fresh(self, item: _Pending) -> bool:
        """Whether this game state goes to a new message (first mat, or a new round)."""
        table = item.table
        return table.mat_message_id is None or (item.kind == "playing" and table.mat_round != item.round)

    def _targets(self, item: _Pending) -> list[int]:
        """The messages sending this item would edit."""
        table = item.table
        if item.kind in ("lobby", "cancelled"):
            return [table.lobby_message_id] if table.lobby_message_id else []
        targets = []
        if table.lobby_message_id and table.id not in self._lobby_closed:
            targets.append(table.lobby_message_id)
        if not self._fresh(item):
            targets.append(table.mat_message_id)
        return targets

    def _pace_wait(self, message_ids: list[int]) -> float:
        now = self._monotonic()
        waits = [self._last_edit[m] + self.min_interval - now for m in message_ids if m in self._last_edit]
        return max(waits, default=0.0)

    def _edit_wait(self, item: _Pending) -> float:
        return self._pace_wait(self._targets(item)) if self.min_interval > 0 else 0.0

    async def _edit(self, channel_id: int, message_id: int, out: Outgoing) -> None:
        await self.sink.edit(channel_id, message_id, out)
        now = self._monotonic()
        self._last_edit[message_id] = now
        if len(self._last_edit) > 512:  # forget messages not edited lately
            self._last_edit = {m: t for m, t in self._last_edit.items() if t > now - self.min_interval}

    # -- sending -----------------------------------------------------------------------

    async def _send(self, item: _Pending) -> None:
        table, out = item.table, item.out
        channel = table.channel_id
        if item.kind in ("lobby", "cancelled"):
            if table.lobby_message_id:
                try:
                    await self._edit(channel, table.lobby_message_id, out)
                    return
                except MessageGone:
                    pass
            table.lobby_message_id = await self.sink.post(channel, out)
            await self.manager.set_message(table.id, "lobby", table.lobby_message_id)
            return
        # The game: close the lobby message once (retried with the next send if it fails; the
        # mat must not wait for it).
        if table.lobby_message_id and table.id not in self._lobby_closed:
            names = ", ".join(s.name for s in table.seats)
            closed = Outgoing(f"## 🃏 {table.preset_info.name} — game started\nPlayers: {names}", [], mentions=False)
            try:
                await self._edit(channel, table.lobby_message_id, closed)
                self._lobby_closed.add(table.id)
            except MessageGone:
                self._lobby_closed.add(table.id)
            except Exception as exc:
                log.warning("could not close the lobby message of table %s (%s)", table.id, describe_error(exc))
        if out.image is None and not out.rendered:
            out.image, out.alt = await render_image(self.renderer, out.render, out.view)
            out.rendered = True  # a retry of this message reuses the picture
        if not self._fresh(item):
            try:
                await self._edit(channel, table.mat_message_id, out)
                return
            except MessageGone:
                pass
        previous = table.mat_message_id
        message_id = await self.sink.post(channel, out)
        table.mat_message_id, table.mat_round = message_id, item.round
        await self.manager.set_message(table.id, "mat", message_id, item.round)
        if previous and previous != message_id:
            self._spawn(self._strip(channel, previous))

    async def _strip(self, channel_id: int, message_id: int) -> None:
        """The last round's message keeps its text, loses its buttons (best effort, off the worker)."""
        for attempt in range(3):
            wait = self._pace_wait([message_id]) if self.min_interval > 0 else 0.0
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self.sink.strip(channel_id, message_id)
                self._last_edit[message_id] = self._monotonic()
                return
            except Exception as exc:
                if not retryable(exc):
                    break
                await asyncio.sleep(min(self.retry_base * 2**attempt, self.retry_max))
        log.info("could not remove the buttons of message %s", message_id)

    # -- hands by DM --------------------------------------------------------------

    async def _send_hands(self, table: Table, views: dict[int, dict]) -> None:
        for seat_index, view in views.items():
            seat = table.seats[seat_index]
            try:
                if not await self.manager.prefs.dm_hands(seat.user_id):
                    continue
                out = hand_message(table, seat_index, view)
                out.components = []  # DMs carry no buttons: play happens in the channel
                out.text = f"**{table.preset_info.name}** in <#{table.channel_id}>\n" + out.text
                out.image, out.alt = await render_image(self.renderer, "hand", view)
                await self.sink.dm(seat.user_id, out)
            except DMForbidden:
                key = (table.id, seat.user_id)
                if key not in self._dm_warned:
                    self._dm_warned.add(key)
                    try:
                        await self.sink.notice(
                            table.channel_id,
                            f"<@{seat.user_id}> I couldn't DM you your hand (your DMs are closed to me). "
                            "Press **Show my hand** on the table message instead.",
                        )
                    except Exception:
                        log.exception("could not post the DM notice")
            except Exception:
                log.exception("could not DM the hand to a player")
