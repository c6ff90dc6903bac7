"""The lobby: open a table, join, leave, add AI seats, house rules, start (and Rematch).

Each step takes the table's lock; chips moving between a wallet (or the house) and the table
are written in one transaction with the table's new seats (:meth:`bot.tables.store.TableStore.write`),
and the in-memory seats are put back when that transaction fails.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from bot import errors
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.i18n.choice import public_locale
from bot.settings import Settings
from bot.tables.aiworker import LEVEL_NAMES
from bot.tables.clock import Clock
from bot.tables.flow import Flow
from bot.tables.locking import KeyedLock, held_after
from bot.tables.model import BeforeApply, DeadlineKind, Seat, Table, TableStatus, TableUpdate, UpdateKind
from bot.tables.registry import Registry
from bot.tables.store import TableStore
from bot.tables.telling import Line, Teller

AI_NAMES = [
    "Ada",
    "Babbage",
    "Curie",
    "Dijkstra",
    "Euler",
    "Fermat",
    "Gauss",
    "Hopper",
    "Isaac",
    "Jacquard",
    "Knuth",
    "Lovelace",
    "Marple",
    "Noether",
    "Oppie",
    "Pascal",
    "Quine",
    "Ramanujan",
    "Shannon",
]


def ai_seat_name(table: Table, tag: str) -> str:
    """A name of its own for a new AI seat, its level shown by ``tag`` ("(Hard AI)", in the table's
    language): the first of :data:`AI_NAMES` that no seat at the table goes by (no other AI, whatever
    its level, and no player's display name), so the log tells the AIs apart ("Ada (Hard AI)",
    "Babbage (Normal AI)")."""
    taken = {s.name.casefold() for s in table.seats}
    taken |= {s.name.rsplit(" (", 1)[0].casefold() for s in table.seats if s.is_ai}
    names = itertools.chain(AI_NAMES, (f"Bot {i}" for i in itertools.count(1)))
    return next(f"{n} {tag}" for n in names if n.casefold() not in taken and f"{n} {tag}".casefold() not in taken)


Snapshot = tuple[list[Seat], list[str], int]  # a lobby's seats, log and host


def snapshot(table: Table) -> Snapshot:
    return list(table.seats), list(table.log), table.host_id


def restore(table: Table, saved: Snapshot) -> None:
    """Undo in-memory lobby changes whose transaction failed (the database rolled back)."""
    seats, lines, host = saved
    table.seats[:] = seats
    table.log[:] = lines
    table.host_id = host


class Lobby:
    def __init__(
        self,
        registry: Registry,
        store: TableStore,
        bank: Bank,
        prefs: Prefs,
        settings: Settings,
        clock: Clock,
        rng: random.Random,
        flow: Flow,
        teller: Teller,
    ) -> None:
        self.registry = registry
        self.store = store
        self.bank = bank
        self.prefs = prefs
        self.settings = settings
        self.clock = clock
        self.rng = rng
        self.flow = flow
        self.say = teller.say
        self.public = teller.public
        self._create_lock = KeyedLock()  # per channel: openings in other channels go on meanwhile

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        buy_in: int | None = None,
        turn_timeout: float | None = None,
        thread: bool = False,
        rematch_of: int | None = None,
        auto_forced: bool = True,
        guild_locale: str | None = None,
    ) -> TableUpdate:
        """Open a lobby, the host seated and bought in. ``thread``: the game runs in a thread
        started from the lobby message; ``rematch_of``: the finished table whose players Rematch seats;
        ``auto_forced``: see :attr:`bot.tables.model.Table.auto_forced`; ``guild_locale``: the server's
        Discord language, the table's when the server chose none (``/tripoley-admin settings language``)."""
        from engine.presets import PRESETS

        config = await self.prefs.guild(guild_id)
        preset = preset or config.default_preset
        if preset not in PRESETS:
            raise errors.TripoleyError(errors.Refusal.UNKNOWN_GAME, game=preset)
        info = PRESETS[preset]
        options = dict(options or {})
        try:
            info.options.with_overrides(options)
        except ValueError as exc:
            raise errors.TripoleyError(errors.Refusal.BAD_OPTIONS, reason=exc) from None
        if buy_in is None:
            buy_in = int(info.options.with_overrides(options).start_stack)
        if buy_in < 1:
            raise errors.AmountOutOfRange(errors.Refusal.BUY_IN_TOO_SMALL)
        async with self._create_lock.hold(channel_id):
            if channel_id in self.registry.by_channel:
                raise errors.TableExists(errors.Refusal.CHANNEL_BUSY)
            table = Table(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                preset=preset,
                options=options,
                buy_in=buy_in,
                turn_timeout=float(turn_timeout or config.turn_timeout),
                ai_pause=float(config.ai_pause),
                created_at=self.clock.wall(),
                thread=thread,
                rematch_of=rematch_of,
                auto_forced=auto_forced,
                locale=public_locale(config.language, guild_locale).value,
            )
            table.seats.append(Seat(name=host_name, user_id=host_id, stake=buy_in))
            table.add_log(self.public(table.locale, Line.OPENED, name=host_name), naming=((host_id, host_name),))
            # One transaction: the table, the host's buy-in and the seat it pays for (a crash in
            # between can't leave chips on a table whose saved seats don't hold them).
            try:
                async with self.store.transaction() as conn:
                    table.id = await self.store.insert(conn, table)
                    await self.bank.buy_in(guild_id, host_id, table.id, buy_in, config.starting_balance, conn=conn)
                    table.deadline = self.clock.now() + self.settings.lobby_timeout
                    table.deadline_kind, table.deadline_seat = DeadlineKind.LOBBY, None
                    await self.store.write(conn, table)
            except errors.NotEnoughChips as exc:
                raise errors.NotEnoughChips(
                    errors.Refusal.BUY_IN_UNAFFORDABLE, buy_in=buy_in, why=exc, opening=True
                ) from None
            self.flow.wake()
            self.registry.remember(table)
        return TableUpdate.of(table, UpdateKind.LOBBY, message=self.say(Line.TABLE_OPEN, chips=buy_in))

    async def rematch(self, old_table_id: int, user_id: int, name: str, thread: bool = False) -> TableUpdate:
        """Rematch: the first player of a finished game to click opens a lobby in its channel with the
        same game, house rules and settings (and the AI seats again, as far as the house can fund
        them); every other player of that game is seated and bought in when they click."""
        row = await self.store.finished_table(old_table_id)
        if row is None:
            raise errors.StaleButton(errors.Refusal.REMATCH_GONE)
        # Its seats and settings, not its game (no need to rebuild the engine's whole record).
        old = Table.from_row({**dict(row), "state_json": json.dumps({**json.loads(row["state_json"]), "game": None})})
        if old.seat_of(user_id) is None:
            raise errors.NotAllowed(errors.Refusal.REMATCH_NOT_YOURS)
        for _ in range(2):
            table = self.registry.by_channel.get(old.channel_id)
            if table is not None:
                if table.rematch_of != old.id:
                    raise errors.TableExists(errors.Refusal.REMATCH_CHANNEL_BUSY)
                return await self.join(old.channel_id, user_id, name)
            try:
                update = await self.create_table(
                    old.guild_id,
                    old.channel_id,
                    user_id,
                    name,
                    old.preset,
                    old.options,
                    buy_in=old.buy_in,
                    turn_timeout=old.turn_timeout,
                    thread=thread,
                    rematch_of=old.id,
                    auto_forced=old.auto_forced,
                    guild_locale=old.locale,  # its server's language when it opened
                )
            except errors.TableExists:  # another player's click opened it just now: join that one
                continue
            break
        else:
            raise errors.TableExists(errors.Refusal.REMATCH_CHANNEL_BUSY)
        table = update.table
        refused = None
        for ai_seat in (s for s in old.seats if s.is_ai):
            try:
                await self.add_ai(old.channel_id, user_id, level=ai_seat.ai_level)
            except errors.TripoleyError as exc:  # the house is short, or the lobby changed meanwhile
                refused = exc
                break
        update = TableUpdate.of(
            table, UpdateKind.LOBBY, message=self.say(Line.REMATCH, chips=table.buy_in), refused=refused
        )
        self.registry.notify(update)
        return update

    @staticmethod
    def check_join(table: Table, user_id: int) -> None:
        """The refusal (raised) of a seat the user can't take at ``table``: checked before the click
        is acknowledged (so answered once, as such) and again under the table's lock."""
        if table.status != TableStatus.LOBBY:
            raise errors.WrongPhase(errors.Refusal.STARTED_JOIN_NEXT)
        if table.seat_of(user_id) is not None:
            raise errors.TripoleyError(errors.Refusal.ALREADY_SEATED)
        if len(table.seats) >= table.preset_info.max_players:
            raise errors.LobbyFull(errors.Refusal.TABLE_FULL, seats=table.preset_info.max_players)

    async def join(
        self, channel_id: int, user_id: int, name: str, before_apply: BeforeApply | None = None
    ) -> TableUpdate:
        """Seat the user, their buy-in taken. ``before_apply``: awaited once the seat is known to be
        free, before the buy-in (the Discord side acknowledges there: a click it could not
        acknowledge takes no chips)."""
        table = self.registry.get(channel_id)
        if before_apply is not None:
            self.check_join(table, user_id)
            await before_apply()
        async with table.lock:
            self.check_join(table, user_id)
            config = await self.prefs.guild(table.guild_id)
            saved = snapshot(table)
            table.seats.append(Seat(name=name, user_id=user_id, stake=table.buy_in))
            table.add_log(self.public(table.locale, Line.JOINED, name=name), naming=((user_id, name),))
            try:
                async with self.store.transaction() as conn:  # the chips and the seat, together
                    await self.bank.buy_in(
                        table.guild_id, user_id, table.id, table.buy_in, config.starting_balance, conn=conn
                    )
                    await self.store.write(conn, table)
            except BaseException as exc:
                restore(table, saved)
                if isinstance(exc, errors.NotEnoughChips):
                    raise errors.NotEnoughChips(
                        errors.Refusal.BUY_IN_UNAFFORDABLE, buy_in=table.buy_in, why=exc, opening=False
                    ) from None
                raise
            update = TableUpdate.of(table, UpdateKind.LOBBY, message=self.say(Line.YOURE_IN, chips=table.buy_in))
        self.registry.notify(update)
        return update

    async def add_ai(
        self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None, level: str = "normal"
    ) -> TableUpdate:
        table = self.registry.get(channel_id)
        if level not in LEVEL_NAMES:
            raise errors.TripoleyError(errors.Refusal.UNKNOWN_AI_LEVEL)
        if before_apply is not None:  # acknowledged before waiting for the lock, as a move (see Play.act)
            self._check_add_ai(table, user_id)
        async with held_after(table.lock, before_apply):
            self._check_add_ai(table, user_id)
            name = ai_seat_name(table, self.public(table.locale, Line.AI_SEAT_TAG, level=level))
            saved = snapshot(table)
            table.seats.append(Seat(name=name, user_id=None, stake=table.buy_in, ai_level=level))
            table.add_log(self.public(table.locale, Line.SAT_DOWN, name=name))
            try:
                async with self.store.transaction() as conn:
                    await self.bank.house_buy_in(
                        table.guild_id, table.id, table.buy_in, self.settings.house_bankroll, conn=conn
                    )
                    await self.store.write(conn, table)
            except BaseException:
                restore(table, saved)
                raise
            update = TableUpdate.of(table, UpdateKind.LOBBY, message=self.say(Line.JOINS_TABLE, name=name))
        self.registry.notify(update)
        return update

    @staticmethod
    def _check_add_ai(table: Table, user_id: int) -> None:
        if table.status != TableStatus.LOBBY:
            raise errors.WrongPhase(errors.Refusal.STARTED)
        if table.seat_of(user_id) is None:
            raise errors.NotSeated(errors.Refusal.JOIN_BEFORE_AI)
        if len(table.seats) >= table.preset_info.max_players:
            raise errors.LobbyFull(errors.Refusal.TABLE_FULL, seats=table.preset_info.max_players)

    @staticmethod
    def _host_in_lobby(table: Table, user_id: int, refusal: errors.Refusal) -> None:
        """Refuse a host's lobby action once the game has started, or to anyone but the host."""
        if table.status != TableStatus.LOBBY:
            raise errors.WrongPhase(errors.Refusal.STARTED)
        if user_id != table.host_id:
            raise errors.NotAllowed(refusal)

    async def set_house_rule(self, channel_id: int, user_id: int, name: str, value: str) -> TableUpdate:
        """The host switches one of the preset's house rules (lobby only). Stored with the table, so a
        restart keeps it; an option equal to the preset's own value is dropped from the overrides."""
        from engine.rulebook import house_rules

        table = self.registry.get(channel_id)
        async with table.lock:
            self._host_in_lobby(table, user_id, errors.Refusal.HOST_ONLY_RULES)
            offered = house_rules(table.preset)
            if name not in offered or value not in {str(v).lower() for v in offered[name]}:
                raise errors.TripoleyError(errors.Refusal.RULE_NOT_OFFERED)
            preset = table.preset_info.options
            try:
                chosen = getattr(preset.with_overrides({**table.options, name: value}), name)
            except ValueError as exc:
                raise errors.TripoleyError(errors.Refusal.RULE_CLASH, reason=exc) from None
            before = dict(table.options)
            saved = snapshot(table)
            if chosen == getattr(preset, name):
                table.options.pop(name, None)
            else:
                table.options[name] = chosen
            table.add_log(self.public(table.locale, Line.HOUSE_RULE, rule=name, value=chosen))
            try:
                async with self.store.transaction() as conn:
                    await self.store.write(conn, table)
            except BaseException:
                restore(table, saved)
                table.options = before
                raise
            update = TableUpdate.of(
                table, UpdateKind.LOBBY, message=self.say(Line.HOUSE_RULE_SET, rule=name, value=chosen)
            )
        self.registry.notify(update)
        return update

    async def leave(self, channel_id: int, user_id: int) -> TableUpdate:
        table = self.registry.get(channel_id)
        async with table.lock:
            self.registry.still_open(table)
            if table.seat_of(user_id) is None:
                raise errors.NotSeated(errors.Refusal.NOT_AT_TABLE)
            async with self.flow.all_or_nothing(table):
                update = await self.leave_seat(table, user_id)
        self.registry.notify(update)
        return update

    async def kick(
        self, guild_id: int, user_id: int, admin_name: str, admin_id: int | None = None
    ) -> list[TableUpdate]:
        """An admin removes a player from every open table of the server they sit at: from a lobby
        (their buy-in refunded), or mid-game (an AI plays their seat; cashed out at the end)."""
        updates = []
        for table in [t for t in self.registry.of_guild(guild_id) if t.seat_of(user_id) is not None]:
            async with table.lock:
                if not self.registry.is_open(table):
                    continue
                index = table.seat_of(user_id)
                if index is None or table.seats[index].left:
                    continue
                async with self.flow.all_or_nothing(table):
                    admin = ((admin_id, admin_name),) if admin_id is not None else ()
                    table.add_log(
                        self.public(table.locale, Line.ADMIN_REMOVED, admin=admin_name, name=table.seats[index].name),
                        naming=admin,
                    )
                    updates.append(await self.leave_seat(table, user_id, kicked=True))
            self.registry.notify(updates[-1])
        if not updates:
            raise errors.NotSeated(errors.Refusal.MEMBER_NOT_SEATED)
        return updates

    async def leave_seat(self, table: Table, user_id: int, kicked: bool = False) -> TableUpdate:
        """Under the table's lock and :meth:`Flow.all_or_nothing`: the player leaves (a lobby:
        refunded; a game: the AI plays on). ``kicked``: an admin removed them (the update's message
        is for the admin)."""
        index = table.seat_of(user_id)
        if index is None:
            raise errors.NotSeated(errors.Refusal.NOT_AT_TABLE)
        seat = table.seats[index]
        if table.status == TableStatus.LOBBY:
            if not [s for s in table.humans() if s.user_id != user_id]:
                # The last human: close the table, every stake (theirs too) back in one go.
                table.add_log(self.public(table.locale, Line.LEFT, name=seat.name))
                return await self.flow.cancel(table, self.public(table.locale, Line.EVERYONE_LEFT))
            saved = snapshot(table)
            del table.seats[index]
            if not kicked:  # (a removal has the remover's own line)
                table.add_log(self.public(table.locale, Line.LEFT, name=seat.name))
            if table.host_id == user_id:
                new_host = table.humans()[0]
                assert new_host.user_id is not None  # humans() are the seats with a member
                table.host_id = new_host.user_id
                table.add_log(self.public(table.locale, Line.NEW_HOST, name=new_host.name))
            try:
                async with self.store.transaction() as conn:  # the refund and the freed seat, together
                    await self.bank.refund(table.guild_id, user_id, table.id, seat.stake, conn=conn)
                    await self.store.write(conn, table)
            except BaseException:
                restore(table, saved)
                raise
            message = (
                self.say(Line.OFF_THE_TABLE, name=seat.name, chips=seat.stake)
                if kicked
                else self.say(Line.YOU_LEFT_LOBBY, chips=seat.stake)
            )
            return TableUpdate.of(table, UpdateKind.LOBBY, message=message)
        if seat.left:
            raise errors.TripoleyError(errors.Refusal.ALREADY_LEFT)
        seat.removed = kicked
        # (a removal has the remover's own line before this one)
        line = self.public(table.locale, Line.REMOVED_TO_AI if kicked else Line.LEFT_TO_AI, name=seat.name)
        ended = await self.flow.seat_to_ai(table, seat, line)
        if ended is not None:
            return ended
        await self.flow.advance(table, [], rearm=False, urgent=True)
        message = self.say(Line.REMOVED_TO_AI_NOW, name=seat.name) if kicked else self.say(Line.YOU_LEFT_GAME)
        return TableUpdate.of(table, UpdateKind.PLAY, message=message)

    async def start(self, channel_id: int, user_id: int, before_apply: BeforeApply | None = None) -> TableUpdate:
        """Start the game. ``before_apply``: awaited once the host's click is known to be allowed,
        before waiting for the table's lock (the Discord layer acknowledges the click there; a
        refusal that only shows under the lock, e.g. too few players, comes after it)."""
        from engine import Game

        table = self.registry.get(channel_id)
        if before_apply is not None:  # acknowledged before waiting for the lock, as a move (see Play.act)
            self._host_in_lobby(table, user_id, errors.Refusal.HOST_ONLY_START)
        async with held_after(table.lock, before_apply):
            self._host_in_lobby(table, user_id, errors.Refusal.HOST_ONLY_START)
            info = table.preset_info  # the seats counted after the Add AI clicks queued before this one
            if len(table.seats) < info.min_players:
                raise errors.TripoleyError(errors.Refusal.TOO_FEW_PLAYERS, game=info.name, players=info.min_players)
            # Before anything changes in memory: if the database is away, the lobby stays as it was.
            await self.store.mark_started(table, self.clock.wall())
            async with self.flow.all_or_nothing(table):  # the game's first save refused: a lobby again
                table.game = Game.new(
                    table.preset,
                    [s.name for s in table.seats],
                    options=table.options or None,
                    stacks=[s.stake for s in table.seats],
                    seed=self.rng.randrange(2**31),
                    clock=self.clock.now,
                )
                table.ask_humans()
                table.status = TableStatus.PLAYING
                table.add_log(self.public(table.locale, Line.BEGINS, game=info.name, players=len(table.seats)))
                events = list(table.running_game.next_deal())
                update = await self.flow.advance(table, events, urgent=True)  # status "playing" with its game
            update.message = self.say(Line.GAME_ON)
        self.registry.notify(update)
        return update
