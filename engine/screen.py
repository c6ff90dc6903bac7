"""The terminal game's screen: the table, the prompt and the results, as plain text from a seat's view.

Pure like :mod:`engine.textview`, whose words it uses: a view in, strings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import cards as C
from .textview import SUIT_WORDS, card, cards, describe_events, name_of, plain_message, sorted_hand, space_label
from .viewtypes import GameView, Standing


# ---------------------------------------------------------------- blocks of the table
def render_header(view: GameView) -> str:
    phase = view.get("phase", "")
    return (
        f"== {view.get('preset_name', view.get('preset', ''))} — round {view.get('round', 0)}, "
        f"ante {view.get('ante', '')}, phase {phase} =="
    )


def render_mat(view: GameView) -> str:
    """The mat: each space's label and chips, several to a line."""
    cells = [f"{space_label(view, sp['id'])}: {sp['chips']}" for sp in view.get("mat", ())]
    lines, line = [], "Mat:"
    for cell in cells:
        if len(line) + len(cell) + 3 > 78:
            lines.append(line)
            line = "    "
        line += " " + f"[{cell}]"
    lines.append(line)
    total = sum(sp["chips"] for sp in view.get("mat", ()))
    lines[-1] += f"   (on the mat: {total})"
    return "\n".join(lines)


def render_seats(view: GameView) -> str:
    """One line per seat: marker for the seat to act, name, stack, cards left, dealer, status."""
    lines = []
    to_act = view.get("to_act")
    viewer = view.get("viewer")
    width = max((len(s["name"]) for s in view["seats"]), default=4) + 6
    for s in view["seats"]:
        mark = ">" if s["seat"] == to_act else " "
        name = s["name"] + (" (you)" if s["seat"] == viewer and s["name"].lower() != "you" else "")
        parts = [f"{mark} {name:<{width}}", f"stack {s['stack']:>4}", f"cards {s['cards']:>2}"]
        tags = []
        if s.get("is_dealer"):
            tags.append("dealer")
        if s.get("status") and s["status"] != "active":
            tags.append(s["status"])
        if s.get("committed") and str(view.get("phase", "")).startswith("poker"):
            tags.append(f"in pot {s['committed']}")
        if s["seat"] == to_act:
            tags.append("to act")
        line = "  ".join(parts)
        if tags:
            line += "  " + ", ".join(tags)
        lines.append(line.rstrip())
    return "\n".join(lines)


def render_play_state(view: GameView) -> str:
    """The Michigan sequence, or the poker state, or the spare-hand auction: what matters in this phase."""
    phase = view["phase"]
    lines = []
    spare = view["spare"]
    au = spare["auction"] if spare else None
    if au:
        what = "pay suit" if au["kind"] == "suit" else "spare hand"
        high = (
            f"high bid {au['high_bid']} by {name_of(view, au['high_bidder'])}"
            if au["high_bidder"] is not None
            else "no bids yet"
        )
        lines.append(f"Auction for the {what}: {high}")
    elif phase == "spare-hand":
        lines.append(f"Spare hand: {spare['cards'] if spare else 0} cards face down")
    poker = view["poker"]
    if poker and (phase.startswith("poker") or poker["last_action"]):
        if phase.startswith("poker"):
            last = f"; last: {poker['last_action']}" if poker["last_action"] else ""
            lines.append(f"Poker: current bet {poker['current_bet']}{last}")
        d = view.get("detail", {})
        if phase == "poker-choose" and d.get("cards") and sorted(d["cards"]) != sorted(view["hand"] or []):
            lines.append(f"Your poker cards (the whole dealt hand): {cards(sorted_hand(d['cards']))}")
        if poker["chosen"] and phase.startswith("poker"):
            lines.append(f"Your poker hand: {cards(poker['chosen'])}")
    mich = view["michigan"]
    if mich and (phase.startswith("michigan") or (phase == "claim" and mich["played"])):
        seq = mich["sequence"]
        lines.append(
            "Michigan sequence: " + (cards(seq) if seq else "(none yet)") + f"   cards placed: {mich['played']}"
        )
    corner = view.get("corner")
    if corner:
        backers = ", ".join(name_of(view, s) for s in corner["backers"])
        lines.append(f"Corner bet: {corner['amount']} on {card(corner['ace'])}, backed by {backers}")
    if view.get("pay_suit") and view.get("pay_suit") != "H":
        lines.append(f"Pay suit: {SUIT_WORDS[view['pay_suit']]}")
    return "\n".join(lines)


def render_hand(view: GameView) -> str:
    """The viewer's hand, sorted by suit, one group per suit."""
    hand = view.get("hand")
    if hand is None:
        return ""
    if not hand:
        return "Your hand: (empty)"
    groups: dict[str, list[str]] = {}
    for t in sorted_hand(hand):
        groups.setdefault(t[1], []).append(card(t))
    body = "   ".join(" ".join(g) for g in groups.values())
    return f"Your hand ({len(hand)}): {body}"


def render_view(view: GameView, *, events: bool = False) -> str:
    """The whole table as the viewer sees it."""
    blocks = [render_header(view), render_mat(view), render_seats(view)]
    state = render_play_state(view)
    if state:
        blocks.append(state)
    if events:
        recent = describe_events(view.get("events") or [], view)
        if recent:
            blocks.append("Recent:\n" + "\n".join("  " + line for line in recent[-8:]))
    hand = render_hand(view)
    if hand:
        blocks.append(hand)
    return "\n".join(blocks)


# ---------------------------------------------------------------- the prompt
AMOUNT_ACTIONS = ("bid", "suit_bid", "bet", "raise", "corner_bet")


def legal_lines(view: GameView) -> list[str]:
    """One line per legal action, with its range or choices (from ``legal`` and ``detail``)."""
    legal = view.get("legal") or []
    d = view.get("detail") or {}
    out = []
    for do in legal:
        out.append(_legal_line(view, do, d))
    return out


def _legal_line(view: GameView, do: str, d: dict[str, Any]) -> str:
    phase = view.get("phase", "")
    lo, hi = d.get("min"), d.get("max")
    rng = f"{lo}" if lo == hi else f"{lo}–{hi}"
    if do == "keep":
        return "keep                 keep your hand as dealt"
    if do == "swap":
        return f"swap                 swap blind with the spare hand ({d.get('spare_cards', '?')} cards)"
    if do == "look":
        return "look                 look at the widow and take it (you must keep it)"
    if do == "auction":
        return "auction              auction the spare hand to the other players"
    if do in ("bid", "suit_bid"):
        what = "the right to name the pay suit" if do == "suit_bid" else "the spare hand"
        high = f"high bid {d.get('high_bid', 0)}"
        if d.get("high_bidder") is not None:
            high += f" by {name_of(view, d['high_bidder'])}"
        return f"bid N                N = {rng} chips for {what} ({high})"
    if do == "pass":
        if phase == "claim":
            return "pass                 leave the chips on the space"
        return "pass                 no bid (you drop out of this auction)"
    if do == "name_suit":
        return f"name_suit S          S = {' '.join(d.get('suits', list(C.SUITS)))}"
    if do == "claim":
        spaces = d.get("spaces") or [d.get("space", "")]
        return f"claim                take {d.get('chips', '?')} from {' and '.join(space_label(view, sp) for sp in spaces)}"
    if do == "choose":
        return f"choose C C C C C     your five poker cards, or `best` for the suggested {cards(d.get('best'))}"
    if do == "check":
        return "check                bet nothing"
    if do == "bet":
        return f"bet N                N = {rng}"
    if do == "call":
        return f"call                 put in {d.get('to_call', 0)}"
    if do == "raise":
        extra = f" on top of the {d['to_call']} to call" if d.get("to_call") else ""
        return f"raise N              N = {rng} above the current bet{extra}"
    if do == "fold":
        return "fold                 give up this hand"
    if do == "lead":
        return f"lead C               C = one of {cards(d.get('cards'))}"
    if do == "play":
        return f"play                 place {card(d.get('card', ''))} as usual"
    if do in ("full_house", "straight"):
        opts = " | ".join(cards(o) for o in d.get(do, []))
        what = (
            "four cards making a full house with "
            if do == "full_house"
            else "the next card + three making a straight from "
        )
        return f"{do} C C C C   {what}{card(d.get('last_card', ''))}: {opts}"
    if do == "pass_cards":
        hint = f"; `best` passes {cards(d['suggested'])}" if d.get("suggested") else ""
        return f"pass_cards C C C     {d.get('count', 3)} cards to pass {d.get('direction', 'left')}{hint}"
    if do == "reveal":
        spaces = ", ".join(f"{sp} ({space_label(view, sp)})" for sp in d.get("spaces", []))
        wild = f"; wild: {cards(d['wild'])}" if d.get("wild") else ""
        line = f"reveal C C C C C SPACE   five cards and a space with chips: {spaces}{wild}"
        suggested = d.get("suggested")
        if suggested:
            line += (
                f"\n                       `best` declares {space_label(view, suggested['space'])} "
                f"with {cards(suggested['cards'])}"
            )
        return line
    if do == "corner_bet":
        return f"corner_bet ACE N     bet N = {rng} on a corner Ace, ACE = {cards(d.get('aces'))}"
    if do == "cover":
        return f"cover                match the {d.get('amount', '?')}-chip bet on the corner {card(d.get('ace', ''))}"
    if do == "decline":
        return "decline              no corner bet" if phase == "corner-bet" else "decline              do not cover"
    return do


def render_prompt(view: GameView) -> str:
    lines = ["Your move. Legal actions:"]
    lines += ["  " + line for line in legal_lines(view)]
    warning = (view.get("detail") or {}).get("warning")
    if warning:  # Rummoli: advice to a dealer or bidder holding a pay card
        lines.append(f"  Careful: {plain_message(warning)}.")
    lines.append("  (also: `table` to show the table again, `quit` to leave)")
    return "\n".join(lines)


# ---------------------------------------------------------------- results
def render_round_result(record: dict[str, Any], view: GameView, round_number: int) -> str:
    """A finished round: payouts by seat, the poker result and who went out."""
    lines = [f"Round {round_number} results:"]
    poker = record.get("poker")
    if poker:
        winners = ", ".join(name_of(view, s) for s in poker.get("winners", []))
        hands = poker.get("hands") or {}
        if hands:
            shown = "; ".join(f"{name_of(view, int(s))} {h}" for s, h in hands.items())
            lines.append(f"  poker: {winners or 'nobody'} won ({shown})")
        else:
            lines.append(f"  poker: {winners or 'nobody'} won without a showdown")
    mich = record.get("michigan")
    if mich:
        if mich.get("out") is not None:
            lines.append(f"  Michigan: {name_of(view, mich['out'])} went out after {len(mich.get('order', []))} cards")
        elif mich.get("stuck"):
            lines.append("  Michigan: nobody could lead; play ended")
    won: dict[int, int] = {}
    for p in record.get("payouts", []):
        won[p["seat"]] = won.get(p["seat"], 0) + p["amount"]
    if won:
        lines.append(
            "  collected from the mat: " + ", ".join(f"{name_of(view, s)} {a}" for s, a in sorted(won.items()))
        )
    lines.append("  stacks: " + ", ".join(f"{s['name']} {s['stack']}" for s in view["seats"]))
    return "\n".join(lines)


def render_standings(standings: Sequence[Standing]) -> str:
    lines = ["Final standings:"]
    for i, row in enumerate(standings, start=1):
        net = row.get("net", 0)
        lines.append(f"  {i}. {row['name']:<12} {row['stack']:>5}  ({'+' if net >= 0 else ''}{net})")
    return "\n".join(lines)
