"""How to play, written for players: a few short pages per preset (``/tripoley rules``)."""

from __future__ import annotations

HOW_TO_PLAY_HERE = (
    "**Playing on Discord**\n"
    "• `/tripoley start` opens a table; press **Join** (or add AI seats) and the host presses **Start**.\n"
    "• Your buy-in moves from your wallet to the table; at the end your stack goes back to your wallet.\n"
    "• The table message shows the mat, whose turn it is and the deadline. Press **Show my hand** to see your "
    "cards and make your private choices (poker five, leads, bids). Public buttons (check, call, fold, pass…) "
    "work for the player whose turn it is.\n"
    "• Run out of time and a safe move is made for you (check or fold, your best five, your lowest lead, no bid). "
    "Three timeouts in a row and an AI takes your seat until you press **I'm back**.\n"
    "• `/tripoley dm on` sends you your hand by DM at every deal."
)

CADACO_MAT = (
    "**The mat**\n"
    "Nine spaces: the five heart pay cards **10♥ J♥ Q♥ K♥ A♥**, **K-Q♥** (both cards), **8-9-10** (a run of one "
    "suit), the **Kitty** and the **Pot**. Every round each player antes one chip on every space. Chips on a space "
    "nobody wins stay there and grow."
)

CADACO_DEAL = (
    "**Deal and spare hand**\n"
    "All the cards are dealt, with one extra *spare hand*. The dealer may keep their hand, **swap blind** for the "
    "spare (never looking first), or **auction** it: players bid chips in turn, the highest bidder pays the dealer "
    "and swaps. If nobody bids, the dealer may still swap."
)

DEAD_HAND = (
    "**Deal and dead hand**\n"
    "All the cards are dealt, with one extra *dead hand* that nobody uses (a pay card in it pays nobody). "
    "House rule: the dealer may exchange their hand for it, or else sell it to the highest bidder."
)

POKER = (
    "**Poker**\n"
    "Choose five of your cards as your poker hand (**Best five** picks the strongest; you may hide your strength). "
    "One betting round: check while nobody has bet; after a bet, fold, call or raise. No bet or raise may exceed "
    "the bet limit. Short of chips? Call all-in (side pots as usual). Best hand takes the **Pot**; ties split.\n"
    "Hands, high to low: straight flush, four of a kind, full house, flush, straight, three of a kind, two pair, "
    "pair, high card. Ace is high, and low in A-2-3-4-5."
)

MICHIGAN = (
    "**Michigan (stops)**\n"
    "A lead places a card; whoever holds the next higher card of that suit plays it, and so on, until an Ace or a "
    "card nobody can play (in the spare hand or already played) — the **stop**. Forced plays happen "
    "automatically; you only choose your leads. The first player to empty their hand **goes out** and wins."
)

END = (
    "**End of the game**\n"
    "The game ends after the set number of rounds (or minutes, or when one player has chips left). Chips still on "
    "the mat go to the Pot and everyone gets five fresh cards: best poker hand takes it all."
)

PAGES: dict[str, list[str]] = {
    "tripoley": [
        "**Tripoley (Cadaco)** — the boxed classic, three games in one: pay cards, poker, and Michigan.",
        CADACO_MAT,
        DEAD_HAND,
        "**Pay cards**\nRight after the deal, holding a heart pay card takes that space; holding K♥ and Q♥ also "
        "takes K-Q; holding 8-9-10 of one suit takes 8-9-10 (several holders split it). A pay card in the spare "
        "hand pays nobody.",
        POKER + "\nThe **dealer** bets first.",
        MICHIGAN + "\nThe **dealer** leads first, the lowest card they hold. After a stop, the stopper leads the "
        "lowest card of another suit. Can't lead? The turn passes. Going out takes the **Kitty**, and every other "
        "player pays you one chip per card left. If nobody can lead, everyone pays a chip per card into the Kitty.",
        END,
        HOW_TO_PLAY_HERE,
    ],
    "tripoley-optional-suit": [
        "**Tripoley, Optional Suit** — Cadaco's favourite variation: bid for the right to name the pay suit.",
        CADACO_MAT + "\nThe pay cards and K-Q are of the suit named this round (hearts if nobody bids).",
        DEAD_HAND,
        "**The suit bid**\nStarting with the dealer, players bid for the right to name the pay suit; bidding ends "
        "when nobody raises. The winner puts the bid on the Kitty and names the suit.",
        "**Pay cards pay when played**\nOnly cards actually played in Michigan pay: the pay card's space goes to "
        "whoever plays it; K-Q to whoever plays the K right after the Q; 8-9-10 to whoever plays the 10 right after "
        "the 8 and 9 of its suit.",
        POKER + "\nThe **dealer** bets first.",
        MICHIGAN + "\nThe **dealer** leads first. Going out takes the Kitty and the others pay a chip per card.",
        END,
        HOW_TO_PLAY_HERE,
    ],
    "three-in-one": [
        "**Three in One** — Tripoley in three clear stages: pay cards, poker, Michigan.",
        CADACO_MAT,
        CADACO_DEAL,
        "**Pay cards**\nHolding a heart pay card after the deal takes its space; K♥+Q♥ takes K-Q; 8-9-10 of one "
        "suit takes 8-9-10.",
        POKER + "\nThe player **left of the dealer** bets first.",
        MICHIGAN + "\nThe **poker winner** leads, choosing a suit (its lowest card is played). After a stop, the "
        "stopper chooses another suit. Going out takes the Kitty; the others pay a chip per card left.",
        END,
        HOW_TO_PLAY_HERE,
    ],
    "rummoli": [
        "**Rummoli** — the Canadian 13-pot board. Pay cards pay when *played*, and you must **claim** them!",
        "**The mat**\nThirteen spaces: Pot, the four Aces, 8-9-10, K-Q♥, Kitty, 10♥, J♥, Q♥, K♥ and a second A♥ "
        "pocket (the A♥ pays both). Everyone antes one chip on each.",
        "**The widow**\nThe dealer may swap for the widow (spare hand). If the dealer looks at it, they must keep it "
        "and may auction their old hand; if not, they may auction the unseen widow. Anyone but the dealer may bid; "
        "the winner pays the dealer and must swap.",
        POKER + "\nThe player **left of the dealer** bets first.",
        "**Michigan, Rummoli style**\nThe poker winner leads **Low Black** (their lowest club or spade). After a "
        "stop or an Ace, the same player leads the low card of the opposite colour. Can't lead? Pay one chip to the "
        "Kitty and the next player must lead that colour. When you play a pay card, press **Claim!** quickly — an "
        "unclaimed card pays nothing. Going out: the others pay a chip per card into the Kitty, and you win it.",
        END,
        HOW_TO_PLAY_HERE,
    ],
}

RULEBOOK_COMMON = (
    "**Rulebook games**\n"
    "Antes grow by round: 1, 2, 3, 4, 5, 10, 15, 20, 25, 30 chips per space (the dealer antes twice). Everyone "
    "starts with 320 chips. The dealer plays as dealt, swaps blind (only without a money card of this mat), or "
    "auctions the spare to the highest bidder without a money card.\n"
    "Michigan comes first: left of the dealer chooses a suit and leads its lowest card; money cards pay when "
    "placed; after a stop the last player leads the lowest card of a suit of the opposite colour. Going out wins "
    "the centre; if nobody can lead, the lowest total in hand wins it. Then poker with your whole hand."
)

for key, title, mat in [
    ("michigan-rummy", "Michigan Rummy", "Money cards: 10♥, J♦, Q♣, K♥, A♠, K-Q♦ (K♦ right after Q♦), 8-9-10 of one suit, Poker Pot, Michigan centre."),
    ("tripoley-rulebook", "Tripoley (Rulebook)", "Money cards: 10♥ J♥ Q♥ K♥ A♥, K-Q♥, 8-9-10, Kitty (poker winner), Tripoley centre."),
    ("rummoli-rulebook", "Rummoli (Rulebook)", "Money cards: 10♠, J♦, Q♣, K♥, A♠, A-K♦ (A♦ right after K♦), 7-8-9 of one suit, Poker Pot, Rummoli centre."),
    ("rummy-royal", "Rummy Royal", "Tripoley's mat plus corner-Ace bets: at the ante the dealer may bet on a corner Ace, others may cover; the holder of that Ace takes the corner if they bet on it."),
    ("great-lakes", "Great Lakes", "J♥ Tomahawk, Q♠ Black Mariah, K♦ Suicide King; 6 Lead (first to start a sequence with a 6); A-2 (an Ace, then a 2 of the other colour); Full House and 5-Card Straight plays; the Losers Kitty goes to the worst poker hand (at the end of the game too); Great Lakes centre."),
    ("wanagan", "Wanagan", "No Michigan: up to four reveal rounds. Each player secretly picks five cards and declares a space (Full House, One Pair, 4 of a Kind, Evens or Odds, Two Pair, Any Straight, 3 of a Kind, Any Flush); among the hands that hold it, the best such combination wins (kickers don't count; Ace low in Evens or Odds). Round 2 pass three left, round 3 right, round 4 K♥ 10♦ 7♠ 4♣ are wild. Then poker for the Wanagan centre."),
]:
    PAGES[key] = [f"**{title}** — from the Rulebook.\n{mat}", RULEBOOK_COMMON, POKER, END, HOW_TO_PLAY_HERE]


def pages_for(preset_key: str) -> list[str]:
    """The rule pages for a preset: the engine's own pages if it has them, else ours."""
    try:
        from engine.presets import PRESETS

        preset = PRESETS.get(preset_key)
        if preset is not None and preset.rules:
            return list(preset.rules) + [HOW_TO_PLAY_HERE]
    except Exception:
        pass
    return PAGES.get(preset_key) or PAGES["tripoley"]
