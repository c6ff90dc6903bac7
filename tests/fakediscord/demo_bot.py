"""A tiny discord.py bot that exercises the fake Discord (used by tests/test_fakediscord.py).

In-process: `make_bot(guild_id=...)`. As a subprocess: `python -m tests.fakediscord.demo_bot`, which
reads DISCORD_API_BASE, DISCORD_GATEWAY_URL and DISCORD_TOKEN like the real bot must.
"""

from __future__ import annotations

import asyncio
import os
import struct
import zlib
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands


def tiny_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class AnswerModal(discord.ui.Modal, title="Your answer"):
    answer = discord.ui.TextInput(label="Answer", custom_id="demo:answer", max_length=50)
    note = discord.ui.TextInput(label="Note", custom_id="demo:note", required=False, style=discord.TextStyle.paragraph)

    def __init__(self) -> None:
        super().__init__(custom_id="demo:modal", timeout=None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        bot.seen.append(("modal", interaction.user.id, self.answer.value, self.note.value))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"answer from {interaction.user.name}: {self.answer.value}")


class DemoView(discord.ui.View):
    """Stable custom_ids and timeout=None (could be re-added with bot.add_view after a restart)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.hits = 0

    @discord.ui.button(label="Hit", custom_id="demo:hit", style=discord.ButtonStyle.primary)
    async def hit(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.hits += 1
        interaction.client.seen.append(("hit", interaction.user.id, interaction.message.id))  # type: ignore
        await interaction.response.edit_message(content=f"hits: {self.hits}", view=self)

    @discord.ui.button(label="Secret", custom_id="demo:secret")
    async def secret(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"only for {interaction.user.name}", ephemeral=True)

    @discord.ui.button(label="Ask", custom_id="demo:ask")
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(AnswerModal())

    @discord.ui.button(label="Later", custom_id="demo:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="updated later")

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick",
        min_values=1,
        max_values=2,
        options=[
            discord.SelectOption(label="Alpha", value="a"),
            discord.SelectOption(label="Beta", value="b"),
            discord.SelectOption(label="Gamma", value="c"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        interaction.client.seen.append(("pick", interaction.user.id, tuple(select.values)))  # type: ignore
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self, *, guild_id: int | None = None) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.01)
        self.guild_id = guild_id
        self.seen: list[tuple] = []
        self.tree.add_command(make_group())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before a re-IDENTIFY (after INVALID_SESSION); no need against a local server.
        return None

    async def setup_hook(self) -> None:
        if self.guild_id:
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def make_group() -> app_commands.Group:
    demo = app_commands.Group(name="demo", description="Demo commands")
    table = app_commands.Group(name="table", description="Table commands", parent=demo)

    @demo.command(name="start", description="Start a demo game")
    @app_commands.describe(preset="Which game", rounds="How many rounds")
    async def start(
        interaction: discord.Interaction,
        preset: Literal["tripoley", "michigan"],
        rounds: app_commands.Range[int, 1, 10] = 3,
        opponent: discord.Member | None = None,
    ) -> None:
        bot = interaction.client
        bot.seen.append(("start", interaction.user.id, preset, rounds, opponent.id if opponent else None))  # type: ignore
        # A fresh (non-persistent) view: discord.py routes clicks to it only if the message id matches.
        await interaction.response.send_message(f"starting {preset} x{rounds}", view=DemoView())

    @demo.command(name="dm", description="DM a user")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send(f"hello {user.name}")
        except discord.Forbidden as e:
            interaction.client.seen.append(("forbidden", user.id, e.code))  # type: ignore
            await interaction.response.send_message(f"cannot DM {user.name}", ephemeral=True)
        else:
            await interaction.response.send_message(f"sent a DM to {user.name}", ephemeral=True)

    @demo.command(name="image", description="Post a picture")
    async def image(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = await asyncio.to_thread(tiny_png)
        await interaction.followup.send("the mat", file=discord.File(__import__("io").BytesIO(png), filename="mat.png"))

    @demo.command(name="edits", description="Post then edit a message")
    async def edits(interaction: discord.Interaction, times: app_commands.Range[int, 1, 5] = 2) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        msg = await interaction.channel.send("version 0")  # type: ignore[union-attr]
        for i in range(1, times + 1):
            msg = await msg.edit(content=f"version {i}")
        interaction.client.seen.append(("edited", msg.id))  # type: ignore

    @demo.command(name="slow", description="Answer after a delay")
    async def slow(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as e:
            interaction.client.seen.append(("late", e.code))  # type: ignore

    @table.command(name="show", description="Show a table")
    async def show(
        interaction: discord.Interaction, number: int, verbose: bool = False, label: str | None = None
    ) -> None:
        suffix = f" label={label}" if label else ""
        await interaction.response.send_message(f"table {number} verbose={verbose}{suffix}")

    @show.autocomplete("label")
    async def label_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = ["north", "south", "east", "west"]
        return [app_commands.Choice(name=n.title(), value=n) for n in names if n.startswith(current)]

    @demo.command(name="hello", description="Say hello (works in DMs too)")
    async def hello(interaction: discord.Interaction) -> None:
        where = "DM" if interaction.guild is None else interaction.channel.name  # type: ignore[union-attr]
        await interaction.response.send_message(f"hello {interaction.user.mention} in {where}")

    @table.command(name="where", description="Pick a channel")
    async def where(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        await interaction.response.send_message(f"table in {channel.name}")

    return demo


def make_bot(*, guild_id: int | None = None) -> DemoBot:
    return DemoBot(guild_id=guild_id)


def main() -> None:
    import discord.gateway
    import discord.http
    import yarl

    api = os.environ.get("DISCORD_API_BASE")
    gw = os.environ.get("DISCORD_GATEWAY_URL")
    if api:
        discord.http.Route.BASE = api
    if gw:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gw)
    bot = make_bot(guild_id=int(os.environ["DEMO_GUILD_ID"]) if os.environ.get("DEMO_GUILD_ID") else None)
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
