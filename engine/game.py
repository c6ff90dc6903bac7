"""The game: a deterministic state machine over rounds (docs/rules.md).

``Game`` is the facade the bot, the terminal game and the tools use (docs/engine-api.md).
A round runs the preset's ``order`` of steps; each step belongs to a phase module in
``engine.phases`` (registered in ``engine.phases.PHASES``) that either finishes it by itself
or waits for a decision (``RoundState.wait``). ``apply`` checks an action with the phase
that waits for it, applies it, and lets the round run on to the next decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import cards as C
from . import events as ev
from .events import EndReason, Event
from .language import N_
from .model import Action, Awaiting, IllegalAction
from .observation import Observation
from .options import Options
from .phases import DECISION, STEP
from .phases.clearing import after_interest_hand, showdown_playoff
from .phases.names import SIMULTANEOUS
from .phases.spare import spare_auction_exclusions
from .phases.state import PokerState, Wait
from .phases.wanagan import qualifies
from .presets import get_preset, options_for
from .reasons import Listed, Phase, Reason, Text
from .saving import game_to_json, read_save, restore
from .table import INTEREST_ORDER, RoundState, Table
from .views import game_phase, plain_copy, standings, view
from .viewtypes import GameView, Standing

SEAT = N_("seat {seat} ({name})")  # a seat awaited, in a refusal: "waiting for seat 1 (ann)"


class Game(Table):
    """One table's game: many rounds of one preset, chips carried between them."""

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
    ) -> Game:
        p = get_preset(preset)
        opts = options_for(p, options)
        n = len(players)
        if not p.min_players <= n <= p.max_players:
            raise ValueError(f"{p.name} takes {p.min_players} to {p.max_players} players, not {n}")
        if stacks is None:
            stacks = [opts.start_stack] * n
        if len(stacks) != n or any((not isinstance(s, int)) or s < 0 for s in stacks):
            raise ValueError("stacks must be one whole, non-negative number per player")
        g = cls(p.key, opts, players, clock)
        g.seed = seed if seed is not None else random.randrange(2**32)
        g.rng = random.Random(g.seed)
        g.stacks = list(stacks)
        g.initial_stacks = list(stacks)
        g.started_at = g.clock()
        g.dealer = dealer if dealer is not None else g._cut_for_dealer()
        if not 0 <= g.dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
        g.record = {
            "preset": p.key,
            "options": _overrides(p.options, opts),
            "stacks": list(stacks),
            "dealer": dealer,
            "switches": [],
            "end": None,
            "playoff_deck": None,
        }
        return g

    def _cut_for_dealer(self) -> int:
        """Rulebook presets cut for the deal (highest card, Ace high, ties cut again); others start at seat 0."""
        if not self.preset.rulebook_setup:
            return 0
        contenders = list(range(len(self.players)))
        while True:
            deck = C.shuffled_deck(self.rng)
            cut = {s: deck[i] for i, s in enumerate(contenders)}
            self.game_events.append(ev.Cut(cards={str(s): C.to_str(c) for s, c in cut.items()}))
            best = max(C.rank_of(c) for c in cut.values())
            contenders = [s for s in contenders if C.rank_of(cut[s]) == best]
            if len(contenders) == 1:
                return contenders[0]

    # ------------------------------------------------------------ accessors
    @property
    def phase(self) -> str:
        return game_phase(self)

    def awaiting(self, seat: int | None = None) -> Awaiting | None:
        """The decision awaited next (None: nobody is asked); with ``seat``, that seat's, if it may act now.

        In a step decided at once (``acting_seats``) the next is the first seat in the published
        order that has not chosen yet: the one a replay lists next."""
        if self.finished or self.r is None or self.r.wait is None:
            return None
        pending = self.pending_waits()
        w = pending[0] if seat is None else self.wait_of(seat)
        if w is None:
            return None
        return Awaiting(w.seat, w.phase, list(w.legal), plain_copy(w.detail))

    def acting_seats(self) -> list[int]:
        """The seats that may act now (OpenSpiel's simultaneous move): one seat for a decision made
        in turn; for one made at once (the poker five, Wanagan's picks, covering a corner bet) every
        seat that has not chosen yet, in the published order."""
        return [] if self.finished or self.r is None or self.r.wait is None else [w.seat for w in self.pending_waits()]

    def is_simultaneous(self) -> bool:
        """Whether the decision in play is made by every seat asked at once, each unseen by the others."""
        w = None if self.finished or self.r is None else self.r.wait
        return w is not None and w.phase in SIMULTANEOUS

    def asked_seats(self) -> list[int]:
        """Every seat the decision in play asks, in the published order: for a step decided at once
        those that chose too (``chosen_seats``), else the one seat to act."""
        return [w.seat for w in self.asked_together()]

    def chosen_seats(self) -> list[int]:
        """The seats that made their choice in the step decided at once in play (only that they did)."""
        return [int(a["seat"]) for a in self.r.sealed] if self.r is not None and self.is_simultaneous() else []

    def sealed_choice(self, seat: int) -> Action | None:
        """``seat``'s own choice in the step decided at once, while it waits for the others (for that seat only)."""
        if self.r is None or not self.is_simultaneous():
            return None
        return next((Action.from_dict(a) for a in self.r.sealed if a["seat"] == seat), None)

    def current_player(self) -> int | None:
        aw = self.awaiting()
        return None if aw is None else aw.seat

    def legal_actions(self) -> list[str]:
        aw = self.awaiting()
        return [] if aw is None else aw.legal

    def total_chips(self) -> int:
        return sum(self.stacks) + sum(self.mat.values())

    @property
    def history(self) -> list[Event]:
        out = list(self.game_events)
        for rec in self.log:
            out.extend(rec["events"])
        return out

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now, with what an AI needs to decide (``engine.observation``)."""
        return Observation(self, seat)

    def decision_number(self) -> int:
        """Which decision of the round is awaited: the number of events so far this round. A
        button made for one decision can tell it from the next (it says nothing about cards)."""
        return len(self.r.events) if self.r is not None else 0

    def cards_on_table(self) -> bool:
        """Whether Michigan has placed cards this round (a claim then is for a card everyone saw;
        before, for a card still hidden in a hand)."""
        return self.r is not None and bool(self.r.michigan.played)

    def spare_auction_exclusions(self) -> dict[int, str]:
        """The seats playing this round that may not bid for the spare hand, each with the rule that
        keeps it out (for telling players why they were skipped)."""
        return spare_auction_exclusions(self)

    def wanagan_qualifies(self, cards: list[int], space: str, wild: frozenset[int] | list[int]) -> bool:
        """Does this five-card selection contain the combination of Wanagan ``space``?"""
        return qualifies(self, cards, space, wild)

    def view(self, seat: int | None = None) -> GameView:
        return view(self, seat)

    def standings(self) -> list[Standing]:
        return standings(self)

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
            raise IllegalAction(N_("the game is finished"))
        if self.r is not None and self.r.wait is not None:
            raise IllegalAction(N_("the round is still being played: waiting for seat {seat}"), seat=self.r.wait.seat)
        cards = None if deck is None else [C.parse(c) if isinstance(c, str) else int(c) for c in deck]
        if self.over:
            if self.options.endgame == "michigan-interests" and self.kitty_id is not None:
                return self._start_interest_hand(cards)  # (a mat with no Michigan, Wanagan, plays poker for it)
            return showdown_playoff(self, cards)
        return self._start_round(cards)

    def _new_round(
        self,
        number: int,
        dealer: int,
        ante: int,
        active: list[int],
        dealer_mult: int,
        deck: list[int],
        interest: dict[str, int] | None,
    ) -> RoundState:
        n = self.n
        r = RoundState(
            number=number,
            dealer=dealer,
            ante=ante,
            active=active,
            hands=[[] for _ in range(n)],
            dealer_mult=dealer_mult,
            deck=deck,
            interest=interest,
            poker=PokerState(chosen=[None] * n, folded=[False] * n, committed=[0] * n),
        )
        self.r = r
        rec = {"dealer": dealer, "payouts": r.payouts, "poker": None, "michigan": None, "events": r.events}
        if interest is not None:
            rec["playoff"] = True
        self.log.append({**rec, "deck": C.to_strs(deck), "actions": []})
        return r

    def _start_round(self, deck: list[int] | None) -> list[Event]:
        number = self.round_number + 1
        deck = self.shuffled_or_checked(deck)
        dealer, active, sitting, dealer_mult = self._seat_round(number)
        if len(active) < 2:
            self._note_end("too-few-players")
            self.over = True
            self.game_events.append(ev.GameEnd(reason=EndReason.TOO_FEW))
            if not self._board_clear_pending():
                self.finished = True
            return []
        self.round_number = number
        self.dealer = dealer
        r = self._new_round(number, dealer, self.options.ante_for_round(number), active, dealer_mult, deck, None)
        self.emit(ev.RoundStart(round=number, dealer=dealer, ante=r.ante))
        for s in sitting:
            self.emit(ev.SitOut(seat=s))
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
                self.game_events.append(ev.Eliminated(seat=s))
            else:
                sitting.append(s)
        return dealer, active, sitting, dealer_mult

    def _start_interest_hand(self, deck: list[int] | None) -> list[Event]:
        """Cadaco's board clearing: a hand of Michigan (no ante, no poker) where placing an 8, 9
        or 10 earns a third of the 8-9-10 space and placing a K-Q card half of K-Q; going out
        wins the Kitty, which first takes every other space's chips. Repeated until the board is clear.
        """
        deck = self.shuffled_or_checked(deck)
        active = [s for s in ((self.dealer + k) % self.n for k in range(1, self.n + 1)) if not self.eliminated[s]]
        r = self._new_round(self.round_number, self.dealer, 0, active, 1, deck, {})
        self.emit(ev.PlayoffHand(method="michigan-interests"))
        if len(active) == 1:  # the last player standing: the board is theirs
            r.step = len(INTEREST_ORDER)
            for sid in self.mat:
                self.payout(sid, active[0], None, "last player")
        self._advance()
        return list(r.events)

    # ----------------------------------------------------------- the loop
    def _advance(self) -> None:
        """Start steps until one waits for a decision, or the hand is over."""
        r = self.round
        order = self.order()
        while r.wait is None and r.step < len(order):
            if STEP[order[r.step]].start(self, order[r.step]):
                r.step += 1
        if r.wait is None:
            if r.interest is not None:
                after_interest_hand(self)
            else:
                self._after_round()

    def together(self, w: Wait) -> list[Wait]:
        return DECISION[w.phase].together(self)

    def resume_step(self) -> bool:
        r = self.round
        return STEP[self.order()[r.step]].resume(self)

    def _after_round(self) -> None:
        r = self.round
        self.emit(ev.RoundEnd(round=r.number, stacks=list(self.stacks)))
        self.dealer = self.left_of(r.dealer)
        kind, amount = self.options.game_end_rule()
        if kind == "rounds" and self.round_number >= amount:
            self._game_over(EndReason.ROUND_LIMIT)
        elif kind == "minutes" and self.clock() - self.started_at >= amount * 60:
            self._note_end("time-limit")
            self._game_over(EndReason.TIME_LIMIT)
        elif kind == "elimination":
            nxt = self.round_number + 1
            able = [
                s
                for s in range(self.n)
                if not self.eliminated[s] and self.stacks[s] >= self.ante_cost(s, nxt, dealer=-1)
            ]
            if len(able) <= 1:
                for s in range(self.n):  # the others are out: they take no part in clearing the board
                    if able and s not in able and not self.eliminated[s]:
                        self.eliminated[s] = True
                        self.emit(ev.Eliminated(seat=s))
                self._game_over(EndReason.ONE_LEFT)

    def _game_over(self, reason: EndReason) -> None:
        self.over = True
        self.emit(ev.GameEnd(reason=reason))
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
            raise IllegalAction(N_("the game is over"))
        if self.r is not None and self.r.wait is not None:
            raise IllegalAction(N_("the mat can only be swapped between rounds"))
        new = get_preset(preset)
        if not new.min_players <= self.n <= new.max_players:
            raise IllegalAction(
                N_("{game} takes {low} to {high} players"),
                game=Text(new.name),
                low=new.min_players,
                high=new.max_players,
            )
        kept = {k: getattr(self.options, k) for k in ("game_end", "bet_limit")}
        carried = sum(self.mat.values())
        self.preset_key = new.key
        self.options = options_for(new, kept)
        self.set_mat(empty=True)
        assert self.pot_id is not None
        self.mat[self.pot_id] += carried
        if self.record is not None:
            self.record["switches"].append({"before_round": self.round_number + 1, "preset": new.key})
        e = ev.SwitchPreset(preset=new.key, carried=carried, to_space=self.pot_id)
        self.game_events.append(e)
        return [e]

    def end_now(self) -> list[Event]:
        """The host stops the game: abandon the round in progress; chips stay where they are."""
        if self.finished:
            raise IllegalAction(N_("the game is already finished"))
        events: list[Event] = []
        if self.r is not None and self.r.wait is not None:
            self.r.wait = None
            self.r.sealed = []
            self.r.auction = None
            self.r.claims = []
            events.append(self.emit(ev.Abandoned(round=self.r.number)))
        self._note_end("host-stop")
        self.over = True
        end = ev.GameEnd(reason=EndReason.HOST_STOP)
        self.game_events.append(end)
        events.append(end)
        if not self._board_clear_pending():
            self.finished = True
        return events

    # ---------------------------------------------------------- actions
    def check(self, action: Action | dict[str, Any], in_turn: bool = False) -> Action:
        """Raise IllegalAction if ``action`` is not allowed now; return it parsed.

        A step decided at once takes any seat that has not chosen yet; ``in_turn`` (a replay)
        only the next in the published order."""
        a = action if isinstance(action, Action) else Action.from_dict(action)
        if self.finished:
            raise IllegalAction(N_("the game is finished"))
        if self.r is None or self.r.wait is None:
            raise IllegalAction(N_("nobody is to act now: the round is over"))
        if not 0 <= a.seat < self.n:
            raise IllegalAction(N_("there is no seat {seat}"), seat=a.seat)
        pending = self.pending_waits()
        w = self.wait_of(a.seat)
        if w is None or (in_turn and w is not pending[0]):
            if a.seat in self.chosen_seats():
                raise IllegalAction(N_("you have already chosen: waiting for {seats}"), seats=self._seat_names(pending))
            if len(pending) > 1 and not in_turn:
                raise IllegalAction(
                    N_("not your turn: waiting for {seats} to {phase}"),
                    seats=self._seat_names(pending),
                    phase=Phase(pending[0].phase),
                )
            nxt = pending[0]
            raise IllegalAction(
                N_("not your turn: waiting for seat {seat} ({name}) to {phase}"),
                seat=nxt.seat,
                name=self.players[nxt.seat],
                phase=Phase(nxt.phase),
            )
        if a.do not in w.legal:
            raise IllegalAction(
                N_("cannot {move} now ({phase}); legal: {legal}"),
                move=a.do,
                phase=Phase(w.phase),
                legal=Listed(tuple(w.legal)),
            )
        DECISION[w.phase].check(self, a)
        return a

    def _seat_names(self, waits: list[Wait]) -> Listed:
        """The seats awaited, as a refusal names them: ``seat 1 (ann), seat 2 (bob)``."""
        return Listed(tuple(Reason(SEAT, {"seat": w.seat, "name": self.players[w.seat]}) for w in waits))

    def apply(self, action: Action | dict[str, Any], in_turn: bool = False) -> list[Event]:
        """Check and apply ``action``; the events it caused. In a step decided at once the choice is
        held unseen (no events) until the last seat asked has chosen; then all are applied
        together, in the published order, whatever order they came in."""
        a = self.check(action, in_turn)
        r = self.round
        if not self.is_simultaneous():
            start = len(r.events)
            self._apply_now(a)
            return list(r.events[start:])
        r.sealed = sorted([*r.sealed, a.to_dict()], key=lambda d: int(d["seat"]))
        return [] if self.pending_waits() else self._resolve_sealed()

    def _resolve_sealed(self) -> list[Event]:
        r = self.round
        start = len(r.events)
        sealed = {int(d["seat"]): d for d in r.sealed}
        r.sealed = []
        while r.wait is not None and r.wait.seat in sealed:
            self._apply_now(Action.from_dict(sealed.pop(r.wait.seat)))
        assert not sealed, f"choices left unapplied: {sorted(sealed)}"
        return list(r.events[start:])

    def _apply_now(self, a: Action) -> None:
        """Apply a checked action of the seat the step asks now and run the round on."""
        r = self.round
        w = r.wait
        assert w is not None and w.seat == a.seat
        r.last_actor = a.seat
        # (rounds of saves from before replays were kept have no actions; a forced play is no decision)
        if "actions" in self.log[-1] and not w.detail.get("forced"):
            self.log[-1]["actions"].append(a.to_dict())
        r.wait = None
        if DECISION[w.phase].apply(self, a):
            r.step += 1
        self._advance()

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
        out: dict[str, Any] = {
            "preset": rec["preset"],
            "options": dict(rec["options"]),
            "players": list(self.players),
            "stacks": list(rec["stacks"]),
            "seed": self.seed,
        }
        if rec["dealer"] is not None:
            out["dealer"] = rec["dealer"]
        out["rounds"] = [
            {"deck": list(hand["deck"]), "actions": self._replay_actions(hand)}
            for hand in self.log
            if not hand.get("playoff")
        ]
        if rec["switches"]:
            out["switches"] = [dict(sw) for sw in rec["switches"]]
        if rec["end"] is not None:
            out["end"] = rec["end"]
        clearing = [
            {"deck": list(hand["deck"]), "actions": self._replay_actions(hand)}
            for hand in self.log
            if hand.get("playoff")
        ]
        if clearing:
            out["playoff"] = clearing if len(clearing) > 1 else clearing[0]
        elif rec["playoff_deck"] is not None:
            out["playoff"] = {"deck": list(rec["playoff_deck"]), "actions": []}
        return out

    def _replay_actions(self, hand: dict[str, Any]) -> list[dict[str, Any]]:
        """A hand's decisions as applied; for the hand in play, mid-way through a step decided at
        once, followed by the choices made so far that come before the first seat still choosing
        (in the published order): the replay then waits for that seat, as the game does."""
        actions = [dict(a) for a in hand["actions"]]
        if hand is self.log[-1] and self.r is not None and self.r.sealed:
            sealed = {int(a["seat"]): a for a in self.r.sealed}
            for w in self.asked_together():
                if w.seat not in sealed:
                    break
                actions.append(dict(sealed[w.seat]))
        return actions

    # ---------------------------------------------------------- persistence
    def to_json(self) -> str:
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str, clock: Callable[[], float] | None = None) -> Game:
        preset, options, players, state = read_save(text)
        g = cls(preset, options, players, clock)
        restore(g, state)
        return g

    def clone(self) -> Game:
        return Game.from_json(self.to_json(), clock=self.clock)

    def __repr__(self) -> str:
        return f"<Game {self.preset_key} round {self.round_number} phase {self.phase} stacks {self.stacks}>"


def _overrides(base: Options, options: Options) -> dict[str, Any]:
    """The options that differ from the preset's, and always ``game_end`` (a replay's rounds are
    otherwise read as the game's length)."""
    mine, theirs = options.to_dict(), base.to_dict()
    return {k: v for k, v in mine.items() if v != theirs[k] or k == "game_end"}
