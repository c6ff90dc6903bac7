"""The words of tournaments: the sign-up message, the stages, the standings (and their picture's words),
the champion, the answers to the commands and their refusals. Names are escaped here."""

from __future__ import annotations

from typing import Any

from bot.i18n import _, in_table_language, ngettext, pgettext
from bot.messages.buttonids import ConfirmButton, encode
from bot.messages.components import DANGER, PRIMARY, ButtonSpec, Component
from bot.messages.text import escape
from bot.tournaments.model import StageTable, Tournament, TournamentStatus, prize_split, prizes
from bot.tournaments.service import Problem
from engine.language import N_

JOIN, LEAVE = "tourney-join", "tourney-leave"  # the sign-up buttons (ConfirmButton kinds, with the id)

REFUSALS: dict[Problem, str] = {
    Problem.NONE_HERE: N_("There is no tournament in this channel. Open one with `/tripoley tournament create`."),
    Problem.ONE_OPEN_HERE: N_("This channel has a tournament open already: one at a time per channel."),
    Problem.UNKNOWN_GAME: N_("Unknown game `{game}`."),
    Problem.BAD_TABLE_SIZE: N_("Seats per table must be from {least} to {most} for this game."),
    Problem.BAD_ADVANCE: N_("How many advance from each table must be from 1 to {most} (fewer than its seats)."),
    Problem.BAD_ENDING: N_("The tables end by elimination or after a number of rounds (at least 1)."),
    Problem.BAD_BUY_IN: N_("The buy-in can't be negative."),
    Problem.START_PASSED: N_("That start time has passed already: give one in the future, or none and use `start`."),
    Problem.NOT_SIGNING_UP: N_("The tournament has started: sign-ups are closed."),
    Problem.ENTERED_ALREADY: N_("You're in this tournament already."),
    Problem.NOT_ENTERED: N_("You're not in this tournament."),
    Problem.LEFT_ALREADY: N_("You've left this tournament already."),
    Problem.HOST_ONLY: N_("Only the tournament's host can do that (or, to cancel, someone with Manage Server)."),
    Problem.TOO_FEW: N_("The tournament needs at least {least} players to start; {entrants} signed up."),
    Problem.UNAFFORDABLE: N_("The buy-in is {buy_in} chips and your wallet holds fewer. Try `/tripoley daily`."),
    Problem.OVER: N_("That tournament is over (finished or cancelled)."),
}


def refusal(problem: Problem, facts: dict[str, Any]) -> str:
    return _(REFUSALS[problem]).format(**facts)


def ordinal(n: int) -> str:
    """A place as the language writes it (``1st``, ``1er``, ``1.``)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("place", "{n}th").format(n=n)
    if n % 10 == 1:
        return pgettext("place", "{n}st").format(n=n)
    if n % 10 == 2:
        return pgettext("place", "{n}nd").format(n=n)
    return pgettext("place", "{n}rd").format(n=n)


def chips(amount: int) -> str:
    return ngettext("{amount} chip", "{amount} chips", amount).format(amount=amount)


def ending_text(tournament: Tournament) -> str:
    """How its tables end, and on what they play."""
    if tournament.ending == "elimination":
        return _(
            "each table plays to one player left, the antes rising every round, on a fresh stack of tournament "
            "chips (not your wallet)."
        )
    rounds = tournament.rounds
    return ngettext(
        "each table plays {rounds} round, on a fresh stack of tournament chips (not your wallet).",
        "each table plays {rounds} rounds, on a fresh stack of tournament chips (not your wallet).",
        rounds,
    ).format(rounds=rounds)


def split_text(tournament: Tournament) -> str:
    """The prizes as they stand for the field signed up now: ``1st 65% (65 chips), 2nd 35% (35 chips)``."""
    field = len(tournament.entrants)
    split = prize_split(field)
    amounts = prizes(tournament.pot(), field, len(split))
    return ", ".join(
        _("{place} {share}% ({chips})").format(place=ordinal(i), share=share, chips=chips(amount))
        for i, (share, amount) in enumerate(zip(split, amounts), 1)
    )


def terms_text(tournament: Tournament) -> str:
    """The sign-up's terms: ``Buy-in 10 chips · 4 seats a table · …; each table plays …``."""
    t = tournament
    terms = [
        ngettext("Buy-in {buy_in} chip", "Buy-in {buy_in} chips", t.buy_in).format(buy_in=t.buy_in),
        ngettext("{seats} seat a table", "{seats} seats a table", t.table_size).format(seats=t.table_size),
        ngettext(
            "the best {advance} of each table advance", "the best {advance} of each table advance", t.advance
        ).format(advance=t.advance),
        _("AI seats fill the first tables") if t.ai_fill else _("no AI seats"),
    ]
    return _("{terms}; {ending}").format(terms=" · ".join(terms), ending=ending_text(t))


def status_line(tournament: Tournament) -> str | None:
    if tournament.status == TournamentStatus.RUNNING:
        return _("Sign-ups are closed: stage {stage} is playing.").format(stage=len(tournament.stages))
    if tournament.status == TournamentStatus.FINISHED:
        return _("The tournament is over: `/tripoley tournament standings` shows how it ended.")
    if tournament.status == TournamentStatus.CANCELLED:
        return _("The tournament was cancelled: every buy-in went back to its wallet.")
    return None


@in_table_language
def signup_text(tournament: Tournament, game: str) -> str:
    t = tournament
    names = ", ".join(f"**{escape(e.name)}**" for e in t.entrants) or _("nobody yet")
    start = (
        _("Starts <t:{when}:R>, or when the host starts it.").format(when=int(t.start_at))
        if t.start_at
        else _("Starts when the host starts it.")
    )
    lines = [
        _("🏆 **Tournament #{id}: {game}**").format(id=t.id, game=game),
        terms_text(t),
        start,
        _("Entrants ({count}): {names}").format(count=len(t.entrants), names=names),
        _(
            "Pot: {pot}. Prizes for this field: {split}. The split grows to three places from 8 entrants; what a "
            "division leaves over goes to the winner."
        ).format(pot=chips(t.pot()), split=split_text(t)),
    ]
    status = status_line(t)
    if status is not None:
        lines.append(status)
    return "\n".join(lines)


@in_table_language
def signup_buttons(tournament: Tournament) -> list[Component]:
    if tournament.status != TournamentStatus.SIGNUP:
        return []
    key = str(tournament.id)
    return [
        ButtonSpec(encode(ConfirmButton(JOIN, (key,))), pgettext("button", "Join"), PRIMARY),
        ButtonSpec(encode(ConfirmButton(LEAVE, (key,))), pgettext("button", "Leave"), DANGER),
    ]


@in_table_language
def thread_name(tournament: Tournament, table: StageTable) -> str:
    return _("Tournament {id} · stage {stage} · table {table}").format(
        id=tournament.id, stage=len(tournament.stages), table=table.number
    )


@in_table_language
def table_opening(tournament: Tournament, table: StageTable) -> str:
    """The message a table's thread starts from."""
    names = ", ".join(f"**{escape(tournament.name_of(k))}**" for k in table.seats)
    return _("Stage {stage}, table {table}: {names}. The game plays in this message's thread.").format(
        stage=len(tournament.stages), table=table.number, names=names
    )


@in_table_language
def stage_text(tournament: Tournament) -> str:
    stage = tournament.stage()
    tables = "\n".join(
        (_("Table {table} (<#{thread}>): {names}") if st.thread_id else _("Table {table}: {names}")).format(
            table=st.number, thread=st.thread_id, names=", ".join(escape(tournament.name_of(k)) for k in st.seats)
        )
        for st in stage
    )
    if len(stage) == 1:
        head = _("🏆 **Tournament #{id}**: The final table is seated.")
    else:
        head = ngettext(
            "🏆 **Tournament #{id}**: Stage {stage} is seated at {tables} table. The best {advance} of each table "
            "advance.",
            "🏆 **Tournament #{id}**: Stage {stage} is seated at {tables} tables. The best {advance} of each table "
            "advance.",
            len(stage),
        )
    return head.format(
        id=tournament.id, stage=len(tournament.stages), tables=len(stage), advance=tournament.advance
    ) + ("\n" + tables)


def _reached(tournament: Tournament, key: str) -> str:
    """How far a competitor got: the final, or the stage they went out at (or left in)."""
    last = max(i for i, stage in enumerate(tournament.stages, 1) if any(key in st.seats for st in stage))
    entrant = tournament.by_key(key)
    if entrant is not None and entrant.left:
        return _("left in stage {stage}").format(stage=last)
    if last == len(tournament.stages) and len(tournament.stage()) == 1:
        return _("final table")
    return _("out in stage {stage}").format(stage=last)


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
                "reached": _reached(tournament, key) if tournament.stages else _("signed up"),
                "prize": chips(prize) if prize else "",
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


def standings_head(tournament: Tournament, game: str) -> str:
    facts = {"id": tournament.id, "game": game, "stage": len(tournament.stages)}
    if tournament.status == TournamentStatus.FINISHED:
        return _("🏆 **Tournament #{id} ({game}): final standings**").format(**facts)
    if tournament.status == TournamentStatus.RUNNING:
        return _("🏆 **Tournament #{id} ({game}): stage {stage} playing**").format(**facts)
    if tournament.status == TournamentStatus.CANCELLED:
        return _("🏆 **Tournament #{id} ({game}): cancelled**").format(**facts)
    return _("🏆 **Tournament #{id} ({game}): signup**").format(**facts)


def standing_line(row: dict[str, Any]) -> str:
    facts = {"place": row["place"], "name": escape(row["name"]), "reached": row["reached"], "prize": row["prize"]}
    if row["place"] and row["prize"]:
        return _("{place}. {name}: {reached}, **{prize}**").format(**facts)
    if row["place"]:
        return _("{place}. {name}: {reached}").format(**facts)
    if row["prize"]:
        return _("• {name}: {reached}, **{prize}**").format(**facts)
    return _("• {name}: {reached}").format(**facts)


@in_table_language
def standings_text(tournament: Tournament, game: str) -> str:
    rows = standing_rows(tournament)
    lines = [standings_head(tournament, game)] + [standing_line(row) for row in rows[:30]]
    if len(rows) > 30:
        lines.append(_("…and {count} more.").format(count=len(rows) - 30))
    return "\n".join(lines)


def picture_row(row: dict[str, Any]) -> str:
    facts = {"place": row["place"], "name": row["name"], "reached": row["reached"], "prize": row["prize"]}
    if row["place"] and row["prize"]:
        return _("{place} {name}, {reached}, {prize}").format(**facts)
    if row["place"]:
        return _("{place} {name}, {reached}").format(**facts)
    if row["prize"]:
        return _("{name}, {reached}, {prize}").format(**facts)
    return _("{name}, {reached}").format(**facts)


@in_table_language
def standings_picture(tournament: Tournament, game: str) -> dict[str, Any]:
    """The data of images.tournament's picture: its words and rows."""
    rows = standing_rows(tournament)
    return {
        "title": _("Tournament #{id}: {game}").format(id=tournament.id, game=game),
        "headings": {
            "place": pgettext("column heading", "#"),
            "name": pgettext("column heading", "PLAYER"),
            "reached": pgettext("column heading", "REACHED"),
            "prize": pgettext("column heading", "PRIZE"),
        },
        "rows": rows,
        "alt": _("Standings of tournament #{id}: {rows}.").format(
            id=tournament.id, rows="; ".join(picture_row(row) for row in rows)
        ),
    }


@in_table_language
def champion_text(tournament: Tournament) -> str:
    champion = tournament.name_of(tournament.order[0]) if tournament.order else _("nobody")
    paid = [e for e in sorted(tournament.entrants, key=lambda e: e.place or 10**9) if e.prize]
    prizes_line = ", ".join(
        _("{place} **{name}** {chips}").format(place=ordinal(e.place or 0), name=escape(e.name), chips=chips(e.prize))
        for e in paid
    )
    facts = {"champion": escape(champion), "id": tournament.id, "prizes": prizes_line}
    if prizes_line:
        return _("🏆 **{champion}** wins tournament #{id}! Prizes: {prizes}.").format(**facts)
    return _("🏆 **{champion}** wins tournament #{id}! Nobody was left to pay: the house keeps the pot.").format(
        **facts
    )


@in_table_language
def cancelled_text(tournament: Tournament) -> str:
    return _("Tournament #{id} was cancelled: every buy-in ({pot} in all) went back to its wallet.").format(
        id=tournament.id, pot=chips(tournament.pot())
    )


def created_answer(tournament: Tournament) -> str:
    return _("Tournament #{id} is open: you're its first entrant ({buy_in} bought in).").format(
        id=tournament.id, buy_in=chips(tournament.buy_in)
    )


def joined_answer(tournament: Tournament) -> str:
    return _("You're in tournament #{id}: {buy_in} bought in.").format(
        id=tournament.id, buy_in=chips(tournament.buy_in)
    )


def left_answer(tournament: Tournament, refunded: bool) -> str:
    if refunded:
        return _("You left tournament #{id}: your {buy_in} are back in your wallet.").format(
            id=tournament.id, buy_in=chips(tournament.buy_in)
        )
    return _("You left tournament #{id}: you forfeit your buy-in, and an AI plays your seat out.").format(
        id=tournament.id
    )


def started_answer(tournament: Tournament) -> str:
    tables = len(tournament.stage())
    return ngettext(
        "Tournament #{id} has begun: {tables} table is seated.",
        "Tournament #{id} has begun: {tables} tables are seated.",
        tables,
    ).format(id=tournament.id, tables=tables)


def cancel_answer(tournament: Tournament) -> str:
    return _("Tournament #{id} is cancelled and every buy-in refunded.").format(id=tournament.id)


def bad_start_time() -> str:
    return _("The start time must be `HH:MM` (UTC, today or tomorrow) or a number of minutes from now, like `30`.")


def not_in_a_thread() -> str:
    return _("A tournament's tables play in threads of its channel: open it in a channel, not in a thread.")
