"""The words of tournaments: the sign-up message, the stages, the standings (and their picture's words),
the champion, the answers to the commands and their refusals. Names are escaped here."""

from __future__ import annotations

from typing import Any

from bot.messages.buttonids import ConfirmButton, encode
from bot.messages.components import DANGER, PRIMARY, ButtonSpec, Component
from bot.messages.text import escape
from bot.tournaments.model import StageTable, Tournament, TournamentStatus, prize_split, prizes
from bot.tournaments.service import Problem

JOIN, LEAVE = "tourney-join", "tourney-leave"  # the sign-up buttons (ConfirmButton kinds, with the id)

REFUSALS: dict[Problem, str] = {
    Problem.NONE_HERE: "There is no tournament in this channel. Open one with `/tripoley tournament create`.",
    Problem.ONE_OPEN_HERE: "This channel has a tournament open already: one at a time per channel.",
    Problem.UNKNOWN_GAME: "Unknown game `{game}`.",
    Problem.BAD_TABLE_SIZE: "Seats per table must be from {least} to {most} for this game.",
    Problem.BAD_ADVANCE: "How many advance from each table must be from 1 to {most} (fewer than its seats).",
    Problem.BAD_ENDING: "The tables end by elimination or after a number of rounds (at least 1).",
    Problem.BAD_BUY_IN: "The buy-in can't be negative.",
    Problem.START_PASSED: "That start time has passed already: give one in the future, or none and use `start`.",
    Problem.NOT_SIGNING_UP: "The tournament has started: sign-ups are closed.",
    Problem.ENTERED_ALREADY: "You're in this tournament already.",
    Problem.NOT_ENTERED: "You're not in this tournament.",
    Problem.LEFT_ALREADY: "You've left this tournament already.",
    Problem.HOST_ONLY: "Only the tournament's host can do that (or, to cancel, someone with Manage Server).",
    Problem.TOO_FEW: "The tournament needs at least {least} players to start; {entrants} signed up.",
    Problem.UNAFFORDABLE: "The buy-in is {buy_in} chips and your wallet holds fewer. Try `/tripoley daily`.",
    Problem.OVER: "That tournament is over (finished or cancelled).",
}


def refusal(problem: Problem, facts: dict[str, Any]) -> str:
    return REFUSALS[problem].format(**facts)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ending_text(tournament: Tournament) -> str:
    if tournament.ending == "elimination":
        return "each table plays to one player left, the antes rising every round"
    rounds = tournament.rounds
    return f"each table plays {rounds} round{'s' if rounds != 1 else ''}"


def split_text(tournament: Tournament) -> str:
    """The prizes as they stand for the field signed up now: ``1st 65% (65 chips), 2nd 35% (35 chips)``."""
    field = len(tournament.entrants)
    split = prize_split(field)
    amounts = prizes(tournament.pot(), field, len(split))
    return ", ".join(
        f"{ordinal(i)} {share}% ({amount} chips)" for i, (share, amount) in enumerate(zip(split, amounts), 1)
    )


def signup_text(tournament: Tournament, game: str) -> str:
    t = tournament
    names = ", ".join(f"**{escape(e.name)}**" for e in t.entrants) or "nobody yet"
    fill = "AI seats fill the first tables" if t.ai_fill else "no AI seats"
    start = (
        f"Starts <t:{int(t.start_at)}:R>, or when the host starts it."
        if t.start_at
        else "Starts when the host starts it."
    )
    lines = [
        f"🏆 **Tournament #{t.id}: {game}**",
        f"Buy-in {t.buy_in} chips · {t.table_size} seats a table · the best {t.advance} of each table advance"
        f" · {fill}; {ending_text(t)}, on a fresh stack of tournament chips (not your wallet).",
        start,
        f"Entrants ({len(t.entrants)}): {names}",
        f"Pot: {t.pot()} chips. Prizes for this field: {split_text(t)}. The split grows to three places from 8 entrants;"
        " what a division leaves over goes to the winner.",
    ]
    if t.status == TournamentStatus.RUNNING:
        lines.append(f"Sign-ups are closed: stage {len(t.stages)} is playing.")
    elif t.status == TournamentStatus.FINISHED:
        lines.append("The tournament is over: `/tripoley tournament standings` shows how it ended.")
    elif t.status == TournamentStatus.CANCELLED:
        lines.append("The tournament was cancelled: every buy-in went back to its wallet.")
    return "\n".join(lines)


def signup_buttons(tournament: Tournament) -> list[Component]:
    if tournament.status != TournamentStatus.SIGNUP:
        return []
    key = str(tournament.id)
    return [
        ButtonSpec(encode(ConfirmButton(JOIN, (key,))), "Join", PRIMARY),
        ButtonSpec(encode(ConfirmButton(LEAVE, (key,))), "Leave", DANGER),
    ]


def thread_name(tournament: Tournament, table: StageTable) -> str:
    return f"Tournament {tournament.id} · stage {len(tournament.stages)} · table {table.number}"


def table_opening(tournament: Tournament, table: StageTable) -> str:
    """The message a table's thread starts from."""
    names = ", ".join(f"**{escape(tournament.name_of(k))}**" for k in table.seats)
    return f"Stage {len(tournament.stages)}, table {table.number}: {names}. The game plays in this message's thread."


def stage_text(tournament: Tournament) -> str:
    stage = tournament.stage()
    final = len(stage) == 1
    head = "The final table is seated" if final else f"Stage {len(tournament.stages)} is seated at {len(stage)} tables"
    tables = "\n".join(
        f"Table {st.number}{f' (<#{st.thread_id}>)' if st.thread_id else ''}: "
        + ", ".join(escape(tournament.name_of(k)) for k in st.seats)
        for st in stage
    )
    going_on = "" if final else f" The best {tournament.advance} of each table advance."
    return f"🏆 **Tournament #{tournament.id}**: {head}.{going_on}\n{tables}"


def _reached(tournament: Tournament, key: str) -> str:
    """How far a competitor got: the final, or the stage they went out at (or left in)."""
    last = max(i for i, stage in enumerate(tournament.stages, 1) if any(key in st.seats for st in stage))
    entrant = tournament.by_key(key)
    if entrant is not None and entrant.left:
        return f"left in stage {last}"
    if last == len(tournament.stages) and len(tournament.stage()) == 1:
        return "final table"
    return f"out in stage {last}"


def standing_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Every competitor, best first: the final standings, or while it plays those still in first."""
    order = tournament.order or _provisional(tournament)
    rows = []
    for place, key in enumerate(order, 1):
        entrant = tournament.by_key(key)
        prize = entrant.prize if entrant is not None else 0
        rows.append(
            {
                "place": str(place) if tournament.order else "",
                "name": tournament.name_of(key),
                "reached": _reached(tournament, key) if tournament.stages else "signed up",
                "prize": f"{prize} chips" if prize else "",
                "paid": bool(prize),
                "out": entrant is not None and entrant.left,
            }
        )
    return rows


def _provisional(tournament: Tournament) -> list[str]:
    if not tournament.stages:
        return [e.key for e in tournament.entrants]
    still = [k for st in tournament.stage() for k in st.seats]
    earlier = [k for stage in reversed(tournament.stages[:-1]) for st in stage for k in st.seats if k not in still]
    return still + list(dict.fromkeys(earlier))


def standings_text(tournament: Tournament, game: str) -> str:
    rows = standing_rows(tournament)
    if tournament.status == TournamentStatus.FINISHED:
        head = f"🏆 **Tournament #{tournament.id} ({game}): final standings**"
    elif tournament.status == TournamentStatus.RUNNING:
        head = f"🏆 **Tournament #{tournament.id} ({game}): stage {len(tournament.stages)} playing**"
    else:
        head = f"🏆 **Tournament #{tournament.id} ({game}): {tournament.status.value}**"
    lines = [head]
    for row in rows[:30]:
        place = f"{row['place']}. " if row["place"] else "• "
        prize = f", **{row['prize']}**" if row["prize"] else ""
        lines.append(f"{place}{escape(row['name'])}: {row['reached']}{prize}")
    if len(rows) > 30:
        lines.append(f"…and {len(rows) - 30} more.")
    return "\n".join(lines)


def standings_picture(tournament: Tournament, game: str) -> dict[str, Any]:
    """The data of images.tournament's picture: its words and rows."""
    rows = standing_rows(tournament)
    alt = "; ".join(
        f"{row['place'] + ' ' if row['place'] else ''}{row['name']}, {row['reached']}"
        + (f", {row['prize']}" if row["prize"] else "")
        for row in rows
    )
    return {
        "title": f"Tournament #{tournament.id}: {game}",
        "headings": {"place": "#", "name": "PLAYER", "reached": "REACHED", "prize": "PRIZE"},
        "rows": rows,
        "alt": f"Standings of tournament #{tournament.id}: {alt}.",
    }


def champion_text(tournament: Tournament) -> str:
    champion = tournament.name_of(tournament.order[0]) if tournament.order else "nobody"
    paid = [e for e in sorted(tournament.entrants, key=lambda e: e.place or 10**9) if e.prize]
    prizes_line = ", ".join(f"{ordinal(e.place or 0)} **{escape(e.name)}** {e.prize} chips" for e in paid)
    return f"🏆 **{escape(champion)}** wins tournament #{tournament.id}!" + (
        f" Prizes: {prizes_line}." if prizes_line else " Nobody was left to pay: the house keeps the pot."
    )


def cancelled_text(tournament: Tournament) -> str:
    return f"Tournament #{tournament.id} was cancelled: every buy-in ({tournament.pot()} chips in all) went back to its wallet."


def created_answer(tournament: Tournament) -> str:
    return f"Tournament #{tournament.id} is open: you're its first entrant ({tournament.buy_in} chips bought in)."


def joined_answer(tournament: Tournament) -> str:
    return f"You're in tournament #{tournament.id}: {tournament.buy_in} chips bought in."


def left_answer(tournament: Tournament, refunded: bool) -> str:
    if refunded:
        return f"You left tournament #{tournament.id}: your {tournament.buy_in} chips are back in your wallet."
    return f"You left tournament #{tournament.id}: you forfeit your buy-in, and an AI plays your seat out."


def started_answer(tournament: Tournament) -> str:
    return f"Tournament #{tournament.id} has begun: {len(tournament.stage())} tables are seated."


def cancel_answer(tournament: Tournament) -> str:
    return f"Tournament #{tournament.id} is cancelled and every buy-in refunded."


def bad_start_time() -> str:
    return "The start time must be `HH:MM` (UTC, today or tomorrow) or a number of minutes from now, like `30`."


def not_in_a_thread() -> str:
    return "A tournament's tables play in threads of its channel: open it in a channel, not in a thread."
