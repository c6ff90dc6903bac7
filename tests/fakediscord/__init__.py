"""A local fake Discord (REST + gateway) that the real, unmodified discord.py client connects to.

Quick use (see README.md in this folder)::

    from tests.fakediscord import DiscordHarness

    async with DiscordHarness() as dh:          # server on 127.0.0.1:<free port>
        await dh.connect(bot)                   # in-process bot (guild_ready_timeout=0.01)
        # or: await dh.spawn(commands=["tripoley"])   # `python -m bot` with DISCORD_* env
        h = await dh.run_command("alice", "general", "tripoley start", preset="tripoley", rounds=3)
        msg = await h.message()
        click = await dh.click("bob", msg, label="Join")
        await click.response()
"""

from .harness import (
    BotDied,
    BotProcess,
    BotRun,
    DiscordHarness,
    FakeUser,
    InProcessBot,
    InteractionHandle,
)
from .server import ApiError, FakeDiscordServer, Faults
from .state import (
    Attachment,
    Channel,
    FakeState,
    Guild,
    InteractionRecord,
    Member,
    Message,
    MessageEdit,
    RestCall,
    User,
    Violation,
)

__all__ = [
    "ApiError",
    "Attachment",
    "BotDied",
    "BotProcess",
    "BotRun",
    "Channel",
    "DiscordHarness",
    "FakeDiscordServer",
    "FakeState",
    "FakeUser",
    "Faults",
    "Guild",
    "InProcessBot",
    "InteractionHandle",
    "InteractionRecord",
    "Member",
    "Message",
    "MessageEdit",
    "RestCall",
    "User",
    "Violation",
]
