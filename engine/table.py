"""The core every phase works on: the table's chips and seats, the round in play, and waiting.

``Table`` holds the state of a game (``Game`` adds the public API on top). Phases move chips
only through its ledger (``to_space``, ``payout``, ``transfer``, ``move``, ``split``), which
emits the chip events, so no chip is ever created or lost; they ask a seat to decide with
``wait``. ``RoundState`` is one round: the core fields every phase shares, then one typed
state per phase (docs/engine-api.md, "How the engine is organised").
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import cards as C
from . import events as ev
from .events import Event, EventT
from .language import N_
from .model import IllegalAction
from .options import Options
from .phases.names import SIMULTANEOUS, PhaseName
from .phases.state import AuctionState, Claim, CornerState, MichiganState, PayTriggers, PokerState, Wait, WanaganState
from .presets import CARD, COMBO, LOSERS, MICHIGAN, PAY_SUIT, POKER, RUN, Preset, Space, get_preset, spaces_for

INTEREST_ORDER = ("deal", "interest-prep", "michigan")  # a board-clearing hand (endgame=michigan-interests)


def decks_for_players(n: int) -> int:
    """Rulebook: 1 deck for 2–5 players, 2 for 6–10, 3 for 11–15, 4 for 16–20."""
    return max(1, min(4, (n - 1) // 5 + 1))


@dataclass(slots=True)
class RoundState:
    """One round (or one board-clearing hand); saved whole, so a game resumes at any decision."""

    number: int
    dealer: int
    ante: int
    active: list[int]  # seats dealt in, clockwise from the dealer's left
    hands: list[list[int]]
    spare: list[int] = field(default_factory=list)
    step: int = 0  # index into the order of steps being played
    wait: Wait | None = None
    pay_suit: int = C.HEARTS
    events: list[Event] = field(default_factory=list)
    # the seat whose decision was applied last: with several decks, where "the first holder" is looked for
    last_actor: int | None = None
    payouts: list[dict[str, Any]] = field(default_factory=list)
    deck: list[int] | None = None  # the deck to deal, until the deal step runs
    dealer_mult: int = 1  # 2 when the dealer antes double this round
    interest: dict[str, int] | None = None  # board clearing by Michigan interests: space id → share per placement
    # the phases' own states
    spare_stage: str = ""
    auction: AuctionState | None = None
    claims: list[Claim] = field(default_factory=list)  # strict claims, in turn
    poker: PokerState = field(default_factory=PokerState)
    michigan: MichiganState = field(default_factory=MichiganState)
    corner: CornerState | None = None
    wanagan: WanaganState | None = None
    # A decision every seat makes at once (``Phase.together``): the choices made so far, as action
    # dicts in seat order, held unseen until the last seat asked has chosen (then applied in turn).
    sealed: list[dict[str, Any]] = field(default_factory=list)


class Table(ABC):
    """The state of one table's game and the moves every phase is made of."""

    def __init__(
        self, preset_key: str, options: Options, players: list[str], clock: Callable[[], float] | None = None
    ) -> None:
        self.clock: Callable[[], float] = clock or time.time
        self.preset_key = preset_key
        self.options = options
        self.players = [str(x) for x in players]
        self.seed = 0
        self.rng = random.Random(0)
        self.stacks: list[int] = [0] * len(self.players)
        self.initial_stacks: list[int] = [0] * len(self.players)
        self.eliminated = [False] * len(self.players)
        self.round_number = 0
        self.r: RoundState | None = None
        self.log: list[dict[str, Any]] = []  # one record per round: dealer, payouts, poker, michigan, events
        self.game_events: list[Event] = []  # events outside rounds (dealer cut, playoff)
        self.started_at = 0.0
        self.over = False
        self.finished = False
        self.playoff_result: dict[str, Any] | None = None
        self.dealer = 0
        # What the replay export needs beyond the log (each round's deck and actions are in the log).
        self.record: dict[str, Any] | None = None
        # Seats asked about the next card even when playing it is their only choice (Great Lakes):
        # a table sets it so that being asked tells nobody whether a combination is possible. Not
        # a rule and not saved: such a wait has ``detail["forced"]`` and its "play" is no decision
        # (a replay leaves it out; without the flag the engine plays the card itself).
        self.ask_holders: frozenset[int] = frozenset()
        self.triggers = PayTriggers()  # what pays when placed in the Michigan being played
        self.preset: Preset = get_preset(preset_key)
        self.spaces: tuple[Space, ...] = ()
        self.space_by_id: dict[str, Space] = {}
        self.kitty_id: str | None = None
        self.pot_id: str | None = None
        self.poker_low = False
        self.n_decks = 1
        self.mat: dict[str, int] = {}
        self._money_cards: dict[int, frozenset[int]] = {}  # by pay suit: cards that pay on this mat
        # the waits of the decision in play, worked out for (round, wait): see ``asked_together``
        self._together: tuple[RoundState, Wait, list[Wait]] | None = None
        self.set_mat(empty=True)

    def set_mat(self, empty: bool) -> None:
        """Lay out the preset's mat (``empty``: every space at 0 chips; else the chips stay)."""
        self.preset = get_preset(self.preset_key)
        self.spaces = spaces_for(self.preset, self.options)
        self.space_by_id = {s.id: s for s in self.spaces}
        self.kitty_id = next((s.id for s in self.spaces if s.trigger == MICHIGAN), None)
        self.pot_id = next((s.id for s in self.spaces if s.trigger in (POKER, LOSERS)), None)
        self.poker_low = self.pot_id is not None and self.space_by_id[self.pot_id].trigger == LOSERS
        if empty:
            self.mat = {s.id: 0 for s in self.spaces}
        self._money_cards = {}
        self.n_decks = self.options.decks or (decks_for_players(len(self.players)) if self.preset.rulebook_setup else 1)

    def order(self) -> tuple[str, ...]:
        """The steps of the hand in progress: the preset's round, or a board-clearing hand."""
        return INTEREST_ORDER if self.r is not None and self.r.interest is not None else self.preset.order

    def shuffled_or_checked(self, deck: list[int] | None) -> list[int]:
        """The round's deck: shuffled by the game's RNG, or a given order checked to be complete."""
        want = C.full_deck(self.n_decks)
        if deck is None:
            self.rng.shuffle(want)
            return want
        if sorted(deck) != sorted(want):
            raise IllegalAction(
                N_(
                    "the deck must hold exactly {decks} full deck(s) of 52 cards ({want} cards), got {got} cards"
                    " or duplicates/missing cards"
                ),
                decks=self.n_decks,
                want=len(want),
                got=len(deck),
            )
        return list(deck)

    # ------------------------------------------------------------ seats
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def round(self) -> RoundState:
        """The round in play (phases run only inside one)."""
        assert self.r is not None, "no round in play"
        return self.r

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def next_active(self, seat: int) -> int:
        r = self.r
        assert r is not None, "no round in play"
        act = r.active
        i = act.index(seat) if seat in act else -1
        if i >= 0:
            return act[(i + 1) % len(act)]
        s = seat
        for _ in range(self.n):
            s = (s + 1) % self.n
            if s in act:
                return s
        raise RuntimeError("no active seat")

    def clockwise_from(self, seat: int) -> list[int]:
        """Active seats in turn order starting with ``seat`` (or the next active one)."""
        r = self.r
        assert r is not None, "no round in play"
        act = r.active
        if seat not in act:
            seat = self.next_active(seat)
        i = act.index(seat)
        return act[i:] + act[:i]

    def first_holder_start(self) -> int:
        """Where "the first holder clockwise" of a card is looked for outside Michigan (several
        decks): from the player who acted last, that player first (docs/rules.md); before anyone
        acted, from the dealer's left, where the deal starts."""
        r = self.round
        return r.last_actor if r.last_actor is not None else self.next_active(r.dealer)

    def holder(self, card: int, start: int) -> int | None:
        """The first seat from ``start`` clockwise holding ``card``."""
        r = self.r
        assert r is not None, "no round in play"
        hands = r.hands
        for s in self.clockwise_from(start):
            if card in hands[s]:
                return s
        return None

    # ------------------------------------------------------------ the mat's cards
    def space_cards(self, sp: Space) -> list[int]:
        suit = C.SUITS[self.r.pay_suit] if self.r is not None else "H"
        return [C.parse(t.replace(PAY_SUIT, suit)) for t in sp.cards]

    def money_cards(self) -> frozenset[int]:
        """Cards that pay on this mat (Rulebook: such a hand may not be swapped or bought)."""
        suit = self.r.pay_suit if self.r is not None else C.HEARTS
        cached = self._money_cards.get(suit)
        if cached is None:
            cached = self._money_cards[suit] = frozenset(
                c for sp in self.spaces if sp.trigger in (CARD, COMBO) for c in self.space_cards(sp)
            )
        return cached

    def money_held(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that pay on this mat: its money cards, and every card of a
        whole run of one suit (a single 8, 9 or 10 is in nearly every hand; the whole run pays)."""
        hand = self.round.hands[seat]
        money = self.money_cards()
        held = {c for c in hand if c in money}
        for sp in self.spaces:
            if sp.trigger == RUN:
                for su in range(4):
                    run = [C.make(rk, su) for rk in sp.ranks]
                    if all(c in hand for c in run):
                        held.update(run)
        return sorted(held, key=C.sort_key)

    # ------------------------------------------------------------ decisions
    def wait(self, seat: int, phase: PhaseName, legal: list[str], **detail: Any) -> bool:
        """Ask ``seat`` to decide; returns False (the step is not over) for ``return self.wait(...)``."""
        self.round.wait = Wait(seat, phase, legal, detail)
        return False

    def asked_together(self) -> list[Wait]:
        """The waits of the decision in play, one per seat still asked: every seat of a step decided
        at once (``Phase.together``, in the published seat order, chosen ones included), else the
        one seat to act. Worked out once per wait (a view asks often)."""
        r = self.r
        w = None if r is None or self.finished else r.wait
        if r is None or w is None:
            return []
        if self._together is not None and self._together[0] is r and self._together[1] is w:
            return self._together[2]
        waits = self.together(w) if w.phase in SIMULTANEOUS else [w]
        self._together = (r, w, waits)
        return waits

    @abstractmethod
    def together(self, w: Wait) -> list[Wait]:
        """The waits of every seat asked ``w``'s decision at once: its phase's ``Phase.together``
        (``Game`` knows the phases; the phases work on this class, so it cannot import them)."""

    @abstractmethod
    def resume_step(self) -> bool:
        """Go on with the step in play after a strict claim was settled: its phase's ``Phase.resume``."""

    def pending_waits(self) -> list[Wait]:
        """The seats that may act now, in seat order: those of the decision in play not yet chosen."""
        chosen = {int(a["seat"]) for a in self.round.sealed} if self.r is not None else set()
        return [w for w in self.asked_together() if w.seat not in chosen]

    def wait_of(self, seat: int) -> Wait | None:
        """``seat``'s decision, if it may act now."""
        return next((w for w in self.pending_waits() if w.seat == seat), None)

    # ------------------------------------------------------------ the ledger
    def emit(self, e: EventT) -> EventT:
        """Record ``e`` in the round's events."""
        r = self.r
        assert r is not None, "no round in play"
        r.events.append(e)
        return e

    def to_space(self, seat: int, space: str, amount: int, reason: str) -> int:
        amount = min(amount, self.stacks[seat])
        if amount > 0:
            self.stacks[seat] -= amount
            self.mat[space] += amount
            self.emit(ev.ToSpace(seat=seat, space=space, amount=amount, reason=reason))
        return amount

    def payout(self, space: str, seat: int, amount: int | None = None, reason: str = "") -> int:
        amount = self.mat[space] if amount is None else amount
        if amount > 0:
            self.mat[space] -= amount
            self.stacks[seat] += amount
            self.emit(ev.Payout(space=space, seat=seat, amount=amount, reason=reason))
            self.round.payouts.append({"space": space, "seat": seat, "amount": amount})
            return amount
        return 0

    def transfer(self, frm: int, to: int, amount: int, reason: str) -> int:
        amount = min(amount, self.stacks[frm])
        if amount > 0:
            self.stacks[frm] -= amount
            self.stacks[to] += amount
            self.emit(ev.Transfer(from_seat=frm, to_seat=to, amount=amount, reason=reason))
        return amount

    def move(self, frm: str, to: str) -> None:
        amount = self.mat[frm]
        if amount > 0 and frm != to:
            self.mat[frm] = 0
            self.mat[to] += amount
            self.emit(ev.Move(from_space=frm, to_space=to, amount=amount))

    def split(self, space: str, winners: list[int], reason: str, amount: int | None = None) -> None:
        """Equal shares to ``winners``; the remainder stays on the space (docs/rules.md)."""
        total = self.mat[space] if amount is None else amount
        if not winners or total <= 0:
            return
        share = total // len(winners)
        for w in winners:
            self.payout(space, w, share, reason)
