"""What happens in a game, as sentences in the current language (:data:`engine.language.LANGUAGE`):
the events one by one (:func:`event_sentence`, :func:`describe_event`) and as the terminal's log
(:func:`describe_events`), with the cards, names and spaces they mention.

Every sentence is a whole catalog entry with named placeholders, one per event kind and case. A
sentence whose subject is a seat exists in two persons: ``"{name} collects {amount} from {space}"``
and ``"you collect {amount} from {space}"``; the second is told when that seat is ``you`` (the
terminal's player when they gave no ``--name``, whose seat engine/play.py passes, or the player a
bot answer is for). :mod:`engine.textview` re-exports all of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from . import cards as C
from . import events as ev
from .cardnames import card_names, label_in
from .events import Event, as_events
from .eventtexts import (
    ACTIONS,
    BETS,
    BIDS,
    BIDS_FOR_SUIT,
    CALLS,
    COLOUR_FLIPS,
    DECLINES,
    GAME_ENDS,
    NAMES_SUIT,
    PASS_DIRECTIONS,
    PASSES,
    PAYOUT_OTHER,
    PAYOUTS,
    PLACES,
    PLACING_REASONS,
    PLAYS,
    SWAP_OTHER,
    SWAPS,
    TO_SPACE,
    TO_SPACE_OTHER,
    TRANSFER_OTHER,
    TRANSFERS,
)
from .language import LANGUAGE, N_, _, ngettext

#: The suits' names in English (the terminal's screen); the events name them in the language read.
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# ---------------------------------------------------------------- cards, names and spaces
def card(text: str) -> str:
    """``"TH"`` → ``10♥``; anything unparsable is returned unchanged."""
    try:
        return card_names(LANGUAGE.get()).pretty(C.parse(text))
    except ValueError:
        return str(text)


def cards(texts: Sequence[str] | None) -> str:
    return " ".join(card(t) for t in texts or ())


def name_of(view: Mapping[str, Any], seat: int | None) -> str:
    if seat is None:
        return _("nobody")
    seats = view["seats"]
    return seats[seat]["name"] if 0 <= seat < len(seats) else _("seat {seat}").format(seat=seat)


def space_label(view: Mapping[str, Any], space_id: str) -> str:
    """The mat label of a space (English, as the mat has it); in optional-suit games the pay suit's
    symbol is added (``K-Q♠``)."""
    for sp in view.get("mat", ()):
        if sp["id"] == space_id:
            label: str = sp["label"]
            if sp.get("kind") in ("card", "combo") and not any(sym in label for sym in C.SUIT_SYMBOLS.values()):
                label += C.SUIT_SYMBOLS.get(view.get("pay_suit") or "H", "")
            return label
    return space_id


def spoken_space(view: Mapping[str, Any], space_id: str) -> str:
    """A space's label in the language read (``R-D♥``, "Cagnotte")."""
    return label_in(space_label(view, space_id), LANGUAGE.get())


def suit_word(suit: str) -> str:
    """A suit's name in the language read (``H`` → hearts, cœur, Herz)."""
    index = C.SUITS.index(suit) if suit in C.SUITS else None
    return suit if index is None else card_names(LANGUAGE.get()).suits[index]


def hand_word(english: str) -> str:
    """A poker hand's name (English, as the engine names it) in the language read."""
    return card_names(LANGUAGE.get()).hand(english)


def reader_seat(view: Mapping[str, Any]) -> int | None:
    """The seat the terminal calls "you": the one named so (its lines are in the second person)."""
    return next((i for i, s in enumerate(view.get("seats", ())) if str(s.get("name", "")).lower() == "you"), None)


def said(view: Mapping[str, Any], seat: int | None, you: int | None, third: str, second: str, **fields: Any) -> str:
    """``third`` (a sentence naming ``seat`` as ``{name}``) or, when ``seat`` is ``you``, ``second``
    (the same sentence said to them); both marked with ``N_``, looked up here."""
    if seat is not None and seat == you:
        return _(second).format(**fields)
    return _(third).format(name=name_of(view, seat), **fields)


def _pairs(view: Mapping[str, Any], items: Mapping[Any, Any]) -> str:
    """``seat → thing`` as ``ann 13, bob 13`` (the seats by name)."""
    return ", ".join(f"{name_of(view, int(s))} {thing}" for s, thing in items.items())


# ---------------------------------------------------------------- the terminal's log
def describe_events(
    events: Sequence[Mapping[str, Any]],
    view: Mapping[str, Any],
    *,
    group_forced: bool = False,
    you: int | None | bool = True,
) -> list[str]:
    """Events (records, or their dicts as a view carries them) as sentences. Antes are summed; a
    seat's run of Michigan cards is one line; a payout for a card just placed is joined to it
    ("ann places 10♥ and collects 4 from 10♥").

    ``group_forced``: a lead, the plays that follow it by force and its stop make one line
    ("ann leads 4♣, then 14 forced plays: …; 5♠ is a stop"), so a Michigan hand reads in a
    dozen lines instead of fifty. ``you``: the seat told in the second person ("you collect 4");
    ``True`` (the default): the seat named "you" (:func:`reader_seat`)."""
    reader = reader_seat(view) if you is True else (None if you is False else you)
    records = as_events(events)
    out: list[str] = []
    i = 0
    n = len(records)
    while i < n:
        e = records[i]
        if isinstance(e, ev.Play) and group_forced:
            line, i = _sequence_line(records, i, view, reader)
            out.append(line)
            continue
        if isinstance(e, ev.Ante):
            per: dict[int, int] = {}
            while i < n and isinstance(ante := records[i], ev.Ante):
                per[ante.seat] = per.get(ante.seat, 0) + ante.amount
                i += 1
            out.append(_("antes: {antes}").format(antes=_pairs(view, per)))
            continue
        if isinstance(e, ev.Play):
            run = [e.card]
            gains: list[ev.Payout] = []
            i += 1
            while i < n:
                f = records[i]
                if _placing_gain(f, e.seat):
                    gains.append(f)
                    i += 1
                    continue
                if (
                    isinstance(f, ev.Play)
                    and f.seat == e.seat
                    and f.how != "lead"
                    and not gains
                    and (f.how == e.how or (e.how == "lead" and f.how == "follow"))
                ):
                    run.append(f.card)
                    i += 1
                    continue
                break
            line = play_sentence(view, e.seat, e.how, cards(run), reader)
            for gain in gains:
                line = said(
                    view,
                    e.seat,
                    reader,
                    N_("{play} and collects {amount} from {space}"),
                    N_("{play} and collect {amount} from {space}"),
                    play=line,
                    amount=gain.amount,
                    space=spoken_space(view, gain.space),
                )
            out.append(line)
            continue
        if isinstance(e, ev.Reveal):
            out.append(_("reveal (round {round}):").format(round=e.round))
            for s, h in e.hands.items():
                verdict = (
                    N_("{name}: {cards} ({hand}) on {space}: qualifies")
                    if h.get("qualifies")
                    else N_("{name}: {cards} ({hand}) on {space}: does not qualify")
                )
                out.append(
                    "  "
                    + _(verdict).format(
                        name=name_of(view, int(s)),
                        cards=cards(h["cards"]),
                        hand=hand_word(h["hand"]),
                        space=spoken_space(view, h["space"]),
                    )
                )
            i += 1
            continue
        if isinstance(e, ev.Showdown):
            out.append(_("showdown:"))
            out.extend("  " + _shown(view, s, h) for s, h in e.hands.items())
            i += 1
            continue
        text = describe_event(e, view, you=reader)
        if text:
            out.append(text)
        i += 1
    return out


def _shown(view: Mapping[str, Any], seat: str, hand: Mapping[str, Any]) -> str:
    """A seat's poker hand shown down: ``ann: 5♥ 5♠ … (pair)``."""
    return _("{name}: {cards} ({hand})").format(
        name=name_of(view, int(seat)), cards=cards(hand["cards"]), hand=hand_word(hand["hand"])
    )


def play_sentence(view: Mapping[str, Any], seat: int, how: str, played: str, you: int | None) -> str:
    """``seat`` puts ``played`` (cards, as written) face up, ``how`` (a lead, a follow, a combination)."""
    third, second = PLAYS.get(how, PLACES)
    return said(view, seat, you, third, second, cards=played)


def _placing_gain(e: Event, seat: int) -> TypeGuard[ev.Payout]:
    """Whether ``e`` is what ``seat`` collects for the card it just placed."""
    return isinstance(e, ev.Payout) and e.seat == seat and e.reason in PLACING_REASONS


def _gain(view: Mapping[str, Any], payout: ev.Payout) -> str:
    return _("+{amount} from {space}").format(amount=payout.amount, space=spoken_space(view, payout.space))


def _sequence_line(events: Sequence[Event], i: int, view: Mapping[str, Any], you: int | None = None) -> tuple[str, int]:
    """The Michigan sequence starting at ``events[i]`` (a play) as one line, and the index after it."""
    n = len(events)
    e = events[i]
    assert isinstance(e, ev.Play)
    head = ""
    gains = []  # what the head's cards collect
    if e.how != "follow":  # a lead or a combination play: a decision, named first
        run = [e.card]
        i += 1
        while i < n:
            f = events[i]
            if isinstance(f, ev.Play) and f.seat == e.seat and f.how == e.how != "lead":
                run.append(f.card)
            elif _placing_gain(f, e.seat):
                gains.append(_gain(view, f))
            else:
                break
            i += 1
        head = play_sentence(view, e.seat, e.how, cards(run), you)
        if gains:
            head += f" ({', '.join(gains)})"
    forced: list[tuple[int, list[str], list[str]]] = []  # (seat, cards, gains) per seat's turn
    last_seat = e.seat
    while i < n:
        f = events[i]
        if isinstance(f, ev.Play) and f.how == "follow":
            if not forced or forced[-1][0] != f.seat or forced[-1][2]:
                forced.append((f.seat, [], []))
            forced[-1][1].append(f.card)
            last_seat = f.seat
        elif forced and _placing_gain(f, last_seat):
            forced[-1][2].append(_gain(view, f))
        else:
            break
        i += 1
    line = head
    if forced:
        count = sum(len(cs) for _, cs, _ in forced)
        turns = ", ".join(
            f"{name_of(view, seat)} {cards(cs)}" + (f" ({', '.join(g)})" if g else "") for seat, cs, g in forced
        )
        if head:
            line = ngettext(
                "{head}, then {count} forced play: {turns}", "{head}, then {count} forced plays: {turns}", count
            ).format(head=head, count=count, turns=turns)
        else:
            line = ngettext("{count} forced play: {turns}", "{count} forced plays: {turns}", count).format(
                count=count, turns=turns
            )
    if i < n and isinstance(events[i], ev.Stop):
        line = _("{sequence}; {stop}").format(sequence=line, stop=describe_event(events[i], view, you=you) or "")
        i += 1
    return line, i


def describe_event(e: Mapping[str, Any], view: Mapping[str, Any], *, you: int | None = None) -> str | None:
    """One event (a record or its dict) as a line of the terminal's log: a round's start and end
    and the game's end are framed (``--- round 1 over ---``); ``None`` for events already told
    by another (a bet's chips). ``you``: the seat told in the second person."""
    record = Event.from_dict(e)
    text = event_sentence(record, view, you=you)
    frame = _FRAMES.get(type(record))
    return f"{frame} {text} {frame}" if frame and text else text


#: The headline events, and the frame the terminal puts around their line.
_FRAMES: dict[type[Event], str] = {
    ev.RoundStart: "---",
    ev.RoundEnd: "---",
    ev.GameEnd: "===",
    ev.PlayoffHand: "===",
    ev.PlayoffHandEnd: "---",
}


def event_sentence(e: Event, view: Mapping[str, Any], *, you: int | None = None) -> str | None:
    """One event as a plain sentence (no frame); ``None`` for events already told by another.
    ``you``: the seat told in the second person ("you collect 4" rather than "ann collects 4")."""

    def by(seat: int | None, third: str, second: str, **fields: Any) -> str:
        return said(view, seat, you, third, second, **fields)

    match e:
        case ev.RoundStart():
            return by(
                e.dealer,
                N_("round {round}: {name} deals, ante {ante} per space"),
                N_("round {round}: you deal, ante {ante} per space"),
                round=e.round,
                ante=e.ante,
            )
        case ev.Ante():
            space = spoken_space(view, e.space)
            return by(
                e.seat,
                N_("{name} antes {amount} on {space}"),
                N_("you ante {amount} on {space}"),
                amount=e.amount,
                space=space,
            )
        case ev.SitOut():
            return by(
                e.seat,
                N_("{name} sits this round out (cannot pay the ante)"),
                N_("you sit this round out (cannot pay the ante)"),
            )
        case ev.Eliminated():
            return by(e.seat, N_("{name} is eliminated"), N_("you are eliminated"))
        case ev.Deal():
            return _("cards dealt: {counts}; spare hand {spare}").format(counts=_pairs(view, e.cards), spare=e.spare)
        case ev.Keep():
            return by(e.seat, *ACTIONS["keep"])
        case ev.Swap():
            return by(e.seat, *SWAPS.get(e.reason, SWAP_OTHER))
        case ev.Auction():
            return _("bidding for the pay suit starts") if e.kind == "suit" else _("the spare hand is up for auction")
        case ev.Bid():
            if e.kind == "suit":
                return by(e.seat, *BIDS_FOR_SUIT, amount=e.amount)
            return by(e.seat, *BIDS, amount=e.amount)
        case ev.Pass():
            if e.forced:
                return by(e.seat, N_("{name} passes (cannot outbid)"), N_("you pass (cannot outbid)"))
            return by(e.seat, *PASSES)
        case ev.NoBids():
            return _("nobody bids")
        case ev.PaySuit():
            if e.seat is None:
                return _("nobody bid: {suit} stay the pay suit").format(suit=suit_word(e.suit))
            return by(e.seat, *NAMES_SUIT, suit=suit_word(e.suit))
        case ev.ToSpace():
            return _to_space_sentence(e, view, you)
        case ev.Transfer():
            return _transfer_sentence(e, view, you)
        case ev.Payout():
            third, second = PAYOUTS.get(e.reason, PAYOUT_OTHER)
            return by(e.seat, third, second, amount=e.amount, space=spoken_space(view, e.space), reason=e.reason)
        case ev.Move():
            return ngettext(
                "{amount} chips move from {source} to {target}",
                "{amount} chips move from {source} to {target}",
                e.amount,
            ).format(amount=e.amount, source=spoken_space(view, e.from_space), target=spoken_space(view, e.to_space))
        case ev.Chosen():
            return by(e.seat, *ACTIONS["reveal"])
        case ev.Passing():
            return by(e.seat, N_("{name} picks three cards to pass"), N_("you pick three cards to pass"))
        case ev.PassCards():
            if e.direction in PASS_DIRECTIONS:
                return _(PASS_DIRECTIONS[e.direction])
            return _("everyone passes three cards to the {direction}").format(direction=e.direction)
        case ev.Reveal():
            return None  # told line by line by describe_events
        case ev.WanaganEnd():
            return ngettext(
                "the Wanagan reveals end after {rounds} round(s)",
                "the Wanagan reveals end after {rounds} round(s)",
                e.rounds,
            ).format(rounds=e.rounds)
        case ev.CornerDecline():
            return by(e.seat, *DECLINES)
        case ev.CornerStays():
            space = spoken_space(view, e.space)
            if e.holder is None:
                return _("{space} stays on the mat (nobody holds it)").format(space=space)
            return by(
                e.holder,
                N_("{space} stays on the mat ({name} holds it but did not back it)"),
                N_("{space} stays on the mat (you hold it but did not back it)"),
                space=space,
            )
        case ev.SwitchPreset():
            return ngettext(
                "the mat changes to {preset}; {carried} chips carried to {space}",
                "the mat changes to {preset}; {carried} chips carried to {space}",
                e.carried,
            ).format(preset=e.preset, carried=e.carried, space=spoken_space(view, e.to_space))
        case ev.Unclaimed():
            space = spoken_space(view, e.space)
            return by(
                e.seat,
                N_("{name} did not claim {space}: the chips stay"),
                N_("you did not claim {space}: the chips stay"),
                space=space,
            )
        case ev.Choose():
            return by(e.seat, N_("{name} picks five poker cards"), N_("you pick five poker cards"))
        case ev.Check():
            return by(e.seat, *ACTIONS["check"])
        case ev.Fold():
            return by(e.seat, *ACTIONS["fold"])
        case ev.Call():
            if e.all_in:
                return by(
                    e.seat, N_("{name} calls {amount} (all in)"), N_("you call {amount} (all in)"), amount=e.amount
                )
            return by(e.seat, *CALLS, amount=e.amount)
        case ev.Bet():
            if e.all_in:
                return by(e.seat, N_("{name} bets {amount} (all in)"), N_("you bet {amount} (all in)"), amount=e.amount)
            return by(e.seat, *BETS, amount=e.amount)
        case ev.Raise():
            if e.all_in:
                return by(
                    e.seat, N_("{name} raises {amount} (all in)"), N_("you raise {amount} (all in)"), amount=e.amount
                )
            return by(e.seat, N_("{name} raises {amount}"), N_("you raise {amount}"), amount=e.amount)
        case ev.PokerWin():
            return by(
                e.seat,
                N_("{name} wins the poker hand (everyone else folded)"),
                N_("you win the poker hand (everyone else folded)"),
            )
        case ev.Showdown():
            return _("showdown — {hands}").format(hands="; ".join(_shown(view, s, h) for s, h in e.hands.items()))
        case ev.Play():
            return play_sentence(view, e.seat, "lead" if e.how == "lead" else "placed", card(e.card), you)
        case ev.Stop():
            if e.reason == "full house":
                return by(
                    e.seat,
                    N_("the full house ends the sequence: {name} leads next"),
                    N_("the full house ends the sequence: you lead next"),
                )
            return by(
                e.seat,
                N_("{card} is a stop: {name} leads next"),
                N_("{card} is a stop: you lead next"),
                card=card(e.card),
            )
        case ev.CannotLead():
            if e.paid:
                return by(
                    e.seat,
                    N_("{name} cannot lead and pays {paid} to the Kitty"),
                    N_("you cannot lead and pay {paid} to the Kitty"),
                    paid=e.paid,
                )
            return by(
                e.seat, N_("{name} cannot lead, the lead passes left"), N_("you cannot lead, the lead passes left")
            )
        case ev.ColourFlip():
            if e.colour in COLOUR_FLIPS:
                return _(COLOUR_FLIPS[e.colour])
            return _("nobody can lead that colour: the lead must now be {colour}").format(colour=e.colour)
        case ev.Out():
            return by(e.seat, N_("{name} goes out"), N_("you go out"))
        case ev.Stuck():
            return _("nobody can lead: play ends")
        case ev.RoundEnd():
            return _("round {round} over").format(round=e.round)
        case ev.GameEnd():
            return _(GAME_ENDS[e.reason])
        case ev.PlayoffHand():
            return _("clearing the board: a hand of Michigan (8, 9, 10 and K-Q cards earn shares)")
        case ev.PlayoffHandEnd():
            return ngettext(
                "clearing hand over: {chips} chips left on the board",
                "clearing hand over: {chips} chips left on the board",
                e.mat,
            ).format(chips=e.mat)
        case ev.Abandoned():
            return _("round {round} abandoned").format(round=e.round)
        case ev.Cut():
            return _("cut for the deal: {cards}").format(cards=_pairs(view, {s: card(c) for s, c in e.cards.items()}))
    raise TypeError(f"no words for {e.type} events")


def _to_space_sentence(e: ev.ToSpace, view: Mapping[str, Any], you: int | None = None) -> str | None:
    reason = e.reason
    if reason in ("bet", "raise", "call", "cannot lead"):
        return None  # told by the bet/raise/call/cannot-lead event
    third, second = TO_SPACE.get(reason, TO_SPACE_OTHER)
    return said(view, e.seat, you, third, second, amount=e.amount, space=spoken_space(view, e.space), reason=reason)


def _transfer_sentence(e: ev.Transfer, view: Mapping[str, Any], you: int | None = None) -> str:
    """``from_seat`` pays ``to_seat``: said to the payer, to the one paid, or naming both."""
    payer, paid, paid_you = TRANSFERS.get(e.reason, TRANSFER_OTHER)
    fields = {"amount": e.amount, "reason": e.reason}
    if e.from_seat != you and e.to_seat == you:
        return _(paid_you).format(name=name_of(view, e.from_seat), **fields)
    return said(view, e.from_seat, you, payer, paid, to=name_of(view, e.to_seat), **fields)
