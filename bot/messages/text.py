"""The bot's vocabulary for Discord text: names escaped, cards, phases and verbs, who is choosing.

The messages built from it live by subject: the table message (:mod:`bot.messages.tabletext`), a
player's hand (:mod:`bot.messages.handtext`), notices about a table's life
(:mod:`bot.messages.notices`), refusals (:mod:`bot.messages.refusals`).
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.i18n import READING, _, ngettext
from engine.cardnames import card_names
from engine.cards import RANKS, SUIT_SYMBOLS, SUITS
from engine.language import N_
from engine.phases.names import PHASE_TEXTS
from engine.reasons import Worded
from engine.reasontext import players_names
from engine.textview import space_label
from engine.viewtypes import GameView

SUIT_NAMES = {"C": N_("Clubs"), "D": N_("Diamonds"), "H": N_("Hearts"), "S": N_("Spades")}

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

# Where the table stands, in each phase (the engine's one table of phase words; in the catalogs through
# scripts/data_texts.py, looked up in phase_text).
PHASE_TEXT: dict[str, str] = {name: text.status for name, text in PHASE_TEXTS.items()}

ACTION_LABELS = {
    "check": N_("Check"),
    "call": N_("Call"),
    "fold": N_("Fold"),
    "bet": N_("Bet…"),
    "raise": N_("Raise…"),
    "keep": N_("Keep my hand"),
    "swap": N_("Swap blind"),
    "look": N_("Look at the widow"),
    "auction": N_("Auction the spare"),
    "bid": N_("Bid…"),
    "suit_bid": N_("Bid…"),
    "pass": N_("Pass"),
    "claim": N_("Claim!"),
    "choose": N_("Choose five"),
    "lead": N_("Lead"),
    "name_suit": N_("Name suit"),
    "corner_bet": N_("Corner bet…"),
    "cover": N_("Cover"),
    "decline": N_("Decline"),
    "play": N_("Play"),
}

# Each verb in players' words, for sentences ("You may: check, bet, fold").
ACTION_WORDS = {
    "keep": N_("keep your hand"),
    "swap": N_("swap blind"),
    "look": N_("look at the widow"),
    "auction": N_("auction the spare hand"),
    "suit_bid": N_("bid for the pay suit"),
    "choose": N_("choose your poker five"),
    "name_suit": N_("name the pay suit"),
    "corner_bet": N_("bet on a corner Ace"),
    "cover": N_("cover the corner bet"),
    "pass_cards": N_("pass cards"),
    "reveal": N_("pick five cards and a space"),
    "full_house": N_("place a full house"),
    "straight": N_("place a 5-card straight"),
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


def escaped_view(view: GameView) -> GameView:
    """The view with every seat's name escaped for Discord (the table's log is Discord text)."""
    escaped = view.copy()
    escaped["seats"] = [{**s, "name": escape(s["name"])} for s in view["seats"]]
    return escaped


def card(text: str) -> str:
    """``TH`` → ``10♥``; ``KH`` → ``K♥`` in English, ``R♥`` in French (engine/cardnames.py)."""
    if not text or len(text) < 2:
        return str(text)
    rank, suit = text[:-1].upper(), text[-1].upper()
    rank = "T" if rank == "10" else rank
    written = card_names(READING.get().value).ranks[RANKS.index(rank)] if len(rank) == 1 and rank in RANKS else rank
    return f"{written}{SUIT_SYMBOLS.get(suit, suit)}"


def suit_name(suit: str) -> str:
    """A suit's name (``H`` → "Hearts") in the language being read."""
    return _(SUIT_NAMES[suit])


def card_copy(text: str, copy: int, copies: int) -> str:
    """A card menu's label: ``Q♥``, or with several copies in the hand which one it is,
    ``Q♥ (copy 2 of 2)`` (each copy is an option of its own)."""
    if copies <= 1:
        return card(text)
    return _("{card} (copy {copy} of {copies})").format(card=card(text), copy=copy, copies=copies)


def cards(texts: list[str] | None) -> str:
    return " ".join(card(c) for c in (texts or [])) or "—"


def hand_by_suit(texts: list[str] | None) -> str:
    groups: dict[str, list[str]] = {}
    for c in texts or []:
        groups.setdefault(c[-1].upper(), []).append(c)
    # In the order of the hand's picture (images.base.card_sort_key): ♣ ♦ ♥ ♠.
    lines = [f"{SUIT_SYMBOLS[s]} " + " ".join(card(c)[:-1] for c in groups[s]) for s in SUITS if s in groups]
    return "\n".join(lines) or _("(no cards)")


def ping_closed_text(user_id: int, by_them: bool) -> str:
    """What a turn ping says once its decision is made (it stays, so its notification leads here)."""
    if by_them:
        return _("<@{user_id}> \u2713 done \u2014 you played.").format(user_id=user_id)
    return _("<@{user_id}> that turn is over.").format(user_id=user_id)


# A count of things (a chip, a card), in the language's plural forms (of the count's size: ``-1 chip``).
COUNTED: dict[str, Callable[[int], str]] = {
    "chip": lambda n: ngettext("{count} chip", "{count} chips", n),
    "card": lambda n: ngettext("{count} card", "{count} cards", n),
    "game": lambda n: ngettext("{count} game", "{count} games", n),
    "wallet": lambda n: ngettext("{count} wallet", "{count} wallets", n),
}


def counted(count: int, thing: str) -> str:
    """``1 card``, ``2 cards``, ``-1 chip``: a count of a thing of :data:`COUNTED`."""
    return COUNTED[thing](abs(count)).format(count=count)


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
    """Where the table stands in ``phase``, in the language being read."""
    status = PHASE_TEXT.get(phase or "")
    return _(status) if status else phase or ""


def prompt(phase: str) -> str:
    """What the seat to act is asked in ``phase`` (:data:`PROMPTS`), in the language being read."""
    return _(PROMPTS[phase])


def name(view: Mapping[str, Any], seat: int | None) -> str:
    """A seat's name, escaped for Discord."""
    if seat is None:
        return "?"
    try:
        return escape(view["seats"][seat]["name"])
    except (KeyError, IndexError, TypeError):
        return _("seat {seat}").format(seat=seat)


# A step every seat asked decides at once (``view["acting"]``: who is still choosing), by phase:
# who is still choosing, as a sentence, and on the table message (without and with its timer).
WAITING_TOGETHER: dict[str, str] = {
    "poker-choose": N_("Waiting for {names} to choose their five."),
    "wanagan-pass": N_("Waiting for {names} to pick the cards they pass."),
    "wanagan-reveal": N_("Waiting for {names} to pick their five and a space."),
    "corner-cover": N_("Waiting for {names} to decide whether to cover the corner bet."),
}
WAITING_ON_MAT: dict[str, str] = {
    "poker-choose": N_("⏳ Waiting for {names} to choose their five"),
    "wanagan-pass": N_("⏳ Waiting for {names} to pick the cards they pass"),
    "wanagan-reveal": N_("⏳ Waiting for {names} to pick their five and a space"),
    "corner-cover": N_("⏳ Waiting for {names} to decide whether to cover the corner bet"),
}
WAITING_ON_MAT_UNTIL: dict[str, str] = {
    "poker-choose": N_("⏳ Waiting for {names} to choose their five — time runs out {time}"),
    "wanagan-pass": N_("⏳ Waiting for {names} to pick the cards they pass — time runs out {time}"),
    "wanagan-reveal": N_("⏳ Waiting for {names} to pick their five and a space — time runs out {time}"),
    "corner-cover": N_("⏳ Waiting for {names} to decide whether to cover the corner bet — time runs out {time}"),
}
# A seat's own choice in that step, told to that seat only, and who it waits for (by its ``do``,
# then the phase): "You chose to pass 3♠ K♥ 2♣; waiting for **Bob** to pick the cards they pass."
YOU_CHOSE: dict[str, str] = {
    "choose": N_("You chose {cards}"),
    "pass_cards": N_("You chose to pass {cards}"),
    "reveal": N_("You chose {cards} for {space}"),
    "cover": N_("You chose to cover the corner bet"),
    "decline": N_("You chose not to cover the corner bet"),
}
STILL_WAITING: dict[str, str] = {
    "poker-choose": N_("{chosen}; waiting for {names} to choose their five."),
    "wanagan-pass": N_("{chosen}; waiting for {names} to pick the cards they pass."),
    "wanagan-reveal": N_("{chosen}; waiting for {names} to pick their five and a space."),
    "corner-cover": N_("{chosen}; waiting for {names} to decide whether to cover the corner bet."),
}


def choosing_together(view: GameView) -> bool:
    """Whether the view's decision is one every seat asked makes at once."""
    return view["phase"] in WAITING_TOGETHER and bool(view["acting"])


def names_of(view: GameView, seats: list[int], mentions: dict[int, int] | None = None) -> str:
    """The seats' names (a player's mention where ``mentions`` has their user id), joined by commas."""
    mentions = mentions or {}
    return ", ".join(f"<@{mentions[s]}>" if s in mentions else f"**{name(view, s)}**" for s in seats)


def waiting_together(view: GameView) -> str:
    """Who has not chosen yet in the step decided at once: "Waiting for **Alice**, **Bob** to choose their five."."""
    return _(WAITING_TOGETHER[view["phase"]]).format(names=names_of(view, view["acting"]))


def chosen_and_waiting(view: GameView) -> str:
    """The seat's own choice in the step decided at once (``view["sealed"]``), and who is still choosing."""
    choice = view["sealed"]
    assert choice is not None  # asked of a seat whose choice is held (the hand view, its refusal)
    chosen = _(YOU_CHOSE[str(choice["do"])]).format(
        cards=cards(choice.get("cards")), space=space_label(view, choice.get("space") or "")
    )
    return _(STILL_WAITING[view["phase"]]).format(chosen=chosen, names=names_of(view, view["acting"]))


# The lines of a round's table message that only hold while the round is played: their marks, and
# the sentences that start them (read up to their first placeholder).
LIVE_MARKS = ("⏳ ", "🤖 ")
NEXT_ROUND = N_("Next round {time}.")
CLEARING_THE_BOARD = N_("Clearing the board {time}.")
ROUND_OVER = N_("✅ This round is over.")


SHOWDOWN_LINE = N_("**Showdown:** {hands}")


def line_start(sentence: str) -> str:
    """How a line made of ``sentence`` (N_-marked) starts, in the language being read: up to its first placeholder."""
    return _(sentence).split("{", 1)[0]


def closed_round_text(content: str, told: bool = False) -> str:
    """An earlier round's table message, closed: its text without whose turn it was (nor when the
    next deal comes), and a line that says the round is over (``told``: its results come with it,
    so the showdown line goes: the results show those hands)."""
    starts = (NEXT_ROUND, CLEARING_THE_BOARD, SHOWDOWN_LINE) if told else (NEXT_ROUND, CLEARING_THE_BOARD)
    dropped = (*LIVE_MARKS, *(line_start(s) for s in starts if line_start(s)))
    over = _(ROUND_OVER)
    lines = [line for line in content.split("\n") if not line.startswith(dropped) and line != over]
    return "\n".join([*lines, over])


MAX_CONTENT = 2000  # characters in a Discord message


def clip(line: str, size: int) -> str:
    return line if len(line) <= size else line[: size - 1] + "…"


ENGINE_TOKEN = re.compile(r"(?<![\w♣♦♥♠])[\w-]+")
CARD_CODE = re.compile(r"(?:10|[2-9TJQKA])[CDHS]")


def in_words(message: str, view: GameView | None = None) -> str:
    """An engine's refusal in players' words: card codes as cards (``AH`` → ``A♥``), space ids as
    their labels (``AH2`` → ``A♥ (2nd)``, with ``view``), verbs and option names as words."""
    spaces = {sp["id"] for sp in view["mat"]} if view is not None else set()

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if view is not None and token in spaces:
            return space_label(view, token)
        if CARD_CODE.fullmatch(token):
            return card(token)
        return token.replace("_", " ")

    return ENGINE_TOKEN.sub(word, message)


def reason_words(reason: str | ValueError, view: GameView | None = None) -> str:
    """An engine's refusal (its exception: ``IllegalAction``, a bad option; or its English text) in the
    reader's words: in English its message as :func:`in_words` puts it; in another language its reason
    (engine/reasons.py) worded in that language, cards in its names and spaces by their labels."""
    language = READING.get().value
    if not isinstance(reason, Worded) or language == "en":
        return in_words(str(reason), view)
    labels = {sp["id"]: space_label(view, sp["id"]) for sp in view["mat"]} if view is not None else {}
    return reason.in_language(language, players_names(labels))


# A move refused because the awaited decision does not offer it, a whole sentence for each.
CANT_NOW = {
    "check": N_("You can't check now."),
    "call": N_("You can't call now."),
    "fold": N_("You can't fold now."),
    "bet": N_("You can't bet now."),
    "raise": N_("You can't raise now."),
    "keep": N_("You can't keep your hand now."),
    "swap": N_("You can't swap blind now."),
    "look": N_("You can't look at the widow now."),
    "auction": N_("You can't auction the spare hand now."),
    "bid": N_("You can't bid now."),
    "suit_bid": N_("You can't bid for the pay suit now."),
    "pass": N_("You can't pass now."),
    "claim": N_("You can't claim now."),
    "choose": N_("You can't choose your poker five now."),
    "lead": N_("You can't lead now."),
    "name_suit": N_("You can't name the pay suit now."),
    "corner_bet": N_("You can't bet on a corner Ace now."),
    "cover": N_("You can't cover the corner bet now."),
    "decline": N_("You can't decline now."),
    "play": N_("You can't play now."),
    "pass_cards": N_("You can't pass cards now."),
    "reveal": N_("You can't pick five cards and a space now."),
    "full_house": N_("You can't place a full house now."),
    "straight": N_("You can't place a 5-card straight now."),
}
CANT_DO_THAT_NOW = N_("You can't do that now.")  # a move of no known kind
YOU_MAY = N_("You may: {moves}.")  # ``{moves}``: the decision's choices in words (ACTION_WORDS), by commas


def not_now(verb: str, legal: Iterable[str]) -> str:
    """The refusal of a move that is not one of the awaited decision's choices, and those choices."""
    moves = ", ".join(_(ACTION_WORDS[v]) if v in ACTION_WORDS else v.replace("_", " ") for v in legal)
    return _("{refusal} {choices}").format(
        refusal=_(CANT_NOW.get(verb, CANT_DO_THAT_NOW)), choices=_(YOU_MAY).format(moves=moves)
    )
