"""The words of competition: the rating as players read it, the leaderboards by rating and by games,
and the seasons (an admin's changes, a season's end as posted). Whole sentences from facts; players
are named by mention only (their names never enter these texts), and the messages carrying them
ping nobody.
"""

from __future__ import annotations

from bot.messages.text import counted, timestamp

RATING_TITLE = "rating"
GAMES_TITLE = "games played"
RANKED_EMPTY = "Nobody is ranked yet: a player is ranked once they have finished {games} rated games."
PROVISIONAL_HEAD = "**Provisional** (fewer than {games} games, not ranked yet):"
PROVISIONAL_MORE = "…and {count} more."
NO_GAMES_YET = "Nobody has played yet."
SEASON_TITLE = "Leaderboard — season {number}, final standings"
SEASON_EMPTY = "Nobody was placed in season {number}."
SEASON_NOT_OVER = (
    "Season {number} has not ended here, or never began: `/tripoley leaderboard` shows the season under way."
)
STATS_RATING = "Rating"
LENGTH_WORDS = {"monthly": "a month", "weekly": "a week"}


def rating_text(shown: int, games: int, provisional_games: int) -> str:
    """A player's rating as /tripoley stats shows it: ``1234``, or ``1040 (provisional: 2 of 5 games)``."""
    if games >= provisional_games:
        return str(shown)
    return f"{shown} (provisional: {games} of {counted(provisional_games, 'game')})"


def ranked_line(place: int, user_id: int, shown: int, games: int) -> str:
    return f"**{place}.** <@{user_id}> — {shown} ({counted(games, 'game')})"


def games_line(place: int, user_id: int, games: int) -> str:
    return f"**{place}.** <@{user_id}> — {counted(games, 'game')}"


def provisional_entry(user_id: int, shown: int, games: int) -> str:
    return f"<@{user_id}> {shown} ({counted(games, 'game')})"


def standing_line(place: int, user_id: int | None, rating: int, games: int) -> str:
    """A place in a past season's standings (``user_id`` None: a player since forgotten)."""
    who = "a former player" if user_id is None else f"<@{user_id}>"
    return f"**{place}.** {who} — {rating} ({counted(games, 'game')})"


def rating_footer(provisional_games: int) -> str:
    return (
        f"Rating: skill from every game's final order, against people and AIs alike; "
        f"ranked after {counted(provisional_games, 'game')}."
    )


def season_length_text(number: int, length: str, ends_at: float | None, channel_id: int | None) -> str:
    """The answer to ``/tripoley-admin season length:…``."""
    where = f" Its final standings will be posted in <#{channel_id}>." if channel_id else ""
    if length == "none" or ends_at is None:
        return f"Season {number} now runs until an admin ends it with `/tripoley-admin season end:True`.{where}"
    return (
        f"Seasons here now last {LENGTH_WORDS[length]}: season {number} ends {timestamp(ends_at, 'F')} "
        f"({timestamp(ends_at)}).{where}"
    )


def season_state_text(number: int, length: str, ends_at: float | None, channel_id: int | None) -> str:
    """The answer to ``/tripoley-admin season`` with no option: the season under way."""
    how = (
        "it ends when an admin ends it"
        if length == "none" or ends_at is None
        else f"it ends {timestamp(ends_at, 'F')} (seasons last {LENGTH_WORDS[length]})"
    )
    where = f"posted in <#{channel_id}>" if channel_id else "posted where the season is ended"
    return (
        f"Season {number} is under way: {how}. Its final standings will be {where}. "
        "`/tripoley-admin season end:True` ends it now; `length:` sets how long seasons last."
    )


def season_ended_text(number: int, lines: list[str], placed: int, reset: tuple[int, int] | None) -> str:
    """A season's end as posted: its top places, how to see them all, the softening, and the wallets
    reset with it (``reset``: how many, to how many chips; None: untouched)."""
    parts = [f"🏆 **Season {number} is over.**"]
    if lines:
        parts.append("Final standings:")
        parts.extend(lines)
        if placed > len(lines):
            parts.append(f"All {placed} places: `/tripoley leaderboard season:{number}`.")
    else:
        parts.append("Nobody played enough rated games to be placed.")
    parts.append(
        f"Season {number + 1} begins now: every rating is softened toward the start (not erased), so a new "
        "climb begins for everyone."
    )
    if reset is not None:
        count, starting = reset
        parts.append(f"Every wallet is back to {counted(starting, 'chip')} ({counted(count, 'wallet')} reset).")
    return "\n".join(parts)


def season_ended_answer(number: int, channel_id: int | None) -> str:
    """The admin's answer once they ended a season."""
    where = f" Its final standings are posted in <#{channel_id}>." if channel_id else ""
    return f"Season {number} is over.{where}"


RESET_NEEDS_END = "`reset_chips:True` goes with `end:True`: wallets are reset only when a season ends."
SEASON_ENDED_MEANWHILE = "That season was just ended (by its timer or another admin): nothing more to do."
SEASON_END_AND_LENGTH = "Choose one: `end:True` ends the season now; `length:` sets how long seasons last."
