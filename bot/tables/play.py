"""Play: a player's move (checked, applied, saved), AI moves, safe defaults, the round's end.

:meth:`Play.advance` runs everything that needs no waiting after a change (AI seats without a
pause, the next deal without a round pause), sets the table's next deadline
(:mod:`bot.tables.timers`) and saves it: at once when a human is to act, else coalesced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot import errors
from bot.messages.text import escape, you_did
from bot.storage import database as storage
from bot.tables.log import LOGGED_EVENTS, decision_token, describe_event, escaped_view, public_action_text
from bot.tables.model import BeforeApply, Seat, Table, TableUpdate
from engine.events import Deal

if TYPE_CHECKING:
    from bot.tables.manager import TableManager


def card_rank(card: str) -> int:
    from engine.cards import parse, rank_of

    return rank_of(parse(card))


def safe_default(game, aw, ai_choice: Callable[[], Any]):
    """The action played for a seat that ran out of time (RULES: check or fold, best five,
    the forced or lowest lead, no bid). Falls back to the AI's choice when none applies."""
    from engine import Action

    legal = list(aw.legal)
    detail = aw.detail or {}
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


class Play:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    def _playing_table(self, channel_id: int, round_number: int | None) -> Table:
        table = self.m.get(channel_id)
        if round_number is not None and round_number != table.round:
            raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
        return table

    def _check_move(
        self, table: Table, user_id: int, action: dict[str, Any], round_number: int | None, expect: str | None
    ):
        """The seat and the validated :class:`engine.Action`, or the refusal (raised) that says why not."""
        from engine import Action, IllegalAction

        if round_number is not None and round_number != table.round:
            raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
        if table.status != "playing":
            raise errors.WrongPhase(errors.Refusal.NOT_STARTED if table.status == "lobby" else errors.Refusal.GAME_OVER)
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.NOT_PLAYING)
        seat = table.seats[index]
        if seat.left:
            raise errors.NotAllowed(errors.Refusal.LEFT_AI_PLAYS)
        if seat.away:
            raise errors.NotAllowed(errors.Refusal.AI_PLAYS_FOR_YOU)
        aw = table.game.awaiting()
        if expect is not None and (aw is None or aw.phase != "claim" or decision_token(table.game) != expect):
            raise errors.StaleButton(errors.Refusal.CLAIM_SETTLED)
        if aw is None:
            raise errors.WrongPhase(errors.Refusal.NOBODY_TO_ACT)
        if aw.seat != index:
            raise errors.NotYourTurn(errors.Refusal.NOT_YOUR_TURN, name=table.seats[aw.seat].name)
        try:
            act = Action.from_dict({**action, "seat": index})
        except ValueError:
            raise errors.TripoleyError(errors.Refusal.UNKNOWN_ACTION) from None
        if act.do not in aw.legal:
            raise errors.WrongPhase(errors.Refusal.NOT_NOW, verb=act.do, legal=aw.legal)
        try:
            table.game.check(act)
        except IllegalAction as exc:
            raise errors.TripoleyError(errors.Refusal.ILLEGAL, reason=str(exc), view=table.game.view(index)) from None
        return index, act

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: dict[str, Any],
        round_number: int | None = None,
        expect: str | None = None,
        before_apply: BeforeApply | None = None,
    ) -> TableUpdate:
        """Apply a player's action (``{"do": "bet", "amount": 5}``; the seat is filled in).

        ``expect``: the :func:`decision_token` the button was made for (claims); a different
        one means the decision is already settled and the click is refused.

        With ``before_apply`` (the Discord layer acknowledges the click there) the action is
        first checked against the current state without waiting for the table's lock (a check
        is synchronous, so it sees a consistent state): refusals are raised before the
        acknowledgement and answered as such, and a legal move is acknowledged at once, not
        after the save or timer that holds the lock. Under the lock the action is checked again
        (a concurrent click may have changed the state: that refusal comes after the
        acknowledgement) and applied. The new state is saved at once (the acknowledgement went
        out already, so nobody waits for it): a crash never undoes a player's move."""
        from engine import IllegalAction

        table = self._playing_table(channel_id, round_number)
        if before_apply is not None:
            self._check_move(table, user_id, action, round_number, expect)
            await before_apply()
        async with table.lock:
            index, act = self._check_move(table, user_id, action, round_number, expect)
            seat = table.seats[index]
            phase = table.game.awaiting().phase
            try:
                events = list(table.game.apply(act))
            except IllegalAction as exc:
                raise errors.TripoleyError(
                    errors.Refusal.ILLEGAL, reason=str(exc), view=table.game.view(index)
                ) from None
            seat.timeouts, seat.votes = 0, []  # they are here: a vote on their seat closes
            line = public_action_text([s.name for s in table.seats], act, events, phase)
            table.add_log(line)
            try:
                update = await self.advance(table, events, urgent=True)
            except Exception:
                self.m.changed_unsaved(table)
                raise
            update.message = "Done: " + you_did(line, seat.name)
        self.m.notify(update)
        return update

    async def back(self, channel_id: int, user_id: int) -> TableUpdate:
        """ "I'm back": the player takes their seat from the AI again."""
        table = self.m.get(channel_id)
        async with table.lock:
            index = table.seat_of(user_id)
            if index is None or table.status != "playing":
                raise errors.NotSeated(errors.Refusal.NOT_PLAYING)
            seat = table.seats[index]
            if seat.left:
                raise errors.NotAllowed(errors.Refusal.LEFT_JOIN_NEXT)
            if not seat.away:
                raise errors.TripoleyError(errors.Refusal.IN_CONTROL)
            seat.away = False
            seat.timeouts, seat.votes = 0, []
            table.add_log(f"{escape(seat.name)} is back.")
            await self.advance(table, [], rearm=False, urgent=True)
            update = self.m.update(table, "play", message="Welcome back! Your seat is yours again.")
        self.m.notify(update)
        return update

    async def stop(self, channel_id: int, user_id: int, can_manage: bool, name: str = "") -> TableUpdate:
        """The host, or a member with Manage Server (``can_manage``; ``name``: theirs), ends the
        table; the log and the answer say who did."""
        table = self.m.get(channel_id)
        async with table.lock:
            self.m.still_open(table)
            if user_id != table.host_id and not can_manage:
                raise errors.NotAllowed(errors.Refusal.STOP_NOT_ALLOWED)
            who = "The host" if user_id == table.host_id else f"{escape(name) or 'A server manager'} (Manage Server)"
            if table.status == "lobby":
                update = await self.m.lobby.cancel(table, f"{who} closed the table; buy-ins are refunded.")
            else:
                update = await self.stop_game(table, f"{who} stopped the game; everyone is cashed out.")
        self.m.notify(update)
        return update

    async def stop_game(self, table: Table, reason: str) -> TableUpdate:
        game = table.game
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
        update = await self.m.results.finish(table, events)
        update.message = reason
        return update

    async def seat_to_ai(self, table: Table, seat: Seat, line: str) -> TableUpdate | None:
        """Under the table's lock, mid-game: the player is gone for good, so an AI plays the seat to
        the end (they are cashed out then). With no player left the game ends: its update."""
        seat.left = True
        table.add_log(line)
        if not any(not s.left for s in table.humans()):
            return await self.stop_game(table, "Every player left, so the game ended.")
        return None

    # -- the engine loop --------------------------------------------------------

    def ai_action(self, table: Table, seat: int):
        """The Normal AI's choice for ``seat`` (what a timed-out player falls back to)."""
        from engine.ai import choose_action

        return choose_action(table.game, seat, kind="normal", rng=self.m.rng)

    async def play_auto(
        self, table: Table, events: list, timeout: bool = False, note: str = " (timed out)", search: bool = True
    ):
        """Play one move for the awaited seat: its AI's at the seat's level (Normal without
        ``search``; None: the game moved on meanwhile), or the safe default on a timeout (``note``
        follows its log line)."""
        aw = table.game.awaiting()
        if timeout:
            action = safe_default(table.game, aw, lambda: self.ai_action(table, aw.seat))
        else:
            seat = table.seats[aw.seat]
            level = seat.ai_level if seat.is_ai and search else "normal"
            action = await self.m.ai.decide(table.game, aw.seat, level)
            if action is None:
                return None
        applied = list(table.game.apply(action))
        events += applied
        line = public_action_text([s.name for s in table.seats], action, applied, aw.phase)
        table.add_log(line + (note if timeout else ""))
        return action

    async def advance(self, table: Table, events: list, rearm: bool = True, urgent: bool = False) -> TableUpdate:
        """After a change: run whatever needs no waiting, set the next deadline, save.

        The save is immediate when ``urgent`` or when the table now waits for a human (their turn
        is shown to them, so it must survive a crash); otherwise it is coalesced."""
        game = table.game
        table.ask_humans()
        dealt = any(isinstance(e, Deal) for e in events)
        logged = 0  # events told in the log so far (a round's lines go to that round's story)
        for _ in range(10_000):
            if game.finished:
                return await self.m.results.finish(table, events, logged)
            aw = game.awaiting()
            if aw is None:
                pause = self.m.settings.round_pause
                if pause <= 0:
                    self.log_events(table, events[logged:])
                    logged = len(events)
                    new = list(game.next_deal())
                    dealt = dealt or any(isinstance(e, Deal) for e in new)
                    events += new
                    continue
                self.m.timers.set_deadline(table, pause, "next-deal")
                break
            seat = table.seats[aw.seat]
            if seat.auto:
                # Great Lakes: an AI holder of the next card decides at once, combination or not
                # (a pause only when it has one would show the table that it has one).
                if table.ai_pause <= 0 or aw.phase == "michigan-play":
                    await self.play_auto(table, events)
                    continue
                if rearm or table.deadline_kind != "ai" or table.deadline_seat != aw.seat:
                    self.m.timers.set_deadline(table, table.ai_pause, "ai", aw.seat)
                break
            timeout = self.m.settings.claim_timeout if aw.phase == "claim" else table.turn_timeout
            if rearm or table.deadline_kind != "turn" or table.deadline_seat != aw.seat:
                self.m.timers.set_deadline(table, timeout, "turn", aw.seat)
            break
        self.log_events(table, events[logged:])
        # urgent: an interaction is answered after this save (a hand view's move): it goes first.
        await self.m.store.save(
            table,
            urgent=urgent or table.deadline_kind == "turn",
            priority=storage.INTERACTIVE if urgent else storage.NORMAL,
        )
        return self.m.update(
            table,
            "play",
            events=list(events),
            dealt=dealt,
        )

    def log_events(self, table: Table, events: list) -> None:
        if not any(isinstance(e, LOGGED_EVENTS) for e in events):
            return
        view = escaped_view(table.game.view(None))  # public: names, space labels, pay suit
        for event in events:
            line = describe_event(event, view)
            if line:
                table.add_log(line)
