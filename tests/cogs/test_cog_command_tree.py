"""The command tree as Discord receives it: every command, option and choice carries a real
description (never discord.py's "…" placeholder) within Discord's lengths and counts."""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from cogs.admin import Admin
from cogs.tripoley import Tripoley

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's CHAT_INPUT name pattern (lowercase checked apart)
PLACEHOLDER = "…"  # discord.py's description of an option no ``describe`` names
SUBCOMMAND, GROUP = 1, 2


async def tree_payload(stack) -> list[dict]:
    """The commands as ``python -m bot sync`` sends them (bot.discordio.commandsync)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.add_cog(Tripoley(stack))
    await bot.add_cog(Admin(stack))
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


def walk(options: list[dict], path: str):
    """Every option (subcommands and their options) with its full name."""
    for option in options:
        name = f"{path} {option['name']}"
        yield name, option
        if option.get("type") in (SUBCOMMAND, GROUP):
            yield from walk(option.get("options") or [], name)


def check_text(where: str, description: str | None) -> None:
    assert description and description.strip(), f"{where}: no description"
    assert description != PLACEHOLDER and description.strip() != "...", f"{where}: placeholder description"
    assert 1 <= len(description) <= 100, f"{where}: description of {len(description)} characters"


async def test_every_command_option_and_choice_is_described_within_discords_limits(stack):
    payload = await tree_payload(stack)
    assert {c["name"] for c in payload} == {"tripoley", "tripoley-admin"}
    seen = 0
    for command in payload:
        assert NAME.fullmatch(command["name"]) and command["name"] == command["name"].lower()
        check_text(f"/{command['name']}", command["description"])
        for where, option in walk(command.get("options") or [], f"/{command['name']}"):
            seen += 1
            assert NAME.fullmatch(option["name"]) and option["name"] == option["name"].lower(), where
            check_text(where, option["description"])
            children = option.get("options") or []
            assert len(children) <= 25, f"{where}: {len(children)} options"
            if option.get("type") not in (SUBCOMMAND, GROUP):
                continue
            required = [o.get("required", False) for o in children if o.get("type") not in (SUBCOMMAND, GROUP)]
            assert required == sorted(required, reverse=True), f"{where}: a required option after an optional one"
            for child in children:
                choices = child.get("choices") or []
                assert len(choices) <= 25, f"{where} {child['name']}: {len(choices)} choices"
                assert len({c["value"] for c in choices}) == len(choices), f"{where} {child['name']}: repeated choice"
                for choice in choices:
                    assert 1 <= len(choice["name"]) <= 100, f"{where} {child['name']}: choice {choice!r}"
                    assert len(str(choice["value"])) <= 100, f"{where} {child['name']}: choice {choice!r}"
        assert len(command.get("options") or []) <= 25
    assert seen > 30  # the whole tree was walked (its subcommands and their options)


async def test_the_options_that_went_out_with_the_placeholder_now_say_what_they_are(stack):
    """The five options discord.py described as "…" (issue 29)."""
    payload = {c["name"]: c for c in await tree_payload(stack)}
    described = dict(walk(payload["tripoley"]["options"], "/tripoley"))
    described |= dict(walk(payload["tripoley-admin"]["options"], "/tripoley-admin"))
    for where in (
        "/tripoley stats user",
        "/tripoley rules preset",
        "/tripoley dm mode",
        "/tripoley ping mode",
        "/tripoley-admin kick user",
    ):
        check_text(where, described[where]["description"])
