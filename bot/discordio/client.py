"""The bot: a ``commands.Bot`` that wires storage, the table manager and the cogs."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import aiohttp
import discord
from discord.ext import commands

from bot import __version__
from bot.competition.seasons import SeasonEnded
from bot.discordio import commandsync, login, sdnotify
from bot.discordio.clicktimes import ClickTimes
from bot.discordio.controller import Controller
from bot.discordio.health import Health, HealthServer, watchdog
from bot.discordio.login import (
    DiscordUnreachable,
    one_login_attempt,
    point_discord_at,
    wait_for_discord,
)
from bot.discordio.metrics import BotCollector, DiscordTraffic, registry_for
from bot.discordio.pacing import Pacer
from bot.discordio.places import Places
from bot.discordio.publisher import Publisher
from bot.discordio.render import ImageService, default_renderer, process_pool
from bot.discordio.seasontools import post_season_end, server_locale
from bot.discordio.sink import DiscordSink
from bot.discordio.turns import TurnNotifier
from bot.discordio.ui import (
    TableButton,
    TableSelect,
    handle_modal_submit,
    handle_unrouted_component,
)
from bot.economy import privacy
from bot.economy.bank import Bank
from bot.economy.prefs import Prefs
from bot.errors import DatabaseUnavailable
from bot.i18n.commands import CatalogTranslator
from bot.logsetup import RedactingFilter
from bot.messages.reports import error_report
from bot.messages.tablelines import TABLE_LINES
from bot.reporting import OwnerReports
from bot.settings import Settings
from bot.storage import priority as storage
from bot.storage.database import Database
from bot.storage.ownership import OWNED_ELSEWHERE, OwnershipRefused, take_ownership
from bot.tables.clock import SystemClock
from bot.tables.manager import TableManager
from bot.web.server import WebServer, open_web

log = logging.getLogger(__name__)
T = TypeVar("T")

EXTENSIONS = ("cogs.tripoley", "cogs.admin")
SAVE_DELAY = 2.0  # seconds: AI moves are saved coalesced, at most this late (see bot.tables.store)
UNSAVED_AT_CLOSE = 1  # exit status of a shutdown that left table states unsaved (the database away)
# The cyclic garbage collector. Its pause is what it walks plus what it frees (~3 µs an object
# freed, on this bot's heap): the objects of a click (its payload, its message's components, the
# views built for an edit) live for a few hundred milliseconds in reference cycles, outlive a
# gen-0 collection and die in gen 1. So gen 0 stays small (2,000: ~1-2 ms) and gen 1 is
# collected every 10 of them, freeing a second's garbage at a time (at 500 it freed half a
# minute's, 236,000 objects, in 0.7 s at 500 tables). Full collections stay rare (after 100 gen-1
# collections, and only once a quarter of the old objects are new) and the start-up objects are
# frozen out of them.
GC_THRESHOLDS = (2_000, 10, 100)
HTTP_KEEPALIVE = 120.0  # seconds an idle HTTP connection to Discord is kept open (see TripoleyBot.login)
# A token Discord no longer accepts (reset in the developer portal): a 401 at log-in, or the gateway
# closing with 4004. Restarting cannot fix it, so the exit status is the one a service manager is
# told not to restart on (deploy/: RestartPreventExitStatus=2), as for bad settings.
TOKEN_DEAD = 2
GATEWAY_AUTH_FAILED = 4004
TOKEN_REFUSED = (
    "Discord refused the token (%s): it was reset or revoked. Put the bot's current token in DISCORD_TOKEN"
    " (developer portal → Bot → Reset Token) and start the bot again."
)
RETENTION_EVERY = 86_400.0  # seconds between two runs of the retention rules (PRIVACY.md), the first at start
# Seconds the timer loop may oversleep before the event loop counts as stalled: no click was read
# meanwhile, so every deadline is extended by the stall (bot.tables.timers).
LOOP_STALL = 5.0


def ignore_event(data: object) -> None:
    """A gateway event the bot does not read (dropped before discord.py builds anything from it)."""


class TripoleyBot(commands.Bot):
    """The bot and the services it builds in :meth:`setup_hook` (declared here: a cog or a
    component reaches them through ``interaction.client``, typed as this class)."""

    bank: Bank
    prefs: Prefs
    manager: TableManager
    publisher: Publisher
    turns: TurnNotifier
    controller: Controller
    places: Places

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents
        # Not privileged either: a table message deleted by a moderator is posted again at once
        # (MESSAGE_DELETE). The messages themselves are not read (MESSAGE_CREATE and
        # MESSAGE_UPDATE are dropped unparsed below) nor kept (max_messages).
        intents.guild_messages = True
        client_options.setdefault("max_messages", None)
        # Nothing a message says pings anyone unless the message names whom it pings (bot.discordio.ui.pings_only).
        client_options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # The bot's share of the token's request budget: the publisher's requests take its slots,
        # and every counted request passes its window on the wire (bot.discordio.pacing).
        self.pacer = Pacer(settings.rest_share())
        traffic = DiscordTraffic(gate=self.pacer.going_out)  # and the requests and acks, for the metrics
        client_options.setdefault("http_trace", traffic.trace)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **client_options)
        self.settings = settings
        self.traffic = traffic
        self.clock = SystemClock()  # the game's (monotonic) clock, shared by the tables and the clicks
        click_times = self.click_times = ClickTimes(self.clock)
        self.db: Database | None = None
        self.images: ImageService | None = None
        self.handle_sigterm = False  # set by run_bot: SIGTERM closes the bot cleanly (saves flushed)
        self.exit_status = 0  # set by stop_for: python -m bot exits with it
        self._save_at_close = True
        self._timer: asyncio.Task[None] | None = None
        self._seasons: asyncio.Task[None] | None = None  # the seasons' timer (bot.competition.seasons)
        self.health_server: HealthServer | None = None
        self.web_server: WebServer | None = None
        self.owner_reports: OwnerReports | None = None  # tracebacks summarised to the owner (ERROR_REPORTS)
        self._watchdog: asyncio.Task[None] | None = None
        self._retention: asyncio.Task[None] | None = None
        self._closing: asyncio.Future[None] | None = None
        self._synced_guilds: set[int] = set()
        self.sync_only = False  # python -m bot sync: set up the commands, sync them, serve nothing
        self.synced = 0  # how many commands the last sync sent
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def parse_interaction_create(data: dict[str, Any], _parse: Callable[[Any], None] = parse) -> None:
            # discord.py starts the task that handles the interaction inside the parser: it copies
            # this context, so the database transactions an interaction waits for go ahead of the
            # timers' and the coalesced saves (bot.storage.priority.PRIORITY).
            token = storage.PRIORITY.set(storage.INTERACTIVE)
            try:
                traffic.received(int(data["id"]))
                click_times.arrived(int(data["id"]))  # as it is read: a click is dated when it was made
                return _parse(data)
            finally:
                storage.PRIORITY.reset(token)

        parsers["INTERACTION_CREATE"] = parse_interaction_create
        for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):  # what the guild_messages intent brings but deletions
            parsers[event] = ignore_event

    async def login(self, token: str) -> None:
        # The interaction acknowledgements share discord.py's connection pool with the mat and hand
        # uploads. An acknowledgement that finds every open connection busy opens a new one (a TCP,
        # and on Discord a TLS, handshake on its way: tens of ms); idle connections kept longer than
        # aiohttp's 15 s default keep the pool as large as recent bursts needed.
        self.http.connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=HTTP_KEEPALIVE)
        await super().login(token)

    async def setup_hook(self) -> None:
        s = self.settings
        self.db = await Database(s.database_path()).connect()
        self.db.on_outcome_unknown = lambda reason: self.stop_for(1, reason)
        await self.db.checkpoint_in_background()
        self.bank = Bank(self.db)
        self.prefs = Prefs(self.db, s)
        self.manager = TableManager(
            self.db, self.bank, self.prefs, s, TABLE_LINES, clock=self.clock, save_delay=SAVE_DELAY
        )
        self.manager.timers.stall_after = LOOP_STALL
        self.manager.timers.member_check = self.is_member
        if s.ai_processes > 0:  # niced below the render process: a search may wait, a click may not
            self.manager.ai.executor = process_pool(s.ai_processes, niceness=10, draws=False)
            self.manager.ai.workers = s.ai_processes
        renderer = await asyncio.to_thread(default_renderer)  # imports Pillow: off the event loop
        workers = s.render_processes
        pool = process_pool(workers) if workers > 0 and renderer is not None else None
        self.images = ImageService(renderer, pool)
        if s.shard_count is not None:
            log.info(
                "REST budget: %g requests a second, this process's share of REST_RATE %g", self.pacer.rate, s.rest_rate
            )
        sink = DiscordSink(self, self.pacer)
        self.publisher = Publisher(self.manager, sink, self.images)
        self.turns = TurnNotifier(
            self.manager,
            sink,
            self.images,
            carriers=self.publisher.carriers,
            ping_delay=s.ping_delay,
            ping_watching=s.ping_watching,
        )
        self.controller = Controller(self.manager, self.publisher, self.turns, self.click_times)
        self.places = Places(self.manager, self.publisher, self.turns, sink)
        sink.on_lost = self.places.refused  # a channel Discord answers as lost: its tables end
        self.add_dynamic_items(TableButton, TableSelect)
        await self.tree.set_translator(CatalogTranslator())  # the command list in French and German
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.error(self.controller.on_app_command_error)
        if self.sync_only:
            self.synced = await commandsync.sync(self)
            return
        resumed = await self.manager.timers.resume()
        for table in resumed:
            self.publisher.resume(table)  # refresh deadlines shown on the messages
            self.turns.refresh(table)  # the ping of a decision waiting since before the restart
        self._timer = asyncio.create_task(self.manager.timers.run(), name="tripoley-timers")
        seasons = self.manager.seasons.run(s.owns_guild, partial(self._post_season_end, sink))
        self._seasons = asyncio.create_task(seasons, name="tripoley-seasons")
        self.health = Health(self.manager, self.db, self, lambda: self._timer)
        bind = s.health_bind()
        if bind is not None:
            collector = BotCollector(
                self.manager, self.db, self.traffic, self.pacer, self.images, latency=lambda: self.latency
            )
            self.health_server = HealthServer(self.health, registry_for(collector), *bind)
            await self.health_server.start()
        web_bind = s.web_bind()
        if web_bind is not None and s.public_url is not None:  # the web pages, on their own address
            self.web_server = await open_web(self.manager, self.db, s.public_url, *web_bind)
        if s.runs_shard_zero():  # once for the whole cluster
            self._retention = asyncio.create_task(self._apply_retention(), name="tripoley-retention")
        if s.error_reports == "owner" and not s.sentry():
            self.owner_reports = OwnerReports(
                self.dm_owner, error_report, asyncio.get_running_loop(), RedactingFilter([s.token() or ""])
            )
            logging.getLogger().addHandler(self.owner_reports)
        if self.handle_sigterm:  # the bot's own process (python -m bot)
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
            try:
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._on_sigterm)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
                pass
        await commandsync.sync_if_changed(self)
        if self.handle_sigterm:  # the process is the service systemd started (Type=notify)
            interval = sdnotify.watchdog_interval()
            if interval is not None:
                self._watchdog = asyncio.create_task(watchdog(self.health, interval), name="tripoley-watchdog")
            sdnotify.notify("READY=1")

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the user is still in the server (asked of Discord: the bot has no members intent)."""
        try:
            await self.http.get_member(guild_id, user_id)
        except discord.NotFound:
            return False
        return True

    def stop_for(self, status: int, reason: str, save: bool = True) -> None:
        """Stop the process with exit ``status`` (the first reason wins): a database that can no
        longer tell whether a commit was applied (1: the restart reloads the truth), or ownership
        taken by another process (2; ``save`` False: the tables are that process's now)."""
        if self.exit_status:
            return
        log.critical("stopping: %s", reason)
        self.exit_status = status
        self._save_at_close = save
        asyncio.get_running_loop().create_task(self.close())

    async def _post_season_end(self, sink: DiscordSink, ended: SeasonEnded) -> None:
        """A season ended by its timer, posted in its server's language."""
        guild = self.get_guild(ended.guild_id)
        locale = await server_locale(self.manager.prefs, ended.guild_id, guild.preferred_locale if guild else None)
        await post_season_end(sink, ended, locale)

    async def _apply_retention(self) -> None:
        """The retention rules, at start and then daily: old finished games pruned, departed servers purged."""
        while self.db is not None:
            try:
                pruned, purged = await privacy.retain(self.db, self.settings, time.time())
            except Exception:
                log.exception("the retention rules could not be applied; trying again tomorrow")
            else:
                if pruned is not None and (pruned.games or pruned.ledger_rows):
                    log.info(
                        "retention: %d old game(s) deleted, %d ledger row(s) anonymised",
                        pruned.games,
                        pruned.ledger_rows,
                    )
                if purged:
                    log.info("retention: the data of %d server(s) that removed the bot purged", len(purged))
            await asyncio.sleep(RETENTION_EVERY)

    def _on_sigterm(self) -> None:
        log.info("SIGTERM: closing")
        asyncio.get_running_loop().create_task(self.close())

    async def _sync_guild(self, guild: discord.abc.Snowflake) -> None:
        if guild.id in self._synced_guilds:
            return
        self._synced_guilds.add(guild.id)
        try:
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        except Exception as exc:  # a closed session at shutdown, an HTTP error…
            self._synced_guilds.discard(guild.id)
            log.warning("could not sync commands to guild %s: %s", guild.id, exc)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d guild(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        if self.settings.discord_api_base:
            # A local test server: guild commands show up at once.
            for guild in self.guilds:
                await self._sync_guild(guild)

    # -- deafness: while the gateway is down no click reaches the bot, so no deadline runs out --

    def _lost(self, why: str) -> None:
        manager = getattr(self, "manager", None)
        if manager is not None:
            manager.timers.hearing.lost(why)

    async def _heard(self, why: str) -> None:
        """The bot hears again: every deadline is extended by the gap, and the table messages show them."""
        manager = getattr(self, "manager", None)
        if manager is None:
            return
        gap = manager.timers.hearing.back(why)
        if gap is None:
            return
        for table in await manager.timers.extend(gap, f"{why} disconnected"):
            self.publisher.publish(table)

    async def on_disconnect(self) -> None:
        self._lost("gateway")

    async def on_connect(self) -> None:
        await self._heard("gateway")

    async def on_resumed(self) -> None:
        await self._heard("gateway")

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._lost(f"shard {shard_id}")

    async def on_shard_connect(self, shard_id: int) -> None:
        await self._heard(f"shard {shard_id}")

    async def on_shard_resumed(self, shard_id: int) -> None:
        await self._heard(f"shard {shard_id}")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.modal_submit:
            await handle_modal_submit(interaction)
        elif interaction.type == discord.InteractionType.component:
            await handle_unrouted_component(interaction)
        with contextlib.suppress(DatabaseUnavailable):  # the language of their DMs: best effort
            await self.prefs.remember_locale(interaction.user.id, str(interaction.locale))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.db is not None:
            await privacy.clear_departed(self.db, guild.id)  # back before its data was purged: kept
        if self.settings.discord_api_base:
            await self._sync_guild(guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its tables end at once (bot.discordio.places) and its data is
        purged REMOVED_SERVER_DAYS from now (PRIVACY.md)."""
        if getattr(self, "places", None) is not None:
            self.places.guild_gone(guild.id)
        if self.db is not None:
            await privacy.mark_departed(self.db, guild.id, time.time())
            log.info(
                "removed from guild %s: its data is purged in %g day(s)", guild.id, self.settings.removed_server_days
            )

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        """A Discord outage (GUILD_DELETE with ``unavailable``), not a removal: the tables are kept."""
        log.warning("server %s is unavailable (a Discord outage); its tables are kept", guild.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if getattr(self, "places", None) is not None:
            self.places.channel_gone(channel.id, "channel-deleted")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if getattr(self, "places", None) is not None:
            self.places.channel_gone(payload.thread_id, "thread-deleted")

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread archived or locked by someone: a table playing in it ends (the bot archives a
        thread only once its game is over, when no table plays there any more)."""
        metadata = payload.data.get("thread_metadata") or {}
        if (metadata.get("archived") or metadata.get("locked")) and getattr(self, "places", None) is not None:
            self.places.channel_gone(payload.thread_id, "thread-closed")

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A table message deleted (by a moderator, say): posted again at once, nobody charged."""
        if getattr(self, "publisher", None) is not None:
            self.publisher.message_deleted(payload.channel_id, payload.message_id)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        if getattr(self, "publisher", None) is not None:
            for message_id in payload.message_ids:
                self.publisher.message_deleted(payload.channel_id, message_id)

    async def close(self) -> None:
        """Shut down once: saves flushed, pending messages sent, then the connections closed.

        Every caller (SIGTERM's task, discord.py's runner, tests) waits for the same shutdown; the
        runner must not end the event loop half-way (that cancelled the rest and left the database
        threads running, so the process never exited)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._closing)

    async def dm_owner(self, text: str) -> None:
        """A DM to the application's owner (a team's owner), who runs or answers for the bot."""
        app = await self.application_info()
        owner_id = app.team.owner_id if app.team is not None and app.team.owner_id else app.owner.id
        owner = self.get_user(owner_id) or await self.fetch_user(owner_id)
        await owner.send(text, allowed_mentions=discord.AllowedMentions.none())

    async def _shut_down(self) -> None:
        if self.owner_reports is not None:
            logging.getLogger().removeHandler(self.owner_reports)
        if self.handle_sigterm:
            sdnotify.notify("STOPPING=1")
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self.health_server is not None:
            await self.health_server.stop()
        if self.web_server is not None:
            await self.web_server.stop()
        if self._timer is not None:
            self._timer.cancel()
        if self._retention is not None:
            self._retention.cancel()
        if self._seasons is not None:
            self._seasons.cancel()
        manager = getattr(self, "manager", None)
        if manager is not None:
            manager.timers.stop()  # Hard AI moves under way: dropped, due again after a restart
        if getattr(self, "places", None) is not None:
            try:
                await asyncio.wait_for(self.places.flush(), 5)  # tables whose place went: ended
            except Exception:
                log.warning("the tables whose channel went away were not all ended before shutdown")
        if manager is not None and self.db is not None and self._save_at_close:
            await self._save_tables(manager, self.db)  # the newest state of every table
        try:
            if getattr(self, "turns", None) is not None:
                self.turns.close()  # pings are for the moment: a restart sends them again
            if getattr(self, "publisher", None) is not None:
                await asyncio.wait_for(self.publisher.flush(), 5)
        except Exception:
            log.warning("pending table messages were not all sent before shutdown")
        await super().close()  # discord.py's runner goes on from here: see run_bot
        if manager is not None and self.db is not None and self._save_at_close:
            await self._save_tables(manager, self.db)  # anything a last message changed (message ids)
            self._unsaved_at_close(manager, self.db)
        if self.images is not None:
            self.images.close()
        if manager is not None:
            manager.ai.close()
        if self.db is not None:
            await self.db.close()
            self.db = None

    @staticmethod
    async def _save_tables(manager: TableManager, db: Database) -> None:
        """Shutdown: write every table state not saved yet (a database away is tried once more
        first: the probe's backoff may not have seen it answer again)."""
        if db.away:
            await db.probe()
        try:
            await manager.store.flush()
        except DatabaseUnavailable as exc:
            log.warning("could not save every table's state before shutdown: %s", exc.detail)
        except Exception:
            log.exception("could not save every table's state before shutdown")

    def _unsaved_at_close(self, manager: TableManager, db: Database) -> None:
        """Anything left unsaved at shutdown (the database away): one line, and a failed exit status
        (the service manager, and whoever stopped it, learn that something was lost)."""
        unsaved = manager.store.unsaved()
        if unsaved and not self.exit_status:
            log.error(
                "stopping with %d table state(s) unsaved (the database is away: %s): exit status %d",
                unsaved,
                db.away_reason or "it did not answer",
                UNSAVED_AT_CLOSE,
            )
            self.exit_status = UNSAVED_AT_CLOSE


class ShardedTripoleyBot(TripoleyBot, commands.AutoShardedBot):
    """The bot as one process of a cluster: discord.py's AutoShardedBot, running the shards
    SHARD_IDS of SHARD_COUNT (one gateway connection each) and the tables of their servers only."""

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        shard_ids = settings.shards()
        if shard_ids is None:
            raise ValueError("a sharded bot needs SHARD_COUNT to be set")
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=list(shard_ids), **client_options)


def make_bot(settings: Settings) -> TripoleyBot:
    return TripoleyBot(settings) if settings.shard_count is None else ShardedTripoleyBot(settings)


async def sync_commands_once(settings: Settings, token: str) -> int:
    """``python -m bot sync``: log in over HTTP, build the command tree as the bot would, sync it
    (whatever was synced before) and record it; no gateway, no tables served. The number synced."""
    bot = make_bot(settings.model_copy(update={"render_processes": 0, "ai_processes": 0}))
    bot.sync_only = True
    try:
        await one_login_attempt(bot.login(token))
    finally:
        await bot.close()
    return bot.synced


def run_bot(settings: Settings) -> int:
    token = settings.token()
    assert token
    bots: list[TripoleyBot] = []

    async def runner() -> None:
        owner = await take_ownership(settings)  # before anything else: one owner of every table
        log.info("Tripoley Bot %s starting (discord.py %s)", __version__, discord.__version__)
        try:
            point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
            bot = make_bot(settings)
            bots.append(bot)
            bot.handle_sigterm = True
            owner.on_lost = lambda reason: bot.stop_for(OWNED_ELSEWHERE, reason, save=False)
            await wait_for_discord(token)
            async with bot:
                await bot.start(token)
            await bot.close()  # a shutdown begun elsewhere (SIGTERM) finishes before the loop ends
        finally:
            await owner.release()

    try:
        asyncio.run(runner())
    except OwnershipRefused as exc:
        print(exc, file=sys.stderr)
        return OWNED_ELSEWHERE
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        log.error(TOKEN_REFUSED, "401 at log-in")
        return TOKEN_DEAD
    except discord.ConnectionClosed as exc:
        if exc.code != GATEWAY_AUTH_FAILED:
            raise
        log.error(TOKEN_REFUSED, f"the gateway closed with {exc.code}")
        return TOKEN_DEAD
    except DiscordUnreachable as exc:
        log.error(
            "Discord is unreachable (%s); giving up after %d attempts. Check the network (and DISCORD_API_BASE).",
            exc,
            len(login.LOGIN_RETRY_DELAYS) + 1,
        )
        return 1
    except aiohttp.ClientError as exc:  # after the first log-in: discord.py retries the gateway itself
        log.error("the connection to Discord failed (%s)", str(exc) or type(exc).__name__)
        return 1
    return bots[0].exit_status if bots else 0
