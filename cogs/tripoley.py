"""``/tripoley …`` slash commands: a thin layer over the table manager, bank and prefs."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.discordio.controller import answer_soon, guild_of, send_answer, wants_thread
from bot.discordio.ui import build_view, message_kwargs
from bot.economy.bank import HOUSE, STILL_SEATED, TABLES_OPEN, WEEK, duration_text
from bot.messages.buttonids import ConfirmButton, PageButton, encode
from bot.messages.components import DANGER, ButtonSpec
from bot.messages.outgoing import lobby_message
from bot.messages.rules import pages_for
from bot.messages.text import audit_text, escape
from bot.tables.messageids import remember_message

log = logging.getLogger(__name__)

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
LEADERBOARD_PAGE = 10


def preset_choices() -> list[app_commands.Choice[str]]:
    from engine.presets import PRESETS

    return [app_commands.Choice(name=p.name[:100], value=key) for key, p in list(PRESETS.items())[:25]]


def preset_name(key: str) -> str:
    from engine.presets import PRESETS

    preset = PRESETS.get(key)
    return preset.name if preset else key


def pager(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    """Prev/Next buttons whose custom_ids carry the page: stateless, so they survive restarts."""
    if pages <= 1:
        return None
    specs = [
        ButtonSpec(encode(PageButton(kind, key, max(page - 1, 0))), "◀ Prev"),
        ButtonSpec(encode(PageButton(kind, key, min(page + 1, pages - 1))), "Next ▶"),
    ]
    if specs[0].custom_id == specs[1].custom_id:  # custom_ids must be unique in a message
        specs = specs[:1]
    return build_view(specs)


def check_bot_permissions(interaction: discord.Interaction) -> None:
    perms = interaction.app_permissions
    if perms.value == 0:  # not reported (e.g. a test server): rely on Forbidden at send time
        return
    missing = [p for p in REQUIRED_PERMISSIONS if not getattr(perms, p)]
    if missing:
        raise errors.MissingBotPermissions([errors.permission_label(p) for p in missing])


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def require_manage_server(interaction: discord.Interaction, what: str) -> None:
    perms = getattr(interaction.user, "guild_permissions", None)
    if not (perms and perms.manage_guild):
        raise errors.NotAllowed(f"{what} needs the **Manage Server** permission.")


def smallest_buy_in() -> int:
    """The smallest default buy-in of any game: a wallet below it can't join a default table."""
    from engine.presets import PRESETS

    return min(int(p.options.start_stack) for p in PRESETS.values())


def confirm_view(what: str, label: str) -> discord.ui.View:
    """One red button; its click is routed to the cog's handler for ``what`` (see Controller.confirms)."""
    return build_view([ButtonSpec(encode(ConfirmButton(what)), label, DANGER)])


LEADERBOARD_TITLES = {"balance": "balance", "net": "net winnings", "wins": "games won"}
NO_PINGS = discord.AllowedMentions.none()


@app_commands.guild_only()
class Tripoley(commands.GroupCog, group_name="tripoley", group_description="Play Tripoley and its family"):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.bank = bot.bank
        self.prefs = bot.prefs
        self.controller = bot.controller
        self.controller.pages["rules"] = self._rules_page
        self.controller.pages["board"] = self._board_page
        self.controller.confirms["reset"] = self._confirm_reset
        self.controller.confirms["forget"] = self._confirm_forget
        self.controller.pages["replay"] = self._replay_file
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Tables, wallets and records belong to a server: a command from a DM is refused in words
        (the tree's error handler answers it, once)."""
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

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
    ) -> None:
        check_bot_permissions(interaction)
        ends = [
            x
            for x in (rounds and f"rounds:{rounds}", minutes and f"minutes:{minutes}", elimination and "elimination")
            if x
        ]
        if len(ends) > 1:
            raise errors.TripoleyError("Pick one way to end the game: `rounds`, `minutes` or `elimination`.")
        options: dict = {}
        if ends:
            options["game_end"] = ends[0]
        if bet_limit:
            options["bet_limit"] = bet_limit

        async def open_table():
            return await self.manager.create_table(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                display_name(interaction.user),
                preset,
                options,
                buy_in=buy_in,
                turn_timeout=turn_timeout,
                # A table opened inside a thread plays there (threads don't nest).
                thread=await wants_thread(interaction, self.prefs)
                and not isinstance(interaction.channel, discord.Thread),
            )

        # The lobby is the answer; opening it waits for the database (a "thinking…" answer first if that is slow).
        table = (await answer_soon(interaction, open_table())).table
        message_id = await send_answer(interaction, **message_kwargs(lobby_message(table)))
        if message_id:
            await remember_message(self.manager, table.id, "lobby", message_id)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        update = await self.manager.join(interaction.channel_id, interaction.user.id, display_name(interaction.user))
        await self.controller.reply(interaction, update.message or "You're in!")

    @app_commands.command(name="leave", description="Leave the table (mid-game: an AI finishes for you)")
    async def leave(self, interaction: discord.Interaction) -> None:
        update = await self.manager.leave(interaction.channel_id, interaction.user.id)
        await self.controller.reply(interaction, update.message or "You left.")

    @app_commands.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.show_hand(interaction)

    @app_commands.command(name="stop", description="End the game and cash everyone out (host or Manage Server)")
    async def stop(self, interaction: discord.Interaction) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        can_manage = bool(perms and perms.manage_guild)
        update = await self.manager.stop(
            interaction.channel_id, interaction.user.id, can_manage, display_name(interaction.user)
        )
        await self.controller.reply(interaction, update.message or "Stopped.", ephemeral=False)

    # -- chips and records ---------------------------------------------------------------

    @app_commands.command(name="balance", description="Your chips in this server")
    async def balance(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(interaction.guild_id)
        balance = await self.bank.balance(interaction.guild_id, interaction.user.id, config.starting_balance)
        lines = [f"Your wallet: **{balance}** chips."]
        table = self.manager.tables.get(interaction.channel_id) or self.manager.threads.get(interaction.channel_id)
        if table is not None:
            seat = table.seat_of(interaction.user.id)
            if seat is not None:
                at = table.game.stacks[seat] if table.game is not None else table.seats[seat].stake
                lines.append(f"At this table: **{at}** chips.")
        lines.append(await self._grants_due(interaction, config, balance))
        await self.controller.reply(interaction, "\n".join(lines))

    async def _grants_due(self, interaction: discord.Interaction, config, balance: int) -> str:
        """When the player can next claim the daily (and, with a wallet below the smallest buy-in, relief) grant."""
        last = await self.bank.last_claims(interaction.guild_id, interaction.user.id)
        now = self.bank.clock()
        parts = []
        kinds = [("daily", config.daily_amount, config.daily_cooldown_hours)]
        if balance < smallest_buy_in():
            kinds.append(("relief", config.relief_amount, config.relief_cooldown_hours))
        for kind, amount, hours in kinds:
            if amount <= 0:
                continue
            left = last.get(kind, float("-inf")) + hours * 3600 - now
            parts.append(f"`/tripoley {kind}` in {duration_text(left)}" if left > 0 else f"`/tripoley {kind}` is ready")
        return " · ".join(parts)

    @app_commands.command(name="leaderboard", description="The server's richest players, biggest winners and most wins")
    @app_commands.describe(by="Rank by wallet balance, net winnings or games won", period="This week or all time")
    @app_commands.choices(
        by=[app_commands.Choice(name=title, value=key) for key, title in LEADERBOARD_TITLES.items()],
        period=[app_commands.Choice(name="all time", value="all"), app_commands.Choice(name="this week", value=WEEK)],
    )
    async def leaderboard(self, interaction: discord.Interaction, by: str = "balance", period: str = "all") -> None:
        embed, view = await self._board(guild_of(interaction), f"{by}-{period}", 0)
        kwargs = {"embed": embed}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    async def _board(self, guild_id: int, key: str, page: int):
        by, _, period = key.partition("-")
        if by not in LEADERBOARD_TITLES:
            raise errors.StaleButton("That leaderboard is no longer available.")
        week = period == WEEK and by != "balance"  # a balance is always today's
        size = await self.bank.leaderboard_size(guild_id, by, WEEK if week else None)
        pages = max(1, -(-size // LEADERBOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows = await self.bank.leaderboard(
            guild_id, by, page * LEADERBOARD_PAGE, LEADERBOARD_PAGE, WEEK if week else None
        )
        title = f"Leaderboard — {LEADERBOARD_TITLES[by]}" + (" this week" if week else "")
        unit = "wins" if by == "wins" else "chips"
        lines = []
        for i, row in enumerate(rows, page * LEADERBOARD_PAGE + 1):
            value = f"{'+' if by == 'net' and row['value'] > 0 else ''}{row['value']}"
            lines.append(f"**{i}.** <@{row['user_id']}> — {value} {unit}")
        empty = "No games ended this week yet." if week else "Nobody has played yet."
        embed = discord.Embed(title=title, description="\n".join(lines) or empty, colour=0x2E8B57)
        embed.set_footer(text=f"Page {page + 1}/{pages}" + (" · the week starts Monday 00:00 UTC" if week else ""))
        return embed, pager("board", key, page, pages)

    async def _board_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = await self._board(guild_of(interaction), key, page)
        await interaction.response.edit_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="Games, rounds, pots and best hand of a player")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        stats = await self.manager.stats(interaction.guild_id, target.id)
        if not stats:
            await self.controller.reply(interaction, f"{escape(display_name(target))} hasn't finished a game here yet.")
            return
        net = stats["net"]
        embed = discord.Embed(title="Stats", description=f"<@{target.id}>", colour=0x2E8B57)
        embed.add_field(name="Games", value=str(stats["games"]))
        embed.add_field(name="Wins", value=str(stats["wins"]))
        embed.add_field(name="Win rate", value=f"{stats['wins'] / stats['games']:.0%}" if stats["games"] else "—")
        embed.add_field(name="Favourite game", value=preset_name(stats["favourite"]) if stats.get("favourite") else "—")
        embed.add_field(name="Rounds", value=str(stats["rounds"]))
        embed.add_field(name="Pots won", value=str(stats["pots_won"]))
        embed.add_field(name="Net winnings", value=f"{'+' if net > 0 else ''}{net}")
        embed.add_field(name="Best poker hand", value=stats["best_hand"] or "—")
        await interaction.response.send_message(embed=embed, ephemeral=user is None)

    @app_commands.command(name="history", description="Recent games in this server and their results")
    async def history(self, interaction: discord.Interaction) -> None:
        games = await self.manager.history(interaction.guild_id, 10)
        if not games:
            await self.controller.reply(interaction, "No finished games yet. `/tripoley start` one!")
            return
        lines: list[str] = []
        buttons: list[ButtonSpec] = []
        for number, game in enumerate(games, start=1):
            result = game["result"] or {}
            seats = result.get("seats") or []
            podium = ", ".join(
                f"{escape(s['name'])} {s['final']} ({'+' if s['net'] > 0 else ''}{s['net']})" for s in seats[:4]
            )
            when = f"<t:{int(game['ended_at'])}:R>" if game["ended_at"] else ""
            lines.append(
                f"{number}. **{escape(result.get('preset_name', game['preset']))}** in <#{game['channel_id']}> {when}: {podium}"
            )
            if result.get("house_rules"):
                lines.append(f"  house rules: {'; '.join(result['house_rules'])}")
            if game.get("has_replay"):
                buttons.append(
                    ButtonSpec(
                        encode(PageButton("replay", "game", game["id"])), f"Replay {number}", row=len(buttons) // 5
                    )
                )
        embed = discord.Embed(title="Recent games", description="\n".join(lines)[:4000], colour=0x2E8B57)
        if buttons:
            embed.set_footer(
                text="Replay N: the file of game N, every deck and decision (python -m engine replay FILE)"
            )
            await interaction.response.send_message(embed=embed, view=build_view(buttons), ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _replay_file(self, interaction: discord.Interaction, key: str, table_id: int) -> None:
        """A history button: the finished game's replay file, to the one who asked (it shows every
        hand, which is no secret once the game is over)."""
        text = await self.manager.replay(interaction.guild_id, table_id)
        if text is None:
            raise errors.StaleButton("That game has no replay file (it began before games were kept as replays).")
        name = f"tripoley-game-{table_id}.json"
        await interaction.response.send_message(
            f"The replay of that game: every deck and every decision. Play it back with `python -m engine replay {name}`.",
            file=discord.File(io.BytesIO(text.encode("utf-8")), filename=name),
            ephemeral=True,
        )

    # -- rules ------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="How to play (per game; at a table, with its house rules)")
    @app_commands.choices(preset=preset_choices())
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        table = self.manager.tables.get(interaction.channel_id)
        if preset is None and table is not None:
            key = f"table-{table.id}"
        else:
            key = preset or (await self.prefs.guild(interaction.guild_id)).default_preset
        embed, view = self._rules(key, 0)
        kwargs = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(**kwargs)

    def _rules(self, key: str, page: int):
        """``key``: a preset, or ``table-<id>`` for the rules as that table plays them."""
        if key.startswith("table-"):
            table = self.manager.get_by_id(int(key.removeprefix("table-")))
            if table is None:
                raise errors.StaleButton("That table is closed. `/tripoley rules` shows the rules of any game.")
            preset, pages = table.preset, pages_for(table.preset, table.options)
        else:
            preset, pages = key, pages_for(key)
        page = max(0, min(page, len(pages) - 1))
        embed = discord.Embed(
            title=f"How to play — {preset_name(preset)}", description=pages[page][:4000], colour=0x8B0000
        )
        embed.set_footer(text=f"Page {page + 1}/{len(pages)}")
        return embed, pager("rules", key, page, len(pages))

    async def _rules_page(self, interaction: discord.Interaction, key: str, page: int) -> None:
        embed, view = self._rules(key, page)
        await interaction.response.edit_message(embed=embed, view=view)

    # -- preferences and settings ---------------------------------------------------------------

    @app_commands.command(name="dm", description="Get your hand by DM at every deal")
    @app_commands.choices(
        mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def dm(self, interaction: discord.Interaction, mode: str) -> None:
        on = mode == "on"
        await self.prefs.set_dm_hands(interaction.user.id, on)
        if not on:
            await self.controller.reply(interaction, "No more hand DMs: use **Show my hand** on the table message.")
            return
        # Checked now, not at the next deal: a short test DM.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send(
                "👋 This is Tripoley checking that I can DM you: your hand will come here at every deal."
            )
        except discord.HTTPException:
            text = (
                "I couldn't DM you: your DMs are closed to me. Allow direct messages from this server's members "
                "(Privacy Settings) and your hands will come by DM; until then use **Show my hand**."
            )
        else:
            text = "I sent you a test DM: you'll get your hand there at every deal."
        await self.controller.reply(interaction, text)

    @app_commands.command(name="ping", description="Be pinged when it's your turn")
    @app_commands.choices(
        mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def ping(self, interaction: discord.Interaction, mode: str) -> None:
        on = mode == "on"
        await self.prefs.set_pings(interaction.user.id, on)
        if on:
            text = "I'll ping you when it's your turn (a short message, deleted once you've played)."
        else:
            text = "No more turn pings: watch the table message for ⏳ and your name."
        await self.controller.reply(interaction, text)

    @app_commands.command(name="settings", description="Server defaults (Manage Server)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        default_preset="The game /tripoley start opens by default",
        starting_balance="Chips in a new player's wallet",
        turn_timeout="Seconds per decision",
        ai_pause="Seconds an AI waits before acting",
        daily_amount="Chips /tripoley daily grants (0: off)",
        daily_cooldown_hours="Hours between two daily grants",
        relief_amount="Chips /tripoley relief grants to a wallet below the smallest buy-in (0: off)",
        relief_cooldown_hours="Hours between two relief grants",
        threads="Run each table in its own thread",
        pings="Ping players when it's their turn (each player can change it with /tripoley ping)",
    )
    @app_commands.choices(default_preset=preset_choices())
    async def settings(
        self,
        interaction: discord.Interaction,
        default_preset: str | None = None,
        starting_balance: app_commands.Range[int, 0, 10000000] | None = None,
        turn_timeout: app_commands.Range[int, 10, 3600] | None = None,
        ai_pause: app_commands.Range[float, 0.0, 30.0] | None = None,
        daily_amount: app_commands.Range[int, 0, 10000000] | None = None,
        daily_cooldown_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
        relief_amount: app_commands.Range[int, 0, 10000000] | None = None,
        relief_cooldown_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
        threads: bool | None = None,
        pings: bool | None = None,
    ) -> None:
        changes = dict(
            default_preset=default_preset,
            starting_balance=starting_balance,
            turn_timeout=turn_timeout,
            ai_pause=ai_pause,
            daily_amount=daily_amount,
            daily_cooldown_hours=daily_cooldown_hours,
            relief_amount=relief_amount,
            relief_cooldown_hours=relief_cooldown_hours,
            threads=threads,
            pings=pings,
        )
        if any(v is not None for v in changes.values()):
            require_manage_server(interaction, "Changing the settings")
            config = await self.prefs.update_guild(interaction.guild_id, **changes)
        else:
            config = await self.prefs.guild(interaction.guild_id)
        text = (
            f"**Server settings**\nDefault game: {preset_name(config.default_preset)}\n"
            f"Starting balance: {config.starting_balance} chips\nTurn timer: {int(config.turn_timeout)} s\n"
            f"AI pause: {config.ai_pause:g} s\n"
            f"Daily grant: {config.daily_amount} chips every {config.daily_cooldown_hours:g} h\n"
            f"Relief grant: {config.relief_amount} chips every {config.relief_cooldown_hours:g} h, "
            f"for wallets below {smallest_buy_in()} chips\n"
            f"Tables in threads: {'on' if config.threads else 'off'}\n"
            f"Turn pings: {'on' if config.pings else 'off'} by default\n"
            f"House bankroll of a new server: {self.bot.settings.house_bankroll} chips (see `/tripoley admin house`)"
        )
        await self.controller.reply(interaction, text)

    # -- getting back in -------------------------------------------------------------------------

    @app_commands.command(name="daily", description="Claim your daily chips")
    async def daily(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(interaction.guild_id)
        balance = await self.bank.claim(
            interaction.guild_id,
            interaction.user.id,
            "daily",
            config.daily_amount,
            config.daily_cooldown_hours * 3600,
            config.starting_balance,
        )
        await self.controller.reply(
            interaction,
            f"+{config.daily_amount} chips! Your wallet: **{balance}** chips. "
            f"The next daily grant is in {duration_text(config.daily_cooldown_hours * 3600)}.",
        )

    @app_commands.command(
        name="relief", description="Chips to get back in when your wallet is below the smallest buy-in"
    )
    async def relief(self, interaction: discord.Interaction) -> None:
        config = await self.prefs.guild(interaction.guild_id)
        balance = await self.bank.claim(
            interaction.guild_id,
            interaction.user.id,
            "relief",
            config.relief_amount,
            config.relief_cooldown_hours * 3600,
            config.starting_balance,
            below=smallest_buy_in(),
        )
        await self.controller.reply(
            interaction, f"+{config.relief_amount} chips to get you back in. Your wallet: **{balance}** chips."
        )

    # -- your data ------------------------------------------------------------------------------

    @app_commands.command(name="forget-me", description="Delete your wallet, stats and name from this server")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        if self.manager.seated(interaction.guild_id, interaction.user.id):
            raise errors.NotAllowed(STILL_SEATED)
        await interaction.response.send_message(
            "This deletes your wallet (its chips are gone for good), your stats and your name from this "
            "server's games. Ledger rows stay, anonymised, so the server's totals still add up. Sure?",
            view=confirm_view("forget", "Forget me"),
            ephemeral=True,
        )

    async def _confirm_forget(self, interaction: discord.Interaction) -> None:
        guild_id, user_id = interaction.guild_id, interaction.user.id
        removed = await self.bank.forget(guild_id, user_id, lambda: self.manager.seated(guild_id, user_id))
        await interaction.response.edit_message(
            content=f"Done: your wallet ({removed} chips), stats and name are gone from this server.", view=None
        )

    # -- admin tools (Manage Server) ---------------------------------------------------------------

    admin = app_commands.Group(
        name="admin",
        description="Server economy tools (Manage Server)",
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @admin.command(name="grant", description="Give chips to a member (negative: take them; never below 0)")
    @app_commands.describe(user="Whose wallet", amount="Chips to add (negative to remove)")
    async def admin_grant(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        amount: app_commands.Range[int, -10_000_000, 10_000_000],
    ) -> None:
        require_manage_server(interaction, "Granting chips")
        if user.bot:
            raise errors.TripoleyError("Bots have no wallet. For the AI seats' chips use `/tripoley admin house`.")
        config = await self.prefs.guild(interaction.guild_id)
        moved, balance = await self.bank.adjust(
            interaction.guild_id, user.id, amount, interaction.user.id, config.starting_balance
        )
        verb = f"Granted **{moved}** chips to" if moved >= 0 else f"Took **{-moved}** chips from"
        await self.controller.reply(
            interaction, f"{verb} <@{user.id}>; their wallet holds {balance}.", allowed_mentions=NO_PINGS
        )

    @admin.command(name="house", description="See the house bankroll (AI seats), or add chips to it")
    @app_commands.describe(amount="Chips to add to the house (negative to remove)")
    async def admin_house(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, -10000000, 10000000] | None = None
    ) -> None:
        require_manage_server(interaction, "The house bankroll")
        bankroll = self.bot.settings.house_bankroll
        if amount is None:
            balance = await self.bank.balance(interaction.guild_id, HOUSE, bankroll)
            text = f"The house holds **{balance}** chips. AI seats buy in from it and their winnings go back to it."
        else:
            moved, balance = await self.bank.adjust(interaction.guild_id, HOUSE, amount, interaction.user.id, bankroll)
            text = f"{'Added' if moved >= 0 else 'Removed'} {abs(moved)} chips: the house holds **{balance}** now."
        await self.controller.reply(interaction, text)

    @admin.command(name="audit", description="Check that every chip is accounted for")
    async def admin_audit(self, interaction: discord.Interaction) -> None:
        require_manage_server(interaction, "The audit")
        await self.controller.reply(interaction, audit_text(await self.manager.audit(interaction.guild_id)))

    @admin.command(name="kick", description="Remove a member from a table (mid-game: an AI plays their seat)")
    async def admin_kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        require_manage_server(interaction, "Kicking a player")
        updates = await self.manager.kick(interaction.guild_id, user.id, display_name(interaction.user))
        await self.controller.reply(interaction, "\n".join(u.message for u in updates if u.message))

    @admin.command(name="reset", description="Every wallet back to the starting balance (after a confirmation)")
    async def admin_reset(self, interaction: discord.Interaction) -> None:
        require_manage_server(interaction, "Resetting the economy")
        self._refuse_while_open(guild_of(interaction))
        config = await self.prefs.guild(interaction.guild_id)
        await interaction.response.send_message(
            f"This puts **every** wallet in this server back to {config.starting_balance} chips and the house back "
            f"to {self.bot.settings.house_bankroll}. Sure?",
            view=confirm_view("reset", "Reset the economy"),
            ephemeral=True,
        )

    def _refuse_while_open(self, guild_id: int) -> None:
        """Before the confirmation is shown (the reset itself checks again, in its transaction)."""
        if any(t.guild_id == guild_id for t in self.manager.by_id.values()):
            raise errors.NotAllowed(TABLES_OPEN)

    async def _confirm_reset(self, interaction: discord.Interaction) -> None:
        require_manage_server(interaction, "Resetting the economy")
        self._refuse_while_open(guild_of(interaction))
        config = await self.prefs.guild(interaction.guild_id)
        count = await self.bank.reset(
            interaction.guild_id, interaction.user.id, config.starting_balance, self.bot.settings.house_bankroll
        )
        await interaction.response.edit_message(
            content=f"Done: {count} wallet(s) are back to {config.starting_balance} chips "
            f"(the house to {self.bot.settings.house_bankroll}).",
            view=None,
        )


async def setup(bot) -> None:
    await bot.add_cog(Tripoley(bot))
