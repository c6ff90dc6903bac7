"""Which of a game's events the table's log tells, and decision tokens.

The lines themselves are worded by the table's teller (:mod:`bot.tables.telling`); only public
facts are told: a chosen poker hand, a card still in a hand, stay secret.
"""

from __future__ import annotations

from engine import Game
from engine import events as ev
from engine.events import EndReason, Event

# Events worth a line in the table's log. Players' own decisions (check, bet, bid, keep…) are
# logged from the action itself; antes and the chips of bets/calls are not worth a line each.
LOGGED_EVENTS: tuple[type[Event], ...] = (
    ev.Payout,
    ev.Transfer,
    ev.ToSpace,
    ev.Stop,
    ev.Out,
    ev.PokerWin,
    ev.PaySuit,
    ev.CannotLead,
    ev.ColourFlip,
    ev.Stuck,
    ev.Unclaimed,
    ev.RoundEnd,
    ev.GameEnd,
    ev.SitOut,
    ev.Eliminated,
    ev.Reveal,
)
QUIET_TO_SPACE = frozenset({"", "ante", "call", "bet", "raise"})


def worth_a_line(event: Event) -> bool:
    """Whether the table's log tells ``event``: a public event of :data:`LOGGED_EVENTS`, but not
    the chips of an ante or a bet, an unnamed suit, nor the host's stop (the table's own line
    says who stopped the game)."""
    match event:
        case ev.ToSpace():
            return event.reason not in QUIET_TO_SPACE
        case ev.PaySuit():
            return bool(event.suit)
        case ev.GameEnd():
            return event.reason is not EndReason.HOST_STOP
    return isinstance(event, LOGGED_EVENTS)


# Claims (strict claims: each pay card waits for its owner's Claim!)


def decision_token(game: Game) -> str:
    """Which awaited decision this is: the number of events so far this round.

    A claim button carries it (``do.claim.<token>``), so a second, fast click on the same
    button can never claim the player's *next* pay card: once the first click is applied the
    round has more events and the old token no longer matches. It tells nothing about
    anyone's cards."""
    return str(game.decision_number())


def claim_is_public(game: Game) -> bool:
    """Whether the pay card being claimed is on the table (played in Michigan), so its space may
    be named publicly; a claim right after the deal is for a card still hidden in the hand."""
    return game.cards_on_table()
