"""The game: a deterministic state machine over rounds (docs/rules.md).

A round runs the preset's ``order`` of steps. Each step either finishes by
itself (antes, the deal, pay cards at the deal, forced Michigan plays) or
stops on a decision, recorded in ``RoundState.wait``. ``apply`` validates an
action against that wait, applies it, and lets the round run on to the next
decision. Everything a step needs is in ``RoundState`` so a game saved at any
decision resumes exactly.
"""

from __future__ import annotations

import copy
import functools
import itertools
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from . import cards as C
from . import hands as H
from .hands import best_five, category_name, evaluate, worst_five
from .model import Action, Awaiting, Event, IllegalAction, SavedGame
from .options import Options
from .presets import (ACE_TWO, CARD, COMBO, CORNER, FULL_HOUSE_PLAY, HAND, LEAD, LOSERS, MICHIGAN, POKER, RUN,
                      STRAIGHT_PLAY, Preset, Space, get_preset, spaces_for)

INTEREST_ORDER = ("deal", "interest-prep", "michigan")  # a board-clearing hand (endgame=michigan-interests)
DENOMINATIONS = {"white": 1, "red": 5, "blue": 10, "green": 25, "black": 100}
FACE_VALUE = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]  # Rulebook all-stuck count, by rank
WANAGAN_WILD = ("KH", "TD", "7S", "4C")  # wild in the fourth reveal round
WANAGAN_CATEGORIES = {"one-pair": H.ONE_PAIR, "two-pair": H.TWO_PAIR, "three-kind": H.THREE_OF_A_KIND,
                      "four-kind": H.FOUR_OF_A_KIND, "full-house": H.FULL_HOUSE, "straight": H.STRAIGHT,
                      "flush": H.FLUSH}


def decks_for_players(n: int) -> int:
    """Rulebook: 1 deck for 2–5 players, 2 for 6–10, 3 for 11–15, 4 for 16–20."""
    return max(1, min(4, (n - 1) // 5 + 1))


@dataclass
class RoundState:
    number: int
    dealer: int
    ante: int
    active: list[int]  # seats dealt in, clockwise from the dealer's left
    hands: list[list[int]]
    spare: list[int] = field(default_factory=list)
    step: int = 0
    wait: dict | None = None
    pay_suit: int = C.HEARTS
    events: list = field(default_factory=list)
    # spare hand / auctions
    spare_stage: str = ""
    auction: dict | None = None
    # the seat whose decision was applied last: with several decks, where "the first holder" is
    # looked for (docs/rules.md)
    last_actor: int | None = None
    # strict claims, in turn: [seat, [[space id, share or None (the whole space)], ...]]
    claims: list = field(default_factory=list)
    # poker
    chosen: list = field(default_factory=list)  # per seat: list of 5 cards or None
    choose_queue: list = field(default_factory=list)
    folded: list = field(default_factory=list)
    committed: list = field(default_factory=list)
    current_bet: int = 0
    need: list = field(default_factory=list)
    pot_before: int = 0
    poker_winners: list = field(default_factory=list)
    showdown: list | None = None
    poker_hands: dict = field(default_factory=dict)
    last_poker_action: str = ""
    # michigan
    m_state: str = ""  # "lead" or "follow"
    m_seat: int = -1
    m_last: int = -1
    lead_req: dict = field(default_factory=dict)
    passes: int = 0
    seq: list = field(default_factory=list)  # cards of the current sequence
    played: list = field(default_factory=list)  # every card placed, in order
    played_by: list = field(default_factory=list)
    out: int | None = None
    stuck: bool = False
    payouts: list = field(default_factory=list)
    deck: list | None = None  # the deck to deal, until the deal step runs
    dealt: list = field(default_factory=list)  # hands as they stood before Michigan (Rulebook poker)
    dealer_mult: int = 1  # 2 when the dealer antes double this round
    corner: dict | None = None  # Rummy Royal: {"ace", "amount", "backers", "queue"}
    wanagan: dict | None = None  # {"round", "stage", "queue", "picks"} (Wanagan reveal rounds)
    interest: dict | None = None  # board clearing by Michigan interests: space id → share per placement


class Game:
    """One table's game: many rounds of one preset, chips carried between them."""

    def __init__(self) -> None:  # use Game.new / Game.from_json
        self.clock: Callable[[], float] = time.time
        # Seats asked about the next card even when playing it is their only choice (Great Lakes):
        # a table sets it so that being asked tells nobody whether a combination is possible. Not
        # a rule and not saved: such a wait has ``detail["forced"]`` and its "play" is no decision
        # (a replay leaves it out; without the flag the engine plays the card itself).
        self.ask_holders: frozenset[int] = frozenset()

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(
        cls,
        preset: str,
        players: list[str],
        *,
        options: dict[str, Any] | None = None,
        stacks: list[int] | None = None,
        dealer: int | None = None,
        seed: int | None = None,
        clock: Callable[[], float] | None = None,
    ) -> "Game":
        p = get_preset(preset)
        opts = p.options.with_overrides(options)
        n = len(players)
        if not p.min_players <= n <= p.max_players:
            raise ValueError(f"{p.name} takes {p.min_players} to {p.max_players} players, not {n}")
        if stacks is None:
            stacks = [opts.start_stack] * n
        if len(stacks) != n or any((not isinstance(s, int)) or s < 0 for s in stacks):
            raise ValueError("stacks must be one whole, non-negative number per player")
        g = cls()
        if clock is not None:
            g.clock = clock
        g.preset_key = p.key
        g.options = opts
        g.players = [str(x) for x in players]
        g.seed = seed if seed is not None else random.randrange(2**32)
        g.rng = random.Random(g.seed)
        g.stacks = list(stacks)
        g.initial_stacks = list(stacks)
        g._setup_mat()
        g.eliminated = [False] * n
        g.round_number = 0
        g.r: RoundState | None = None
        g.log: list[dict] = []  # one record per round: dealer, payouts, poker, michigan, events
        g.game_events: list = []  # events outside rounds (dealer cut, playoff)
        g.started_at = g.clock()
        g.over = False
        g.finished = False
        g.playoff_result: dict | None = None
        g.dealer = dealer if dealer is not None else g._cut_for_dealer()
        if not 0 <= g.dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
        # What the replay export needs beyond the log (each round's deck and actions are in the log).
        g.record = {"preset": p.key, "options": _overrides(p.options, opts), "stacks": list(stacks),
                    "dealer": dealer, "switches": [], "end": None, "playoff_deck": None}
        return g

    def _setup_mat(self) -> None:
        self.preset: Preset = get_preset(self.preset_key)
        self.spaces: tuple[Space, ...] = spaces_for(self.preset, self.options)
        self.space_by_id = {s.id: s for s in self.spaces}
        self.kitty_id = next((s.id for s in self.spaces if s.trigger == MICHIGAN), None)
        self.pot_id = next((s.id for s in self.spaces if s.trigger in (POKER, LOSERS)), None)
        self.poker_low = self.pot_id is not None and self.space_by_id[self.pot_id].trigger == LOSERS
        if not hasattr(self, "mat"):
            self.mat = {s.id: 0 for s in self.spaces}
        self.n_decks = self.options.decks or (
            decks_for_players(len(self.players)) if self.preset.rulebook_setup else 1
        )

    def _cut_for_dealer(self) -> int:
        """Rulebook presets cut for the deal (highest card, Ace high, ties cut again); others start at seat 0."""
        if not self.preset.rulebook_setup:
            return 0
        contenders = list(range(len(self.players)))
        while True:
            deck = C.shuffled_deck(self.rng)
            cut = {s: deck[i] for i, s in enumerate(contenders)}
            self.game_events.append(Event(type="cut", cards={str(s): C.to_str(c) for s, c in cut.items()}))
            best = max(C.rank_of(c) for c in cut.values())
            contenders = [s for s in contenders if C.rank_of(cut[s]) == best]
            if len(contenders) == 1:
                return contenders[0]

    # ------------------------------------------------------------ accessors
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def phase(self) -> str:
        if self.finished:
            return "finished"
        if self.r is not None and self.r.wait is not None:
            return self.r.wait["phase"]
        return "game-over" if self.over else "round-over"

    def awaiting(self) -> Awaiting | None:
        if self.finished or self.r is None or self.r.wait is None:
            return None
        w = self.r.wait
        return Awaiting(w["seat"], w["phase"], list(w["legal"]), _plain_copy(w["detail"]))

    def current_player(self) -> int | None:
        return None if self.r is None or self.r.wait is None or self.finished else self.r.wait["seat"]

    def legal_actions(self) -> list[str]:
        return [] if self.r is None or self.r.wait is None or self.finished else list(self.r.wait["legal"])

    def total_chips(self) -> int:
        return sum(self.stacks) + sum(self.mat.values())

    @property
    def history(self) -> list[Event]:
        out = list(self.game_events)
        for rec in self.log:
            out.extend(rec["events"])
        return out

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def _next_active(self, seat: int) -> int:
        act = self.r.active
        i = act.index(seat) if seat in act else -1
        if i >= 0:
            return act[(i + 1) % len(act)]
        s = seat
        for _ in range(self.n):
            s = (s + 1) % self.n
            if s in act:
                return s
        raise RuntimeError("no active seat")

    def _clockwise_from(self, seat: int) -> list[int]:
        """Active seats in turn order starting with ``seat`` (or the next active one)."""
        act = self.r.active
        if seat not in act:
            seat = self._next_active(seat)
        i = act.index(seat)
        return act[i:] + act[:i]

    # ---------------------------------------------------------- chips moves
    def _emit(self, **kw: Any) -> Event:
        e = Event(kw)
        self.r.events.append(e)
        return e

    def _to_space(self, seat: int, space: str, amount: int, reason: str) -> int:
        amount = min(amount, self.stacks[seat])
        if amount > 0:
            self.stacks[seat] -= amount
            self.mat[space] += amount
            self._emit(type="to_space", seat=seat, space=space, amount=amount, reason=reason)
        return amount

    def _payout(self, space: str, seat: int, amount: int | None = None, reason: str = "") -> int:
        amount = self.mat[space] if amount is None else amount
        if amount > 0:
            self.mat[space] -= amount
            self.stacks[seat] += amount
            e = self._emit(type="payout", space=space, seat=seat, amount=amount, reason=reason)
            self.r.payouts.append({"space": space, "seat": seat, "amount": amount})
            return e["amount"]
        return 0

    def _transfer(self, frm: int, to: int, amount: int, reason: str) -> int:
        amount = min(amount, self.stacks[frm])
        if amount > 0:
            self.stacks[frm] -= amount
            self.stacks[to] += amount
            self._emit(type="transfer", from_seat=frm, to_seat=to, amount=amount, reason=reason)
        return amount

    def _move(self, frm: str, to: str) -> None:
        amount = self.mat[frm]
        if amount > 0 and frm != to:
            self.mat[frm] = 0
            self.mat[to] += amount
            self._emit(type="move", from_space=frm, to_space=to, amount=amount)

    def _split(self, space: str, winners: list[int], reason: str, amount: int | None = None) -> None:
        """Equal shares to ``winners``; the remainder stays on the space (docs/rules.md)."""
        total = self.mat[space] if amount is None else amount
        if not winners or total <= 0:
            return
        share = total // len(winners)
        for w in winners:
            self._payout(space, w, share, reason)

    # ------------------------------------------------------------- rounds
    def ante_cost(self, seat: int, round_number: int, dealer: int) -> int:
        per = self.options.ante_for_round(round_number)
        cost = sum(per * s.ante for s in self.spaces)
        if self.options.dealer_double_ante and seat == dealer:
            cost *= 2
        return cost

    def next_deal(self, deck: list[int] | list[str] | None = None) -> list[Event]:
        """Deal the next round (or, once the game is over, clear the board)."""
        if self.finished:
            raise IllegalAction("the game is finished")
        if self.r is not None and self.r.wait is not None:
            raise IllegalAction(f"the round is still being played: waiting for seat {self.r.wait['seat']}")
        if deck is not None:
            deck = [C.parse(c) if isinstance(c, str) else int(c) for c in deck]
        if self.over:
            return self._playoff(deck)
        return self._start_round(deck)

    def _start_round(self, deck: list[int] | None) -> list[Event]:
        number = self.round_number + 1
        deck = self._shuffled_or_checked(deck)
        dealer, active, sitting, dealer_mult = self._seat_round(number)
        if len(active) < 2:
            self._note_end("too-few-players")
            self.over = True
            self.game_events.append(Event(type="game-end", reason="fewer than two players can pay the ante"))
            if self._board_clear_pending():
                return []
            self.finished = True
            return []
        self.round_number = number
        self.dealer = dealer
        r = RoundState(
            number=number,
            dealer=dealer,
            ante=self.options.ante_for_round(number),
            active=active,
            hands=[[] for _ in range(self.n)],
            dealer_mult=dealer_mult,
        )
        self.r = r
        r.chosen = [None] * self.n
        r.folded = [False] * self.n
        r.committed = [0] * self.n
        self.log.append({"dealer": dealer, "payouts": r.payouts, "poker": None, "michigan": None, "events": r.events,
                         "deck": C.to_strs(deck), "actions": []})
        self._emit(type="round-start", round=number, dealer=dealer, ante=r.ante)
        for s in sitting:
            self._emit(type="sit-out", seat=s)
        r.deck = deck
        self._advance()
        return list(r.events)

    def _seat_round(self, number: int) -> tuple[int, list[int], list[int], int]:
        """Who deals and who plays this round; players short of the ante sit out (or are eliminated).

        The deal passes left past a player who cannot pay the dealer's ante. If
        nobody can pay a doubled dealer's ante, the double is waived this round
        (decided) rather than leaving the table without a dealer.
        """
        elimination = self.options.game_end == "elimination"
        dealer_mult = 2 if self.options.dealer_double_ante else 1
        dealer = self.dealer
        for mult in dict.fromkeys((dealer_mult, 1)):
            single = self.ante_cost(-1, number, -2)
            candidates = [(self.dealer + k) % self.n for k in range(self.n)]
            found = next((s for s in candidates if not self.eliminated[s] and self.stacks[s] >= single * mult), None)
            if found is not None:
                dealer, dealer_mult = found, mult
                break
        active, sitting = [], []
        for k in range(1, self.n + 1):
            s = (dealer + k) % self.n
            if self.eliminated[s]:
                continue
            cost = self.ante_cost(s, number, -2) * (dealer_mult if s == dealer else 1)
            if self.stacks[s] >= cost:
                active.append(s)
            elif elimination:
                self.eliminated[s] = True
                self.game_events.append(Event(type="eliminated", seat=s))
            else:
                sitting.append(s)
        return dealer, active, sitting, dealer_mult

    def _ante(self) -> None:
        r = self.r
        for s in r.active:
            mult = r.dealer_mult if s == r.dealer else 1
            for sp in self.spaces:
                amount = r.ante * sp.ante * mult
                if amount == 0:
                    continue
                self.stacks[s] -= amount
                self.mat[sp.id] += amount
                self._emit(type="ante", seat=s, space=sp.id, amount=amount)

    def _shuffled_or_checked(self, deck: list[int] | None) -> list[int]:
        """The round's deck: shuffled by the game's RNG, or a given order checked to be complete."""
        want = C.full_deck(self.n_decks)
        if deck is None:
            self.rng.shuffle(want)
            return want
        if sorted(deck) != sorted(want):
            raise IllegalAction(
                f"the deck must hold exactly {self.n_decks} full deck(s) of 52 cards "
                f"({len(want)} cards), got {len(deck)} cards or duplicates/missing cards"
            )
        return list(deck)

    def _deal(self, deck: list[int]) -> None:
        r = self.r
        # Turn order: left of dealer first ... dealer, then the spare hand right after the dealer.
        order = r.active  # already starts left of the dealer and ends with the dealer
        slots = len(order) + 1
        hands = [[] for _ in range(slots)]
        for i, card in enumerate(deck):
            hands[i % slots].append(card)
        for k, s in enumerate(order):
            r.hands[s] = hands[k]
        r.spare = hands[-1]
        self._emit(type="deal", cards={str(s): len(r.hands[s]) for s in order}, spare=len(r.spare))

    # ----------------------------------------------------------- the loop
    def _order(self) -> tuple[str, ...]:
        """The steps of the hand in progress: the preset's round, or a board-clearing hand."""
        return INTEREST_ORDER if self.r is not None and self.r.interest is not None else self.preset.order

    def _advance(self) -> None:
        r = self.r
        order = self._order()
        while r.wait is None and r.step < len(order):
            step = order[r.step]
            finished = getattr(self, "_step_" + step.replace("-", "_"))()
            if finished:
                r.step += 1
        if r.wait is None and r.step >= len(order):
            if r.interest is not None:
                self._after_interest_hand()
            else:
                self._after_round()

    def _wait(self, seat: int, phase: str, legal: list[str], **detail: Any) -> bool:
        self.r.wait = {"seat": seat, "phase": phase, "legal": legal, "detail": detail}
        return False

    def _done_step(self) -> None:
        self.r.wait = None
        self.r.step += 1

    # ---------------------------------------------------------- step: ante/deal (done in _start_round)
    def _step_ante(self) -> bool:
        self._ante()
        return True

    def _step_deal(self) -> bool:
        deck, self.r.deck = self.r.deck, None
        self._deal(deck)
        return True

    # ---------------------------------------------------------- step: spare hand
    def _money_cards(self) -> set[int]:
        """Cards that pay on this mat (Rulebook: such a hand may not be swapped or bought)."""
        out: set[int] = set()
        for sp in self.spaces:
            if sp.trigger in (CARD, COMBO):
                out.update(self._space_cards(sp))
        return out

    def _space_cards(self, sp: Space) -> list[int]:
        suit = C.SUITS[self.r.pay_suit] if self.r is not None else "H"
        return [C.parse(t.replace("*", suit)) for t in sp.cards]

    def _money_held(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that pay on this mat: its money cards, and every card of a
        whole run of one suit (a single 8, 9 or 10 is in nearly every hand; the whole run pays)."""
        hand = self.r.hands[seat]
        money = self._money_cards()
        held = {c for c in hand if c in money}
        for sp in self.spaces:
            if sp.trigger == RUN:
                for su in range(4):
                    run = [C.make(rk, su) for rk in sp.ranks]
                    if all(c in hand for c in run):
                        held.update(run)
        return sorted(held, key=C.sort_key)

    def _holds_money_card(self, seat: int) -> bool:
        return bool(self._money_held(seat))

    def _pay_card_warning(self, seat: int, doing: str) -> dict[str, str]:
        """Rummoli: players holding a pay card "should not" swap or buy the widow. A warning, not a
        bar: shown to that seat only (it is part of the decision's detail)."""
        if self.options.spare_hand != "rummoli":
            return {}
        held = self._money_held(seat)
        if not held:
            return {}
        return {"warning": f"you hold pay cards ({' '.join(C.to_strs(held))}): the rules advise against {doing}"}

    def _step_spare(self) -> bool:
        r = self.r
        mode = self.options.spare_hand
        if mode == "none" or not r.spare:
            return True
        r.spare_stage = "decide"
        return self._spare_decision()

    def _spare_decision(self) -> bool:
        r = self.r
        mode = self.options.spare_hand
        stage = r.spare_stage
        if stage == "decide":
            legal = ["keep", "swap", "auction"]
            if mode == "rummoli":
                legal = ["keep", "swap", "look", "auction"]
            if mode == "rulebook" and self._holds_money_card(r.dealer):
                legal.remove("swap")
            if mode == "rulebook" and not self._auction_bidders("spare"):
                legal.remove("auction")
        elif stage == "after-swap":
            legal = ["keep", "auction"]
        elif stage == "after-auction":
            legal = ["keep", "swap"]
        else:  # pragma: no cover - defensive
            raise RuntimeError(stage)
        if legal == ["keep"]:
            return True
        warning = self._pay_card_warning(r.dealer, "swapping your hand") if "swap" in legal else {}
        return self._wait(r.dealer, "spare-hand", legal, stage=stage, spare_cards=len(r.spare), **warning)

    def _swap_with_spare(self, seat: int, reason: str) -> None:
        r = self.r
        r.hands[seat], r.spare = r.spare, r.hands[seat]
        self._emit(type="swap", seat=seat, reason=reason)

    def _auction_bidders(self, kind: str) -> list[int]:
        r = self.r
        if kind == "suit":
            return self._clockwise_from(r.dealer)
        bidders = [s for s in self._clockwise_from(self.left_of(r.dealer)) if s != r.dealer]
        if self.options.spare_hand == "rulebook":
            bidders = [s for s in bidders if not self._holds_money_card(s)]
        return bidders

    def spare_auction_exclusions(self) -> dict[int, str]:
        """The seats playing this round that may not bid for the spare hand, each with the rule that
        keeps it out (for telling players why they were skipped)."""
        r = self.r
        bidders = set(self._auction_bidders("spare"))
        return {s: "the dealer, who sells it" if s == r.dealer else "a money card of this mat in hand"
                for s in r.active if s not in bidders}

    def _start_auction(self, kind: str, stage: str) -> bool:
        r = self.r
        r.auction = {"kind": kind, "stage": stage, "bidders": self._auction_bidders(kind), "turn": 0,
                     "high": 0, "high_bidder": None}
        self._emit(type="auction", kind=kind)
        return self._auction_next()

    def _auction_next(self) -> bool:
        """Ask the next bidder in turn, or close the auction."""
        r = self.r
        a = r.auction
        while True:
            bidders = a["bidders"]
            if not bidders or (len(bidders) == 1 and a["high_bidder"] == bidders[0]):
                return self._close_auction()
            a["turn"] %= len(bidders)
            seat = bidders[a["turn"]]
            if self.stacks[seat] <= a["high"]:  # cannot outbid: passes by force
                self._emit(type="pass", seat=seat, kind=a["kind"], forced=True)
                bidders.pop(a["turn"])
                continue
            phase = "suit-bid" if a["kind"] == "suit" else "auction"
            verb = "suit_bid" if a["kind"] == "suit" else "bid"
            warning = self._pay_card_warning(seat, "buying the widow") if a["kind"] == "spare" else {}
            return self._wait(seat, phase, [verb, "pass"], min=a["high"] + 1, max=self.stacks[seat],
                              high_bid=a["high"], high_bidder=a["high_bidder"], **warning)

    def _close_auction(self) -> bool:
        r = self.r
        a = r.auction
        r.auction = None
        r.wait = None
        winner, price = a["high_bidder"], a["high"]
        if a["kind"] == "suit":
            if winner is None:
                self._emit(type="suit", suit="H", reason="nobody bid")
                return self._finish_and_continue()
            self._to_space(winner, self.kitty_id, price, "suit bid")
            return self._wait(winner, "name-suit", ["name_suit"], suits=list(C.SUITS))
        if winner is not None:
            self._transfer(winner, r.dealer, price, "spare hand")
            self._swap_with_spare(winner, "bought")
            return self._finish_and_continue()
        self._emit(type="no-bids")
        if a["stage"] == "decide" and self.options.spare_hand == "swap-or-auction":
            r.spare_stage = "after-auction"
            return self._spare_decision_and_continue()
        return self._finish_and_continue()

    def _finish_and_continue(self) -> bool:
        """The current step is complete: move on (called from inside actions)."""
        self._done_step()
        return False

    def _spare_decision_and_continue(self) -> bool:
        if self._spare_decision():
            self._done_step()
        return False

    def _act_spare_hand(self, a: Action) -> None:
        r = self.r
        if a.do == "keep":
            self._emit(type="keep", seat=a.seat)
            self._done_step()
        elif a.do in ("swap", "look"):
            self._swap_with_spare(a.seat, "looked" if a.do == "look" else "blind")
            if self.options.spare_hand in ("rulebook", "exchange-or-sell") or not self._auction_bidders("spare"):
                self._done_step()
            else:
                r.spare_stage = "after-swap"
                self._spare_decision_and_continue()
        elif a.do == "auction":
            r.wait = None
            self._start_auction("spare", r.spare_stage)

    def _act_auction(self, a: Action) -> None:
        r = self.r
        au = r.auction
        if a.do == "pass":
            self._emit(type="pass", seat=a.seat, kind=au["kind"])
            au["bidders"].pop(au["turn"])
        else:
            au["high"], au["high_bidder"] = a.amount, a.seat
            self._emit(type="bid", seat=a.seat, amount=a.amount, kind=au["kind"])
            au["turn"] += 1
        r.wait = None
        self._auction_next()

    _act_suit_bid = _act_auction

    def _check_bid(self, a: Action) -> None:
        w = self.r.wait
        if a.do in ("bid", "suit_bid"):
            if a.amount is None:
                raise IllegalAction(f"{a.do} needs an amount")
            if a.amount < w["detail"]["min"]:
                raise IllegalAction(f"bid must be at least {w['detail']['min']} (the high bid is {w['detail']['high_bid']})")
            if a.amount > self.stacks[a.seat]:
                raise IllegalAction(f"bid {a.amount} is more than your {self.stacks[a.seat]} chips")

    # ---------------------------------------------------------- step: optional suit
    def _step_suit_bid(self) -> bool:
        if not self.options.optional_suit:
            return True
        self._start_auction("suit", "")
        return False

    def _act_name_suit(self, a: Action) -> None:
        suit = C.parse_suit(a.suit or "")
        self.r.pay_suit = suit
        self._emit(type="suit", seat=a.seat, suit=C.SUITS[suit])
        self._done_step()

    def _check_name_suit(self, a: Action) -> None:
        try:
            C.parse_suit(a.suit or "")
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    # ---------------------------------------------------------- step: pay cards at the deal
    def _step_paycards(self) -> bool:
        if self.options.paycards != "deal":
            return True
        r = self.r
        order = self._clockwise_from(self._first_holder_start())
        for sp in self.spaces:
            if sp.trigger == CARD:
                card = self._space_cards(sp)[0]
                holder = next((s for s in order if card in r.hands[s]), None)
                if holder is not None:
                    self._pay_or_claim(sp.id, [holder], "held")
            elif sp.trigger == COMBO:
                need = self._space_cards(sp)
                holder = next((s for s in order if all(c in r.hands[s] for c in need)), None)
                if holder is not None:
                    self._pay_or_claim(sp.id, [holder], "held")
            elif sp.trigger == RUN:
                holders = [s for s in order if self._holds_run(r.hands[s], sp.ranks)]
                if holders:
                    self._pay_or_claim(sp.id, holders, "held")
        return self._claims_wait()

    def _holds_run(self, hand: list[int], ranks: tuple[int, ...]) -> bool:
        return any(all(C.make(rk, su) in hand for rk in ranks) for su in range(4))

    def _pay_or_claim(self, space: str, seats: list[int], reason: str) -> None:
        """Pay a space to the seats that won it, or with strict claims queue it for their claim.

        One claim covers everything a seat wins at once: all the spaces a card pays (A♥ and the
        second A♥ pocket, K♥ and K-Q, 10♥ and 8-9-10), the cards of a combination played
        together, or a seat's whole holding at the deal. Claims block play, so the queue only ever
        holds the claims of the current card, move or deal."""
        if not self.options.strict_claims:
            self._split(space, seats, reason)
            return
        for s in seats:
            # a shared space's share is fixed now, so the order of the claims does not matter
            part = [space, self.mat[space] // len(seats) if len(seats) > 1 else None]
            claim = next((c for c in self.r.claims if c[0] == s), None)
            if claim is None:
                self.r.claims.append([s, [part]])
            else:
                claim[1].append(part)

    def _claim_parts(self, parts: list) -> list[tuple[str, int]]:
        """(space, chips) of a claim, leaving out spaces with nothing to take."""
        out = [(space, self.mat[space] if share is None else share) for space, share in parts]
        return [(space, chips) for space, chips in out if chips > 0]

    def _claims_wait(self) -> bool:
        """With strict claims, each pay card waits for its claim before play goes on (a claim
        that would take nothing, its spaces being empty, is not asked)."""
        r = self.r
        while r.claims:
            seat, parts = r.claims[0]
            paying = self._claim_parts(parts)
            if paying:
                return self._wait(seat, "claim", ["claim", "pass"], space=paying[0][0],
                                  spaces=[space for space, _ in paying], chips=sum(c for _, c in paying))
            r.claims.pop(0)
        return True

    def _act_claim(self, a: Action) -> None:
        r = self.r
        seat, parts = r.claims.pop(0)
        for space, chips in self._claim_parts(parts):
            if a.do == "claim":
                self._payout(space, seat, chips, "claimed")
            else:
                self._emit(type="unclaimed", seat=seat, space=space)
        r.wait = None
        if self._order()[r.step] == "michigan":
            self._michigan_run()
        elif self._claims_wait():
            self._done_step()

    # ---------------------------------------------------------- step: poker
    def _first_bettor(self) -> int:
        r = self.r
        if self.options.poker_first_bettor == "dealer":
            return r.dealer
        return self._next_active(r.dealer)

    def _poker_cards(self, seat: int) -> list[int]:
        """Rulebook poker (after Michigan) uses the whole dealt hand; cards placed stay in front of their owner."""
        r = self.r
        return r.dealt[seat] if r.dealt else r.hands[seat]

    def _step_poker(self) -> bool:
        self.r.choose_queue = self._clockwise_from(self._first_bettor())
        return self._poker_choose_next()

    def _poker_choose_next(self) -> bool:
        r = self.r
        while r.choose_queue:
            seat = r.choose_queue[0]
            cards = self._poker_cards(seat)
            if len(cards) <= 5:
                r.chosen[seat] = list(cards)
                r.choose_queue.pop(0)
                self._emit(type="choose", seat=seat)
                continue
            best = worst_five(cards) if self.poker_low else best_five(cards)
            return self._wait(seat, "poker-choose", ["choose"], cards=C.to_strs(C.sorted_hand(cards)),
                              best=C.to_strs(best.cards))
        return self._start_betting()

    def _check_choose(self, a: Action) -> None:
        if not a.cards or len(a.cards) != 5:
            raise IllegalAction("choose exactly five cards for your poker hand")
        try:
            picked = _parse_cards(a.cards)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        pool = list(self._poker_cards(a.seat))
        for c in picked:
            if c not in pool:
                raise IllegalAction(f"{C.to_str(c)} is not in your hand")
            pool.remove(c)

    def _act_choose(self, a: Action) -> None:
        r = self.r
        r.chosen[a.seat] = _parse_cards(a.cards)
        r.choose_queue.pop(0)
        self._emit(type="choose", seat=a.seat)
        r.wait = None
        if self._poker_choose_next():
            self._done_step()

    def _start_betting(self) -> bool:
        r = self.r
        r.pot_before = self.mat[self.pot_id]
        r.current_bet = 0
        order = self._clockwise_from(self._first_bettor())
        r.need = [s for s in order if self.stacks[s] > 0]
        if len(r.need) < 2:
            r.need = []
        return self._betting_next()

    def _in_hand(self) -> list[int]:
        r = self.r
        return [s for s in r.active if not r.folded[s]]

    def _betting_next(self) -> bool:
        r = self.r
        while r.need:
            if len(self._in_hand()) <= 1:
                r.need = []
                break
            seat = r.need[0]
            if r.folded[seat] or self.stacks[seat] == 0:
                r.need.pop(0)
                continue
            # Nobody else can still put chips in and this seat has matched: nothing to decide.
            others_live = [s for s in self._in_hand() if s != seat and self.stacks[s] > 0]
            to_call = r.current_bet - r.committed[seat]
            if not others_live and to_call <= 0:
                r.need.pop(0)
                continue
            stack = self.stacks[seat]
            cap = self._raise_cap()
            if to_call <= 0:
                if r.current_bet > 0 and cap < 1:  # matched, and the round's total limit is reached
                    r.need.pop(0)
                    continue
                legal = ["check"] + (["bet"] if others_live else [])
                detail = {"to_call": 0, "min": 1, "max": min(cap, stack), "current_bet": r.current_bet}
                if r.current_bet > 0 and others_live:
                    legal = ["check", "raise"]
            else:
                legal = ["fold", "call"]
                if stack > to_call and others_live and cap >= 1:
                    legal.append("raise")
                detail = {"to_call": min(to_call, stack), "min": 1, "max": max(0, min(cap, stack - to_call)),
                          "current_bet": r.current_bet}
            return self._wait(seat, "poker-betting", legal, **detail)
        return self._showdown()

    def _raise_cap(self) -> int:
        """The largest bet or raise allowed now: ``bet_limit`` per bet or raise, or (scope ``total``)
        what keeps every player's chips in this betting round within ``bet_limit``."""
        lim = self.options.bet_limit
        return lim if self.options.bet_limit_scope == "per-bet" else lim - self.r.current_bet

    def _check_betting(self, a: Action) -> None:
        r = self.r
        lim = self.options.bet_limit
        to_call = r.current_bet - r.committed[a.seat]
        stack = self.stacks[a.seat]
        if a.do in ("bet", "raise"):
            if a.amount is None or a.amount < 1:
                raise IllegalAction(f"{a.do} needs an amount of at least 1")
            if self.options.bet_limit_scope == "total" and a.amount > self._raise_cap():
                raise IllegalAction(
                    f"{a.do} {a.amount} would bring your chips in this betting round to "
                    f"{r.current_bet + a.amount}, over the limit of {lim} a player"
                )
            if a.amount > lim:
                raise IllegalAction(f"{a.do} exceeds bet_limit {lim}")
            if max(to_call, 0) + a.amount > stack:
                raise IllegalAction(
                    f"{a.do} {a.amount} needs {max(to_call, 0) + a.amount} chips; you have {stack}"
                )

    def _act_betting(self, a: Action) -> None:
        r = self.r
        seat = a.seat
        to_call = max(0, r.current_bet - r.committed[seat])
        name = self.players[seat]
        r.need.pop(0)
        if a.do == "check":
            self._emit(type="check", seat=seat)
            r.last_poker_action = f"{name} checks"
        elif a.do == "fold":
            r.folded[seat] = True
            self._emit(type="fold", seat=seat)
            r.last_poker_action = f"{name} folds"
        elif a.do == "call":
            paid = self._to_space(seat, self.pot_id, to_call, "call")
            r.committed[seat] += paid
            self._emit(type="call", seat=seat, amount=paid, all_in=self.stacks[seat] == 0)
            r.last_poker_action = f"{name} calls {paid}" + (" (all in)" if self.stacks[seat] == 0 else "")
        else:  # bet / raise
            paid = self._to_space(seat, self.pot_id, to_call + a.amount, a.do)
            r.committed[seat] += paid
            r.current_bet = r.committed[seat]
            self._emit(type=a.do, seat=seat, amount=a.amount, all_in=self.stacks[seat] == 0)
            r.last_poker_action = f"{name} {a.do}s {a.amount}" + (" (all in)" if self.stacks[seat] == 0 else "")
            order = self._clockwise_from(self._next_active(seat))
            r.need = [s for s in order if s != seat and not r.folded[s] and self.stacks[s] > 0]
        r.wait = None
        if self._betting_next():
            self._done_step()

    def _showdown(self) -> bool:
        """Award the Pot space: main pot and side pots by contribution levels (docs/rules.md)."""
        r = self.r
        pot = self.pot_id
        live = self._in_hand()
        total = self.mat[pot]
        poker_rec: dict[str, Any] = {"winners": [], "hands": {}}
        if len(live) == 1:
            self._payout(pot, live[0], total, "poker")
            r.poker_winners = [live[0]]
            poker_rec["winners"] = [live[0]]
            self._emit(type="poker-win", seat=live[0], shown=False)
        else:
            values = {s: evaluate(r.chosen[s]) for s in live}
            r.showdown = [
                {"seat": s, "cards": C.to_strs(r.chosen[s]), "hand": category_name(values[s])} for s in live
            ]
            r.poker_hands = {str(s): category_name(values[s]) for s in live}
            poker_rec["hands"] = dict(r.poker_hands)
            self._emit(type="showdown", hands={str(s): {"cards": C.to_strs(r.chosen[s]),
                                                        "hand": category_name(values[s])} for s in live})
            levels = sorted({r.committed[s] for s in live})
            prev = 0
            main_winners: list[int] | None = None
            all_winners: list[int] = []
            for i, level in enumerate(levels):
                layer = sum(min(c, level) - min(c, prev) for c in r.committed)
                if i == 0:
                    layer += r.pot_before
                if i == len(levels) - 1:  # chips committed above every live player's level
                    layer += sum(max(0, c - level) for c in r.committed)
                eligible = [s for s in live if r.committed[s] >= level]
                best = (min if self.poker_low else max)(values[s] for s in eligible)
                winners = [s for s in eligible if values[s] == best]
                if main_winners is None:
                    main_winners = winners
                self._split(pot, winners, "poker", min(layer, self.mat[pot]))
                all_winners.extend(w for w in winners if w not in all_winners)
                prev = level
            r.poker_winners = self._clockwise_from(self._next_active(r.dealer))
            r.poker_winners = [s for s in r.poker_winners if s in (main_winners or [])]
            poker_rec["winners"] = list(r.poker_winners)
        self.log[-1]["poker"] = poker_rec
        return True

    # ---------------------------------------------------------- step: Michigan
    def _step_michigan(self) -> bool:
        r = self.r
        opt = self.options
        if opt.michigan_leader == "dealer":
            leader = r.dealer
        elif opt.michigan_leader == "left-of-dealer":
            leader = self._next_active(r.dealer)
        else:
            leader = r.poker_winners[0] if r.poker_winners else r.dealer
        first = opt.first_lead
        if first == "lowest-card":
            r.lead_req = {"kind": "lowest"}
        elif first == "lowest-of-chosen-suit":
            r.lead_req = {"kind": "chosen"}
        else:
            r.lead_req = {"kind": "lowest", "colour": "black"}
        r.m_state, r.m_seat, r.passes = "lead", leader, 0
        if "poker" in self._order()[r.step:]:
            r.dealt = [list(h) for h in r.hands]
        self._build_play_triggers()
        self._michigan_run()
        return False

    def _build_play_triggers(self) -> None:
        self._card_pays: dict[int, list[str]] = {}
        self._combo_pays: list[tuple[str, list[int]]] = []
        self._run_pays: list[tuple[str, tuple[int, ...]]] = []
        self._lead_pays = [(sp.id, sp.trigger, sp.ranks[0] if sp.ranks else C.TWO)
                           for sp in self.spaces if sp.trigger in (LEAD, ACE_TWO)]
        self._play_combos = {sp.trigger: sp.id for sp in self.spaces if sp.trigger in (FULL_HOUSE_PLAY, STRAIGHT_PLAY)}
        self._interest_pays: dict[int, list[str]] = {}
        if self.r.interest is not None:
            # Board clearing: only the interests pay (docs/rules.md, Cadaco's method).
            self._lead_pays, self._play_combos = [], {}
            for sp in self.spaces:
                if sp.id in self.r.interest:
                    cards = ([c for c in range(52) if c >> 2 in sp.ranks] if sp.trigger == RUN
                             else self._space_cards(sp))
                    for c in cards:
                        self._interest_pays.setdefault(c, []).append(sp.id)
            return
        if self.options.paycards != "play":
            return
        for sp in self.spaces:
            if sp.trigger == CARD:
                self._card_pays.setdefault(self._space_cards(sp)[0], []).append(sp.id)
            elif sp.trigger == COMBO:
                self._combo_pays.append((sp.id, self._space_cards(sp)))
            elif sp.trigger == RUN:
                self._run_pays.append((sp.id, sp.ranks))

    def _lead_options(self, seat: int) -> list[int]:
        req = self.r.lead_req
        hand = self.r.hands[seat]
        cands = hand
        if "exclude" in req:
            ex = req["exclude"]
            cands = [c for c in cands if c & 3 != ex]
        if "colour" in req:
            red = req["colour"] == "red"
            cands = [c for c in cands if ((c & 3) in (C.DIAMONDS, C.HEARTS)) == red]
        if not cands:
            return []
        if req["kind"] == "lowest":
            low = min(c >> 2 for c in cands)
            return sorted({c for c in cands if c >> 2 == low})
        lows: dict[int, int] = {}
        for c in cands:
            s = c & 3
            if s not in lows or c < lows[s]:
                lows[s] = c
        return sorted(lows.values(), key=C.sort_key)

    def _first_holder_start(self) -> int:
        """Where "the first holder clockwise" of a card is looked for outside Michigan (several
        decks): from the player who acted last, that player first (docs/rules.md); before anyone
        acted, from the dealer's left, where the deal starts."""
        r = self.r
        return r.last_actor if r.last_actor is not None else self._next_active(r.dealer)

    def _holder(self, card: int, start: int) -> int | None:
        for s in self._clockwise_from(start):
            if card in self.r.hands[s]:
                return s
        return None

    def _place(self, seat: int, card: int, how: str) -> None:
        r = self.r
        r.hands[seat].remove(card)
        r.played.append(card)
        r.played_by.append(seat)
        r.seq.append(card)
        self._emit(type="play", seat=seat, card=C.to_str(card), how=how)
        for sid in self._interest_pays.get(card, ()):
            self._payout(sid, seat, min(r.interest[sid], self.mat[sid]), "interest")
        if self.options.paycards == "play" and r.interest is None:
            for sid in self._card_pays.get(card, ()):
                self._pay_or_claim(sid, [seat], "placed")
            for sid, need in self._combo_pays:
                k = len(need)
                if card == need[-1] and r.seq[-k:] == need:
                    self._pay_or_claim(sid, [seat], "placed")
            for sid, ranks in self._run_pays:
                if card >> 2 == ranks[-1]:
                    su = card & 3
                    want = [C.make(rk, su) for rk in ranks]
                    if r.seq[-len(want):] == want:
                        self._pay_or_claim(sid, [seat], "placed")
        if not r.hands[seat] and r.out is None:
            r.out = seat

    def _after_stop_req(self, stop_card: int) -> dict:
        s = stop_card & 3
        opposite = "black" if C.is_red(stop_card) else "red"
        rule = self.options.after_stop
        if rule == "lowest-other-suit":
            return {"kind": "lowest", "exclude": s}
        if rule == "chosen-other-suit":
            return {"kind": "chosen", "exclude": s}
        if rule == "chosen-opposite-colour":
            return {"kind": "chosen", "colour": opposite}
        return {"kind": "lowest", "colour": opposite}

    def _michigan_run(self) -> None:
        """Play every forced card until someone must choose, claims, goes out, or all are stuck."""
        r = self.r
        while True:
            if r.claims and not self._claims_wait():
                return
            if r.out is not None:
                self._michigan_out(r.out)
                return
            if r.m_state == "follow":
                last = r.m_last
                holder = None if last >> 2 == C.ACE else self._holder(last + 4, r.m_seat)
                if holder is None:
                    self._emit(type="stop", seat=r.m_seat, card=C.to_str(last))
                    r.m_state = "lead"
                    r.lead_req = self._after_stop_req(last)
                    r.passes = 0
                    continue
                if self._play_combos and holder != r.m_seat:
                    combos = self._combination_plays(holder, last)
                    if combos or holder in self.ask_holders:
                        forced = {} if combos else {"forced": True}
                        self._wait(holder, "michigan-play", ["play", *combos], card=C.to_strs([last + 4])[0],
                                   last_card=C.to_str(last), **combos, **forced)
                        return
                self._place(holder, last + 4, "follow")
                r.m_seat, r.m_last = holder, last + 4
                continue
            seat = r.m_seat
            opts = self._lead_options(seat)
            if not opts:
                self._cannot_lead(seat)
                if r.stuck:
                    self._michigan_stuck()
                    return
                continue
            if len(opts) == 1:
                self._lead(seat, opts[0])
                continue
            self._wait(seat, "michigan-lead", ["lead"], cards=C.to_strs(opts), requirement=dict(r.lead_req))
            return

    def _lead(self, seat: int, card: int) -> None:
        r = self.r
        r.seq = []
        r.passes = 0
        prev = (r.played[-1], r.played_by[-1]) if r.played else None
        self._place(seat, card, "lead")
        for sid, kind, rank in self._lead_pays:
            if kind == LEAD and card >> 2 == rank:
                self._pay_or_claim(sid, [seat], "lead")
            elif (kind == ACE_TWO and card >> 2 == C.TWO and prev is not None and prev[1] == seat
                  and prev[0] >> 2 == C.ACE and C.is_red(prev[0]) != C.is_red(card)):
                self._pay_or_claim(sid, [seat], "ace then two")
        r.m_state, r.m_seat, r.m_last = "follow", seat, card

    def _cannot_lead(self, seat: int) -> None:
        r = self.r
        paid = 0
        if self.options.cannot_lead == "pay-kitty-1":
            paid = self._to_space(seat, self.kitty_id, 1, "cannot lead")
        self._emit(type="cannot-lead", seat=seat, paid=paid)
        r.passes += 1
        if r.passes >= len(r.active):
            if self.options.cannot_lead == "pay-kitty-1" and "colour" in r.lead_req:
                r.lead_req = {**r.lead_req, "colour": "red" if r.lead_req["colour"] == "black" else "black"}
                self._emit(type="colour-flip", colour=r.lead_req["colour"])
                r.passes = 0
            else:
                r.stuck = True
                return
        r.m_seat = self._next_active(seat)

    def _act_lead(self, a: Action) -> None:
        card = _parse_card(a.card)
        self.r.wait = None
        self._lead(a.seat, card)
        self._michigan_run()

    def _combination_plays(self, seat: int, last: int) -> dict[str, list[list[str]]]:
        """Great Lakes: the Full House / 5-Card Straight plays ``seat`` could make onto ``last``.

        Full house: four cards of the hand that with ``last`` make a full house. Straight: the
        next card of the sequence plus one card of each of the next three ranks, any suit.
        """
        hand = self.r.hands[seat]
        x = last >> 2
        out: dict[str, list[list[str]]] = {}
        by_rank: dict[int, list[int]] = {}
        for c in hand:
            by_rank.setdefault(c >> 2, []).append(c)
        S = _CARD_STRS
        if FULL_HOUSE_PLAY in self._play_combos and x in by_rank:
            # Distinct choices only (several decks repeat cards): combinations of the distinct cards.
            xs = by_rank[x]
            x2 = _distinct_combos(xs, 2)
            x1 = sorted(set(xs))
            sets: list[tuple[int, ...]] = []
            for y, ys in by_rank.items():
                if y == x or len(ys) < 2:
                    continue
                if x2:
                    y2 = _distinct_combos(ys, 2)
                    sets.extend(a + b for a in x2 for b in y2)
                if len(ys) >= 3:
                    y3 = _distinct_combos(ys, 3)
                    sets.extend((a,) + b for a in x1 for b in y3)
            if sets:
                sets.sort()
                out["full_house"] = [[S[a], S[b], S[c], S[d]] for a, b, c, d in sets]
        if (STRAIGHT_PLAY in self._play_combos and x + 4 <= C.ACE
                and x + 2 in by_rank and x + 3 in by_rank and x + 4 in by_rank):
            ranks = [sorted(set(by_rank[x + k])) for k in (2, 3, 4)]
            nxt = S[last + 4]
            out["straight"] = [[nxt, S[a], S[b], S[c]] for a in ranks[0] for b in ranks[1] for c in ranks[2]]
        return out

    def _combo_cards(self, a: Action) -> list[int]:
        """The cards of a ``full_house``/``straight`` action (a straight may omit the forced next card)."""
        try:
            cards = _parse_cards(a.cards or [])
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        nxt = self.r.m_last + 4
        if a.do == "straight" and len(cards) == 3 and nxt not in cards:
            cards = [nxt, *cards]
        return sorted(cards, key=lambda c: (c >> 2, c & 3))

    def _check_michigan_play(self, a: Action) -> None:
        if a.do == "play":
            return
        options = self.r.wait["detail"][a.do]
        want = sorted(C.to_strs(self._combo_cards(a)))
        if not any(sorted(o) == want for o in options):
            what = "full house" if a.do == "full_house" else "5-card straight"
            raise IllegalAction(f"not a {what} you can place now; you may place "
                                + " or ".join(" ".join(o) for o in options))

    def _act_michigan_play(self, a: Action) -> None:
        """Great Lakes: the normal play, or a Full House (ends the sequence, the player leads
        next) or a 5-Card Straight (the next player follows the suit of its last card)."""
        r = self.r
        r.wait = None
        seat, last = a.seat, r.m_last
        if a.do == "play":
            self._place(seat, last + 4, "follow")
            r.m_seat, r.m_last = seat, last + 4
        else:
            cards = self._combo_cards(a)
            how = "full house" if a.do == "full_house" else "straight"
            for c in cards:
                self._place(seat, c, how)
            trigger = FULL_HOUSE_PLAY if a.do == "full_house" else STRAIGHT_PLAY
            self._pay_or_claim(self._play_combos[trigger], [seat], how)
            r.m_seat, r.m_last = seat, cards[-1]
            if a.do == "full_house":  # decided: the next lead is as after a stop of the joined sequence
                # the sequence stops at the card the full house joined: the next lead's colour follows it
                self._emit(type="stop", seat=seat, card=C.to_str(last), reason="full house")
                r.m_state, r.passes = "lead", 0
                r.lead_req = self._after_stop_req(last)
        self._michigan_run()

    def _check_lead(self, a: Action) -> None:
        if not a.card:
            raise IllegalAction("lead needs a card")
        try:
            card = _parse_card(a.card)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        opts = self._lead_options(a.seat)
        if card not in opts:
            raise IllegalAction(
                f"you cannot lead {C.to_str(card)} now; you may lead {', '.join(C.to_strs(opts))}"
            )

    def _michigan_record(self) -> None:
        r = self.r
        self.log[-1]["michigan"] = {"out": r.out, "order": C.to_strs(r.played), "stuck": r.stuck}

    def _michigan_out(self, winner: int) -> None:
        r = self.r
        self._emit(type="out", seat=winner)
        rule = "none" if r.interest is not None else self.options.out_payment
        for s in self._clockwise_from(self._next_active(winner)):
            if s == winner:
                continue
            left = len(r.hands[s])
            if rule == "per-card-to-winner":
                self._transfer(s, winner, left, "cards left")
            elif rule == "per-card-to-kitty":
                self._to_space(s, self.kitty_id, left, "cards left")
        self._payout(self.kitty_id, winner, None, "went out")
        self._michigan_record()
        self._done_step()

    def _michigan_stuck(self) -> None:
        r = self.r
        self._emit(type="stuck")
        if r.interest is not None:
            pass  # a board-clearing hand moves no chip from the stacks: the Kitty waits for the next hand
        elif self.options.all_stuck == "pay-per-card-to-kitty":
            for s in r.active:
                self._to_space(s, self.kitty_id, len(r.hands[s]), "all stuck")
        else:
            counts = {s: sum(FACE_VALUE[c >> 2] for c in r.hands[s]) for s in r.active}
            low = min(counts.values())
            self._split(self.kitty_id, [s for s in r.active if counts[s] == low], "lowest count")
        self._michigan_record()
        self._done_step()

    # ---------------------------------------------------------- step: Rulebook extras
    # ---------------------------------------------------------- step: Wanagan (reveal rounds)
    def _step_wanagan(self) -> bool:
        """Up to four reveal rounds (round 2: pass three left first, 3: right, 4: wild cards)."""
        self.r.wanagan = {"round": 0, "stage": "", "queue": [], "picks": []}
        return self._wanagan_round(1)

    def _wanagan_open(self) -> list[str]:
        return [sp.id for sp in self.spaces if sp.trigger == HAND and self.mat[sp.id] > 0]

    def _wanagan_wild(self) -> list[int]:
        return _parse_cards(WANAGAN_WILD) if self.r.wanagan["round"] == 4 else []

    def _wanagan_round(self, number: int) -> bool:
        r = self.r
        w = r.wanagan
        if number > 4 or not self._wanagan_open():
            self._emit(type="wanagan-end", rounds=w["round"])
            return True
        w["round"] = number
        w["stage"] = "pass" if number in (2, 3) else "reveal"
        w["queue"] = self._clockwise_from(self._next_active(r.dealer))
        w["picks"] = [None] * self.n
        return self._wanagan_next()

    def _wanagan_next(self) -> bool:
        """Ask the next seat (seat by seat, clockwise from the dealer's left); resolve once all chose."""
        r = self.r
        w = r.wanagan
        if w["queue"]:
            seat = w["queue"][0]
            hand = [_CARD_STRS[c] for c in sorted(r.hands[seat], key=_HOLD_ORDER.__getitem__)]
            if w["stage"] == "pass":
                return self._wait(seat, "wanagan-pass", ["pass_cards"], cards=hand, count=3, round=w["round"],
                                  direction="left" if w["round"] == 2 else "right")
            return self._wait(seat, "wanagan-reveal", ["reveal"], cards=hand, count=5, round=w["round"],
                              spaces=self._wanagan_open(), wild=list(WANAGAN_WILD) if w["round"] == 4 else [])
        if w["stage"] == "pass":
            self._wanagan_pass()
            w["stage"] = "reveal"
            w["queue"] = self._clockwise_from(self._next_active(r.dealer))
            w["picks"] = [None] * self.n
            return self._wanagan_next()
        self._wanagan_resolve()
        return self._wanagan_round(w["round"] + 1)

    def _check_wanagan(self, a: Action) -> None:
        d = self.r.wait["detail"]
        n = d["count"]
        if not a.cards or len(a.cards) != n:
            raise IllegalAction(f"{a.do} needs exactly {n} cards")
        try:
            picked = _parse_cards(a.cards)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        pool = list(self.r.hands[a.seat])
        for c in picked:
            if c not in pool:
                raise IllegalAction(f"{C.to_str(c)} is not in your hand")
            pool.remove(c)
        if a.do == "reveal" and a.space not in d["spaces"]:
            raise IllegalAction(f"declare one of the spaces that still hold chips: {', '.join(d['spaces'])}")

    def _act_wanagan(self, a: Action) -> None:
        r = self.r
        w = r.wanagan
        cards = _parse_cards(a.cards)
        w["picks"][a.seat] = {"cards": cards, "space": a.space} if a.do == "reveal" else cards
        w["queue"].pop(0)
        self._emit(type="chosen" if a.do == "reveal" else "passing", seat=a.seat, round=w["round"])
        r.wait = None
        if self._wanagan_next():
            self._done_step()

    def _wanagan_pass(self) -> None:
        """Everyone's three cards move at once: to the next seat left (round 2) or right (round 3)."""
        r = self.r
        w = r.wanagan
        act = r.active
        step = 1 if w["round"] == 2 else -1
        for s in act:
            for c in w["picks"][s]:
                r.hands[s].remove(c)
        for i, s in enumerate(act):
            r.hands[act[(i + step) % len(act)]].extend(w["picks"][s])
        self._emit(type="pass-cards", round=w["round"], direction="left" if step == 1 else "right")

    def wanagan_qualifies(self, cards: list[int], space: str, wild: list[int]) -> bool:
        """Does this five-card selection contain the combination of Wanagan ``space``?"""
        kind = self.space_by_id[space].hand
        if kind == "evens-odds":
            return H.is_evens_or_odds(cards, wild)
        return H.contains(cards, WANAGAN_CATEGORIES[kind], wild)

    def wanagan_key(self, cards: list[int], space: str, wild: list[int]) -> tuple[int, ...] | None:
        """How a claim on Wanagan ``space`` ranks: by the named combination only (None: no claim)."""
        kind = self.space_by_id[space].hand
        if kind == "evens-odds":
            return H.evens_or_odds_key(cards, wild)
        return H.combination_key(cards, WANAGAN_CATEGORIES[kind], wild)

    def _wanagan_resolve(self) -> None:
        """Reveal together; on each space the best qualifying named combination wins (kickers do not
        count; equal combinations split, the remainder stays)."""
        r = self.r
        w = r.wanagan
        wild = frozenset(self._wanagan_wild())
        shown: dict[str, dict] = {}
        claims: dict[str, list[tuple[int, tuple[int, ...]]]] = {}
        for s in r.active:
            pick = w["picks"][s]
            cards, sid = pick["cards"], pick["space"]
            key = self.wanagan_key(cards, sid, wild)
            value = evaluate(cards, wild)
            shown[str(s)] = {"cards": [_CARD_STRS[c] for c in cards], "space": sid, "qualifies": key is not None,
                             "hand": category_name(value)}
            if key is not None:
                claims.setdefault(sid, []).append((s, key))
        self._emit(type="reveal", round=w["round"], hands=shown)
        for sp in self.spaces:
            if sp.id in claims:
                best = max(v for _, v in claims[sp.id])
                self._split(sp.id, [s for s, v in claims[sp.id] if v == best], "wanagan")

    def _step_to_poker(self) -> bool:
        """Rulebook: chips left on the money spaces move to the poker space before poker."""
        for sp in self.spaces:
            if sp.id != self.pot_id and sp.trigger != CORNER:
                self._move(sp.id, self.pot_id)
        return True

    def _step_corner_bet(self) -> bool:
        """Rummy Royal: the dealer may bet on one corner Ace; the others may cover it."""
        r = self.r
        if self.stacks[r.dealer] <= 0:
            return True
        aces = [sp.cards[0] for sp in self.spaces if sp.trigger == CORNER]
        return self._wait(r.dealer, "corner-bet", ["corner_bet", "decline"], aces=aces, min=1,
                          max=min(self.options.bet_limit, self.stacks[r.dealer]))

    def _check_corner_bet(self, a: Action) -> None:
        if a.do != "corner_bet":
            return
        aces = self.r.wait["detail"]["aces"]
        if (a.ace or "").upper() not in aces:
            raise IllegalAction(f"bet on one of the corner Aces: {', '.join(aces)}")
        if a.amount is None or not 1 <= a.amount <= self.r.wait["detail"]["max"]:
            raise IllegalAction(f"a corner bet is 1 to {self.r.wait['detail']['max']} chips")

    def _act_corner_bet(self, a: Action) -> None:
        r = self.r
        r.wait = None
        if a.do == "decline":
            self._emit(type="corner-decline", seat=a.seat)
            self._done_step()
            return
        ace = a.ace.upper()
        self._to_space(a.seat, "corner-" + ace, a.amount, "corner bet")
        r.corner = {"ace": ace, "amount": a.amount, "backers": [a.seat],
                    "queue": [s for s in self._clockwise_from(self._next_active(r.dealer)) if s != r.dealer]}
        self._corner_cover_next()

    def _corner_cover_next(self) -> None:
        r = self.r
        c = r.corner
        while c["queue"]:
            seat = c["queue"][0]
            if self.stacks[seat] < c["amount"]:
                c["queue"].pop(0)
                continue
            self._wait(seat, "corner-cover", ["cover", "decline"], ace=c["ace"], amount=c["amount"])
            return
        self._done_step()

    def _act_corner_cover(self, a: Action) -> None:
        r = self.r
        c = r.corner
        c["queue"].pop(0)
        r.wait = None
        if a.do == "cover":
            self._to_space(a.seat, "corner-" + c["ace"], c["amount"], "corner cover")
            c["backers"].append(a.seat)
        else:
            self._emit(type="corner-decline", seat=a.seat)
        self._corner_cover_next()

    def _step_corner_collect(self) -> bool:
        """After the spare-hand step the holder of the corner Ace takes the corner if they bet on it."""
        r = self.r
        if not r.corner:
            return True
        holder = self._holder(C.parse(r.corner["ace"]), self._first_holder_start())
        space = "corner-" + r.corner["ace"]
        if holder is not None and holder in r.corner["backers"]:
            self._payout(space, holder, None, "corner ace")
        else:
            self._emit(type="corner-stays", space=space, holder=holder)
        return True

    # ---------------------------------------------------------- step: settle
    def _step_settle(self) -> bool:
        return True

    def _after_round(self) -> None:
        r = self.r
        self._emit(type="round-end", round=r.number, stacks=list(self.stacks))
        self.dealer = self.left_of(r.dealer)
        kind, amount = self.options.game_end_rule()
        if kind == "rounds" and self.round_number >= amount:
            self._game_over("round limit")
        elif kind == "minutes" and self.clock() - self.started_at >= amount * 60:
            self._note_end("time-limit")
            self._game_over("time limit")
        elif kind == "elimination":
            nxt = self.round_number + 1
            able = [s for s in range(self.n) if not self.eliminated[s]
                    and self.stacks[s] >= self.ante_cost(s, nxt, dealer=-1)]
            if len(able) <= 1:
                for s in range(self.n):  # the others are out: they take no part in clearing the board
                    if able and s not in able and not self.eliminated[s]:
                        self.eliminated[s] = True
                        self._emit(type="eliminated", seat=s)
                self._game_over("one player left")

    def _game_over(self, reason: str) -> None:
        self.over = True
        self._emit(type="game-end", reason=reason)
        if not self._board_clear_pending():
            self.finished = True

    def _board_clear_pending(self) -> bool:
        return self.options.endgame != "none" and sum(self.mat.values()) > 0

    def switch_preset(self, preset: str) -> list[Event]:
        """Swap the mat between rounds (the Rulebook's option).

        Decided: chips left on the old mat carry over onto the new mat's poker
        space, where the next poker hand plays for them. Options the host set
        for the game (game end, bet limit) are kept.
        """
        if self.finished or self.over:
            raise IllegalAction("the game is over")
        if self.r is not None and self.r.wait is not None:
            raise IllegalAction("the mat can only be swapped between rounds")
        new = get_preset(preset)
        if not new.min_players <= self.n <= new.max_players:
            raise IllegalAction(f"{new.name} takes {new.min_players} to {new.max_players} players")
        kept = {k: getattr(self.options, k) for k in ("game_end", "bet_limit")}
        carried = sum(self.mat.values())
        self.preset_key = new.key
        self.options = new.options.with_overrides(kept)
        del self.mat
        self._setup_mat()
        self.mat[self.pot_id] += carried
        if self.record is not None:
            self.record["switches"].append({"before_round": self.round_number + 1, "preset": new.key})
        e = Event(type="switch-preset", preset=new.key, carried=carried, to_space=self.pot_id)
        self.game_events.append(e)
        return [e]

    def end_now(self) -> list[Event]:
        """The host stops the game: abandon the round in progress; chips stay where they are."""
        if self.finished:
            raise IllegalAction("the game is already finished")
        events: list[Event] = []
        if self.r is not None and self.r.wait is not None:
            self.r.wait = None
            self.r.auction = None
            self.r.claims = []
            e = Event(type="abandoned", round=self.r.number)
            self.r.events.append(e)
            events.append(e)
        self._note_end("host-stop")
        self.over = True
        e = Event(type="game-end", reason="stopped by the host")
        self.game_events.append(e)
        events.append(e)
        if not self._board_clear_pending():
            self.finished = True
        return events

    # ---------------------------------------------------------- end of game
    def _start_interest_hand(self, deck: list[int] | None) -> list[Event]:
        """Cadaco's board clearing: a hand of Michigan (no ante, no poker) where placing an 8, 9
        or 10 earns a third of the 8-9-10 space and placing a K-Q card half of K-Q; going out
        wins the Kitty, which first takes every other space's chips. Repeated until the board is clear.
        """
        deck = self._shuffled_or_checked(deck)
        active = [s for s in ((self.dealer + k) % self.n for k in range(1, self.n + 1)) if not self.eliminated[s]]
        r = RoundState(number=self.round_number, dealer=self.dealer, ante=0, active=active,
                       hands=[[] for _ in range(self.n)], interest={}, deck=deck)
        r.chosen, r.folded, r.committed = [None] * self.n, [False] * self.n, [0] * self.n
        self.r = r
        self.log.append({"dealer": self.dealer, "payouts": r.payouts, "poker": None, "michigan": None,
                         "events": r.events, "playoff": True, "deck": C.to_strs(deck), "actions": []})
        self._emit(type="playoff-hand", method="michigan-interests")
        if len(active) == 1:  # the last player standing: the board is theirs
            r.step = len(INTEREST_ORDER)
            for sid in self.mat:
                self._payout(sid, active[0], None, "last player")
        self._advance()
        return list(r.events)

    def _step_interest_prep(self) -> bool:
        """Every space but K-Q, 8-9-10 and the Kitty moves to the Kitty; the shares are fixed now."""
        r = self.r
        for sp in self.spaces:
            if sp.trigger == COMBO:
                r.interest[sp.id] = -(-self.mat[sp.id] // 2)
            elif sp.trigger == RUN:
                r.interest[sp.id] = -(-self.mat[sp.id] // 3)
            elif sp.id != self.kitty_id:
                self._move(sp.id, self.kitty_id)
        return True

    def _after_interest_hand(self) -> None:
        self._emit(type="playoff-hand-end", mat=sum(self.mat.values()))
        self.dealer = self.left_of(self.r.dealer)
        if sum(self.mat.values()) == 0:
            self.finished = True
            self.playoff_result = {"method": "michigan-interests",
                                   "clearing_hands": sum(1 for rec in self.log if rec.get("playoff"))}

    def _playoff(self, deck: list[int] | None) -> list[Event]:
        """Clear the board: everything to the Pot, five fresh cards each, best hand takes all.

        Great Lakes has no Pot: its Losers Kitty stays apart for the WORST hand of the same
        showdown, and everything else goes to the centre for the best hand."""
        if self.options.endgame == "michigan-interests" and self.kitty_id is not None:
            return self._start_interest_hand(deck)  # (a mat with no Michigan, Wanagan, plays poker for it)
        players = [s for s in range(self.n) if not self.eliminated[s]]
        order = [(self.dealer + k) % self.n for k in range(1, self.n + 1)]
        order = [s for s in order if s in players]
        events: list[Event] = []

        def emit(**kw: Any) -> None:
            events.append(Event(kw))

        if deck is None:
            deck = C.full_deck(max(self.n_decks, -(-5 * len(order) // 52)))
            self.rng.shuffle(deck)
        elif len(deck) < 5 * len(order):
            raise IllegalAction(f"the playoff deck must hold at least {5 * len(order)} cards")
        if self.record is not None:
            self.record["playoff_deck"] = C.to_strs(deck)
        losers = self.pot_id if self.poker_low else None
        pot = self.kitty_id if self.poker_low else self.pot_id
        for sid in list(self.mat):
            if sid not in (pot, losers) and self.mat[sid] > 0:
                emit(type="move", from_space=sid, to_space=pot, amount=self.mat[sid])
                self.mat[pot] += self.mat[sid]
                self.mat[sid] = 0
        hands = {s: [] for s in order}
        for i in range(5 * len(order)):
            hands[order[i % len(order)]].append(deck[i])
        values = {s: evaluate(h) for s, h in hands.items()}
        emit(type="showdown", hands={str(s): {"cards": C.to_strs(h), "hand": category_name(values[s])}
                                      for s, h in hands.items()})

        def award(space: str, value: int, reason: str) -> list[int]:
            """The space to the hands of ``value``: ties split, the remainder to the first tied clockwise."""
            winners = [s for s in order if values[s] == value]
            share, rest = divmod(self.mat[space], len(winners))
            for i, w in enumerate(winners):
                amount = share + (rest if i == 0 else 0)
                if amount:
                    self.mat[space] -= amount
                    self.stacks[w] += amount
                    emit(type="payout", space=space, seat=w, amount=amount, reason=reason)
            return winners

        winners = award(pot, max(values.values()), "playoff")
        self.playoff_result = {"winners": winners, "hands": {str(s): category_name(values[s]) for s in hands},
                               "events": events}
        if losers is not None:
            self.playoff_result["losers"] = award(losers, min(values.values()), "playoff worst hand")
        self.game_events.extend(events)
        self.finished = True
        return events

    # ---------------------------------------------------------- actions
    _PHASE_ACTS = {
        "spare-hand": "_act_spare_hand",
        "auction": "_act_auction",
        "suit-bid": "_act_suit_bid",
        "name-suit": "_act_name_suit",
        "claim": "_act_claim",
        "poker-choose": "_act_choose",
        "poker-betting": "_act_betting",
        "michigan-lead": "_act_lead",
        "michigan-play": "_act_michigan_play",
        "wanagan-pass": "_act_wanagan",
        "wanagan-reveal": "_act_wanagan",
        "corner-bet": "_act_corner_bet",
        "corner-cover": "_act_corner_cover",
    }
    _PHASE_CHECKS = {
        "auction": "_check_bid",
        "suit-bid": "_check_bid",
        "name-suit": "_check_name_suit",
        "poker-choose": "_check_choose",
        "poker-betting": "_check_betting",
        "michigan-lead": "_check_lead",
        "michigan-play": "_check_michigan_play",
        "wanagan-pass": "_check_wanagan",
        "wanagan-reveal": "_check_wanagan",
        "corner-bet": "_check_corner_bet",
    }

    def check(self, action: Action | dict) -> Action:
        """Raise IllegalAction if ``action`` is not allowed now; return it parsed."""
        a = action if isinstance(action, Action) else Action.from_dict(action)
        if self.finished:
            raise IllegalAction("the game is finished")
        if self.r is None or self.r.wait is None:
            raise IllegalAction("nobody is to act now: the round is over")
        w = self.r.wait
        if not 0 <= a.seat < self.n:
            raise IllegalAction(f"there is no seat {a.seat}")
        if a.seat != w["seat"]:
            raise IllegalAction(f"not your turn: waiting for seat {w['seat']} ({self.players[w['seat']]}) to {w['phase']}")
        if a.do not in w["legal"]:
            raise IllegalAction(f"cannot {a.do} now ({w['phase']}); legal: {', '.join(w['legal'])}")
        checker = self._PHASE_CHECKS.get(w["phase"])
        if checker:
            getattr(self, checker)(a)
        return a

    def apply(self, action: Action | dict) -> list[Event]:
        a = self.check(action)
        r = self.r
        start = len(r.events)
        phase = r.wait["phase"]
        r.last_actor = a.seat
        forced = r.wait["detail"].get("forced")  # a play asked only for secrecy (ask_holders): no decision
        if "actions" in self.log[-1] and not forced:  # (rounds of saves from before replays were kept have none)
            self.log[-1]["actions"].append(a.to_dict())
        getattr(self, self._PHASE_ACTS[phase])(a)
        self._advance()
        return list(r.events[start:])

    # ---------------------------------------------------------- views
    def view(self, seat: int | None = None) -> dict[str, Any]:
        r = self.r
        w = r.wait if (r is not None and not self.finished) else None
        to_act = w["seat"] if w else None
        seats = []
        for s in range(self.n):
            status = "active"
            if self.eliminated[s]:
                status = "eliminated"
            elif r is not None and s not in r.active:
                status = "sitting-out"
            elif r is not None and r.folded[s] and self._order()[min(r.step, len(self._order()) - 1)] == "poker":
                status = "folded"
            played = [C.to_str(c) for c, b in zip(r.played, r.played_by) if b == s] if r else []
            seats.append({
                "seat": s, "name": self.players[s], "stack": self.stacks[s],
                "cards": len(r.hands[s]) if r else 0, "status": status,
                "committed": r.committed[s] if r else 0, "played": played,
                "is_dealer": s == self.dealer,
            })
        mat = [{**sp.to_dict(), "chips": self.mat[sp.id]} for sp in self.spaces]
        mine = seat is not None and r is not None and 0 <= seat < self.n
        view: dict[str, Any] = {
            "preset": self.preset_key, "preset_name": self.preset.name,
            "round": self.round_number, "ante": r.ante if r else self.options.ante_for_round(1),
            "phase": self.phase, "dealer": self.dealer, "to_act": to_act, "viewer": seat,
            "pay_suit": C.SUITS[r.pay_suit] if r else "H",
            "seats": seats, "mat": mat,
            "hand": C.to_strs(C.sorted_hand(r.hands[seat])) if mine else None,
            "poker": None, "michigan": None, "spare": None,
            "events": [dict(e) for e in (r.events[-12:] if r else [])],
            "chip_denominations": dict(DENOMINATIONS),
            "finished": self.finished,
            "standings": self.standings(),
            "colour_up": self.round_number >= 6 and self.options.ante == "rulebook",
            "corner": None,
        }
        if w and seat == to_act:
            view["legal"] = list(w["legal"])
            view["detail"] = copy.deepcopy(w["detail"])
        if r is not None:
            view["poker"] = {
                "chosen": C.to_strs(r.chosen[seat]) if mine and r.chosen[seat] else None,
                "current_bet": r.current_bet, "last_action": r.last_poker_action,
                "showdown": copy.deepcopy(r.showdown), "winners": list(r.poker_winners),
            }
            view["michigan"] = {
                "sequence": C.to_strs(r.seq), "last_card": C.to_str(r.played[-1]) if r.played else None,
                "out": r.out, "played": len(r.played),
            }
            if r.corner:
                view["corner"] = {"ace": r.corner["ace"], "amount": r.corner["amount"],
                                  "backers": list(r.corner["backers"])}
            au = r.auction
            view["spare"] = {
                "cards": len(r.spare),
                "auction": {"high_bid": au["high"], "high_bidder": au["high_bidder"], "kind": au["kind"]} if au else None,
            }
        return view

    def standings(self) -> list[dict[str, Any]]:
        rows = [{"seat": s, "name": self.players[s], "stack": self.stacks[s],
                 "net": self.stacks[s] - self.initial_stacks[s]} for s in range(self.n)]
        return sorted(rows, key=lambda row: (-row["stack"], row["seat"]))

    # ---------------------------------------------------------- replay export
    def _note_end(self, how: str) -> None:
        """Remember how a game ended where its rounds alone do not tell (the replay's ``end``)."""
        if self.record is not None and self.record["end"] is None:
            self.record["end"] = how

    def to_replay(self) -> dict[str, Any]:
        """The game so far as a replay (docs/replay.md) that ``python -m engine replay`` plays back
        to the same stacks, mat and events: finished, stopped or still in progress.

        Raises ValueError for a game saved before games were kept as replays (its decks are lost)."""
        rec = self.record
        if rec is None or any("deck" not in hand for hand in self.log):
            raise ValueError("this game began before games were kept as replays: its decks are not known")
        out: dict[str, Any] = {"preset": rec["preset"], "options": dict(rec["options"]),
                               "players": list(self.players), "stacks": list(rec["stacks"]), "seed": self.seed}
        if rec["dealer"] is not None:
            out["dealer"] = rec["dealer"]
        out["rounds"] = [{"deck": list(hand["deck"]), "actions": [dict(a) for a in hand["actions"]]}
                         for hand in self.log if not hand.get("playoff")]
        if rec["switches"]:
            out["switches"] = [dict(sw) for sw in rec["switches"]]
        if rec["end"] is not None:
            out["end"] = rec["end"]
        clearing = [{"deck": list(hand["deck"]), "actions": [dict(a) for a in hand["actions"]]}
                    for hand in self.log if hand.get("playoff")]
        if clearing:
            out["playoff"] = clearing if len(clearing) > 1 else clearing[0]
        elif rec["playoff_deck"] is not None:
            out["playoff"] = {"deck": list(rec["playoff_deck"]), "actions": []}
        return out

    # ---------------------------------------------------------- persistence
    _STATE_FIELDS = ("seed", "stacks", "initial_stacks", "mat", "eliminated", "round_number", "log",
                     "game_events", "started_at", "over", "finished", "playoff_result", "dealer", "record")

    def to_json(self) -> str:
        state = {k: getattr(self, k) for k in self._STATE_FIELDS}
        state["rng"] = _rng_to_json(self.rng.getstate())
        state["round"] = asdict(self.r) if self.r is not None else None
        if self.r is not None:
            # the round's events and payouts are shared with the last log record: store them once
            state["round"]["events"] = None
            state["round"]["payouts"] = None
        saved = SavedGame(preset=self.preset_key, options=self.options.to_dict(), players=self.players, state=state)
        return saved.model_dump_json()

    @classmethod
    def from_json(cls, text: str, clock: Callable[[], float] | None = None) -> "Game":
        saved = SavedGame.model_validate_json(text)
        g = cls()
        if clock is not None:
            g.clock = clock
        g.preset_key = saved.preset
        g.options = Options().with_overrides(saved.options)
        g.players = list(saved.players)
        st = saved.state
        for k in cls._STATE_FIELDS:
            setattr(g, k, copy.deepcopy(st.get(k)))  # ("record" is missing from saves made before replays were kept)
        g.log = [{**rec, "events": [Event(e) for e in rec["events"]]} for rec in g.log]
        g.game_events = [Event(e) for e in g.game_events]
        g.rng = random.Random()
        g.rng.setstate(_rng_from_json(st["rng"]))
        g._setup_mat()
        if st["round"] is not None:
            rd = dict(st["round"])
            rd["events"] = g.log[-1]["events"]
            rd["payouts"] = g.log[-1]["payouts"]
            # saves before one claim covered several spaces: [seat, space, share]
            rd["claims"] = [c if isinstance(c[1], list) else [c[0], [[c[1], c[2]]]] for c in rd.get("claims", [])]
            g.r = RoundState(**rd)
            if g.r.step < len(g._order()) and g._order()[g.r.step] == "michigan":
                g._build_play_triggers()
        else:
            g.r = None
        return g

    def clone(self) -> "Game":
        return Game.from_json(self.to_json(), clock=self.clock)

    def __repr__(self) -> str:
        return f"<Game {self.preset_key} round {self.round_number} phase {self.phase} stacks {self.stacks}>"


_CARD_STRS = tuple(C.to_strs(range(52)))
_CARD_OF = {t: c for c, t in enumerate(_CARD_STRS)}
_HOLD_ORDER = tuple(((c & 3) << 4) | (c >> 2) for c in range(52))  # C.sort_key as one int


def _overrides(base: Options, options: Options) -> dict[str, Any]:
    """The options that differ from the preset's, and always ``game_end`` (a replay's rounds are
    otherwise read as the game's length)."""
    mine, theirs = options.to_dict(), base.to_dict()
    return {k: v for k, v in mine.items() if v != theirs[k] or k == "game_end"}


def _parse_card(text: Any) -> int:
    """``C.parse`` with a fast path for the canonical notation ("TH")."""
    c = _CARD_OF.get(text) if isinstance(text, str) else None
    return C.parse(text) if c is None else c


def _parse_cards(texts: Any) -> list[int]:
    """``C.parse_many`` with a fast path for the canonical notation ("TH")."""
    try:
        return [_CARD_OF[t] for t in texts]
    except (KeyError, TypeError):
        return C.parse_many(texts)


def _distinct_combos(cards: list[int], k: int) -> tuple[tuple[int, ...], ...]:
    """The distinct sorted ``k``-card choices from ``cards`` (a card may repeat up to its count)."""
    if len(cards) < k:
        return ()
    return _distinct_sorted_combos(tuple(sorted(cards)), k)


@functools.lru_cache(maxsize=4096)
def _distinct_sorted_combos(cards: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(set(itertools.combinations(cards, k))))


_ATOM_TYPES = frozenset({str, int, float, bool, type(None)})


def _plain_copy(obj: Any) -> Any:
    """Deep copy of JSON-like data (dicts, lists, tuples, scalars): far cheaper than copy.deepcopy."""
    if isinstance(obj, dict):
        return {k: v if type(v) in _ATOM_TYPES else _plain_copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (dict, list, tuple)):
            first = obj[0]
            if not isinstance(first, dict) and not (first and isinstance(first[0], (dict, list, tuple))):
                return [list(v) for v in obj]  # a list of flat lists (e.g. card combinations)
            return [_plain_copy(v) for v in obj]
        return list(obj)
    return obj


def _rng_to_json(state: tuple) -> list:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_from_json(data: list) -> tuple:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)

