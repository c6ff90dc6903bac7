"""The phases of a round, one module each, and the one table that registers them.

A preset's ``order`` names the steps of its round; ``STEP`` finds the phase that starts each,
``DECISION`` the phase that checks and applies each ``Awaiting.phase``. A new phase is a module
with a ``Phase`` subclass and one line in ``PHASES`` (docs/engine-api.md).
"""

from __future__ import annotations

from .base import Phase
from .claims import Claims
from .clearing import InterestPrep
from .corner import CornerBet, CornerCollect
from .deal import Ante, Deal, Settle
from .michigan import Michigan
from .paycards import PayCards
from .poker import Poker, ToPoker
from .spare import SpareHand
from .suitbid import SuitBid
from .wanagan import Wanagan

PHASES: tuple[Phase, ...] = (
    Ante(),
    Deal(),
    SpareHand(),
    SuitBid(),
    CornerBet(),
    CornerCollect(),
    PayCards(),
    Claims(),
    Poker(),
    ToPoker(),
    Michigan(),
    Wanagan(),
    InterestPrep(),
    Settle(),
)

STEP: dict[str, Phase] = {step: phase for phase in PHASES for step in phase.steps}
DECISION: dict[str, Phase] = {decision: phase for phase in PHASES for decision in phase.decisions}
