"""The words of competition: the rating as players read it, the leaderboards by rating and by games,
and the seasons (an admin's changes, a season's end as posted). Whole sentences from facts; players
are named by mention only (their names never enter these texts), and the messages carrying them
ping nobody.
"""

from __future__ import annotations

from bot.i18n import _, ngettext
from bot.messages.text import timestamp
from engine.language import N_

# The leaderboards' names as the command's choices show them (the command list translates those).
RATING_TITLE = "rating"
GAMES_TITLE = "games played"
RATING_BOARD_TITLE = N_("Leaderboard — rating")
GAMES_BOARD_TITLE = N_("Leaderboard — games played")
PROVISIONAL_MORE = N_("…and {count} more.")
NO_GAMES_YET = N_("Nobody has played yet.")
SEASON_TITLE = N_("Leaderboard — season {number}, final standings")
SEASON_EMPTY = N_("Nobody was placed in season {number}.")
SEASON_NOT_OVER = N_(
    "Season {number} has not ended here, or never began: `/tripoley leaderboard` shows the season under way."
)
STATS_RATING = N_("Rating")


def ranked_empty(games: int) -> str:
    return ngettext(
        "Nobody is ranked yet: a player is ranked once they have finished {games} rated game.",
        "Nobody is ranked yet: a player is ranked once they have finished {games} rated games.",
        games,
    ).format(games=games)


def provisional_head(games: int) -> str:
    return ngettext(
        "**Provisional** (fewer than {games} game, not ranked yet):",
        "**Provisional** (fewer than {games} games, not ranked yet):",
        games,
    ).format(games=games)


def _games(games: int) -> str:
    """``3 games``: a player's count of rated games, beside their rating."""
    return ngettext("{count} game", "{count} games", abs(games)).format(count=games)


def rating_text(shown: int, games: int, provisional_games: int) -> str:
    """A player's rating as /tripoley stats shows it: ``1234``, or ``1040 (provisional: 2 of 5 games)``."""
    if games >= provisional_games:
        return str(shown)
    return ngettext(
        "{shown} (provisional: {games} of {needed} game)",
        "{shown} (provisional: {games} of {needed} games)",
        provisional_games,
    ).format(shown=shown, games=games, needed=provisional_games)


def ranked_line(place: int, user_id: int, shown: int, games: int) -> str:
    return f"**{place}.** <@{user_id}> — {shown} ({_games(games)})"


def games_line(place: int, user_id: int, games: int) -> str:
    return f"**{place}.** <@{user_id}> — {_games(games)}"


def provisional_entry(user_id: int, shown: int, games: int) -> str:
    return f"<@{user_id}> {shown} ({_games(games)})"


def standing_line(place: int, user_id: int | None, rating: int, games: int) -> str:
    """A place in a past season's standings (``user_id`` None: a player since forgotten)."""
    if user_id is None:
        return _("**{place}.** a former player — {rating} ({games})").format(
            place=place, rating=rating, games=_games(games)
        )
    return f"**{place}.** <@{user_id}> — {rating} ({_games(games)})"


def rating_footer(provisional_games: int) -> str:
    return ngettext(
        "Rating: skill from every game's final order, against people and AIs alike; ranked after {games} game.",
        "Rating: skill from every game's final order, against people and AIs alike; ranked after {games} games.",
        provisional_games,
    ).format(games=provisional_games)


def board_footer(page: int, pages: int, note: str = "") -> str:
    """A competition leaderboard's footer (``page`` counted from 1), with its note, if any."""
    if note:
        return _("Page {page}/{pages} · {note}").format(page=page, pages=pages, note=note)
    return _("Page {page}/{pages}").format(page=page, pages=pages)


WILL_BE_POSTED = N_("Its final standings will be posted in <#{channel}>.")
ARE_POSTED = N_("Its final standings are posted in <#{channel}>.")


def _where_posted(channel_id: int | None, sentence: str) -> str:
    """`` Its final standings will be posted in #channel.`` (``sentence``: that sentence), or nothing."""
    return " " + _(sentence).format(channel=channel_id) if channel_id else ""


def season_length_text(number: int, length: str, ends_at: float | None, channel_id: int | None) -> str:
    """The answer to ``/tripoley-admin season length:…``."""
    where = _where_posted(channel_id, WILL_BE_POSTED)
    if length == "none" or ends_at is None:
        return (
            _("Season {number} now runs until an admin ends it with `/tripoley-admin season end:True`.").format(
                number=number
            )
            + where
        )
    if length == "monthly":
        sentence = _("Seasons here now last a month: season {number} ends {date} ({when}).")
    else:
        sentence = _("Seasons here now last a week: season {number} ends {date} ({when}).")
    return sentence.format(number=number, date=timestamp(ends_at, "F"), when=timestamp(ends_at)) + where


def season_state_text(number: int, length: str, ends_at: float | None, channel_id: int | None) -> str:
    """The answer to ``/tripoley-admin season`` with no option: the season under way."""
    if length == "none" or ends_at is None:
        how = _("Season {number} is under way: it ends when an admin ends it.")
    elif length == "monthly":
        how = _("Season {number} is under way: it ends {date} (seasons last a month).")
    else:
        how = _("Season {number} is under way: it ends {date} (seasons last a week).")
    if channel_id:
        where = _(WILL_BE_POSTED)
    else:
        where = _("Its final standings will be posted where the season is ended.")
    how_to = _("`/tripoley-admin season end:True` ends it now; `length:` sets how long seasons last.")
    return " ".join((how.format(number=number, date=timestamp(ends_at, "F")), where.format(channel=channel_id), how_to))


def season_ended_text(number: int, lines: list[str], placed: int, reset: tuple[int, int] | None) -> str:
    """A season's end as posted: its top places, how to see them all, the softening, and the wallets
    reset with it (``reset``: how many, to how many chips; None: untouched)."""
    parts = [_("🏆 **Season {number} is over.**").format(number=number)]
    if lines:
        parts.append(_("Final standings:"))
        parts.extend(lines)
        if placed > len(lines):
            parts.append(
                _("All {placed} places: `/tripoley leaderboard season:{number}`.").format(placed=placed, number=number)
            )
    else:
        parts.append(_("Nobody played enough rated games to be placed."))
    parts.append(
        _(
            "Season {next} begins now: every rating is softened toward the start (not erased), so a new "
            "climb begins for everyone."
        ).format(next=number + 1)
    )
    if reset is not None:
        count, starting = reset
        chips = ngettext("{count} chip", "{count} chips", abs(starting)).format(count=starting)
        parts.append(
            ngettext(
                "Every wallet is back to {chips} ({count} wallet reset).",
                "Every wallet is back to {chips} ({count} wallets reset).",
                abs(count),
            ).format(chips=chips, count=count)
        )
    return "\n".join(parts)


def season_ended_answer(number: int, channel_id: int | None) -> str:
    """The admin's answer once they ended a season."""
    return _("Season {number} is over.").format(number=number) + _where_posted(channel_id, ARE_POSTED)


RESET_NEEDS_END = N_("`reset_chips:True` goes with `end:True`: wallets are reset only when a season ends.")
SEASON_ENDED_MEANWHILE = N_("That season was just ended (by its timer or another admin): nothing more to do.")
SEASON_END_AND_LENGTH = N_("Choose one: `end:True` ends the season now; `length:` sets how long seasons last.")
