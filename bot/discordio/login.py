"""Logging in to Discord before the gateway: over HTTP, tried again while Discord is unreachable
(at start-up and for ``python -m bot check`` and ``sync``), and where Discord is (a REST proxy or a
local test server instead of discord.com)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import aiohttp
import discord
import yarl
from discord.types.user import User as UserPayload

log = logging.getLogger(__name__)
T = TypeVar("T")

# Start-up with Discord unreachable: seconds between attempts to log in (about two minutes in all),
# then exit 1 and leave restarting to the service manager.
LOGIN_RETRY_DELAYS = (2.0, 4.0, 8.0, 16.0, 30.0, 60.0)
LOGIN_ATTEMPT_TIMEOUT = 30.0  # seconds one attempt may take (a silent network would hang for minutes)


class DiscordUnreachable(Exception):
    """Discord did not answer (no connection, a timeout, or its servers failing)."""


async def one_login_attempt(login: Awaitable[T]) -> T:
    """``login``'s result within :data:`LOGIN_ATTEMPT_TIMEOUT`; Discord's silence, a network error
    or a failing Discord raise :class:`DiscordUnreachable` (a refused token: discord.LoginFailure)."""
    try:
        return await asyncio.wait_for(login, LOGIN_ATTEMPT_TIMEOUT)
    except TimeoutError:
        raise DiscordUnreachable(f"no answer in {LOGIN_ATTEMPT_TIMEOUT:g} s") from None
    except (aiohttp.ClientError, OSError, discord.DiscordServerError) as exc:
        raise DiscordUnreachable(str(exc) or type(exc).__name__) from None


async def log_in_over_http(token: str) -> UserPayload:
    """Log in over HTTP only (``GET /users/@me``, no gateway) and return the bot user's data.

    Raises :class:`discord.LoginFailure` for a refused token, :class:`DiscordUnreachable` when
    Discord does not answer."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        return await one_login_attempt(http.static_login(token))
    finally:
        await http.close()


async def wait_for_discord(token: str) -> UserPayload:
    """:func:`log_in_over_http`, tried again after each of :data:`LOGIN_RETRY_DELAYS` (one log
    line per failed attempt) while Discord is unreachable."""
    attempts = len(LOGIN_RETRY_DELAYS) + 1
    for attempt, delay in enumerate(LOGIN_RETRY_DELAYS, 1):
        try:
            return await log_in_over_http(token)
        except DiscordUnreachable as exc:
            log.warning(
                "Discord is unreachable (%s); trying again in %g s (attempt %d of %d)", exc, delay, attempt, attempts
            )
            await asyncio.sleep(delay)
    return await log_in_over_http(token)


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Use a REST proxy / local test server instead of discord.com (before login)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
        log.info("REST base: %s", discord.http.Route.BASE)
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        log.info("gateway: %s", gateway_url)
