"""From Discord interactions to the table manager's parts and back.

The controller answers every component and modal interaction: it reads the button's id, finds its
handler by the button's kind (:attr:`Controller.routes`), checks the button is current (table still
open, same round) and calls the part of the table service that does it. A move is checked first
against the current state without waiting for the table's lock (``game.check``: a refusal is
answered as such), then acknowledged (a deferred update, within a few ms: nothing waits on the
database, a timer or other tables), then checked again and applied under the lock, and saved. A
move from a private hand view then edits that view to show the hand after the move. The mat message
itself is updated by the :class:`~bot.discordio.publisher.Publisher`, through the click when it was
made on that message: a click on a public message of a table is remembered as a carrier
(:mod:`bot.discordio.carriers`), so the updates it causes, the turn pings and round results after
it ride on the interaction, outside Discord's global limit. Acknowledging, answering and refusing
are :mod:`bot.discordio.answering`'s; a move is judged by when it was made
(:mod:`bot.discordio.clicktimes`), not when it arrived.
"""

from __future__ import annotations

import asyncio
import enum
import inspect
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot import errors, i18n
from bot.discordio.answering import acknowledged_first, channel_of, defer, guild_of, release, reply, report, thinking
from bot.discordio.carriers import InteractionCarrier, edit_through, original_editor, webhook_of
from bot.discordio.clicktimes import ClickTimes
from bot.discordio.permissions import check_bot_permissions, wants_thread
from bot.discordio.publisher import Publisher
from bot.discordio.turns import TurnNotifier
from bot.discordio.ui import AmountModal, build_view, message_kwargs
from bot.i18n.choice import answer_in_readers_language, reader_locale
from bot.messages import buttonids, controls, story
from bot.messages.components import Component, card_pool, log_components, space_rules_select
from bot.messages.outgoing import Outgoing, hand_message
from bot.messages.refusals import say
from bot.messages.rules import space_rule
from bot.messages.text import replay_file_name
from bot.tables.manager import TableManager
from bot.tables.model import Table, TableStatus
from bot.tables.play import awaited_of

log = logging.getLogger(__name__)

PageHandler = Callable[[discord.Interaction, str, int], Awaitable[None]]
ConfirmHandler = Callable[..., Awaitable[None]]  # (interaction, *the button's args)
# A button's handler: (the click, the button, a select's choices, the button's table).
Handler = Callable[[discord.Interaction, Any, list[str], Table], Awaitable[None]]
Untabled = Callable[[discord.Interaction, Any, list[str]], Awaitable[None]]
# A move's action from its button and a select's choices: (the action, the claim it was made for).
Move = tuple[dict[str, Any], str | None]


class Scope(enum.Enum):
    """Which rounds of its table a button is good for."""

    ANY_ROUND = enum.auto()  # the lobby, the logs, the rules, the votes
    THIS_ROUND = enum.auto()  # a move: only the round it was shown for


@dataclass(frozen=True)
class Route:
    handler: Handler
    scope: Scope


def display_name(interaction: discord.Interaction) -> str:
    user = interaction.user
    return getattr(user, "display_name", None) or user.name


def first(values: list[str]) -> str | None:
    """A single-choice select's choice."""
    return values[0] if values else None


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
        # The buttons that name no open table (a list's page, a confirmation, a finished game's).
        self.untabled: dict[type, Untabled] = {
            buttonids.PageButton: self._page,
            buttonids.ConfirmButton: self._confirm,
            buttonids.RematchButton: self._rematch,
            buttonids.GameLogButton: lambda i, b, _: self.show_game_log(i, b.table, b.page),
            buttonids.ReplayButton: lambda i, b, _: self.send_replay(i, b.table),
        }
        # The buttons of an open table, by kind.
        self.routes: dict[type, Route] = {
            buttonids.HouseRuleMenu: Route(self._house_rule, Scope.ANY_ROUND),
            buttonids.LobbyButton: Route(self._lobby, Scope.ANY_ROUND),
            buttonids.LogButton: Route(lambda i, b, _, t: self.show_log(i, t, b.round, b.page), Scope.ANY_ROUND),
            buttonids.SpaceRulesButton: Route(self._space_rules, Scope.ANY_ROUND),
            buttonids.SpaceRulesMenu: Route(self._space_rules, Scope.ANY_ROUND),
            buttonids.KickButton: Route(self._kick, Scope.ANY_ROUND),
            buttonids.VoteButton: Route(self._vote, Scope.ANY_ROUND),
            buttonids.SeatButton: Route(self._seat, Scope.THIS_ROUND),
            buttonids.AmountButton: Route(lambda i, b, _, t: self._ask_amount(i, t, b), Scope.THIS_ROUND),
            buttonids.MoveButton: Route(self._move, Scope.THIS_ROUND),
            buttonids.SuitButton: Route(self._move, Scope.THIS_ROUND),
            buttonids.LeadButton: Route(self._move, Scope.THIS_ROUND),
            buttonids.CardMenu: Route(self._card_menu, Scope.THIS_ROUND),
        }

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        answer_in_readers_language(interaction)
        await report(interaction, error)

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
        answer_in_readers_language(interaction)
        try:
            try:
                button = buttonids.decode(custom_id)
            except buttonids.BadButtonId as exc:
                log.info("%s", exc)
                raise errors.StaleButton(errors.Refusal.STALE_CONTROL, kind="menu" if exc.menu else "button") from None
            await self._dispatch(interaction, button, values)
        except Exception as exc:
            await report(interaction, exc)

    async def refuse_unreadable(self, interaction: discord.Interaction, custom_id: str, kind: str) -> None:
        """A component or form of ours whose id can't be read (``kind``: button, menu or form)."""
        answer_in_readers_language(interaction)
        log.info("unreadable %s id %r", kind, custom_id[: buttonids.MAX_LENGTH])
        await report(interaction, errors.StaleButton(errors.Refusal.STALE_CONTROL, kind=kind))

    def _table(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = self.manager.registry.get_by_id(table_id)
        if table is None or interaction.channel_id not in (table.channel_id, table.thread_id):
            raise errors.StaleButton(errors.Refusal.TABLE_GONE)
        return table

    async def _dispatch(self, interaction: discord.Interaction, button: buttonids.ButtonId, values: list[str]) -> None:
        """The button's handler, by its kind; a table's button once its table is found open here
        (and a move's only in the round it was shown for)."""
        untabled = self.untabled.get(type(button))
        if untabled is not None:
            await untabled(interaction, button, values)
            return
        route = self.routes.get(type(button))
        if route is None or isinstance(button, (buttonids.PageButton, buttonids.ConfirmButton)):
            raise errors.StaleButton(errors.Refusal.STALE_CONTROL, kind="button")
        table = self._table(interaction, button.table)
        if route.scope is Scope.THIS_ROUND and getattr(button, "round", None) != table.round:
            raise errors.StaleButton(errors.Refusal.EARLIER_ROUND)
        await route.handler(interaction, button, values, table)

    # -- the buttons that name no open table ------------------------------------------

    async def _page(self, interaction: discord.Interaction, button: buttonids.PageButton, _: list[str]) -> None:
        handler = self.pages.get(button.kind)
        if handler is None:
            raise errors.StaleButton(errors.Refusal.PAGE_GONE)
        await handler(interaction, button.key, button.page)

    async def _confirm(self, interaction: discord.Interaction, button: buttonids.ConfirmButton, _: list[str]) -> None:
        confirm = self.confirms.get(button.what)
        try:
            if confirm is None:
                raise TypeError(button.what)
            inspect.signature(confirm).bind(interaction, *button.args)
        except TypeError:  # no such confirmation, or not with these arguments, in this version
            raise errors.StaleButton(errors.Refusal.STALE_CONTROL, kind="button") from None
        await confirm(interaction, *button.args)

    async def _rematch(self, interaction: discord.Interaction, button: buttonids.RematchButton, _: list[str]) -> None:
        """On a finished game's last message: the same game again, in a new lobby."""
        thread = await wants_thread(interaction, self.manager.prefs)
        check_bot_permissions(interaction, thread)
        user_id, name = interaction.user.id, display_name(interaction)
        update = await acknowledged_first(
            interaction, lambda: self.manager.lobby.rematch(button.table, user_id, name, thread), ephemeral=True
        )
        answer = update.message or i18n._(controls.SEATED)
        if update.refused is not None:
            answer = controls.not_every_ai_back(answer, say(update.refused))
        await reply(interaction, answer)

    # -- a table's buttons, in any round ------------------------------------------------

    async def _house_rule(
        self, interaction: discord.Interaction, _: buttonids.HouseRuleMenu, values: list[str], table: Table
    ) -> None:
        if table.status != TableStatus.LOBBY:
            raise errors.StaleButton(errors.Refusal.LOBBY_CLOSED)
        option, _sep, value = (first(values) or "").partition("=")
        update = await self.manager.lobby.set_house_rule(table.channel_id, interaction.user.id, option, value)
        await reply(interaction, update.message or i18n._(controls.HOUSE_RULE_SET))

    async def _lobby(
        self, interaction: discord.Interaction, button: buttonids.LobbyButton, _: list[str], table: Table
    ) -> None:
        """Join, Leave, Add AI (at its level), Start."""
        user_id, channel, lobby = interaction.user.id, table.channel_id, self.manager.lobby
        verb = button.verb
        if table.status != TableStatus.LOBBY and verb != "leave":
            raise errors.StaleButton(errors.Refusal.LOBBY_CLOSED)
        if verb == "join":
            # Seated before the answer, unless the buy-ins of those who clicked first make it wait.
            # A private "thinking…" before the buy-in (a refusal found first is answered as such).
            name = display_name(interaction)
            update = await lobby.join(channel, user_id, name, before_apply=partial(thinking, interaction))
            await reply(interaction, update.message or i18n._(controls.SEATED))
        elif verb == "leave":
            update = await lobby.leave(channel, user_id)
            await reply(interaction, update.message or i18n._(controls.LEFT))
        elif verb == "ai":
            carrying = partial(self._defer_carrying, interaction, table)
            await lobby.add_ai(channel, user_id, before_apply=carrying, level=button.level or "normal")
        else:
            await lobby.start(channel, user_id, before_apply=partial(self._defer_carrying, interaction, table))

    async def _space_rules(
        self,
        interaction: discord.Interaction,
        _: buttonids.SpaceRulesButton | buttonids.SpaceRulesMenu,
        values: list[str],
        table: Table,
    ) -> None:
        await self.show_space_rule(interaction, table, first(values))  # the mat as it is now, any round

    async def _kick(
        self, interaction: discord.Interaction, button: buttonids.KickButton, _: list[str], table: Table
    ) -> None:
        """The host's confirmation (ephemeral)."""
        update = await self.manager.moderation.host_kick(table.channel_id, interaction.user.id, button.user, True)
        await interaction.response.edit_message(content=update.message, view=None)

    async def _vote(
        self, interaction: discord.Interaction, button: buttonids.VoteButton, _: list[str], table: Table
    ) -> None:
        moderation = self.manager.moderation
        update = await moderation.vote_ai(table.channel_id, interaction.user.id, button.seat, button.round)
        await reply(interaction, update.message or i18n._(controls.VOTE_COUNTED))

    # -- a table's buttons in the round they were shown for ---------------------------------

    async def _seat(
        self, interaction: discord.Interaction, button: buttonids.SeatButton, _: list[str], table: Table
    ) -> None:
        """Show my hand, I'm back, Best five."""
        if button.verb == "hand":
            await self.show_hand(interaction, table)
        elif button.verb == "back":
            update = await self.manager.play.back(table.channel_id, interaction.user.id)
            await reply(interaction, update.message or i18n._(controls.WELCOME_BACK))
        else:
            best = self._detail_for(table, interaction.user.id).get("best")
            await self._act(interaction, table, {"do": "choose", "cards": best}, button.round)

    async def _move(
        self,
        interaction: discord.Interaction,
        button: buttonids.MoveButton | buttonids.SuitButton | buttonids.LeadButton,
        _: list[str],
        table: Table,
    ) -> None:
        expect = None
        match button:
            case buttonids.MoveButton(_, _, verb, token):
                act: dict[str, Any] = {"do": verb}
                expect = token  # do.claim.<token>: the claim this button was made for
            case buttonids.SuitButton(_, _, suit):
                act = {"do": "name_suit", "suit": suit}
            case buttonids.LeadButton(_, _, card):
                act = {"do": "lead", "card": card}
        await self._act(interaction, table, act, button.round, expect)

    async def _card_menu(
        self, interaction: discord.Interaction, menu: buttonids.CardMenu, values: list[str], table: Table
    ) -> None:
        """A card select: the cards (or the space, or the hand) it picks, played."""
        user_id = interaction.user.id
        if menu.kind == "space":  # Wanagan: pick the space first; the card select then carries it
            await self._rechoose(interaction, table, first(values))
            return
        if menu.kind in ("choose", "pass_cards"):
            act: dict[str, Any] = {"do": menu.kind, "cards": self._chosen_cards(table, user_id, values)}
        elif menu.kind == "reveal":
            act = {"do": "reveal", "cards": self._chosen_cards(table, user_id, values), "space": menu.extra or ""}
        elif menu.kind in ("full_house", "straight"):
            act = {"do": menu.kind, "cards": values[0].split("-") if values else []}
        elif menu.kind == "lead":
            act = {"do": "lead", "card": first(values)}
        else:
            raise errors.StaleButton(errors.Refusal.STALE_CONTROL, kind="menu")
        await self._act(interaction, table, act, menu.round)

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

    def _detail_for(self, table: Table, user_id: int) -> dict[str, Any]:
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
        self,
        interaction: discord.Interaction,
        table: Table,
        act: dict[str, Any],
        round_number: int,
        expect: str | None = None,
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
            if table.status == TableStatus.PLAYING and seat is not None:
                # Text and picture of the hand after the move (the old picture showed the cards before it).
                out = hand_message(table, seat, table.running_game.view(seat), locale=reader_locale(interaction))
                if self.publisher is not None:
                    out.image, out.alt = await self.publisher.image("hand", out.view)
                kwargs = message_kwargs(out, edit=True)
                self._remember_hand_view(interaction, table)
            else:
                kwargs = {"content": i18n._(controls.GAME_OVER), "embed": None, "view": None, "attachments": []}
            try:
                await interaction.edit_original_response(**kwargs)
            except discord.HTTPException:
                # The move stands; only the old view could not be replaced.
                log.warning("could not update a hand view after a move")
                await reply(interaction, i18n._(controls.HAND_VIEW_NOT_UPDATED))
        elif self.turns is not None and table.status == TableStatus.PLAYING:
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
            raise errors.NotEnoughChips(errors.Refusal.AMOUNT_UNAFFORDABLE)
        await interaction.response.send_modal(AmountModal(button, low, high))

    async def on_amount(self, interaction: discord.Interaction, button: buttonids.AmountButton, raw: str) -> None:
        """An amount form sent (``button``: the button that opened it)."""
        answer_in_readers_language(interaction)
        try:
            table = self._table(interaction, button.table)
            if button.round != table.round:
                raise errors.StaleButton(errors.Refusal.AMOUNT_TOO_LATE)
            try:
                amount = int(raw.strip())
            except ValueError:
                raise errors.AmountOutOfRange(errors.Refusal.NOT_A_NUMBER, typed=raw.strip()[:20]) from None
            detail = self._detail_for(table, interaction.user.id)
            low, high = int(detail.get("min", 1)), int(detail.get("max", 0))
            if not low <= amount <= high:
                raise errors.AmountOutOfRange(errors.Refusal.AMOUNT_OUTSIDE, low=low, high=high, amount=amount)
            act: dict[str, Any] = {"do": button.verb, "amount": amount}
            if button.verb == "corner_bet":
                act["ace"] = button.ace or ""
            await self._act(interaction, table, act, button.round)
        except Exception as exc:
            await report(interaction, exc)

    # -- the private hand ------------------------------------------------------------

    @staticmethod
    def _own_seat(table: Table, user_id: int) -> int:
        """The user's seat at a table whose cards are dealt (else the refusal: no cards yet, not playing)."""
        if table.status != TableStatus.PLAYING:
            raise errors.WrongPhase(errors.Refusal.NO_CARDS_YET)
        seat = table.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated(errors.Refusal.NO_HAND_TO_SHOW)
        return seat

    async def show_hand(self, interaction: discord.Interaction, table: Table | None = None) -> None:
        if table is None:
            table = self.manager.registry.get(channel_of(interaction))
        seat = self._own_seat(table, interaction.user.id)
        view = table.running_game.view(seat)
        out = hand_message(table, seat, view, locale=reader_locale(interaction))
        if table.seats[seat].away:
            out.text += i18n._(controls.AI_PLAYS_FOR_YOU)
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
        saved = await self.manager.store.game_log(guild_of(interaction), table_id)
        if saved is None:
            raise errors.StaleButton(errors.Refusal.LOG_NOT_KEPT)
        preset, rounds = saved
        embed, shown, pages = story.game_log_embed(table_id, preset, rounds, page or 0)
        await self._log_page(interaction, embed, log_components(table_id, None, shown, pages), paging=page is not None)

    async def send_replay(self, interaction: discord.Interaction, table_id: int) -> None:
        """A finished game's replay file, to the one who asked (it shows every hand, which is no
        secret once the game is over)."""
        found = await self.manager.store.replay_and_end(guild_of(interaction), table_id)
        if found is None:
            raise errors.StaleButton(errors.Refusal.NO_REPLAY)
        text, ended = found
        name = replay_file_name(text, table_id, ended)
        await interaction.response.send_message(
            controls.replay_attached(name),
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=name),
            ephemeral=True,
        )

    async def show_space_rule(self, interaction: discord.Interaction, table: Table, space: str | None) -> None:
        """ "What does this space pay?": the menu of the mat's spaces, privately; a space picked
        in it, answered with its rule in the same message (the words of the terminal's ``help SPACE``)."""
        if table.status != TableStatus.PLAYING or table.game is None:
            raise errors.StaleButton(
                errors.Refusal.NOT_STARTED if table.status == TableStatus.LOBBY else errors.Refusal.GAME_OVER
            )
        view = build_view([space_rules_select(table)])
        if space is None:
            await interaction.response.send_message(i18n._(controls.PICK_A_SPACE), view=view, ephemeral=True)
            return
        content = space_rule(table.game, space, reader_locale(interaction)) or i18n._(controls.SPACE_GONE)
        await interaction.response.edit_message(content=content, view=view)

    async def _log_page(
        self, interaction: discord.Interaction, embed: dict[str, Any], components: list[Component], paging: bool
    ) -> None:
        """A page of a log, privately: a new message, or (``paging``) the same one paged (◀ / ▶)."""
        kwargs: dict[str, Any] = {"embed": discord.Embed.from_dict(embed)}
        if paging:
            await interaction.response.edit_message(view=build_view(components), **kwargs)
        elif components:
            await interaction.response.send_message(ephemeral=True, view=build_view(components), **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
