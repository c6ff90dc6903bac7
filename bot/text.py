"""Text for Discord messages: the mat, the lobby, a hand, the results.

The text summary is always sent (images come on top when available), so it
must carry everything a player needs to play.
"""

from __future__ import annotations

from typing import Any

from engine.cards import SUIT_SYMBOLS

SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}

PHASE_TEXT = {
    "spare-hand": "the dealer decides about the spare hand",
    "auction": "auction for the spare hand",
    "suit-bid": "bidding to name the pay suit",
    "name-suit": "naming the pay suit",
    "claim": "claiming a pay card",
    "corner-bet": "corner-Ace bet",
    "corner-cover": "covering the corner bet",
    "poker-choose": "choosing poker hands",
    "poker-betting": "poker betting",
    "michigan-lead": "Michigan: a lead",
    "michigan-play": "Michigan",
    "wanagan-pass": "passing cards",
    "wanagan-reveal": "Wanagan reveal",
    "round-over": "round over",
    "game-over": "clearing the board",
    "finished": "game over",
}

ACTION_LABELS = {
    "check": "Check",
    "call": "Call",
    "fold": "Fold",
    "bet": "Bet…",
    "raise": "Raise…",
    "keep": "Keep my hand",
    "swap": "Swap blind",
    "look": "Look at the widow",
    "auction": "Auction the spare",
    "bid": "Bid…",
    "suit_bid": "Bid…",
    "pass": "Pass",
    "claim": "Claim!",
    "choose": "Choose five",
    "lead": "Lead",
    "name_suit": "Name suit",
    "corner_bet": "Corner bet…",
    "cover": "Cover",
    "decline": "Decline",
    "play": "Play",
}

PROMPTS = {
    "spare-hand": "keep your hand, swap it blind for the spare, or auction the spare",
    "auction": "bid for the spare hand, or pass",
    "suit-bid": "bid for the right to name the pay suit, or pass",
    "name-suit": "name the pay suit",
    "claim": "claim your pay card before play goes on",
    "poker-choose": "choose the five cards of your poker hand",
    "poker-betting": "check, bet, call, raise or fold",
    "michigan-lead": "lead a card",
    "michigan-play": "play your card, or place a combination",
    "wanagan-pass": "pick the cards to pass",
    "wanagan-reveal": "pick five cards and the space you declare",
    "corner-bet": "bet on a corner Ace, or decline",
    "corner-cover": "cover the corner bet, or decline",
}


def card(text: str) -> str:
    """``TH`` → ``10♥``."""
    if not text or len(text) < 2:
        return str(text)
    rank, suit = text[:-1], text[-1].upper()
    rank = "10" if rank.upper() in ("T", "10") else rank.upper()
    return f"{rank}{SUIT_SYMBOLS.get(suit, suit)}"


def cards(texts: list[str] | None) -> str:
    return " ".join(card(c) for c in (texts or [])) or "—"


def hand_by_suit(texts: list[str] | None) -> str:
    groups: dict[str, list[str]] = {}
    for c in texts or []:
        groups.setdefault(c[-1].upper(), []).append(c)
    lines = [f"{SUIT_SYMBOLS[s]} " + " ".join(card(c)[:-1] for c in groups[s]) for s in "SHDC" if s in groups]
    return "\n".join(lines) or "(no cards)"


def timestamp(epoch: float | None, style: str = "R") -> str:
    return f"<t:{int(epoch)}:{style}>" if epoch else ""


def phase_text(phase: str | None) -> str:
    return PHASE_TEXT.get(phase or "", phase or "")


def name(view: dict, seat: int | None) -> str:
    if seat is None:
        return "?"
    try:
        return view["seats"][seat]["name"]
    except (KeyError, IndexError, TypeError):
        return f"seat {seat}"


def lobby_text(table, info) -> str:
    lines = [
        f"## 🃏 {info.name} — table open",
        info.summary or "",
        f"Buy-in **{table.buy_in}** chips · seats {len(table.seats)}/{info.max_players}"
        f" (at least {info.min_players}) · turn timer {int(table.turn_timeout)} s",
    ]
    if table.options:
        lines.append("Options: " + ", ".join(f"`{k}={v}`" for k, v in table.options.items()))
    lines.append("")
    for i, seat in enumerate(table.seats, 1):
        host = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id else f"🤖 {seat.name}"
        lines.append(f"{i}. {who}{host}")
    lines.append("")
    if table.deadline:
        lines.append(f"Press **Join** to take a seat. The lobby closes {timestamp(table.deadline)} if not started.")
    return "\n".join(line for line in lines if line is not None)


def cancelled_text(table, info) -> str:
    last = table.log[-1] if table.log else "The table is closed."
    return f"## 🃏 {info.name} — closed\n{last}"


MAX_CONTENT = 2000  # characters in a Discord message
BOARD_LINE = 400  # a board line (showdown, Michigan sequence) shortened to this when the message is too long
SHORT_NAME = 12


def clip(line: str, size: int) -> str:
    return line if len(line) <= size else line[: size - 1] + "…"


def fit_mat(head: list[str], seats: list[tuple[str, str]], board: list[str], log: list[str], footer: list[str],
            limit: int = MAX_CONTENT) -> str:
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


def mat_text(table, view: dict) -> str:
    """The public table message."""
    head = [
        f"## 🃏 {view.get('preset_name', table.preset)} — round {view.get('round', 0)}",
        f"Ante {view.get('ante')} · pay suit {SUIT_SYMBOLS.get(view.get('pay_suit', 'H'), '')} · {phase_text(view.get('phase'))}",
    ]
    to_act = view.get("to_act")
    seats_out = []
    for s in view.get("seats", []):
        i = s["seat"]
        marks = []
        if s.get("is_dealer"):
            marks.append("dealer")
        if s.get("status") not in (None, "active"):
            marks.append(s["status"])
        if i < len(table.seats):
            seat = table.seats[i]
            if seat.left:
                marks.append("left · AI")
            elif seat.away:
                marks.append("away · AI")
        arrow = "▶ " if i == to_act else "　"
        extra = f" ({', '.join(marks)})" if marks else ""
        committed = f" · in pot {s['committed']}" if s.get("committed") else ""
        seats_out.append((
            f"{arrow}**{s['name']}** — {s['stack']} chips · {s.get('cards', 0)} cards{committed}{extra}",
            f"{arrow}**{clip(s['name'], SHORT_NAME)}** {s['stack']}" + (f" ({', '.join(marks)})" if marks else ""),
        ))
    board: list[str] = []
    mat = view.get("mat") or []
    if mat:
        board.append("**Mat:** " + " · ".join(f"{sp['label']} {sp['chips']}" for sp in mat))
    poker = view.get("poker") or {}
    if poker.get("showdown"):
        shows = [f"{name(view, h['seat'])}: {cards(h.get('cards'))} ({h.get('hand')})" for h in poker["showdown"]]
        board.append("**Showdown:** " + " | ".join(shows))
    elif poker.get("last_action"):
        board.append(f"**Poker:** {poker['last_action']} (bet {poker.get('current_bet', 0)})")
    mich = view.get("michigan") or {}
    if mich.get("sequence"):
        board.append(f"**Michigan:** {cards(mich['sequence'])}")
    spare = view.get("spare") or {}
    if spare.get("auction"):
        au = spare["auction"]
        bidder = name(view, au["high_bidder"]) if au.get("high_bidder") is not None else "nobody"
        board.append(f"**Auction:** high bid {au['high_bid']} by {bidder}")
    footer: list[str] = []
    if to_act is not None and table.deadline_kind in ("turn", "ai"):
        who = name(view, to_act)
        seat = table.seats[to_act] if to_act < len(table.seats) else None
        mention = f"<@{seat.user_id}>" if seat and seat.user_id and not seat.auto else f"**{who}**"
        if table.deadline_kind == "turn":
            footer.append(f"⏳ {mention} to act ({phase_text(view.get('phase'))}) — time runs out {timestamp(table.deadline)}")
        else:
            footer.append(f"🤖 {who} is thinking…")
    elif table.deadline_kind == "next-deal":
        footer.append(f"Next round {timestamp(table.deadline)}.")
    return fit_mat(head, seats_out, board, [f"› {line}" for line in table.log[-6:]], footer)


def final_text(table) -> str:
    result = table.result or {}
    lines = [f"## 🏁 {result.get('preset_name', table.preset)} — game over after {result.get('rounds', 0)} round(s)"]
    for i, s in enumerate(result.get("seats", []), 1):
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        net = f"+{s['net']}" if s["net"] > 0 else str(s["net"])
        who = f"<@{s['user_id']}>" if s.get("user_id") else f"🤖 {s['name']}"
        lines.append(f"{medal} {who} — {s['final']} chips ({net})")
    lines.append("")
    lines.extend(f"› {line}" for line in table.log[-3:])
    lines.append("Everyone has been cashed out to their wallet. `/tripoley start` for another game!")
    return "\n".join(lines)


def hand_text(view: dict, seat: int) -> str:
    """The private hand message: cards and what the player may do."""
    lines = [f"**Your hand** (round {view.get('round')}, {len(view.get('hand') or [])} cards):"]
    lines.append(hand_by_suit(view.get("hand")))
    poker = view.get("poker") or {}
    if poker.get("chosen"):
        lines.append(f"Your poker five: {cards(poker['chosen'])}")
    me = next((s for s in view.get("seats", []) if s["seat"] == seat), None)
    if me:
        lines.append(f"Stack: {me['stack']} chips")
    legal = view.get("legal")
    if legal:
        detail = view.get("detail") or {}
        prompt = PROMPTS.get(view.get("phase"), "your move")
        lines.append(f"\n**Your turn:** {prompt}.")
        if detail.get("to_call"):
            lines.append(f"To call: {detail['to_call']}.")
        if "min" in detail and "max" in detail and any(a in legal for a in ("bet", "raise", "bid", "suit_bid")):
            lines.append(f"Amount: {detail['min']}–{detail['max']}.")
        if detail.get("best"):
            lines.append(f"Best five: {cards(detail['best'])}")
        if detail.get("space"):
            spaces = " + ".join(detail.get("spaces") or [detail["space"]])
            lines.append(f"Pays: {spaces} ({detail.get('chips', 0)} chips)")
    elif view.get("to_act") is not None:
        lines.append(f"\nWaiting for **{name(view, view['to_act'])}** ({phase_text(view.get('phase'))}).")
    return "\n".join(lines)


def amount_bounds(detail: dict[str, Any]) -> tuple[int, int]:
    return int(detail.get("min", 1)), int(detail.get("max", 0))
