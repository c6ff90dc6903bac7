"""The terminal game's screen: the table, the prompt, a refusal's reason and the results, as plain text
from a seat's view, in the game's language (:data:`engine.language.LANGUAGE`): whole catalog sentences,
cards and spaces in that language's names; the commands a player types are the same in every language.

Pure like :mod:`engine.textview`, whose words it uses: a view in, strings out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import cards as C
from . import events as ev
from .events import as_events
from .eventwords import event_sentence, hand_word, reader_seat, suit_word
from .language import LANGUAGE, N_, SOURCE, _, ngettext, pgettext
from .phases.names import PHASE_TEXTS, PhaseName
from .reasons import Worded
from .reasontext import players_names
from .textview import (
    card,
    cards,
    describe_events,
    name_of,
    plain_message,
    poker_move_words,
    sorted_hand,
    space_label,
    spoken_space,
    warning_words,
)
from .viewtypes import GameView, Standing

# ---------------------------------------------------------------- words of the screen
#: A seat's marks in the seat lines: its status (``SeatStatus``), the dealer's button; the words of the
#: table message's seats (bot/messages/tabletext.py, the catalogs' context "seat mark").
SEAT_MARKS: dict[str, Callable[[], str]] = {
    "dealer": lambda: pgettext("seat mark", "dealer"),
    "eliminated": lambda: pgettext("seat mark", "eliminated"),
    "sitting-out": lambda: pgettext("seat mark", "sitting-out"),
    "folded": lambda: pgettext("seat mark", "folded"),
}
POKER_MOVES = (ev.Check, ev.Fold, ev.Call, ev.Bet, ev.Raise)


def player_word() -> str:
    """The terminal's player as the screen names them when they gave no ``--name``, in the game's language
    ("you", "vous", "du"; the saved name, in replays, stays "you")."""
    return pgettext("the terminal player's name at the table", "you")


def english() -> bool:
    """Whether the game speaks English, where some lines keep the engine's own words (the phase's
    name, the poker's last move): the tests and black-box tests read them."""
    return LANGUAGE.get() == SOURCE


def phase_words(phase: str) -> str:
    """The phase in the header: its name in English (``poker-choose``), its title elsewhere."""
    if english():
        return phase
    try:
        return _(PHASE_TEXTS[PhaseName(phase)].title)
    except (ValueError, KeyError):
        return phase


def renamed(view: GameView, names: Mapping[int, str]) -> GameView:
    """``view`` with the seats in ``names`` named so (the player "vous"); the same view, changed."""
    for s in view["seats"]:
        s["name"] = names.get(s["seat"], s["name"])
    return view


def and_list(items: Sequence[str]) -> str:
    """``a and b and c`` in the game's language."""
    return functools.reduce(lambda first, second: _("{first} and {second}").format(first=first, second=second), items)


# ---------------------------------------------------------------- blocks of the table
def render_header(view: GameView) -> str:
    return _("== {game} — round {round}, ante {ante}, phase {phase} ==").format(
        game=_(view["preset_name"]), round=view["round"], ante=view["ante"], phase=phase_words(view["phase"])
    )


def render_mat(view: GameView) -> str:
    """The mat: each space's label and chips, several to a line."""
    cells = [f"{spoken_space(view, sp['id'])}: {sp['chips']}" for sp in view["mat"]]
    head = _("Mat:")
    lines, line = [], head
    for cell in cells:
        if len(line) + len(cell) + 3 > 78:
            lines.append(line)
            line = " " * len(head)
        line += " " + f"[{cell}]"
    lines.append(line)
    total = sum(sp["chips"] for sp in view["mat"])
    lines[-1] += "   " + _("(on the mat: {total})").format(total=total)
    return "\n".join(lines)


def render_seats(view: GameView) -> str:
    """One line per seat: marker for the seat to act, name, stack, cards left, dealer, status."""
    lines = []
    to_act, viewer = view["to_act"], view["viewer"]
    plain = {"you", player_word().lower()}  # a name that says it already
    width = max((len(s["name"]) for s in view["seats"]), default=4) + 6
    for s in view["seats"]:
        mark = ">" if s["seat"] == to_act else " "
        name = (
            _("{name} (you)").format(name=s["name"])
            if s["seat"] == viewer and s["name"].lower() not in plain
            else s["name"]
        )
        parts = [
            f"{mark} {name:<{width}}",
            _("stack {stack}").format(stack=f"{s['stack']:>4}"),
            _("cards {count}").format(count=f"{s['cards']:>2}"),
        ]
        tags = []
        if s["is_dealer"]:
            tags.append(SEAT_MARKS["dealer"]())
        if s["status"] != "active":
            tags.append(SEAT_MARKS[s["status"]]() if s["status"] in SEAT_MARKS else s["status"])
        if s["committed"] and view["phase"].startswith("poker"):
            tags.append(_("in pot {amount}").format(amount=s["committed"]))
        if s["seat"] == to_act:
            tags.append(_("to act"))
        line = "  ".join(parts)
        if tags:
            line += "  " + ", ".join(tags)
        lines.append(line.rstrip())
    return "\n".join(lines)


def last_poker_move(view: GameView, you: int | None) -> str:
    """The poker's last move: the engine's line in English ("ann raises 2"), the event's sentence elsewhere."""
    poker = view["poker"]
    if english() or poker is None:
        return poker["last_action"] if poker else ""
    moves = [e for e in as_events(view["events"]) if isinstance(e, POKER_MOVES)]
    if not poker["last_action"]:
        return ""
    return (event_sentence(moves[-1], view, you=you) or "") if moves else poker_move_words(poker["last_action"])


def render_play_state(view: GameView, you: int | None = None) -> str:
    """The Michigan sequence, or the poker state, or the spare-hand auction: what matters in this phase;
    ``you``: the seat told in the second person (the poker's last move)."""
    phase = view["phase"]
    lines = []
    spare = view["spare"]
    au = spare["auction"] if spare else None
    if au:
        suit = au["kind"] == "suit"
        if au["high_bidder"] is not None:
            sentence = (
                N_("Auction for the pay suit: high bid {amount} by {name}")
                if suit
                else N_("Auction for the spare hand: high bid {amount} by {name}")
            )
        else:
            sentence = (
                N_("Auction for the pay suit: no bids yet") if suit else N_("Auction for the spare hand: no bids yet")
            )
        lines.append(_(sentence).format(amount=au["high_bid"], name=name_of(view, au["high_bidder"])))
    elif phase == PhaseName.SPARE_HAND:
        count = spare["cards"] if spare else 0
        lines.append(
            ngettext("Spare hand: {count} cards face down", "Spare hand: {count} cards face down", count).format(
                count=count
            )
        )
    poker = view["poker"]
    if poker and (phase.startswith("poker") or poker["last_action"]):
        if phase.startswith("poker"):
            last = last_poker_move(view, you)
            sentence = _("Poker: current bet {bet}; last: {last}") if last else _("Poker: current bet {bet}")
            lines.append(sentence.format(bet=poker["current_bet"], last=last))
        d = view.get("detail", {})
        if phase == PhaseName.POKER_CHOOSE and d.get("cards") and sorted(d["cards"]) != sorted(view["hand"] or []):
            lines.append(
                _("Your poker cards (the whole dealt hand): {cards}").format(cards=cards(sorted_hand(d["cards"])))
            )
        if poker["chosen"] and phase.startswith("poker"):
            lines.append(_("Your poker hand: {cards}").format(cards=cards(poker["chosen"])))
    mich = view["michigan"]
    if mich and (phase.startswith("michigan") or (phase == PhaseName.CLAIM and mich["played"])):
        seq = mich["sequence"]
        sentence = (
            _("Michigan sequence: {sequence}   cards placed: {count}")
            if seq
            else _("Michigan sequence: (none yet)   cards placed: {count}")
        )
        lines.append(sentence.format(sequence=cards(seq), count=mich["played"]))
    corner = view["corner"]
    if corner:
        backers = ", ".join(name_of(view, s) for s in corner["backers"])
        lines.append(
            _("Corner bet: {amount} on {card}, backed by {names}").format(
                amount=corner["amount"], card=card(corner["ace"]), names=backers
            )
        )
    if view["pay_suit"] != "H":
        lines.append(_("Pay suit: {suit}").format(suit=suit_word(view["pay_suit"])))
    return "\n".join(lines)


def render_hand(view: GameView) -> str:
    """The viewer's hand, sorted by suit, one group per suit."""
    hand = view["hand"]
    if hand is None:
        return ""
    if not hand:
        return _("Your hand: (empty)")
    groups: dict[str, list[str]] = {}
    for t in sorted_hand(hand):
        groups.setdefault(t[1], []).append(card(t))
    body = "   ".join(" ".join(g) for g in groups.values())
    return _("Your hand ({count}): {cards}").format(count=len(hand), cards=body)


def render_view(view: GameView, *, events: bool = False, you: int | None | bool = True) -> str:
    """The whole table as the viewer sees it; ``you``: the seat told in the second person (``True``:
    the seat named "you", as :func:`engine.textview.describe_events` has it)."""
    reader = reader_seat(view) if you is True else (None if you is False else you)
    blocks = [render_header(view), render_mat(view), render_seats(view)]
    state = render_play_state(view, reader)
    if state:
        blocks.append(state)
    if events:
        recent = describe_events(view["events"], view, you=reader)
        if recent:
            blocks.append(_("Recent:") + "\n" + "\n".join("  " + line for line in recent[-8:]))
    hand = render_hand(view)
    if hand:
        blocks.append(hand)
    return "\n".join(blocks)


# ---------------------------------------------------------------- the prompt
def legal_lines(view: GameView) -> list[str]:
    """One line per legal action, with its range or choices (from ``legal`` and ``detail``): the
    command as typed (the same in every language), then what it does in the game's language."""
    legal = view.get("legal", [])  # (legal and detail: only for the seat to act)
    d = view.get("detail", {})
    out = []
    for do in legal:
        out.append(_legal_line(view, do, d))
    return out


def _count(value: Any) -> int:
    """A count for ``ngettext`` (a count the detail lacks, shown as ``?``, reads as several)."""
    return value if isinstance(value, int) else 2


def _legal_line(view: GameView, do: str, d: dict[str, Any]) -> str:
    phase = view["phase"]
    lo, hi = d.get("min"), d.get("max")
    rng = f"{lo}" if lo == hi else f"{lo}–{hi}"
    if do == "keep":
        return "keep                 " + _("keep your hand as dealt")
    if do == "swap":
        count = d.get("spare_cards", "?")
        return "swap                 " + ngettext(
            "swap blind with the spare hand ({count} cards)",
            "swap blind with the spare hand ({count} cards)",
            _count(count),
        ).format(count=count)
    if do == "look":
        return "look                 " + _("look at the widow and take it (you must keep it)")
    if do == "auction":
        return "auction              " + _("auction the spare hand to the other players")
    if do in ("bid", "suit_bid"):
        by = d.get("high_bidder") is not None
        if do == "suit_bid":
            sentence = (
                N_("N = {range} chips for the right to name the pay suit (high bid {high} by {name})")
                if by
                else N_("N = {range} chips for the right to name the pay suit (high bid {high})")
            )
        else:
            sentence = (
                N_("N = {range} chips for the spare hand (high bid {high} by {name})")
                if by
                else N_("N = {range} chips for the spare hand (high bid {high})")
            )
        name = name_of(view, d["high_bidder"]) if by else ""
        return "bid N                " + _(sentence).format(range=rng, high=d.get("high_bid", 0), name=name)
    if do == "pass":
        if phase == PhaseName.CLAIM:
            return "pass                 " + _("leave the chips on the space")
        return "pass                 " + _("no bid (you drop out of this auction)")
    if do == "name_suit":
        return f"name_suit S          S = {' '.join(d.get('suits', list(C.SUITS)))}"
    if do == "claim":
        spaces = d.get("spaces") or [d.get("space", "")]
        return "claim                " + _("take {chips} from {spaces}").format(
            chips=d.get("chips", "?"), spaces=and_list([spoken_space(view, sp) for sp in spaces])
        )
    if do == "choose":
        return "choose C C C C C     " + _("your five poker cards, or `best` for the suggested {cards}").format(
            cards=cards(d.get("best"))
        )
    if do == "check":
        return "check                " + _("bet nothing")
    if do == "bet":
        return f"bet N                N = {rng}"
    if do == "call":
        return "call                 " + _("put in {amount}").format(amount=d.get("to_call", 0))
    if do == "raise":
        sentence = (
            _("N = {range} above the current bet on top of the {to_call} to call")
            if d.get("to_call")
            else _("N = {range} above the current bet")
        )
        return "raise N              " + sentence.format(range=rng, to_call=d.get("to_call"))
    if do == "fold":
        return "fold                 " + _("give up this hand")
    if do == "lead":
        return "lead C               " + _("C = one of {cards}").format(cards=cards(d.get("cards")))
    if do == "play":
        return "play                 " + _("place {card} as usual").format(card=card(d.get("card", "")))
    if do in ("full_house", "straight"):
        opts = " | ".join(cards(o) for o in d.get(do, []))
        sentence = (
            _("four cards making a full house with {card}: {options}")
            if do == "full_house"
            else _("the next card + three making a straight from {card}: {options}")
        )
        return f"{do} C C C C   " + sentence.format(card=card(d.get("last_card", "")), options=opts)
    if do == "pass_cards":
        count = d.get("count", 3)
        right = d.get("direction", "left") == "right"
        passing = (
            ngettext("{count} cards to pass right", "{count} cards to pass right", _count(count))
            if right
            else ngettext("{count} cards to pass left", "{count} cards to pass left", _count(count))
        ).format(count=count)
        if d.get("suggested"):
            passing = _("{passing}; `best` passes {cards}").format(passing=passing, cards=cards(d["suggested"]))
        return "pass_cards C C C     " + passing
    if do == "reveal":
        spaces = ", ".join(f"{sp} ({spoken_space(view, sp)})" for sp in d.get("spaces", []))
        sentence = (
            _("five cards and a space with chips: {spaces}; wild: {cards}")
            if d.get("wild")
            else _("five cards and a space with chips: {spaces}")
        )
        line = "reveal C C C C C SPACE   " + sentence.format(spaces=spaces, cards=cards(d.get("wild")))
        suggested = d.get("suggested")
        if suggested:
            line += "\n                       " + _("`best` declares {space} with {cards}").format(
                space=spoken_space(view, suggested["space"]), cards=cards(suggested["cards"])
            )
        return line
    if do == "corner_bet":
        return "corner_bet ACE N     " + _("bet N = {range} on a corner Ace, ACE = {aces}").format(
            range=rng, aces=cards(d.get("aces"))
        )
    if do == "cover":
        return "cover                " + _("match the {amount}-chip bet on the corner {card}").format(
            amount=d.get("amount", "?"), card=card(d.get("ace", ""))
        )
    if do == "decline":
        if phase == PhaseName.CORNER_BET:
            return "decline              " + _("no corner bet")
        return "decline              " + _("do not cover")
    return do


def reason_text(exc: ValueError, view: GameView) -> str:
    """Why a move is refused or cannot be read, in the terminal game's language: in English the engine's
    message in the table's words; in another, its reason (engine/reasons.py) worded there, its cards
    in that language's names and its spaces by their labels."""
    language = LANGUAGE.get()
    if language == SOURCE or not isinstance(exc, Worded):
        return plain_message(str(exc))
    labels = {sp["id"]: space_label(view, sp["id"]) for sp in view.get("mat", ())}
    return exc.in_language(language, players_names(labels))


def render_prompt(view: GameView) -> str:
    lines = [_("Your move. Legal actions:")]
    lines += ["  " + line for line in legal_lines(view)]
    warning = view.get("detail", {}).get("warning")
    if warning:  # Rummoli: advice to a dealer or bidder holding a pay card
        lines.append("  " + _("Careful: {warning}.").format(warning=warning_words(warning)))
    lines.append("  " + _("(also: `table` to show the table again, `quit` to leave)"))
    return "\n".join(lines)


# ---------------------------------------------------------------- results
def render_round_result(record: dict[str, Any], view: GameView, round_number: int, you: int | None = None) -> str:
    """A finished round: payouts by seat, the poker result and who went out; ``you``: the seat told in
    the second person ("vous avez gagné")."""
    lines = [_("Round {number} results:").format(number=round_number)]
    poker = record.get("poker")
    if poker:
        alone = poker.get("winners") == [you] and you is not None
        winners = ", ".join(name_of(view, s) for s in poker.get("winners", [])) or _("nobody")
        hands = poker.get("hands") or {}
        if hands:
            shown = "; ".join(f"{name_of(view, int(s))} {hand_word(h)}" for s, h in hands.items())
            sentence = _("poker: you won ({hands})") if alone else _("poker: {winners} won ({hands})")
            lines.append("  " + sentence.format(winners=winners, hands=shown))
        else:
            sentence = _("poker: you won without a showdown") if alone else _("poker: {winners} won without a showdown")
            lines.append("  " + sentence.format(winners=winners))
    mich = record.get("michigan")
    if mich:
        if mich.get("out") is not None:
            count = len(mich.get("order", []))
            sentence = (
                ngettext(
                    "Michigan: you went out after {count} cards", "Michigan: you went out after {count} cards", count
                )
                if mich["out"] == you
                else ngettext(
                    "Michigan: {name} went out after {count} cards",
                    "Michigan: {name} went out after {count} cards",
                    count,
                )
            )
            lines.append("  " + sentence.format(name=name_of(view, mich["out"]), count=count))
        elif mich.get("stuck"):
            lines.append("  " + _("Michigan: nobody could lead; play ended"))
    won: dict[int, int] = {}
    for p in record.get("payouts", []):
        won[p["seat"]] = won.get(p["seat"], 0) + p["amount"]
    if won:
        payouts = ", ".join(f"{name_of(view, s)} {a}" for s, a in sorted(won.items()))
        lines.append("  " + _("collected from the mat: {payouts}").format(payouts=payouts))
    stacks = ", ".join(f"{s['name']} {s['stack']}" for s in view["seats"])
    lines.append("  " + _("stacks: {stacks}").format(stacks=stacks))
    return "\n".join(lines)


def render_standings(standings: Sequence[Standing], names: Mapping[int, str] | None = None) -> str:
    """The standings; ``names``: seats named otherwise than the game does (:func:`renamed`)."""
    lines = [_("Final standings:")]
    for i, row in enumerate(standings, start=1):
        net = row.get("net", 0)
        name = (names or {}).get(row["seat"], row["name"])
        lines.append(f"  {i}. {name:<12} {row['stack']:>5}  ({'+' if net >= 0 else ''}{net})")
    return "\n".join(lines)
