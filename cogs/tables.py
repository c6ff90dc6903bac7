"""``/tripoley`` commands about tables: open, join, leave, your hand, stop, rules, history, DMs and pings, the server's settings."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot import errors
from bot.discordio.answering import acknowledged_first, channel_of, guild_of, reply, send_answer, thinking
from bot.discordio.permissions import check_bot_permissions, wants_thread
from bot.discordio.ui import build_view, message_kwargs
from bot.i18n import Locale, _, reading, translator
from bot.i18n.choice import private_locale
from bot.messages import tablecommands
from bot.messages.components import ButtonSpec, game_buttons, kick_confirmation
from bot.messages.outgoing import lobby_message
from bot.messages.rules import pages_for
from bot.messages.text import HELP_TEXT
from bot.messages.web import history_replay_link
from bot.messages.weblinks import BOARD
from bot.tables.messageids import ShownMessage, remember_message
from bot.tables.model import TableStatus, TableUpdate
from cogs.common import (
    CommandFamily,
    display_name,
    pager,
    preset_choices,
    preset_name,
    settings_text,
)

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def web_replay_link(table_id: int | None) -> str:
    """A history line's link to the game's replay on the web (a masked link: a message holds 25 buttons,
    ten games' Log and Replay take 20), or nothing."""
    if table_id is None or BOARD.links is None:
        return ""
    return history_replay_link(BOARD.links.replay_url(table_id))


class TableCommands(CommandFamily):
    """The table's commands (composed into the ``/tripoley`` cog)."""

    # -- the table -------------------------------------------------------------------

    @app_commands.command(name="start", description="Open a Tripoley table in this channel")
    @app_commands.describe(
        preset="Which game (default: the server's default)",
        rounds="Play this many rounds",
        minutes="Play for this many minutes (the last round is finished)",
        elimination="Play until one player has chips left",
        buy_in="Chips each player brings to the table",
        bet_limit="Largest bet or raise in poker",
        turn_timeout="Seconds per decision",
        auto_forced="Play a card that is its holder's only choice for them after a moment (default on)",
    )
    @app_commands.choices(preset=preset_choices())
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        rounds: app_commands.Range[int, 1, 100] | None = None,
        minutes: app_commands.Range[int, 1, 600] | None = None,
        elimination: bool = False,
        buy_in: app_commands.Range[int, 1, 1000000] | None = None,
        bet_limit: app_commands.Range[int, 1, 100000] | None = None,
        turn_timeout: app_commands.Range[int, 10, 3600] | None = None,
        auto_forced: bool = True,
    ) -> None:
        ends = [
            x
            for x in (rounds and f"rounds:{rounds}", minutes and f"minutes:{minutes}", elimination and "elimination")
            if x
        ]
        if len(ends) > 1:
            raise errors.TripoleyError(errors.Refusal.ONE_WAY_TO_END)
        options: dict[str, Any] = {}
        if ends:
            options["game_end"] = ends[0]
        if bet_limit:
            options["bet_limit"] = bet_limit

        async def open_table() -> TableUpdate:
            # A table opened inside a thread plays there (threads don't nest).
            thread = await wants_thread(interaction, self.prefs) and not isinstance(interaction.channel, discord.Thread)
            check_bot_permissions(interaction, thread)
            return await self.manager.lobby.create_table(
                guild_of(interaction),
                channel_of(interaction),
                interaction.user.id,
                display_name(interaction.user),
                preset,
                options,
                buy_in=buy_in,
                turn_timeout=turn_timeout,
                thread=thread,
                auto_forced=auto_forced,
                guild_locale=str(interaction.guild_locale) if interaction.guild_locale else None,
            )

        # Acknowledged before the host's buy-in is taken: "thinking…", which the lobby then fills.
        table = (await acknowledged_first(interaction, open_table)).table
        message_id = await send_answer(interaction, **message_kwargs(lobby_message(table)))
        if message_id:
            await remember_message(self.manager, table.id, ShownMessage.LOBBY, message_id)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        # A private "thinking…" before the buy-in (a refusal found first is answered as such).
        update = await self.manager.lobby.join(
            channel_of(interaction), interaction.user.id, display_name(interaction.user), partial(thinking, interaction)
        )
        await reply(interaction, update.message or _(tablecommands.JOINED))

    @app_commands.command(name="leave", description="Leave the table (mid-game: an AI finishes for you)")
    async def leave(self, interaction: discord.Interaction) -> None:
        update = await self.manager.lobby.leave(channel_of(interaction), interaction.user.id)
        await reply(interaction, update.message or _(tablecommands.LEFT))

    @app_commands.command(name="kick", description="Host: remove a player from your table (mid-game: an AI plays on)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        """In the lobby at once (their buy-in refunded); mid-game after the host confirms with a
        button, since their seat then goes to an AI until the end (their chips stay theirs)."""
        table = self.manager.registry.get(channel_of(interaction))
        seat = self.manager.moderation.check_kick(table, interaction.user.id, player.id)
        if table.status == TableStatus.LOBBY:
            update = await self.manager.moderation.host_kick(table.channel_id, interaction.user.id, player.id)
            await reply(interaction, update.message or _(tablecommands.REMOVED))
            return
        await reply(
            interaction,
            tablecommands.kick_ask(seat.name),
            view=build_view(kick_confirmation(table.id, player.id, seat.name)),
        )

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction)

    @app_commands.command(name="stop", description="End the game and cash everyone out (host or Manage Server)")
    async def stop(self, interaction: discord.Interaction) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        can_manage = bool(perms and perms.manage_guild)
        table = self.manager.registry.get(channel_of(interaction))  # (none: refused, as the stop would)
        update = await self.manager.play.stop(
            channel_of(interaction), interaction.user.id, can_manage, display_name(interaction.user)
        )
        with reading(table.locale):  # posted for the channel: in the table's language
            stopped = update.message or _(tablecommands.STOPPED)
        await reply(interaction, stopped, ephemeral=False)

    @app_commands.command(name="history", description="Recent games in this server and their results")
    async def history(self, interaction: discord.Interaction) -> None:
        games = await self.manager.store.history(guild_of(interaction), 10)
        if not games:
            await reply(interaction, _(tablecommands.NO_GAMES))
            return
        lines: list[str] = []
        buttons: list[ButtonSpec] = []
        for number, game in enumerate(games, start=1):
            lines += tablecommands.history_lines(
                number, game, web_replay_link(game["id"] if game.get("has_replay") else None)
            )
            log, replay = game_buttons(game["id"], number, row=(number - 1) // 2)
            buttons += [log, replay] if game.get("has_replay") else [log]
        embed = discord.Embed(
            title=_(tablecommands.HISTORY_TITLE), description="\n".join(lines)[:4000], colour=0x2E8B57
        )
        if buttons:
            embed.set_footer(text=_(tablecommands.HISTORY_FOOTER))
            await interaction.response.send_message(embed=embed, view=build_view(buttons), ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _replay_file(self, interaction: discord.Interaction, key: str, table_id: int) -> None:
        """The Replay buttons of ``/tripoley history`` messages posted before they became
        :class:`~bot.messages.buttonids.ReplayButton` s: the same file."""
        await self.controller.send_replay(interaction, table_id)

    # -- rules ------------------------------------------------------------------------------

    @app_commands.command(name="help", description="How to play, in a few lines, and the commands that matter")
    async def show_help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, translator(private_locale(interaction.locale)).gettext(HELP_TEXT))

    @app_commands.command(name="rules", description="How to play (per game; at a table, with its house rules)")
    @app_commands.choices(preset=preset_choices())
    @app_commands.describe(preset="The game whose rules to show (at a table, leave empty for its rules)")
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        table = self.manager.registry.by_channel.get(channel_of(interaction))
        if preset is None and table is not None:
            key = f"table-{table.id}"
        else:
            key = preset or (await self.prefs.guild(guild_of(interaction))).default_preset
        embed, view = self._rules(key, 0, private_locale(interaction.locale))
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    def _rules(self, key: str, page: int, locale: Locale = Locale.EN) -> tuple[discord.Embed, discord.ui.View | None]:
        """``key``: a preset, or ``table-<id>`` for the rules as that table plays them (a key of
        neither kind, e.g. a game this version no longer has, is refused as a page no longer in use);
        in the reader's ``locale``."""
        from engine.presets import PRESETS

        if key.startswith("table-"):
            table_id = key.removeprefix("table-")
            table = self.manager.registry.get_by_id(int(table_id)) if table_id.isdigit() else None
            if table is None:
                raise errors.StaleButton(errors.Refusal.TABLE_RULES_GONE)
            preset, pages = table.preset, pages_for(table.preset, table.options, locale.value)
        elif key in PRESETS:
            preset, pages = key, pages_for(key, locale=locale.value)
        else:
            raise errors.StaleButton(errors.Refusal.RULES_GONE)
        page = max(0, min(page, len(pages) - 1))
        words = translator(locale)
        embed = discord.Embed(
            title=words.gettext("How to play — {game}").format(game=words.gettext(preset_name(preset))),
            description=pages[page][:4000],
            colour=0x8B0000,
        )
        embed.set_footer(text=words.gettext("Page {page}/{pages}").format(page=page + 1, pages=len(pages)))
        return embed, pager("rules", key, page, len(pages))

    async def _rules_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = self._rules(key, page, private_locale(interaction.locale))
        await interaction.response.edit_message(embed=embed, view=view)

    # -- preferences and settings ---------------------------------------------------------------

    @app_commands.command(name="dm", description="Get your hand by DM at every deal")
    @app_commands.choices(mode=ON_OFF)
    @app_commands.describe(mode="On: your hand comes by DM at every deal; off: use Show my hand")
    async def dm(self, interaction: discord.Interaction, mode: str) -> None:
        on = mode == "on"
        await self.prefs.set_dm_hands(interaction.user.id, on)
        if not on:
            await reply(interaction, _(tablecommands.DMS_OFF))
            return
        # Checked now, not at the next deal: a short test DM.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send(_(tablecommands.DM_TEST))
        except discord.HTTPException:
            text = _(tablecommands.DMS_CLOSED)
        else:
            text = _(tablecommands.DMS_ON)
        await reply(interaction, text)

    @app_commands.command(name="ping", description="Be pinged when it's your turn")
    @app_commands.choices(mode=ON_OFF)
    @app_commands.describe(mode="On: a short ping when it's your turn; off: no pings")
    async def ping(self, interaction: discord.Interaction, mode: str) -> None:
        on = mode == "on"
        await self.prefs.set_pings(interaction.user.id, on)
        text = _(tablecommands.PINGS_ON) if on else _(tablecommands.PINGS_OFF)
        await reply(interaction, text)

    @app_commands.command(
        name="settings", description="The server's defaults (admins change them: /tripoley-admin settings)"
    )
    async def settings(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(guild_of(interaction))
        await reply(interaction, settings_text(config, self.bot.settings.house_bankroll))
