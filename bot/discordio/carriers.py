"""Interactions that carry the bot's updates outside Discord's global request limit.

Discord lets a bot token make about 50 requests a second, but it does not count the interaction
endpoints against that: the callback, and the interaction's webhook (follow-up messages, edits of
``@original`` and of the follow-ups, their deletion), usable for 15 minutes after the interaction.
So the updates players cause ride on their own clicks:

* a click on a public message (the table message, the lobby), acknowledged as a deferred update,
  makes that message the interaction's ``@original``: the publisher edits it through the click
  (:meth:`Carriers.for_message`) instead of a paced channel edit, for any later state too while
  the token lives;
* any click on a public message of a table gives a webhook that posts in the table's channel:
  turn pings and round results go out as its follow-ups (:meth:`Carriers.freshest`), and a ping
  is deleted through the webhook that posted it.

Only clicks on public messages carry: a follow-up of a private hand view would answer a message
the others cannot see. What a carrier sends is the same public message a channel request would
send, built from the public state only.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, cast

import discord

from bot.discordio.ui import build_view, message_kwargs
from bot.messages.outgoing import MessageGone, Outgoing

LIFETIME = 14 * 60.0  # seconds an interaction token is used (Discord: 15 minutes; a margin)


class Carrier(Protocol):
    """What the bot sends through one interaction's webhook."""

    async def edit_original(self, out: Outgoing) -> None: ...

    async def strip_original(self, content: str | None = None) -> None:
        """The message loses its buttons (and, with ``content``, says that instead)."""

    async def send(self, out: Outgoing) -> int: ...

    async def edit(self, message_id: int, out: Outgoing) -> None:
        """Edit a follow-up this interaction posted."""

    async def delete(self, message_id: int) -> None: ...


@dataclass(eq=False)
class Fresh:
    """A carrier, when its interaction came, where its follow-ups go and which message (if any) is
    its ``@original``."""

    carrier: Carrier
    opened: float
    channel_id: int
    message_id: int | None


class Carriers:
    """The freshest carrying interactions: per public message (for its edits) and per table (for
    follow-ups in its channel)."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic, lifetime: float = LIFETIME) -> None:
        self._monotonic = monotonic
        self.lifetime = lifetime
        self._by_message: dict[int, Fresh] = {}
        self._by_table: dict[int, Fresh] = {}

    def remember(self, table_id: int, channel_id: int, carrier: Carrier, message_id: int | None = None) -> Fresh:
        """A click on a public message of the table (``message_id``: the message it is the
        ``@original`` of, after a deferred update)."""
        fresh = Fresh(carrier, self._monotonic(), channel_id, message_id)
        self._by_table[table_id] = fresh
        if message_id is not None:
            self._by_message[message_id] = fresh
        if len(self._by_message) > 20_000 or len(self._by_table) > 20_000:
            self._prune()
        return fresh

    def alive(self, fresh: Fresh) -> bool:
        return self._monotonic() - fresh.opened < self.lifetime

    def for_message(self, message_id: int | None) -> Fresh | None:
        """A live carrier whose ``@original`` is this message."""
        fresh = self._by_message.get(message_id) if message_id is not None else None
        return fresh if fresh is not None and self.alive(fresh) else None

    def freshest(self, table_id: int, channel_id: int) -> Fresh | None:
        """The table's newest live carrier whose follow-ups go to ``channel_id``."""
        fresh = self._by_table.get(table_id)
        return fresh if fresh is not None and fresh.channel_id == channel_id and self.alive(fresh) else None

    def forget(self, fresh: Fresh) -> None:
        """A carrier that failed (its token dead, its message gone): not used again."""
        if fresh.message_id is not None and self._by_message.get(fresh.message_id) is fresh:
            del self._by_message[fresh.message_id]
        for table_id, other in list(self._by_table.items()):
            if other is fresh:
                del self._by_table[table_id]

    def _prune(self) -> None:
        self._by_message = {k: v for k, v in self._by_message.items() if self.alive(v)}
        self._by_table = {k: v for k, v in self._by_table.items() if self.alive(v)}


# Discord's name for an interaction's first answer in its webhook's routes (``@original``);
# discord.py types message ids as ints, and formats this one into the route as it is.
ORIGINAL = cast(int, "@original")


def webhook_of(interaction: discord.Interaction) -> discord.Webhook:
    """The interaction's webhook: its application id, token and the connection state, not the
    interaction. An Interaction holds its payload, its message with every component of it, and
    reference cycles that only the cyclic collector frees; kept for minutes (one per table and
    per hand view), a thousand of them made each collection free a quarter of a million objects,
    stopping the event loop for 0.7 s."""
    return interaction.followup


async def edit_through(webhook: discord.Webhook, message_id: int, **kwargs: Any) -> discord.WebhookMessage:
    """Edit a message of an interaction's webhook (``ORIGINAL`` or a follow-up). discord.py asks
    Discord to take the components of a webhook edit into account (``with_components``) only when
    it is given a view, so buttons are removed (``view=None``) with an empty view instead: an edit
    that drops them is never one whose components are ignored."""
    if "view" in kwargs and kwargs["view"] is None:
        kwargs["view"] = build_view(())
    return await webhook.edit_message(message_id, **kwargs)


def original_editor(interaction: discord.Interaction) -> Callable[..., Awaitable[Any]]:
    """Edit the interaction's first answer later (``edit(**message kwargs)``), holding only its webhook."""
    return partial(edit_through, webhook_of(interaction), ORIGINAL)


class InteractionCarrier:
    """A :class:`Carrier` over an acknowledged interaction, through its webhook alone."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.webhook = webhook_of(interaction)

    async def edit_original(self, out: Outgoing) -> None:
        try:
            await edit_through(self.webhook, ORIGINAL, **message_kwargs(out, edit=True))
        except discord.NotFound as exc:
            if exc.code == 10008:  # the message (not the token) is gone
                raise MessageGone() from None
            raise

    async def strip_original(self, content: str | None = None) -> None:
        if content is None:
            await edit_through(self.webhook, ORIGINAL, view=None)
        else:
            await edit_through(self.webhook, ORIGINAL, content=content, view=None)

    async def send(self, out: Outgoing) -> int:
        message = await self.webhook.send(wait=True, **message_kwargs(out))
        return message.id

    async def edit(self, message_id: int, out: Outgoing) -> None:
        await edit_through(self.webhook, message_id, **message_kwargs(out, edit=True))

    async def delete(self, message_id: int) -> None:
        await self.webhook.delete_message(message_id)
