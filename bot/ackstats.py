"""Bot-side interaction → acknowledgement timing (measurement only; off unless asked for).

With ``ACK_STATS_FILE=/path/stats.json`` in the environment, the bot records for every interaction
the time from its receipt (the gateway event parsed, before any handler runs) to the moment the
acknowledgement's HTTP request is started (``defer``, ``send_message``, ``edit_message``,
``send_modal``…), and to the moment Discord answered that request. At shutdown the figures (count,
median, p90, p99, max, in ms, whole run and by kind) are written to that file as JSON. This separates
the bot's own delay from the delays of the network and of the other end (e.g. a load-test driver).
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import Any

log = logging.getLogger(__name__)

ENV = "ACK_STATS_FILE"


def _kind(data: dict) -> str:
    t = data.get("type")
    d = data.get("data") or {}
    if t == 2:
        return "/" + str(d.get("name") or "command")
    if t == 5:
        return "modal"
    cid = d.get("custom_id") or ""
    action = cid.split(":")[-1].split(".")[0] if cid else "?"
    return ("select " if d.get("component_type") == 3 else "click ") + action


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(-(-q * len(xs) // 1)) - 1))]


def _summary(xs: list[float]) -> dict[str, Any]:
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "median_ms": round(_pct(xs, 0.5) * 1000, 2), "p90_ms": round(_pct(xs, 0.9) * 1000, 2),
            "p99_ms": round(_pct(xs, 0.99) * 1000, 2), "max_ms": round(max(xs) * 1000, 2)}


class AckStats:
    def __init__(self, path: str) -> None:
        self.path = path
        self.received: dict[int, tuple[float, str]] = {}  # interaction id → (perf_counter, kind)
        self.to_call: list[tuple[float, str, float]] = []  # (receipt → ack request started, kind, at)
        self.to_done: list[tuple[float, str]] = []  # receipt → ack request answered
        self.gc_pauses: list[tuple[int, float]] = []  # (generation, seconds) of each collection
        self._gc_began = 0.0

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        elif len(self.gc_pauses) < 100_000:
            self.gc_pauses.append((info.get("generation", -1), time.perf_counter() - self._gc_began))

    def install(self, bot) -> None:
        from discord.webhook import async_ as webhook_async

        import gc

        gc.callbacks.append(self._on_gc)
        parsers = bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def parse_interaction_create(data, _parse=parse):
            try:
                self.received[int(data["id"])] = (time.perf_counter(), _kind(data))
            except (KeyError, TypeError, ValueError):
                pass
            return _parse(data)

        parsers["INTERACTION_CREATE"] = parse_interaction_create

        adapter = webhook_async.AsyncWebhookAdapter
        original = adapter.create_interaction_response
        if getattr(original, "_ack_stats", False):
            return
        stats = self

        def create_interaction_response(self_, interaction_id, token, **kw):
            coro = original(self_, interaction_id, token, **kw)
            seen = stats.received.pop(int(interaction_id), None)
            if seen is None:
                return coro
            now = time.perf_counter()
            stats.to_call.append((now - seen[0], seen[1], now))

            async def timed():
                try:
                    return await coro
                finally:
                    stats.to_done.append((time.perf_counter() - seen[0], seen[1]))

            return timed()

        create_interaction_response._ack_stats = True  # type: ignore[attr-defined]
        adapter.create_interaction_response = create_interaction_response

    def report(self) -> dict[str, Any]:
        kinds: dict[str, list[float]] = {}
        for dt, kind, _ in self.to_call:
            kinds.setdefault(kind, []).append(dt)
        return {
            "receipt_to_ack_call": _summary([x for x, _, _ in self.to_call]),
            "receipt_to_ack_done": _summary([x for x, _ in self.to_done]),
            "by_kind_receipt_to_ack_call": {k: _summary(v) for k, v in sorted(kinds.items())},
            "never_acked": len(self.received),
            "gc_pauses": {str(g): _summary([d for gen, d in self.gc_pauses if gen == g]) for g in (0, 1, 2)},
            "samples": [[round(at, 4), round(dt * 1000, 2), kind] for dt, kind, at in self.to_call],
        }

    def write(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump(self.report(), f)
        except OSError as exc:
            log.warning("could not write the ack statistics: %s", exc)


def from_env() -> AckStats | None:
    path = os.environ.get(ENV)
    return AckStats(path) if path else None
