"""Play: a player's move (checked, applied, saved), "I'm back", stopping a table.

:meth:`Play.check_move` is the one validation of a click: the Discord side runs it before it
acknowledges the click, :meth:`Play.act` again under the table's lock. What follows a move
(AI seats, the next deal, the deadline, the save) is :meth:`bot.tables.flow.Flow.advance`.
"""

from __future__ import annotations

from typing import Any

from bot import errors
from bot.tables.flow import Flow
from bot.tables.log import decision_token
from bot.tables.model import BeforeApply, DeadlineKind, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.registry import Registry
from bot.tables.telling import Line, Teller
from engine import Action, Awaiting, IllegalAction
from engine.phases.names import PhaseName


def awaited_of(table: Table, index: int) -> Awaiting:
    """Seat ``index``'s decision now (in a step every seat decides at once, any seat not yet
    chosen), or the refusal that says whom the table waits for."""
    game = table.running_game
    aw = game.awaiting(index)
    if aw is not None:
        return aw
    if game.awaiting() is None:
        raise errors.WrongPhase(errors.Refusal.NOBODY_TO_ACT)
    view = game.view(index)
    if view["sealed"]:
        raise errors.NotYourTurn(errors.Refusal.CHOSEN_ALREADY, view=view)
    names = ", ".join(table.seats[s].name for s in game.acting_seats())
    raise errors.NotYourTurn(errors.Refusal.NOT_YOUR_TURN, name=names)


class Play:
    def __init__(self, registry: Registry, flow: Flow, teller: Teller) -> None:
        self.registry = registry
        self.flow = flow
        self.say = teller.say
        self.public = teller.public

    @staticmethod
    def check_move(
        table: Table, user_id: int, action: dict[str, Any], round_number: int | None = None, expect: str | None = None
    ) -> tuple[int, Action]:
        """The seat and the validated :class:`engine.Action`, or the refusal (raised) that says why
        not. Synchronous, so it sees a consistent state with or without the table's lock: the
        same check answers a click before its acknowledgement and applies it under the lock."""
        if round_number is not None and round_number != table.round:
            raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
        if table.status != TableStatus.PLAYING:
            raise errors.WrongPhase(
                errors.Refusal.NOT_STARTED if table.status == TableStatus.LOBBY else errors.Refusal.GAME_OVER
            )
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.NOT_PLAYING)
        seat = table.seats[index]
        if seat.left:
            raise errors.NotAllowed(errors.Refusal.LEFT_AI_PLAYS)
        if seat.away:
            raise errors.NotAllowed(errors.Refusal.AI_PLAYS_FOR_YOU)
        aw = table.running_game.awaiting()
        if expect is not None and (
            aw is None or aw.phase != PhaseName.CLAIM or decision_token(table.running_game) != expect
        ):
            raise errors.StaleButton(errors.Refusal.CLAIM_SETTLED)
        aw = awaited_of(table, index)
        try:
            act = Action.from_dict({**action, "seat": index})
        except ValueError:
            raise errors.TripoleyError(errors.Refusal.UNKNOWN_ACTION) from None
        if act.do not in aw.legal:
            raise errors.WrongPhase(errors.Refusal.NOT_NOW, verb=act.do, legal=aw.legal)
        try:
            table.running_game.check(act)
        except IllegalAction as exc:
            raise errors.TripoleyError(
                errors.Refusal.ILLEGAL, reason=exc, view=table.running_game.view(index)
            ) from None
        return index, act

    def check_in_time(self, table: Table, index: int, made_at: float | None) -> None:
        """Refuse a move made (``made_at``, on the game's clock; None: not known) after its turn ran
        out, though the timer has not fired yet. The deadline counts as extended by the time the bot
        has been deaf so far (a click replayed after a gateway outage comes before the bot hears
        again): a click made in time is applied however late it arrives."""
        if made_at is None or table.deadline is None:
            return
        if table.deadline_kind != DeadlineKind.TURN or table.deadline_seat != index:
            return
        if made_at > table.deadline + self.flow.hearing.deaf_for():
            raise errors.WrongPhase(errors.Refusal.TIME_RAN_OUT)

    async def act(
        self,
        table: Table,
        user_id: int,
        action: dict[str, Any],
        round_number: int | None = None,
        expect: str | None = None,
        before_apply: BeforeApply | None = None,
        made_at: float | None = None,
    ) -> TableUpdate:
        """Apply a player's action (``{"do": "bet", "amount": 5}``; the seat is filled in) at
        ``table`` (found by the id its button carries, or by its channel).

        ``expect``: the :func:`decision_token` the button was made for (claims); a different
        one means the decision is already settled and the click is refused.

        With ``before_apply`` (the Discord layer acknowledges the click there) the action is
        first checked against the current state without waiting for the table's lock (a check
        is synchronous, so it sees a consistent state): refusals are raised before the
        acknowledgement and answered as such, and a legal move is acknowledged at once, not
        after the save or timer that holds the lock. Under the lock the action is checked again
        (a concurrent click may have changed the state: that refusal comes after the
        acknowledgement) and applied. The new state is saved at once (the acknowledgement went
        out already, so nobody waits for it): a crash never undoes a player's move.

        ``made_at``: when the click was made (:meth:`check_in_time`)."""
        if before_apply is not None:
            index, _ = self.check_move(table, user_id, action, round_number, expect)
            self.check_in_time(table, index, made_at)
            await before_apply()
        async with table.lock:
            index, act = self.check_move(table, user_id, action, round_number, expect)
            self.check_in_time(table, index, made_at)
            seat = table.seats[index]
            async with self.flow.all_or_nothing(table):  # the database away: the move is undone, refused
                try:
                    events, line = self.flow.apply_logged(table, act)
                except IllegalAction as exc:
                    raise errors.TripoleyError(
                        errors.Refusal.ILLEGAL, reason=exc, view=table.running_game.view(index)
                    ) from None
                seat.timeouts, seat.votes = 0, []  # they are here: a vote on their seat closes
                try:
                    update = await self.flow.advance(table, events, urgent=True)
                except errors.DatabaseUnavailable:
                    raise
                except Exception:
                    self.registry.changed_unsaved(table)
                    raise
            update.message = self.say(Line.DONE, line=line)
        self.registry.notify(update)
        return update

    async def back(self, channel_id: int, user_id: int) -> TableUpdate:
        """ "I'm back": the player takes their seat from the AI again."""
        table = self.registry.get(channel_id)
        async with table.lock:
            index = table.seat_of(user_id)
            if index is None or table.status != TableStatus.PLAYING:
                raise errors.NotSeated(errors.Refusal.NOT_PLAYING)
            seat = table.seats[index]
            if seat.left:
                raise errors.NotAllowed(errors.Refusal.LEFT_JOIN_NEXT)
            if not seat.away:
                raise errors.TripoleyError(errors.Refusal.IN_CONTROL)
            async with self.flow.all_or_nothing(table):
                seat.away = False
                seat.timeouts, seat.votes = 0, []
                table.add_log(self.public(table.locale, Line.BACK, name=seat.name))
                await self.flow.advance(table, [], rearm=False, urgent=True)
            update = TableUpdate.of(table, UpdateKind.PLAY, message=self.say(Line.WELCOME_BACK))
        self.registry.notify(update)
        return update

    async def stop(self, channel_id: int, user_id: int, can_manage: bool, name: str = "") -> TableUpdate:
        """The host, or a member with Manage Server (``can_manage``; ``name``: theirs), ends the
        table; the log and the answer say who did."""
        table = self.registry.get(channel_id)
        async with table.lock:
            self.registry.still_open(table)
            if user_id != table.host_id and not can_manage:
                raise errors.NotAllowed(errors.Refusal.STOP_NOT_ALLOWED)
            if user_id == table.host_id:
                closed, stopped = (
                    self.public(table.locale, Line.HOST_CLOSED),
                    self.public(table.locale, Line.HOST_STOPPED),
                )
            else:
                closed = self.public(table.locale, Line.MANAGER_CLOSED, name=name)
                stopped = self.public(table.locale, Line.MANAGER_STOPPED, name=name)
            async with self.flow.all_or_nothing(table):
                update = await self._close(table, closed, stopped)
        self.registry.notify(update)
        return update

    async def end_lost(self, table: Table, why: str) -> TableUpdate | None:
        """End the table at once because its place on Discord is gone (``why``: a key of
        :data:`bot.messages.notices.PLACE_LOST`): a lobby refunded, a game cashed out through the
        ledger. None if it had closed already."""
        async with table.lock:
            if not self.registry.is_open(table):
                return None
            update = await self._close(
                table,
                self.public(table.locale, Line.PLACE_LOST_LOBBY, why=why),
                self.public(table.locale, Line.PLACE_LOST_GAME, why=why),
            )
        self.registry.notify(update)
        return update

    async def _close(self, table: Table, lobby_reason: str, game_reason: str) -> TableUpdate:
        """Under the table's lock: a lobby closed (buy-ins refunded) or a game stopped (everyone cashed out)."""
        if table.status == TableStatus.LOBBY:
            return await self.flow.cancel(table, lobby_reason)
        return await self.flow.stop_game(table, game_reason)
