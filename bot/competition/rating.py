"""The players' rating: openskill's Plackett-Luce model (a Bayesian rating made for free-for-all games
of any number of players), updated from each finished game's final order.

Every seat counts, in the order of the chips it ended with (equal stacks share their place). A human
seat's rating is its player's :class:`Skill` (``mu``, the estimated skill; ``sigma``, how unsure it
is); an AI seat plays at the fixed strength of its level (:data:`AI_SKILL`), never updated. So a game
against AIs counts, but cannot be farmed: in a game whose other seats are all AIs a player's ``mu``
rises to at most :data:`AI_MARGIN` above the strongest of them (:func:`rate_game`); beating Easy AIs
for ever leaves the shown rating below :data:`EASY_FARM_BOUND`.

Shown as one number (:meth:`Skill.shown`): the conservative estimate ``mu - 3·sigma`` (openskill's
ordinal: the skill the player has, almost surely, at least), scaled to a chess-like range,
``1000 + 20 × (mu − 3·sigma)``: a newcomer shows 1000, an average player who has played a while about
1350, the best several hundred more. Below :data:`PROVISIONAL_GAMES` games the rating is provisional
(shown, not ranked).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3 for a newcomer (openskill's defaults)
PROVISIONAL_GAMES = 5  # games rated before a rating is ranked
SHOWN_BASE = 1000  # the shown rating of a newcomer (ordinal 0)
SHOWN_SCALE = 20  # shown points per point of the ordinal
# The fixed strength (mu, sigma) of each AI level (engine.ai.LEVELS): Easy below a newcomer's
# default, Normal at it (openskill's 25 is the average player), Hard above; a small sigma: they are
# what they are.
AI_SKILL = {"easy": (18.0, 2.0), "normal": (25.0, 2.0), "hard": (30.0, 2.0)}
AI_MARGIN = 6.0  # how far above the strongest AI at the table a game against AIs only can lift mu
# A season's end moves each rating this fraction of the way back to a newcomer's (mu toward 25,
# sigma up toward 25/3): softened, not erased.
SEASON_SOFTENING = 1 / 3


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @classmethod
    def newcomer(cls) -> Skill:
        return cls(MODEL.mu, MODEL.sigma)

    @classmethod
    def of_ai(cls, level: str) -> Skill:
        """An AI level's fixed strength (an unknown level plays as Normal)."""
        return cls(*AI_SKILL.get(level, AI_SKILL["normal"]))

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The one number players see (never below 0)."""
        return max(0, round(SHOWN_BASE + SHOWN_SCALE * self.ordinal))

    def softened(self, fraction: float = SEASON_SOFTENING) -> Skill:
        """This rating moved ``fraction`` of the way back to a newcomer's (a season's end)."""
        start = Skill.newcomer()
        return Skill(self.mu + (start.mu - self.mu) * fraction, self.sigma + (start.sigma - self.sigma) * fraction)


def shown_rating(mu: float, sigma: float) -> int:
    return Skill(mu, sigma).shown


# The shown rating that beating the weakest AI again and again never reaches: mu stays at most a
# newcomer's 25 (Easy's 18 + AI_MARGIN is below it), and the ordinal is below mu.
EASY_FARM_BOUND = Skill(max(MODEL.mu, AI_SKILL["easy"][0] + AI_MARGIN), 0.0).shown


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game, as the rating sees it: its skill before the game, the chips it
    ended with, and whether an AI played it (its skill is then fixed)."""

    skill: Skill
    final: int
    is_ai: bool


def final_places(finals: Sequence[int]) -> list[int]:
    """Each seat's place from its final chips (0 first; equal stacks share the better place)."""
    return [sum(1 for other in finals if other > mine) for mine in finals]


def rate_game(seats: Sequence[Entrant]) -> list[Skill]:
    """Every seat's skill after the game, in the seats' order (an AI seat's unchanged)."""
    if len(seats) < 2:
        return [seat.skill for seat in seats]
    teams = [[MODEL.create_rating([seat.skill.mu, seat.skill.sigma])] for seat in seats]
    rated = MODEL.rate(teams, ranks=[float(p) for p in final_places([s.final for s in seats])])
    after = []
    for i, seat in enumerate(seats):
        if seat.is_ai:
            after.append(seat.skill)
            continue
        mu, sigma = rated[i][0].mu, rated[i][0].sigma
        others = [other for j, other in enumerate(seats) if j != i]
        if all(other.is_ai for other in others):  # AIs only: no farming past the strongest of them
            ceiling = max(other.skill.mu for other in others) + AI_MARGIN
            mu = min(mu, max(seat.skill.mu, ceiling))
        after.append(Skill(mu, sigma))
    return after
