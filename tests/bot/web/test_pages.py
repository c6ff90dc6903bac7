"""bot.web: the pages and their JSON API on a real HTTP server over a test database (SQLite and
PostgreSQL): replays of finished games, the server pages an admin turned on, what is gone (a token
not ours, a pruned game, a server that removed the bot, a forgotten player), hostile names escaped,
the security headers, the request budget, and nothing but GET."""

from __future__ import annotations

import re

import aiohttp
import pytest
from markupsafe import escape

from bot.economy import privacy
from bot.messages.weblinks import BOARD, WebLinks
from bot.web.headers import CONTENT_SECURITY_POLICY
from bot.web.pages import STEPS_CHUNK
from bot.web.server import RequestBudget, client_address
from bot.web.store import WebStore
from tests.bot.web.conftest import PUBLIC
from tests.bot.web.games import HOSTILE, played, save_finished

G = 1  # the server
OTHER = 2
ANN, BOB, CAT = 11, 12, 13


def path(url: str) -> str:
    return url.removeprefix(PUBLIC)


async def get(web, url: str) -> tuple[int, str, aiohttp.ClientResponse]:
    async with web.session.get(path(url), allow_redirects=False) as response:
        return response.status, await response.text(), response


async def test_the_site_key_is_made_once_and_kept(db):
    store = WebStore(db)
    key = await store.site_key()
    assert len(key) == 32 and await store.site_key() == key


def test_tokens_are_signed_and_name_their_kind():
    links = WebLinks(PUBLIC, b"k" * 32)
    token = links.token("table", 42)
    assert links.read("table", token) == 42
    assert len(token.partition("-")[2]) * 6 >= 128  # the MAC's bits
    assert links.read("server", token) is None  # a table's token is no server's
    assert WebLinks(PUBLIC, b"j" * 32).read("table", token) is None  # another site's key
    forged = f"43-{token.partition('-')[2]}"
    assert links.read("table", forged) is None
    for bad in ("", "42", "x-" + "a" * 22, "42-short", "-" * 30):
        assert links.read("table", bad) is None
    assert links.read("player", links.token("player", ANN, G), OTHER) is None  # a player of another server


async def test_the_replay_page_of_a_finished_game_escapes_every_name(web, db):
    table_id = await save_finished(db, played(), G, [ANN, BOB, CAT])
    status, text, response = await get(web, web.pages.links.replay_url(table_id))
    assert status == 200, text
    for name in HOSTILE:
        assert name not in text or name == str(escape(name))  # never as markup
        assert str(escape(name)) in text
    assert "<script>alert" not in text
    assert "49" not in re.sub(r"<[^>]+>", "", text).split("Standings")[0]  # {{ 7*7 }} is no template
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY and "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "<script>" not in text.replace('<script src="/static/table.js" defer></script>', "").replace(
        '<script src="/static/replay.js" defer></script>', ""
    )  # no inline script


async def test_the_replay_api_gives_every_step_and_the_standings(web, db):
    game = played()
    table_id = await save_finished(db, game, G, [ANN, BOB, CAT])
    api = "/api/replay/" + web.pages.links.token("table", table_id)
    async with web.session.get(api) as response:
        summary = await response.json()
    actions = sum(len(r["actions"]) for r in game.to_replay()["rounds"])
    assert summary["steps"] > actions  # each decision, each deal, the start
    assert [r["round"] for r in summary["rounds"]] == [1, 2]
    assert summary["players"] == list(HOSTILE)
    assert [row["stack"] for row in summary["standings"]] == sorted(game.stacks, reverse=True)
    tables = []
    for first in range(0, summary["steps"], STEPS_CHUNK):
        async with web.session.get(f"{api}/steps/{first}") as response:
            chunk = await response.json()
        assert chunk["first"] == first and len(chunk["steps"]) == min(STEPS_CHUNK, summary["steps"] - first)
        tables += [step["table"] for step in chunk["steps"]]
    assert len(tables) == summary["steps"]
    assert tables[-1]["finished"] and tables[-1]["standings"] == summary["standings"]
    for first in (summary["steps"] + STEPS_CHUNK, 1, "x"):  # past the end, not a chunk's first step
        async with web.session.get(f"{api}/steps/{first}") as response:
            assert response.status == 404
    status, text, _ = await get(web, web.pages.links.replay_url(table_id, step=5))
    assert status == 200 and 'data-start="5"' in text


async def test_pages_that_are_gone_are_the_same_404(web, db):
    table_id = await save_finished(db, played(), G, [ANN, BOB, CAT])
    links = web.pages.links
    for url in (
        f"{PUBLIC}/replay/{table_id}-{'A' * 22}",  # not signed by this site
        f"{PUBLIC}/replay/{links.token('server', table_id)}",  # a server's token
        links.replay_url(table_id + 1),  # no such game
        f"{PUBLIC}/nowhere",
    ):
        status, text, response = await get(web, url)
        assert status == 404 and "There is no page here" in text, url
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    await privacy.mark_departed(db, G, 0.0)  # the server removed the bot: its games' pages go at once
    assert (await get(web, links.replay_url(table_id)))[0] == 404
    await privacy.clear_departed(db, G)
    assert (await get(web, links.replay_url(table_id)))[0] == 200
    await privacy.prune(db, 31, now=1e9 + 32 * 86_400)  # RETENTION_DAYS: the game is deleted, its page too
    assert (await get(web, links.replay_url(table_id)))[0] == 404


async def test_nothing_but_reading(web, db):
    table_id = await save_finished(db, played(), G, [ANN, BOB, CAT])
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        async with web.session.request(method, path(web.pages.links.replay_url(table_id))) as response:
            assert response.status == 405, method


async def test_server_pages_only_where_an_admin_turned_them_on(web, db, prefs, bank):
    await save_finished(db, played(), G, [ANN, BOB, CAT])
    for uid, wins in ((ANN, 3), (BOB, 1)):
        await db.execute_alone(
            "INSERT INTO stats (guild_id, user_id, games, wins, rounds, pots_won, net) VALUES (?, ?, 4, ?, 8, 5, 40)",
            (G, uid, wins),
        )
    links = web.pages.links
    assert (await get(web, links.server_url(G)))[0] == 404  # off by default
    await prefs.update_guild(G, web_pages=True)
    status, text, _ = await get(web, links.server_url(G) + "?by=wins")
    assert status == 200
    assert str(escape(HOSTILE[0])) in text and text.index(str(escape(HOSTILE[0]))) < text.index("{{ 7*7 }}")
    status, text, _ = await get(web, links.player_url(G, ANN))
    assert status == 200 and "75%" in text and str(escape(HOSTILE[0])) in text
    assert (await get(web, links.server_url(OTHER)))[0] == 404  # another server: not turned on
    assert (await get(web, links.player_url(G, CAT)))[0] == 404  # no stats: no page
    await bank.forget(G, ANN, lambda: False)  # forget-me: gone from the board and their page
    status, text, _ = await get(web, links.server_url(G) + "?by=wins")
    assert str(escape(HOSTILE[0])) not in text and "{{ 7*7 }}" in text
    assert (await get(web, links.player_url(G, ANN)))[0] == 404
    await privacy.mark_departed(db, G, 0.0)  # the server removed the bot
    assert (await get(web, links.server_url(G)))[0] == 404
    assert (await get(web, links.player_url(G, BOB)))[0] == 404


async def test_each_address_has_a_budget_of_requests(web):
    now = [0.0]
    web.budget = RequestBudget(burst=3, refill=1, clock=lambda: now[0])
    assert [(await get(web, "/"))[0] for _ in range(4)] == [200, 200, 200, 429]
    status, text, response = await get(web, "/")
    assert status == 429 and "Too many requests" in text and response.headers["Retry-After"] == "60"
    now[0] += 2  # two requests earned back
    assert [(await get(web, "/"))[0] for _ in range(3)] == [200, 200, 429]


def test_behind_the_proxy_the_address_is_the_one_it_saw():
    class Request:
        def __init__(self, remote, forwarded=None):
            self.remote = remote
            self.headers = {"X-Forwarded-For": forwarded} if forwarded else {}

    assert client_address(Request("203.0.113.9")) == "203.0.113.9"
    assert client_address(Request("127.0.0.1", "1.2.3.4, 198.51.100.7")) == "198.51.100.7"
    assert client_address(Request("203.0.113.9", "198.51.100.7")) == "203.0.113.9"  # only a local proxy is believed


async def test_the_links_go_with_the_server(db, manager):
    from bot.web.server import open_web

    server = await open_web(manager, db, PUBLIC, "127.0.0.1", 0)
    try:
        assert BOARD.links is not None and BOARD.links.public_url == PUBLIC
    finally:
        await server.stop()
    assert BOARD.links is None


async def test_a_replay_that_no_longer_plays_has_no_page(web, db):
    table_id = await save_finished(db, played(), G, [ANN, BOB, CAT])
    await db.execute_alone("UPDATE tables SET replay_json = ? WHERE id = ?", ('{"players": ["A"]}', table_id))
    assert (await get(web, web.pages.links.replay_url(table_id)))[0] == 404


def test_the_messages_link_to_the_web_only_when_it_is_served():
    from types import SimpleNamespace

    from bot.messages.components import LINK, final_components
    from cogs.tables import web_replay_link

    finished = SimpleNamespace(id=7)
    assert BOARD.links is None
    assert all(spec.url is None for spec in final_components(finished)) and web_replay_link(7) == ""
    links = WebLinks(PUBLIC, b"k" * 32)
    BOARD.configure(links)
    try:
        [web_button] = [spec for spec in final_components(finished) if spec.url is not None]
        assert web_button.style == LINK and web_button.label == "Replay on the web"
        assert web_button.url == links.replay_url(7) and web_button.custom_id == ""
        assert web_replay_link(7) == f" · [Replay on the web]({links.replay_url(7)})" and web_replay_link(None) == ""
    finally:
        BOARD.configure(None)


async def test_check_names_the_web_pages(discord_harness, tmp_path):
    from tests.bot.test_main import run_bot_command

    env = discord_harness.bot_env(
        DATABASE_URL=f"sqlite:///{tmp_path}/t.sqlite3", WEB_ADDRESS="127.0.0.1:8080", PUBLIC_URL=PUBLIC + "/"
    )
    rc, out, err = await run_bot_command(["check"], tmp_path, env)
    assert rc == 0, err
    assert out.splitlines()[1] == f"web: pages on http://127.0.0.1:8080/, linked as {PUBLIC}"
    rc, out, err = await run_bot_command(["check"], tmp_path, {**env, "PUBLIC_URL": ""})
    assert rc == 2 and "PUBLIC_URL" in err and "WEB_ADDRESS serves the web pages" in err


def test_the_web_settings_go_together_and_keep_to_their_own_address(tmp_path):
    from bot.settings import SettingsError, load_settings

    base = {"_env_file": None, "database_url": f"sqlite:///{tmp_path}/t.sqlite3"}
    on = load_settings(**base, web_address="127.0.0.1:8080", public_url=PUBLIC + "/")
    assert on.web_bind() == ("127.0.0.1", 8080) and on.public_url == PUBLIC
    assert load_settings(**base).web_bind() is None  # off by default
    for bad, named in (
        ({"web_address": "127.0.0.1:8080"}, "PUBLIC_URL"),
        ({"public_url": PUBLIC}, "WEB_ADDRESS"),
        ({"web_address": "127.0.0.1:8080", "public_url": "ftp://x.org"}, "PUBLIC_URL"),
        ({"web_address": "nowhere", "public_url": PUBLIC}, "WEB_ADDRESS"),
        ({"web_address": "127.0.0.1:9464", "public_url": PUBLIC, "health_address": "127.0.0.1:9464"}, "WEB_ADDRESS"),
    ):
        with pytest.raises(SettingsError) as refused:
            load_settings(**base, **bad)
        assert len(refused.value.lines) == 1 and refused.value.lines[0].startswith(named), refused.value.lines
