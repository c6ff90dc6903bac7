"""The fake Discord server: REST under /api/v10 and a websocket gateway at /gateway/.

Binds 127.0.0.1 on a free port only. The real, unmodified discord.py client talks to it.
"""

from __future__ import annotations

import asyncio
import collections
import fnmatch
import hashlib
import json
import logging
import mimetypes
import secrets
import socket
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import state as S
from . import validation as V
from .state import Attachment, Channel, FakeState, InteractionRecord, Message, RestCall, User, Violation
from .validation import (
    ApiError,
    FormError,
    problems_of,
    validate_commands,
    validate_message,
    validate_modal,
)

log = logging.getLogger("fakediscord")

API_PREFIX = "/api/v10"
# A request with this header set to "true" is a deliberately bad body (dh.raw_request): its
# violations are recorded as expected.
EXPECT_VIOLATION_HEADER = "X-Fakediscord-Expect-Violation"
ARRIVED = web.RequestKey("arrived", float)
CALL = web.RequestKey("call", RestCall)
HEARTBEAT_INTERVAL_MS = 41250
# Discord's rate limits as the fake enforces them (``realistic_rate_limits``). The global limit is
# per bot token, across every connection and process using it, for every route but the
# interaction endpoints (the callback, and the interaction webhook: follow-ups, ``@original`` and
# follow-up edits and deletes), which Discord does not bind to it. Per-route limits are buckets per
# route and major parameter (channel, guild, webhook + token), with the values Discord's headers
# show in practice (it publishes none): "pattern" -> (requests, window in seconds).
GLOBAL_LIMIT = (50, 1.0)
ROUTE_LIMITS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
    "POST /webhooks/{webhook_id}/{webhook_token}": (5, 2.0),
    "*": (50, 1.0),
}
INTERACTION_ACK_WINDOW = 3.0  # seconds: Discord's rule
INTERACTION_TOKEN_TTL = 15 * 60.0  # seconds

# Gateway intents
I_GUILDS = 1 << 0
I_GUILD_MEMBERS = 1 << 1
I_GUILD_MESSAGES = 1 << 9
I_DIRECT_MESSAGES = 1 << 12
I_MESSAGE_CONTENT = 1 << 15


def form_error(problems: list[tuple[str, str]]) -> FormError:
    """400 Invalid Form Body (50035), errors nested by path like Discord's."""
    return FormError(problems_of(problems))


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def json_response(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim (no charset suffix).
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    return web.Response(status=status, body=dumps(data).encode(), headers=h)


# ---------------------------------------------------------------------------
# Fault injection
# ---------------------------------------------------------------------------


@dataclass
class _Fault:
    kind: str  # "429", "delay", "status", "applied" (the request is carried out, then answered with status)
    pattern: str
    remaining: int | None  # None: forever
    retry_after: float = 0.0
    is_global: bool = False
    scope: str = "user"
    seconds: float = 0.0
    status: int = 500
    code: int = 0
    message: str = ""
    hits: int = 0

    def matches(self, method: str, route: str, path: str) -> bool:
        pat = self.pattern
        if pat in ("*", ""):
            return True
        if " " not in pat:
            pat = "* " + pat
        return fnmatch.fnmatchcase(f"{method} {route}", pat) or fnmatch.fnmatchcase(f"{method} {path}", pat)

    def take(self) -> bool:
        if self.remaining is None:
            self.hits += 1
            return True
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        self.hits += 1
        return True


@dataclass
class ViolationExpectation:
    """A test says it expects the bot to cause violations matching a route pattern (fnmatch, like
    faults) and optionally an error code inside the tree (e.g. "BASE_TYPE_MAX_LENGTH")."""

    pattern: str = "*"
    error_code: str | None = None
    hits: int = 0

    def matches(self, v: Violation) -> bool:
        pat = self.pattern if " " in self.pattern or self.pattern in ("*", "") else "* " + self.pattern
        if not (
            pat in ("*", "")
            or fnmatch.fnmatchcase(v.route, pat)
            or fnmatch.fnmatchcase(f"{v.route.split()[0]} {v.path}", pat)
        ):
            return False
        return self.error_code is None or self.error_code in _tree_codes(v.errors) or str(v.code) == self.error_code


def _tree_codes(tree: Any) -> set[str]:
    if not isinstance(tree, dict):
        return set()
    out = {e.get("code") for e in tree.get("_errors", []) if isinstance(e, dict)}
    for k, sub in tree.items():
        if k != "_errors":
            out |= _tree_codes(sub)
    return out


class Faults:
    """Fault injection for REST calls and the gateway.

    Route patterns are matched (fnmatch) against "METHOD /template" and "METHOD /actual/path",
    templates as discord.py writes them, e.g. "POST /channels/{channel_id}/messages";
    a pattern without a method matches any method; "*" matches everything.
    """

    def __init__(self, server: FakeDiscordServer) -> None:
        self._server = server
        self._faults: list[_Fault] = []

    def rate_limit(
        self,
        route: str = "*",
        *,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        scope: str | None = None,
    ) -> _Fault:
        """Answer the next `count` matching calls with 429 (retry_after seconds, optionally global)."""
        f = _Fault(
            "429",
            route,
            count,
            retry_after=retry_after,
            is_global=is_global,
            scope=scope or ("global" if is_global else "user"),
        )
        self._faults.append(f)
        return f

    def delay(self, route: str = "*", seconds: float = 0.5, *, count: int | None = None) -> _Fault:
        """Delay matching responses by `seconds` (for `count` calls, or forever)."""
        f = _Fault("delay", route, count, seconds=seconds)
        self._faults.append(f)
        return f

    def fail(
        self, route: str, status: int = 500, *, count: int = 1, code: int = 0, message: str = "injected failure"
    ) -> _Fault:
        """Answer the next `count` matching calls with `status` and a Discord JSON error."""
        f = _Fault("status", route, count, status=status, code=code, message=message)
        self._faults.append(f)
        return f

    def fail_after_applying(
        self, route: str, status: int = 502, *, count: int = 1, code: int = 0, message: str = "Bad Gateway"
    ) -> _Fault:
        """Carry out the next `count` matching calls, then answer them with `status` all the same (a
        proxy between Discord and the bot failing on the way back: the bot can't tell it was done)."""
        f = _Fault("applied", route, count, status=status, code=code, message=message)
        self._faults.append(f)
        return f

    def gateway_outage(self, seconds: float) -> None:
        """For `seconds` from now, a new gateway connection is held before its HELLO (Discord
        unreachable); the caller drops the current one (DiscordHarness.gateway_outage)."""
        self._server.gateway_down_until = time.perf_counter() + seconds

    def close_dms(self, user: Any) -> None:
        """DMs to this user answer 403 with code 50007, like a user who blocks server DMs."""
        self._server.state.user(user).dms_open = False

    def open_dms(self, user: Any) -> None:
        self._server.state.user(user).dms_open = True

    # -- the world changing under the bot (no gateway event: as if the bot missed it) ----------
    def remove_channel(self, channel: Any) -> list[Channel]:
        """Delete a channel (and its threads): later requests to it answer 404 / 10003 (no gateway event:
        ``dh.delete_channel`` sends CHANNEL_DELETE)."""
        return self._server.state.remove_channel(channel)

    def delete_message(self, message: Any) -> Message:
        """Delete a message: later requests to it answer 404 / 10008."""
        msg = self._server.state.message(message)
        self._server.state.delete_message(msg)
        return msg

    def revoke_permission(self, permission: int, channel: Any = None) -> None:
        """Take permission bits (``state.P_*``) from the bot, in one channel (an overwrite) or in every
        channel of every server (the humans keep theirs). Without View Channel a channel answers 403 / 50001 Missing Access;
        without the permission an action needs, 403 / 50013 Missing Permissions."""
        if channel is not None:
            self._server.state.channel(channel).bot_denied |= permission
        else:
            self._server.bot_denied |= permission

    def restore_permission(self, permission: int, channel: Any = None) -> None:
        """Undo ``revoke_permission`` (in that channel, or server-wide)."""
        if channel is not None:
            self._server.state.channel(channel).bot_denied &= ~permission
        else:
            self._server.bot_denied &= ~permission

    async def drop_gateway(self, *, code: int = 4000, abrupt: bool = False) -> None:
        """Drop the bot's gateway connection; discord.py reconnects and RESUMEs."""
        await self._server.drop_gateway(code=code, abrupt=abrupt)

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT (the client closes and resumes)."""
        await self._server.send_op(7, None)

    async def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (the client re-identifies unless resumable)."""
        await self._server.send_op(9, resumable)

    def clear(self) -> None:
        self._faults.clear()

    def _take(self, kind: str, method: str, route: str, path: str) -> _Fault | None:
        for f in self._faults:
            if f.kind == kind and f.matches(method, route, path) and f.take():
                return f
        return None


# ---------------------------------------------------------------------------
# Gateway sessions
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class GatewaySession:
    session_id: str
    intents: int
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)  # replay buffer for RESUME
    conn: GatewayConnection | None = None
    identified_at: float = field(default_factory=time.perf_counter)
    resumes: int = 0
    invalidated: bool = False


class GatewayConnection:
    def __init__(self, ws: web.WebSocketResponse, request: web.Request, compress: str | None) -> None:
        self.ws = ws
        self.request = request
        self.compress = compress
        self._z = zlib.compressobj() if compress == "zlib-stream" else None
        self.session: GatewaySession | None = None
        self.lock = asyncio.Lock()
        self.heartbeats = 0
        self.closed = False

    async def send_raw(self, text: str) -> None:
        async with self.lock:
            if self.closed or self.ws.closed:
                raise ConnectionResetError("gateway connection closed")
            if self._z is not None:
                data = self._z.compress(text.encode()) + self._z.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                # zstd-stream (or no compression) requested: plain text frames, which discord.py accepts.
                await self.ws.send_str(text)

    async def send(self, payload: dict) -> None:
        await self.send_raw(dumps(payload))


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------


class FakeDiscordServer:
    def __init__(
        self,
        state: FakeState,
        *,
        host: str = "127.0.0.1",
        realistic_rate_limits: bool = False,
        ack_window: float = INTERACTION_ACK_WINDOW,
        token_ttl: float = INTERACTION_TOKEN_TTL,
    ) -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the fake Discord only binds loopback addresses")
        self.state = state
        self.host = host
        self.port: int | None = None
        self.faults = Faults(self)
        self.ack_window = ack_window
        self.token_ttl = token_ttl
        # Discord's limits, enforced with realistic_rate_limits (counted either way: limit_counts).
        self.realistic_rate_limits = realistic_rate_limits
        self.rate_limit_windows: dict[str, tuple[int, float]] = dict(ROUTE_LIMITS)
        self.global_limit: tuple[int, float] = GLOBAL_LIMIT
        self._buckets: dict[str, list[float]] = {}
        self._global_hits: dict[str, collections.deque[float]] = {}  # per bot token (Authorization)
        self.limit_counts: collections.Counter[str] = collections.Counter()
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.gateway_log: list[tuple[float, str, Any]] = []  # (time, "recv"/"send", op or event name)
        self.errors: list[str] = []  # crashes of the fake itself (REST handlers, gateway): should stay empty
        # Discord's contract (validation.py): refused requests, and what Discord still takes but deprecates.
        self.validate_requests = True
        self.violations: list[Violation] = []
        self.deprecations: list[str] = []
        self.violation_expectations: list[ViolationExpectation] = []
        self.validation_stats = {"bodies": 0, "seconds": 0.0}  # the schema checks' cost (docs/discord-limits.md)
        self.bot_denied = 0  # permission bits taken from the bot in every server (faults.revoke_permission)
        self.gateway_down_until = 0.0  # perf_counter until which new gateway connections wait (an outage)
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._tasks: set[asyncio.Task] = set()
        self.app = self._build_app()
        self.identified = asyncio.Event()  # set at each IDENTIFY; see wait_identified
        self.last_session: GatewaySession | None = None

    # -- lifecycle ---------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway/"

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET6 if self.host == "::1" else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        self.port = sock.getsockname()[1]
        self._site = web.SockSite(self._runner, sock)
        await self._site.start()

    async def close(self) -> None:
        for conn in list(self.connections):
            conn.closed = True
            if not conn.ws.closed:
                try:
                    await asyncio.wait_for(conn.ws.close(code=1001), 0.5)
                except Exception:
                    pass
        for t in list(self._tasks):
            t.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _spawn(self, coro) -> asyncio.Task:
        t = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)
        return t

    # -- app ---------------------------------------------------------------------
    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        P = API_PREFIX
        routes = [
            ("GET", "/gateway", self.h_gateway_info),
            ("GET", "/gateway/bot", self.h_gateway_info),
            ("GET", "/users/@me", self.h_me),
            ("POST", "/users/@me/channels", self.h_create_dm),
            ("GET", "/users/{user_id}", self.h_get_user),
            ("GET", "/oauth2/applications/@me", self.h_application),
            ("GET", "/applications/@me", self.h_application),
            ("GET", "/applications/{application_id}/commands", self.h_get_commands),
            ("PUT", "/applications/{application_id}/commands", self.h_put_commands),
            ("POST", "/applications/{application_id}/commands", self.h_post_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.h_get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.h_put_commands),
            ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", self.h_post_command),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self.h_callback),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self.h_followup),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.h_webhook_get),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.h_webhook_edit),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.h_webhook_delete),
            ("GET", "/channels/{channel_id}", self.h_get_channel),
            ("PATCH", "/channels/{channel_id}", self.h_edit_channel),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.h_start_thread),
            ("GET", "/channels/{channel_id}/messages", self.h_get_messages),
            ("POST", "/channels/{channel_id}/messages", self.h_post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.h_get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.h_edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.h_delete_message),
            ("POST", "/channels/{channel_id}/typing", self.h_no_content),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.h_add_reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.h_remove_reaction),
            ("GET", "/guilds/{guild_id}", self.h_get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.h_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.h_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self.h_guild_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.h_guild_member),
        ]
        self._route_names: dict[int, str] = {}
        for method, path, handler in routes:
            route = r.add_route(method, P + path, handler)
            self._route_names[id(route)] = f"{method} {path}"
        r.add_route("GET", "/gateway/", self.h_gateway)
        r.add_route("GET", "/gateway", self.h_gateway)
        r.add_route("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self.h_attachment)
        r.add_route("*", P + "/{tail:.*}", self.h_unknown)
        return app

    # -- middleware: log, faults, auth, rate-limit headers, errors --------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler):
        path = request.path
        if not path.startswith(API_PREFIX):
            return await handler(request)
        arrived = time.perf_counter()
        request[ARRIVED] = arrived
        rpath = path[len(API_PREFIX) :]
        route = self._route_names.get(id(request.match_info.route)) or f"{request.method} {rpath}"
        template = route.split(" ", 1)[1]
        call = RestCall(method=request.method, route=route, path=rpath, at=arrived)
        self.state.rest_log.append(call)
        request[CALL] = call
        bucket = self._bucket_key(template, request)
        call.counted = not self._exempt(template, request)
        self.limit_counts["counted" if call.counted else "exempt"] += 1
        try:
            delay = self.faults._take("delay", request.method, template, rpath)
            if delay:
                call.injected = "delay"
                await asyncio.sleep(delay.seconds)
            f429 = self.faults._take("429", request.method, template, rpath)
            if f429:
                call.injected = "429"
                resp = self._429(f429.retry_after, f429.is_global, f429.scope, bucket)
            else:
                fail = self.faults._take("status", request.method, template, rpath)
                if fail:
                    call.injected = str(fail.status)
                    raise ApiError(fail.status, fail.code, fail.message)
                limited = (
                    self._check_realistic_limits(route, bucket, request, call) if self.realistic_rate_limits else None
                )
                if limited is not None:
                    call.injected = "429-real"
                    resp = limited
                else:
                    if not self._authorized(request, template):
                        raise ApiError(401, 0, "401: Unauthorized")
                    resp = await handler(request)
                    resp.headers.update(self._ratelimit_headers(bucket))
                    applied = self.faults._take("applied", request.method, template, rpath)
                    if applied:
                        call.injected = f"{applied.status} after applying"
                        raise ApiError(applied.status, applied.code, applied.message)
        except ApiError as e:
            if call.injected is None:
                self._record_violation(request, call, e)
            resp = json_response(e.body(), status=e.status, headers=self._ratelimit_headers(bucket))
        except web.HTTPException:
            raise
        except Exception as e:  # a bug in the fake: make it loud
            log.exception("fake discord handler crashed on %s %s", request.method, rpath)
            self.errors.append(f"{request.method} {rpath}: {e!r}")
            resp = json_response({"message": f"fake server error: {e!r}", "code": 0}, status=500)
            call.injected = "crash"
        resp.headers["Via"] = "1.1 google"
        call.status = resp.status
        call.duration = time.perf_counter() - arrived
        self.state.touch()
        return resp

    def _authorized(self, request: web.Request, template: str) -> bool:
        if template.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}", "/gateway")):
            return True
        return request.headers.get("Authorization") == f"Bot {self.state.token}"

    def _exempt(self, template: str, request: web.Request) -> bool:
        """Whether Discord leaves this request out of the global limit: an interaction endpoint
        (the callback, or the application's webhook with a live interaction's token)."""
        if template.startswith("/interactions/"):
            return True
        if not template.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            return False
        mi = request.match_info
        return (
            mi.get("webhook_id") == str(self.state.application_id)
            and mi.get("webhook_token") in self.state.interactions_by_token
        )

    def _bucket_key(self, template: str, request: web.Request) -> str:
        mi = request.match_info
        major = "+".join(str(mi.get(k)) for k in ("channel_id", "guild_id", "webhook_id", "webhook_token") if mi.get(k))
        return f"{request.method} {template}:{major}"

    @staticmethod
    def _bucket_hash(bucket: str) -> str:
        return hashlib.sha1(bucket.split(":", 1)[0].encode()).hexdigest()[:16]

    def _ratelimit_headers(
        self, bucket: str, *, limit: int = 50, remaining: int = 49, reset_after: float = 1.0
    ) -> dict:
        if self.realistic_rate_limits:
            limit, window = self._limit_for(bucket.split(":", 1)[0])
            now = time.monotonic()
            hits = [t for t in self._buckets.get(bucket, []) if t > now - window]
            remaining = max(0, limit - len(hits))
            reset_after = max(0.001, (hits[0] + window - now) if hits else window)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self._bucket_hash(bucket),
        }

    def _429(self, retry_after: float, is_global: bool, scope: str, bucket: str, limit: int = 5) -> web.Response:
        headers = {
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "X-RateLimit-Scope": scope,
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(self._ratelimit_headers(bucket, limit=limit, remaining=0, reset_after=retry_after))
            # A 429 says the bucket is empty until retry_after, also when the counts say otherwise
            # (an injected 429 under realistic limits).
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                }
            )
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        if is_global:
            body["code"] = 0
        return json_response(body, status=429, headers=headers)

    def _limit_for(self, route: str) -> tuple[int, float]:
        for pat, lw in self.rate_limit_windows.items():
            if pat != "*" and fnmatch.fnmatchcase(route, pat):
                return lw
        return self.rate_limit_windows.get("*", (50, 1.0))

    def _check_realistic_limits(
        self, route: str, bucket: str, request: web.Request, call: RestCall
    ) -> web.Response | None:
        """A 429 like Discord's when this request breaks a limit (counted in ``limit_counts``:
        ``global_429`` / ``route_429``), else None (the request is counted in its windows)."""
        if route.startswith("POST /interactions/"):
            return None  # interaction callbacks: neither global nor per-route limited here
        now = time.monotonic()
        hits_global = None
        if call.counted:
            glimit, gwin = self.global_limit
            hits_global = self._global_hits.setdefault(request.headers.get("Authorization", ""), collections.deque())
            while hits_global and hits_global[0] <= now - gwin:
                hits_global.popleft()
            if len(hits_global) >= glimit:
                self.limit_counts["global_429"] += 1
                return self._429(max(0.001, hits_global[0] + gwin - now), True, "global", bucket)
        limit, window = self._limit_for(route)
        hits = [t for t in self._buckets.get(bucket, []) if t > now - window]
        if len(hits) >= limit:
            self._buckets[bucket] = hits
            self.limit_counts["route_429"] += 1
            return self._429(max(0.001, hits[0] + window - now), False, "user", bucket, limit)
        hits.append(now)
        self._buckets[bucket] = hits
        if hits_global is not None:
            hits_global.append(now)
        return None

    # -- helpers -------------------------------------------------------------------
    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[int, str, bytes, str | None]]]:
        """JSON body, or multipart payload_json + files[n] -> (payload, [(index, filename, bytes, content_type)])."""
        files: list[tuple[int, str, bytes, str | None]] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""
                data = await part.read(decode=False)
                if name == "payload_json":
                    payload = json.loads(bytes(data).decode())
                elif name.startswith("files[") or name.startswith("file"):
                    idx = int(name[6:-1]) if name.startswith("files[") else len(files)
                    fname = part.filename or f"file{idx}"
                    pct = part.headers.get("Content-Type")
                    files.append((idx, fname, bytes(data), pct))
            request[CALL].json = payload
            self._check_body(request, payload, files)
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            payload = json.loads(raw)
        except ValueError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
        request[CALL].json = payload
        self._check_body(request, payload, files)
        return payload, files

    def _make_attachments(
        self, channel_id: int, payload: dict, files: list, existing: list[Attachment], *, ephemeral: bool
    ) -> list[Attachment] | None:
        """New attachment list from payload['attachments'] + uploaded files; None = unchanged."""
        by_index = {idx: (fname, data, ct) for idx, fname, data, ct in files}
        if "attachments" not in payload and not files:
            return None
        out: list[Attachment] = []
        specs = payload.get("attachments")
        if specs is None:
            specs = [{"id": idx} for idx in sorted(by_index)]
            out = list(existing)
        used = set()
        for spec in specs:
            sid = int(spec["id"])
            if sid in by_index and sid not in used and sid < 10**6:
                used.add(sid)
                fname, data, ct = by_index[sid]
                fname = spec.get("filename") or fname
                if not ct or ct == "application/octet-stream":
                    ct = mimetypes.guess_type(fname)[0] or ct
                aid = self.state.snowflake()
                out.append(
                    Attachment(
                        id=aid,
                        filename=fname,
                        data=data,
                        content_type=ct,
                        description=spec.get("description"),
                        url=f"{self.base_url}/attachments/{channel_id}/{aid}/{fname}",
                        ephemeral=ephemeral,
                    )
                )
            else:
                keep = next((a for a in existing if a.id == sid), None)
                if keep is None:
                    raise form_error([("attachments", f"Unknown attachment id {sid}")])
                out.append(keep)
        return out

    def _apply_message_payload(self, msg: Message, payload: dict, attachments: list[Attachment] | None) -> dict:
        changes: dict[str, Any] = {}
        if "content" in payload:
            changes["content"] = payload["content"] or ""
        if "embeds" in payload:
            changes["embeds"] = payload["embeds"] or []
        elif "embed" in payload:
            changes["embeds"] = [payload["embed"]] if payload["embed"] else []
        if "components" in payload:
            changes["components"] = payload["components"] or []
        if attachments is not None:
            changes["attachments"] = attachments
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (S.FLAG_EPHEMERAL | S.FLAG_LOADING)
            changes["flags"] = (int(payload["flags"]) & ~(S.FLAG_EPHEMERAL | S.FLAG_LOADING)) | keep
        return changes

    def _new_message(
        self,
        channel: Channel,
        payload: dict,
        files: list,
        *,
        author: User,
        interaction: InteractionRecord | None = None,
        ephemeral_for: User | None = None,
        loading: bool = False,
        base: tuple[str, ...] = (),
    ) -> Message:
        payload = payload or {}
        if channel.id not in self.state.channels:  # deleted since (an interaction's channel included)
            raise ApiError(404, 10003, "Unknown Channel")
        if self.validate_requests:
            validate_message(payload, files, creating=not loading, interaction=interaction is not None, base=base)
        flags = int(payload.get("flags") or 0) & ~S.FLAG_EPHEMERAL
        if ephemeral_for is not None:
            flags |= S.FLAG_EPHEMERAL
        if loading:
            flags |= S.FLAG_LOADING
        mid = self.state.snowflake()
        msg = Message(
            id=mid,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            flags=flags,
            visible_to=ephemeral_for.id if ephemeral_for else None,
            interaction=interaction,
            tts=bool(payload.get("tts")),
        )
        if interaction is not None:
            msg.application_id = self.state.application_id
            msg.webhook_id = self.state.application_id
            msg.type = 20 if interaction.type == 2 else 0
        if payload.get("message_reference"):
            ref = dict(payload["message_reference"])
            ref.setdefault("channel_id", str(channel.id))
            msg.message_reference = ref
            msg.type = 19
        atts = self._make_attachments(channel.id, payload, files, [], ephemeral=ephemeral_for is not None) or []
        self._check_attachment_refs(payload, atts, base)
        for k, v in self._apply_message_payload(msg, payload, atts).items():
            if k != "flags":
                setattr(msg, k, v)
        self.state.add_message(msg)
        if ephemeral_for is None and not loading:
            self._dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    async def _edit(
        self, msg: Message, payload: dict, files: list, *, via: str, by: int | None = None, base: tuple[str, ...] = ()
    ) -> Message:
        payload = payload or {}
        if self.validate_requests:
            validate_message(payload, files, creating=False, interaction=by is not None, base=base)
        atts = self._make_attachments(msg.channel_id, payload, files, msg.attachments, ephemeral=msg.ephemeral)
        self._check_attachment_refs(payload, msg.attachments if atts is None else atts, base)
        changes = self._apply_message_payload(msg, payload, atts)
        if msg.loading:
            changes["flags"] = changes.get("flags", msg.flags) & ~S.FLAG_LOADING
        self.state.edit_message(msg, changes, via=via, by=by)
        if not msg.ephemeral:
            self._dispatch_message_event("MESSAGE_UPDATE", msg)
        return msg

    def _dispatch_message_event(self, event: str, msg: Message) -> None:
        sess = self.current_session()
        if sess is None:
            return
        ch = self.state.channels.get(msg.channel_id)
        need = I_DIRECT_MESSAGES if (ch and ch.is_dm) else I_GUILD_MESSAGES
        if not sess.intents & need:
            return
        if event == "MESSAGE_DELETE":
            d: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                d["guild_id"] = str(msg.guild_id)
        else:
            d = msg.payload()
            if msg.author.id != self.state.bot.id and not (sess.intents & I_MESSAGE_CONTENT) and not (ch and ch.is_dm):
                d.update(content="", embeds=[], attachments=[], components=[])
            if msg.guild_id:
                member = self.state.guilds[msg.guild_id].members.get(msg.author.id)
                if member is not None:
                    d["member"] = member.payload(with_user=False)
        self._spawn(self.dispatch(event, d))

    def _channel(self, request: web.Request) -> Channel:
        ch = self.state.channels.get(int(request.match_info["channel_id"]))
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        self._check_bot_access(ch)
        return ch

    def _message_in(self, ch: Channel, request: web.Request) -> Message:
        msg = self.state.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.channel_id != ch.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _interaction_for_webhook(self, request: web.Request) -> InteractionRecord:
        if int(request.match_info["webhook_id"]) != self.state.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = self.state.interactions_by_token.get(request.match_info["webhook_token"])
        if rec is None:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if time.perf_counter() > rec.expires_at:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if rec.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, request: web.Request) -> Message:
        mid = request.match_info["message_id"]
        if mid == "@original":
            msg = rec.original_message
        else:
            msg = self.state.messages.get(int(mid)) if mid.isdigit() else None
            if msg is not None and msg is not rec.original_message and msg not in rec.followups:
                msg = None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    # -- Discord's contract: body validation, violations, permissions ------------------------
    def _check_body(self, request: web.Request, payload: Any, files: list) -> None:
        """Refuse, like Discord, a body its route's spec schema refuses, or files over the limits."""
        if not self.validate_requests:
            return
        if files and V.file_size_error(files):
            raise ApiError(413, 40005, "Request entity too large")
        if len(files) > V.MAX_FILES:
            raise FormError([(["files"], "BASE_TYPE_MAX_LENGTH", f"Must be {V.MAX_FILES} or fewer in length.")])
        started = time.perf_counter()
        problems = V.schema_problems(request[CALL].route, payload)
        self.validation_stats["bodies"] += 1
        self.validation_stats["seconds"] += time.perf_counter() - started
        if problems:
            raise FormError(problems)

    def _check_attachment_refs(self, payload: dict, atts: list[Attachment], base: tuple[str, ...]) -> None:
        if self.validate_requests:
            problems = V.attachment_ref_problems(payload, (a.filename for a in atts), base)
            if problems:
                raise FormError(problems)

    def _check_command_room(self, cmd: Any, old: list[dict]) -> None:
        """A new command (POST) past the scope's limit: 400 / 30032, as Discord answers it."""
        ctype = int(cmd.get("type") or 1) if isinstance(cmd, dict) else 1
        same = [o for o in old if int(o.get("type", 1)) == ctype]
        is_new = not any(o["name"] == cmd.get("name") for o in same)
        limit = V.MAX_COMMANDS_A_SCOPE if ctype == 1 else V.MAX_CONTEXT_COMMANDS_A_SCOPE
        if self.validate_requests and is_new and len(same) >= limit:
            raise ApiError(400, 30032, f"Maximum number of application commands reached ({limit})")

    # The refusals that say the bot sent what Discord would not take (not injected faults, and not
    # the world's state such as an unknown channel or a late answer).
    VIOLATION_CODES = frozenset({50035, 50006, 50109, 40005, 40060, 30032})

    def _record_violation(self, request: web.Request, call: RestCall, e: ApiError) -> None:
        if e.code not in self.VIOLATION_CODES:
            return
        v = Violation(
            route=call.route,
            path=call.path,
            status=e.status,
            code=e.code,
            message=e.message,
            errors=e.errors,
            body=call.json,
            expected=request.headers.get(EXPECT_VIOLATION_HEADER, "").lower() == "true",
        )
        for x in self.violation_expectations:
            if x.matches(v):
                x.hits += 1
                v.expected = True
                break
        if not v.expected:
            log.warning("the bot sent what Discord refuses: %s", v.describe())
        self.violations.append(v)

    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if not v.expected]

    def bot_permissions(self, ch: Channel) -> int:
        """The bot's permissions in a channel: its roles', less the channel's (and a thread's
        parent's) overwrite. A DM allows what a DM allows."""
        if ch.guild_id is None or ch.guild_id not in self.state.guilds:
            return S.EVERYONE_PERMISSIONS
        perms = self.state.guilds[ch.guild_id].member_permissions(self.state.bot.id) & ~self.bot_denied
        if perms & S.P_ADMINISTRATOR:
            return perms
        denied = ch.bot_denied
        parent = self.state.channels.get(ch.parent_id) if ch.parent_id else None
        if parent is not None and ch.type == S.CH_PUBLIC_THREAD:
            denied |= parent.bot_denied
        return perms & ~denied

    def require(self, ch: Channel, *needed: int) -> None:
        """403 like Discord: 50001 Missing Access without View Channel, 50013 without ``needed``."""
        perms = self.bot_permissions(ch)
        if not perms & S.P_VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        for p in needed:
            if not perms & p:
                raise ApiError(403, 50013, "Missing Permissions")

    # -- REST handlers -----------------------------------------------------------------
    async def h_unknown(self, request: web.Request) -> web.Response:
        raise ApiError(404, 0, "404: Not Found")

    async def h_no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def h_gateway_info(self, request: web.Request) -> web.Response:
        d: dict[str, Any] = {"url": f"ws://{self.host}:{self.port}/gateway"}
        if request.path.endswith("/bot"):
            d.update(
                shards=1, session_start_limit={"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
            )
        return json_response(d)

    async def h_me(self, request: web.Request) -> web.Response:
        d = self.state.bot.payload()
        d.update(verified=True, mfa_enabled=False, flags=0, bot=True, locale="en-US")
        return json_response(d)

    async def h_get_user(self, request: web.Request) -> web.Response:
        u = self.state.users.get(int(request.match_info["user_id"]))
        if u is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(u.payload())

    async def h_application(self, request: web.Request) -> web.Response:
        owner = self.state.owner
        return json_response(
            {
                "id": str(self.state.application_id),
                "name": self.state.bot.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": owner.payload(),
                "team": None,
                "bot": self.state.bot.payload(),
                "rpc_origins": [],
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.state.guilds),
            }
        )

    async def h_create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._read_body(request)
        rid = (payload or {}).get("recipient_id")
        user = self.state.users.get(int(rid)) if rid is not None and str(rid).isdigit() else None
        if user is None or user.id == self.state.bot.id:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        ch = self.state.dm_channel(user)
        return json_response(ch.payload())

    # commands
    def _commands_list(self, request: web.Request) -> tuple[int | None, list[dict]]:
        if int(request.match_info["application_id"]) != self.state.application_id:
            raise ApiError(403, 20012, "You are not authorized to perform this action on this application")
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None, self.state.global_commands
        g = self.state.guilds.get(int(gid))
        if g is None:
            raise ApiError(403, 50001, "Missing Access")
        return g.id, self.state.guild_commands.setdefault(g.id, [])

    async def h_get_commands(self, request: web.Request) -> web.Response:
        _, cmds = self._commands_list(request)
        return json_response(cmds)

    def _register(self, gid: int | None, cmd: dict, old: list[dict]) -> dict:
        c = dict(cmd)
        ctype = int(c.get("type", 1))
        prev = next((o for o in old if o["name"] == c.get("name") and int(o.get("type", 1)) == ctype), None)
        c["id"] = prev["id"] if prev else str(self.state.snowflake())
        c["application_id"] = str(self.state.application_id)
        c["version"] = str(self.state.snowflake())
        c["type"] = ctype
        c.setdefault("description", "")
        c.setdefault("options", [])
        c.setdefault("default_member_permissions", None)
        c.setdefault("nsfw", False)
        if gid is not None:
            c["guild_id"] = str(gid)
        return c

    async def h_put_commands(self, request: web.Request) -> web.Response:
        gid, old = self._commands_list(request)
        payload, _ = await self._read_body(request)
        if not isinstance(payload, list):
            raise form_error([("_", "Expected a list of commands")])
        validate_commands(payload)
        new = [self._register(gid, c, old) for c in payload]
        if gid is None:
            self.state.global_commands = new
        else:
            self.state.guild_commands[gid] = new
        return json_response(new)

    async def h_post_command(self, request: web.Request) -> web.Response:
        gid, old = self._commands_list(request)
        payload, _ = await self._read_body(request)
        validate_commands([payload])
        self._check_command_room(payload, old)
        c = self._register(gid, payload, old)
        old[:] = [o for o in old if o["id"] != c["id"]] + [c]
        return json_response(c, status=201)

    # interactions
    async def h_callback(self, request: web.Request) -> web.Response:
        arrived = request[ARRIVED]
        rec = self.state.interactions.get(int(request.match_info["interaction_id"]))
        if rec is None or rec.token != request.match_info["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        if rec.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if rec.dispatched_at is not None and arrived - rec.dispatched_at > self.ack_window:
            rec.late = True
            rec.acked_at = arrived
            self.state.touch()
            raise ApiError(404, 10062, "Unknown interaction")
        if not isinstance(payload, dict) or "type" not in payload:
            raise form_error([("type", "This field is required")])
        rtype = int(payload["type"])
        if self.validate_requests:
            V.validate_callback_type(rec.type, rtype, from_component=rec.source_message is not None)
        data = payload.get("data") or {}
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & S.FLAG_EPHEMERAL)
        msg: Message | None = None
        interaction: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": rtype}

        if rtype == 4:
            msg = self._new_message(
                rec.channel,
                data,
                files,
                author=self.state.bot,
                interaction=rec,
                ephemeral_for=rec.user if ephemeral else None,
                base=("data",),
            )
            rec.original_message = msg
        elif rtype == 5:
            if rec.type == 4:
                raise form_error([("type", "Invalid response type for autocomplete")])
            msg = self._new_message(
                rec.channel,
                {"flags": flags},
                [],
                author=self.state.bot,
                interaction=rec,
                ephemeral_for=rec.user if ephemeral else None,
                loading=True,
            )
            rec.original_message = msg
            interaction["response_message_loading"] = True
        elif rtype in (6, 7):
            if rec.source_message is None:
                raise ApiError(400, 50035, "Interaction response type only valid for component-based interactions")
            rec.original_message = rec.source_message
            if rtype == 7:
                msg = await self._edit(
                    rec.source_message,
                    data,
                    files,
                    via="POST /interactions/{id}/{token}/callback type 7",
                    by=rec.id,
                    base=("data",),
                )
        elif rtype == 8:
            if rec.type != 4:
                raise form_error([("type", "Autocomplete result is only valid for autocomplete interactions")])
            rec.autocomplete_choices = list(data.get("choices") or [])
        elif rtype == 9:
            if rec.type == 5:
                raise ApiError(400, 50035, "A modal cannot answer a modal submit")
            if self.validate_requests:
                validate_modal(data, deprecations=self.deprecations)
            rec.modal = data
        else:
            raise form_error([("type", f"Unsupported interaction response type {rtype}")])

        rec.response_type = rtype
        rec.response_data = data
        rec.acked_at = arrived
        rec.acked.set()
        if msg is not None:
            interaction["response_message_id"] = str(msg.id)
            interaction["response_message_ephemeral"] = msg.ephemeral
            resource["message"] = msg.payload()
        self.state.touch()
        return json_response({"interaction": interaction, "resource": resource})

    async def h_followup(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        payload, files = await self._read_body(request)
        payload = payload or {}
        orig = rec.original_message
        if rec.response_type == 5 and orig is not None and orig.loading and not orig.deleted:
            # Like Discord: the first followup after a "thinking" defer fills the loading message.
            msg = await self._edit(
                orig, payload, files, via="POST /webhooks/{webhook_id}/{webhook_token} (deferred)", by=rec.id
            )
            rec.followups.append(msg)
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & S.FLAG_EPHEMERAL)
            msg = self._new_message(
                rec.channel,
                payload,
                files,
                author=self.state.bot,
                interaction=rec,
                ephemeral_for=rec.user if ephemeral else None,
            )
            rec.followups.append(msg)
        if request.query.get("wait", "false").lower() in ("1", "true"):
            return json_response(msg.payload())
        return web.Response(status=204)

    async def h_webhook_get(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        return json_response(self._webhook_message(rec, request).payload())

    async def h_webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        msg = self._webhook_message(rec, request)
        payload, files = await self._read_body(request)
        await self._edit(
            msg, payload, files, via="PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", by=rec.id
        )
        return json_response(msg.payload())

    async def h_webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        msg = self._webhook_message(rec, request)
        self.state.delete_message(msg)
        if not msg.ephemeral:
            self._dispatch_message_event("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    # channels & messages
    async def h_get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch)
        return json_response(ch.payload())

    async def h_edit_channel(self, request: web.Request) -> web.Response:
        """Only threads can be edited here: archived, locked, name."""
        ch = self._channel(request)
        self.require(ch)
        if ch.type != S.CH_PUBLIC_THREAD:
            raise ApiError(403, 50013, "Missing Permissions")
        payload, _ = await self._read_body(request)
        payload = payload or {}
        for key in ("archived", "locked"):
            if key in payload:
                setattr(ch, key, bool(payload[key]))
        if "name" in payload:
            ch.name = str(payload["name"])[:100]
        self.state.touch()
        return json_response(ch.payload())

    async def h_start_thread(self, request: web.Request) -> web.Response:
        """A public thread started from a message (the thread's id is the message's, as on Discord)."""
        ch = self._channel(request)
        self.require(ch, S.P_CREATE_PUBLIC_THREADS)
        msg = self._message_in(ch, request)
        if ch.type != S.CH_GUILD_TEXT:
            raise ApiError(403, 50013, "Missing Permissions")
        if msg.id in self.state.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        payload, _ = await self._read_body(request)
        payload = payload or {}
        thread = self.state.add_thread(ch, str(payload.get("name") or "thread")[:100], self.state.bot, thread_id=msg.id)
        self.state.touch()
        return json_response(thread.payload(), status=201)

    async def h_get_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch, S.P_READ_MESSAGE_HISTORY)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in ch.messages if not m.deleted and not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        if "around" in q:
            a = int(q["around"])
            older = [m for m in msgs if m.id <= a][-(limit // 2 + 1) :]
            newer = [m for m in msgs if m.id > a][: limit - len(older)]
            msgs = older + newer
        msgs = msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    async def h_get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch, S.P_READ_MESSAGE_HISTORY)
        return json_response(self._message_in(ch, request).payload())

    async def h_post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        payload, files = await self._read_body(request)
        if ch.type == S.CH_PUBLIC_THREAD and ch.archived:
            if ch.locked:
                raise ApiError(400, 50083, "Thread is archived")
            ch.archived = False  # a message in an archived thread unarchives it
        if ch.is_dm and ch.recipient is not None and not ch.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        send = S.P_SEND_MESSAGES_IN_THREADS if ch.type == S.CH_PUBLIC_THREAD else S.P_SEND_MESSAGES
        self.require(ch, send, *([S.P_ATTACH_FILES] if files else []))
        msg = self._new_message(ch, payload or {}, files, author=self.state.bot)
        return json_response(msg.payload())

    async def h_edit_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch)
        msg = self._message_in(ch, request)
        if msg.author.id != self.state.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        await self._edit(msg, payload, files, via="PATCH /channels/{channel_id}/messages/{message_id}")
        return json_response(msg.payload())

    async def h_delete_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch)
        msg = self._message_in(ch, request)
        if msg.author.id != self.state.bot.id and ch.guild_id is not None:
            self.require(ch, S.P_MANAGE_MESSAGES)
        self.state.delete_message(msg)
        self._dispatch_message_event("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    async def h_add_reaction(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.require(ch, S.P_ADD_REACTIONS, S.P_READ_MESSAGE_HISTORY)
        msg = self._message_in(ch, request)
        msg.reactions.setdefault(request.match_info["emoji"], set()).add(self.state.bot.id)
        return web.Response(status=204)

    async def h_remove_reaction(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message_in(ch, request)
        msg.reactions.get(request.match_info["emoji"], set()).discard(self.state.bot.id)
        return web.Response(status=204)

    async def h_attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["attachment_id"])
        up = self.state.uploads.get(aid)
        if up is not None:
            return web.Response(body=up.data, headers={"Content-Type": up.content_type or "application/octet-stream"})
        for m in self.state.messages.values():
            for a in m.attachments:
                if a.id == aid:
                    return web.Response(
                        body=a.data, headers={"Content-Type": a.content_type or "application/octet-stream"}
                    )
        raise web.HTTPNotFound()

    # guilds
    def _guild(self, request: web.Request) -> S.Guild:
        g = self.state.guilds.get(int(request.match_info["guild_id"]))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return g

    async def h_get_guild(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        d = g.payload()
        for k in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "unavailable",
            "stage_instances",
            "guild_scheduled_events",
            "soundboard_sounds",
        ):
            d.pop(k, None)
        if request.query.get("with_counts", "false").lower() in ("1", "true"):
            d.update(approximate_member_count=len(g.members), approximate_presence_count=0)
        return json_response(d)

    async def h_guild_channels(self, request: web.Request) -> web.Response:
        return json_response([c.payload() for c in self._guild(request).channels])

    async def h_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.payload() for r in self._guild(request).roles])

    async def h_guild_members(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        ms = sorted((m for m in g.members.values() if m.user.id > after), key=lambda m: m.user.id)[:limit]
        return json_response([m.payload() for m in ms])

    async def h_guild_member(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(m.payload())

    # -- the world changing under the bot: Discord-side changes and their gateway events ----------
    def _check_bot_access(self, ch: Channel) -> None:
        """403 / 50001 Missing Access for a channel of a server the bot was removed from, or one
        where it lost View Channel (``bot_denied``; a thread inherits it from its parent)."""
        if ch.guild_id is None:
            return
        guild = self.state.guilds.get(ch.guild_id)
        parent = self.state.channels.get(ch.parent_id) if ch.parent_id else None
        if (
            guild is None
            or self.state.bot.id not in guild.members
            or ch.bot_denied & S.P_VIEW_CHANNEL
            or (ch.type == S.CH_PUBLIC_THREAD and parent is not None and parent.bot_denied & S.P_VIEW_CHANNEL)
        ):
            raise ApiError(403, 50001, "Missing Access")

    async def delete_channel(self, channel: Any) -> None:
        """A channel deleted (its threads with it): CHANNEL_DELETE, as Discord sends (discord.py
        removes the channel's threads itself)."""
        ch = self.state.channel(channel)
        payload = ch.payload()
        self.state.remove_channel(ch)
        await self.dispatch("CHANNEL_DELETE" if ch.type != S.CH_PUBLIC_THREAD else "THREAD_DELETE", payload)

    async def update_thread(self, thread: Any, *, archived: bool, locked: bool) -> None:
        """A thread archived and/or locked by a moderator: THREAD_UPDATE."""
        ch = self.state.channel(thread)
        ch.archived, ch.locked = archived, locked
        self.state.touch()
        await self.dispatch("THREAD_UPDATE", ch.payload())

    async def delete_thread(self, thread: Any) -> None:
        """A thread deleted: THREAD_DELETE (its id, server, parent and type only, as Discord sends)."""
        ch = self.state.channel(thread)
        self.state.remove_channel(ch)
        data = {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type}
        await self.dispatch("THREAD_DELETE", data)

    async def remove_bot_from_guild(self, guild: Any) -> None:
        """The bot kicked from a server: its channels answer 403 / 50001, then GUILD_DELETE (no ``unavailable``)."""
        g = self.state.guild(guild)
        self.state.remove_member(g, self.state.bot)
        self.state.touch()
        await self.dispatch("GUILD_DELETE", {"id": str(g.id)})

    async def guild_outage(self, guild: Any) -> None:
        """A Discord outage of a server: GUILD_DELETE with ``unavailable: true`` (the bot is still in it)."""
        g = self.state.guild(guild)
        await self.dispatch("GUILD_DELETE", {"id": str(g.id), "unavailable": True})

    async def guild_back(self, guild: Any) -> None:
        """The outage is over: GUILD_CREATE again."""
        g = self.state.guild(guild)
        sess = self.current_session()
        if sess is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        await self._dispatch_to(sess, "GUILD_CREATE", self.guild_create_payload(g, sess))

    async def moderator_deletes(self, message: Message) -> None:
        """Someone else (a moderator) deletes a message: MESSAGE_DELETE (for the intents that get it)."""
        self.state.delete_message(message)
        self._dispatch_message_event("MESSAGE_DELETE", message)

    async def reset_token(self) -> None:
        """The token reset in the developer portal: REST answers 401 from now on, and the gateway
        closes with 4004 (authentication failed: discord.py must not reconnect)."""
        self.state.token = "reset-" + secrets.token_hex(8)
        await self.drop_gateway(code=4004)

    # -- gateway ----------------------------------------------------------------------
    def current_session(self) -> GatewaySession | None:
        return self.last_session if self.last_session and not self.last_session.invalidated else None

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session of the shard that owns the server, as Discord routes: shard
        (guild_id >> 22) % shard_count (the newest session, if none owns it: an event with no server)."""
        if guild_id is None:
            return self.current_session()
        owners = [
            s for s in self.sessions.values() if not s.invalidated and (guild_id >> 22) % s.shard[1] == s.shard[0]
        ]
        return max(owners, key=lambda s: s.identified_at) if owners else None

    async def h_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding")
            return ws
        conn = GatewayConnection(ws, request, request.query.get("compress"))
        self.connections.append(conn)
        try:
            outage = self.gateway_down_until - time.perf_counter()
            if outage > 0:
                await asyncio.sleep(outage)  # Discord unreachable: no HELLO until the outage is over
            await conn.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fakediscord"]},
                    "s": None,
                    "t": None,
                }
            )
            async for wsmsg in ws:
                if wsmsg.type == WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(wsmsg.data))
                elif wsmsg.type == WSMsgType.BINARY:
                    await self._on_gateway_message(conn, json.loads(bytes(wsmsg.data).decode()))
                elif wsmsg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        except Exception:  # a bug in the fake: make it loud
            log.exception("fake discord gateway handler crashed")
            self.errors.append(f"gateway: {sys.exc_info()[1]!r}")
        finally:
            conn.closed = True
            if conn in self.connections:
                self.connections.remove(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self.state.touch()
        return ws

    async def _on_gateway_message(self, conn: GatewayConnection, msg: dict) -> None:
        op = msg.get("op")
        d = msg.get("d")
        self.gateway_log.append((time.perf_counter(), "recv", op))
        if op == 1:  # heartbeat
            conn.heartbeats += 1
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # identify
            if not isinstance(d, dict) or d.get("token") != self.state.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = tuple(d.get("shard") or (0, 1))
            sess = GatewaySession(session_id=secrets.token_hex(16), intents=int(d.get("intents", 0)), shard=shard)  # type: ignore[arg-type]
            # A new IDENTIFY replaces the session of its shard (a restarted bot), not the other
            # shards' (the other processes of a cluster).
            for other in self.sessions.values():
                if other.shard == shard:
                    other.invalidated = True
            self.sessions[sess.session_id] = sess
            self.last_session = sess
            sess.conn = conn
            conn.session = sess
            guilds = [g for g in self.state.guilds.values() if (g.id >> 22) % shard[1] == shard[0]]
            me = self.state.bot.payload()
            me.update(verified=True, mfa_enabled=False, flags=0, bot=True)
            await self._dispatch_to(
                sess,
                "READY",
                {
                    "v": 10,
                    "user": me,
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                    "session_id": sess.session_id,
                    "session_type": "normal",
                    "resume_gateway_url": self.gateway_url,
                    "shard": list(shard),
                    "application": {"id": str(self.state.application_id), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                    "presences": [],
                    "user_settings": {},
                    "guild_join_requests": [],
                    "geo_ordered_rtc_regions": [],
                    "auth": {},
                    "_trace": ["fakediscord"],
                },
            )
            for g in guilds:
                await self._dispatch_to(sess, "GUILD_CREATE", self.guild_create_payload(g, sess))
            self.identified.set()
            self.state.touch()
        elif op == 6:  # resume
            sess = self.sessions.get((d or {}).get("session_id"))
            if sess is None or sess.invalidated or (d or {}).get("token") != self.state.token:
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            if sess.conn is not None and sess.conn is not conn:
                old = sess.conn
                old.closed = True
                self._spawn(old.ws.close(code=4000))
            conn.session = sess
            sent = int((d or {}).get("seq") or 0)
            # Replay what the client missed; events dispatched meanwhile are buffered and caught up
            # here, and the connection is attached (no await in between) once nothing is pending.
            while True:
                pending = [(s, text) for s, text in sess.events if s > sent]
                if not pending:
                    break
                for s, text in pending:
                    await conn.send_raw(text)
                    sent = s
            sess.conn = conn
            sess.resumes += 1
            await self._dispatch_to(sess, "RESUMED", {"_trace": ["fakediscord"]})
            self.state.touch()
        elif op == 8:  # request guild members
            sess = conn.session
            gids = d.get("guild_id") if isinstance(d, dict) else None
            if sess is None or gids is None:
                return
            for gid in gids if isinstance(gids, list) else [gids]:
                g = self.state.guilds.get(int(gid))
                if g is None:
                    continue
                members = list(g.members.values())
                if d.get("user_ids"):
                    want = {int(u) for u in (d["user_ids"] if isinstance(d["user_ids"], list) else [d["user_ids"]])}
                    members = [m for m in members if m.user.id in want]
                chunk: dict[str, Any] = {
                    "guild_id": str(g.id),
                    "members": [m.payload() for m in members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                }
                if d.get("nonce"):
                    chunk["nonce"] = d["nonce"]
                await self._dispatch_to(sess, "GUILD_MEMBERS_CHUNK", chunk)
        # op 3 presence, op 4 voice state: accepted and ignored

    def guild_create_payload(self, g: S.Guild, sess: GatewaySession) -> dict:
        if sess.intents & I_GUILD_MEMBERS:
            return g.payload(include_members=True)
        return g.payload(include_members=False, only_member_ids={self.state.bot.id})

    async def _dispatch_to(
        self, sess: GatewaySession, event: str, data: Any, on_send: Callable[[], Any] | None = None
    ) -> None:
        sess.seq += 1
        text = dumps({"op": 0, "s": sess.seq, "t": event, "d": data})
        sess.events.append((sess.seq, text))
        if len(sess.events) > 5000:
            del sess.events[:1000]
        self.gateway_log.append((time.perf_counter(), "send", event))
        if on_send is not None:
            on_send()  # e.g. the interaction's dispatch time: right before the websocket send
        conn = sess.conn
        if conn is not None and not conn.closed:
            try:
                await conn.send_raw(text)
            except (ConnectionResetError, RuntimeError):
                pass  # kept in the buffer: delivered on RESUME

    async def dispatch(self, event: str, data: Any, *, on_send: Callable[[], Any] | None = None) -> GatewaySession:
        """Send a DISPATCH event to the bot, to the shard of its server (buffered for RESUME if
        the connection is down)."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        sess = self.session_for(int(guild_id) if guild_id else None)
        if sess is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        await self._dispatch_to(sess, event, data, on_send)
        return sess

    async def send_op(self, op: int, d: Any) -> None:
        sess = self.current_session()
        if sess is None or sess.conn is None:
            raise RuntimeError("no live gateway connection")
        await sess.conn.send({"op": op, "d": d, "s": None, "t": None})
        if op == 9 and d is False:
            sess.invalidated = True

    async def drop_gateway(self, *, code: int = 4000, abrupt: bool = False) -> None:
        sess = self.current_session()
        conn = sess.conn if sess else None
        if conn is None:
            raise RuntimeError("no live gateway connection to drop")
        conn.closed = True
        sess.conn = None  # type: ignore[union-attr]
        if abrupt:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
        else:
            await conn.ws.close(code=code, message=b"dropped by fakediscord")
        self.state.touch()
