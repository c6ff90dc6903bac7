"""The public table message's text: the lobby, a round's mat, a closed table, the final standings.

The text is always sent (images come on top when available), so it carries everything a player
needs to play; it stays within Discord's limit at any table size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import READING, _, ngettext, pgettext
from bot.messages.reveals import latest_reveal, reveal_board
from bot.messages.rules import lobby_rules_lines
from bot.messages.text import (
    CLEARING_THE_BOARD,
    MAX_CONTENT,
    NEXT_ROUND,
    SHOWDOWN_LINE,
    WAITING_ON_MAT,
    WAITING_ON_MAT_UNTIL,
    cards,
    choosing_together,
    clip,
    counted,
    escape,
    escaped_view,
    name,
    names_of,
    phase_text,
    timestamp,
)
from bot.tables.model import Table
from engine.cardnames import card_names, label_in
from engine.cards import SUIT_SYMBOLS
from engine.language import N_
from engine.presets import Preset
from engine.textview import poker_move_words
from engine.viewtypes import GameView


def pinged_user(table: Table, view: GameView) -> int | None:
    """The player whose turn the table message names with a mention (shown, not notified: see bot.discordio.turns)."""
    to_act = view["to_act"]
    if to_act is None or table.deadline_kind != "turn" or to_act >= len(table.seats):
        return None
    seat = table.seats[to_act]
    return seat.user_id if seat.user_id and not seat.auto else None


LOBBY_HEAD = N_("## 🃏 {game} — table open")
LOBBY_TERMS = N_("Buy-in **{buy_in}** chips · seats {seated}/{seats} (at least {least}) · turn timer {timer} s")
LOBBY_CLOSES = N_("Press **Join** to take a seat. The lobby closes {time} if not started.")
CLOSED_HEAD = N_("## 🃏 {game} — closed")
CLOSED = N_("The table is closed.")
STANDING = N_("{medal} {who} — {chips} ({net})")
FINAL_FOOTER = N_(
    "Everyone has been cashed out to their wallet. **Rematch** to play again, **Log** for the whole game,"
    " **Replay** for its file, or `/tripoley start` a new game."
)


def game_over_head(game: str, rounds: int) -> str:
    """The final standings' heading: after one round, or more."""
    return ngettext(
        "## 🏁 {game} — game over after {rounds} round", "## 🏁 {game} — game over after {rounds} rounds", rounds
    ).format(game=game, rounds=rounds)


def lobby_text(table: Table, info: Preset) -> str:
    lines = [
        _(LOBBY_HEAD).format(game=_(info.name)),
        _(info.summary) if info.summary else "",
        _(LOBBY_TERMS).format(
            buy_in=table.buy_in,
            seated=len(table.seats),
            seats=info.max_players,
            least=info.min_players,
            timer=int(table.turn_timeout),
        ),
    ]
    lines += lobby_rules_lines(table.preset, table.options)
    lines.append("")
    for i, seat in enumerate(table.seats, 1):
        host = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id else f"🤖 {escape(seat.name)}"
        lines.append(f"{i}. {who}{host}")
    lines.append("")
    if table.deadline:
        lines.append(_(LOBBY_CLOSES).format(time=timestamp(table.deadline)))
    return "\n".join(line for line in lines if line is not None)


def cancelled_text(table: Table, info: Preset) -> str:
    last = table.log[-1] if table.log else _(CLOSED)
    return _(CLOSED_HEAD).format(game=_(info.name)) + "\n" + last


# What the table message marks a seat with (its engine status, its dealer button, an AI in its place).
SEAT_MARKS: dict[str, Callable[[], str]] = {
    "dealer": lambda: pgettext("seat mark", "dealer"),
    "eliminated": lambda: pgettext("seat mark", "eliminated"),
    "sitting-out": lambda: pgettext("seat mark", "sitting-out"),
    "folded": lambda: pgettext("seat mark", "folded"),
    "removed": lambda: pgettext("seat mark", "removed · AI"),
    "left": lambda: pgettext("seat mark", "left · AI"),
    "away": lambda: pgettext("seat mark", "away · AI"),
}
IN_POT = N_(" · in pot {chips}")  # a seat's chips bet in this poker betting round, after its stack

BOARD_LINE = 400  # a board line (showdown, Michigan sequence) shortened to this when the message is too long


SHORT_NAME = 12


def fit_mat(
    head: list[str],
    seats: list[tuple[str, str]],
    board: list[str],
    log: list[str],
    footer: list[str],
    limit: int = MAX_CONTENT,
) -> str:
    """The table message within Discord's limit, whatever the table's size and names: the log is
    shortened first (it is all under the Log button), then the seat lines (the picture shows every
    seat) and the board lines; whose turn it is and the deadline (``footer``) always stay.
    ``seats``: (full line, short line) per seat."""
    seat_lines = [full for full, _ in seats]
    log = list(log)

    def compose() -> str:
        return "\n".join(head + seat_lines + board + (["", *log] if log else []) + ["", *footer])

    text = compose()
    while len(text) > limit and log:
        log.pop(0)
        text = compose()
    if len(text) > limit:
        seat_lines = [short for _, short in seats]
        board = [clip(line, BOARD_LINE) for line in board]
        text = compose()
    if len(text) > limit:
        tail = "\n\n" + "\n".join(footer)
        text = clip("\n".join(head + seat_lines + board), limit - len(tail)) + tail
    return text


def has_pay_suit(view: GameView) -> bool:
    """Whether the mat's money cards are of one pay suit (Tripoley's hearts; not Great Lakes' three
    named cards, nor Wanagan's mat of hands)."""
    symbol = SUIT_SYMBOLS.get(view["pay_suit"] or "H", "")
    labels = [sp["label"] for sp in view["mat"] if sp["kind"] in ("card", "combo")]
    suited = [label for label in labels if any(s in label for s in SUIT_SYMBOLS.values())]
    return bool(labels) and all(label.endswith(symbol) for label in suited)


def mat_text(table: Table, view: GameView, told: bool = False) -> str:
    """The public table message (``told``: the round's results come with it, which show its
    showdown: not told twice)."""
    language = READING.get().value
    game_name = escape(_(view["preset_name"]))
    if has_pay_suit(view):
        terms = _("Ante {ante} · pay suit {suit} · {phase}").format(
            ante=view["ante"], suit=SUIT_SYMBOLS.get(view["pay_suit"], ""), phase=phase_text(view["phase"])
        )
    else:
        terms = _("Ante {ante} · {phase}").format(ante=view["ante"], phase=phase_text(view["phase"]))
    head = [_("## 🃏 {game} — round {round}").format(game=game_name, round=view["round"]), terms]
    to_act = view["to_act"]
    acting = view["acting"] or ([to_act] if to_act is not None else [])
    seats_out = []
    for s in view["seats"]:
        i = s["seat"]
        marks: list[str] = []
        if s["is_dealer"]:
            marks.append(SEAT_MARKS["dealer"]())
        if s["status"] != "active":
            marks.append(SEAT_MARKS[s["status"]]())
        if i < len(table.seats):
            seat = table.seats[i]
            if seat.left:
                marks.append(SEAT_MARKS["removed" if seat.removed else "left"]())
            elif seat.away:
                marks.append(SEAT_MARKS["away"]())
        arrow = "▶ " if i in acting else "　"
        extra = f" ({', '.join(marks)})" if marks else ""
        in_poker = view["phase"].startswith("poker")  # once the pot is paid, nothing is in it
        committed = _(IN_POT).format(chips=s["committed"]) if s["committed"] and in_poker else ""
        standing = _("**{name}** — {chips} · {cards}").format(
            name=escape(s["name"]), chips=counted(s["stack"], "chip"), cards=counted(s["cards"], "card")
        )
        seats_out.append(
            (
                f"{arrow}{standing}{committed}{extra}",
                f"{arrow}**{escape(clip(s['name'], SHORT_NAME))}** {s['stack']}"
                + (f" ({', '.join(marks)})" if marks else ""),
            )
        )
    board: list[str] = []
    if view["mat"]:
        spaces = " · ".join(f"{label_in(sp['label'], language)} {sp['chips']}" for sp in view["mat"])
        board.append(_("**Mat:** {spaces}").format(spaces=spaces))
    poker = view["poker"]
    if poker is not None and poker["showdown"] and not told:
        hand_names = card_names(language)
        shows = [
            _("{name}: {cards} ({hand})").format(
                name=name(view, h["seat"]), cards=cards(h["cards"]), hand=hand_names.hand(h["hand"])
            )
            for h in poker["showdown"]
        ]
        board.append(_(SHOWDOWN_LINE).format(hands=" | ".join(shows)))
    elif poker is not None and poker["last_action"]:
        board.append(
            _("**Poker:** {action} (bet {bet})").format(
                action=escape(poker_move_words(poker["last_action"])), bet=poker["current_bet"]
            )
        )
    game = table.running_game
    reveal = latest_reveal(game.log[-1]["events"]) if game.log else None
    if reveal is not None:
        board.append(reveal_board(reveal, escaped_view(view)))
    mich = view["michigan"]
    if mich is not None and mich["sequence"]:
        board.append(_("**Michigan:** {cards}").format(cards=cards(mich["sequence"])))
    spare = view["spare"]
    if spare is not None and spare["auction"] is not None:
        au = spare["auction"]
        if au["high_bidder"] is not None:
            bid = _("**Auction:** high bid {bid} by {name}").format(
                bid=au["high_bid"], name=name(view, au["high_bidder"])
            )
        else:
            bid = _("**Auction:** high bid {bid} by nobody").format(bid=au["high_bid"])
        board.append(bid)
    footer: list[str] = []
    if choosing_together(view) and table.deadline_kind in ("turn", "ai"):
        # every seat asked decides at once: who is still choosing, nothing about what was chosen
        players = {i: s.user_id for i, s in enumerate(table.seats) if s.user_id and not s.auto}
        names = names_of(view, view["acting"], players)
        if table.deadline_kind == "turn":
            footer.append(_(WAITING_ON_MAT_UNTIL[view["phase"]]).format(names=names, time=timestamp(table.deadline)))
        else:
            footer.append(_(WAITING_ON_MAT[view["phase"]]).format(names=names))
    elif to_act is not None and table.deadline_kind in ("turn", "ai", "forced"):
        who = name(view, to_act)
        pinged = pinged_user(table, view)
        mention = f"<@{pinged}>" if pinged else f"**{who}**"
        phase = phase_text(view["phase"])
        if table.deadline_kind == "turn":
            footer.append(
                _("⏳ {mention} to act ({phase}) — time runs out {time}").format(
                    mention=mention, phase=phase, time=timestamp(table.deadline)
                )
            )
        elif table.deadline_kind == "forced":  # their only card: played for them in a moment
            footer.append(_("⏳ {mention} to act ({phase})").format(mention=mention, phase=phase))
        else:
            footer.append(_("🤖 {name} is thinking…").format(name=who))
    elif table.deadline_kind == "next-deal":
        # the rounds are played: what is left clears the board
        footer.append(_(CLEARING_THE_BOARD if game.over else NEXT_ROUND).format(time=timestamp(table.deadline)))
    return fit_mat(head, seats_out, board, [f"› {line}" for line in table.log[-6:]], footer)


def final_text(table: Table) -> str:
    """The results: every player's chips, net and game (pots won, best hand), the game's highlights,
    the last lines of the log. Within Discord's limit at any table size: the log lines go first,
    then each player's pots and best hand (the standings picture shows them too)."""
    result = table.result or {}
    rounds = int(result.get("rounds", 0))
    head = [game_over_head(escape(_(result.get("preset_name", table.preset))), rounds)]
    standings: list[str] = []
    details: list[str] = []
    for i, s in enumerate(result.get("seats", []), 1):
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        net = f"+{s['net']}" if s["net"] > 0 else str(s["net"])
        who = f"<@{s['user_id']}>" if s.get("user_id") else f"🤖 {escape(s['name'])}"
        standings.append(_(STANDING).format(medal=medal, who=who, chips=counted(s["final"], "chip"), net=net))
        details.append(f" · {escape(player_result(s))}" if "pots_won" in s else "")
    highlights = highlight_lines(result)
    footer = [_(FINAL_FOOTER)]
    log = [f"› {line}" for line in table.log[-3:]]

    def compose(with_details: bool) -> str:
        seats = [line + (extra if with_details else "") for line, extra in zip(standings, details)]
        return "\n".join(head + seats + ([""] + highlights if highlights else []) + [""] + log + footer)

    text = compose(True)
    while len(text) > MAX_CONTENT and log:
        log.pop(0)
        text = compose(True)
    return text if len(text) <= MAX_CONTENT else compose(False)


# The game's biggest pot, by what is known of it: (from a space, in a round) → the sentence for its amount.
BIGGEST_POT: dict[tuple[bool, bool], Callable[[int], str]] = {
    (True, True): lambda n: ngettext(
        "Biggest pot: {amount} chip to {name} from {space} in round {round}.",
        "Biggest pot: {amount} chips to {name} from {space} in round {round}.",
        n,
    ),
    (True, False): lambda n: ngettext(
        "Biggest pot: {amount} chip to {name} from {space}.", "Biggest pot: {amount} chips to {name} from {space}.", n
    ),
    (False, True): lambda n: ngettext(
        "Biggest pot: {amount} chip to {name} in round {round}.",
        "Biggest pot: {amount} chips to {name} in round {round}.",
        n,
    ),
    (False, False): lambda n: ngettext(
        "Biggest pot: {amount} chip to {name}.", "Biggest pot: {amount} chips to {name}.", n
    ),
}
BEST_HAND = N_("Best hand: {name}'s {hand}.")
WORST_HAND = N_("Worst hand (the worst hand wins here): {name}'s {hand}.")  # Great Lakes: the worst hand wins the poker


def highlight_lines(result: dict[str, Any], discord: bool = True) -> list[str]:
    """The game's biggest pot and best hand in words: Discord text (names escaped, figures bold,
    an emoji before each), or plain (``discord=False``: for the standings picture)."""
    highlights = result.get("highlights") or {}  # a finished game's results (bot.tables.results), as saved

    def who(name: object) -> str:
        return escape(name) if discord else str(name)

    def bold(figure: object) -> str:
        return f"**{figure}**" if discord else str(figure)

    language = READING.get().value
    lines = []
    pot = highlights.get("biggest_pot")
    if pot:
        sentence = BIGGEST_POT[(bool(pot.get("space")), bool(pot.get("round")))](int(pot["amount"]))
        space = label_in(str(pot["space"]), language) if pot.get("space") else None
        lines.append(
            ("💰 " if discord else "")
            + sentence.format(amount=bold(pot["amount"]), name=who(pot["name"]), space=space, round=pot.get("round"))
        )
    for key, sentence in (("best_hand", BEST_HAND), ("worst_hand", WORST_HAND)):
        hand = highlights.get(key)
        if hand:
            named = card_names(language).hand(str(hand["hand"]))
            lines.append(("🃏 " if discord else "") + _(sentence).format(name=who(hand["name"]), hand=bold(named)))
    return lines


# One player's game beyond their chips, by the hand named (best, worst or none) → the sentence for their pots.
PLAYER_RESULT: dict[str | None, Callable[[int], str]] = {
    None: lambda n: ngettext("{pots} pot won", "{pots} pots won", n),
    "best_hand": lambda n: ngettext("{pots} pot won, best hand {hand}", "{pots} pots won, best hand {hand}", n),
    "worst_hand": lambda n: ngettext("{pots} pot won, worst hand {hand}", "{pots} pots won, worst hand {hand}", n),
}


def player_result(seat: dict[str, Any]) -> str:
    """One player's game beyond their chips: pots won, best hand shown down (plain text; where the
    worst hand wins the poker, that is the hand named)."""
    pots = int(seat.get("pots_won") or 0)
    key = "worst_hand" if "worst_hand" in seat else "best_hand"
    named = key if seat.get(key) else None
    hand = card_names(READING.get().value).hand(str(seat[key])) if named else None
    return PLAYER_RESULT[named](pots).format(pots=pots, hand=hand)
