"""The discord.py internals the bot relies on, checked before it starts.

The bot reaches under discord.py's public API in a few places: it wraps the ``INTERACTION_CREATE``
parser (bot.discordio.client), points ``Route.BASE`` and the gateway elsewhere
(DISCORD_API_BASE, DISCORD_GATEWAY_URL), replaces the HTTP client's connector, calls a few
``HTTPClient`` routes directly, and drops a handled click's cached response (the slot
``Interaction._cs_response``: bot.discordio.answering.release). The lock files pin a discord.py
that has them all; a discord.py installed some other way might not, and would fail later,
half-way through a game. So
``python -m bot`` and ``python -m bot check`` ask :func:`missing_internals` first and stop with one
line (exit 2) when one is gone."""

from __future__ import annotations

from collections.abc import Callable

import discord
import yarl

# The HTTPClient routes the bot calls itself (not through a model object).
HTTP_ROUTES = ("static_login", "start_thread_with_message", "edit_channel", "get_member")


def _client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


def _interaction_parser() -> bool:
    return callable(_client()._connection.parsers.get("INTERACTION_CREATE"))


def _connector() -> bool:
    return hasattr(_client().http, "connector")


CHECKS: tuple[tuple[str, Callable[[], bool]], ...] = (
    ("discord.http.Route.BASE", lambda: isinstance(getattr(discord.http.Route, "BASE", None), str)),
    (
        "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY",
        lambda: isinstance(getattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None), yarl.URL),
    ),
    ("the INTERACTION_CREATE parser (Client._connection.parsers)", _interaction_parser),
    ("HTTPClient.connector", _connector),
    ("Interaction._cs_response", lambda: "_cs_response" in discord.Interaction.__slots__),
    *(
        (f"HTTPClient.{name}", lambda name=name: callable(getattr(discord.http.HTTPClient, name, None)))
        for name in HTTP_ROUTES
    ),
)


def missing_internals() -> list[str]:
    """What the installed discord.py lacks of what the bot relies on (empty: all there)."""
    missing = []
    for what, present in CHECKS:
        try:
            ok = present()
        except Exception:  # an internal changed shape so much that looking at it fails
            ok = False
        if not ok:
            missing.append(what)
    return missing


def problem() -> str | None:
    """The one line to stop with, or None when every internal is there."""
    missing = missing_internals()
    if not missing:
        return None
    return (
        f"discord.py {discord.__version__} lacks what the bot relies on: {', '.join(missing)}."
        " Install the pinned versions (bash scripts/setup.sh installs requirements.lock)."
    )
