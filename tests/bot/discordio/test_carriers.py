"""Edits through an interaction's webhook: removing the buttons is an edit whose components
Discord takes into account (discord.py sends ``with_components`` only for a view it is given)."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discordio.carriers import ORIGINAL, edit_through


class Sent(Exception):
    """What discord.py was about to send (raised instead of sending it)."""


@pytest.fixture
def sent_edits(monkeypatch):
    calls: list[dict] = []

    def edit_webhook_message(self, webhook_id, token, message_id, **kwargs):
        calls.append({"message_id": message_id, **kwargs})
        raise Sent()

    monkeypatch.setattr(AsyncWebhookAdapter, "edit_webhook_message", edit_webhook_message)
    return calls


@pytest.mark.parametrize("content", [None, "closed"])
async def test_removing_the_buttons_is_sent_as_an_empty_view_with_its_components_taken(sent_edits, content):
    async with aiohttp.ClientSession() as session:
        webhook = discord.Webhook.partial(1, "token", session=session)
        changes = {"view": None} if content is None else {"view": None, "content": content}
        with pytest.raises(Sent):
            await edit_through(webhook, ORIGINAL, **changes)
    (call,) = sent_edits
    assert call["message_id"] == "@original"
    assert call["with_components"] is True and call["payload"]["components"] == []
    assert call["payload"].get("content") == content


async def test_an_edit_that_leaves_the_buttons_as_they_are_sends_none(sent_edits):
    async with aiohttp.ClientSession() as session:
        webhook = discord.Webhook.partial(1, "token", session=session)
        with pytest.raises(Sent):
            await edit_through(webhook, 42, content="text only")
    (call,) = sent_edits
    assert call["message_id"] == 42 and "components" not in call["payload"]
