"""The web pages in their language (docs/languages.md): a game's replay and live pages in its table's
(``Table.locale``, kept in the finished table's saved state), a server's pages in the language its
admins chose; every label of the templates and the script, the log lines, the mat and the cards in it;
English unchanged."""

from __future__ import annotations

import html
import json
import random
import re

from bot.i18n import _, reading
from bot.messages.web import PAGE_WORDS, SCRIPT_WORDS, script_words
from bot.tables.model import Seat, Table, TableUpdate, UpdateKind
from bot.web.live import LiveHub
from bot.web.pages import STEPS_CHUNK
from bot.web.steps import replay_steps
from engine import Game
from engine.simulate import choose_action
from tests.bot.web.conftest import PUBLIC
from tests.bot.web.games import played, save_finished

G = 1
ANN, BOB, CAT = 11, 12, 13
NAMES = ("Ann", "Bob", "Cat")
PLACEHOLDER = re.compile(r"\{\w+\}")

#: The templates' labels each page shows (besides its title and heading).
REPLAY_LABELS = ("players", "standings", "rank", "player", "chips", "net", "read_only", "needs_script")
BOARD_LABELS = ("balance", "net", "wins", "rank", "player", "read_only")
PLAYER_LABELS = ("games", "wins", "win_rate", "rounds", "pots_won", "net", "best_hand", "recent_games", "read_only")


async def get(web, url: str) -> tuple[int, str]:
    async with web.session.get(url.removeprefix(PUBLIC)) as response:
        return response.status, await response.text()


async def get_json(web, url: str):
    async with web.session.get(url) as response:
        assert response.status == 200
        return await response.json()


def page_text(text: str) -> str:
    """What a reader sees of a page: its text, its entities read."""
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def script_data(text: str) -> dict:
    found = re.search(r"data-words='([^']*)'", text)
    assert found is not None
    return json.loads(html.unescape(found.group(1)))


def in_language(code: str, english: str) -> str:
    with reading(code):
        return _(english)


def assert_labels_in(code: str, text: str, keys: tuple[str, ...]) -> None:
    shown = page_text(text)
    for key in keys:
        english, translated = PAGE_WORDS[key], in_language(code, PAGE_WORDS[key])
        assert translated in shown, (code, key, translated)
        if translated != english:
            assert not re.search(rf"(?<!\w){re.escape(english)}(?!\w)", shown), (code, key, english)


async def test_a_french_tables_replay_is_french(web, db):
    game = played(NAMES, seed=3)
    table_id = await save_finished(db, game, G, [ANN, BOB, CAT], locale="fr")
    url = web.pages.links.replay_url(table_id)
    status, text = await get(web, url)
    assert status == 200
    assert '<html lang="fr">' in text
    assert "Rediffusion d’une partie de Tripoley" in text and "Classement final" in text
    assert_labels_in("fr", text, REPLAY_LABELS)
    words = script_data(text)
    with reading("fr"):
        assert words == script_words()
    for key, english in SCRIPT_WORDS.items():
        assert PLACEHOLDER.findall(words[key]) == PLACEHOLDER.findall(english), key  # the script fills them
    assert words["first"] == "Première étape" and words["step"] == "Étape {step} sur {steps}"
    assert words["ranks"]["Q"] == "D" and words["ranks"]["K"] == "R" and words["ranks"]["T"] == "10"

    api = "/api/replay/" + web.pages.links.token("table", table_id)
    summary = await get_json(web, api)
    english = replay_steps(json.dumps(game.to_replay()))
    french = replay_steps(json.dumps(game.to_replay()), "fr")
    assert summary["lines"] == french.lines != english.lines
    told_in_english = {line for lines in english.lines for line in lines}
    told = [line for lines in summary["lines"] for line in lines]
    assert told and not told_in_english & set(told)  # no line left in English
    assert any(" mise " in line or " ramasse " in line for line in told), told[:20]
    chunk = await get_json(web, f"{api}/steps/0")
    assert [step["lines"] for step in chunk["steps"]] == french.lines[:STEPS_CHUNK]
    tables = [step["table"] for step in chunk["steps"]]
    labels = {space["label"] for table in tables for space in table["mat"]}
    assert "R-D♥" in labels and "K-Q♥" not in labels  # the mat in French ranks
    assert any(table["phase_title"] for table in tables)
    english_phases = {t["phase"] for t in english.tables}
    assert not {t["phase_title"] for t in tables} & english_phases


async def test_an_english_tables_replay_is_as_it_was(web, db):
    game = played(NAMES, seed=3)
    table_id = await save_finished(db, game, G, [ANN, BOB, CAT], locale="en")
    status, text = await get(web, web.pages.links.replay_url(table_id))
    assert status == 200 and '<html lang="en">' in text
    assert "Replay of a game of Tripoley" in text and "Standings at the end" in text
    words = script_data(text)
    assert {key: words[key] for key in SCRIPT_WORDS} == SCRIPT_WORDS
    summary = await get_json(web, "/api/replay/" + web.pages.links.token("table", table_id))
    assert summary["lines"] == replay_steps(json.dumps(game.to_replay())).lines
    chunk = await get_json(web, f"/api/replay/{web.pages.links.token('table', table_id)}/steps/0")
    assert all(step["table"]["phase_title"] is None for step in chunk["steps"])
    assert "K-Q♥" in {space["label"] for space in chunk["steps"][-1]["table"]["mat"]}


async def test_a_table_with_no_saved_language_takes_its_servers(web, db, prefs):
    table_id = await save_finished(db, played(NAMES, seed=3), G, [ANN, BOB, CAT])
    assert '<html lang="en">' in (await get(web, web.pages.links.replay_url(table_id)))[1]
    await prefs.update_guild(G, language="de")
    status, text = await get(web, web.pages.links.replay_url(table_id))
    assert status == 200 and '<html lang="de">' in text and "Endstand" in text


async def test_a_finished_games_live_page_speaks_its_tables_language(web, db):
    table_id = await save_finished(db, played(NAMES, seed=3), G, [ANN, BOB, CAT], locale="de")
    status, text = await get(web, web.pages.links.watch_url(table_id))
    assert status == 200 and '<html lang="de">' in text
    assert script_data(text)["live_replay"] == "Seine Wiederholung ansehen"


async def test_a_german_servers_pages_are_german(web, db, prefs):
    await save_finished(db, played(NAMES, seed=3), G, [ANN, BOB, CAT], locale="de")
    for uid, wins in ((ANN, 3), (BOB, 1)):
        await db.execute_alone(
            "INSERT INTO stats (guild_id, user_id, games, wins, rounds, pots_won, net, best_hand_rank, best_hand)"
            " VALUES (?, ?, 4, ?, 8, 5, 40, 7, 'four of a kind')",
            (G, uid, wins),
        )
    await prefs.update_guild(G, web_pages=True, language="de")
    links = web.pages.links
    status, text = await get(web, links.server_url(G) + "?by=wins")
    assert status == 200 and '<html lang="de">' in text
    assert "Die Bestenliste dieses Servers" in text and "Leaderboard" not in text
    assert_labels_in("de", text, BOARD_LABELS)
    status, text = await get(web, links.player_url(G, ANN))
    assert status == 200 and '<html lang="de">' in text and "Bilanz von Ann auf diesem Server" in text
    assert_labels_in("de", text, PLAYER_LABELS)
    assert "Vierling" in text and "four of a kind" not in text
    assert "Wiederholung" in page_text(text)
    await prefs.update_guild(G, language="en")
    status, text = await get(web, links.server_url(G))
    assert '<html lang="en">' in text and "The leaderboard of this server" in text
    status, text = await get(web, links.player_url(G, ANN))
    assert "four of a kind" in text and "Ann's record in this server" in html.unescape(text)


def live_table(locale: str) -> Table:
    made = Table(
        id=7,
        guild_id=G,
        channel_id=2,
        host_id=ANN,
        preset="tripoley",
        options={"game_end": "rounds:1"},
        buy_in=200,
        turn_timeout=60,
        ai_pause=1,
        status="playing",
        locale=locale,
    )
    made.seats = [Seat(name=name, user_id=ANN + i, stake=200) for i, name in enumerate(NAMES)]
    made.game = Game.new("tripoley", list(NAMES), options={"game_end": "rounds:1"}, stacks=[200] * 3, seed=3)
    made.game.next_deal()
    return made


def watched_lines(locale: str) -> tuple[dict, dict]:
    """A live table's snapshot at a new watcher's arrival and after a few more decisions."""
    table = live_table(locale)
    hub = LiveHub(lambda table_id: table if table_id == table.id else None, lambda table_id: "replay")
    first = hub.current(table.id)
    assert first is not None and hub.watch(table.id) is not None
    game, rng = table.game, random.Random(2)
    assert game is not None
    for _step in range(6):
        awaited = game.awaiting()
        if awaited is None:
            break
        events = game.apply(choose_action(game, awaited.seat, "heuristic", rng))
        table.version += 1
        hub.on_update(TableUpdate.of(table, UpdateKind.PLAY, events=list(events)))
    later = hub.current(table.id)
    assert later is not None
    return first, later


def test_a_live_table_is_told_in_its_language():
    english = watched_lines("en")
    french = watched_lines("fr")
    for shown_en, shown_fr in zip(english, french, strict=True):
        assert shown_fr["locale"] == "fr" and shown_en["locale"] == "en"
        assert shown_fr["lines"] and not set(shown_fr["lines"]) & set(shown_en["lines"])
        assert "R-D♥" in {space["label"] for space in shown_fr["table"]["mat"]}
        assert "K-Q♥" in {space["label"] for space in shown_en["table"]["mat"]}
        assert shown_fr["table"]["phase_title"] and shown_en["table"]["phase_title"] is None
    assert len(french[1]["lines"]) > len(french[0]["lines"])  # the decisions since, told in French too
