"""The catalog entries of the game's events and decisions (marked with ``N_``, looked up where they
are told: :mod:`engine.eventwords`, :mod:`engine.textview`), one whole sentence per event kind and
case. An entry whose subject is a seat comes in a pair: the sentence naming the seat (``{name}``)
and the same sentence said to that seat ("you ..."), for the terminal's player and a bot's answer
to the player who acted.
"""

from __future__ import annotations

from .events import EndReason
from .language import N_

#: A sentence naming a seat (``{name}``) and the same said to that seat.
Persons = tuple[str, str]

#: A Michigan play by how it was made: the sentence naming the player, and the one said to them.
PLAYS: dict[str, Persons] = {
    "lead": (N_("{name} leads {cards}"), N_("you lead {cards}")),
    "full house": (N_("{name} places a full house: {cards}"), N_("you place a full house: {cards}")),
    "straight": (N_("{name} places a 5-card straight: {cards}"), N_("you place a 5-card straight: {cards}")),
}
PLACES: Persons = (N_("{name} places {cards}"), N_("you place {cards}"))


PLACING_REASONS = ("placed", "lead", "ace then two", "full house", "straight")

#: A payout by its reason: the sentence naming who collects, and the one said to them.
PAYOUTS: dict[str, Persons] = {
    "held": (
        N_("{name} collects {amount} from {space} for holding the card(s)"),
        N_("you collect {amount} from {space} for holding the card(s)"),
    ),
    "placed": (
        N_("{name} collects {amount} from {space} for placing the card(s)"),
        N_("you collect {amount} from {space} for placing the card(s)"),
    ),
    "claimed": (
        N_("{name} collects {amount} from {space} (claimed)"),
        N_("you collect {amount} from {space} (claimed)"),
    ),
    "poker": (N_("{name} collects {amount} from {space} (poker)"), N_("you collect {amount} from {space} (poker)")),
    "went out": (
        N_("{name} collects {amount} from {space} for going out"),
        N_("you collect {amount} from {space} for going out"),
    ),
    "lowest count": (
        N_("{name} collects {amount} from {space} for the lowest count"),
        N_("you collect {amount} from {space} for the lowest count"),
    ),
    "playoff": (
        N_("{name} collects {amount} from {space} (end-of-game showdown)"),
        N_("you collect {amount} from {space} (end-of-game showdown)"),
    ),
    "playoff worst hand": (
        N_("{name} collects {amount} from {space} (worst hand of the end-of-game showdown)"),
        N_("you collect {amount} from {space} (worst hand of the end-of-game showdown)"),
    ),
    "corner ace": (
        N_("{name} collects {amount} from {space} for holding the corner Ace they backed"),
        N_("you collect {amount} from {space} for holding the corner Ace they backed"),
    ),
    "lead": (
        N_("{name} collects {amount} from {space} for the lead"),
        N_("you collect {amount} from {space} for the lead"),
    ),
    "ace then two": (
        N_("{name} collects {amount} from {space} for an Ace then a 2 of the other colour"),
        N_("you collect {amount} from {space} for an Ace then a 2 of the other colour"),
    ),
    "full house": (
        N_("{name} collects {amount} from {space} for the full house"),
        N_("you collect {amount} from {space} for the full house"),
    ),
    "straight": (
        N_("{name} collects {amount} from {space} for the 5-card straight"),
        N_("you collect {amount} from {space} for the 5-card straight"),
    ),
    "wanagan": (
        N_("{name} collects {amount} from {space} (best qualifying hand)"),
        N_("you collect {amount} from {space} (best qualifying hand)"),
    ),
    "interest": (
        N_("{name} collects {amount} from {space} (interest)"),
        N_("you collect {amount} from {space} (interest)"),
    ),
    "last player": (
        N_("{name} collects {amount} from {space} (last player)"),
        N_("you collect {amount} from {space} (last player)"),
    ),
    "": (N_("{name} collects {amount} from {space}"), N_("you collect {amount} from {space}")),
}
#: A payout of a reason the engine has no words for: the reason as it is.
PAYOUT_OTHER: Persons = (
    N_("{name} collects {amount} from {space} ({reason})"),
    N_("you collect {amount} from {space} ({reason})"),
)


#: A swap with the spare hand by its reason.
SWAPS: dict[str, Persons] = {
    "blind": (N_("{name} swaps blind with the spare hand"), N_("you swap blind with the spare hand")),
    "looked": (N_("{name} looks at the widow and takes it"), N_("you look at the widow and take it")),
    "bought": (N_("{name} takes the spare hand"), N_("you take the spare hand")),
}
SWAP_OTHER: Persons = (N_("{name} swaps with the spare hand"), N_("you swap with the spare hand"))

#: Why a game ended, as the end's sentence.
GAME_ENDS = {
    EndReason.ROUND_LIMIT: N_("game over (round limit)"),
    EndReason.TIME_LIMIT: N_("game over (time limit)"),
    EndReason.ONE_LEFT: N_("game over (one player left)"),
    EndReason.TOO_FEW: N_("game over (fewer than two players can pay the ante)"),
    EndReason.HOST_STOP: N_("game over (stopped by the host)"),
}

#: The colour a Michigan lead must be once nobody can lead the other.
COLOUR_FLIPS = {
    "red": N_("nobody can lead that colour: the lead must now be red"),
    "black": N_("nobody can lead that colour: the lead must now be black"),
}

#: The way the Wanagan cards are passed.
PASS_DIRECTIONS = {
    "left": N_("everyone passes three cards to the left"),
    "right": N_("everyone passes three cards to the right"),
}


#: Sentences both an event and a decision tell.
BIDS: Persons = (N_("{name} bids {amount}"), N_("you bid {amount}"))
BIDS_FOR_SUIT: Persons = (N_("{name} bids {amount} for the pay suit"), N_("you bid {amount} for the pay suit"))
PASSES: Persons = (N_("{name} passes"), N_("you pass"))
NAMES_SUIT: Persons = (N_("{name} names {suit} as the pay suit"), N_("you name {suit} as the pay suit"))
DECLINES: Persons = (N_("{name} declines the corner bet"), N_("you decline the corner bet"))
CALLS: Persons = (N_("{name} calls {amount}"), N_("you call {amount}"))
BETS: Persons = (N_("{name} bets {amount}"), N_("you bet {amount}"))

#: Chips a seat puts on a space, by the reason (a bet, a raise, a call and a failed lead are told
#: by their own events).
TO_SPACE: dict[str, Persons] = {
    "corner bet": (N_("{name} bets {amount} on {space}"), N_("you bet {amount} on {space}")),
    "corner cover": (N_("{name} covers with {amount} on {space}"), N_("you cover with {amount} on {space}")),
    "suit bid": (
        N_("{name} puts {amount} on {space} for the pay suit"),
        N_("you put {amount} on {space} for the pay suit"),
    ),
    "cards left": (
        N_("{name} pays {amount} to {space} for cards left"),
        N_("you pay {amount} to {space} for cards left"),
    ),
    "all stuck": (
        N_("{name} pays {amount} to {space} for cards left (nobody could lead)"),
        N_("you pay {amount} to {space} for cards left (nobody could lead)"),
    ),
    "": (N_("{name} puts {amount} on {space}"), N_("you put {amount} on {space}")),
}
TO_SPACE_OTHER: Persons = (
    N_("{name} puts {amount} on {space} ({reason})"),
    N_("you put {amount} on {space} ({reason})"),
)

#: Chips a seat pays another, by the reason: the sentence naming both (``{name}`` pays ``{to}``),
#: the one said to the payer, and the one said to the seat paid (``{name}``: the payer).
TRANSFERS: dict[str, tuple[str, str, str]] = {
    "spare hand": (
        N_("{name} pays {to} {amount} for the spare hand"),
        N_("you pay {to} {amount} for the spare hand"),
        N_("{name} pays you {amount} for the spare hand"),
    ),
    "cards left": (
        N_("{name} pays {to} {amount} for cards left"),
        N_("you pay {to} {amount} for cards left"),
        N_("{name} pays you {amount} for cards left"),
    ),
    "": (N_("{name} pays {to} {amount}"), N_("you pay {to} {amount}"), N_("{name} pays you {amount}")),
}
TRANSFER_OTHER = (
    N_("{name} pays {to} {amount} ({reason})"),
    N_("you pay {to} {amount} ({reason})"),
    N_("{name} pays you {amount} ({reason})"),
)

# ---------------------------------------------------------------- a player's decision as a sentence
# What everyone may read about a decision: a chosen poker hand, the cards passed and a Wanagan pick
# stay secret (the reveal events show them later). The second person is the one the bot's "Done:"
# answer speaks ("you play", "you claim the pay card").
ACTIONS: dict[str, Persons] = {
    "keep": (N_("{name} keeps the hand as dealt"), N_("you keep the hand as dealt")),
    "swap": (N_("{name} swaps blind with the spare hand"), N_("you swap blind with the spare hand")),
    "look": (N_("{name} looks at the widow and takes it"), N_("you look at the widow and take it")),
    "auction": (N_("{name} puts the spare hand up for auction"), N_("you put the spare hand up for auction")),
    "check": (N_("{name} checks"), N_("you check")),
    "fold": (N_("{name} folds"), N_("you fold")),
    "call": (N_("{name} calls"), N_("you call")),
    "claim": (N_("{name} claims the pay card"), N_("you claim the pay card")),
    "cover": (N_("{name} covers the corner bet"), N_("you cover the corner bet")),
    "choose": (N_("{name} picks a poker hand"), N_("you pick a poker hand")),
    "reveal": (N_("{name} picks five cards and a space"), N_("you pick five cards and a space")),
    "full_house": (N_("{name} places a full house"), N_("you place a full house")),
    "straight": (N_("{name} places a 5-card straight"), N_("you place a 5-card straight")),
    "play": (N_("{name} plays"), N_("you play")),
    "lead": (N_("{name} leads"), N_("you lead")),
}
#: A lead or a play, with the card it put face up.
ACTIONS_WITH_CARD: dict[str, Persons] = {
    "lead": PLAYS["lead"],
    "play": (N_("{name} plays {cards}"), N_("you play {cards}")),
}

# ---------------------------------------------------------------- plain words
#: What each Wanagan space asks of the five cards revealed for it.
WANAGAN_NEEDS = {
    "one-pair": N_("two cards of one rank"),
    "two-pair": N_("two pairs of two different ranks"),
    "three-kind": N_("three cards of one rank"),
    "four-kind": N_("four cards of one rank"),
    "full-house": N_("three cards of one rank and two of another"),
    "straight": N_("five ranks in a row (Ace high or low)"),
    "flush": N_("five cards of one suit"),
    "evens-odds": N_(
        "five even or five odd ranks in a row, Ace low (2-4-6-8-10, 4-6-8-10-Q, A-3-5-7-9, 3-5-7-9-J or 5-7-9-J-K)"
    ),
}
