"""``/tripoley-admin season`` as the Discord layer runs it, and a season's end posted in its channel
(by the command, or by the seasons' timer: :meth:`bot.competition.seasons.Seasons.run`).

Ending a season is acknowledged before it is done (:func:`~bot.discordio.controller.acknowledge_then`):
an admin never has a season ended, or wallets reset, without seeing it. The posted standings name
players by mention and ping nobody.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot import errors, i18n
from bot.competition.seasons import Reset, SeasonEnded
from bot.competition.store import FORGOTTEN
from bot.discordio.answering import acknowledge_then, channel_of, guild_of
from bot.economy.prefs import Prefs
from bot.i18n import Locale, reading
from bot.i18n.choice import public_locale
from bot.messages import competition as words
from bot.messages.outgoing import ChannelLost, Outgoing
from bot.tables.manager import TableManager

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()


class Poster(Protocol):
    async def post(self, channel_id: int, out: Outgoing) -> int: ...


def season_post(ended: SeasonEnded) -> Outgoing:
    """The message of a season's end: its top places, pinging nobody."""
    lines = [
        words.standing_line(s.place, None if s.user_id == FORGOTTEN else s.user_id, s.rating, s.games)
        for s in ended.top
    ]
    reset = None if ended.reset is None or ended.wallets_reset is None else (ended.wallets_reset, ended.reset.starting)
    return Outgoing(text=words.season_ended_text(ended.number, lines, ended.placed, reset), pings=())


async def server_locale(prefs: Prefs, guild_id: int, guild_locale: object) -> Locale:
    """The language of a server's posts that are about no table (a season's end): its setting, else
    its Discord ``guild_locale``."""
    return public_locale((await prefs.guild(guild_id)).language, guild_locale)


async def post_season_end(sink: Poster | None, ended: SeasonEnded, locale: Locale) -> None:
    """Post a season's end in its channel, in the server's ``locale`` (none known, or no sink: its
    standings stay kept all the same)."""
    if sink is None or ended.channel_id is None:
        log.info("season %s of server %s ended; no channel to post it in", ended.number, ended.guild_id)
        return
    with reading(locale):
        post = season_post(ended)
    await sink.post(ended.channel_id, post)


class SeasonTools:
    def __init__(self, manager: TableManager, sink: Poster | None) -> None:
        self.manager = manager
        self.sink = sink

    async def show(self, interaction: discord.Interaction) -> str:
        season = await self.manager.seasons.current(guild_of(interaction))
        return words.season_state_text(season.number, season.length, season.ends_at, season.channel_id)

    async def set_length(self, interaction: discord.Interaction, length: str | None, channel_id: int) -> str:
        """Seasons of ``length`` (None: as they are), posted in ``channel_id``."""
        seasons = self.manager.seasons
        current = await seasons.current(guild_of(interaction))
        season = await seasons.set_length(guild_of(interaction), length or current.length, channel_id)
        return words.season_length_text(season.number, season.length, season.ends_at, season.channel_id)

    async def end(self, interaction: discord.Interaction, reset_chips: bool) -> None:
        """End the season under way now (``reset_chips``: every wallet back to the starting balance)."""
        guild_id = guild_of(interaction)
        if reset_chips and any(t.guild_id == guild_id for t in self.manager.registry.by_id.values()):
            raise errors.NotAllowed(errors.Refusal.TABLES_OPEN)  # (the reset checks again in its transaction)

        async def work() -> dict[str, Any]:
            reset = None
            if reset_chips:
                config = await self.manager.prefs.guild(guild_id)
                reset = Reset(interaction.user.id, config.starting_balance, self.manager.settings.house_bankroll)
            ended = await self.manager.seasons.end(guild_id, channel_of(interaction), reset)
            if ended is None:
                return {"content": i18n._(words.SEASON_ENDED_MEANWHILE)}
            try:
                locale = await server_locale(self.manager.prefs, guild_id, interaction.guild_locale)
                await post_season_end(self.sink, ended, locale)
            except (discord.HTTPException, ChannelLost) as exc:  # the channel gone or closed: kept all the same
                log.warning("posting season %s's end failed: %s", ended.number, exc)
            return {"content": words.season_ended_answer(ended.number, ended.channel_id), "allowed_mentions": NO_PINGS}

        await acknowledge_then(interaction, work)
