"""Mock interactions that record every outgoing call (no network)."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace
from typing import Any

import discord

from bot.discordio.controller import Controller
from bot.discordio.publisher import Publisher
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.messages.outgoing import Outgoing, SentMessage
from bot.messages.tablelines import TABLE_LINES
from bot.storage.database import Database
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager


class Calls(list):
    def names(self) -> list[str]:
        return [c[0] for c in self]

    def last(self, name: str):
        return next(c for c in reversed(self) if c[0] == name)


class FakeResponse:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content: str | None = None, **kwargs: Any):
        assert not self._done, "interaction answered twice"
        self._done = True
        self.calls.append(("send_message", content, kwargs))
        return SimpleNamespace(message_id=4242)

    async def defer(self, **kwargs: Any) -> None:
        assert not self._done, "interaction answered twice"
        self._done = True
        self.calls.append(("defer", None, kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self._done, "interaction answered twice"
        self._done = True
        self.calls.append(("edit_message", kwargs.get("content"), kwargs))

    async def send_modal(self, modal) -> None:
        assert not self._done, "interaction answered twice"
        self._done = True
        self.calls.append(("send_modal", None, {"modal": modal}))


class FakeFollowup:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self.next_id = 6000

    async def send(self, content: str | None = None, **kwargs: Any):
        self.calls.append(("followup", content, kwargs))
        self.next_id += 1
        return SimpleNamespace(id=self.next_id)

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.calls.append(("followup_edit", kwargs.get("content"), dict(kwargs, message_id=message_id)))

    async def delete_message(self, message_id: int) -> None:
        self.calls.append(("followup_delete", None, {"message_id": message_id}))


INTERACTION_IDS = itertools.count(1_000_000)  # an id for each interaction, as Discord gives


class FakeInteraction:
    def __init__(
        self,
        user_id: int,
        channel_id: int,
        guild_id: int,
        *,
        name: str | None = None,
        message=None,
        permissions: int = 0,
        manage_guild: bool = False,
        client=None,
        dms_open: bool = True,
        roles: tuple[int, ...] = (),
        locale: discord.Locale = discord.Locale.american_english,
        guild_locale: discord.Locale | None = discord.Locale.american_english,
    ) -> None:
        self.calls = Calls()
        self.id = next(INTERACTION_IDS)
        self.locale, self.guild_locale = locale, guild_locale  # the user's and the server's language

        async def send(content: str | None = None, **kwargs: Any) -> None:
            """A DM to this user: recorded, or refused (403) when their DMs are closed."""
            if not dms_open:
                raise discord.Forbidden(
                    SimpleNamespace(status=403, reason="Forbidden"), "Cannot send messages to this user"
                )
            self.calls.append(("dm", content, kwargs))

        self.user = SimpleNamespace(
            id=user_id,
            name=name or f"user{user_id}",
            display_name=name or f"user{user_id}",
            guild_permissions=discord.Permissions(manage_guild=manage_guild),
            roles=[SimpleNamespace(id=role) for role in roles],
            send=send,
            bot=False,
        )
        self.channel_id = channel_id
        self.channel = None  # a text channel not in the client's cache (discord.py's Interaction.channel)
        self.guild_id = guild_id
        self.message = message
        self.app_permissions = discord.Permissions(permissions)
        self.response = FakeResponse(self.calls)
        self.followup = FakeFollowup(self.calls)
        self.client = client

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append(("edit_original_response", kwargs.get("content"), kwargs))

    async def delete_original_response(self) -> None:
        self.calls.append(("delete_original_response", None, {}))


def public_message():
    return SimpleNamespace(id=777, flags=discord.MessageFlags())


def ephemeral_message():
    return SimpleNamespace(id=778, flags=discord.MessageFlags(ephemeral=True))


class RecordingSink:
    """A publisher sink that records posts/edits/DMs; `closed_dms` raise DMForbidden."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.next_id = 1000
        self.closed_dms: set[int] = set()
        self.gate = None  # an asyncio.Event to hold sends (to test coalescing)
        self.found: dict[str, int] = {}  # custom_id prefix → a message find_message finds
        self.gone: set[int] = set()  # messages deleted (turn pings)

    async def _wait(self):
        if self.gate is not None:
            await self.gate.wait()

    async def post(self, channel_id: int, out: Outgoing) -> int:
        await self._wait()
        self.next_id += 1
        self.calls.append(("post", channel_id, self.next_id, out))
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, out: Outgoing) -> None:
        await self._wait()
        self.calls.append(("edit", channel_id, message_id, out))

    async def dm(self, user_id: int, out: Outgoing) -> None:
        from bot.messages.outgoing import DMForbidden

        if user_id in self.closed_dms:
            raise DMForbidden(user_id)
        self.calls.append(("dm", user_id, None, out))

    async def strip(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        self.calls.append(("strip", channel_id, message_id, content))

    async def recent_messages(self, channel_id: int, since_id: int | None) -> list[SentMessage]:
        """What this sink posted in the channel (newer than ``since_id``), as last edited, with
        ``self.gone`` left out (deleted)."""
        shown: dict[int, SentMessage] = {}
        for call in self.calls:
            kind, channel, message_id, out = call
            if channel != channel_id or kind not in ("post", "edit", "strip"):
                continue
            if kind == "strip":
                old = shown.get(message_id)
                if old is not None:
                    shown[message_id] = SentMessage(message_id, out if out is not None else old.content)
                continue
            ids = tuple(c.custom_id for c in out.components)
            shown[message_id] = SentMessage(message_id, out.text, ids)
        return [m for i, m in sorted(shown.items()) if (since_id is None or i > since_id) and i not in self.gone]

    async def find_message(self, channel_id: int, after_id: int | None, prefix: str) -> int | None:
        self.calls.append(("find", channel_id, after_id, prefix))
        return self.found.get(prefix)

    async def notice(self, channel_id: int, content: str, ping: int) -> None:
        self.calls.append(("notice", channel_id, ping, content))

    async def delete(self, channel_id: int, message_id: int) -> None:
        self.calls.append(("delete", channel_id, message_id, None))
        self.gone.add(message_id)


class DeadToken(Exception):
    """Shaped like the 401 Discord answers on an interaction webhook whose token expired."""

    status = 401


class FakeCarrier:
    """An acknowledged interaction (bot.discordio.carriers.Carrier) that records what it carried;
    ``dead`` makes every call fail like an expired token."""

    def __init__(self, calls: list, *, dead: bool = False) -> None:
        self.calls = calls  # shared with a RecordingSink, to see the order of everything sent
        self.dead = dead
        self.next_id = 9000

    def _use(self) -> None:
        if self.dead:
            raise DeadToken()

    async def edit_original(self, out: Outgoing) -> None:
        self._use()
        self.calls.append(("carried_edit", id(self), None, out))

    async def strip_original(self, content: str | None = None) -> None:
        self._use()
        self.calls.append(("carried_strip", id(self), None, content))

    async def send(self, out: Outgoing) -> int:
        self._use()
        self.next_id += 1
        self.calls.append(("followup", id(self), self.next_id, out))
        return self.next_id

    async def edit(self, message_id: int, out: Outgoing) -> None:
        self._use()
        self.calls.append(("followup_edit", id(self), message_id, out))

    async def delete(self, message_id: int) -> None:
        self._use()
        self.calls.append(("followup_delete", id(self), message_id, None))


async def make_stack(settings, clock: FakeClock | None = None):
    db = await Database(settings.database_path()).connect()
    bank = Bank(db)
    prefs = Prefs(db, settings)
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock or FakeClock(), rng=random.Random(3))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None)
    controller = Controller(manager, publisher)
    bot = SimpleNamespace(
        manager=manager,
        bank=bank,
        prefs=prefs,
        controller=controller,
        publisher=publisher,
        db=db,
        sink=sink,
        settings=settings,
    )
    return bot
