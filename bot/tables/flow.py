"""The game's flow: what happens after any change to a table, whichever part made it.

A player's move (:mod:`bot.tables.play`), a lobby's start or a player leaving
(:mod:`bot.tables.lobby`), a vote (:mod:`bot.tables.moderation`) and a deadline firing
(:mod:`bot.tables.timers`) all end here: :meth:`Flow.advance` runs everything that needs no
waiting (AI seats without a pause, the next deal without a round pause), sets the table's next
deadline and saves it: at once when a human is to act, else coalesced. A finished game is
cashed out (:meth:`Flow.finish`), a closed lobby refunded (:meth:`Flow.cancel`). The parts call
this module; it calls none of them, so the service's calls go one way.

Deadlines are absolute times from the clock, saved with the table; :meth:`Flow.set_deadline`
sets :attr:`Flow.deadlines_changed` so the timer loop looks again.

Every change made under a table's lock is all or nothing (:meth:`Flow.all_or_nothing`): if its
save is refused because the database is away, the table goes back to the state its database row
holds, is shown as such, and the refusal is raised (the player reads "try again in a moment"; a
deadline is held: bot.tables.timers).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.competition.store import CompetitionStore, RatedSeat
from bot.economy.bank import HOUSE, Bank
from bot.errors import DatabaseUnavailable
from bot.i18n import reading
from bot.settings import Settings
from bot.storage import priority
from bot.tables.aiworker import AIPlayers
from bot.tables.clock import Clock, Hearing
from bot.tables.log import LOGGED_EVENTS
from bot.tables.model import DeadlineKind, Seat, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.registry import Registry
from bot.tables.results import game_results
from bot.tables.store import TableStore
from bot.tables.telling import Line, Note, Teller
from engine import Action, Awaiting, Event, Game
from engine.events import Deal
from engine.phases.names import PhaseName

log = logging.getLogger(__name__)
FORCED_PAUSE = 1.5  # seconds a forced card stays on show before it is played for its holder


def card_rank(card: str) -> int:
    from engine.cards import parse, rank_of

    return rank_of(parse(card))


def safe_default(game: Game, aw: Awaiting, ai_choice: Callable[[], Action]) -> Action:
    """The action played for a seat that ran out of time (RULES: check or fold, best five,
    the forced or lowest lead, no bid). Falls back to the AI's choice when none applies."""
    legal = list(aw.legal)
    detail = aw.detail  # (its keys depend on the phase)
    candidates: list[Action] = []
    if "check" in legal:
        candidates.append(Action(seat=aw.seat, do="check"))
    if "fold" in legal:
        candidates.append(Action(seat=aw.seat, do="fold"))
    if "choose" in legal and detail.get("best"):
        candidates.append(Action(seat=aw.seat, do="choose", cards=list(detail["best"])))
    if "lead" in legal:
        cards = detail.get("cards") or []
        if cards:
            candidates.append(Action(seat=aw.seat, do="lead", card=min(cards, key=card_rank)))
        else:
            candidates.append(Action(seat=aw.seat, do="lead"))
    if "pass" in legal:
        candidates.append(Action(seat=aw.seat, do="pass"))
    if "keep" in legal:
        candidates.append(Action(seat=aw.seat, do="keep"))
    if "decline" in legal:
        candidates.append(Action(seat=aw.seat, do="decline"))
    if "play" in legal:
        candidates.append(Action(seat=aw.seat, do="play"))
    for action in candidates:
        try:
            game.check(action)
            return action
        except ValueError:
            continue
    return ai_choice()


def replay_json(table: Table) -> str | None:
    """The finished game as a replay file's text; None for a game begun before games were kept
    as replays (its early decks are not known)."""
    try:
        return json.dumps(table.running_game.to_replay())
    except ValueError as exc:
        log.info("table %s has no replay: %s", table.id, exc)
        return None


class Flow:
    def __init__(
        self,
        registry: Registry,
        store: TableStore,
        bank: Bank,
        settings: Settings,
        clock: Clock,
        ai: AIPlayers,
        rng: random.Random,
        teller: Teller,
    ) -> None:
        self.registry = registry
        self.store = store
        self.bank = bank
        self.settings = settings
        self.clock = clock
        self.ai = ai
        self.rng = rng
        self.ratings = CompetitionStore(store.db)  # each finished game rated with its end (bot.competition)
        self.teller = teller
        self.deadlines_changed = asyncio.Event()  # the timer loop (bot.tables.timers) waits on it
        self.hearing = Hearing(clock)  # whether the players can be heard (deadlines held while not)
        # (table id, seat) → the note of a choice held unseen (timed out), told when its step resolves
        self._held_notes: dict[tuple[int, int], Note] = {}

    # -- deadlines ----------------------------------------------------------------------

    def wake(self) -> None:
        """A deadline changed: the timer loop looks again."""
        self.deadlines_changed.set()

    def set_deadline(
        self, table: Table, delay: float | None, kind: DeadlineKind | None = None, seat: int | None = None
    ) -> None:
        if delay is None:
            table.deadline = table.deadline_kind = table.deadline_seat = None
        else:
            table.deadline = self.clock.now() + delay
            table.deadline_kind = kind
            table.deadline_seat = seat
        self.wake()

    @asynccontextmanager
    async def all_or_nothing(self, table: Table) -> AsyncIterator[None]:
        """Around a change under the table's lock and its save: if the database is away (the save
        refused), the table is put back as the database holds it and shown so, and the refusal
        raised. So no move, timeout or vote a player could be shown stays applied unsaved."""
        checkpoint = table.checkpoint()
        try:
            yield
        except DatabaseUnavailable as exc:
            table.roll_back(checkpoint)
            self.store.discard(table)  # memory is what the database holds: nothing left to write
            log.warning("table %s: a change was undone, the database is away (%s)", table.id, exc.detail)
            self.wake()
            self.registry.show_again(table)
            raise

    # -- the engine loop ----------------------------------------------------------------

    def ai_action(self, table: Table, seat: int) -> Action:
        """The Normal AI's choice for ``seat`` (what a timed-out player falls back to)."""
        from engine.ai import choose_action

        return choose_action(table.running_game, seat, kind="normal", rng=self.rng)

    async def play_auto(
        self,
        table: Table,
        events: list[Event],
        timeout: bool = False,
        note: Note = Note.TIMED_OUT,
        search: bool = True,
        seat: int | None = None,
    ) -> Action | None:
        """Play one move for the awaited seat (``seat``: that one of a step every seat decides at
        once): its AI's at the seat's level (Normal without ``search``; None: the game moved on
        meanwhile), or the safe default on a timeout (``note`` follows its log line)."""
        game = table.running_game
        aw = game.awaiting(seat)
        assert aw is not None  # called when a seat is to act
        action: Action | None
        if timeout:
            action = safe_default(game, aw, lambda: self.ai_action(table, aw.seat))
        else:
            who = table.seats[aw.seat]
            level = who.ai_level if who.is_ai and search else "normal"
            action = await self.ai.decide(game, aw.seat, level)
            if action is None:
                return None
        applied, _ = self.apply_logged(table, action, note if timeout else Note.NONE)
        events += applied
        return action

    def apply_logged(self, table: Table, action: Action, note: Note = Note.NONE) -> tuple[list[Event], str]:
        """Apply a checked ``action`` and tell it in the log; the events and the action's line said to its
        player ("you keep the hand as dealt").

        A choice in a step every seat decides at once is held unseen: the log tells the step's
        choices only once the last is in (each as its seat's line, in the published order), and
        until then nothing but who is still choosing (the table message)."""
        game = table.running_game
        aw = game.awaiting(action.seat)
        assert aw is not None  # checked: the seat may act
        names = [s.name for s in table.seats]
        together = game.is_simultaneous()
        asked = game.asked_seats()
        held = [choice for s in asked if (choice := game.sealed_choice(s)) is not None] if together else []
        events = list(game.apply(action))
        own = self.teller.action(names, action, events, aw.phase, you=True)
        if not together:
            with reading(table.locale):
                table.add_log(self.teller.action(names, action, events, aw.phase, note))
        elif not events:  # held unseen: its note (a timeout) is told with it once the step resolves
            self._held_notes[(table.id, action.seat)] = note
        else:  # the last choice came in: the step is resolved, every choice applied
            for choice in sorted([*held, action], key=lambda a: asked.index(a.seat)):
                told = note if choice is action else self._held_notes.pop((table.id, choice.seat), Note.NONE)
                with reading(table.locale):
                    table.add_log(self.teller.action(names, choice, events, aw.phase, told))
        return events, own

    async def advance(self, table: Table, events: list[Event], rearm: bool = True, urgent: bool = False) -> TableUpdate:
        """After a change: run whatever needs no waiting, set the next deadline, save.

        The save is immediate when ``urgent`` or when the table now waits for a human (their turn
        is shown to them, so it must survive a crash); otherwise it is coalesced."""
        game = table.running_game
        table.ask_humans()
        dealt = any(isinstance(e, Deal) for e in events)
        logged = 0  # events told in the log so far (a round's lines go to that round's story)
        begins = False  # a step decided at once began during this call (its timer is armed anew)
        for _ in range(10_000):
            if game.finished:
                return await self.finish(table, events, logged)
            aw = game.awaiting()
            if aw is None:
                pause = self.settings.round_pause
                if pause <= 0:
                    self.log_events(table, events[logged:])
                    logged = len(events)
                    new = list(game.next_deal())
                    dealt = dealt or any(isinstance(e, Deal) for e in new)
                    events += new
                    continue
                self.set_deadline(table, pause, DeadlineKind.NEXT_DEAL)
                break
            if game.is_simultaneous():
                # Every seat asked decides at once: the AI seats answer now (held unseen), and one
                # timer runs for the players still choosing, armed as the step begins.
                begins = begins or not game.chosen_seats()
                ai_seats = [s for s in game.acting_seats() if table.seats[s].auto]
                quick = [s for s in ai_seats if not table.seats[s].searches]
                for s in quick:
                    await self.play_auto(table, events, seat=s)
                if quick:
                    continue
                if ai_seats:  # Hard seats search in the timers' tasks, one after another, from now
                    if table.deadline_kind != DeadlineKind.AI or table.deadline_seat not in ai_seats:
                        self.set_deadline(table, 0.0, DeadlineKind.AI, ai_seats[0])
                    break
                if (rearm and begins) or table.deadline_kind != DeadlineKind.TURN:
                    # (its seat: the first still choosing, as a decision in turn names its own)
                    self.set_deadline(table, table.turn_timeout, DeadlineKind.TURN, game.acting_seats()[0])
                break
            seat = table.seats[aw.seat]
            if seat.auto:
                # Great Lakes: an AI holder of the next card decides at once, combination or not
                # (a pause only when it has one would show the table that it has one).
                if table.ai_pause <= 0 or aw.phase == PhaseName.MICHIGAN_PLAY:
                    await self.play_auto(table, events)
                    continue
                if rearm or table.deadline_kind != DeadlineKind.AI or table.deadline_seat != aw.seat:
                    self.set_deadline(table, table.ai_pause, DeadlineKind.AI, aw.seat)
                break
            if table.auto_forced and aw.detail.get("forced"):
                kind, timeout = DeadlineKind.FORCED, FORCED_PAUSE  # played for them (bot.tables.timers)
            else:
                kind = DeadlineKind.TURN
                timeout = self.settings.claim_timeout if aw.phase == PhaseName.CLAIM else table.turn_timeout
            if rearm or table.deadline_kind != kind or table.deadline_seat != aw.seat:
                self.set_deadline(table, timeout, kind, aw.seat)
            break
        self.log_events(table, events[logged:])
        # urgent: an interaction is answered after this save (a hand view's move): it goes first.
        await self.store.save(
            table,
            urgent=urgent or table.deadline_kind == DeadlineKind.TURN,
            priority=priority.INTERACTIVE if urgent else priority.NORMAL,
        )
        return TableUpdate.of(table, UpdateKind.PLAY, events=list(events), dealt=dealt)

    def log_events(self, table: Table, events: list[Event]) -> None:
        if not any(isinstance(e, LOGGED_EVENTS) for e in events):
            return
        view = table.running_game.view(None)  # public: names, space labels, pay suit
        with reading(table.locale):
            lines = self.teller.events(events, view)
        for line in lines:
            table.add_log(line)

    # -- the end of a game or a lobby ---------------------------------------------------

    async def stop_game(self, table: Table, reason: str) -> TableUpdate:
        game = table.running_game
        events = list(game.end_now())
        guard = 0
        # Play the board clearing out (it can take a whole Michigan hand or more): stopping early
        # would send the chips still on the mat to the house instead of to the players.
        while not game.finished and guard < 100_000:
            guard += 1
            if game.awaiting() is None:
                events += list(game.next_deal())
            else:
                await self.play_auto(table, events, search=False)  # no Hard search: many moves at once
        table.add_log(reason)
        update = await self.finish(table, events)
        update.message = reason
        return update

    async def seat_to_ai(self, table: Table, seat: Seat, line: str) -> TableUpdate | None:
        """Under the table's lock, mid-game: the player is gone for good, so an AI plays the seat to
        the end (they are cashed out then). With no player left the game ends: its update."""
        seat.left = True
        table.add_log(line)
        if not any(not s.left for s in table.humans()):
            return await self.stop_game(table, self.teller.public(table.locale, Line.EVERY_PLAYER_LEFT))
        return None

    async def cancel(self, table: Table, reason: str) -> TableUpdate:
        """Close a lobby: every stake back to its wallet (or the house)."""
        payouts = [(s.account, s.stake) for s in table.seats]
        table.add_log(reason)
        self.store.discard(table)
        async with self.store.transaction() as conn:
            await self.bank.cash_out_all(conn, table.guild_id, table.id, payouts, kind="refund")
            await self.store.cancel(conn, table, self.clock.wall())
        # Only once the refunds are committed: a failure leaves the lobby open (and its timer armed).
        table.status = TableStatus.CANCELLED
        self.set_deadline(table, None)
        table.version += 1
        self.registry.forget(table)
        return TableUpdate.of(table, UpdateKind.CANCELLED, message=reason)

    async def finish(self, table: Table, events: list[Event], logged: int = 0) -> TableUpdate:
        """The game is over: everyone cashed out, results recorded. ``events[:logged]`` are in the
        log already."""
        game = table.running_game
        stacks = list(game.stacks)
        on_mat = sum(game.mat.values()) if isinstance(game.mat, dict) else 0
        held = sum(stacks) + on_mat
        if on_mat:
            log.error("table %s ended with %s chips on the mat; they go to the house", table.id, on_mat)
        payouts = [(seat.account, int(stacks[i])) for i, seat in enumerate(table.seats)]
        if on_mat:
            payouts.append((HOUSE, int(on_mat)))
        results = game_results(table, stacks, events)
        replay = replay_json(table)
        self.log_events(table, events[logged:])
        now = self.clock.wall()
        self.store.discard(table)  # this transaction writes the newest state
        async with self.store.transaction() as conn:
            await self.bank.cash_out_all(conn, table.guild_id, table.id, payouts)
            await self.store.finish(conn, table, results, replay, now)
            rated = [RatedSeat(seat.user_id, seat.ai_level, int(stacks[i])) for i, seat in enumerate(table.seats)]
            await self.ratings.record_game(conn, table.guild_id, table.id, rated, now)
        # Only once everyone is cashed out: if that failed, the table stays open (put back as it
        # was: Flow.all_or_nothing) rather than a finished table holding chips nobody gets back.
        table.status = TableStatus.FINISHED
        table.result = results
        self.set_deadline(table, None)
        table.version += 1
        if held != sum(s.stake for s in table.seats):
            log.error(
                "table %s: chips changed during the game (%s → %s)", table.id, sum(s.stake for s in table.seats), held
            )
        self.registry.forget(table)
        return TableUpdate.of(
            table, UpdateKind.FINISHED, events=list(events), message=self.teller.public(table.locale, Line.GAME_OVER)
        )
