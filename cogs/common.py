"""What the ``/tripoley`` command families share: their services, choices, pagers, checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordio.ui import build_view
from bot.i18n import ENDONYMS, SPOKEN
from bot.i18n.choice import SERVER_LANGUAGE, answer_in_readers_language
from bot.messages import answers, controls
from bot.messages.buttonids import ConfirmButton, PageButton, encode
from bot.messages.competition import GAMES_TITLE, RATING_TITLE
from bot.messages.components import DANGER, ButtonSpec
from bot.messages.web import web_pages_setting
from bot.messages.weblinks import BOARD

if TYPE_CHECKING:
    from bot.discordio.client import TripoleyBot
    from bot.discordio.controller import Controller
    from bot.economy.bank import Bank
    from bot.economy.prefs import GuildConfig, Prefs
    from bot.tables.manager import TableManager

LEADERBOARD_PAGE = 10


def preset_choices() -> list[app_commands.Choice[str]]:
    from engine.presets import PRESETS

    return [app_commands.Choice(name=p.name[:100], value=key) for key, p in list(PRESETS.items())[:25]]


def language_choices() -> list[app_commands.Choice[str]]:
    """The languages a server may choose for its public messages (each named in itself), and its Discord one."""
    return [
        *(app_commands.Choice(name=ENDONYMS[locale], value=locale.value) for locale in SPOKEN),
        app_commands.Choice(name="the server's language (Discord)", value=SERVER_LANGUAGE),
    ]


def preset_name(key: str) -> str:
    from engine.presets import PRESETS

    preset = PRESETS.get(key)
    return preset.name if preset else key


def pager(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    """Prev/Next buttons whose custom_ids carry the page: stateless, so they survive restarts."""
    if pages <= 1:
        return None
    back, on = controls.page_labels()
    specs = [
        ButtonSpec(encode(PageButton(kind, key, max(page - 1, 0))), back),
        ButtonSpec(encode(PageButton(kind, key, min(page + 1, pages - 1))), on),
    ]
    if specs[0].custom_id == specs[1].custom_id:  # custom_ids must be unique in a message
        specs = specs[:1]
    return build_view(specs)


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def smallest_buy_in() -> int:
    """The smallest default buy-in of any game: a wallet below it can't join a default table."""
    from engine.presets import PRESETS

    return min(int(p.options.start_stack) for p in PRESETS.values())


def settings_text(config: GuildConfig, house_bankroll: int) -> str:
    """The server's settings as ``/tripoley settings`` shows them (and ``/tripoley-admin settings`` after a change)."""
    return answers.settings_text(config, house_bankroll, smallest_buy_in(), web_pages_text(config))


def web_pages_text(config: GuildConfig) -> str:
    """Whether the server's leaderboard is on the web, and where (when the bot serves web pages)."""
    links = BOARD.links
    return web_pages_setting(config.web_pages, links.server_url(config.guild_id) if links is not None else None)


def confirm_view(what: str, label: str) -> discord.ui.View:
    """One red button; its click is routed to the cog's handler for ``what`` (see Controller.confirms)."""
    return build_view([ButtonSpec(encode(ConfirmButton(what)), label, DANGER)])


# The leaderboards by key (the first: /tripoley leaderboard's default): rating and games are drawn by
# cogs.competition, the others from the bank.
LEADERBOARD_TITLES = {
    "rating": RATING_TITLE,
    "balance": "balance",
    "net": "net winnings",
    "wins": "games won",
    "games": GAMES_TITLE,
}


class CommandFamily(commands.Cog):
    """The services a family of commands uses (the cog that composes the families sets them)."""

    bot: TripoleyBot
    manager: TableManager
    bank: Bank
    prefs: Prefs
    controller: Controller

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tables, wallets and records belong to a server: a command from a DM is refused in words
        (the tree's error handler answers it, once)."""
        answer_in_readers_language(interaction)  # the answer's words are in its reader's language
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True
