"""The web pages and their JSON API: the replay viewer, the live table, a server's leaderboard and
its players' records (docs/web.md).

A page is found by its token (:class:`bot.messages.weblinks.WebLinks`): a token this site did not
sign, a game pruned (``RETENTION_DAYS``) or of a server that removed the bot, a server whose admins
did not turn its pages on, a player forgotten: all the same 404. Names and every other text are
data: the templates escape them (jinja2's autoescape) and the script writes them as text.

A page speaks its language (docs/languages.md): a game's pages their table's (``Table.locale``, kept
in the finished table's saved state), a server's pages the language its admins chose; a 404 or 429
page, English. Its words, lines, mat and cards are made under ``bot.i18n.reading`` in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import jinja2
from aiohttp import web

from bot.economy.bank import Bank
from bot.i18n import READING, Locale, _, reading
from bot.messages.web import SITE_NAME, page_words, say, script_words
from bot.messages.weblinks import WebLinks
from bot.tables.store import TableStore
from bot.web.headers import secure
from bot.web.live import LiveHub
from bot.web.steps import ReplaySteps, replay_steps
from bot.web.store import FinishedGame, WebStore
from engine import PRESETS
from engine.cardnames import card_names
from engine.replay import ReplayError

log = logging.getLogger(__name__)

CACHED_REPLAYS = 16  # games whose steps are kept in memory (a replay is played again past it)
BOARD_ROWS = 25
BOARDS = ("balance", "net", "wins")
KEEP_ALIVE = 15.0  # seconds between the comments that keep a live stream open through proxies
PLAYER_GAMES = 20
STEPS_CHUNK = 50  # steps a request of the replay viewer loads

Route = Callable[[web.Request], Awaitable[web.StreamResponse]]


def game_name(preset: str) -> str:
    """A game's name in the language being read."""
    found = PRESETS.get(preset)
    return _(found.name) if found is not None else preset


class StepsCache:
    """The steps of the games last viewed, by game and replay text (a replay rewritten, e.g. by a
    forget-me that renamed a seat, is played again)."""

    def __init__(self, size: int = CACHED_REPLAYS) -> None:
        self.size = size
        self.games: OrderedDict[tuple[int, str, str], ReplaySteps] = OrderedDict()

    async def steps(self, game: FinishedGame) -> ReplaySteps:
        key = (game.table_id, game.locale.value, hashlib.sha256(game.replay_json.encode()).hexdigest())
        found = self.games.get(key)
        if found is None:
            found = await asyncio.to_thread(replay_steps, game.replay_json, game.locale.value)
            self.games[key] = found
            while len(self.games) > self.size:
                self.games.popitem(last=False)
        self.games.move_to_end(key)
        return found


class Pages:
    def __init__(self, links: WebLinks, store: WebStore, tables: TableStore, bank: Bank, hub: LiveHub) -> None:
        self.links = links
        self.store = store
        self.tables = tables
        self.bank = bank
        self.hub = hub
        self.cache = StepsCache()
        self.closing = asyncio.Event()
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader("bot.web", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        self.templates.globals.update(say=say, site=SITE_NAME)

    def route(self, router: web.UrlDispatcher) -> None:
        routes: list[tuple[str, Route]] = [
            ("/", self.index),
            ("/replay/{token}", self.replay_page),
            ("/api/replay/{token}", self.replay_api),
            ("/api/replay/{token}/steps/{first}", self.steps_api),
            ("/live/{token}", self.live_page),
            ("/api/live/{token}", self.live_api),
            ("/api/live/{token}/stream", self.live_stream),
            ("/server/{token}", self.board_page),
            ("/api/server/{token}", self.board_api),
            ("/server/{token}/player/{player}", self.player_page),
            ("/api/server/{token}/player/{player}", self.player_api),
        ]
        for path, handler in routes:
            router.add_get(path, handler)

    def close(self) -> None:
        """The live streams end (the server stops)."""
        self.closing.set()

    # -- answers ----------------------------------------------------------------------------

    def html(self, template: str, status: int = 200, **facts: Any) -> web.Response:
        """A page in the language being read (its ``<html lang>``, its ``words``)."""
        page = self.templates.get_template(template)
        text = page.render(words=page_words(), lang=READING.get().value, **facts)
        return web.Response(status=status, text=text, content_type="text/html", charset="utf-8")

    def refusal(self, status: int) -> web.Response:
        """The page of a 404 or a 429."""
        key = "not_found" if status == 404 else "too_many"
        return self.html("refusal.html", status, title=say(f"{key}_title"), message=say(key))

    @staticmethod
    def data(payload: Any) -> web.Response:
        response = web.json_response(payload, dumps=lambda value: json.dumps(value, separators=(",", ":")))
        response.enable_compression()  # when the client accepts it: a game's steps shrink tenfold
        return response

    # -- finding things by their tokens ---------------------------------------------------

    def _table_id(self, request: web.Request) -> int:
        table_id = self.links.read("table", request.match_info["token"])
        if table_id is None:
            raise web.HTTPNotFound()
        return table_id

    async def _finished(self, request: web.Request) -> tuple[FinishedGame, ReplaySteps]:
        game = await self.store.finished_game(self._table_id(request))
        if game is None:
            raise web.HTTPNotFound()
        try:
            return game, await self.cache.steps(game)
        except (ReplayError, ValueError) as exc:  # a file that no longer plays (an older engine's)
            log.warning("table %d: its replay does not play (%s): no page", game.table_id, exc)
            raise web.HTTPNotFound() from None

    async def _server(self, request: web.Request) -> int:
        guild_id = self.links.read("server", request.match_info["token"])
        if guild_id is None or not await self.store.pages_on(guild_id):
            raise web.HTTPNotFound()
        return guild_id

    # -- the pages ----------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        return self.html("index.html", title=SITE_NAME)

    async def replay_page(self, request: web.Request) -> web.StreamResponse:
        game, steps = await self._finished(request)
        token = request.match_info["token"]
        step = request.query.get("step", "")
        start = int(step) if step.isdigit() else 0
        summary = steps.summary()
        with reading(game.locale):
            name = game_name(game.preset)
            return self.html(
                "replay.html",
                title=say("replay_title", game=name),
                heading=say("replay_heading", game=name),
                players=summary["players"],
                standings=summary["standings"],
                api=f"/api/replay/{token}",
                start=min(start, max(0, len(steps.tables) - 1)),
                script_words=script_words(),
                chunk=STEPS_CHUNK,
            )

    async def replay_api(self, request: web.Request) -> web.StreamResponse:
        game, steps = await self._finished(request)
        with reading(game.locale):
            return self.data({**steps.summary(), "game": game_name(game.preset)})

    async def steps_api(self, request: web.Request) -> web.StreamResponse:
        """A chunk of :data:`STEPS_CHUNK` steps from ``first`` (a multiple of it): each step's lines and
        table. In chunks, so stepping through a long game takes few requests of the address's budget."""
        _, steps = await self._finished(request)
        first = request.match_info["first"]
        if not first.isdigit() or int(first) % STEPS_CHUNK or int(first) >= len(steps.tables):
            raise web.HTTPNotFound()
        start = int(first)
        numbers = range(start, min(start + STEPS_CHUNK, len(steps.tables)))
        return self.data(
            {"first": start, "steps": [{"lines": steps.lines[n], "table": steps.tables[n]} for n in numbers]}
        )

    async def _live_or_finished(self, table_id: int) -> dict[str, Any]:
        """A table's live snapshot, or for a game already over the note that leads to its replay."""
        snapshot = self.hub.current(table_id)
        if snapshot is not None:
            return snapshot
        game = await self.store.finished_game(table_id)
        if game is None:
            raise web.HTTPNotFound()
        return {
            "locale": game.locale.value,
            "table": None,
            "lines": [],
            "over": True,
            "cancelled": False,
            "replay": self.links.replay_url(table_id),
        }

    async def live_page(self, request: web.Request) -> web.StreamResponse:
        table_id = self._table_id(request)
        snapshot = await self._live_or_finished(table_id)
        token = request.match_info["token"]
        name = (snapshot.get("table") or {}).get("preset_name") or SITE_NAME  # in the table's language
        with reading(snapshot.get("locale")):
            return self.html(
                "live.html",
                title=say("live_title", game=name),
                heading=say("live_heading", game=name),
                api=f"/api/live/{token}",
                script_words=script_words(),
            )

    async def live_api(self, request: web.Request) -> web.StreamResponse:
        return self.data(await self._live_or_finished(self._table_id(request)))

    async def live_stream(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the table's snapshot now, then each new one, until the game is over."""
        table_id = self._table_id(request)
        queue = self.hub.watch(table_id)
        if queue is None:
            raise web.HTTPNotFound()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        await secure(response).prepare(request)
        closing = asyncio.ensure_future(self.closing.wait())
        try:
            while not self.closing.is_set():
                getting = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getting, closing}, timeout=KEEP_ALIVE, return_when="FIRST_COMPLETED")
                if getting not in done:
                    getting.cancel()
                    await response.write(b": still here\n\n")
                    continue
                snapshot = getting.result()
                await response.write(f"data: {json.dumps(snapshot, separators=(',', ':'))}\n\n".encode())
                if snapshot.get("over"):
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            closing.cancel()
            self.hub.leave(table_id, queue)
        return response

    async def _board(self, guild_id: int, by: str) -> dict[str, Any]:
        names = await self.store.names(guild_id)
        rows = await self.bank.leaderboard(guild_id, by, 0, BOARD_ROWS)
        return {
            "by": by,
            "rows": [
                {
                    "rank": rank,
                    "name": names.get(row["user_id"], say("unnamed_player")),
                    "value": row["value"],
                    "link": self.links.player_url(guild_id, row["user_id"]),
                }
                for rank, row in enumerate(rows, 1)
            ],
        }

    async def board_page(self, request: web.Request) -> web.StreamResponse:
        guild_id = await self._server(request)
        by = request.query.get("by", "balance")
        with reading(await self.store.server_locale(guild_id)):
            board = await self._board(guild_id, by if by in BOARDS else "balance")
            return self.html(
                "board.html", title=say("board_title"), heading=say("board_heading"), board=board, boards=BOARDS
            )

    async def board_api(self, request: web.Request) -> web.StreamResponse:
        guild_id = await self._server(request)
        with reading(await self.store.server_locale(guild_id)):
            return self.data({by: (await self._board(guild_id, by))["rows"] for by in BOARDS})

    async def _player(self, request: web.Request) -> tuple[Locale, dict[str, Any]]:
        """A player's record and its server's language."""
        guild_id = await self._server(request)
        user_id = self.links.read("player", request.match_info["player"], guild_id)
        stats = None if user_id is None else await self.tables.stats(guild_id, user_id)
        if user_id is None or stats is None:
            raise web.HTTPNotFound()
        locale = await self.store.server_locale(guild_id)
        with reading(locale):
            return locale, await self._record(guild_id, user_id, stats)

    async def _record(self, guild_id: int, user_id: int, stats: dict[str, Any]) -> dict[str, Any]:
        best = stats.get("best_hand")
        name = (await self.store.names(guild_id)).get(user_id, say("unnamed_player"))
        games = await self.tables.player_games(guild_id, user_id, PLAYER_GAMES)
        return {
            "name": name,
            "games": int(stats["games"]),
            "wins": int(stats["wins"]),
            "rounds": int(stats["rounds"]),
            "pots_won": int(stats["pots_won"]),
            "net": int(stats["net"]),
            "best_hand": card_names(READING.get().value).hand(str(best)) if best else best,
            "recent": [
                {
                    "game": game_name(str(game["preset"])),
                    "final": game["final"],
                    "net": game["net"],
                    "winner": game["winner"],
                    "replay": self.links.replay_url(int(game["id"])),
                }
                for game in reversed(games)
            ],
        }

    async def player_page(self, request: web.Request) -> web.StreamResponse:
        locale, player = await self._player(request)
        with reading(locale):
            return self.html(
                "player.html",
                title=say("player_title"),
                heading=say("player_heading", name=player["name"]),
                player=player,
            )

    async def player_api(self, request: web.Request) -> web.StreamResponse:
        return self.data((await self._player(request))[1])
