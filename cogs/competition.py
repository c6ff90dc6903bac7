"""The leaderboards of competition (by rating, by games played, a past season's final standings), as
``/tripoley leaderboard`` pages them (:mod:`cogs.economy` draws the boards by chips and wins).

Each is an embed whose text names players by mention only; the messages ping nobody.
"""

from __future__ import annotations

import discord

from bot import errors
from bot.competition.rating import PROVISIONAL_GAMES
from bot.competition.store import FORGOTTEN, CompetitionStore
from bot.i18n import _
from bot.messages import competition as words

PROVISIONAL_SHOWN = 10  # provisional players listed under the ranked ones (the rest counted)
COLOUR = 0x2E8B57


def _embed(title: str, lines: list[str], empty: str, page: int, pages: int, note: str = "") -> discord.Embed:
    embed = discord.Embed(title=title, description="\n".join(lines) or empty, colour=COLOUR)
    embed.set_footer(text=words.board_footer(page + 1, pages, note))
    return embed


def page_count(size: int, per_page: int) -> int:
    return max(1, -(-size // per_page))


async def rating_board(store: CompetitionStore, guild_id: int, page: int, per_page: int) -> tuple[discord.Embed, int]:
    """The ranked players by rating (page ``page``), the provisional ones apart under them (first
    page), and the number of pages."""
    pages = page_count(await store.ranked_count(guild_id), per_page)
    page = max(0, min(page, pages - 1))
    ranked = await store.ranked(guild_id, page * per_page, per_page)
    first = page * per_page + 1
    lines = [words.ranked_line(place, r.user_id, r.shown, r.games) for place, r in enumerate(ranked, first)]
    if not lines:
        lines = [words.ranked_empty(PROVISIONAL_GAMES)] if page == 0 else []
    provisional, count = await store.provisional(guild_id, PROVISIONAL_SHOWN)
    if provisional and page == 0:
        lines += ["", words.provisional_head(PROVISIONAL_GAMES)]
        lines.append(" · ".join(words.provisional_entry(r.user_id, r.shown, r.games) for r in provisional))
        if count > len(provisional):
            lines.append(_(words.PROVISIONAL_MORE).format(count=count - len(provisional)))
    title = _(words.RATING_BOARD_TITLE)
    return _embed(title, lines, _(words.NO_GAMES_YET), page, pages, words.rating_footer(PROVISIONAL_GAMES)), pages


async def games_board(store: CompetitionStore, guild_id: int, page: int, per_page: int) -> tuple[discord.Embed, int]:
    pages = page_count(await store.most_games_count(guild_id), per_page)
    page = max(0, min(page, pages - 1))
    rows = await store.most_games(guild_id, page * per_page, per_page)
    lines = [
        words.games_line(place, user_id, games) for place, (user_id, games) in enumerate(rows, page * per_page + 1)
    ]
    return _embed(_(words.GAMES_BOARD_TITLE), lines, _(words.NO_GAMES_YET), page, pages), pages


async def season_board(
    store: CompetitionStore, guild_id: int, season: int, page: int, per_page: int
) -> tuple[discord.Embed, int]:
    """A past season's final standings; refused for a season that has not ended."""
    if not await store.ended_season(guild_id, season):
        raise errors.TripoleyError(_(words.SEASON_NOT_OVER).format(number=season))
    pages = page_count(await store.standings_count(guild_id, season), per_page)
    page = max(0, min(page, pages - 1))
    lines = [
        words.standing_line(s.place, None if s.user_id == FORGOTTEN else s.user_id, s.rating, s.games)
        for s in await store.standings(guild_id, season, page * per_page, per_page)
    ]
    title = _(words.SEASON_TITLE).format(number=season)
    return _embed(title, lines, _(words.SEASON_EMPTY).format(number=season), page, pages), pages
