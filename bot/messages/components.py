"""Buttons and selects as plain data, built from the table state.

Their ids are written by :mod:`bot.messages.buttonids` (one typed codec for building and reading them);
``bot.discordio.ui`` turns these specs into ``discord.ui`` dynamic items.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import READING, _, in_table_language, ngettext, pgettext
from bot.messages.buttonids import (
    AmountButton,
    CardMenu,
    GameLogButton,
    HouseRuleMenu,
    KickButton,
    LeadButton,
    LobbyButton,
    LogButton,
    MoveButton,
    RematchButton,
    ReplayButton,
    SeatButton,
    SpaceRulesButton,
    SpaceRulesMenu,
    SuitButton,
    VoteButton,
    card_values,
    copy_number,
    encode,
)
from bot.messages.handtext import claim_words
from bot.messages.text import ACTION_LABELS, SUIT_NAMES, card, card_copy
from bot.messages.weblinks import BOARD
from bot.tables.log import claim_is_public, decision_token
from bot.tables.model import Table
from bot.tables.moderation import vote_open, votes_needed
from engine import Awaiting
from engine.cardnames import label_in
from engine.cards import SUIT_SYMBOLS
from engine.language import N_
from engine.phases.names import PhaseName
from engine.viewtypes import GameView

# Verbs that take no argument and may be shown on the public table message.
PUBLIC_VERBS = ("check", "call", "fold", "keep", "swap", "look", "auction", "pass", "claim", "play", "cover", "decline")
AMOUNT_VERBS = ("bet", "raise", "bid", "suit_bid", "corner_bet")

PRIMARY, SECONDARY, SUCCESS, DANGER = "primary", "secondary", "success", "danger"
LINK = "link"  # a button that opens ``url`` (no custom_id: the bot hears nothing of it)


@dataclass(frozen=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: str = SECONDARY
    row: int = 0
    emoji: str | None = None
    url: str | None = None  # a link button's address (style LINK)


def link_button(label: str, url: str, row: int = 0, emoji: str | None = None) -> ButtonSpec:
    return ButtonSpec("", label, LINK, row, emoji, url)


@dataclass(frozen=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]  # (label, value)
    min_values: int = 1
    max_values: int = 1
    row: int = 0
    defaults: tuple[str, ...] = field(default=())
    descriptions: tuple[str, ...] = field(default=())  # one per option, or none


Component = ButtonSpec | SelectSpec


def verb_style(verb: str) -> str:
    if verb in ("fold",):
        return DANGER
    if verb in ("call", "check", "claim", "keep"):
        return SUCCESS
    if verb in AMOUNT_VERBS:
        return PRIMARY
    return SECONDARY


@in_table_language
def lobby_components(table: Table) -> list[Component]:
    """The lobby's buttons (and the host's house-rule menu), in the table's language."""
    comps: list[Component] = [
        ButtonSpec(encode(LobbyButton(table.id, "join")), pgettext("button", "Join"), SUCCESS),
        ButtonSpec(encode(LobbyButton(table.id, "leave")), pgettext("button", "Leave"), SECONDARY),
        ButtonSpec(encode(LobbyButton(table.id, "ai")), pgettext("button", "Add AI"), SECONDARY),
        ButtonSpec(encode(LobbyButton(table.id, "start")), pgettext("button", "Start"), PRIMARY),
        # the AI's level: "Add AI" above is Normal
        ButtonSpec(encode(LobbyButton(table.id, "ai", "easy")), pgettext("button", "Add Easy AI"), SECONDARY, row=1),
        ButtonSpec(encode(LobbyButton(table.id, "ai", "hard")), pgettext("button", "Add Hard AI"), SECONDARY, row=1),
    ]
    house = house_rule_select(table)
    if house is not None:
        comps.append(house)
    return comps


def house_rule_select(table: Table) -> SelectSpec | None:
    """The host's menu of house rules: every value the table does not play yet, explained."""
    from engine.rulebook import OPTION_TEXT, house_rules, value_label, value_text

    options = table.preset_info.options.with_overrides(table.options)
    language = READING.get().value
    choices = [
        (
            _("{rule}: {value}").format(rule=_(OPTION_TEXT[name].title), value=value_label(name, value, language))[
                :100
            ],
            f"{name}={str(value).lower()}",
            _clip(value_text(name, value, language), 100),
        )
        for name, values in house_rules(table.preset).items()
        for value in values
        if value != getattr(options, name)
    ][:25]
    if not choices:
        return None
    return SelectSpec(
        encode(HouseRuleMenu(table.id)),
        _("House rules (host): switch one…"),
        tuple((label, value) for label, value, _ in choices),
        row=2,
        descriptions=tuple(text for _, _, text in choices),
    )


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@in_table_language
def final_components(table: Table) -> list[Component]:
    """Under a finished game's results: Rematch (the table id names the game to play again), the
    whole game's Log and its Replay file (both read from the saved game, so they outlive a restart)."""
    links = BOARD.links
    web = (
        [link_button(pgettext("button", "Replay on the web"), links.replay_url(table.id), 0, "▶️")]
        if links is not None
        else []
    )
    return [
        ButtonSpec(encode(RematchButton(table.id)), pgettext("button", "Rematch"), SUCCESS, 0, "🔁"),
        *game_buttons(table.id),
        *web,
    ]


def game_buttons(table_id: int, number: int | None = None, row: int = 0) -> list[ButtonSpec]:
    """Log and Replay of a finished game (``number``: its place in a list, "Log 3")."""
    if number is None:
        log_label, replay_label = pgettext("button", "Log"), pgettext("button", "Replay")
    else:
        log_label = pgettext("button", "Log {number}").format(number=number)
        replay_label = pgettext("button", "Replay {number}").format(number=number)
    return [
        ButtonSpec(encode(GameLogButton(table_id)), log_label, SECONDARY, row, "📜" if number is None else None),
        ButtonSpec(encode(ReplayButton(table_id)), replay_label, SECONDARY, row, "💾" if number is None else None),
    ]


def kick_confirmation(table_id: int, user_id: int, name: str) -> list[Component]:
    """The host's one button to confirm an AI takes a player's seat mid-game."""
    return [
        ButtonSpec(
            encode(KickButton(table_id, user_id)), _("Yes: an AI plays {name}'s seat").format(name=name)[:80], DANGER
        )
    ]


def space_rules_select(table: Table) -> SelectSpec:
    """The mat's spaces (at most 25), each with the start of its rule; picking one answers its whole rule."""
    from bot.messages.rules import space_rules

    rules = space_rules(table.running_game)[:25]
    return SelectSpec(
        encode(SpaceRulesMenu(table.id, table.round)),
        _("What does this space pay?"),
        tuple((label[:100], space) for space, label, _ in rules),
        descriptions=tuple(_clip(text, 100) for _, _, text in rules),
    )


def _verb_label(
    verb: str, detail: Mapping[str, Any], name_space: bool = True, public: bool = False, view: GameView | None = None
) -> str:
    """``public``: the label is on the shared table message, so it must not name a card still in a hand;
    ``view``: for the names of the spaces a claim pays."""
    if verb == "play" and detail.get("card") and not public:
        return pgettext("button", "Play {card}").format(card=card(detail["card"]))
    if verb == "cover" and detail.get("amount"):
        return pgettext("button", "Cover {amount} on {card}").format(
            amount=detail["amount"], card=card(detail.get("ace", ""))
        )
    if verb == "claim" and detail.get("space") and name_space and view is not None:
        return pgettext("button", "Claim {claim}").format(claim=claim_words(view, detail))[:80]
    return action_label(verb)


def action_label(verb: str) -> str:
    """A decision's button label (:data:`ACTION_LABELS`) in the language being read."""
    label = ACTION_LABELS.get(verb)
    return _(label) if label else verb.replace("_", " ").title()


def _verb_buttons(
    table_id: int,
    r: int,
    legal: list[str],
    verbs: Sequence[str] | frozenset[str],
    row: int,
    detail: Mapping[str, Any] | None = None,
    token: str | None = None,
    name_space: bool = True,
    public: bool = False,
    view: GameView | None = None,
) -> list[ButtonSpec]:
    """``token``: the claim being decided (see :func:`bot.tables.log.decision_token`); Claim!/Pass carry it."""
    detail = detail or {}
    out = []
    for verb in legal:
        if verb == "corner_bet":
            for ace in detail.get("aces", []):
                out.append(
                    ButtonSpec(
                        encode(AmountButton(table_id, r, "corner_bet", ace)),
                        pgettext("button", "Bet on {card}…").format(card=card(ace)),
                        PRIMARY,
                        row,
                    )
                )
        elif verb in AMOUNT_VERBS:
            label = _(ACTION_LABELS[verb]) if verb in ACTION_LABELS else verb
            out.append(ButtonSpec(encode(AmountButton(table_id, r, verb)), label, PRIMARY, row))
        elif verb in verbs:
            claim_token = token if verb in ("claim", "pass") else None
            out.append(
                ButtonSpec(
                    encode(MoveButton(table_id, r, verb, claim_token)),
                    _verb_label(verb, detail, name_space, public, view),
                    verb_style(verb),
                    row,
                )
            )
    return out[:5]


def _claim_token(table: Table, aw: Awaiting | None) -> str | None:
    return decision_token(table.running_game) if aw is not None and aw.phase == PhaseName.CLAIM else None


@in_table_language
def mat_components(table: Table) -> list[Component]:
    """Public buttons: Show my hand, I'm back, and the no-secret actions of the seat to act (in the
    table's language)."""
    r = table.round
    comps: list[Component] = [
        ButtonSpec(encode(SeatButton(table.id, r, "hand")), pgettext("button", "Show my hand"), PRIMARY, 0, "🃏"),
        ButtonSpec(encode(LogButton(table.id, r)), pgettext("button", "Log"), SECONDARY, 0, "📜"),
        ButtonSpec(encode(SpaceRulesButton(table.id, r)), pgettext("button", "What pays?"), SECONDARY, 0, "❔"),
    ]
    if any(s.away for s in table.seats):
        comps.append(ButtonSpec(encode(SeatButton(table.id, r, "back")), pgettext("button", "I'm back"), SUCCESS, 0))
    if BOARD.links is not None:  # the table on the web, hands hidden (bot/web)
        comps.append(link_button(pgettext("button", "Watch"), BOARD.links.watch_url(table.id), 0, "👀"))
    comps.extend(vote_buttons(table))
    aw = table.awaiting()
    if aw is not None and not table.seats[aw.seat].auto:
        # A claim right after the deal is for a card still in the hand: don't name it in public.
        game = table.running_game
        name_space = aw.phase == PhaseName.CLAIM and claim_is_public(game)
        comps.extend(
            _verb_buttons(
                table.id,
                r,
                aw.legal,
                PUBLIC_VERBS,
                1,
                aw.detail,
                _claim_token(table, aw),
                name_space=name_space,
                public=True,
                view=game.view(None) if name_space else None,
            )
        )
        if "name_suit" in aw.legal:
            for s in (aw.detail or {}).get("suits", "CDHS"):
                comps.append(ButtonSpec(encode(SuitButton(table.id, r, s)), suit_label(s), SECONDARY, 2))
    return comps


def vote_buttons(table: Table) -> list[ButtonSpec]:
    """ "Vote: AI for <name> (votes/needed)" for each player who missed their last turn (at most 5, a row)."""
    out: list[ButtonSpec] = []
    for i, seat in enumerate(table.seats):
        if vote_open(seat) and len(out) < 5:
            votes, needed = len(seat.votes), votes_needed(table, i)
            sentence = pgettext("button", "Vote: AI for {name} ({votes}/{needed})")
            room = 80 - len(sentence.format(name="", votes=votes, needed=needed))
            label = sentence.format(name=_clip(seat.name, room), votes=votes, needed=needed)
            out.append(ButtonSpec(encode(VoteButton(table.id, table.round, i)), label, DANGER, 3))
    return out


WANAGAN_MAKES = N_("Your hand makes it")
WANAGAN_MISSES = N_("Not in your hand")

MAX_OPTIONS = 25  # Discord's limit of a select's options (no hand the bot deals holds more cards)


def card_pool(view: GameView) -> list[str]:
    """The cards a hand view's card menus offer: the awaited decision's own (Rulebook poker picks
    from the whole dealt hand), else the hand. The controller reads a menu's choices against it."""
    return list(view.get("detail", {}).get("cards") or view["hand"] or [])


def card_options(pool: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(label, value) of every physical card of ``pool``: its own value (:func:`card_values`), and a
    label that says which copy it is when the hand holds the card more than once."""
    counts = Counter(pool)
    return tuple(
        (card_copy(code, copy_number(value), counts[code]), value)
        for code, value in zip(pool, card_values(pool), strict=True)
    )


def _card_select(
    menu: CardMenu, placeholder: str, pool: list[str], count: int, row: int, picked: Sequence[str] = ()
) -> SelectSpec:
    """A menu of ``count`` cards of ``pool``; ``picked`` (cards, e.g. the suggested best five) are
    preselected, each as a copy of its own."""
    options = card_options(pool)[:MAX_OPTIONS]
    n = min(count, len(options))
    offered = {value for _, value in options}
    defaults = tuple(value for value in card_values(picked) if value in offered)
    return SelectSpec(encode(menu), placeholder, options, n, n, row, defaults if len(defaults) <= n else ())


def _distinct(items: Sequence[list[str]]) -> list[list[str]]:
    """Card combinations without repeats (two decks can make the same combination twice: one move)."""
    return [list(combo) for combo in dict.fromkeys(tuple(c) for c in items)]


def hand_components(table: Table, seat: int, view: GameView, choice: str | None = None) -> list[Component]:
    """The private controls under "Show my hand", built from ``legal`` and ``detail``.

    ``choice`` is a pending sub-choice (the Wanagan space to declare)."""
    legal = view.get("legal", [])  # NotRequired: only while the viewer may act, like detail
    detail = view.get("detail", {})
    r = table.round
    tid = table.id
    comps: list[Component] = []
    if not legal:
        return comps
    hand = card_pool(view)
    if "choose" in legal:
        best = detail.get("best") or ()  # preselected: submitting the menu as shown plays the suggestion
        comps.append(
            _card_select(CardMenu(tid, r, "choose"), _("Pick the five cards of your poker hand"), hand, 5, 0, best)
        )
        comps.append(ButtonSpec(encode(SeatButton(tid, r, "best")), pgettext("button", "Best five"), SUCCESS, 1))
    if "pass_cards" in legal:
        n = int(detail.get("count", 3))
        comps.append(
            _card_select(CardMenu(tid, r, "pass_cards"), pass_placeholder(n, detail.get("direction")), hand, n, 0)
        )
    if "reveal" in legal:
        # No space is chosen for the player: the five cards are picked once a space is (picking
        # them first would declare whatever the menu started on).
        spaces = list(detail.get("spaces") or [])[:25]
        space = choice if choice is not None and choice in spaces else None
        labels = {sp["id"]: label_in(sp["label"], READING.get()) for sp in view["mat"]}
        makes = set(detail.get("makes") or ())
        comps.append(
            SelectSpec(
                encode(CardMenu(tid, r, "space")),
                _("Choose the space to declare first"),
                tuple((labels.get(sp, sp), sp) for sp in list(dict.fromkeys(spaces))[:MAX_OPTIONS]),
                1,
                1,
                0,
                (space,) if space else (),
                tuple(_(WANAGAN_MAKES) if sp in makes else _(WANAGAN_MISSES) for sp in spaces)
                if "makes" in detail
                else (),
            )
        )
        if space is not None:
            comps.append(
                _card_select(
                    CardMenu(tid, r, "reveal", space),
                    _("Pick five cards for {space}").format(space=labels.get(space, space)),
                    hand,
                    5,
                    1,
                )
            )
    for combo, title in (("full_house", _("Place a full house")), ("straight", _("Place a 5-card straight"))):
        if combo in legal and detail.get(combo):
            options = tuple(
                (" ".join(card(c) for c in cards)[:100], "-".join(cards))
                for cards in _distinct(detail[combo])[:MAX_OPTIONS]
            )
            comps.append(
                SelectSpec(encode(CardMenu(tid, r, combo)), title, options, 1, 1, 0 if combo == "full_house" else 1)
            )
    if "lead" in legal:
        lead_cards = list(dict.fromkeys(detail.get("cards") or []))  # a copy of a card leads as the card
        if 0 < len(lead_cards) <= 5:
            for c in lead_cards:
                comps.append(
                    ButtonSpec(
                        encode(LeadButton(tid, r, c)),
                        pgettext("button", "Lead {card}").format(card=card(c)),
                        PRIMARY,
                        1,
                    )
                )
        elif lead_cards:
            comps.append(
                SelectSpec(
                    encode(CardMenu(tid, r, "lead")),
                    _("Choose the card to lead"),
                    tuple((card(c), c) for c in lead_cards[:MAX_OPTIONS]),
                    row=0,
                )
            )
    if "name_suit" in legal:
        for s in detail.get("suits", "CDHS"):
            comps.append(ButtonSpec(encode(SuitButton(tid, r, s)), suit_label(s), SECONDARY, 2))
    comps.extend(
        _verb_buttons(tid, r, legal, PUBLIC_VERBS, 3, detail, _claim_token(table, table.awaiting()), view=view)
    )
    return comps


def log_components(table_id: int, round_number: int | None, page: int, pages: int) -> list[Component]:
    """◀ / ▶ under a page of the round's log, or (``round_number`` None) of a finished game's whole
    log (the page they open is in the custom_id)."""
    if pages <= 1:
        return []
    older, newer = max(page - 1, 0), min(page + 1, pages - 1)
    buttons: tuple[GameLogButton, GameLogButton] | tuple[LogButton, LogButton]
    if round_number is None:
        buttons = (GameLogButton(table_id, older), GameLogButton(table_id, newer, newer=True))
    else:
        buttons = (LogButton(table_id, round_number, older), LogButton(table_id, round_number, newer, newer=True))
    return [
        ButtonSpec(encode(buttons[0]), pgettext("button", "◀ Older"), SECONDARY, 0),
        ButtonSpec(encode(buttons[1]), pgettext("button", "Newer ▶"), SECONDARY, 0),
    ]


def suit_label(suit: str) -> str:
    """A Name-suit button's label: ``♥ Hearts``, in the language being read."""
    return _("{symbol} {suit}").format(symbol=SUIT_SYMBOLS[suit], suit=_(SUIT_NAMES[suit]))


def pass_placeholder(count: int, direction: str | None) -> str:
    """The menu of cards to pass: ``Pick 3 cards to pass left`` (``direction``: the engine's, left or
    right; none: on)."""
    sentences = {
        "left": ngettext("Pick {count} card to pass left", "Pick {count} cards to pass left", count),
        "right": ngettext("Pick {count} card to pass right", "Pick {count} cards to pass right", count),
    }
    fallback = ngettext("Pick {count} card to pass on", "Pick {count} cards to pass on", count)
    return sentences.get(direction or "on", fallback).format(count=count)
