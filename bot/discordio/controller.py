"""From Discord interactions to the table manager and back.

The controller answers every component and modal interaction: it checks the
button is current (table still open, same round) and calls the
:class:`~bot.tables.manager.TableManager`. A move is checked first against the current
state without waiting for the table's lock (``game.check``: a refusal is answered
as such), then acknowledged (a deferred update, within a few ms: nothing waits on
the database, a timer or other tables), then checked again and applied under the
lock, and saved. A move from a private hand view then edits that view to show the
hand after the move. The mat message itself is updated by the :class:`~bot.discordio.publisher.Publisher`,
through the click when it was made on that message: a click on a public message of a table is
remembered as a carrier (:mod:`bot.discordio.carriers`), so the updates it causes, the turn pings
and round results after it ride on the interaction, outside Discord's global limit. Every
refusal is answered ephemerally by :meth:`Controller.report`.

An interaction's effects are all or nothing: a grant, a buy-in or a move is applied only once its
acknowledgement went through (:func:`acknowledge`), so a click Discord no longer lets the bot answer
(its 3 s ran out: 10062) changes nothing and is dropped quietly. A 40060 on an acknowledgement means
an earlier attempt of it reached Discord: the work goes on and its result is shown. A move is
judged by when it was made (:mod:`bot.discordio.clicktimes`), not when it arrived.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import errors
from bot.discordio.carriers import InteractionCarrier, edit_through, original_editor, webhook_of
from bot.discordio.clicktimes import ClickTimes
from bot.discordio.publisher import Publisher
from bot.discordio.turns import TurnNotifier
from bot.discordio.ui import AmountModal, build_view, message_kwargs
from bot.i18n.choice import reader_locale
from bot.messages import buttonids, story
from bot.messages.components import card_pool, log_components, space_rules_select
from bot.messages.outgoing import Outgoing, describe_error, hand_message, retryable
from bot.messages.refusals import say
from bot.messages.rules import space_rule
from bot.messages.text import replay_file_name
from bot.storage import priority as storage
from bot.tables.manager import TableManager
from bot.tables.model import Table
from bot.tables.play import awaited_of

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side; it has been logged. Please try again."
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction whose 3 s to answer are over

ALREADY_ACKNOWLEDGED = 40060  # Discord's code: an earlier attempt of the acknowledgement got through
UNKNOWN_INTERACTION = 10062  # Discord's code: the interaction can't be answered any more (its 3 s are over)
# Seconds between further attempts to show a result whose work is done (an admin's grant) once
# discord.py gave up on its own retries of 429s and 5xx: the admin must see what was done.
RESULT_RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0)
T = TypeVar("T")

PageHandler = Callable[[discord.Interaction, str, int], Awaitable[None]]
ConfirmHandler = Callable[..., Awaitable[None]]  # (interaction, *the button's args)
# Every permission the bot uses where a table plays: read the channel (and its history: a restart
# finds its messages again), post its messages with their embeds and pictures.
TABLE_PERMISSIONS = ("view_channel", "embed_links", "attach_files", "read_message_history")
# A table in a thread of its own: start the thread, post in it, archive it when the game ends.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads", "manage_threads")


def guild_of(interaction: discord.Interaction) -> int:
    """The server the interaction came from (every Tripoley command is for a server's channel)."""
    if interaction.guild_id is None:
        raise errors.NotAllowed("Tripoley is played in a server's channels, not in direct messages.")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel the interaction came from (a table lives in one)."""
    if interaction.channel_id is None:
        raise errors.NoTable("There is no table here: Tripoley is played in a server's channels.")
    return interaction.channel_id


async def wants_thread(interaction: discord.Interaction, prefs) -> bool:
    """Whether a table opened by this interaction runs in its own thread: the server's setting
    (:func:`check_bot_permissions` then asks for the thread's permissions too)."""
    return bool((await prefs.guild(interaction.guild_id)).threads)


def required_permissions(interaction: discord.Interaction, new_thread: bool) -> tuple[str, ...]:
    """What the bot needs here: posting in a thread is its own permission, and so are the thread's."""
    in_thread = isinstance(interaction.channel, discord.Thread)
    posting = "send_messages_in_threads" if in_thread else "send_messages"
    needed = (*TABLE_PERMISSIONS, posting, *(THREAD_PERMISSIONS if new_thread else ()))
    return tuple(dict.fromkeys(needed))


def check_bot_permissions(interaction: discord.Interaction, new_thread: bool = False) -> None:
    """Refuse, naming every missing permission, before a table is opened where the bot could not run it
    (a missing one would otherwise fail later, half-way, without a word to the host)."""
    perms = interaction.app_permissions
    if perms.value == 0:  # not reported (e.g. a test server): rely on Forbidden at send time
        return
    missing = [p for p in required_permissions(interaction, new_thread) if not getattr(perms, p)]
    if missing:
        raise errors.MissingBotPermissions([errors.permission_label(p) for p in missing], new_thread)


async def acknowledge(interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> None:
    """Acknowledge the interaction: a deferred update of the clicked message, or (``thinking``, and
    always for a command) a "thinking…" answer (``ephemeral``: a private one). A 40060 means an
    earlier attempt of this very request reached Discord (it answered a 5xx, discord.py tried again):
    the interaction is acknowledged, so the caller carries on and shows its result through the
    interaction's webhook, as after any acknowledgement; a move is never dropped for it."""
    try:
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info(
            "interaction %s was acknowledged already (an earlier attempt got through): carrying on", interaction.id
        )
        updating = interaction.type == discord.InteractionType.component and not thinking
        interaction.response._response_type = (  # what discord.py records for a defer that went through
            discord.InteractionResponseType.deferred_message_update
            if updating
            else discord.InteractionResponseType.deferred_channel_message
        )
    storage.acknowledged()


async def acknowledged_first(
    interaction: discord.Interaction, work: Callable[[], Awaitable[T]], *, ephemeral: bool = False
) -> T:
    """Acknowledge with a "thinking…" defer (``ephemeral``: a private one), then do ``work`` (a
    buy-in, an opened table: effects the player must be able to see) and return its result; the
    answer fills that message as the first follow-up (:func:`send_answer`, :meth:`Controller.reply`).
    If the acknowledgement fails, ``work`` is never done: a player told "This interaction failed"
    lost and got nothing. A refusal raised after a public defer removes the loading message, so the
    refusal is still answered privately (:meth:`Controller.report`); a private one is filled by it."""
    await acknowledge(interaction, thinking=True, ephemeral=ephemeral)
    try:
        return await work()
    except BaseException:
        if not ephemeral:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove a loading message")
        raise


async def send_answer(interaction: discord.Interaction, **kwargs: Any) -> int | None:
    """Send the public answer (after :func:`acknowledged_first`: the follow-up that fills its
    "thinking…" message; else the response); the answer message's id."""
    if interaction.response.is_done():
        message = await interaction.followup.send(wait=True, **kwargs)
        return message.id
    response = await interaction.response.send_message(**kwargs)
    storage.acknowledged()
    return getattr(response, "message_id", None)


async def acknowledge_then(
    interaction: discord.Interaction, work: Callable[[], Awaitable[dict[str, Any]]], *, update: bool = False
) -> None:
    """Acknowledge first (a private "thinking…" answer; ``update``: a deferred update of the clicked
    message), then do ``work``, then show its result (message keyword arguments) in that answer
    (:func:`show_result`). If the acknowledgement fails, the work is not done: the user sees the
    interaction fail and may simply try again. A refusal from the work is shown the same way."""
    await acknowledge(interaction, thinking=not update, ephemeral=not update)
    try:
        result = await work()
    except errors.TripoleyError as exc:
        log.info("refused for user %s: %s", getattr(interaction.user, "id", "?"), type(exc).__name__)
        result = {"content": say(exc), "view": None}
    await show_result(interaction, result)


async def show_result(interaction: discord.Interaction, result: dict[str, Any]) -> None:
    """Edit the acknowledged answer to ``result``, trying again (:data:`RESULT_RETRY_DELAYS`) while
    Discord fails: an edit, so an attempt that did reach Discord shows it once all the same. Given up
    on (logged with the result) only when Discord refuses it as such, e.g. an expired token."""
    for delay in (*RESULT_RETRY_DELAYS, None):
        try:
            await interaction.edit_original_response(**result)
            return
        except discord.HTTPException as exc:
            if delay is None or not retryable(exc):
                log.error("could not show a result (%s): %s", describe_error(exc), result.get("content"))
                return
            log.warning("could not show a result (%s); trying again in %g s", describe_error(exc), delay)
            await asyncio.sleep(delay)


async def thinking(interaction: discord.Interaction) -> None:
    """Acknowledge with a private "thinking…", which the answer then fills (:meth:`Controller.reply`)."""
    await acknowledge(interaction, thinking=True, ephemeral=True)


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge a click whose answer follows (a deferred update): the work after it waits for no one."""
    await acknowledge(interaction)


def release(interaction: discord.Interaction) -> None:
    """Break the reference cycle between a handled interaction and its ``response`` (discord.py
    caches the InteractionResponse, which points back at it), so that the interaction, its payload
    and its message's components are freed as soon as nothing uses them. In the cycle, a click
    that outlived a collection of the young objects (a move waits for its lock and its save) was
    only freed by a full collection, which then had hundreds of thousands of them to free."""
    try:
        del interaction._cs_response  # type: ignore[attr-defined]  # discord.py's cached_slot_property
    except AttributeError:  # never asked for
        pass


class Controller:
    def __init__(
        self,
        manager: TableManager,
        publisher: Publisher | None = None,
        turns: TurnNotifier | None = None,
        click_times: ClickTimes | None = None,
    ) -> None:
        self.manager = manager
        self.publisher = publisher
        self.turns = turns
        self.click_times = click_times  # when each click was made (None: judged as it arrives)
        self.pages: dict[str, PageHandler] = {}
        self.confirms: dict[str, ConfirmHandler] = {}  # confirm.<what> buttons (admin reset, forget-me)
        self._clicks: set[asyncio.Task[None]] = set()  # clicks being handled (see take_component)

    # -- answering -------------------------------------------------------------

    async def reply(self, interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        kwargs.setdefault("ephemeral", True)
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The central error handler: a friendly ephemeral message, details in the log."""
        if isinstance(error, (app_commands.CommandInvokeError,)) and error.original is not None:
            error = error.original
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
            # Too old to answer (it came late: a gateway outage, a stalled loop); a grant, buy-in or
            # move waits for its acknowledgement, so none was made. Routine: no traceback.
            log.info("interaction %s could not be answered any more (10062): dropped", interaction.id)
            return
        if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
            # An answer (a private view, a page) whose first attempt got through, then answered 5xx.
            log.info("interaction %s was answered already (40060)", interaction.id)
            return
        if isinstance(error, errors.TripoleyError):
            message = say(error)
            # Not the message itself: it may name the player's own cards ("you may place …").
            log.info("refused for user %s: %s", getattr(interaction.user, "id", "?"), type(error).__name__)
        elif isinstance(error, app_commands.BotMissingPermissions):
            message = say(errors.MissingBotPermissions([errors.permission_label(p) for p in error.missing_permissions]))
        elif isinstance(error, app_commands.MissingPermissions):
            names = ", ".join(f"**{errors.permission_label(p)}**" for p in error.missing_permissions)
            message = f"You need the {names} permission for that."
        elif isinstance(error, app_commands.NoPrivateMessage):
            message = "Tripoley is played in server channels, not in DMs."
        elif isinstance(error, app_commands.CommandOnCooldown):
            message = f"Slow down a little: try again in {error.retry_after:.0f} s."
        elif isinstance(error, app_commands.CheckFailure):
            message = "You can't use that command here."
        elif isinstance(error, discord.DiscordServerError):
            log.warning("Discord failed (%s) while an interaction was answered; discord.py retried it", error.status)
            message = GENERIC_FAILURE
        elif isinstance(error, discord.Forbidden):
            log.warning("missing permissions: %s", error)
            message = say(errors.MissingBotPermissions(["Send Messages", "Embed Links", "Attach Files"]))
        else:
            log.error("unhandled error in an interaction", exc_info=(type(error), error, error.__traceback__))
            message = GENERIC_FAILURE
        try:
            await self.reply(interaction, message)
        except discord.HTTPException:
            log.warning("could not send the error message to the user")

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await self.report(interaction, error)

    # -- buttons and selects ------------------------------------------------------

    def take_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """Handle a click (see :meth:`on_component`) in a task of its own. discord.py finds the
        clicked item in a view it builds from the whole clicked message (every component, in
        reference cycles): returning at once frees that view while it is young, instead of after
        the move's lock and save, when the cyclic collector has to walk and free it."""
        task = asyncio.create_task(self._handle_click(interaction, custom_id, values), name="tripoley-click")
        self._clicks.add(task)
        task.add_done_callback(self._clicks.discard)

    async def _handle_click(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        try:
            await self.on_component(interaction, custom_id, values)
        finally:
            release(interaction)

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """A click on one of our buttons or selects (``values``: a select's choices)."""
        try:
            try:
                button = buttonids.decode(custom_id)
            except buttonids.BadButtonId as exc:
                log.info("%s", exc)
                what = "menu" if exc.menu else "button"
                raise errors.StaleButton(f"That {what} is no longer in use.") from None
            await self._component(interaction, button, values)
        except Exception as exc:
            await self.report(interaction, exc)

    async def refuse_unreadable(self, interaction: discord.Interaction, custom_id: str, kind: str) -> None:
        """A component or form of ours whose id can't be read (``kind``: button, menu or form)."""
        log.info("unreadable %s id %r", kind, custom_id[: buttonids.MAX_LENGTH])
        await self.report(interaction, errors.StaleButton(f"That {kind} is no longer in use."))

    def _table(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = self.manager.get_by_id(table_id)
        if table is None or interaction.channel_id not in (table.channel_id, table.thread_id):
            raise errors.StaleButton("This table is closed: that game is over. Start a new one with `/tripoley start`.")
        return table

    async def _component(self, interaction: discord.Interaction, button: buttonids.ButtonId, values: list[str]) -> None:
        user = interaction.user
        name = getattr(user, "display_name", None) or user.name
        match button:
            case buttonids.PageButton(kind, key, page):
                handler = self.pages.get(kind)
                if handler is None:
                    raise errors.StaleButton("That page is no longer available.")
                await handler(interaction, key, page)
                return
            case buttonids.ConfirmButton(what, args):
                confirm = self.confirms.get(what)
                try:
                    if confirm is None:
                        raise TypeError(what)
                    inspect.signature(confirm).bind(interaction, *args)
                except TypeError:  # no such confirmation, or not with these arguments, in this version
                    raise errors.StaleButton("That button is no longer in use.") from None
                await confirm(interaction, *args)
                return
            case buttonids.RematchButton(table_id):  # on a finished game's last message
                thread = await wants_thread(interaction, self.manager.prefs)
                check_bot_permissions(interaction, thread)
                update = await acknowledged_first(
                    interaction, lambda: self.manager.rematch(table_id, user.id, name, thread=thread), ephemeral=True
                )
                answer = update.message or "You're in!"
                if update.refused is not None:
                    answer += f" Not every AI seat came back: {say(update.refused)}"
                await self.reply(interaction, answer)
                return
            case buttonids.GameLogButton(table_id, log_page):  # a finished game's (final message, history)
                await self.show_game_log(interaction, table_id, log_page)
                return
            case buttonids.ReplayButton(table_id):
                await self.send_replay(interaction, table_id)
                return
        table = self._table(interaction, button.table)
        channel = table.channel_id
        match button:
            case buttonids.HouseRuleMenu():
                if table.status != "lobby":
                    raise errors.StaleButton("This lobby is closed: the game has started.")
                option, _, value = (values[0] if values else "").partition("=")
                update = await self.manager.set_house_rule(channel, user.id, option, value)
                await self.reply(interaction, update.message or "House rule set.")
                return
            case buttonids.LobbyButton(_, verb, level):
                await self._lobby(interaction, table, verb, name, level or "normal")
                return
            case buttonids.LogButton(_, round_number, log_page):  # the log of an earlier round may still be read
                await self.show_log(interaction, table, round_number, log_page)
                return
            case buttonids.SpaceRulesButton() | buttonids.SpaceRulesMenu():  # the mat as it is now, any round
                await self.show_space_rule(interaction, table, values[0] if values else None)
                return
            case buttonids.KickButton(_, kicked):  # the host's confirmation (ephemeral)
                update = await self.manager.host_kick(channel, user.id, kicked, confirmed=True)
                await interaction.response.edit_message(content=update.message, view=None)
                return
            case buttonids.VoteButton(_, round_number, seat):
                update = await self.manager.vote_ai(channel, user.id, seat, round_number)
                await self.reply(interaction, update.message or "Your vote counts.")
                return
        if button.round != table.round:
            raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
        act: dict[str, Any]
        expect = None
        match button:
            case buttonids.SeatButton(_, _, "hand"):
                await self.show_hand(interaction, table)
                return
            case buttonids.SeatButton(_, _, "back"):
                update = await self.manager.back(channel, user.id)
                await self.reply(interaction, update.message or "Welcome back!")
                return
            case buttonids.SeatButton(_, _, "best"):
                act = {"do": "choose", "cards": self._detail_for(table, user.id).get("best")}
            case buttonids.AmountButton():
                await self._ask_amount(interaction, table, button)
                return
            case buttonids.MoveButton(_, _, verb, token):
                act = {"do": verb}
                expect = token  # do.claim.<token>: the claim this button was made for
            case buttonids.SuitButton(_, _, suit):
                act = {"do": "name_suit", "suit": suit}
            case buttonids.LeadButton(_, _, card):
                act = {"do": "lead", "card": card}
            case buttonids.CardMenu(_, _, "space"):  # Wanagan: pick the space first; the card select then carries it
                await self._rechoose(interaction, table, values[0] if values else None)
                return
            case buttonids.CardMenu(_, _, "choose" | "pass_cards" as kind):
                act = {"do": kind, "cards": self._chosen_cards(table, user.id, values)}
            case buttonids.CardMenu(_, _, "reveal", space):
                act = {"do": "reveal", "cards": self._chosen_cards(table, user.id, values), "space": space or ""}
            case buttonids.CardMenu(_, _, "full_house" | "straight" as kind):
                act = {"do": kind, "cards": values[0].split("-") if values else []}
            case buttonids.CardMenu(_, _, "lead"):
                act = {"do": "lead", "card": values[0] if values else None}
            case _:
                raise errors.StaleButton("That button is no longer in use.")
        await self._act(interaction, table, act, button.round, expect)

    async def _lobby(
        self, interaction: discord.Interaction, table: Table, verb: str, name: str, level: str = "normal"
    ) -> None:
        """Join, Leave, Add AI (at ``level``), Start."""
        user, channel = interaction.user, table.channel_id
        if table.status != "lobby" and verb != "leave":
            raise errors.StaleButton("This lobby is closed: the game has started.")
        if verb == "join":
            # Seated before the answer, unless the buy-ins of those who clicked first make it wait.
            # A private "thinking…" before the buy-in (a refusal found first is answered as such).
            update = await self.manager.join(channel, user.id, name, before_apply=partial(thinking, interaction))
            await self.reply(interaction, update.message or "You're in!")
        elif verb == "leave":
            update = await self.manager.leave(channel, user.id)
            await self.reply(interaction, update.message or "You left the table.")
        elif verb == "ai":
            await self.manager.add_ai(
                channel, user.id, before_apply=lambda: self._defer_carrying(interaction, table), level=level
            )
        else:
            await self.manager.start(channel, user.id, before_apply=lambda: self._defer_carrying(interaction, table))

    async def _defer_carrying(self, interaction: discord.Interaction, table: Table) -> None:
        """A deferred update of a click on a public message: that message, its ``@original``, is
        then edited through it (and the table's follow-ups go through it)."""
        await defer(interaction)
        self._carry(interaction, table, original=True)

    def _carry(self, interaction: discord.Interaction, table: Table, *, original: bool) -> None:
        """Remember a click on a public message of the table as the carrier of its next updates
        (``original``: the interaction's ``@original`` is that message: a deferred update)."""
        message = interaction.message
        if self.publisher is None or message is None or message.flags.ephemeral or interaction.channel_id is None:
            return  # a private view's follow-ups would answer a message the others cannot see
        self.publisher.carriers.remember(
            table.id, interaction.channel_id, InteractionCarrier(interaction), message.id if original else None
        )

    def _detail_for(self, table: Table, user_id: int) -> dict:
        """The awaited decision's detail, when it is this user's turn (else the usual refusal)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated(errors.Refusal.NOT_PLAYING)
        if table.awaiting() is None:
            raise errors.WrongPhase(errors.Refusal.NOBODY_TO_ACT)
        return awaited_of(table, seat).detail or {}

    def _chosen_cards(self, table: Table, user_id: int, values: list[str]) -> list[str]:
        """The engine codes of a card menu's choices (each value names one physical card: see
        :func:`bot.messages.buttonids.card_values`), read against the cards the player's menu offers
        now; a menu from before the hand changed (or a forged value) is refused and plays nothing."""
        seat = table.seat_of(user_id)
        if seat is None or table.game is None:
            return values  # refused by the move's own check, in its words (not seated, no game)
        try:
            return buttonids.read_card_values(values, card_pool(table.game.view(seat)))
        except buttonids.BadCardValue:
            raise errors.StaleButton(errors.Refusal.STALE_CARD_MENU) from None

    async def _rechoose(self, interaction: discord.Interaction, table: Table, choice: str | None) -> None:
        self._detail_for(table, interaction.user.id)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None  # _detail_for refused anyone without a seat
        out = hand_message(table, seat, table.running_game.view(seat), choice, reader_locale(interaction))
        kwargs = message_kwargs(out, edit=True)
        kwargs.pop("attachments", None)
        await interaction.response.edit_message(**kwargs)

    async def _act(
        self, interaction: discord.Interaction, table: Table, act: dict, round_number: int, expect: str | None = None
    ) -> None:
        message = interaction.message
        private = message is not None and message.flags.ephemeral

        async def acknowledge_click() -> None:
            if private:
                if self.turns is not None:
                    self.turns.touch(table.id, interaction.user.id)  # the view's own answer comes next
                await defer(interaction)
            else:
                await self._defer_carrying(interaction, table)  # the table message shows the move through it

        # Acknowledged (a deferred update) as soon as the move is known to be legal, before it is
        # applied and saved. A private hand view is then edited to show the hand after the move.
        await self.manager.play.act(
            table,  # the one the button's id names
            interaction.user.id,
            act,
            round_number,
            expect=expect,
            before_apply=acknowledge_click,
            made_at=self.click_times.made_at(interaction.id) if self.click_times is not None else None,
        )
        if private:
            seat = table.seat_of(interaction.user.id)
            if table.status == "playing" and seat is not None:
                # Text and picture of the hand after the move (the old picture showed the cards before it).
                out = hand_message(table, seat, table.running_game.view(seat), locale=reader_locale(interaction))
                if self.publisher is not None:
                    out.image, out.alt = await self.publisher.image("hand", out.view)
                kwargs = message_kwargs(out, edit=True)
                self._remember_hand_view(interaction, table)
            else:
                kwargs = {"content": "The game is over.", "embed": None, "view": None, "attachments": []}
            try:
                await interaction.edit_original_response(**kwargs)
            except discord.HTTPException:
                # The move stands; only the old view could not be replaced.
                log.warning("could not update a hand view after a move")
                await self.reply(interaction, "Done. Press **Show my hand** for your current hand.")
        elif self.turns is not None and table.status == "playing":
            seat = table.seat_of(interaction.user.id)
            if seat is not None:  # a public button's move: the player's open hand view follows it
                await self.turns.show_hand_now(
                    table,
                    interaction.user.id,
                    hand_message(table, seat, table.running_game.view(seat), locale=reader_locale(interaction)),
                )

    async def _ask_amount(self, interaction: discord.Interaction, table: Table, button: buttonids.AmountButton) -> None:
        detail = self._detail_for(table, interaction.user.id)
        seat = table.seat_of(interaction.user.id)
        aw = table.awaiting() if seat is None else table.running_game.awaiting(seat)
        assert aw is not None  # _detail_for refused otherwise
        verb = button.verb
        if verb not in aw.legal:
            raise errors.WrongPhase(errors.Refusal.NOT_NOW, verb=verb, legal=aw.legal)
        low, high = int(detail.get("min", 1)), int(detail.get("max", 0))
        if high < low:
            raise errors.NotEnoughChips("You don't have enough chips for that.")
        await interaction.response.send_modal(AmountModal(button, low, high))

    async def on_amount(self, interaction: discord.Interaction, button: buttonids.AmountButton, raw: str) -> None:
        """An amount form sent (``button``: the button that opened it)."""
        try:
            table = self._table(interaction, button.table)
            if button.round != table.round:
                raise errors.StaleButton("That round is over; your amount was not used.")
            try:
                amount = int(raw.strip())
            except ValueError:
                raise errors.AmountOutOfRange(f"“{raw.strip()[:20]}” is not a whole number of chips.") from None
            detail = self._detail_for(table, interaction.user.id)
            low, high = int(detail.get("min", 1)), int(detail.get("max", 0))
            if not low <= amount <= high:
                raise errors.AmountOutOfRange(
                    f"The amount must be between {low} and {high} chips; you entered {amount}."
                )
            act: dict[str, Any] = {"do": button.verb, "amount": amount}
            if button.verb == "corner_bet":
                act["ace"] = button.ace or ""
            await self._act(interaction, table, act, button.round)
        except Exception as exc:
            await self.report(interaction, exc)

    # -- the private hand ------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, table: Table | None = None) -> None:
        if table is None:
            table = self.manager.get(channel_of(interaction))
        table, seat, view = self.manager.private_view(table.channel_id, interaction.user.id)
        out = hand_message(table, seat, view, locale=reader_locale(interaction))
        if table.seats[seat].away:
            out.text += "\n\n*An AI is playing for you. Press **I'm back** on the table message to play again.*"
        edit = await self._open_hand_view(interaction, table, out)
        self._remember_hand_view(interaction, table, edit)
        change = self.turns.touch(table.id, interaction.user.id) if self.turns is not None else None
        if self.publisher is not None and self.publisher.renderer is not None:
            png, alt = await self.publisher.image("hand", out.view)
            if (
                change is not None
                and self.turns is not None
                and not self.turns.is_latest(table.id, interaction.user.id, change)
            ):
                return  # changed meanwhile (a move made from it): its picture came with that change
            if png:
                file = discord.File(io.BytesIO(png), filename="hand.png", description=(alt or "")[:1000] or None)
                try:
                    await edit(attachments=[file])
                except discord.HTTPException:
                    log.warning("could not attach the hand image")

    async def _open_hand_view(
        self, interaction: discord.Interaction, table: Table, out: Outgoing
    ) -> Callable[..., Awaitable[Any]]:
        """Answer with the private hand view; how to edit it later. A click on the table message is
        acknowledged as a deferred update and the view comes as an ephemeral follow-up: the table
        message is then the click's ``@original``, and carries the table's next updates outside
        Discord's global limit (bot.discordio.carriers). A command answers with the view itself."""
        message = interaction.message
        if self.publisher is None or message is None or message.flags.ephemeral:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(out))
            return original_editor(interaction)
        await defer(interaction)
        sent = await interaction.followup.send(ephemeral=True, wait=True, **message_kwargs(out))
        self._carry(interaction, table, original=True)  # after the view: the click's own answer first
        return partial(edit_through, webhook_of(interaction), sent.id)

    def _remember_hand_view(
        self, interaction: discord.Interaction, table: Table, edit: Callable[..., Awaitable[Any]] | None = None
    ) -> None:
        """This interaction's answer (or ``edit``'s message) is the player's hand view: updated at
        their next decision."""
        if self.turns is None:
            return
        edit_view = edit or original_editor(interaction)

        async def update(out: Outgoing) -> None:
            await edit_view(**message_kwargs(out, edit=True))

        self.turns.remember_hand_view(table.id, interaction.user.id, update, reader_locale(interaction))

    # -- the round's log -------------------------------------------------------------

    async def show_log(
        self, interaction: discord.Interaction, table: Table, round_number: int, page: int | None = None
    ) -> None:
        """The whole log of the round (and the one before), privately; opens on its newest page."""
        embed, page, pages = story.log_embed(table, round_number, 10**6 if page is None else page)
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        await self._log_page(interaction, embed, log_components(table.id, round_number, page, pages), ephemeral)

    async def show_game_log(self, interaction: discord.Interaction, table_id: int, page: int | None) -> None:
        """A finished game's whole log (saved with it), privately: from its first page in a message of
        its own (``page`` None: the Log button), else that page in the same message (◀ / ▶)."""
        saved = await self.manager.game_log(guild_of(interaction), table_id)
        if saved is None:
            raise errors.StaleButton("That game's log isn't kept in this server.")
        preset, rounds = saved
        embed, shown, pages = story.game_log_embed(table_id, preset, rounds, page or 0)
        await self._log_page(interaction, embed, log_components(table_id, None, shown, pages), paging=page is not None)

    async def send_replay(self, interaction: discord.Interaction, table_id: int) -> None:
        """A finished game's replay file, to the one who asked (it shows every hand, which is no
        secret once the game is over)."""
        found = await self.manager.replay_and_end(guild_of(interaction), table_id)
        if found is None:
            raise errors.StaleButton("That game has no replay file (it began before games were kept as replays).")
        text, ended = found
        name = replay_file_name(text, table_id, ended)
        await interaction.response.send_message(
            f"The replay of that game: every deck and every decision. Play it back with `python -m engine replay {name}`.",
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=name),
            ephemeral=True,
        )

    async def show_space_rule(self, interaction: discord.Interaction, table: Table, space: str | None) -> None:
        """ "What does this space pay?": the menu of the mat's spaces, privately; a space picked
        in it, answered with its rule in the same message (the words of the terminal's ``help SPACE``)."""
        if table.status != "playing" or table.game is None:
            raise errors.StaleButton(
                errors.Refusal.NOT_STARTED if table.status == "lobby" else errors.Refusal.GAME_OVER
            )
        view = build_view([space_rules_select(table)])
        if space is None:
            content = "Pick a space of the mat to see what pays it."
            await interaction.response.send_message(content, view=view, ephemeral=True)
            return
        content = (
            space_rule(table.game, space, reader_locale(interaction))
            or "That space isn't on the mat any more: pick another."
        )
        await interaction.response.edit_message(content=content, view=view)

    async def _log_page(self, interaction: discord.Interaction, embed: dict, components: list, paging: bool) -> None:
        """A page of a log, privately: a new message, or (``paging``) the same one paged (◀ / ▶)."""
        kwargs: dict[str, Any] = {"embed": discord.Embed.from_dict(embed)}
        if paging:
            await interaction.response.edit_message(view=build_view(components), **kwargs)
        elif components:
            await interaction.response.send_message(ephemeral=True, view=build_view(components), **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
