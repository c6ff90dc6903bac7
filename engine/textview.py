"""The game in words, from a seat's view (``Game.view(seat)``): cards, spaces, events and
decisions as plain English, shared by the terminal game (:mod:`engine.screen`) and the bot.

Every function here is pure: dicts in (a view, events as dicts), strings out.
Nothing reads the game object, so what is shown is exactly what the seat may
know. Cards are shown with :func:`engine.cards.pretty` (``10♥``, ``K♠``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from . import cards as C

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


def name_of(view: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    seats = view["seats"]
    return seats[seat]["name"] if 0 <= seat < len(seats) else f"seat {seat}"


def space_label(view: dict[str, Any], space_id: str) -> str:
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
def describe_events(events: Sequence[dict[str, Any]], view: dict[str, Any], *, group_forced: bool = False) -> list[str]:
    """Events as sentences. Antes are summed; a seat's run of Michigan cards is one line; a payout
    for a card just placed is joined to it ("ann places 10♥ and collects 4 from 10♥").

    ``group_forced``: a lead, the plays that follow it by force and its stop make one line
    ("ann leads 4♣, then 14 forced plays: …; 5♠ is a stop"), so a Michigan hand reads in a
    dozen lines instead of fifty."""
    out: list[str] = []
    i = 0
    n = len(events)
    while i < n:
        e = events[i]
        t = e.get("type")
        if t == "play" and group_forced:
            line, i = _sequence_line(events, i, view)
            out.append(line)
            continue
        if t == "ante":
            per: dict[int, int] = {}
            while i < n and events[i].get("type") == "ante":
                per[events[i]["seat"]] = per.get(events[i]["seat"], 0) + events[i]["amount"]
                i += 1
            out.append("antes: " + ", ".join(f"{name_of(view, s)} {a}" for s, a in per.items()))
            continue
        if t == "play":
            seat = e["seat"]
            how = e.get("how")
            verb = _PLAY_VERBS.get(how or "", "places")
            run = [e["card"]]
            gains: list[str] = []
            i += 1
            while i < n:
                f = events[i]
                if f.get("type") == "payout" and f.get("seat") == seat and f.get("reason") in _PLACING_REASONS:
                    gains.append(f"collects {f['amount']} from {space_label(view, f['space'])}")
                    i += 1
                    continue
                if (
                    f.get("type") == "play"
                    and f["seat"] == seat
                    and f.get("how") != "lead"
                    and not gains
                    and (f.get("how") == how or (how == "lead" and f.get("how") == "follow"))
                ):
                    run.append(f["card"])
                    i += 1
                    continue
                break
            line = f"{name_of(view, seat)} {verb} {cards(run)}"
            if gains:
                line += " and " + " and ".join(gains)
            out.append(line)
            continue
        if t == "reveal":
            out.append(f"reveal (round {e.get('round', '?')}):")
            for s, h in e["hands"].items():
                verdict = "qualifies" if h.get("qualifies") else "does not qualify"
                out.append(
                    f"  {name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']}) on "
                    f"{space_label(view, h['space'])}: {verdict}"
                )
            i += 1
            continue
        if t == "showdown":
            out.append("showdown:")
            out.extend(f"  {name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']})" for s, h in e["hands"].items())
            i += 1
            continue
        text = describe_event(e, view)
        if text:
            out.append(text)
        i += 1
    return [second_person(line) for line in out]


_PLAY_VERBS = {"lead": "leads", "full house": "places a full house:", "straight": "places a 5-card straight:"}


def _sequence_line(events: Sequence[dict[str, Any]], i: int, view: dict[str, Any]) -> tuple[str, int]:
    """The Michigan sequence starting at ``events[i]`` as one line, and the index after it."""
    n = len(events)
    e = events[i]
    head = ""
    gains = []  # what the head's cards collect
    if e.get("how") != "follow":  # a lead or a combination play: a decision, named first
        verb = _PLAY_VERBS.get(e.get("how") or "", "places")
        run = [e["card"]]
        i += 1
        while i < n:
            f = events[i]
            if f.get("type") == "play" and f["seat"] == e["seat"] and f.get("how") == e.get("how") != "lead":
                run.append(f["card"])
            elif f.get("type") == "payout" and f.get("seat") == e["seat"] and f.get("reason") in _PLACING_REASONS:
                gains.append(f"+{f['amount']} from {space_label(view, f['space'])}")
            else:
                break
            i += 1
        head = f"{name_of(view, e['seat'])} {verb} {cards(run)}"
    forced: list[list[Any]] = []  # [seat, cards, gains] per seat's turn
    last_seat = e["seat"]
    while i < n:
        f = events[i]
        if f.get("type") == "play" and f.get("how") == "follow":
            if not forced or forced[-1][0] != f["seat"] or forced[-1][2]:
                forced.append([f["seat"], [], []])
            forced[-1][1].append(f["card"])
            last_seat = f["seat"]
        elif (
            forced and f.get("type") == "payout" and f.get("seat") == last_seat and f.get("reason") in _PLACING_REASONS
        ):
            forced[-1][2].append(f"+{f['amount']} from {space_label(view, f['space'])}")
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
    if i < n and events[i].get("type") == "stop":
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


def describe_event(e: dict[str, Any], view: dict[str, Any]) -> str | None:
    """One event as a sentence; ``None`` for events already told by another (a bet's chips)."""
    t = e.get("type")
    who = name_of(view, e.get("seat")) if "seat" in e else ""
    if t == "round-start":
        return f"--- round {e['round']}: {name_of(view, e['dealer'])} deals, ante {e['ante']} per space ---"
    if t == "ante":
        return f"{who} antes {e['amount']} on {space_label(view, e['space'])}"
    if t == "sit-out":
        return f"{who} sits this round out (cannot pay the ante)"
    if t == "eliminated":
        return f"{who} is eliminated"
    if t == "deal":
        counts = ", ".join(f"{name_of(view, int(s))} {k}" for s, k in e.get("cards", {}).items())
        return f"cards dealt: {counts}; spare hand {e.get('spare', 0)}"
    if t == "keep":
        return f"{who} keeps the hand as dealt"
    if t == "swap":
        how = {
            "blind": "swaps blind with the spare hand",
            "looked": "looks at the widow and takes it",
            "bought": "takes the spare hand",
        }.get(e.get("reason", ""), "swaps with the spare hand")
        return f"{who} {how}"
    if t == "auction":
        return "bidding for the pay suit starts" if e.get("kind") == "suit" else "the spare hand is up for auction"
    if t == "bid":
        return f"{who} bids {e['amount']}" + (" for the pay suit" if e.get("kind") == "suit" else "")
    if t == "pass":
        return f"{who} passes" + (" (cannot outbid)" if e.get("forced") else "")
    if t == "no-bids":
        return "nobody bids"
    if t == "suit":
        if e.get("seat") is None:
            return f"nobody bid: {SUIT_WORDS.get(e['suit'], e['suit'])} stay the pay suit"
        return f"{who} names {SUIT_WORDS.get(e['suit'], e['suit'])} as the pay suit"
    if t == "to_space":
        reason = e.get("reason", "")
        if reason in ("bet", "raise", "call", "cannot lead"):
            return None  # told by the bet/raise/call/cannot-lead event
        label = space_label(view, e["space"])
        if reason in ("corner bet", "corner cover"):
            verb = "bets" if reason == "corner bet" else "covers with"
            return f"{who} {verb} {e['amount']} on {label}"
        if reason == "suit bid":
            return f"{who} puts {e['amount']} on {label} for the pay suit"
        if reason == "cards left":
            return f"{who} pays {e['amount']} to {label} for cards left"
        if reason == "all stuck":
            return f"{who} pays {e['amount']} to {label} for cards left (nobody could lead)"
        return f"{who} puts {e['amount']} on {label}" + (f" ({reason})" if reason else "")
    if t == "transfer":
        frm, to = name_of(view, e["from_seat"]), name_of(view, e["to_seat"])
        reason = e.get("reason", "")
        if reason == "spare hand":
            return f"{frm} pays {to} {e['amount']} for the spare hand"
        if reason == "cards left":
            return f"{frm} pays {to} {e['amount']} for cards left"
        return f"{frm} pays {to} {e['amount']}" + (f" ({reason})" if reason else "")
    if t == "payout":
        reason = _PAYOUT_REASONS.get(e.get("reason", ""), f"({e['reason']})" if e.get("reason") else "")
        return f"{who} collects {e['amount']} from {space_label(view, e['space'])} {reason}".rstrip()
    if t == "move":
        return (
            f"{e['amount']} chips move from {space_label(view, e['from_space'])} to {space_label(view, e['to_space'])}"
        )
    if t == "chosen":
        return f"{who} picks five cards and a space"
    if t == "passing":
        return f"{who} picks three cards to pass"
    if t == "pass-cards":
        return f"everyone passes three cards to the {e.get('direction', 'left')}"
    if t == "reveal":
        return None  # told line by line by describe_events
    if t == "wanagan-end":
        return f"the Wanagan reveals end after {e.get('rounds', 0)} round(s)"
    if t == "corner-decline":
        return f"{who} declines the corner bet"
    if t == "corner-stays":
        holder = e.get("holder")
        why = "nobody holds it" if holder is None else f"{name_of(view, holder)} holds it but did not back it"
        return f"{space_label(view, e['space'])} stays on the mat ({why})"
    if t == "switch-preset":
        return f"the mat changes to {e['preset']}; {e.get('carried', 0)} chips carried to {space_label(view, e['to_space'])}"
    if t == "unclaimed":
        return f"{who} did not claim {space_label(view, e['space'])}: the chips stay"
    if t == "choose":
        return f"{who} picks five poker cards"
    if t == "check":
        return f"{who} checks"
    if t == "fold":
        return f"{who} folds"
    if t == "call":
        return f"{who} calls {e['amount']}" + (" (all in)" if e.get("all_in") else "")
    if t in ("bet", "raise"):
        return f"{who} {t}s {e['amount']}" + (" (all in)" if e.get("all_in") else "")
    if t == "poker-win":
        return f"{who} wins the poker hand (everyone else folded)"
    if t == "showdown":
        parts = [f"{name_of(view, int(s))}: {cards(h['cards'])} ({h['hand']})" for s, h in e["hands"].items()]
        return "showdown — " + "; ".join(parts)
    if t == "play":
        return f"{who} {'leads' if e.get('how') == 'lead' else 'places'} {card(e['card'])}"
    if t == "stop":
        if e.get("reason") == "full house":
            return f"the full house ends the sequence: {who} leads next"
        return f"{card(e['card'])} is a stop: {who} leads next"
    if t == "cannot-lead":
        return f"{who} cannot lead" + (
            f" and pays {e['paid']} to the Kitty" if e.get("paid") else ", the lead passes left"
        )
    if t == "colour-flip":
        return f"nobody can lead that colour: the lead must now be {e['colour']}"
    if t == "out":
        return f"{who} goes out"
    if t == "stuck":
        return "nobody can lead: play ends"
    if t == "round-end":
        return f"--- round {e['round']} over ---"
    if t == "game-end":
        return f"=== game over ({e.get('reason', '')}) ==="
    if t == "playoff-hand":
        return "=== clearing the board: a hand of Michigan (8, 9, 10 and K-Q cards earn shares) ==="
    if t == "playoff-hand-end":
        return f"--- clearing hand over: {e.get('mat', 0)} chips left on the board ---"
    if t == "abandoned":
        return f"round {e.get('round')} abandoned"
    if t == "cut":
        return "cut for the deal: " + ", ".join(f"{name_of(view, int(s))} {card(c)}" for s, c in e["cards"].items())
    rest = ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")
    return f"{t}: {rest}" if rest else str(t)


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
    view: dict[str, Any], action: dict[str, Any], events: Sequence[dict[str, Any]] = (), phase: str | None = None
) -> str:
    """A seat's decision as a sentence for everyone ("Bob raises by 4", "Ann keeps the hand as dealt");
    ``events``: what applying it did (a play names the card it put face up, a call what it paid);
    ``phase``: the phase it was decided in (default: the view's)."""
    seat, do = action.get("seat"), action.get("do", "")
    amount = action.get("amount")
    own = [e for e in events if e.get("seat") == seat]
    phase = phase or view.get("phase", "")
    if do == "bet":
        what = f"bets {amount}"
    elif do == "raise":
        what = f"raises by {amount}"
    elif do == "call":
        paid = next((e.get("amount") for e in own if e.get("type") == "call"), None)
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
        placed = next((e.get("card") for e in own if e.get("type") == "play"), None) or action.get("card")
        what = f"{_ACTION_SENTENCES[do]} {card(placed)}" if placed else _ACTION_SENTENCES[do]
    elif do == "pass":
        what = "lets the claim go" if phase == "claim" else "passes"
    elif do == "decline":
        what = "does not cover the corner bet" if phase == "corner-cover" else "declines the corner bet"
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


def wanagan_refusal(view: dict[str, Any], picked: Sequence[str], space: str, possible: Sequence[str]) -> str:
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
PHASE_WORDS = {
    "spare-hand": "decide on the spare hand",
    "auction": "bid for the spare hand",
    "suit-bid": "bid for the pay suit",
    "name-suit": "name the pay suit",
    "claim": "claim a pay card",
    "poker-choose": "choose poker cards",
    "poker-betting": "bet",
    "michigan-lead": "lead",
    "michigan-play": "play",
    "wanagan-pass": "pass cards",
    "wanagan-reveal": "reveal",
    "corner-bet": "bet on a corner Ace",
    "corner-cover": "cover the corner bet",
}
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
