"""bot.reporting: unexpected errors to Sentry (a local endpoint receives the envelope) or summarised to the
owner, rate-limited, with the token redacted everywhere."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from pathlib import Path

from aiohttp import web

from bot.logsetup import RedactingFilter
from bot.messages.reports import error_report
from bot.reporting import ErrorSeen, OwnerReports

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789ab"


def raise_and_log(logger: logging.Logger, error: Exception, message: str) -> None:
    try:
        raise error
    except Exception:
        logger.exception(message)


async def test_tracebacks_are_summarised_to_the_owner_at_most_once_an_interval():
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    logger = logging.getLogger("tests.reporting")
    reports = OwnerReports(send, error_report, asyncio.get_running_loop(), RedactingFilter([TOKEN]), interval=0.3)
    logger.addHandler(reports)
    try:
        raise_and_log(logger, KeyError("seat"), f"table 7: the deal failed with {TOKEN}")
        logger.error("an error without a traceback is no report")
        logger.warning("nor a warning", exc_info=ValueError("x"))
        await asyncio.sleep(0.05)
        assert len(sent) == 1  # the first report goes at once
        for _ in range(3):
            raise_and_log(logger, KeyError("seat"), "table 7: the deal failed")
        raise_and_log(logger, ZeroDivisionError("division by zero"), "the mat could not be drawn")
        await asyncio.sleep(0.05)
        assert len(sent) == 1  # the rest wait for the interval, counted
        await asyncio.sleep(0.4)
        assert len(sent) == 2
    finally:
        logger.removeHandler(reports)
    first, second = sent
    assert "1 unexpected error " in first and "`KeyError` at `tests/bot/test_reporting.py:" in first
    assert TOKEN not in first and "REDACTED" in first
    assert "4 unexpected errors" in second
    lines = second.splitlines()
    assert "×3" in lines[1] and "KeyError" in lines[1] and "ZeroDivisionError" in lines[2]


async def test_a_failing_dm_is_logged_not_raised(caplog):
    async def send(text: str) -> None:
        raise RuntimeError("DMs closed")

    logger = logging.getLogger("tests.reporting.closed")
    reports = OwnerReports(send, error_report, asyncio.get_running_loop(), RedactingFilter([]), interval=0.1)
    logger.addHandler(reports)
    try:
        raise_and_log(logger, KeyError("x"), "boom")
        await asyncio.sleep(0.05)
    finally:
        logger.removeHandler(reports)
    assert reports.sent == 0 and "could not report 1 error(s) to the owner: DMs closed" in caplog.text


def test_a_report_fits_a_discord_message_and_escapes_what_it_quotes():
    seen = [ErrorSeen("KeyError", f"bot/x.py:{n} in f", "bot", "**bold** @everyone " * 20, 2) for n in range(10)]
    text = error_report(seen, 5)
    assert len(text) <= 2000 and "@everyone" not in text.replace("\\@everyone", "")
    assert "\\*\\*bold\\*\\*" in text


SENTRY_CLIENT = """
import logging, sys
from bot.logsetup import setup_logging
from bot.reporting import setup_sentry
import sentry_sdk
redactor = setup_logging("INFO", [sys.argv[2]])
assert setup_sentry(sys.argv[1], redactor, environment="test")
def deal(hand):
    raise KeyError("seat")
try:
    deal(["AS", "KS"])
except KeyError:
    logging.getLogger("bot.tables.flow").exception("table 7: the deal failed for %s", sys.argv[2])
sentry_sdk.flush(5)
"""


async def test_an_error_reaches_a_local_sentry_endpoint_without_the_token(unused_tcp_port):
    envelopes: list[bytes] = []

    async def receive(request: web.Request) -> web.Response:
        envelopes.append(await request.read())  # aiohttp undoes the gzip
        return web.json_response({"id": "0" * 32})

    app = web.Application()
    app.router.add_post("/api/{project}/envelope/", receive)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    try:
        dsn = f"http://publickey@127.0.0.1:{unused_tcp_port}/42"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SENTRY_CLIENT, dsn, TOKEN, cwd=ROOT, stderr=subprocess.PIPE
        )
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err.decode()
    finally:
        await runner.cleanup()
    assert envelopes, "no envelope reached the endpoint"
    text = b"\n".join(envelopes).decode()
    events = [json.loads(line) for line in text.splitlines() if line.startswith("{") and '"exception"' in line]
    [event] = events
    assert event["exception"]["values"][-1]["type"] == "KeyError"
    assert event["release"].startswith("tripoley-bot@") and event["environment"] == "test"
    assert TOKEN not in text and "[REDACTED]" in text
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert all("vars" not in frame for frame in frames)  # no local variables: a hand stays private
    assert "AS" not in json.dumps(frames)


async def test_the_bot_reports_an_unexpected_error_to_its_owner_by_dm(discord_harness, settings):
    """Through the local Discord: the application's owner gets the summary as a DM, once."""
    from bot.discordio.client import TripoleyBot

    dh = discord_harness
    bot = TripoleyBot(settings.model_copy(update={"discord_api_base": dh.api_base}), guild_ready_timeout=0.01)
    run = await dh.connect(bot)
    try:
        raise_and_log(logging.getLogger("bot.tables.flow"), KeyError("seat"), "table 3: the deal failed")
        owner = dh.state.owner
        [dm] = await dh.wait_for(lambda: dh.dms(owner.id), what="the owner's report")
        assert (
            "`KeyError` at `tests/bot/test_reporting.py:" in dm.content and "table 3\\: the deal failed" in dm.content
        )
    finally:
        await run.stop()
    assert bot.owner_reports is not None and bot.owner_reports not in logging.getLogger().handlers
