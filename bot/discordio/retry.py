"""When the publisher tries a failed send again: the one retry policy of a channel's jobs.

A send fails when discord.py gives up (after five 429s in a row, a 5xx, a network error) or Discord
refuses it. A refusal (:func:`~bot.messages.outgoing.retryable`: a 400, 401, 403, 404, a channel
lost) is never tried again. Otherwise the job is tried again after ``base`` seconds, doubled at each
failure in a row up to ``maximum``: the table's state (and a lobby's first message) until it goes
through or a newer state replaces it, so the channel always ends up showing the latest state; the
messages of their own that only tell what the state shows too (a round's results, the closing of a
lobby or an old round's message) :data:`BEST_EFFORT_RETRIES` times, then they are given up.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.discordio.channeljobs import Job
from bot.messages.outgoing import retryable

BEST_EFFORT_RETRIES = 3
# Jobs given up after BEST_EFFORT_RETRIES; the others are tried until they go through.
BEST_EFFORT = frozenset({Job.STORY, Job.CLOSE, Job.STRIP})
# Jobs whose giving up is routine (one warning line, no traceback: the message just keeps its buttons).
QUIET = frozenset({Job.CLOSE, Job.STRIP})


@dataclass(frozen=True)
class RetryPolicy:
    base: float = 0.5  # seconds before the first retry
    maximum: float = 15.0  # the longest wait between two tries

    def after(self, job: Job, failures: int, exc: BaseException) -> float | None:
        """Seconds to wait before trying ``job`` again after its ``failures``-th failure in a row
        (``exc``: the last); None: it is given up."""
        if not retryable(exc) or (job in BEST_EFFORT and failures > BEST_EFFORT_RETRIES):
            return None
        return min(self.base * 2.0 ** (failures - 1), self.maximum)
