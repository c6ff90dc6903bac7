"""Text for Discord messages: the mat, the lobby, a hand, the results.

The text summary is always sent (images come on top when available), so it
must carry everything a player needs to play.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata

from bot.messages.reveals import latest_reveal, reveal_board
from bot.messages.rules import lobby_rules_lines
from engine.cards import SUIT_SYMBOLS, SUITS
from engine.language import N_
from engine.phases.names import PHASE_TEXTS
from engine.textview import second_person, space_label

SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}

# /tripoley help: how to play in a few lines, and the commands that matter (every one is checked to exist).
HELP_TEXT = N_("""\
**How to play Tripoley**
1. `/tripoley start` opens a table in this channel. Friends press **Join**; the host can **Add AI** seats, pick house rules, then **Start**.
2. Each round everyone antes a chip on every space of the mat. Cards on the mat pay whoever holds (or plays) them; a hand of poker wins the **Pot**; then Michigan: a card is led, the next cards of its suit follow, and the first player out of cards takes the **Kitty**.
3. Your cards: **Show my hand** on the table message (only you see it), or `/tripoley dm on` to get them by DM at every deal. When it is your turn you are pinged, and your choices are buttons.
4. Chips come from your wallet in this server and go back to it at the end.

**Commands that matter**
`/tripoley start` · `/tripoley join` · `/tripoley leave` · `/tripoley hand`: the table
`/tripoley rules`: the rules of any game, or of this table with its house rules
`/tripoley balance` · `/tripoley daily` · `/tripoley relief` · `/tripoley leaderboard` · `/tripoley stats`: ratings, chips and records
`/tripoley history`: recent games and their replays · `/tripoley ping`: turn pings on or off
`/tripoley settings`: this server's defaults · `/tripoley forget-me`: delete what the bot keeps about you
Admins: `/tripoley-admin` (grant, house, audit, kick, reset, settings, season).""")

# Where the table stands, in each phase (the engine's one table of phase words).
PHASE_TEXT: dict[str, str] = {name: text.status for name, text in PHASE_TEXTS.items()}

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

# Each verb in players' words, for sentences ("You may: check, bet, fold").
ACTION_WORDS = {
    "keep": "keep your hand",
    "swap": "swap blind",
    "look": "look at the widow",
    "auction": "auction the spare hand",
    "suit_bid": "bid for the pay suit",
    "choose": "choose your poker five",
    "name_suit": "name the pay suit",
    "corner_bet": "bet on a corner Ace",
    "cover": "cover the corner bet",
    "pass_cards": "pass cards",
    "reveal": "pick five cards and a space",
    "full_house": "place a full house",
    "straight": "place a 5-card straight",
}

# What the seat to act is asked, in each decision.
PROMPTS: dict[str, str] = {name: text.prompt for name, text in PHASE_TEXTS.items() if text.prompt}


# Discord shows ``\\X`` as ``X`` for any ASCII punctuation X. These have a meaning there: markdown
# (``**`` ``__`` ``~~`` ``||`` code, ``# heading``, ``- list``, ``1. list``, ``> quote``, masked
# ``[links](…)``), mentions (``<@id>``, ``@everyone``), ``https://`` links, ``:emoji:``, ``<t:…>``.
ESCAPED = frozenset("\\*_~`|>#-+.[]<@:")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"


def escape(text: object) -> str:
    """User-supplied text (a name, a nickname, a label a host typed) as Discord shows it literally:
    never markdown, a mention, a link or a heading, on one line, and a right-to-left name does not
    reorder the words around it (it is isolated; explicit direction controls are dropped)."""
    out = []
    rtl = False
    for ch in str(text):
        if ch in BIDI_CONTROLS:
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            ch = " "
        elif unicodedata.bidirectional(ch) in ("R", "AL"):
            rtl = True
        out.append("\\" + ch if ch in ESCAPED else ch)
    body = "".join(out)
    return f"{FIRST_STRONG_ISOLATE}{body}{POP_ISOLATE}" if rtl else body


def escaped_view(view: dict) -> dict:
    """The view with every seat's name escaped for Discord (the table's log is Discord text)."""
    return {**view, "seats": [{**s, "name": escape(s["name"])} for s in view.get("seats", [])]}


def card(text: str) -> str:
    """``TH`` → ``10♥``."""
    if not text or len(text) < 2:
        return str(text)
    rank, suit = text[:-1], text[-1].upper()
    rank = "10" if rank.upper() in ("T", "10") else rank.upper()
    return f"{rank}{SUIT_SYMBOLS.get(suit, suit)}"


def card_copy(text: str, copy: int, copies: int) -> str:
    """A card menu's label: ``Q♥``, or with several copies in the hand which one it is,
    ``Q♥ (copy 2 of 2)`` (each copy is an option of its own)."""
    return card(text) if copies <= 1 else f"{card(text)} (copy {copy} of {copies})"


def cards(texts: list[str] | None) -> str:
    return " ".join(card(c) for c in (texts or [])) or "—"


def hand_by_suit(texts: list[str] | None) -> str:
    groups: dict[str, list[str]] = {}
    for c in texts or []:
        groups.setdefault(c[-1].upper(), []).append(c)
    # In the order of the hand's picture (images.base.card_sort_key): ♣ ♦ ♥ ♠.
    lines = [f"{SUIT_SYMBOLS[s]} " + " ".join(card(c)[:-1] for c in groups[s]) for s in SUITS if s in groups]
    return "\n".join(lines) or "(no cards)"


def ping_closed_text(user_id: int, by_them: bool) -> str:
    """What a turn ping says once its decision is made (it stays, so its notification leads here)."""
    return f"<@{user_id}> \u2713 done \u2014 you played." if by_them else f"<@{user_id}> that turn is over."


def plural(count: object, word: str) -> str:
    """``1 card``, ``2 cards``, ``0 wins``: a count and its noun (regular plurals)."""
    return f"{count} {word}" if str(count) in ("1", "-1") else f"{count} {word}s"


def replay_file_name(replay: str, table_id: int, ended: float | None) -> str:
    """A replay file's name, one per game: its game, its table and the day it ended
    (``great-lakes-game-12-2026-12-02.json``)."""
    try:
        preset = str(json.loads(replay).get("preset") or "tripoley")
    except (ValueError, AttributeError):
        preset = "tripoley"
    preset = re.sub(r"[^a-z0-9-]+", "-", preset.lower()).strip("-") or "tripoley"
    day = time.strftime("-%Y-%m-%d", time.gmtime(ended)) if ended else ""
    return f"{preset}-game-{table_id}{day}.json"


def timestamp(epoch: float | None, style: str = "R") -> str:
    return f"<t:{int(epoch)}:{style}>" if epoch else ""


def phase_text(phase: str | None) -> str:
    return PHASE_TEXT.get(phase or "", phase or "")


def name(view: dict, seat: int | None) -> str:
    """A seat's name, escaped for Discord."""
    if seat is None:
        return "?"
    try:
        return escape(view["seats"][seat]["name"])
    except (KeyError, IndexError, TypeError):
        return f"seat {seat}"


# A step every seat asked decides at once (``view["acting"]``: who is still choosing), in words:
# "Waiting for Alice, Bob to choose their five".
TOGETHER_VERBS: dict[str, str] = {
    "poker-choose": "choose their five",
    "wanagan-pass": "pick the cards they pass",
    "wanagan-reveal": "pick their five and a space",
    "corner-cover": "decide whether to cover the corner bet",
}


def choosing_together(view: dict) -> bool:
    """Whether the view's decision is one every seat asked makes at once."""
    return view.get("phase") in TOGETHER_VERBS and bool(view.get("acting"))


def names_of(view: dict, seats: list[int], mentions: dict[int, int] | None = None) -> str:
    """The seats' names (a player's mention where ``mentions`` has their user id), joined by commas."""
    mentions = mentions or {}
    return ", ".join(f"<@{mentions[s]}>" if s in mentions else f"**{name(view, s)}**" for s in seats)


def sealed_words(view: dict, choice: dict) -> str:
    """A seat's own choice in a step decided at once, told to that seat only: what it chose."""
    do = choice.get("do")
    if do == "choose":
        return cards(choice.get("cards"))
    if do == "pass_cards":
        return f"to pass {cards(choice.get('cards'))}"
    if do == "reveal":
        return f"{cards(choice.get('cards'))} for {space_label(view, choice.get('space') or '')}"
    if do == "cover":
        return "to cover the corner bet"
    if do == "decline":
        return "not to cover the corner bet"
    return str(do).replace("_", " ")


def still_choosing(view: dict) -> str:
    """Who has not chosen yet in the step decided at once: "**Alice**, **Bob** to choose their five"."""
    return (
        f"{names_of(view, list(view.get('acting') or []))} to {TOGETHER_VERBS.get(view.get('phase') or '', 'choose')}"
    )


def pinged_user(table, view: dict) -> int | None:
    """The player whose turn the table message names with a mention (shown, not notified: see bot.discordio.turns)."""
    to_act = view.get("to_act")
    if to_act is None or table.deadline_kind != "turn" or to_act >= len(table.seats):
        return None
    seat = table.seats[to_act]
    return seat.user_id if seat.user_id and not seat.auto else None


def lobby_text(table, info) -> str:
    lines = [
        f"## 🃏 {info.name} — table open",
        info.summary or "",
        f"Buy-in **{table.buy_in}** chips · seats {len(table.seats)}/{info.max_players}"
        f" (at least {info.min_players}) · turn timer {int(table.turn_timeout)} s",
    ]
    lines += lobby_rules_lines(table.preset, table.options)
    lines.append("")
    for i, seat in enumerate(table.seats, 1):
        host = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id else f"🤖 {escape(seat.name)}"
        lines.append(f"{i}. {who}{host}")
    lines.append("")
    if table.deadline:
        lines.append(f"Press **Join** to take a seat. The lobby closes {timestamp(table.deadline)} if not started.")
    return "\n".join(line for line in lines if line is not None)


FORCED_NOTE = " (the only card to play)"  # after the log line of a card played for its holder (Table.auto_forced)

# The lines of a round's table message that only hold while the round is played.
LIVE_LINES = ("⏳ ", "🤖 ", "Next round ", "Clearing the board ")
ROUND_OVER = "✅ This round is over."


SHOWDOWN_LINE = "**Showdown:** "


def closed_round_text(content: str, told: bool = False) -> str:
    """An earlier round's table message, closed: its text without whose turn it was (nor when the
    next deal comes), and a line that says the round is over (``told``: its results come with it,
    so the showdown line goes: the results show those hands)."""
    dropped = (*LIVE_LINES, SHOWDOWN_LINE) if told else LIVE_LINES
    lines = [line for line in content.split("\n") if not line.startswith(dropped) and line != ROUND_OVER]
    return "\n".join([*lines, ROUND_OVER])


def cancelled_text(table, info) -> str:
    last = table.log[-1] if table.log else "The table is closed."
    return f"## 🃏 {info.name} — closed\n{last}"


MAX_CONTENT = 2000  # characters in a Discord message
BOARD_LINE = 400  # a board line (showdown, Michigan sequence) shortened to this when the message is too long
SHORT_NAME = 12


def clip(line: str, size: int) -> str:
    return line if len(line) <= size else line[: size - 1] + "…"


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


def has_pay_suit(view: dict) -> bool:
    """Whether the mat's money cards are of one pay suit (Tripoley's hearts; not Great Lakes' three
    named cards, nor Wanagan's mat of hands)."""
    symbol = SUIT_SYMBOLS.get(view.get("pay_suit") or "H", "")
    labels = [sp.get("label", "") for sp in view.get("mat") or () if sp.get("kind") in ("card", "combo")]
    suited = [label for label in labels if any(s in label for s in SUIT_SYMBOLS.values())]
    return bool(labels) and all(label.endswith(symbol) for label in suited)


def mat_text(table, view: dict, told: bool = False) -> str:
    """The public table message (``told``: the round's results come with it, which show its
    showdown: not told twice)."""
    head = [
        f"## 🃏 {escape(view.get('preset_name', table.preset))} — round {view.get('round', 0)}",
        f"Ante {view.get('ante')} · "
        + (f"pay suit {SUIT_SYMBOLS.get(view.get('pay_suit', 'H'), '')} · " if has_pay_suit(view) else "")
        + phase_text(view.get("phase")),
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
                marks.append("removed · AI" if seat.removed else "left · AI")
            elif seat.away:
                marks.append("away · AI")
        arrow = "▶ " if i in (view.get("acting") or [to_act]) else "　"
        extra = f" ({', '.join(marks)})" if marks else ""
        in_poker = str(view.get("phase") or "").startswith("poker")  # once the pot is paid, nothing is in it
        committed = f" · in pot {s['committed']}" if s.get("committed") and in_poker else ""
        seats_out.append(
            (
                f"{arrow}**{escape(s['name'])}** — {plural(s['stack'], 'chip')} · {plural(s.get('cards', 0), 'card')}"
                f"{committed}{extra}",
                f"{arrow}**{escape(clip(s['name'], SHORT_NAME))}** {s['stack']}"
                + (f" ({', '.join(marks)})" if marks else ""),
            )
        )
    board: list[str] = []
    mat = view.get("mat") or []
    if mat:
        board.append("**Mat:** " + " · ".join(f"{sp['label']} {sp['chips']}" for sp in mat))
    poker = view.get("poker") or {}
    if poker.get("showdown") and not told:
        shows = [f"{name(view, h['seat'])}: {cards(h.get('cards'))} ({h.get('hand')})" for h in poker["showdown"]]
        board.append(SHOWDOWN_LINE + " | ".join(shows))
    elif poker.get("last_action"):
        board.append(f"**Poker:** {escape(poker['last_action'])} (bet {poker.get('current_bet', 0)})")
    reveal = latest_reveal(table.game.log[-1]["events"]) if table.game.log else None
    if reveal is not None:
        board.append(reveal_board(reveal, escaped_view(view)))
    mich = view.get("michigan") or {}
    if mich.get("sequence"):
        board.append(f"**Michigan:** {cards(mich['sequence'])}")
    spare = view.get("spare") or {}
    if spare.get("auction"):
        au = spare["auction"]
        bidder = name(view, au["high_bidder"]) if au.get("high_bidder") is not None else "nobody"
        board.append(f"**Auction:** high bid {au['high_bid']} by {bidder}")
    footer: list[str] = []
    if choosing_together(view) and table.deadline_kind in ("turn", "ai"):
        # every seat asked decides at once: who is still choosing, nothing about what was chosen
        players = {i: s.user_id for i, s in enumerate(table.seats) if s.user_id and not s.auto}
        verb = TOGETHER_VERBS[view["phase"]]
        until = f" — time runs out {timestamp(table.deadline)}" if table.deadline_kind == "turn" else ""
        footer.append(f"⏳ Waiting for {names_of(view, list(view['acting']), players)} to {verb}{until}")
    elif to_act is not None and table.deadline_kind in ("turn", "ai", "forced"):
        who = name(view, to_act)
        pinged = pinged_user(table, view)
        mention = f"<@{pinged}>" if pinged else f"**{who}**"
        if table.deadline_kind == "turn":
            footer.append(
                f"⏳ {mention} to act ({phase_text(view.get('phase'))}) — time runs out {timestamp(table.deadline)}"
            )
        elif table.deadline_kind == "forced":  # their only card: played for them in a moment
            footer.append(f"⏳ {mention} to act ({phase_text(view.get('phase'))})")
        else:
            footer.append(f"🤖 {who} is thinking…")
    elif table.deadline_kind == "next-deal":
        if table.game.over:  # the rounds are played: what is left clears the board
            footer.append(f"Clearing the board {timestamp(table.deadline)}.")
        else:
            footer.append(f"Next round {timestamp(table.deadline)}.")
    return fit_mat(head, seats_out, board, [f"› {line}" for line in table.log[-6:]], footer)


def final_text(table) -> str:
    """The results: every player's chips, net and game (pots won, best hand), the game's highlights,
    the last lines of the log. Within Discord's limit at any table size: the log lines go first,
    then each player's pots and best hand (the standings picture shows them too)."""
    result = table.result or {}
    head = [
        f"## 🏁 {escape(result.get('preset_name', table.preset))} — game over after {plural(result.get('rounds', 0), 'round')}"
    ]
    standings, details = [], []
    for i, s in enumerate(result.get("seats", []), 1):
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(i, f"{i}.")
        net = f"+{s['net']}" if s["net"] > 0 else str(s["net"])
        who = f"<@{s['user_id']}>" if s.get("user_id") else f"🤖 {escape(s['name'])}"
        standings.append(f"{medal} {who} — {plural(s['final'], 'chip')} ({net})")
        details.append(f" · {escape(player_result(s))}" if "pots_won" in s else "")
    highlights = highlight_lines(result)
    footer = [
        "Everyone has been cashed out to their wallet. **Rematch** to play again, **Log** for the whole game,"
        " **Replay** for its file, or `/tripoley start` a new game."
    ]
    log = [f"› {line}" for line in table.log[-3:]]

    def compose(with_details: bool) -> str:
        seats = [line + (extra if with_details else "") for line, extra in zip(standings, details)]
        return "\n".join(head + seats + ([""] + highlights if highlights else []) + [""] + log + footer)

    text = compose(True)
    while len(text) > MAX_CONTENT and log:
        log.pop(0)
        text = compose(True)
    return text if len(text) <= MAX_CONTENT else compose(False)


def highlight_lines(result: dict, discord: bool = True) -> list[str]:
    """The game's biggest pot and best hand in words: Discord text (names escaped), or plain
    (``discord=False``: for the standings picture)."""
    highlights = result.get("highlights") or {}
    who, bold = (escape, lambda x: f"**{x}**") if discord else (str, str)
    lines = []
    pot = highlights.get("biggest_pot")
    if pot:
        where = f" from {pot['space']}" if pot.get("space") else ""
        when = f" in round {pot['round']}" if pot.get("round") else ""
        lines.append(f"Biggest pot: {bold(pot['amount'])} chips to {who(pot['name'])}{where}{when}.")
    best = highlights.get("best_hand")
    if best:
        lines.append(f"Best hand: {who(best['name'])}'s {bold(best['hand'])}.")
    worst = highlights.get("worst_hand")  # Great Lakes: the worst hand wins the poker
    if worst:
        lines.append(f"Worst hand (the worst hand wins here): {who(worst['name'])}'s {bold(worst['hand'])}.")
    return [("💰 " if line.startswith("Biggest") else "🃏 ") + line for line in lines] if discord else lines


def player_result(seat: dict) -> str:
    """One player's game beyond their chips: pots won, best hand shown down (plain text)."""
    pots = int(seat.get("pots_won") or 0)
    parts = [f"{pots} pot{'s' if pots != 1 else ''} won"]
    if "worst_hand" in seat:  # where the worst hand wins the poker, that is the hand to name
        if seat["worst_hand"]:
            parts.append(f"worst hand {seat['worst_hand']}")
    elif seat.get("best_hand"):
        parts.append(f"best hand {seat['best_hand']}")
    return ", ".join(parts)


def hand_text(view: dict, seat: int) -> str:
    """The private hand message: cards and what the player may do."""
    lines = [f"**Your hand** (round {view.get('round')}, {plural(len(view.get('hand') or []), 'card')}):"]
    lines.append(hand_by_suit(view.get("hand")))
    poker = view.get("poker") or {}
    if poker.get("chosen"):
        lines.append(f"Your poker five: {cards(poker['chosen'])}")
    me = next((s for s in view.get("seats", []) if s["seat"] == seat), None)
    if me:
        lines.append(f"Stack: {plural(me['stack'], 'chip')}")
    legal = view.get("legal")
    if legal:
        detail = view.get("detail") or {}
        prompt = PROMPTS.get(view.get("phase") or "", "your move")
        lines.append(f"\n**Your turn:** {prompt}.")
        if detail.get("to_call"):
            lines.append(f"To call: {detail['to_call']}.")
        if "min" in detail and "max" in detail and any(a in legal for a in ("bet", "raise", "bid", "suit_bid")):
            lines.append(f"Amount: {detail['min']}–{detail['max']}.")
        if detail.get("best"):
            lines.append(f"Best five: {cards(detail['best'])}")
        if "makes" in detail:  # Wanagan: where a declaration can win (bot.messages.outgoing.wanagan_hint)
            lines.append(wanagan_makes_text(view, detail["makes"]))
        if detail.get("space"):
            lines.append(f"Your claim: {claim_words(view, detail)}")
        if detail.get("warning"):  # Rummoli: advice to a player holding a pay card (only they see it)
            lines.append(f"Careful: {in_words(detail['warning'], view)}.")
    elif view.get("sealed"):
        lines.append(f"\nYou chose {sealed_words(view, view['sealed'])}; waiting for {still_choosing(view)}.")
    elif choosing_together(view):
        lines.append(f"\nWaiting for {still_choosing(view)}.")
    elif view.get("to_act") is not None:
        lines.append(f"\nWaiting for **{name(view, view['to_act'])}** ({phase_text(view.get('phase'))}).")
    return "\n".join(lines)


def wanagan_makes_text(view: dict, makes: list[str]) -> str:
    """The hint under a Wanagan declaration: the open spaces the hand can make, and the order of the menus."""
    if not makes:
        return (
            "Your hand makes none of the open spaces: whatever you declare cannot win. Choose a space, then five cards."
        )
    return f"Your hand can make: {', '.join(space_label(view, sp) for sp in makes)}. Choose the space, then its five cards."


ENGINE_TOKEN = re.compile(r"(?<![\w♣♦♥♠])[\w-]+")
CARD_CODE = re.compile(r"(?:10|[2-9TJQKA])[CDHS]")


def in_words(message: str, view: dict | None = None) -> str:
    """An engine's refusal in players' words: card codes as cards (``AH`` → ``A♥``), space ids as
    their labels (``AH2`` → ``A♥ (2nd)``, with ``view``), verbs and option names as words."""
    spaces = {sp["id"] for sp in (view or {}).get("mat", ())}

    def word(match: re.Match) -> str:
        token = match.group(0)
        if view is not None and token in spaces:
            return space_label(view, token)
        if CARD_CODE.fullmatch(token):
            return card(token)
        return token.replace("_", " ")

    return ENGINE_TOKEN.sub(word, message)


def not_now(verb: str, legal) -> str:
    """The refusal of a move that is not one of the awaited decision's choices, in players' words."""

    def words(v: str) -> str:
        return ACTION_WORDS.get(v, v.replace("_", " "))

    return f"You can't {words(verb)} now. You may: {', '.join(words(v) for v in legal)}."


def you_did(line: str, name: str) -> str:
    """A log line about the player, told to them: "Ann keeps the hand as dealt" → "you keep the hand as dealt"."""
    own = escape(name)
    return second_person("you" + line[len(own) :]) if line.startswith(own + " ") else line


def claim_words(view: dict, detail: dict) -> str:
    """What a claim takes, in words: ``A♥ (both A♥ pockets, 6 chips)``, ``K♥ (4 chips)``."""
    labels = [space_label(view, sp) for sp in detail.get("spaces") or [detail["space"]]]
    chips = f"{detail.get('chips', 0)} chips"
    first = re.sub(r" \(.*\)$", "", labels[0])  # "A♥ (2nd)": the second A♥ pocket
    if len(labels) > 1 and all(re.sub(r" \(.*\)$", "", label) == first for label in labels):
        return f"{first} (both {first} pockets, {chips})"
    return f"{' + '.join(labels)} ({chips})"


def left_server_to_ai(name: str) -> str:
    """The table's line when a player whose time ran out is no longer in the server."""
    return f"{escape(name)} is no longer in this server: an AI plays their seat and they are cashed out at the end."


def timed_out_to_ai(name: str, count: int) -> str:
    """The table's line when a player's seat passes to the AI after ``count`` timeouts in a row."""
    return f"{escape(name)} timed out {count} times in a row: an AI plays until they press **I'm back**."


def ai_takeover_notice(count: int) -> str:
    """What that player is told (by DM, or a ping in the channel)."""
    return (
        f"you ran out of time {count} times in a row, so an AI is playing your seat now."
        " Press **I'm back** on the table message to play again."
    )


# Why a table's place on Discord is gone (bot.discordio.places), in the words its players read.
PLACE_LOST = {
    "channel-deleted": "its channel was deleted",
    "thread-deleted": "its thread was deleted",
    "thread-closed": "its thread was archived or locked",
    "removed": "the bot was removed from the server",
    "no-access": "the bot can no longer post in its channel",
}


def place_lost_line(why: str, lobby: bool) -> str:
    """The table's last log line when it ends because its place is gone (``why``: a key of :data:`PLACE_LOST`)."""
    if lobby:
        return f"The table closed because {PLACE_LOST[why]}; buy-ins are refunded."
    return f"The game ended because {PLACE_LOST[why]}; everyone is cashed out."


def place_lost_notice(preset_name: str, channel_id: int, why: str, lobby: bool) -> str:
    """What the host is told by DM: the table can't tell anyone where it played."""
    chips = "every buy-in is back in its wallet" if lobby else "everyone was cashed out with the chips they had"
    return (
        f"Your **{preset_name}** table in <#{channel_id}> ended because {PLACE_LOST[why]}: {chips}."
        " Start a new one with `/tripoley start`."
    )


def audit_text(audit: dict) -> str:
    """``/tripoley-admin audit``'s answer: where the chips are, and the verdict. Quarantined tables
    (bot.tables.quarantine) are listed apart: their chips returned, or frozen until an operator
    repairs them."""
    held = audit["users"] + audit["house"] + audit["tables"] + audit["frozen"]
    net = audit["granted"] - audit["removed"]
    frozen = f" + frozen {audit['frozen']}" if audit["frozen"] else ""
    lines = [
        "**Chip audit** — chips only enter through grants and leave through removals.",
        f"Players' wallets {audit['users']} + house {audit['house']} + on tables {audit['tables']}{frozen} = **{held}**",
        f"Grants {audit['granted']} − removals {audit['removed']} = **{net}**",
    ]
    quarantined = audit["quarantined"]
    if quarantined:
        lines.append("Quarantined tables (their saved state could not be loaded; they are closed):")
        for q in quarantined:
            held_there = f"**{q['chips']} chips frozen**" if q["chips"] else "chips returned to the players"
            lines.append(f"- table {q['id']} in <#{q['channel_id']}>: {held_there}")
    stuck = [q["id"] for q in quarantined if q["chips"]]
    if not audit["ok"]:
        lines.append("❌ The books don't balance: please report this.")
    elif stuck:
        ids = ", ".join(map(str, stuck))
        lines.append(
            f"⚠️ Every chip is accounted for, but {audit['frozen']} are frozen at quarantined table(s) {ids}: "
            f"the bot's operator returns them with `python -m bot repair TABLE_ID`."
        )
    else:
        lines.append("✅ Every chip is accounted for.")
    return "\n".join(lines)
