"""Answering an interaction: acknowledging it (before any effect), showing a result, the private
answers, the central error handler, and where the interaction came from.

An interaction's effects are all or nothing: a grant, a buy-in or a move is applied only once its
acknowledgement went through (:func:`acknowledge`), so a click Discord no longer lets the bot answer
(its 3 s ran out: 10062) changes nothing and is dropped quietly. A 40060 on an acknowledgement means
an earlier attempt of it reached Discord: the work goes on and its result is shown. Every refusal is
answered ephemerally by :func:`report`, in the words of bot.messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import errors, i18n
from bot.messages import controls
from bot.messages.outgoing import describe_error, retryable
from bot.messages.refusals import say
from bot.storage import priority as storage

log = logging.getLogger(__name__)
T = TypeVar("T")

ALREADY_ACKNOWLEDGED = 40060  # Discord's code: an earlier attempt of the acknowledgement got through
UNKNOWN_INTERACTION = 10062  # Discord's code: the interaction can't be answered any more (its 3 s are over)
# Seconds between further attempts to show a result whose work is done (an admin's grant) once
# discord.py gave up on its own retries of 429s and 5xx: the admin must see what was done.
RESULT_RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0)


def guild_of(interaction: discord.Interaction) -> int:
    """The server the interaction came from (every Tripoley command is for a server's channel)."""
    if interaction.guild_id is None:
        raise errors.NotAllowed(errors.Refusal.SERVER_ONLY)
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel the interaction came from (a table lives in one)."""
    if interaction.channel_id is None:
        raise errors.NoTable(errors.Refusal.NO_CHANNEL)
    return interaction.channel_id


async def acknowledge(interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> None:
    """Acknowledge the interaction: a deferred update of the clicked message, or (``thinking``, and
    always for a command) a "thinking…" answer (``ephemeral``: a private one). A 40060 means an
    earlier attempt of this very request reached Discord (it answered a 5xx, discord.py tried again):
    the interaction is acknowledged, so the caller carries on and shows its result through the
    interaction's webhook, as after any acknowledgement; a move is never dropped for it."""
    try:
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info(
            "interaction %s was acknowledged already (an earlier attempt got through): carrying on", interaction.id
        )
        updating = interaction.type == discord.InteractionType.component and not thinking
        interaction.response._response_type = (  # what discord.py records for a defer that went through
            discord.InteractionResponseType.deferred_message_update
            if updating
            else discord.InteractionResponseType.deferred_channel_message
        )
    storage.acknowledged()


async def acknowledged_first(
    interaction: discord.Interaction, work: Callable[[], Awaitable[T]], *, ephemeral: bool = False
) -> T:
    """Acknowledge with a "thinking…" defer (``ephemeral``: a private one), then do ``work`` (a
    buy-in, an opened table: effects the player must be able to see) and return its result; the
    answer fills that message as the first follow-up (:func:`send_answer`, :meth:`Controller.reply`).
    If the acknowledgement fails, ``work`` is never done: a player told "This interaction failed"
    lost and got nothing. A refusal raised after a public defer removes the loading message, so the
    refusal is still answered privately (:func:`report`); a private one is filled by it."""
    await acknowledge(interaction, thinking=True, ephemeral=ephemeral)
    try:
        return await work()
    except BaseException:
        if not ephemeral:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove a loading message")
        raise


async def send_answer(interaction: discord.Interaction, **kwargs: Any) -> int | None:
    """Send the public answer (after :func:`acknowledged_first`: the follow-up that fills its
    "thinking…" message; else the response); the answer message's id."""
    if interaction.response.is_done():
        message = await interaction.followup.send(wait=True, **kwargs)
        return message.id
    response = await interaction.response.send_message(**kwargs)
    storage.acknowledged()
    return getattr(response, "message_id", None)


async def acknowledge_then(
    interaction: discord.Interaction, work: Callable[[], Awaitable[dict[str, Any]]], *, update: bool = False
) -> None:
    """Acknowledge first (a private "thinking…" answer; ``update``: a deferred update of the clicked
    message), then do ``work``, then show its result (message keyword arguments) in that answer
    (:func:`show_result`). If the acknowledgement fails, the work is not done: the user sees the
    interaction fail and may simply try again. A refusal from the work is shown the same way."""
    await acknowledge(interaction, thinking=not update, ephemeral=not update)
    try:
        result = await work()
    except errors.TripoleyError as exc:
        log.info("refused for user %s: %s", getattr(interaction.user, "id", "?"), type(exc).__name__)
        result = {"content": say(exc), "view": None}
    await show_result(interaction, result)


async def show_result(interaction: discord.Interaction, result: dict[str, Any]) -> None:
    """Edit the acknowledged answer to ``result``, trying again (:data:`RESULT_RETRY_DELAYS`) while
    Discord fails: an edit, so an attempt that did reach Discord shows it once all the same. Given up
    on (logged with the result) only when Discord refuses it as such, e.g. an expired token."""
    for delay in (*RESULT_RETRY_DELAYS, None):
        try:
            await interaction.edit_original_response(**result)
            return
        except discord.HTTPException as exc:
            if delay is None or not retryable(exc):
                log.error("could not show a result (%s): %s", describe_error(exc), result.get("content"))
                return
            log.warning("could not show a result (%s); trying again in %g s", describe_error(exc), delay)
            await asyncio.sleep(delay)


async def thinking(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking…", which the answer then fills (:func:`reply`)."""
    await acknowledge(interaction, thinking=True, ephemeral=True)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge a click whose answer follows (a deferred update): the work after it waits for no one."""
    await acknowledge(interaction)


def release(interaction: discord.Interaction) -> None:
    """Break the reference cycle between a handled interaction and its ``response`` (discord.py
    caches the InteractionResponse, which points back at it), so that the interaction, its payload
    and its message's components are freed as soon as nothing uses them. In the cycle, a click
    that outlived a collection of the young objects (a move waits for its lock and its save) was
    only freed by a full collection, which then had hundreds of thousands of them to free."""
    try:
        del interaction._cs_response  # type: ignore[attr-defined]  # discord.py's cached_slot_property
    except AttributeError:  # never asked for
        pass


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """The central error handler: a friendly ephemeral message, details in the log."""
    if isinstance(error, (app_commands.CommandInvokeError,)) and error.original is not None:
        error = error.original
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # Too old to answer (it came late: a gateway outage, a stalled loop); a grant, buy-in or
        # move waits for its acknowledgement, so none was made. Routine: no traceback.
        log.info("interaction %s could not be answered any more (10062): dropped", interaction.id)
        return
    if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
        # An answer (a private view, a page) whose first attempt got through, then answered 5xx.
        log.info("interaction %s was answered already (40060)", interaction.id)
        return
    if isinstance(error, errors.TripoleyError):
        message = say(error)
        # Not the message itself: it may name the player's own cards ("you may place …").
        log.info("refused for user %s: %s", getattr(interaction.user, "id", "?"), type(error).__name__)
    elif isinstance(error, app_commands.BotMissingPermissions):
        message = say(errors.MissingBotPermissions([errors.permission_label(p) for p in error.missing_permissions]))
    elif isinstance(error, app_commands.MissingPermissions):
        message = controls.user_lacks([errors.permission_label(p) for p in error.missing_permissions])
    elif isinstance(error, app_commands.NoPrivateMessage):
        message = i18n._(controls.NO_DMS)
    elif isinstance(error, app_commands.CommandOnCooldown):
        message = controls.cooling_down(error.retry_after)
    elif isinstance(error, app_commands.CheckFailure):
        message = i18n._(controls.COMMAND_NOT_HERE)
    elif isinstance(error, discord.DiscordServerError):
        log.warning("Discord failed (%s) while an interaction was answered; discord.py retried it", error.status)
        message = i18n._(controls.GENERIC_FAILURE)
    elif isinstance(error, discord.Forbidden):
        log.warning("missing permissions: %s", error)
        message = say(errors.MissingBotPermissions(["Send Messages", "Embed Links", "Attach Files"]))
    else:
        log.error("unhandled error in an interaction", exc_info=(type(error), error, error.__traceback__))
        message = i18n._(controls.GENERIC_FAILURE)
    try:
        await reply(interaction, message)
    except discord.HTTPException:
        log.warning("could not send the error message to the user")
