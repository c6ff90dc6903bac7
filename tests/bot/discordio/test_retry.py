"""The publisher's one retry policy (bot/discordio/retry.py): what is tried again, after how long,
and what is given up."""

from __future__ import annotations

from bot.discordio.channeljobs import Job
from bot.discordio.retry import BEST_EFFORT, BEST_EFFORT_RETRIES, RetryPolicy
from bot.messages.outgoing import ChannelLost


class Failure(Exception):
    """A failed request, with its HTTP status as discord.HTTPException carries it."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def failure(status: int) -> Exception:
    return Failure(status)


def test_the_wait_doubles_up_to_the_maximum() -> None:
    policy = RetryPolicy(base=0.5, maximum=3.0)
    waits = [policy.after(Job.STATE, n, failure(503)) for n in range(1, 7)]
    assert waits == [0.5, 1.0, 2.0, 3.0, 3.0, 3.0]


def test_the_state_and_the_lobby_post_are_tried_until_they_go_through() -> None:
    policy = RetryPolicy()
    for job in (Job.STATE, Job.FINAL, Job.LOBBY_POST):
        assert policy.after(job, 1000, failure(429)) is not None


def test_the_best_effort_messages_are_given_up_after_a_few_retries() -> None:
    policy = RetryPolicy()
    for job in BEST_EFFORT:
        assert policy.after(job, BEST_EFFORT_RETRIES, failure(500)) is not None
        assert policy.after(job, BEST_EFFORT_RETRIES + 1, failure(500)) is None


def test_a_refusal_is_never_tried_again() -> None:
    policy = RetryPolicy()
    for job in Job:
        assert policy.after(job, 1, failure(403)) is None
        assert policy.after(job, 1, ChannelLost(1, 10003)) is None
