"""Pay cards and strict claims: a space won is paid at once, or (strict claims) waits for its claim."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import events as ev
from ..model import Action
from .base import Phase
from .names import PhaseName
from .state import Claim, Share

if TYPE_CHECKING:
    from ..table import Table


def pay_or_claim(game: Table, space: str, seats: list[int], reason: str) -> None:
    """Pay a space to the seats that won it, or with strict claims queue it for their claim.

    One claim covers everything a seat wins at once: all the spaces a card pays (A♥ and the
    second A♥ pocket, K♥ and K-Q, 10♥ and 8-9-10), the cards of a combination played
    together, or a seat's whole holding at the deal. Claims block play, so the queue only ever
    holds the claims of the current card, move or deal. A space is won once per claim: with
    several decks a move may place two copies of its card (a Full House K♦ K♦ A♦ A♥), and the
    second copy finds the space already won, as it would find it empty without strict claims."""
    if not game.options.strict_claims:
        game.split(space, seats, reason)
        return
    claims = game.round.claims
    for s in seats:
        # a shared space's share is fixed now, so the order of the claims does not matter
        part = Share(space, game.mat[space] // len(seats) if len(seats) > 1 else None)
        claim = next((c for c in claims if c.seat == s), None)
        if claim is None:
            claims.append(Claim(s, [part]))
        elif all(p.space != space for p in claim.shares):
            claim.shares.append(part)


def claim_chips(game: Table, claim: Claim) -> list[tuple[str, int]]:
    """(space, chips) of a claim, leaving out spaces with nothing to take."""
    out = [(p.space, game.mat[p.space] if p.chips is None else p.chips) for p in claim.shares]
    return [(space, chips) for space, chips in out if chips > 0]


def wait_for_claims(game: Table) -> bool:
    """With strict claims, each pay card waits for its claim before play goes on (a claim
    that would take nothing, its spaces being empty, is not asked). True: no claim is left."""
    claims = game.round.claims
    while claims:
        paying = claim_chips(game, claims[0])
        if paying:
            return game.wait(
                claims[0].seat,
                PhaseName.CLAIM,
                ["claim", "pass"],
                space=paying[0][0],
                spaces=[space for space, _ in paying],
                chips=sum(c for _, c in paying),
            )
        claims.pop(0)
    return True


class Claims(Phase):
    """The ``claim`` decision; the step that queued the claim goes on afterwards."""

    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.CLAIM,)

    def apply(self, game: Table, a: Action) -> bool:
        claim = game.round.claims.pop(0)
        for space, chips in claim_chips(game, claim):
            if a.do == "claim":
                game.payout(space, claim.seat, chips, "claimed")
            else:
                game.emit(ev.Unclaimed(seat=claim.seat, space=space))
        return game.resume_step()
