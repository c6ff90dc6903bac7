"""In-memory state of the fake Discord: users, guilds, channels, members, messages,
edits, interactions, application commands and the REST call log.

Pure data: no networking here. The server (server.py) mutates it, the harness
(harness.py) reads it and waits on it.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
P_CREATE_INSTANT_INVITE = 1 << 0
P_ADMINISTRATOR = 1 << 3
P_ADD_REACTIONS = 1 << 6
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_MANAGE_MESSAGES = 1 << 13
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_MESSAGE_HISTORY = 1 << 16
P_USE_EXTERNAL_EMOJIS = 1 << 18
P_USE_APPLICATION_COMMANDS = 1 << 31
P_MANAGE_THREADS = 1 << 34
P_CREATE_PUBLIC_THREADS = 1 << 35
P_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_PERMISSIONS = (
    P_CREATE_INSTANT_INVITE
    | P_ADD_REACTIONS
    | P_VIEW_CHANNEL
    | P_SEND_MESSAGES
    | P_EMBED_LINKS
    | P_ATTACH_FILES
    | P_READ_MESSAGE_HISTORY
    | P_USE_EXTERNAL_EMOJIS
    | P_USE_APPLICATION_COMMANDS
    | P_SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | P_MANAGE_MESSAGES | P_CREATE_PUBLIC_THREADS | P_MANAGE_THREADS

# Message flags
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_IS_COMPONENTS_V2 = 1 << 15

# Channel types
CH_GUILD_TEXT = 0
CH_DM = 1
CH_GUILD_VOICE = 2
CH_GUILD_CATEGORY = 4
CH_PUBLIC_THREAD = 11

# Component types
C_ACTION_ROW = 1
C_BUTTON = 2
C_STRING_SELECT = 3
C_TEXT_INPUT = 4
C_USER_SELECT = 5
C_ROLE_SELECT = 6
C_MENTIONABLE_SELECT = 7
C_CHANNEL_SELECT = 8
C_SECTION = 9
C_CONTAINER = 17
C_LABEL = 18
SELECT_TYPES = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)


_MENTION_RE = re.compile(r"<@!?(\d+)>")


def now_utc() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def iso(ts: _dt.datetime | None) -> str | None:
    return None if ts is None else ts.isoformat()


class SnowflakeFactory:
    """Increasing, unique, time-based snowflakes (like Discord's)."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


# ---------------------------------------------------------------------------
# Entities
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class User:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = True  # False: a DM to this user answers 403 / 50007
    locale: str = "en-US"  # their Discord client's language: every interaction's ``locale``

    @property
    def name(self) -> str:
        return self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        d = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            d["bot"] = True
        return d

    def __repr__(self) -> str:
        return f"<User {self.username} id={self.id}{' bot' if self.bot else ''}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: _dt.datetime = field(default_factory=now_utc)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict:
        d: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.user.payload()
        if permissions is not None:
            d["permissions"] = str(permissions)
        return d


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    recipient: User | None = None  # DM channels: the human at the other end
    messages: list[Message] = field(default_factory=list)
    owner_id: int | None = None  # threads: who started it
    archived: bool = False  # threads
    locked: bool = False  # threads
    bot_denied: int = 0  # permission bits denied to the bot in this channel (a channel overwrite)

    @property
    def is_dm(self) -> bool:
        return self.type == CH_DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict:
        if self.type == CH_DM:
            last = self.messages[-1].id if self.messages else None
            return {
                "id": str(self.id),
                "type": CH_DM,
                "last_message_id": str(last) if last else None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        d: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "flags": 0,
        }
        if self.guild_id is not None:
            d["guild_id"] = str(self.guild_id)
        if self.type == CH_GUILD_TEXT:
            d.update(
                topic=self.topic,
                nsfw=False,
                last_message_id=str(self.messages[-1].id) if self.messages else None,
                rate_limit_per_user=0,
            )
        elif self.type == CH_GUILD_VOICE:
            d.update(bitrate=64000, user_limit=0, rtc_region=None)
        elif self.type == CH_PUBLIC_THREAD:
            d.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                last_message_id=str(self.messages[-1].id) if self.messages else None,
                rate_limit_per_user=0,
                message_count=len(self.messages),
                member_count=1,
                total_message_sent=len(self.messages),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(now_utc()),
                    "locked": self.locked,
                    "invitable": True,
                },
            )
        return d

    def __repr__(self) -> str:
        return f"<Channel {self.name or 'DM'} id={self.id} type={self.type}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"  # a community server's language: ``guild_locale`` of its interactions

    def role(self, name_or_id: Any) -> Role:
        for r in self.roles:
            if r.id == name_or_id or r.name == name_or_id:
                return r
        raise KeyError(name_or_id)

    def member_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = 0
        role_ids = {self.id} | set(member.roles if member else [])
        for r in self.roles:
            if r.id in role_ids:
                perms |= r.permissions
        if perms & P_ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def payload(self, *, include_members: bool = True, only_member_ids: set[int] | None = None) -> dict:
        members = list(self.members.values())
        shown = members if include_members else [m for m in members if only_member_ids and m.user.id in only_member_ids]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            # GUILD_CREATE-only fields
            "joined_at": iso(now_utc()),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [m.payload() for m in shown],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict:
        d: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            d["content_type"] = self.content_type
        if self.description is not None:
            d["description"] = self.description
        if self.ephemeral:
            d["ephemeral"] = True
        dims = png_size(self.data)
        if dims:
            d["width"], d["height"] = dims
        return d


def png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


@dataclass
class MessageEdit:
    """One edit of a message: the state before and after, and when it happened."""

    at: _dt.datetime
    monotonic: float
    before: dict
    after: dict
    via: str  # the REST route that made the edit (or "interaction callback 7")
    by: int | None = None  # the interaction whose callback or webhook made it


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: _dt.datetime = field(default_factory=now_utc)
    created_monotonic: float = field(default_factory=time.perf_counter)
    edited_at: _dt.datetime | None = None
    edits: list[MessageEdit] = field(default_factory=list)
    deleted: bool = False
    deleted_at: _dt.datetime | None = None
    visible_to: int | None = None  # ephemeral: the only user who sees it
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: InteractionRecord | None = None  # the interaction this message answers
    message_reference: dict | None = None
    tts: bool = False
    pinned: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)
    users_index: dict[int, User] | None = field(default=None, repr=False)  # to resolve <@id> mentions

    # -- views ---------------------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_for(self, user: User | None) -> bool:
        if self.deleted:
            return False
        if self.visible_to is None:
            return True
        return user is not None and user.id == self.visible_to

    def snapshot(self) -> dict:
        return {
            "content": self.content,
            "embeds": [dict(e) for e in self.embeds],
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def iter_components(self) -> Iterator[dict]:
        yield from iter_components(self.components)

    def buttons(self) -> list[dict]:
        return [c for c in self.iter_components() if c.get("type") == C_BUTTON]

    def selects(self) -> list[dict]:
        return [c for c in self.iter_components() if c.get("type") in SELECT_TYPES]

    def find_component(
        self, *, custom_id: str | None = None, label: str | None = None, type: int | None = None
    ) -> dict:
        found = []
        for c in self.iter_components():
            if type is not None and c.get("type") != type:
                continue
            if custom_id is not None and c.get("custom_id") != custom_id:
                continue
            if label is not None and c.get("label") != label and c.get("placeholder") != label:
                continue
            if custom_id is None and label is None and type is None:
                continue
            found.append(c)
        if not found:
            have = [(c.get("type"), c.get("custom_id"), c.get("label")) for c in self.iter_components()]
            raise LookupError(
                f"no component custom_id={custom_id!r} label={label!r} on message {self.id}; it has {have}"
            )
        if len(found) > 1 and custom_id is None:
            raise LookupError(f"several components match label={label!r} on message {self.id}: use custom_id")
        return found[0]

    def _mentions(self) -> list[dict]:
        if self.users_index is None:
            return []
        out = []
        for uid in dict.fromkeys(int(x) for x in _MENTION_RE.findall(self.content or "")):
            u = self.users_index.get(uid)
            if u is not None:
                out.append(u.payload())
        return out

    def payload(self) -> dict:
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": self._mentions(),
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            d["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            d["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            d["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            d["message_reference"] = self.message_reference
        if self.reactions:
            d["reactions"] = [
                {
                    "count": len(users),
                    "me": False,
                    "emoji": {"id": None, "name": emoji},
                    "burst_colors": [],
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.interaction is not None:
            ix = self.interaction
            meta: dict[str, Any] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": ix.user.payload(),
                "authorizing_integration_owners": {"0": str(ix.guild_id)} if ix.guild_id else {"1": str(ix.user.id)},
            }
            if ix.type == 2:
                meta["name"] = ix.command_name
            if ix.source_message is not None:
                meta["interacted_message_id"] = str(ix.source_message.id)
            d["interaction_metadata"] = meta
        return d

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        return f"<Message id={self.id} channel={self.channel_id}{extra} content={self.content[:40]!r}>"


def iter_components(components: list[dict]) -> Iterator[dict]:
    for c in components or []:
        yield c
        if "components" in c:
            yield from iter_components(c["components"])
        if "component" in c and isinstance(c["component"], dict):
            yield from iter_components([c["component"]])
        if "accessory" in c and isinstance(c["accessory"], dict):
            yield from iter_components([c["accessory"]])


@dataclass
class RestCall:
    method: str
    route: str  # template, e.g. "POST /channels/{channel_id}/messages"
    path: str  # the actual path
    status: int = 0
    at: float = 0.0  # time.perf_counter() at arrival
    wall: _dt.datetime = field(default_factory=now_utc)
    duration: float = 0.0
    json: Any = None  # the JSON body (or payload_json of a multipart body)
    injected: str | None = None  # "429", "403", "delay" when a fault was injected
    counted: bool = True  # against the bot token's global limit (False: an interaction endpoint)


@dataclass
class Violation:
    """A request the local Discord refused as real Discord would (a body breaking the spec or a
    documented limit, a second answer to an interaction): a bug of the bot, unless ``expected``."""

    route: str  # "METHOD /template"
    path: str  # the actual path
    status: int
    code: int  # 50035 Invalid Form Body, 50006, 50109, 40005, 40060
    message: str
    errors: dict | None  # Discord's error tree
    body: Any = None  # the JSON body (or payload_json)
    expected: bool = False  # declared by the test (dh.expect_violation, dh.raw_request)

    def describe(self) -> str:
        return f"{self.route} -> {self.status}/{self.code} {self.message}: {self.errors}"


@dataclass(eq=False)
class InteractionRecord:
    """An interaction dispatched to the bot, and everything it answered."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    guild_id: int | None
    data: dict
    application_id: int
    source_message: Message | None = None  # components / modal from a component
    command_name: str | None = None
    created_monotonic: float = field(default_factory=time.perf_counter)
    dispatched_at: float | None = None  # perf_counter when INTERACTION_CREATE was sent
    acked_at: float | None = None  # perf_counter when the callback POST arrived
    response_type: int | None = None
    response_data: dict | None = None
    late: bool = False  # the callback came after the 3 s window and was refused
    original_message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict | None = None
    autocomplete_choices: list[dict] | None = None
    expires_at: float = 0.0  # perf_counter after which the token is dead (15 min)
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ack_latency(self) -> float | None:
        if self.acked_at is None or self.dispatched_at is None:
            return None
        return self.acked_at - self.dispatched_at

    def __repr__(self) -> str:
        return f"<Interaction id={self.id} type={self.type} user={self.user.username} response={self.response_type}>"


# ---------------------------------------------------------------------------
# The world
# ---------------------------------------------------------------------------


class FakeState:
    """Everything the fake Discord knows. Mutated by the server, read by tests."""

    def __init__(self, *, bot_name: str = "TripoleyBot", token: str = "fake") -> None:
        self.snowflake = SnowflakeFactory()
        self.token = token
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.deleted_channels: dict[int, Channel] = {}  # channels deleted (remove_channel), by id
        self.messages: dict[int, Message] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel with the bot
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.rest_log: list[RestCall] = []
        self.uploads: dict[int, Attachment] = {}  # attachment options of slash commands
        self.bot = self.add_user(bot_name, bot=True)
        self.application_id = self.bot.id  # like Discord: the bot user id equals the application id
        self.owner = self.add_user("owner")
        self._version = 0
        self._changed = asyncio.Event()
        self._listeners: list[Callable[[], None]] = []

    # -- change notification (for wait_for) ----------------------------------
    def touch(self) -> None:
        self._version += 1
        ev, self._changed = self._changed, asyncio.Event()
        ev.set()

    async def wait_changed(self, timeout: float) -> None:
        ev = self._changed
        try:
            await asyncio.wait_for(ev.wait(), timeout)
        except TimeoutError:
            pass

    # -- building the world ---------------------------------------------------
    def add_user(self, username: str, *, bot: bool = False, dms_open: bool = True) -> User:
        u = User(
            id=self.snowflake(),
            username=username,
            bot=bot,
            global_name=None if bot else username.title(),
            dms_open=dms_open,
        )
        self.users[u.id] = u
        return u

    def add_guild(
        self, name: str, *, channels: tuple[str, ...] = ("general",), members: tuple[User, ...] = ()
    ) -> Guild:
        gid = self.snowflake()
        g = Guild(id=gid, name=name, owner_id=self.owner.id)
        g.roles.append(Role(id=gid, name="@everyone", permissions=EVERYONE_PERMISSIONS, position=0))
        bot_role = Role(
            id=self.snowflake(), name=self.bot.username, permissions=BOT_ROLE_PERMISSIONS, position=1, managed=True
        )
        g.roles.append(bot_role)
        self.guilds[gid] = g
        cat = Channel(id=self.snowflake(), type=CH_GUILD_CATEGORY, name="Text Channels", guild_id=gid, position=0)
        self._add_channel(g, cat)
        for i, cname in enumerate(channels):
            self._add_channel(
                g,
                Channel(
                    id=self.snowflake(), type=CH_GUILD_TEXT, name=cname, guild_id=gid, position=i, parent_id=cat.id
                ),
            )
        g.members[self.bot.id] = Member(user=self.bot, guild_id=gid, roles=[bot_role.id])
        g.members[self.owner.id] = Member(user=self.owner, guild_id=gid)
        for u in members:
            self.add_member(g, u)
        return g

    def _add_channel(self, g: Guild, ch: Channel) -> Channel:
        g.channels.append(ch)
        self.channels[ch.id] = ch
        return ch

    def add_channel(self, guild: Guild, name: str) -> Channel:
        pos = sum(1 for c in guild.channels if c.type == CH_GUILD_TEXT)
        return self._add_channel(
            guild, Channel(id=self.snowflake(), type=CH_GUILD_TEXT, name=name, guild_id=guild.id, position=pos)
        )

    def add_thread(self, parent: Channel, name: str, owner: User, thread_id: int | None = None) -> Channel:
        """A public thread of ``parent`` (started from a message: Discord gives it the message's id)."""
        guild = self.guilds[parent.guild_id]
        thread = Channel(
            id=thread_id or self.snowflake(),
            type=CH_PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
        )
        return self._add_channel(guild, thread)

    def threads(self, parent: Any) -> list[Channel]:
        parent = self.channel(parent)
        return [c for c in self.channels.values() if c.type == CH_PUBLIC_THREAD and c.parent_id == parent.id]

    def remove_channel(self, channel: Any) -> list[Channel]:
        """A channel (and its threads) deleted: REST answers 404 / 10003 for it from now on. The
        channels removed (kept in ``deleted_channels``, so tests can still read them)."""
        ch = self.channel(channel)
        removed = [ch] + [c for c in self.channels.values() if c.type == CH_PUBLIC_THREAD and c.parent_id == ch.id]
        for c in removed:
            self.channels.pop(c.id, None)
            self.deleted_channels[c.id] = c
            if c.guild_id is not None and c in self.guilds[c.guild_id].channels:
                self.guilds[c.guild_id].channels.remove(c)
        self.touch()
        return removed

    def remove_member(self, guild: Guild, user: User) -> None:
        """The user leaves the server (GET …/members/{id} answers 404 from now on)."""
        guild.members.pop(user.id, None)

    def add_member(self, guild: Guild, user: User, roles: tuple[int, ...] = ()) -> Member:
        m = Member(user=user, guild_id=guild.id, roles=list(roles))
        guild.members[user.id] = m
        return m

    def dm_channel(self, user: User) -> Channel:
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(id=self.snowflake(), type=CH_DM, recipient=user)
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    # -- lookups ---------------------------------------------------------------
    def user(self, ref: Any) -> User:
        if isinstance(ref, User):
            return ref
        inner = getattr(ref, "user", None)
        if isinstance(inner, User):
            return inner
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            return self.users[int(ref)]
        if hasattr(ref, "id") and int(ref.id) in self.users:
            return self.users[int(ref.id)]
        for u in self.users.values():
            if u.username == ref:
                return u
        raise KeyError(f"unknown user {ref!r}")

    def channel(self, ref: Any) -> Channel:
        if isinstance(ref, Channel):
            return ref
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            return self.channels[int(ref)]
        if hasattr(ref, "id") and int(ref.id) in self.channels:
            return self.channels[int(ref.id)]
        name = str(ref).lstrip("#")
        for c in self.channels.values():
            if c.name == name and c.type == CH_GUILD_TEXT:
                return c
        raise KeyError(f"unknown channel {ref!r}")

    def message(self, ref: Any) -> Message:
        if isinstance(ref, Message):
            return ref
        if hasattr(ref, "id"):
            ref = ref.id
        return self.messages[int(ref)]

    def guild(self, ref: Any = None) -> Guild:
        if ref is None:
            return next(iter(self.guilds.values()))
        if isinstance(ref, Guild):
            return ref
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            return self.guilds[int(ref)]
        for g in self.guilds.values():
            if g.name == ref:
                return g
        raise KeyError(f"unknown guild {ref!r}")

    def commands_for(self, guild_id: int | None) -> list[tuple[dict, int | None]]:
        """Commands usable in a guild (guild ones first), as (command, scope guild id or None)."""
        out: list[tuple[dict, int | None]] = []
        if guild_id is not None:
            out += [(c, guild_id) for c in self.guild_commands.get(guild_id, [])]
        out += [(c, None) for c in self.global_commands]
        return out

    # -- messages --------------------------------------------------------------
    def add_message(self, msg: Message) -> Message:
        msg.users_index = self.users
        self.messages[msg.id] = msg
        self.channels[msg.channel_id].messages.append(msg)
        self.touch()
        return msg

    def edit_message(self, msg: Message, changes: dict, *, via: str, by: int | None = None) -> None:
        before = msg.snapshot()
        for k, v in changes.items():
            setattr(msg, k, v)
        msg.edited_at = now_utc()
        msg.edits.append(
            MessageEdit(
                at=msg.edited_at, monotonic=time.perf_counter(), before=before, after=msg.snapshot(), via=via, by=by
            )
        )
        self.touch()

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        msg.deleted_at = now_utc()
        self.touch()
