"""Proof that the fake Discord (tests/fakediscord) runs the real, unmodified discord.py client:
login, command sync, slash commands, buttons, selects, modals, ephemeral replies, DMs, attachments,
edits, 429 retries, gateway resume, late acks, a subprocess bot, and clean shutdown."""

from __future__ import annotations

import asyncio
import socket
import sys

import aiohttp
import discord
import pytest

from tests.fakediscord import BotDied, DiscordHarness
from tests.fakediscord.demo_bot import make_bot

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def dh(discord_harness):
    return discord_harness


@pytest.fixture
async def demo(dh):
    bot = make_bot(guild_id=dh.guild.id)
    await dh.connect(bot)
    return bot


# -- login, sync, gateway ---------------------------------------------------------------------


async def test_login_sync_and_gateway(dh, demo):
    assert demo.is_ready()
    assert demo.user.id == dh.bot_user.id
    assert demo.application_id == dh.state.application_id
    routes = [c.route for c in dh.state.rest_log]
    assert routes[:3] == [
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        "PUT /applications/{application_id}/guilds/{guild_id}/commands",
    ]
    (cmd,) = dh.commands()
    assert cmd["name"] == "demo"
    kinds = {o["name"]: o["type"] for o in cmd["options"]}
    assert kinds == {"start": 1, "dm": 1, "image": 1, "edits": 1, "slow": 1, "hello": 1, "table": 2}
    # The guild, its channels and the bot's member arrived through GUILD_CREATE.
    guild = demo.get_guild(dh.guild.id)
    assert guild is not None and guild.me is not None
    assert {c.name for c in guild.text_channels} == {"general", "tripoley"}
    assert guild.me.guild_permissions.send_messages and guild.me.guild_permissions.attach_files
    # discord.py asked for zlib-stream, and got compressed frames it could read.
    (conn,) = dh.server.connections
    assert conn.compress == "zlib-stream"
    assert conn.heartbeats >= 1


async def test_bad_token_is_login_failure(dh):
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(BotDied) as err:
        await dh.connect(client, timeout=5, token="wrong")
    assert isinstance(err.value.__cause__, discord.LoginFailure)
    assert dh.state.rest_log[0].status == 401


# -- slash command, buttons, select, modal --------------------------------------------------------


async def test_slash_command_acked_in_time_and_button_round_trip(dh, demo):
    h = await dh.run_command("alice", "general", "demo start", preset="tripoley", rounds=4)
    msg = await h.message()
    assert h.response_type == 4
    assert h.ack_latency is not None and h.ack_latency < 3.0
    assert msg.content == "starting tripoley x4"
    assert msg.author.id == dh.bot_user.id
    assert [b["label"] for b in msg.buttons()] == ["Hit", "Secret", "Ask", "Later"]
    assert ("start", dh.users["alice"].id, "tripoley", 4, None) in demo.seen

    click = await dh.click("bob", msg, label="Hit")
    await click.response()
    assert click.response_type == 7
    # discord.py dispatched it to the view stored under this very message id.
    assert ("hit", dh.users["bob"].id, msg.id) in demo.seen
    assert msg.content == "hits: 1"
    assert len(msg.edits) == 1 and msg.edits[0].before["content"] == "starting tripoley x4"

    await (await dh.click("carol", msg, custom_id="demo:hit")).response()
    assert msg.content == "hits: 2" and len(msg.edits) == 2
    assert msg.edits[0].at <= msg.edits[1].at

    stats = dh.ack_stats()
    assert stats["count"] == 3 and stats["late"] == 0 and stats["p99"] < 3.0


async def test_click_on_unknown_message_is_dropped_like_discord(dh, demo):
    h = await dh.run_command("alice", "general", "demo start", preset="michigan")
    msg = await h.message()
    # A message that carries the same buttons but is not the one the view was sent on.
    other = dh.state.add_message(
        type(msg)(
            id=dh.state.snowflake(),
            channel_id=msg.channel_id,
            guild_id=msg.guild_id,
            author=dh.bot_user,
            content="copy",
            components=msg.components,
        )
    )
    click = await dh.click("bob", other, label="Hit")
    with pytest.raises(asyncio.TimeoutError):
        await click.response(timeout=0.3)
    assert not any(s[0] == "hit" for s in demo.seen)


async def test_select_and_modal(dh, demo):
    msg = await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message()

    sel = await dh.select("bob", msg, "demo:pick", ["a", "Gamma"])  # by value or by label
    reply = await sel.message()
    assert reply.content == "picked a,c" and reply.ephemeral
    assert ("pick", dh.users["bob"].id, ("a", "c")) in demo.seen
    with pytest.raises(ValueError):
        await dh.select("bob", msg, "demo:pick", ["zzz"])

    ask = await dh.click("carol", msg, label="Ask")
    await ask.response()
    assert ask.response_type == 9
    assert ask.modal["custom_id"] == "demo:modal" and ask.modal["title"] == "Your answer"
    with pytest.raises(ValueError):  # required field left empty
        await dh.submit_modal("carol", ask, {"demo:note": "x"})
    sub = await dh.submit_modal("carol", ask, {"demo:answer": "42", "demo:note": "why not"})
    answer = await sub.message()
    assert answer.content == "answer from carol: 42"
    assert ("modal", dh.users["carol"].id, "42", "why not") in demo.seen
    # by custom_id too
    ask2 = await dh.click("dave", msg, label="Ask")
    await ask2.response()
    sub2 = await dh.users["dave"].submit_modal("demo:modal", {"demo:answer": "7"})
    assert (await sub2.message()).content == "answer from dave: 7"


async def test_deferred_update_then_edit_original(dh, demo):
    msg = await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message()
    later = await dh.click("alice", msg, label="Later")
    result = await later.message()
    assert later.response_type == 6
    assert result is msg and msg.content == "updated later"
    assert msg.edits[-1].via.startswith("PATCH /webhooks/")


async def test_ephemeral_replies_only_visible_to_that_user(dh, demo):
    msg = await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message()
    secret = await (await dh.click("alice", msg, label="Secret")).message()
    assert secret.ephemeral and secret.content == "only for alice"
    assert secret in dh.ephemeral_replies("alice")
    assert secret not in dh.ephemeral_replies("bob")
    assert secret not in dh.channel_messages("general")
    assert secret not in dh.channel_messages("general", viewer="bob")
    assert secret in dh.channel_messages("general", viewer="alice")
    assert dh.last_message("general") is msg
    with pytest.raises(PermissionError):
        await dh.click("bob", secret, label="Hit")
    # Not fetchable through the channel's REST history either.
    history = [m async for m in demo.get_channel(msg.channel_id).history(limit=10)]
    assert [m.id for m in history] == [msg.id]


# -- DMs, attachments, edits -------------------------------------------------------------------


async def test_dm_open_and_closed(dh, demo):
    h = await dh.run_command("alice", "general", "demo dm", user=dh.users["bob"])
    assert (await h.message()).content == "sent a DM to bob"
    (dm,) = dh.dms("bob")
    assert dm.content == "hello bob" and dm.author.id == dh.bot_user.id

    dh.faults.close_dms("dave")
    h = await dh.run_command("alice", "general", "demo dm", user="dave")
    reply = await h.message()
    assert reply.content == "cannot DM dave" and reply.ephemeral
    assert ("forbidden", dh.users["dave"].id, 50007) in demo.seen
    assert dh.dms("dave") == []
    (call,) = [c for c in dh.rest_calls("POST /channels/{channel_id}/messages") if c.status == 403]


async def test_png_attachment_after_thinking_defer(dh, demo):
    h = await dh.run_command("bob", "tripoley", "demo image")
    msg = await h.message()
    assert h.response_type == 5
    assert not msg.loading and msg.content == "the mat"
    (att,) = dh.attachments(msg)
    assert att.filename == "mat.png" and att.content_type == "image/png"
    assert att.data.startswith(PNG_SIGNATURE) and att.payload()["width"] == 4
    # The attachment URL serves the bytes (so discord.Attachment.read() works).
    async with aiohttp.ClientSession() as s:
        async with s.get(att.url) as r:
            assert r.status == 200 and await r.read() == att.data
    multipart = [c for c in dh.rest_calls("POST /webhooks/*") if c.json is not None]
    assert multipart and multipart[0].json["attachments"][0]["filename"] == "mat.png"


async def test_message_edit_history(dh, demo):
    h = await dh.run_command("carol", "general", "demo edits", times=3)
    await h.response()
    msg = await dh.wait_for(lambda: next((m for m in dh.channel_messages("general") if m.content == "version 3"), None))
    assert [e.after["content"] for e in msg.edits] == ["version 1", "version 2", "version 3"]
    assert [e.before["content"] for e in msg.edits] == ["version 0", "version 1", "version 2"]
    assert all(a.monotonic <= b.monotonic for a, b in zip(msg.edits, msg.edits[1:]))
    assert msg.edited_at is not None


# -- faults ------------------------------------------------------------------------------------


async def test_429_is_retried_by_discord_py(dh, demo):
    dh.faults.rate_limit("POST /channels/{channel_id}/messages", count=1, retry_after=0.05)
    dh.faults.rate_limit("PATCH /channels/*", count=1, retry_after=0.05, is_global=True)
    h = await dh.run_command("carol", "general", "demo edits", times=1)
    await h.response()
    msg = await dh.wait_for(lambda: next((m for m in dh.channel_messages("general") if m.content == "version 1"), None))
    posts = [c.status for c in dh.rest_calls("POST /channels/{channel_id}/messages")]
    patches = [c.status for c in dh.rest_calls("PATCH /channels/{channel_id}/messages/{message_id}")]
    assert posts == [429, 200] and patches == [429, 200]
    assert len(msg.edits) == 1


async def test_slow_route_and_server_error(dh, demo):
    dh.faults.delay("POST /channels/{channel_id}/messages", 0.2, count=1)
    h = await dh.run_command("carol", "general", "demo edits", times=1)
    await h.response()
    await dh.wait_for(lambda: any(m.content == "version 1" for m in dh.channel_messages("general")))
    (post,) = dh.rest_calls("POST /channels/{channel_id}/messages")
    assert post.duration >= 0.2 and post.injected == "delay"


async def test_gateway_drop_resumes_and_interactions_still_work(dh, demo):
    sess = dh.server.current_session()
    await dh.drop_gateway()  # close code 4000: discord.py reconnects to resume_gateway_url with RESUME
    assert sess.resumes == 1 and dh.server.current_session() is sess
    msg = await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message()
    await (await dh.click("bob", msg, label="Hit")).response()
    assert msg.content == "hits: 1"

    # Abrupt drop, and an interaction sent while the connection is down: replayed on RESUME.
    await dh.drop_gateway(abrupt=True, wait_resume=False)
    h = await dh.run_command("carol", "general", "demo table show", number=5, verbose=True)
    assert (await h.message(timeout=10)).content == "table 5 verbose=True"
    assert sess.resumes == 2
    assert [op for _, d, op in dh.server.gateway_log if d == "recv" and op == 2] == [2]  # never re-identified


async def test_reconnect_and_invalid_session(dh, demo):
    sess = dh.server.current_session()
    await dh.faults.send_reconnect()  # op 7: the client closes and RESUMEs
    await dh.wait_for(lambda: sess.resumes == 1 and sess.conn is not None)
    await dh.faults.invalidate_session()  # op 9 false: the client IDENTIFYs again
    new = await dh.wait_for(lambda: (s := dh.server.current_session()) is not sess and s is not None and s.conn and s)
    assert new.resumes == 0
    h = await dh.run_command("bob", "general", "demo table show", number=1)
    assert (await h.message()).content == "table 1 verbose=False"


async def test_late_ack_is_refused(dh):
    dh.server.ack_window = 0.2  # Discord's 3 s rule, shrunk for speed
    bot = make_bot(guild_id=dh.guild.id)
    await dh.connect(bot)
    h = await dh.run_command("alice", "general", "demo slow", seconds=0.4)
    with pytest.raises(AssertionError, match="acknowledged after"):
        await h.response()
    await dh.wait_for(lambda: ("late", 10062) in bot.seen)
    assert dh.ack_stats()["late"] == 1


# -- command building --------------------------------------------------------------------------


async def test_options_groups_and_resolved(dh, demo):
    h = await dh.run_command("alice", "general", "demo start", preset="michigan", rounds=2, opponent="bob")
    await h.response()
    assert ("start", dh.users["alice"].id, "michigan", 2, dh.users["bob"].id) in demo.seen
    assert (
        await (await dh.run_command("alice", "general", "demo table where", channel="tripoley")).message()
    ).content == "table in tripoley"
    with pytest.raises(TypeError, match="no option"):
        await dh.run_command("alice", "general", "demo start", preset="tripoley", nope=1)
    with pytest.raises(TypeError, match="required"):
        await dh.run_command("alice", "general", "demo start")
    with pytest.raises(ValueError):
        await dh.run_command("alice", "general", "demo start", preset="poker")
    with pytest.raises(ValueError):
        await dh.run_command("alice", "general", "demo start", preset="tripoley", rounds=11)
    with pytest.raises(LookupError):
        await dh.run_command("alice", "general", "demo table")
    with pytest.raises(LookupError):
        await dh.run_command("alice", "general", "nothing")


async def test_autocomplete(dh, demo):
    choices = await dh.autocomplete("alice", "general", "demo table show", focused="label", number=1, label="s")
    assert choices == [{"name": "South", "value": "south"}]
    h = await dh.run_command("alice", "general", "demo table show", number=2, label="west")
    assert (await h.message()).content == "table 2 verbose=False label=west"


async def test_global_command_in_dm_and_mentions(dh):
    bot = make_bot()  # no guild: global sync
    await dh.connect(bot)
    assert dh.rest_calls("PUT /applications/{application_id}/commands")[0].status == 200
    alice = dh.users["alice"]
    reply = await (await dh.run_command(alice, dh.state.dm_channel(alice.user), "demo hello")).message()
    assert reply.content == f"hello <@{alice.id}> in DM"
    assert reply.payload()["mentions"][0]["id"] == str(alice.id)
    assert reply in dh.dms(alice)
    in_guild = await (await alice.run_command("tripoley", "demo hello")).message()
    assert in_guild.content.endswith("in tripoley")


async def test_expired_token_refuses_webhook_calls(dh, demo):
    h = await dh.run_command("alice", "general", "demo start", preset="tripoley")
    await h.message()
    dh.expire_token(h)
    url = f"{dh.api_base}/webhooks/{dh.state.application_id}/{h.token}/messages/@original"
    async with aiohttp.ClientSession() as s:
        async with s.patch(url, json={"content": "too late"}) as r:
            assert r.status == 401 and (await r.json())["code"] == 50027


async def test_realistic_rate_limits_slow_the_bot_down_without_losing_messages():
    async with DiscordHarness(realistic_rate_limits=True) as dh:
        dh.server.rate_limit_windows["POST /channels/{channel_id}/messages"] = (2, 0.3)
        bot = make_bot(guild_id=dh.guild.id)
        await dh.connect(bot)
        channel = bot.get_channel(dh.channel("general").id)
        t0 = asyncio.get_running_loop().time()
        await asyncio.gather(*(channel.send(f"m{i}") for i in range(5)))
        elapsed = asyncio.get_running_loop().time() - t0
        assert sorted(m.content for m in dh.channel_messages("general")) == [f"m{i}" for i in range(5)]
        assert elapsed >= 0.5  # 5 messages at 2 per 0.3 s: two full waits
        calls = dh.rest_calls("POST /channels/{channel_id}/messages")
        assert [c.status for c in calls].count(200) == 5


async def test_the_global_limit_is_per_token_and_interaction_endpoints_are_exempt(dh, demo):
    """Counted routes share one window per bot token (across connections); the interaction
    webhook is exempt. A request over the limit is a global 429 with Discord's headers, counted."""
    h = await dh.run_command("alice", "general", "demo start", preset="tripoley")
    await h.message()
    dh.server.global_limit = (3, 60.0)  # small and long: no timing involved
    dh.server.rate_limit_windows["PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"] = (5, 60.0)
    dh.server._global_hits.clear()  # the bot's start-up requests: a window of our own
    counted0, exempt0 = dh.server.limit_counts["counted"], dh.server.limit_counts["exempt"]
    ch = dh.channel("general")
    auth = {"Authorization": "Bot fake"}
    original = f"{dh.api_base}/webhooks/{dh.state.application_id}/{h.token}/messages/@original"
    async with aiohttp.ClientSession() as s, aiohttp.ClientSession() as other:
        for i in range(3):  # two connections, one token: one window
            session = s if i % 2 else other
            async with session.post(
                f"{dh.api_base}/channels/{ch.id}/messages", json={"content": "x"}, headers=auth
            ) as r:
                assert r.status == 200
        for _ in range(6):  # the interaction webhook is not bound to the global limit
            async with s.patch(original, json={"content": "edited"}) as r:
                assert r.status == 200 or r.headers.get("X-RateLimit-Global") is None
        async with s.get(f"{dh.api_base}/users/@me", headers=auth) as r:
            assert r.status == 429 and r.headers["X-RateLimit-Global"] == "true"
            body = await r.json()
            assert body["global"] is True and body["retry_after"] > 0
    counts = dh.server.limit_counts
    assert counts["counted"] - counted0 == 4 and counts["exempt"] - exempt0 == 6
    assert counts["global_429"] == 1
    assert counts["route_429"] == 1  # the 6th @original edit: the interaction webhook's own bucket
    counts["global_429"] = 0  # made on purpose here: the fixture's check is for the bot


async def test_a_route_limit_answers_429_with_its_bucket_headers(dh):
    dh.server.rate_limit_windows["POST /channels/{channel_id}/messages"] = (2, 60.0)
    ch, other = dh.channel("general"), dh.channel("tripoley")
    auth = {"Authorization": "Bot fake"}
    async with aiohttp.ClientSession() as s:
        statuses = []
        for channel in (ch, ch, other, ch):  # a bucket per channel
            async with s.post(
                f"{dh.api_base}/channels/{channel.id}/messages", json={"content": "x"}, headers=auth
            ) as r:
                statuses.append(r.status)
                if r.status == 429:
                    assert "X-RateLimit-Global" not in r.headers
                    assert r.headers["X-RateLimit-Limit"] == "2" and r.headers["X-RateLimit-Remaining"] == "0"
                    assert float(r.headers["X-RateLimit-Reset-After"]) > 0
    assert statuses == [200, 200, 200, 429]
    assert dh.server.limit_counts["route_429"] == 1 and dh.server.limit_counts["global_429"] == 0


# -- raw REST behaviour ----------------------------------------------------------------------


async def test_raw_rest_contract(dh):
    ch = dh.channel("general")
    dh.expect_violation("POST /channels/{channel_id}/messages")  # the bad bodies below are on purpose
    auth = {"Authorization": "Bot fake"}
    async with aiohttp.ClientSession() as s:
        async with s.get(f"{dh.api_base}/users/@me", headers=auth) as r:
            assert r.status == 200 and r.headers["Content-Type"] == "application/json"
            assert "X-RateLimit-Remaining" in r.headers and "X-RateLimit-Bucket" in r.headers
        async with s.get(f"{dh.api_base}/users/@me") as r:
            assert r.status == 401
        async with s.post(f"{dh.api_base}/channels/{ch.id}/messages", json={"content": "x" * 2001}, headers=auth) as r:
            body = await r.json()
            assert r.status == 400 and body["code"] == 50035 and "content" in body["errors"]
        async with s.post(f"{dh.api_base}/channels/{ch.id}/messages", json={}, headers=auth) as r:
            assert r.status == 400 and (await r.json())["code"] == 50006
        async with s.get(f"{dh.api_base}/no/such/route", headers=auth) as r:
            assert r.status == 404
    assert dh.rest_calls("GET /no/such/route")[0].status == 404


# -- subprocess bot, death hook, cleanup ----------------------------------------------------


async def test_subprocess_bot_and_death_hook(dh):
    died = []
    dh.on_bot_death(died.append)
    proc = await dh.spawn([sys.executable, "-m", "tests.fakediscord.demo_bot"], commands=["demo"], timeout=30)
    assert proc.env["DISCORD_API_BASE"] == dh.api_base and proc.env["DISCORD_GATEWAY_URL"] == dh.gateway_url
    assert dh.state.global_commands and dh.state.global_commands[0]["name"] == "demo"  # global PUT
    msg = await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message(timeout=10)
    await (await dh.click("bob", msg, label="Hit")).response()
    assert msg.content == "hits: 1"

    proc.proc.kill()  # the bot crashes
    await proc.wait_died(10)
    assert died == [proc] and dh.bot_died.is_set() and proc.crashed
    with pytest.raises(BotDied):
        await dh.wait_for(lambda: False, 1)


async def test_close_leaks_no_tasks_or_ports():
    before = asyncio.all_tasks()
    dh = DiscordHarness()
    await dh.start()
    port = dh.port
    bot = make_bot(guild_id=dh.guild.id)
    await dh.connect(bot)
    await (await dh.run_command("alice", "general", "demo start", preset="tripoley")).message()
    await dh.close()
    assert bot.is_closed()
    await asyncio.sleep(0)
    leaked = [t for t in asyncio.all_tasks() - before if not t.done()]
    assert leaked == []
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0
    import discord.http

    assert discord.http.Route.BASE == "https://discord.com/api/v10"  # patch undone
