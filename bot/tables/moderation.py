"""The table's own moderation: the host removes a player, the players vote an absent one's seat to the AI.

No admin is needed for either. The host removes a player from the lobby at once (their buy-in
refunded) or, once confirmed, mid-game (an AI plays the seat to the end and they are cashed out
then, like a player who left: :meth:`bot.tables.lobby.Lobby.leave_seat`). A player who missed a turn
can have their seat handed to the AI by a majority of the other players still at the keyboard;
it is theirs again when they press **I'm back**, as after three missed turns. The vote closes
when they act (:meth:`bot.tables.play.Play.act` clears it).
"""

from __future__ import annotations

from bot import errors
from bot.tables.flow import Flow
from bot.tables.lobby import Lobby
from bot.tables.model import Seat, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.registry import Registry
from bot.tables.store import TableStore
from bot.tables.telling import Line, Notice, Teller


def voters(table: Table, target: int) -> list[int]:
    """Who may vote on seat ``target``: the other players still at the keyboard (not left, not away)."""
    return [
        seat.user_id for i, seat in enumerate(table.seats) if i != target and seat.user_id is not None and not seat.auto
    ]


def votes_needed(table: Table, target: int) -> int:
    """A majority of :func:`voters`: more than half of them."""
    return len(voters(table, target)) // 2 + 1


def vote_open(seat: Seat) -> bool:
    """Whether the table may vote on this seat: a player at the keyboard who missed their last turn."""
    return seat.user_id is not None and not seat.auto and seat.timeouts > 0


class Moderation:
    def __init__(self, registry: Registry, store: TableStore, flow: Flow, lobby: Lobby, teller: Teller) -> None:
        self.registry = registry
        self.store = store
        self.flow = flow
        self.lobby = lobby  # a removed player leaves as one who left (Lobby.leave_seat)
        self.say = teller.say
        self.public = teller.public

    def check_kick(self, table: Table, host_id: int, user_id: int) -> Seat:
        """The seat the host may remove (raised: why not). Also checked again under the lock."""
        if table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            raise errors.NoTable(errors.Refusal.TABLE_CLOSED)
        if host_id != table.host_id:
            raise errors.NotAllowed(errors.Refusal.HOST_ONLY_KICK)
        if user_id == host_id:
            raise errors.NotAllowed(errors.Refusal.KICK_YOURSELF)
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.KICK_NOT_SEATED)
        seat = table.seats[index]
        if seat.left:
            raise errors.TripoleyError(errors.Refusal.KICK_LEFT_ALREADY, name=seat.name)
        return seat

    async def host_kick(self, channel_id: int, host_id: int, user_id: int, confirmed: bool = False) -> TableUpdate:
        """The host removes a player: from the lobby at once (refunded); mid-game only ``confirmed``
        (the Discord layer asks first), their seat then played by an AI, their chips still theirs."""
        table = self.registry.get(channel_id)
        async with table.lock:
            self.registry.still_open(table)
            seat = self.check_kick(table, host_id, user_id)
            if table.status == TableStatus.PLAYING and not confirmed:
                raise errors.TripoleyError(errors.Refusal.KICK_UNCONFIRMED, name=seat.name)
            lobby = table.status == TableStatus.LOBBY
            async with self.flow.all_or_nothing(table):
                table.add_log(self.public(table.locale, Line.HOST_REMOVED, name=seat.name))
                update = await self.lobby.leave_seat(table, user_id, kicked=True)
            notice = Notice(Line.KICKED_FROM_LOBBY, {"chips": seat.stake}) if lobby else Notice(Line.KICKED_FROM_GAME)
            update.notices = [(user_id, notice)]
        self.registry.notify(update)
        return update

    async def vote_ai(self, channel_id: int, user_id: int, target: int, round_number: int) -> TableUpdate:
        """A vote to hand seat ``target`` to the AI; at a majority of :func:`voters` it is done."""
        table = self.registry.get(channel_id)
        async with table.lock:
            self.registry.still_open(table)
            if table.status != TableStatus.PLAYING or round_number != table.round:
                raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
            if not 0 <= target < len(table.seats):
                raise errors.StaleButton(errors.Refusal.VOTE_CLOSED)
            seat = table.seats[target]
            if not vote_open(seat):
                raise errors.StaleButton(errors.Refusal.VOTE_CLOSED)
            if user_id not in voters(table, target):
                raise errors.NotAllowed(errors.Refusal.VOTE_NOT_YOURS)
            if user_id in seat.votes:
                raise errors.TripoleyError(errors.Refusal.VOTED_ALREADY)
            async with self.flow.all_or_nothing(table):
                seat.votes = [v for v in seat.votes if v in voters(table, target)] + [user_id]
                needed = votes_needed(table, target)
                if len(seat.votes) < needed:
                    await self.store.save(table, urgent=True)
                    update = TableUpdate.of(
                        table, UpdateKind.PLAY, message=self.say(Line.VOTE_COUNTS, votes=len(seat.votes), needed=needed)
                    )
                else:
                    seat.away, seat.votes = True, []
                    line = self.public(table.locale, Line.VOTED_TO_AI, name=seat.name)
                    table.add_log(line)
                    update = await self.flow.advance(table, [], rearm=False, urgent=True)  # the AI's turn now?
                    update.message = line
                    assert seat.user_id is not None  # vote_open: a player's seat
                    update.notices = [(seat.user_id, Notice(Line.VOTED_AWAY_NOTICE))]
        self.registry.notify(update)
        return update
