"""When a click was made, on the game's clock: a click that arrives late because of the bot (a
gateway outage replays it on RESUME, a stalled event loop reads it late) is judged by when it was
made, not by when it arrived (:meth:`bot.tables.play.Play.act`'s ``made_at``).

An interaction's id is a snowflake: ``(id >> 22) + 1420070400000`` is the millisecond Discord
created it, on Discord's clock, which is not the player's (a wrong clock on their device changes
nothing). The bot's clock and Discord's differ by an offset, plus the way here; both are learnt
from the recent interactions: the smallest lag (arrival on the game's clock minus creation) of the
last :data:`LEARN_FROM` is how fast an interaction comes when nothing holds it up. The game's clock
is monotonic (bot.tables.clock), so a wall-clock step changes no lag.
"""

from __future__ import annotations

from collections import OrderedDict, deque

from bot.tables.clock import Clock

DISCORD_EPOCH_MS = 1420070400000
LEARN_FROM = 64  # recent interactions whose lags give the usual one
KEEP = 1024  # interactions whose times are kept (a click is handled within seconds of its arrival)


def created_at(snowflake: int) -> float:
    """The Unix time, by Discord's clock, at which the snowflake was made."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000.0


class ClickTimes:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._lags: deque[float] = deque(maxlen=LEARN_FROM)
        self._made: OrderedDict[int, float] = OrderedDict()  # interaction id → made at (game's clock)

    def arrived(self, interaction_id: int) -> float:
        """An interaction just arrived (its payload read from the gateway): when it was made, on the
        game's clock (its creation on Discord's clock, moved by the usual lag)."""
        created = created_at(interaction_id)
        self._lags.append(self.clock.now() - created)
        made = created + min(self._lags)
        self._made[interaction_id] = made
        while len(self._made) > KEEP:
            self._made.popitem(last=False)
        return made

    def made_at(self, interaction_id: int) -> float | None:
        """When the interaction was made (None: not seen arriving)."""
        return self._made.get(interaction_id)
