"""The error handler (bot.discordio.answering.report): Discord's routine refusals are logged as such (issue 30).

10062 (the answer came after Discord's 3 s) is one INFO line, nothing answered (nobody can be);
a 5xx that discord.py gave up retrying is a WARNING and the player is told to try again; neither
carries a traceback. Anything unexpected stays an error with its traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord

from bot.discordio.answering import report
from bot.messages.controls import GENERIC_FAILURE


class Interaction:
    """What :func:`report` touches of an interaction: its answer."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.response = SimpleNamespace(is_done=lambda: False, send_message=self._send)
        self.user = SimpleNamespace(id=1)
        self.id = 1234  # the log lines name it

    async def _send(self, content: str, **kwargs) -> None:
        self.sent.append(content)


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="refused"), {"code": code, "message": "refused"})


def records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.discordio.answering"]


async def test_an_answer_too_late_10062_is_one_info_line_and_nothing_answered(caplog):
    caplog.set_level(logging.INFO, logger="bot.discordio.answering")
    interaction = Interaction()
    await report(interaction, http_error(discord.NotFound, 404, 10062))
    [record] = records(caplog)
    assert record.levelno == logging.INFO and record.exc_info is None and "10062" in record.getMessage()
    assert interaction.sent == []


async def test_a_discord_server_error_is_a_warning_and_the_player_is_told(caplog):
    caplog.set_level(logging.INFO, logger="bot.discordio.answering")
    interaction = Interaction()
    await report(interaction, http_error(discord.DiscordServerError, 503, 0))
    [record] = records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert interaction.sent == [GENERIC_FAILURE]


async def test_anything_unexpected_is_an_error_with_its_traceback(caplog):
    caplog.set_level(logging.INFO, logger="bot.discordio.answering")
    interaction = Interaction()
    await report(interaction, ValueError("a bug"))
    [record] = records(caplog)
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert interaction.sent == [GENERIC_FAILURE]
