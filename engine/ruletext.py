"""The words of the rule book as data: each option's name, meaning and values, and why the
rules read as they do where the source texts differ (used by :mod:`engine.rulebook`).

An option's words are English marked with ``N_``: :mod:`engine.rulebook` looks them up in the
language of the page it makes (``value_label``, ``value_text``, ``option_line``), and names the cards
a sentence holds (``{king}``, ``{queen}``, ``{jack}``, ``{king_queen}``) as that language writes them.
The reasons and the other differences are docs/rules.md's alone, in English."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .language import N_


@dataclass(frozen=True)
class OptionText:
    """How an option reads for players: its name, one line on what it decides, and per value a
    short label (lobby menus) and a sentence (rule pages)."""

    title: str
    line: str
    values: dict[Any, tuple[str, str]]
    form: str = ""  # how a free value (a number, a count) is written, for the list of settings


OPTION_TEXT: dict[str, OptionText] = {
    "ante": OptionText(
        N_("Ante"),
        N_("how many chips each player puts on every space at the start of a round"),
        {},
        "`flat:N` (N chips a space every round) or `rulebook` (growing by round)",
    ),
    "dealer_double_ante": OptionText(
        N_("Dealer antes double"),
        N_("whether the dealer pays the ante twice"),
        {
            True: (N_("dealer pays double"), N_("The dealer antes twice on every space.")),
            False: (N_("dealer pays single"), N_("The dealer antes like everyone else.")),
        },
    ),
    "spare_hand": OptionText(
        N_("Spare hand"),
        N_("what happens to the extra hand dealt with the others"),
        {
            "none": (
                N_("not used"),
                N_("The spare hand is dealt face down and nobody uses it: its cards are out of play for the round."),
            ),
            "exchange-or-sell": (
                N_("exchange or sell (Cadaco variation 2)"),
                N_(
                    "After looking at their own hand the dealer may exchange it for the spare hand; if "
                    "they don't, they may sell the spare to the highest bidder (bids go round from the "
                    "dealer's left; the buyer pays the dealer and must exchange). There is one sale at "
                    "most."
                ),
            ),
            "swap-or-auction": (
                N_("swap blind or auction"),
                N_(
                    "The dealer may swap blind for the spare hand, or auction it: the highest bidder pays "
                    "the dealer and swaps. If nobody bids the dealer may still swap, and after a swap the "
                    "dealer may auction the hand they gave up."
                ),
            ),
            "rulebook": (
                N_("Rulebook: swap or auction, no money cards"),
                N_(
                    "The dealer plays the hand as dealt, swaps it blind for the spare (only while holding no "
                    "money card of this mat), or auctions the spare to the highest bidder holding no money "
                    "card. Every card pictured on a money space counts (both the {king} and the {queen} of {king_queen}); of a run space "
                    "(8-9-10, 7-8-9) only the whole run in one suit counts: a lone 8, 9 or 10 does not."
                ),
            ),
            "rummoli": (
                N_("Rummoli widow"),
                N_(
                    "The dealer may take the widow (the spare hand) unseen, or look at it and then must keep it "
                    "(and may auction the old hand), or auction the unseen widow. Anyone but the dealer may "
                    "bid; the buyer pays the dealer and must swap. Taking the widow while holding a pay card is "
                    "allowed, but rarely wise."
                ),
            ),
        },
    ),
    "paycards": OptionText(
        N_("Pay cards"),
        N_("when the pay cards of the mat pay"),
        {
            "deal": (
                N_("at the deal"),
                N_("Pay cards pay right after the spare hand is settled, to whoever holds them."),
            ),
            "play": (
                N_("when played (Cadaco variation 1)"),
                N_("Pay cards pay only when they are played in Michigan, to whoever places them."),
            ),
        },
    ),
    "strict_claims": OptionText(
        N_("Strict claims"),
        N_("whether a paid player must claim the chips"),
        {
            True: (
                N_("claim or lose it"),
                N_(
                    "A paid player must claim the chips before the next card is played; unclaimed chips stay on the space."
                ),
            ),
            False: (N_("paid automatically"), N_("Every payment is made automatically.")),
        },
    ),
    "poker_first_bettor": OptionText(
        N_("First to bet"),
        N_("who opens the poker betting"),
        {
            "dealer": (N_("the dealer"), N_("The dealer bets first.")),
            "left-of-dealer": (N_("left of the dealer"), N_("The player left of the dealer bets first.")),
        },
    ),
    "bet_limit": OptionText(N_("Bet limit"), N_("the largest amount the poker limit allows"), {}, "a number of chips"),
    "bet_limit_scope": OptionText(
        N_("Bet limit counts"),
        N_("what the poker bet limit applies to"),
        {
            "per-bet": (
                N_("each bet or raise"),
                N_("No single bet or raise may be larger than the limit; raises are not counted."),
            ),
            "total": (
                N_("a player's whole betting"),
                N_("No player may put more than the limit into one betting round, bets, calls and raises together."),
            ),
        },
    ),
    "michigan_leader": OptionText(
        N_("Michigan leader"),
        N_("who makes the first lead of Michigan"),
        {
            "dealer": (N_("the dealer"), N_("The dealer leads first.")),
            "left-of-dealer": (N_("left of the dealer"), N_("The player left of the dealer leads first.")),
            "poker-winner": (
                N_("the poker winner"),
                N_(
                    "The poker winner leads first (with a split pot, the first winner clockwise from the dealer's left)."
                ),
            ),
        },
    ),
    "first_lead": OptionText(
        N_("First lead"),
        N_("which card opens Michigan"),
        {
            "lowest-card": (
                N_("lowest card"),
                N_("The leader plays the lowest card in their hand, whatever its suit."),
            ),
            "lowest-of-chosen-suit": (
                N_("lowest of a chosen suit"),
                N_("The leader chooses a suit and plays its lowest card."),
            ),
            "low-black": (N_("Low Black"), N_("The leader plays their lowest club or spade (Low Black).")),
        },
    ),
    "after_stop": OptionText(
        N_("Lead after a stop"),
        N_("what the player who made the stop leads next"),
        {
            "lowest-other-suit": (
                N_("lowest other suit"),
                N_("They lead their lowest card of any suit but the one just stopped."),
            ),
            "chosen-other-suit": (
                N_("chosen other suit"),
                N_("They choose any suit but the one just stopped and lead its lowest card."),
            ),
            "chosen-opposite-colour": (
                N_("chosen suit of the other colour"),
                N_("They choose a suit of the other colour and lead its lowest card."),
            ),
            "low-opposite-colour": (
                N_("low of the other colour"),
                N_("They lead their lowest card of the other colour (after an Ace too)."),
            ),
        },
    ),
    "cannot_lead": OptionText(
        N_("Cannot lead"),
        N_("what a player with no card to lead does"),
        {
            "pass": (N_("pass"), N_("The lead passes to the left.")),
            "pay-kitty-1": (
                N_("pay one chip"),
                N_(
                    "They pay one chip into the Kitty and the next player must lead that "
                    "colour; when everybody has paid in a row, the colour flips."
                ),
            ),
        },
    ),
    "all_stuck": OptionText(
        N_("Nobody can lead"),
        N_("what happens when no player can lead"),
        {
            "pay-per-card-to-kitty": (
                N_("pay per card to the Kitty"),
                N_("Everybody pays one chip per card still in hand into the Kitty and nobody wins it this round."),
            ),
            "lowest-count-wins": (
                N_("lowest count wins"),
                N_(
                    "The lowest total in hand wins the centre (2–10 count their "
                    "face value, {jack}, {queen} and {king} ten, an Ace eleven)."
                ),
            ),
        },
    ),
    "out_payment": OptionText(
        N_("Going out"),
        N_("what the others pay the player who empties their hand"),
        {
            "per-card-to-winner": (
                N_("a chip per card to the winner"),
                N_("Every other player pays them one chip per card left in hand."),
            ),
            "per-card-to-kitty": (
                N_("a chip per card to the Kitty"),
                N_(
                    "Every other player pays one chip per card left in "
                    "hand into the Kitty, which the player who went out then takes."
                ),
            ),
            "none": (N_("no payment"), N_("Nobody pays anything for the cards left in hand.")),
        },
    ),
    "endgame": OptionText(
        N_("Clearing the board"),
        N_("what becomes of chips still on the mat when the game ends"),
        {
            "poker-showdown": (
                N_("one last poker hand"),
                N_(
                    "Every chip left on the mat goes to the Pot, everyone gets five "
                    "fresh cards and the best hand takes it all (ties split; an odd chip goes to the first "
                    "tied player left of the dealer). A Losers Kitty stays apart and goes to the worst "
                    "hand of that showdown."
                ),
            ),
            "michigan-interests": (
                N_("Michigan for the interests"),
                N_(
                    "All the cards are dealt again, with a spare, and "
                    "Michigan is played: each 8, 9 or 10 placed takes a third of the 8-9-10 space, "
                    "the {king} or {queen} of the pay suit half of {king_queen}; repeated until the mat is clear."
                ),
            ),
            "none": (N_("leave them"), N_("Chips still on the mat stay with the table's house: nobody gets them.")),
        },
    ),
    "game_end": OptionText(
        N_("Game end"),
        N_("when the game is over"),
        {},
        "`rounds:N`, `minutes:N` (the round in progress is finished) or `elimination`",
    ),
    "start_stack": OptionText(
        N_("Starting chips"), N_("the chips each player brings to the game"), {}, "a number of chips"
    ),
    "optional_suit": OptionText(
        N_("Optional suit"),
        N_("whether the players bid to name the pay suit"),
        {
            True: (
                N_("bid for the pay suit"),
                N_(
                    "Before play, starting with the dealer, the players bid for the right to "
                    "name the pay suit; the winner puts the bid on the Kitty and names it (hearts if nobody bids). "
                    "The five pay cards and {king_queen} are then of that suit, whether they pay at the deal or when played."
                ),
            ),
            False: (N_("fixed pay cards"), N_("The pay cards are the ones printed on the mat.")),
        },
    ),
    "run": OptionText(
        N_("Run space"),
        N_("which three cards of one suit the run space pays for"),
        {
            "8-9-10": ("8-9-10", N_("The run space pays for the 8-9-10 of one suit.")),
            "6-7-8": ("6-7-8", N_("The run space pays for the 6-7-8 of one suit.")),
            "7-8-9": ("7-8-9", N_("The run space pays for the 7-8-9 of one suit.")),
        },
    ),
    "decks": OptionText(
        N_("Decks"),
        N_("how many 52-card decks are shuffled together"),
        {
            0: (
                N_("by the number of players"),
                N_(
                    "One deck; the Rulebook mats add a deck per five players (2–5 players: "
                    "one, 6–10: two, 11–15: three, 16–20: four)."
                ),
            ),
        },
        "`0` (by the number of players) or 1 to 4",
    ),
}

# Wanagan: what a hand must contain to claim a space, and how two such claims compare.
WANAGAN_HANDS = {
    "one-pair": N_(
        "Won in a reveal round by declaring it with five cards that contain a pair; between two such claims the "
        "higher pair wins, and equal ones split it."
    ),
    "two-pair": N_(
        "Won in a reveal round by declaring it with five cards that contain two pairs; between two such claims the "
        "higher top pair wins, then the second pair, and equal ones split it."
    ),
    "three-kind": N_(
        "Won in a reveal round by declaring it with five cards that contain three of a kind; between two such "
        "claims the higher three wins, and equal ones split it."
    ),
    "four-kind": N_(
        "Won in a reveal round by declaring it with five cards that contain four of a kind; between two such "
        "claims the higher four wins, and equal ones split it."
    ),
    "full-house": N_(
        "Won in a reveal round by declaring it with five cards that contain a full house; between two such claims "
        "the higher three wins, then the pair, and equal ones split it."
    ),
    "straight": N_(
        "Won in a reveal round by declaring it with five cards that contain five ranks in a row; between two such "
        "claims the higher top card wins (A-2-3-4-5 is the lowest, its top card the 5), and equal ones split it."
    ),
    "flush": N_(
        "Won in a reveal round by declaring it with five cards that contain five cards of one suit; between two "
        "such claims the higher top card wins, then the next, and so on, and equal ones split it."
    ),
    "evens-odds": N_(
        "Won in a reveal round by declaring it with five cards that contain five consecutive even or five "
        "consecutive odd ranks, the Ace counting low ({runs}); between two such claims the higher top card wins, "
        "the Ace low, and equal ones split it."
    ),
}
EVENS_ODDS_RUNS = ("2-4-6-8-10", "4-6-8-10-Q", "A-3-5-7-9", "3-5-7-9-J", "5-7-9-J-K")

# The spaces whose rule is the same sentence whatever the options (by the space's id).
SPACE_BY_ID = {
    "AH2": N_("A second pocket for the A♥: the card that takes the A♥ space takes this one too, with the same claim."),
    "6-lead": N_(
        "The first player in the round to start a sequence with a 6 (their lowest card of that suit) takes it."
    ),
    "a-2": N_(
        "The first player who places an Ace, ending the sequence, and then leads a 2 of the other colour takes "
        "it. Aces placed in a Full House or a 5-Card Straight count: the 2 need only be of the other colour than "
        "one of the Aces placed in that play, whatever order they were put down in."
    ),
}

# The steps of a round that need no option's words (the page "A round").
ROUND_STEPS = {
    "poker": N_("• **Poker** — five cards each, one betting round, showdown for the poker space."),
    "michigan": N_("• **Michigan** — the stops game below."),
    "wanagan": N_("• **Wanagan** — up to four reveal rounds (below)."),
    "to-poker": N_("• **To the poker space** — every chip left on a money space moves to the poker space."),
}


# Why a value was chosen where the sources differ (docs/rules.md, "Where the sources differ").
REASONS: dict[tuple[str, Any], str] = {
    ("spare_hand", "none"): "Cadaco's boxed rules deal an extra hand and never use it.",
    ("spare_hand", "exchange-or-sell"): "Cadaco's second variation: exchange or sell, never both.",
    ("spare_hand", "swap-or-auction"): "The Overview and Three in One describe the blind swap, the auction and "
    "the second sale in detail; the Cadaco presets keep it as a house rule.",
    ("spare_hand", "rulebook"): "The Rulebook forbids the swap and the bid to a player holding a money card.",
    ("spare_hand", "rummoli"): "The Rummoli text separates a looked-at widow (kept) from an unseen one (sold).",
    ("paycards", "deal"): "Cadaco pays pay cards before poker, to whoever holds them.",
    ("paycards", "play"): "Cadaco's first variation, Rummoli and the Rulebook pay only cards that are played.",
    ("strict_claims", True): "Rummoli players must call out their pay cards; an unclaimed card pays nothing.",
    ("strict_claims", False): "The other sources pay without a call.",
    ("poker_first_bettor", "dealer"): "Cadaco lets the dealer open.",
    ("poker_first_bettor", "left-of-dealer"): "Three in One, Rummoli and the Rulebook start left of the dealer.",
    ("michigan_leader", "dealer"): "Cadaco has the dealer lead.",
    ("michigan_leader", "left-of-dealer"): "The Rulebook plays Michigan before poker, so the player left of the "
    "dealer leads.",
    ("michigan_leader", "poker-winner"): "The Overview, Three in One and Rummoli give the first lead to the poker "
    "winner.",
    ("first_lead", "lowest-card"): "Cadaco: the lowest card held.",
    ("first_lead", "lowest-of-chosen-suit"): "Three in One and the Rulebook let the leader pick the suit.",
    ("first_lead", "low-black"): "Rummoli opens with Low Black.",
    ("after_stop", "lowest-other-suit"): "Cadaco: the lowest card of another suit.",
    ("after_stop", "chosen-other-suit"): "Three in One: any other suit, player's choice.",
    ("after_stop", "chosen-opposite-colour"): "The Rulebook: a suit of the opposite colour, player's choice.",
    ("after_stop", "low-opposite-colour"): "Rummoli alternates Low Black and Low Red.",
    ("cannot_lead", "pass"): "Most sources simply pass the lead on.",
    ("cannot_lead", "pay-kitty-1"): "Rummoli makes a player who cannot lead pay the Kitty.",
    ("all_stuck", "pay-per-card-to-kitty"): "Cadaco and Three in One charge every card left when play is blocked.",
    ("all_stuck", "lowest-count-wins"): "The Rulebook gives the centre to the lowest count.",
    ("out_payment", "per-card-to-winner"): "Cadaco and Three in One pay the player who went out.",
    ("out_payment", "per-card-to-kitty"): "Rummoli feeds the Kitty first; the player who went out then wins it "
    "(one payment, never twice).",
    ("out_payment", "none"): "The Rulebook has no per-card payments.",
    ("ante", "rulebook"): "The Rulebook's antes grow by round.",
    ("dealer_double_ante", True): "The Rulebook has the dealer ante double.",
    ("optional_suit", True): "Cadaco's Optional Suit: regular Tripoley with variation 1 and a suit auction.",
    ("run", "7-8-9"): "The Rulebook's Rummoli mat prints 7-8-9.",
    ("run", "8-9-10"): "Every other mat prints 8-9-10 (Rummoli boards with 6-7-8 exist: a house rule).",
    ("ante", "flat:1"): "The boxed games ante one chip a space every round.",
    ("dealer_double_ante", False): "The boxed games have no dealer's double.",
    ("optional_suit", False): "Elsewhere the pay cards are printed on the mat. Tripoley as printed and Three in One "
    "may add the suit bid as a house rule; the mats that print pay cards of several suits, or follow the Rulebook's "
    "round, do not offer it.",
    ("start_stack", 100): "The boxed rules give no number; 100 chips cover a long losing streak at one chip a space.",
    ("start_stack", 320): "The Rulebook's starting set: 20 × 1, 15 × 5, 10 × 10 and 5 × 25.",
}

# Points where the printed rules disagree or stay vague that no setting of the presets shows:
# (the point, what this project does and why). Listed in docs/rules.md after the settings.
OTHER_DIFFERENCES: tuple[tuple[str, str], ...] = (
    (
        "The bet limit",
        "The Overview reads it once as a cap on each bet or raise and once as a cap on what a "
        "player puts in altogether. Every preset caps each bet or raise, as Three in One also does; the other "
        'reading is the house rule "Bet limit counts: a player\'s whole betting".',
    ),
    (
        "Cadaco's variations",
        "Cadaco suggests two: pay cards that pay only when played (variation 1) and the "
        "exchange-or-sale of the dead hand (variation 2). Both are house rules of the Cadaco games, alone or "
        "together; Optional Suit is variation 1 plus the suit auction, as Cadaco describes it. The suit auction is "
        "a house rule of Tripoley and Three in One too: the named suit takes the place of hearts on every pay card "
        "and on K-Q, paid at the deal or when played as that table plays pay cards.",
    ),
    (
        "Money cards in the Rulebook's spare hand",
        "The Rulebook bars a player holding a money card from swapping "
        "or bidding. Every card pictured on a money space counts (the K and the Q of K-Q alike); a run space "
        "counts only as the whole run in one suit, since a single 8, 9 or 10 is in nearly every hand and would forbid "
        "nearly every swap.",
    ),
    (
        "Rummoli's pay cards and the widow",
        "The Rummoli text advises a dealer or bidder holding a pay card not to "
        "take the widow but does not forbid it: the game warns them and lets them choose.",
    ),
    (
        "Wanagan's Evens or Odds",
        "The Rulebook says the Ace is low for this space, so A-3-5-7-9 ranks below 2-4-6-8-10 (its top card is the 9).",
    ),
    (
        "Wanagan claims",
        "Two claims on one space are compared by the combination the space names, not by the "
        "whole poker hand: a full house claiming One Pair is only as good as its pair. Kickers never count.",
    ),
    (
        "The Losers Kitty at the end",
        "When the board is cleared by a last poker hand, the Losers Kitty keeps its "
        "nature and goes to the worst hand of that showdown.",
    ),
    (
        "Clearing the board",
        "Cadaco gives two ways; every preset uses the last poker hand (quick, and the same for "
        "every mat), and Cadaco's Michigan for the interests is a house rule.",
    ),
    (
        "The first dealer",
        "Only the Rulebook describes a cut (highest card deals); the other games start with the first seat dealing.",
    ),
)
