"""Keeping the bot's own REST calls under Discord's global limit.

Discord lets a bot make about 50 requests a second (interaction answers aside: they are not
counted). A bot over it gets 429s, and discord.py then holds back every request until the limit
resets, the acknowledgements of clicks included, which must come within 3 s. The publisher's
table messages, turn pings, DMs and the like therefore go out through one :class:`Pacer` at a
steady rate (a little under the limit); what waits meanwhile is coalesced by the publisher (the
newest state of a table wins), so the tables play on and the messages catch up.

The limit is the bot token's, shared by every shard and process of a cluster: a process paces at
its share of ``REST_RATE`` (:meth:`bot.settings.Settings.rest_share`: by the shards it runs), so
the processes together stay under it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable

WINDOW = 1.0  # seconds: Discord counts the global limit per second
BURST_WINDOW = 0.1  # seconds: at most this share of the rate leaves within any such span


class Pacer:
    """``await pacer()`` before a request: at most ``rate`` a second, in the order they came
    (each takes the next free slot; ``rate`` 0: no pacing).

    Slots alone are not enough: a request that left its slot may still wait inside discord.py
    (for its route's bucket, for a retry after a 429) or behind a stalled event loop, and then go
    out with those that took the slots after it; Discord counts requests as they arrive. So every
    request counted against the global limit also passes :meth:`going_out` as it really leaves
    (an ``aiohttp`` trace on discord.py's session: bot.discordio.metrics.DiscordTraffic), which
    waits until fewer than ``rate`` went out in the last :data:`WINDOW` (and a tenth of that in
    the last :data:`BURST_WINDOW`)."""

    def __init__(
        self,
        rate: float,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self._monotonic = monotonic
        self._sleep = sleep
        self._next = float("-inf")  # the next free slot
        self.waiting = 0  # requests waiting for their slot or their moment now (the metrics' pacer queue)
        self._sent: deque[float] = deque()  # when the requests of the last window went out

    async def __call__(self) -> None:
        if self.rate <= 0:
            return
        now = self._monotonic()
        slot = max(now, self._next)
        self._next = slot + 1 / self.rate
        if slot > now:
            self.waiting += 1
            try:
                await self._sleep(slot - now)
            finally:
                self.waiting -= 1

    async def going_out(self) -> None:
        """A counted request is leaving now: it waits while ``rate`` went out in the last window,
        or a tenth of that in the last tenth of it. After a pause of the event loop the requests
        it held back then leave spread out, not in bunches that a second counted by their
        arrival (a few ms later or earlier than by the bot's clock) could hold five of."""
        if self.rate <= 0:
            return
        while True:
            wait = self._wait(self._monotonic())
            if wait <= 0:
                self._sent.append(self._monotonic())
                return
            self.waiting += 1
            try:
                await self._sleep(wait)
            finally:
                self.waiting -= 1

    def _wait(self, now: float) -> float:
        """Seconds before a request may leave (0 or less: now)."""
        while self._sent and self._sent[0] <= now - WINDOW:
            self._sent.popleft()
        most = max(1, int(self.rate * WINDOW))
        if len(self._sent) >= most:
            return self._sent[0] + WINDOW - now
        burst = max(1, math.ceil(self.rate * BURST_WINDOW))
        if len(self._sent) >= burst:
            return self._sent[-burst] + BURST_WINDOW - now
        return 0.0
