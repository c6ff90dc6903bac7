"""The game in words, from a seat's view (``Game.view(seat)``): cards, spaces, events and
decisions as plain English, shared by the terminal game (:mod:`engine.screen`) and the bot.

Every function here is pure: a view (a dict) and events (records, or their dicts) in, strings out.
Nothing reads the game object, so what is shown is exactly what the seat may
know. Cards are shown with :func:`engine.cards.pretty` (``10♥``, ``K♠``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from . import cards as C
from . import events as ev
from .events import Event, as_events
from .phases.names import PHASE_TEXTS, PhaseName

SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# ---------------------------------------------------------------- small helpers
def card(text: str) -> str:
    """``"TH"`` → ``10♥``; anything unparsable is returned unchanged."""
    try:
        return C.pretty(C.parse(text))
    except ValueError:
        return str(text)


def cards(texts: Iterable[str] | None) -> str:
    return " ".join(card(t) for t in texts or ())


def name_of(view: Mapping[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    seats = view["seats"]
    return seats[seat]["name"] if 0 <= seat < len(seats) else f"seat {seat}"


def space_label(view: Mapping[str, Any], space_id: str) -> str:
    """The mat label of a space; in optional-suit games the pay suit's symbol is added (``K-Q♠``)."""
    for sp in view.get("mat", ()):
        if sp["id"] == space_id:
            label: str = sp["label"]
            if sp.get("kind") in ("card", "combo") and not any(sym in label for sym in C.SUIT_SYMBOLS.values()):
                label += C.SUIT_SYMBOLS.get(view.get("pay_suit") or "H", "")
            return label
    return space_id


def sorted_hand(hand: Iterable[str]) -> list[str]:
    """Cards sorted by suit (♣ ♦ ♥ ♠), then rank."""
    return C.to_strs(C.sorted_hand(C.parse_many(hand)))


def game_end_words(game_end: str) -> str:
    """``rounds:5`` → ``after 5 rounds``: the option ``game_end`` in words."""
    kind, _, amount = game_end.partition(":")
    if kind == "rounds":
        return f"after {amount} round{'s' if amount != '1' else ''}"
    if kind == "minutes":
        return f"after {amount} minutes (the round in progress finishes)"
    return "when only one player has chips left"


# ---------------------------------------------------------------- events in plain English
def describe_events(
    events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], *, group_forced: bool = False
) -> list[str]:
    """Events (records, or their dicts as a view carries them) as sentences. Antes are summed; a
    seat's run of Michigan cards is one line; a payout for a card just placed is joined to it
    ("ann places 10♥ and collects 4 from 10♥").

    ``group_forced``: a lead, the plays that follow it by force and its stop make one line
    ("ann leads 4♣, then 14 forced plays: …; 5♠ is a stop"), so a Michigan hand reads in a
    dozen lines instead of fifty."""
    records = as_events(events)
    out: list[str] = []
    i = 0
    n = len(records)
    while i < n:
        e = records[i]
        if isinstance(e, ev.Play) and group_forced:
            line, i = _sequence_line(records, i, view)
            out.append(line)
            continue
        if isinstance(e, ev.Ante):
            per: dict[int, int] = {}
            while i < n and isinstance(ante := records[i], ev.Ante):
                per[ante.seat] = per.get(ante.seat, 0) + ante.amount
                i += 1
            out.append("antes: " + ", ".join(f"{name_of(view, s)} {a}" for s, a in per.items()))
            continue
        if isinstance(e, ev.Play):
            verb = _PLAY_VERBS.get(e.how, "places")
            run = [e.card]
            gains: list[str] = []
            i += 1
            while i < n:
                f = records[i]
                if _placing_gain(f, e.seat):
                    gains.append(f"collects {f.amount} from {space_label(view, f.space)}")
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
            line = f"{name_of(view, e.seat)} {verb} {cards(run)}"
            if gains:
                line += " and " + " and ".join(gains)
            out.append(line)
            continue
        if isinstance(e, ev.Reveal):
            out.append(f"reveal (round {e.round}):")
            for s, h in e.hands.items():
                verdict = "qualifies" if h.get("qualifies") else "does not qualify"
                out.append(
                    f"  {name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']}) on "
                    f"{space_label(view, h['space'])}: {verdict}"
                )
            i += 1
            continue
        if isinstance(e, ev.Showdown):
            out.append("showdown:")
            out.extend(f"  {name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']})" for s, h in e.hands.items())
            i += 1
            continue
        text = describe_event(e, view)
        if text:
            out.append(text)
        i += 1
    return [second_person(line) for line in out]


_PLAY_VERBS = {"lead": "leads", "full house": "places a full house:", "straight": "places a 5-card straight:"}


def _placing_gain(e: Event, seat: int) -> TypeGuard[ev.Payout]:
    """Whether ``e`` is what ``seat`` collects for the card it just placed."""
    return isinstance(e, ev.Payout) and e.seat == seat and e.reason in _PLACING_REASONS


def _sequence_line(events: Sequence[Event], i: int, view: Mapping[str, Any]) -> tuple[str, int]:
    """The Michigan sequence starting at ``events[i]`` (a play) as one line, and the index after it."""
    n = len(events)
    e = events[i]
    assert isinstance(e, ev.Play)
    head = ""
    gains = []  # what the head's cards collect
    if e.how != "follow":  # a lead or a combination play: a decision, named first
        verb = _PLAY_VERBS.get(e.how, "places")
        run = [e.card]
        i += 1
        while i < n:
            f = events[i]
            if isinstance(f, ev.Play) and f.seat == e.seat and f.how == e.how != "lead":
                run.append(f.card)
            elif _placing_gain(f, e.seat):
                gains.append(f"+{f.amount} from {space_label(view, f.space)}")
            else:
                break
            i += 1
        head = f"{name_of(view, e.seat)} {verb} {cards(run)}"
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
            forced[-1][2].append(f"+{f.amount} from {space_label(view, f.space)}")
        else:
            break
        i += 1
    parts = [head + (f" ({', '.join(gains)})" if gains else "")] if head else []
    if forced:
        count = sum(len(cs) for _, cs, _ in forced)
        turns = ", ".join(
            f"{name_of(view, seat)} {cards(cs)}" + (f" ({', '.join(g)})" if g else "") for seat, cs, g in forced
        )
        parts.append(f"{'then ' if head else ''}{count} forced play{'s' if count != 1 else ''}: {turns}")
    line = ", ".join(parts)
    if i < n and isinstance(events[i], ev.Stop):
        line += "; " + (describe_event(events[i], view) or "")
        i += 1
    return line, i


_IRREGULAR = {"is": "are", "goes": "go", "passes": "pass", "has": "have"}
_VERBS = {
    "sits",
    "keeps",
    "swaps",
    "looks",
    "takes",
    "bids",
    "passes",
    "names",
    "puts",
    "pays",
    "collects",
    "picks",
    "checks",
    "folds",
    "calls",
    "bets",
    "raises",
    "wins",
    "leads",
    "places",
    "goes",
    "is",
    "deals",
    "has",
    "covers",
    "declines",
    "antes",
}
_YOU_VERB = re.compile(r"\b([Yy]ou) (\w+)\b")
_AND_VERB = re.compile(r" and (collects|takes|pays)\b")


def _base(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    return verb[:-1]


def second_person(line: str) -> str:
    """When the player is called "you": "you raises 5" → "you raise 5"."""
    if not re.search(r"\byou\b", line, re.IGNORECASE):
        return line
    line = _YOU_VERB.sub(lambda m: f"{m.group(1)} {_base(m.group(2))}" if m.group(2) in _VERBS else m.group(0), line)
    if re.match(r"[Yy]ou ", line):
        line = _AND_VERB.sub(lambda m: f" and {_base(m.group(1))}", line)
    return line


_PLACING_REASONS = ("placed", "lead", "ace then two", "full house", "straight")

_PAYOUT_REASONS = {
    "held": "for holding the card(s)",
    "placed": "for placing the card(s)",
    "claimed": "(claimed)",
    "poker": "(poker)",
    "went out": "for going out",
    "lowest count": "for the lowest count",
    "playoff": "(end-of-game showdown)",
    "playoff worst hand": "(worst hand of the end-of-game showdown)",
    "corner ace": "for holding the corner Ace they backed",
    "lead": "for the lead",
    "ace then two": "for an Ace then a 2 of the other colour",
    "full house": "for the full house",
    "straight": "for the 5-card straight",
    "wanagan": "(best qualifying hand)",
}


def describe_event(e: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
    """One event (a record or its dict) as a line of the terminal's log: a round's start and end
    and the game's end are framed (``--- round 1 over ---``); ``None`` for events already told
    by another (a bet's chips)."""
    record = Event.from_dict(e)
    text = event_sentence(record, view)
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

_SWAP_WORDS = {
    "blind": "swaps blind with the spare hand",
    "looked": "looks at the widow and takes it",
    "bought": "takes the spare hand",
}


def event_sentence(e: Event, view: Mapping[str, Any]) -> str | None:
    """One event as a plain sentence (no frame); ``None`` for events already told by another."""
    match e:
        case ev.RoundStart():
            return f"round {e.round}: {name_of(view, e.dealer)} deals, ante {e.ante} per space"
        case ev.Ante():
            return f"{name_of(view, e.seat)} antes {e.amount} on {space_label(view, e.space)}"
        case ev.SitOut():
            return f"{name_of(view, e.seat)} sits this round out (cannot pay the ante)"
        case ev.Eliminated():
            return f"{name_of(view, e.seat)} is eliminated"
        case ev.Deal():
            counts = ", ".join(f"{name_of(view, int(s))} {k}" for s, k in e.cards.items())
            return f"cards dealt: {counts}; spare hand {e.spare}"
        case ev.Keep():
            return f"{name_of(view, e.seat)} keeps the hand as dealt"
        case ev.Swap():
            return f"{name_of(view, e.seat)} {_SWAP_WORDS.get(e.reason, 'swaps with the spare hand')}"
        case ev.Auction():
            return "bidding for the pay suit starts" if e.kind == "suit" else "the spare hand is up for auction"
        case ev.Bid():
            return f"{name_of(view, e.seat)} bids {e.amount}" + (" for the pay suit" if e.kind == "suit" else "")
        case ev.Pass():
            return f"{name_of(view, e.seat)} passes" + (" (cannot outbid)" if e.forced else "")
        case ev.NoBids():
            return "nobody bids"
        case ev.PaySuit():
            if e.seat is None:
                return f"nobody bid: {SUIT_WORDS.get(e.suit, e.suit)} stay the pay suit"
            return f"{name_of(view, e.seat)} names {SUIT_WORDS.get(e.suit, e.suit)} as the pay suit"
        case ev.ToSpace():
            return _to_space_sentence(e, view)
        case ev.Transfer():
            frm, to = name_of(view, e.from_seat), name_of(view, e.to_seat)
            if e.reason == "spare hand":
                return f"{frm} pays {to} {e.amount} for the spare hand"
            if e.reason == "cards left":
                return f"{frm} pays {to} {e.amount} for cards left"
            return f"{frm} pays {to} {e.amount}" + (f" ({e.reason})" if e.reason else "")
        case ev.Payout():
            reason = _PAYOUT_REASONS.get(e.reason, f"({e.reason})" if e.reason else "")
            return f"{name_of(view, e.seat)} collects {e.amount} from {space_label(view, e.space)} {reason}".rstrip()
        case ev.Move():
            return f"{e.amount} chips move from {space_label(view, e.from_space)} to {space_label(view, e.to_space)}"
        case ev.Chosen():
            return f"{name_of(view, e.seat)} picks five cards and a space"
        case ev.Passing():
            return f"{name_of(view, e.seat)} picks three cards to pass"
        case ev.PassCards():
            return f"everyone passes three cards to the {e.direction}"
        case ev.Reveal():
            return None  # told line by line by describe_events
        case ev.WanaganEnd():
            return f"the Wanagan reveals end after {e.rounds} round(s)"
        case ev.CornerDecline():
            return f"{name_of(view, e.seat)} declines the corner bet"
        case ev.CornerStays():
            why = "nobody holds it" if e.holder is None else f"{name_of(view, e.holder)} holds it but did not back it"
            return f"{space_label(view, e.space)} stays on the mat ({why})"
        case ev.SwitchPreset():
            return f"the mat changes to {e.preset}; {e.carried} chips carried to {space_label(view, e.to_space)}"
        case ev.Unclaimed():
            return f"{name_of(view, e.seat)} did not claim {space_label(view, e.space)}: the chips stay"
        case ev.Choose():
            return f"{name_of(view, e.seat)} picks five poker cards"
        case ev.Check():
            return f"{name_of(view, e.seat)} checks"
        case ev.Fold():
            return f"{name_of(view, e.seat)} folds"
        case ev.Call():
            return f"{name_of(view, e.seat)} calls {e.amount}" + (" (all in)" if e.all_in else "")
        case ev.Bet() | ev.Raise():
            return f"{name_of(view, e.seat)} {e.type}s {e.amount}" + (" (all in)" if e.all_in else "")
        case ev.PokerWin():
            return f"{name_of(view, e.seat)} wins the poker hand (everyone else folded)"
        case ev.Showdown():
            parts = [f"{name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']})" for s, h in e.hands.items()]
            return "showdown — " + "; ".join(parts)
        case ev.Play():
            return f"{name_of(view, e.seat)} {'leads' if e.how == 'lead' else 'places'} {card(e.card)}"
        case ev.Stop():
            if e.reason == "full house":
                return f"the full house ends the sequence: {name_of(view, e.seat)} leads next"
            return f"{card(e.card)} is a stop: {name_of(view, e.seat)} leads next"
        case ev.CannotLead():
            who = name_of(view, e.seat)
            return f"{who} cannot lead" + (f" and pays {e.paid} to the Kitty" if e.paid else ", the lead passes left")
        case ev.ColourFlip():
            return f"nobody can lead that colour: the lead must now be {e.colour}"
        case ev.Out():
            return f"{name_of(view, e.seat)} goes out"
        case ev.Stuck():
            return "nobody can lead: play ends"
        case ev.RoundEnd():
            return f"round {e.round} over"
        case ev.GameEnd():
            return f"game over ({e.reason.value})"
        case ev.PlayoffHand():
            return "clearing the board: a hand of Michigan (8, 9, 10 and K-Q cards earn shares)"
        case ev.PlayoffHandEnd():
            return f"clearing hand over: {e.mat} chips left on the board"
        case ev.Abandoned():
            return f"round {e.round} abandoned"
        case ev.Cut():
            return "cut for the deal: " + ", ".join(f"{name_of(view, int(s))} {card(c)}" for s, c in e.cards.items())
    raise TypeError(f"no words for {e.type} events")


def _to_space_sentence(e: ev.ToSpace, view: Mapping[str, Any]) -> str | None:
    reason = e.reason
    if reason in ("bet", "raise", "call", "cannot lead"):
        return None  # told by the bet/raise/call/cannot-lead event
    who, label = name_of(view, e.seat), space_label(view, e.space)
    if reason in ("corner bet", "corner cover"):
        verb = "bets" if reason == "corner bet" else "covers with"
        return f"{who} {verb} {e.amount} on {label}"
    if reason == "suit bid":
        return f"{who} puts {e.amount} on {label} for the pay suit"
    if reason == "cards left":
        return f"{who} pays {e.amount} to {label} for cards left"
    if reason == "all stuck":
        return f"{who} pays {e.amount} to {label} for cards left (nobody could lead)"
    return f"{who} puts {e.amount} on {label}" + (f" ({reason})" if reason else "")


# ---------------------------------------------------------------- a player's decision as a sentence
# What everyone may read about a decision: a chosen poker hand, the cards passed and a Wanagan pick
# stay secret (the reveal events show them later).
_ACTION_SENTENCES = {
    "keep": "keeps the hand as dealt",
    "swap": "swaps blind with the spare hand",
    "look": "looks at the widow and takes it",
    "auction": "puts the spare hand up for auction",
    "check": "checks",
    "fold": "folds",
    "call": "calls",
    "claim": "claims the pay card",
    "cover": "covers the corner bet",
    "choose": "picks a poker hand",
    "reveal": "picks five cards and a space",
    "full_house": "places a full house",
    "straight": "places a 5-card straight",
    "play": "plays",
    "lead": "leads",
}


def describe_action(
    view: Mapping[str, Any], action: dict[str, Any], events: Sequence[Mapping[str, Any]] = (), phase: str | None = None
) -> str:
    """A seat's decision as a sentence for everyone ("Bob raises by 4", "Ann keeps the hand as dealt");
    ``events``: what applying it did (a play names the card it put face up, a call what it paid);
    ``phase``: the phase it was decided in (default: the view's)."""
    seat, do = action.get("seat"), action.get("do", "")
    amount = action.get("amount")
    records = as_events(events)
    phase = phase or view.get("phase", "")
    if do == "bet":
        what = f"bets {amount}"
    elif do == "raise":
        what = f"raises by {amount}"
    elif do == "call":
        paid = next((e.amount for e in records if isinstance(e, ev.Call) and e.seat == seat), None)
        what = f"calls {paid}" if paid else "calls"
    elif do in ("bid", "suit_bid"):
        what = f"bids {amount}" + (" for the pay suit" if do == "suit_bid" else "")
    elif do == "corner_bet":
        what = f"bets {amount} on the corner {card(action.get('ace') or '')}"
    elif do == "name_suit":
        what = f"names {SUIT_WORDS.get(action.get('suit') or '', 'a suit')} as the pay suit"
    elif do == "pass_cards":
        what = f"passes {len(action.get('cards') or []) or 'their'} cards"
    elif do in ("lead", "play"):
        placed = next((e.card for e in records if isinstance(e, ev.Play) and e.seat == seat), None) or action.get(
            "card"
        )
        what = f"{_ACTION_SENTENCES[do]} {card(placed)}" if placed else _ACTION_SENTENCES[do]
    elif do == "pass":
        what = "lets the claim go" if phase == PhaseName.CLAIM else "passes"
    elif do == "decline":
        what = "does not cover the corner bet" if phase == PhaseName.CORNER_COVER else "declines the corner bet"
    else:
        what = _ACTION_SENTENCES.get(do, do.replace("_", " "))
    return f"{name_of(view, seat)} {what}"


# ---------------------------------------------------------------- plain words
#: What each Wanagan space asks of the five cards revealed for it.
WANAGAN_NEEDS = {
    "one-pair": "two cards of one rank",
    "two-pair": "two pairs of two different ranks",
    "three-kind": "three cards of one rank",
    "four-kind": "four cards of one rank",
    "full-house": "three cards of one rank and two of another",
    "straight": "five ranks in a row (Ace high or low)",
    "flush": "five cards of one suit",
    "evens-odds": "five even or five odd ranks in a row, Ace low (2-4-6-8-10, 4-6-8-10-Q, A-3-5-7-9, "
    "3-5-7-9-J or 5-7-9-J-K)",
}


def wanagan_refusal(view: Mapping[str, Any], picked: Sequence[str], space: str, possible: Sequence[str]) -> str:
    """Why a Wanagan declaration is refused: the five cards lack the space's combination, and the
    spaces the hand could make instead."""
    wild = " (wild cards fill gaps)" if (view.get("detail") or {}).get("wild") else ""
    instead = ", ".join(space_label(view, sp) for sp in possible)
    return (
        f"{cards(picked)} do not make {space_label(view, space)}: it needs "
        f"{WANAGAN_NEEDS.get(space, 'its combination')}{wild}. Your hand can make: {instead} "
        f"(`best` declares the suggestion)"
    )


_CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b")
#: What the seat awaited in each decision is to do, for "waiting for seat 1 to bet".
PHASE_WORDS: dict[str, str] = {name: text.verb for name, text in PHASE_TEXTS.items() if text.verb}
_PLAIN = (
    (re.compile(r"\bbet_limit\b( \d+)?"), lambda m: "the bet limit" + (f" of{m.group(1)}" if m.group(1) else "")),
    (re.compile(r"\(([a-z]+-[a-z-]+)\)"), lambda m: f"({PHASE_WORDS.get(m.group(1), m.group(1))})"),
    (re.compile(r"\bto ([a-z]+-[a-z-]+)\b"), lambda m: f"to {PHASE_WORDS.get(m.group(1), m.group(1))}"),
)


def plain_message(text: str) -> str:
    """An engine message in the table's words: card codes as symbols (``5D`` → ``5♦``), option
    and phase names as words (``bet_limit`` → ``the bet limit``)."""
    text = _CARD_CODE.sub(lambda m: card(m.group(1).replace("10", "T") + m.group(2)), text)
    for pattern, words in _PLAIN:
        text = pattern.sub(words, text)
    return text


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\r``, ``\\x1b``): a message quoting user data
    stays one line, and no escape sequence from a file or an argument reaches the terminal."""
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)
