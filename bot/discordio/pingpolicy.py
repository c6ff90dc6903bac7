"""When a turn ping helps: how long it waits for the player, learnt from the player.

A ping for a player who is watching the table only adds noise (with a fixed 5 s delay, half of all
turns were pinged). So a ping waits

* while the player is watching: ``watching`` seconds (default 60) after their own last move at this
  table, no ping (they moved a moment ago, the table message in front of them);
* for as long as the player usually takes: twice the median of their last answer times (how long
  from a decision being theirs to their move), never less than ``base`` (``PING_DELAY``, also the
  delay for a player not seen yet) nor more than ``MAX_DELAY``;

and at the latest ``WARNING`` seconds before the decision's time runs out (a reminder while there is
still time to act), though never before the learnt delay. Answers the timer or an AI gave teach
nothing. Only the monotonic clock is read: the policy is the same in a test with a fake one.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

# A decision players are pinged for: (its round, its token, the seats asked).
DecisionKey = tuple[int, str, tuple[int, ...]]

WATCHING = 60.0  # seconds after a player's own move in which they are taken to be watching the table
MAX_DELAY = 30.0  # seconds: the longest a learnt delay gets (the turn timer is a minute by default)
FACTOR = 2.0  # a ping when the player has taken twice their usual time
SAMPLES = 15  # answer times kept per player (the median of the last ones: a habit, not one slow turn)
LEARN_FROM = 3  # answers needed before the delay is learnt
WARNING = 20.0  # seconds before the time runs out that a ping goes out at the latest
KEEP = 10_000  # players and tables remembered at most (the oldest are forgotten first)


@dataclass
class _Open:
    key: DecisionKey
    user_id: int
    seat: int
    since: float


class PingPolicy:
    """Per player: their last moves at each table and their answer times; per table: the decision open."""

    def __init__(
        self, base: float, watching: float = WATCHING, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.base = base
        self.watching = watching
        self._monotonic = monotonic
        self._open: dict[int, _Open] = {}  # table id → the player's decision it waits for
        self._acted: dict[tuple[int, int], float] = {}  # (table id, user id) → their last own move
        self._answers: dict[int, deque[float]] = {}  # user id → their last answer times (seconds)

    def begin(self, table_id: int, key: DecisionKey, user_id: int, seat: int) -> None:
        """The decision ``key`` (seat ``seat``, player ``user_id``) is open from now (once per decision)."""
        current = self._open.get(table_id)
        if current is None or current.key != key:
            self._open[table_id] = _Open(key, user_id, seat, self._monotonic())

    def end(self, table_id: int, key: DecisionKey | None, by_player: Callable[[int], bool]) -> tuple[int, bool] | None:
        """The table waits for ``key`` now (None: for nobody at the keyboard): the decision open
        before, if another, is over. ``by_player(seat)``: whether that seat's player made it (not the
        timer or an AI). Returns (its player, made by them), or None when none ended."""
        current = self._open.get(table_id)
        if current is None or current.key == key:
            return None
        del self._open[table_id]
        acted = by_player(current.seat)
        if acted:
            now = self._monotonic()
            self._acted.pop((table_id, current.user_id), None)
            self._acted[(table_id, current.user_id)] = now
            answers = self._answers.pop(current.user_id, None) or deque(maxlen=SAMPLES)
            answers.append(max(0.0, now - current.since))
            self._answers[current.user_id] = answers  # re-inserted: the dict keeps the most recent last
            self._trim()
        return current.user_id, acted

    def usual_delay(self, user_id: int) -> float:
        """The player's own delay: twice their median answer time, within ``base`` … MAX_DELAY."""
        answers = self._answers.get(user_id)
        if not answers or len(answers) < LEARN_FROM:
            return self.base
        return min(max(FACTOR * statistics.median(answers), self.base), max(MAX_DELAY, self.base))

    def delay(self, table_id: int, user_id: int, time_left: float | None) -> float:
        """Seconds the ping for ``user_id``'s decision at this table waits (``time_left``: until the
        decision's time runs out, None without a timer)."""
        usual = self.usual_delay(user_id)
        wait = usual
        last = self._acted.get((table_id, user_id))
        if last is not None:
            wait = max(wait, last + self.watching - self._monotonic())
        if time_left is not None:
            wait = max(min(wait, time_left - WARNING), usual)
        return wait

    def forget(self, table_id: int) -> None:
        """A table that ended: its open decision and its players' last moves there."""
        self._open.pop(table_id, None)
        for key in [k for k in self._acted if k[0] == table_id]:
            del self._acted[key]

    def _trim(self) -> None:
        while len(self._acted) > KEEP:
            del self._acted[next(iter(self._acted))]
        while len(self._answers) > KEEP:
            del self._answers[next(iter(self._answers))]
