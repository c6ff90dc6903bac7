"""Mats and presets as data (docs/rules.md).

A mat is a list of spaces; each space names the trigger that pays it. A
preset is a mat, a round order and a set of options. Adding a variant means
adding a ``Preset`` here (and at most a new trigger in the round loop).

Space ids are stable: a card space is the card (``10H``, ``AS``; ``*`` in a
card means "the pay suit": hearts, unless the players bid to name another, and
still shown as the hearts card id), other spaces are lowercase words
(``kitty``, ``pot``, ``k-q``, ``8-9-10``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .cards import SUIT_SYMBOLS
from .options import Options

# Triggers
CARD = "card"  # holding (deal) / placing (play) the card
COMBO = "combo"  # holding all cards (deal) / placing them in a row (play)
RUN = "run"  # three ranks in a row of one suit, any suit
POKER = "poker"  # the poker pot
MICHIGAN = "michigan"  # won by the player who goes out (kitty / center)
CORNER = "corner"  # Rummy Royal: a corner Ace bet, taken by its holder if they backed it
LEAD = "lead"  # Great Lakes "6 Lead": the first sequence started with a card of rank ``ranks[0]``
ACE_TWO = "ace-two"  # Great Lakes "A-2": an Ace placed, then a 2 of the other colour led by the same player
FULL_HOUSE_PLAY = "full-house-play"  # Great Lakes: four cards making a full house with the last card placed
STRAIGHT_PLAY = "straight-play"  # Great Lakes: the next card + three more making a five-card straight
LOSERS = "losers"  # the poker space won by the WORST hand (Great Lakes "Losers Kitty")
HAND = "hand"  # Wanagan: a revealed five-card hand containing ``hand`` (a combination name)


@dataclass(frozen=True)
class Space:
    id: str
    label: str
    trigger: str
    cards: tuple[str, ...] = ()  # CARD/COMBO: card texts in placing order; "*" = pay suit
    ranks: tuple[int, ...] = ()  # RUN: rank indexes (0 = deuce)
    ante: int = 1  # ante multiplier for this space
    hand: str = ""  # HAND: one-pair, two-pair, three-kind, four-kind, full-house, straight, flush, evens-odds

    @property
    def follows_pay_suit(self) -> bool:
        """Whether the space's cards are of the pay suit (``*``) rather than printed."""
        return any(PAY_SUIT in text for text in self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "kind": self.trigger}


PAY_SUIT = "*"  # in a space's cards: the pay suit of the round
UNNAMED_PAY_SUIT = "H"  # the pay suit when nobody names one (no suit bid, or nobody bids)
SUIT_BID = "suit-bid"  # the round step where the players may bid to name the pay suit


# Round orders: names of the steps the round loop runs in turn.
CADACO_ORDER = ("ante", "deal", "spare", SUIT_BID, "paycards", "poker", "michigan", "settle")
RULEBOOK_ORDER = ("ante", "deal", "spare", "paycards", "michigan", "to-poker", "poker", "settle")


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    spaces: tuple[Space, ...]
    options: Options
    order: tuple[str, ...] = CADACO_ORDER
    min_players: int = 2
    max_players: int = 9
    summary: str = ""
    rulebook_setup: bool = False  # cut for the first dealer; 1-4 decks by player count (Rulebook)


def _pay_suit_spaces() -> tuple[Space, ...]:
    """Cadaco's five pay cards and K-Q, of the pay suit: printed in hearts, and of the named suit
    when the players bid for it (``optional_suit``). The label names no suit until one is fixed."""
    return (
        Space("10H", "10", CARD, ("T*",)),
        Space("JH", "J", CARD, ("J*",)),
        Space("QH", "Q", CARD, ("Q*",)),
        Space("KH", "K", CARD, ("K*",)),
        Space("AH", "A", CARD, ("A*",)),
        Space("k-q", "K-Q", COMBO, ("Q*", "K*")),
    )


def _run_space(ranks: str) -> Space:
    idx = tuple("23456789TJQKA".index("T" if r == "10" else r) for r in ranks.split("-"))
    return Space(ranks, ranks, RUN, ranks=idx)


KITTY = Space("kitty", "Kitty", MICHIGAN)
POT = Space("pot", "Pot", POKER)

TRIPOLEY_SPACES = _pay_suit_spaces() + (_run_space("8-9-10"), KITTY, POT)

TRIPOLEY_OPTIONS = Options(
    ante="flat:1",
    spare_hand="none",  # Cadaco: "an extra or dead hand, which is not used"
    paycards="deal",
    poker_first_bettor="dealer",
    michigan_leader="dealer",
    first_lead="lowest-card",
    after_stop="lowest-other-suit",
    cannot_lead="pass",
    all_stuck="pay-per-card-to-kitty",
    out_payment="per-card-to-winner",
    endgame="poker-showdown",
)

PRESETS: dict[str, Preset] = {}


def _add(preset: Preset) -> None:
    preset.options.validate()
    PRESETS[preset.key] = preset


_add(
    Preset(
        "tripoley",
        "Tripoley (Cadaco)",
        TRIPOLEY_SPACES,
        TRIPOLEY_OPTIONS,
        summary="The boxed classic: hearts pay cards at the deal, a hand of poker, then Michigan.",
    )
)
_add(
    Preset(
        "tripoley-optional-suit",
        "Tripoley, Optional Suit",
        TRIPOLEY_SPACES,
        Options(**{**TRIPOLEY_OPTIONS.to_dict(), "paycards": "play", "optional_suit": True}),
        summary="Cadaco's favourite variation: bid for the right to name the pay suit; pay cards pay when played.",
    )
)
_add(
    Preset(
        "three-in-one",
        "Three in One",
        TRIPOLEY_SPACES,
        Options(
            **{
                **TRIPOLEY_OPTIONS.to_dict(),
                "spare_hand": "swap-or-auction",
                "poker_first_bettor": "left-of-dealer",
                "michigan_leader": "poker-winner",
                "first_lead": "lowest-of-chosen-suit",
                "after_stop": "chosen-other-suit",
            }
        ),
        summary="Tripoley in three stages; the poker winner leads the stops game.",
    )
)
_add(
    Preset(
        "rummoli",
        "Rummoli (13 pots)",
        (
            POT,
            Space("AC", "A\u2663", CARD, ("AC",)),
            Space("AD", "A\u2666", CARD, ("AD",)),
            Space("AH", "A\u2665", CARD, ("AH",)),
            Space("AS", "A\u2660", CARD, ("AS",)),
            _run_space("8-9-10"),
            Space("k-q", "K-Q\u2665", COMBO, ("QH", "KH")),
            KITTY,
            Space("10H", "10\u2665", CARD, ("TH",)),
            Space("JH", "J\u2665", CARD, ("JH",)),
            Space("QH", "Q\u2665", CARD, ("QH",)),
            Space("KH", "K\u2665", CARD, ("KH",)),
            Space("AH2", "A\u2665 (2nd)", CARD, ("AH",)),
        ),
        Options(
            **{
                **TRIPOLEY_OPTIONS.to_dict(),
                "spare_hand": "rummoli",
                "paycards": "play",
                "strict_claims": True,
                "poker_first_bettor": "left-of-dealer",
                "michigan_leader": "poker-winner",
                "first_lead": "low-black",
                "after_stop": "low-opposite-colour",
                "cannot_lead": "pay-kitty-1",
                "out_payment": "per-card-to-kitty",
            }
        ),
        summary="The Canadian 13-pot board: pay cards pay when played (claim them!), Low Black leads.",
    )
)


# ---------------------------------------------------------------- the Rulebook's mats
RULEBOOK_OPTIONS = Options(
    ante="rulebook",
    dealer_double_ante=True,
    spare_hand="rulebook",
    paycards="play",
    poker_first_bettor="left-of-dealer",
    michigan_leader="left-of-dealer",
    first_lead="lowest-of-chosen-suit",
    after_stop="chosen-opposite-colour",
    cannot_lead="pass",
    all_stuck="lowest-count-wins",
    out_payment="none",
    endgame="poker-showdown",
    start_stack=320,
)


def _card(card: str, label: str | None = None) -> Space:
    sym = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card[1]]
    rank = "10" if card[0] == "T" else card[0]
    return Space(rank + card[1], label or f"{rank}{sym}", CARD, (card,))


def _rulebook(
    key: str, name: str, spaces: tuple[Space, ...], summary: str, order: tuple[str, ...] = RULEBOOK_ORDER, **opts: Any
) -> Preset:
    return Preset(
        key,
        name,
        spaces,
        Options(**{**RULEBOOK_OPTIONS.to_dict(), **opts}),
        order=order,
        min_players=2,
        max_players=20,
        summary=summary,
        rulebook_setup=True,
    )


TRIPOLEY_RULEBOOK_SPACES = (
    _card("TH"),
    _card("JH"),
    _card("QH"),
    _card("KH"),
    _card("AH"),
    Space("k-q", "K-Q\u2665", COMBO, ("QH", "KH")),
    _run_space("8-9-10"),
    Space("kitty", "Kitty (poker)", POKER),
    Space("tripoley", "Tripoley", MICHIGAN),
)

_add(
    _rulebook(
        "michigan-rummy",
        "Michigan Rummy (Rulebook)",
        (
            _card("TH"),
            _card("JD"),
            _card("QC"),
            _card("KH"),
            _card("AS"),
            Space("k-q", "K-Q\u2666", COMBO, ("QD", "KD")),
            _run_space("8-9-10"),
            Space("pot", "Poker Pot", POKER),
            Space("michigan", "Michigan Rummy", MICHIGAN),
        ),
        "The classic: Michigan first (money cards pay when placed), then five-card poker for the pot.",
    )
)
_add(
    _rulebook(
        "tripoley-rulebook",
        "Tripoley (Rulebook)",
        TRIPOLEY_RULEBOOK_SPACES,
        "The American mat: hearts pay when placed, the poker winner takes the Kitty, going out takes the Tripoley.",
    )
)
_add(
    _rulebook(
        "rummoli-rulebook",
        "Rummoli (Rulebook)",
        (
            _card("TS"),
            _card("JD"),
            _card("QC"),
            _card("KH"),
            _card("AS"),
            Space("a-k", "A-K\u2666", COMBO, ("KD", "AD")),
            _run_space("7-8-9"),
            Space("pot", "Poker Pot", POKER),
            Space("rummoli", "Rummoli", MICHIGAN),
        ),
        "The Canadian mat of the Rulebook: A-K of diamonds and 7-8-9 in one suit.",
        run="7-8-9",
    )
)
_add(
    _rulebook(
        "rummy-royal",
        "Rummy Royal",
        TRIPOLEY_RULEBOOK_SPACES
        + tuple(
            Space(f"corner-A{s}", f"Corner A{sym}", CORNER, (f"A{s}",), ante=0)
            for s, sym in (("C", "\u2663"), ("D", "\u2666"), ("H", "\u2665"), ("S", "\u2660"))
        ),
        "Tripoley's payouts plus corner-Ace bets: the dealer backs an Ace, others may cover; its holder collects if they backed it.",
        order=(
            "ante",
            "corner-bet",
            "deal",
            "spare",
            "corner-collect",
            "paycards",
            "michigan",
            "to-poker",
            "poker",
            "settle",
        ),
    )
)

_add(
    _rulebook(
        "great-lakes",
        "Great Lakes",
        (
            _card("JH", "Tomahawk J\u2665"),
            _card("QS", "Black Mariah Q\u2660"),
            _card("KD", "Suicide King K\u2666"),
            Space("6-lead", "6 Lead", LEAD, ranks=(4,)),
            Space("a-2", "A-2", ACE_TWO),
            Space("full-house", "Full House", FULL_HOUSE_PLAY),
            Space("straight", "5-Card Straight", STRAIGHT_PLAY),
            Space("losers-kitty", "Losers Kitty", LOSERS),
            Space("great-lakes", "Great Lakes", MICHIGAN),
        ),
        "Michigan with a twist: Tomahawk, Black Mariah and Suicide King pay when placed, 6 Lead and A-2 pay "
        "leads, Full House and 5-Card Straight plays; in the poker the WORST hand takes the Losers Kitty.",
    )
)
WANAGAN_ORDER = ("ante", "deal", "spare", "wanagan", "to-poker", "poker", "settle")
_add(
    _rulebook(
        "wanagan",
        "Wanagan",
        (
            Space("full-house", "Full House", HAND, ante=2, hand="full-house"),
            Space("one-pair", "One Pair", HAND, hand="one-pair"),
            Space("four-kind", "4 of a Kind", HAND, ante=2, hand="four-kind"),
            Space("evens-odds", "Evens or Odds", HAND, hand="evens-odds"),
            Space("two-pair", "Two Pair", HAND, hand="two-pair"),
            Space("straight", "Any Straight", HAND, ante=2, hand="straight"),
            Space("three-kind", "3 of a Kind", HAND, hand="three-kind"),
            Space("flush", "Any Flush", HAND, ante=2, hand="flush"),
            Space("wanagan", "Wanagan", POKER, ante=2),
        ),
        "No Michigan: up to four rounds of revealing five cards and declaring a space (pass three left, "
        "then right, then K\u2665 10\u2666 7\u2660 4\u2663 wild); then poker for the Wanagan centre.",
        order=WANAGAN_ORDER,
    )
)


def get_preset(key: str) -> Preset:
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(f"unknown preset {key!r} (known: {', '.join(PRESETS)})") from None


def spaces_for(preset: Preset, options: Options) -> tuple[Space, ...]:
    """The preset's mat with option-driven spaces applied: the run's ranks, and the pay-suit spaces
    printed in hearts unless the players bid for the suit (then the round names it)."""
    out = []
    for space in preset.spaces:
        if space.trigger == RUN and space.id != options.run:
            space = _run_space(options.run)
        elif space.follows_pay_suit and not options.optional_suit:
            cards = tuple(text.replace(PAY_SUIT, UNNAMED_PAY_SUIT) for text in space.cards)
            space = replace(space, label=space.label + SUIT_SYMBOLS[UNNAMED_PAY_SUIT], cards=cards)
        out.append(space)
    return tuple(out)


def names_pay_suit(preset: Preset) -> bool:
    """Whether the players of ``preset`` can name the pay suit (``optional_suit``): its round has
    the suit bid and its mat has pay cards of the pay suit. A mat that prints its pay cards in
    several suits (Rummoli's four Aces, the Rulebook's mats) has no one suit to replace."""
    return SUIT_BID in preset.order and any(space.follows_pay_suit for space in preset.spaces)


def options_for(preset: Preset, overrides: dict[str, Any] | None) -> Options:
    """The options a game of ``preset`` plays with ``overrides``: each checked (``ValueError``),
    and then against the preset's mat, so no option is accepted that the game would ignore."""
    options = preset.options.with_overrides(overrides)
    if options.optional_suit and not names_pay_suit(preset):
        named = ", ".join(key for key, other in PRESETS.items() if names_pay_suit(other))
        raise ValueError(
            f"option optional_suit (bidding to name the pay suit) is played only on {named}: "
            f"{preset.name} has no pay suit to name"
        )
    return options


# House rules: per preset, the options a table may switch in the lobby and the values offered
# (Cadaco's variations, the two readings of the bet limit, claims, board clearing, game length).
_TABLE_RULES: dict[str, tuple[Any, ...]] = {
    "bet_limit_scope": ("per-bet", "total"),
    "strict_claims": (False, True),
    "endgame": ("poker-showdown", "michigan-interests"),
    "game_end": ("rounds:5", "rounds:10", "elimination"),
}
_CADACO_SPARE = ("none", "exchange-or-sell", "swap-or-auction")
_SUIT_BID = (False, True)  # Cadaco's Optional Suit on the other hearts mats (``names_pay_suit``)
HOUSE_RULES: dict[str, dict[str, tuple[Any, ...]]] = {
    "tripoley": {"paycards": ("deal", "play"), "spare_hand": _CADACO_SPARE, "optional_suit": _SUIT_BID, **_TABLE_RULES},
    "tripoley-optional-suit": {"spare_hand": _CADACO_SPARE, **_TABLE_RULES},
    "three-in-one": {"spare_hand": _CADACO_SPARE, "optional_suit": _SUIT_BID, **_TABLE_RULES},
    "rummoli": {"run": ("8-9-10", "6-7-8"), **_TABLE_RULES},
    **{key: dict(_TABLE_RULES) for key, preset in PRESETS.items() if preset.rulebook_setup and key != "wanagan"},
    "wanagan": {name: values for name, values in _TABLE_RULES.items() if name != "strict_claims"},  # no pay cards
}
