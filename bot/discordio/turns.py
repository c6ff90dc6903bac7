"""Turn pings, hand views that follow the player, and private notices.

Discord notifies a user for a mention in a *new* message, not for one added to the table message
by an edit. So when a player at the keyboard must decide, a short new message in the table's
channel mentions only them: what to do (the words of the phase, never of the cards: the same for
every decision of a phase, whether the player has a real choice or a single one) and until when.
Once the decision is made it is edited to say so ("✓ done"), not deleted: the notification still
leads to a message. A table has at most one ping waiting. ``/tripoley ping on|off`` (default: the
server's setting) turns them off for a player.

How long a ping waits (and so whether it is sent at all: a player who decides first needs none) is
the policy's (:mod:`bot.discordio.pingpolicy`): not while the player is watching (their own move at
the table within the last minute), else after their usual answer time, learnt, at least
``PING_DELAY``; the same for every decision, whatever the cards. It goes out as a follow-up of the
table's freshest click (:mod:`bot.discordio.carriers`), and is edited through the same webhook,
outside Discord's global limit; only a table nobody clicked for 14 minutes pays for its ping (and
its edit) with channel requests.

The player's last private hand view (from **Show my hand** or a move made in it) is updated to
each new decision of theirs, with its controls, while Discord still lets it be edited (an
interaction's answer can be edited for 15 minutes); otherwise the ping tells them to open it.

Notices (:attr:`bot.tables.model.TableUpdate.notices`, e.g. "an AI plays your seat now") go by DM, or
when the player's DMs are closed, as a short message in the channel that pings only them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from bot.discordio.carriers import Carriers, Fresh
from bot.discordio.pingpolicy import DecisionKey, PingPolicy
from bot.discordio.render import ImageService
from bot.i18n import reading
from bot.i18n.choice import dm_locale
from bot.messages.notices import is_turn_ping, ping_text
from bot.messages.outgoing import (
    DMForbidden,
    Outgoing,
    Sink,
    describe_error,
    hand_message,
    log_failure,
    notice_by_dm,
    notice_in_channel,
    settle,
)
from bot.messages.text import ping_closed_text
from bot.tables.log import decision_token
from bot.tables.manager import TableManager
from bot.tables.messageids import ShownMessage, remember_message
from bot.tables.model import DeadlineKind, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.telling import Notice

log = logging.getLogger(__name__)

TABLE_MESSAGE_POLL = 0.2  # seconds between looks for the round's table message a ping links to
HAND_VIEW_LIFETIME = 14 * 60.0  # seconds a hand view stays editable (Discord: 15 minutes; a margin)

HandViewEditor = Callable[[Outgoing], Awaitable[None]]


@dataclass
class _HandView:
    edit: HandViewEditor
    opened: float  # monotonic time the interaction was answered
    locale: str | None = None  # its reader's language (bot.i18n.choice.reader_locale), for its updates


def message_link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.mat_channel}/{table.mat_message_id or ''}".rstrip("/")


class TurnNotifier:
    def __init__(
        self,
        manager: TableManager,
        sink: Sink,
        images: ImageService | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        carriers: Carriers | None = None,
        ping_delay: float = 0.0,
        ping_watching: float = 0.0,
    ) -> None:
        self.manager = manager
        self.sink = sink
        self.images = images
        self._monotonic = monotonic
        self.carriers = carriers if carriers is not None else Carriers(monotonic)
        self.policy = PingPolicy(ping_delay, ping_watching, monotonic)  # how long a ping waits
        self._changed: dict[int, asyncio.Event] = {}  # table id → set at each update (wakes a waiting ping)
        self._ping_via: dict[int, Fresh] = {}  # ping message id → the interaction that posted it
        self._shown: dict[int, DecisionKey | None] = {}  # table id → the decision its ping (or no ping) is for
        self._due: dict[int, Table] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._views: dict[tuple[int, int], _HandView] = {}  # (table id, user id) → their last hand view
        self._view_changes: dict[tuple[int, int], int] = {}  # (table id, user id) → hand view changes so far
        self._resumed: set[int] = set()  # tables loaded after a restart: pings of before it may still show
        self._dropped: set[int] = set()  # tables whose place is gone (bot.discordio.places): nothing more sent
        manager.registry.add_listener(self.on_update)

    @property
    def ping_delay(self) -> float:
        """The shortest wait of a ping (``PING_DELAY``), and the wait for a player not seen yet."""
        return self.policy.base

    @ping_delay.setter
    def ping_delay(self, seconds: float) -> None:
        self.policy.base = seconds

    # -- entry points ---------------------------------------------------------------

    def on_update(self, update: TableUpdate) -> None:
        table = update.table
        if table.id in self._dropped:
            return
        for user_id, text in update.notices:
            self._spawn(self._tell(table, user_id, text))
        changed = self._changed.get(table.id)
        if changed is not None:
            changed.set()
        self._due[table.id] = table
        worker = self._workers.get(table.id)
        if worker is None or worker.done():
            self._workers[table.id] = asyncio.create_task(self._drain(table.id))

    def drop(self, table: Table) -> None:
        """The table's place on Discord is gone: no more pings, deletions or hand views for it."""
        self._dropped.add(table.id)
        if len(self._dropped) > 10_000:
            self._dropped = {table.id}
        self._due.pop(table.id, None)
        self._forget(table)

    def refresh(self, table: Table) -> None:
        """Ping again for the decision a table waits for after a restart. The pings still showing from
        before it are deleted first: the saved one, and any whose id was not saved yet (a SIGKILL
        right after it was posted), so at most one ping stands for the turn."""
        self._resumed.add(table.id)
        self.on_update(TableUpdate(table=table, kind=UpdateKind.PLAY))

    def touch(self, table_id: int, user_id: int) -> int:
        """A player's hand view changes now (a move from it, a new one, an update): the number of this
        change. An older change still on its way (a picture rendered for it) must not follow it."""
        key = (table_id, user_id)
        self._view_changes[key] = number = self._view_changes.get(key, 0) + 1
        if len(self._view_changes) > 10_000:
            self._view_changes = {key: number}
        return number

    def is_latest(self, table_id: int, user_id: int, number: int) -> bool:
        return self._view_changes.get((table_id, user_id)) == number

    def remember_hand_view(self, table_id: int, user_id: int, edit: HandViewEditor, locale: str | None = None) -> None:
        """The player's newest hand view, to be updated at their next decision (in ``locale``)."""
        self._views[(table_id, user_id)] = _HandView(edit, self._monotonic(), locale)
        if len(self._views) > 10_000:
            old = self._monotonic() - HAND_VIEW_LIFETIME
            self._views = {k: v for k, v in self._views.items() if v.opened > old}

    async def show_hand_now(self, table: Table, user_id: int, hand: Outgoing) -> None:
        """After a move the player made with the table message's buttons: their open hand view (if
        any) shows ``hand``, the hand after it, at once, so it keeps no controls of that decision."""
        view = self._views.get((table.id, user_id))
        if view is None or self._monotonic() - view.opened > HAND_VIEW_LIFETIME:
            return
        number = self.touch(table.id, user_id)
        if self.images is not None:
            hand.image, hand.alt = await self.images.render(hand.render, hand.view)
        if not self.is_latest(table.id, user_id, number):
            return  # a newer change of the view (their next decision) goes out instead
        try:
            await view.edit(hand)
        except Exception as exc:
            log.info("could not update a hand view (%s)", describe_error(exc))
            self._views.pop((table.id, user_id), None)

    async def flush(self) -> None:
        """Wait until every ping, deletion and notice is sent (tests, shutdown)."""
        await settle(lambda: [*self._workers.values(), *self._tasks])

    def close(self) -> None:
        """Stop at once (shutdown): pings still waiting are dropped, and the one on show is
        deleted after the restart (its id is saved with the table)."""
        for task in [*self._workers.values(), *self._tasks]:
            task.cancel()
        self._due.clear()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- pings ----------------------------------------------------------------------------

    @staticmethod
    def decision(table: Table) -> DecisionKey | None:
        """The decision players at the keyboard have to make now (round, decision, their seats), or
        None. A step every seat decides at once is one decision for all its players (one ping each)."""
        if table.status != TableStatus.PLAYING or table.deadline_kind != DeadlineKind.TURN:
            return None
        game = table.running_game
        if table.awaiting() is not None and game.is_simultaneous():
            players = tuple(s for s in game.asked_seats() if not table.seats[s].auto)
            return (table.round, decision_token(game), players) if players else None
        aw = table.awaiting()
        if aw is None or aw.seat != table.deadline_seat or table.seats[aw.seat].auto:
            return None
        return table.round, decision_token(game), (aw.seat,)

    @staticmethod
    def still_to_decide(table: Table, key: DecisionKey) -> list[int]:
        """The seats of decision ``key`` that have not decided yet."""
        acting = table.running_game.acting_seats() if table.awaiting() is not None else []
        return [s for s in key[2] if s in acting]

    async def _drain(self, table_id: int) -> None:
        while table_id in self._due:
            table = self._due.pop(table_id)
            try:
                await self._sync(table)
            except Exception as exc:
                log_failure(log, exc, "turn ping of table %s failed", table_id)

    def _table_message_shown(self, table: Table) -> bool:
        """Whether a ping may go out: it links to the round's table message, so that goes first
        (posted as soon as its picture is drawn), unless the decision's time runs out meanwhile."""
        return (
            table.mat_round == table.round
            or table.status != TableStatus.PLAYING
            or self.decision(table) is None
            or table.deadline is None
            or table.deadline <= self.manager.clock.now()
        )

    async def _sync(self, table: Table) -> None:
        while not self._table_message_shown(table):
            await asyncio.sleep(TABLE_MESSAGE_POLL)
        async with table.lock:  # one consistent state: the decision, its deadline, the hand
            if not self._table_message_shown(table):  # a new round came while we waited for the lock
                self._due.setdefault(table.id, table)
                return
            key = self.decision(table)
            if table.id in self._shown and self._shown[table.id] == key:
                return
            self._shown[table.id] = key
            detected = self._monotonic()
            ended = self.policy.end(table.id, key, lambda s: not table.seats[s].auto and table.seats[s].timeouts == 0)
            old, table.ping_message_id = table.ping_message_id, None
            if key is not None:
                hands = {}
                for s in self.still_to_decide(table, key):
                    view = table.running_game.view(s)
                    user = table.seats[s].user_id
                    shown = self._views.get((table.id, user)) if user is not None else None
                    hands[s] = hand_message(table, s, view, locale=shown.locale) if shown else None
                # The policy learns from the first of the seats (the only one of a decision in turn).
                first = next(iter(hands), key[2][0])
                first_user = table.seats[first].user_id
                assert first_user is not None  # a player at the keyboard
                self.policy.begin(table.id, key, first_user, first)
                phase, deadline, link = table.running_game.phase, table.deadline, message_link(table)
                time_left = None if deadline is None else deadline - self.manager.clock.now()
        if table.id in self._dropped:
            return
        stale = [old] if old else []
        if table.id in self._resumed:
            self._resumed.discard(table.id)
            stale += [m for m in await self._pings_shown(table) if m not in stale]
        elif old and ended is not None:  # the ping of the decision just made stays, saying so
            stale.remove(old)
            await self._close_ping(table, old, Outgoing(ping_closed_text(*ended)))
        for message_id in stale:
            await self._delete_ping(table, message_id)
        if key is None:
            if table.status != TableStatus.PLAYING:
                self._forget(table)
            return
        updated = {}
        for s, hand in hands.items():
            user_id = table.seats[s].user_id
            assert user_id is not None  # a player at the keyboard
            updated[user_id] = await self._update_hand_view(table, key, s, user_id, hand, detected)
        pending = [table.seats[s].user_id for s in hands]
        delay = min((self.policy.delay(table.id, u, time_left) for u in pending if u is not None), default=0.0)
        if await self._decided_within(table, key, delay) or table.id in self._dropped:
            return  # fast enough (or watching the table) to need no ping, or the table's place is gone
        users = []
        for s in self.still_to_decide(table, key):  # (who decided meanwhile needs none)
            user_id = table.seats[s].user_id
            if user_id is not None and await self.manager.prefs.pings(table.guild_id, user_id):
                users.append(user_id)
        if not users:
            return
        text = ping_text(table, users, phase, deadline, link, all(updated.get(u, False) for u in users))
        message_id = await self._post_ping(table, Outgoing(text, pings=tuple(users)))
        # Answered meanwhile? The update that moved the table on is due here next: it closes this one.
        await remember_message(self.manager, table.id, ShownMessage.PING, message_id)  # a restart deletes it too

    async def _pings_shown(self, table: Table) -> list[int]:
        """The turn pings showing in the table's channel (since its lobby message): a channel has
        one open table, so they are this table's."""
        since = table.lobby_message_id if table.mat_channel == table.channel_id else None
        try:
            shown = await self.sink.recent_messages(table.mat_channel, since)
        except Exception as exc:
            log.info("could not look for the turn pings of table %s (%s)", table.id, describe_error(exc))
            return []
        return [m.id for m in shown if not m.custom_ids and is_turn_ping(m.content)]

    async def _decided_within(self, table: Table, key: DecisionKey, delay: float) -> bool:
        """Whether the decision ``key`` is made within ``delay`` seconds (woken by each update)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + delay
        changed = self._changed.setdefault(table.id, asyncio.Event())
        while self.decision(table) == key:
            left = until - loop.time()
            if left <= 0:
                return False
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), left)
            except TimeoutError:
                pass
        return True

    async def _post_ping(self, table: Table, out: Outgoing) -> int:
        """A follow-up of the table's freshest click (not counted by Discord), else a channel message."""
        fresh = self.carriers.freshest(table.id, table.mat_channel)
        if fresh is not None:
            try:
                message_id = await fresh.carrier.send(out)
            except Exception as exc:
                log.info("could not ping through an interaction (%s); pinging in the channel", describe_error(exc))
                self.carriers.forget(fresh)
            else:
                self._ping_via[message_id] = fresh
                if len(self._ping_via) > 10_000:
                    self._ping_via = {k: v for k, v in self._ping_via.items() if self.carriers.alive(v)}
                return message_id
        return await self.sink.post(table.mat_channel, out)

    async def _close_ping(self, table: Table, message_id: int, out: Outgoing) -> None:
        """Edit an answered ping to say so: through the webhook that posted it while it lives (not
        counted), else in the channel (one counted request, as its deletion was)."""
        fresh = self._ping_via.pop(message_id, None)
        if fresh is not None and self.carriers.alive(fresh):
            try:
                await fresh.carrier.edit(message_id, out)
                return
            except Exception as exc:
                log.info("could not edit a turn ping through its interaction (%s)", describe_error(exc))
        try:
            await self.sink.edit(table.mat_channel, message_id, out)
        except Exception as exc:
            log.info("could not edit the turn ping %s (%s)", message_id, describe_error(exc))

    async def _delete_ping(self, table: Table, message_id: int) -> None:
        """Through the webhook that posted it while it lives, else in the channel (best effort)."""
        fresh = self._ping_via.pop(message_id, None)
        if fresh is not None and self.carriers.alive(fresh):
            try:
                await fresh.carrier.delete(message_id)
                return
            except Exception as exc:
                log.info("could not delete a turn ping through its interaction (%s)", describe_error(exc))
        try:
            await self.sink.delete(table.mat_channel, message_id)
        except Exception as exc:
            log.info("could not delete the turn ping %s (%s)", message_id, describe_error(exc))

    def _forget(self, table: Table) -> None:
        self._shown.pop(table.id, None)
        self.policy.forget(table.id)
        self._changed.pop(table.id, None)
        for key in [k for k in self._views if k[0] == table.id]:
            del self._views[key]
        for key in [k for k in self._view_changes if k[0] == table.id]:
            del self._view_changes[key]

    async def _update_hand_view(
        self, table: Table, key: DecisionKey, seat: int, user_id: int, hand: Outgoing | None, detected: float
    ) -> bool:
        """Show the new decision (``hand``: its hand view) in the player's last hand view, if it can
        still be edited (a view opened since the decision came shows it already)."""
        view = self._views.get((table.id, user_id))
        if hand is None or view is None or self._monotonic() - view.opened > HAND_VIEW_LIFETIME:
            self._views.pop((table.id, user_id), None)
            return False
        if view.opened >= detected:
            return True
        if self.images is not None:
            hand.image, hand.alt = await self.images.render(hand.render, hand.view)
        if self.decision(table) != key or seat not in self.still_to_decide(table, key):
            return False  # decided meanwhile (from that very view, perhaps): its own answer shows the result
        self.touch(table.id, user_id)
        try:
            await view.edit(hand)
        except Exception as exc:
            log.info("could not update a hand view (%s)", describe_error(exc))
            self._views.pop((table.id, user_id), None)
            return False
        return True

    # -- notices -------------------------------------------------------------------------------

    async def _tell(self, table: Table, user_id: int, notice: Notice) -> None:
        """By DM, or (DMs closed) in the channel, pinging only that player: in their language (the one
        their Discord last showed us), whoever's deed or timer caused it."""
        try:
            locale = dm_locale(await self.manager.prefs.locale(user_id)).value
        except Exception as exc:
            log.info("could not read a player's language for a notice (%s)", describe_error(exc))
            locale = table.locale
        with reading(locale):
            text = self.manager.teller.say(notice.line, **notice.facts)
            by_dm, in_channel = notice_by_dm(table, text), notice_in_channel(user_id, text)
        try:
            await self.sink.dm(user_id, by_dm)
            return
        except DMForbidden:
            pass
        except Exception as exc:
            log.info("could not DM a notice (%s)", describe_error(exc))
        try:
            await self.sink.post(table.mat_channel, in_channel)
        except Exception as exc:
            log_failure(log, exc, "could not post a notice in channel %s", table.channel_id)
