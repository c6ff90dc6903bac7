"""The web pages in a real browser (headless chromium, tests/browser.py): the replay viewer steps
through a game by keys, buttons, the slider and the round menu, a deep link opens at its step, the
pages fit a 400 px phone and a desktop without a console error (screenshots under test-artifacts/),
and nothing the browser receives or shows names a card still hidden at that step."""

from __future__ import annotations

import json

import pytest

from bot.messages.weblinks import WebLinks
from bot.web.pages import STEPS_CHUNK
from tests.bot.web.conftest import PUBLIC
from tests.bot.web.games import HOSTILE, played, save_finished
from tests.bot.web.privacy import hidden_at_each_step, leaks
from tests.browser import screenshot_path

G = 1
USERS = [11, 12, 13]
WIDTHS = {"phone": (400, 800), "desktop": (1280, 900)}


@pytest.fixture
def database_url(settings) -> str:
    """SQLite only: the pages read the same rows from either database (tests/bot/web/test_pages.py)."""
    return settings.database_path()


def local(web, url: str) -> str:
    return web.base + url.removeprefix(PUBLIC)


async def replay_of(web, db, **kw):
    game = played(**kw)
    table_id = await save_finished(db, game, G, USERS)
    links: WebLinks = web.pages.links
    async with web.session.get(f"/api/replay/{links.token('table', table_id)}") as response:
        summary = await response.json()
    return game, local(web, links.replay_url(table_id)), summary


def log_of(page):
    return page.eval_on_selector_all("#log li", "items => items.map(item => item.textContent)")


async def at_step(page, step: int) -> None:
    await page.wait_for_selector(f'#viewer[data-step="{step}"]', state="attached")


async def test_the_viewer_steps_through_a_whole_game(browser, web, db):
    game, url, summary = await replay_of(web, db)
    steps = summary["steps"]
    tab = await browser.tab()

    async def walk(page):
        await page.goto(url)
        await at_step(page, 0)
        assert await page.text_content("#position") == f"Step 1 of {steps}"
        seen = []
        for step in range(1, steps):  # every action, by the arrow key
            await page.keyboard.press("ArrowRight")
            await at_step(page, step)
            seen.append(await log_of(page))
            assert await page.locator("#table .seat").count() == len(HOSTILE)
        await page.keyboard.press("ArrowRight")  # past the end: stays there
        await at_step(page, steps - 1)
        assert "finished" in (await page.text_content("#table .phase"))
        await page.click("#first")
        await at_step(page, 0)
        await page.click("#forward")
        await at_step(page, 1)
        await page.click("#back")
        await at_step(page, 0)
        await page.click("#last")
        await at_step(page, steps - 1)
        await page.keyboard.press("Home")
        await at_step(page, 0)
        second = summary["rounds"][1]
        await page.select_option("#round", str(second["round"]))
        await at_step(page, second["step"])
        await page.locator("#slider").fill("3")
        await at_step(page, 3)
        standings = await page.eval_on_selector_all(
            ".standings tbody tr", "rows => rows.map(row => row.children[1].textContent)"
        )
        return seen, standings

    seen, standings = await tab.do(walk)
    assert seen == [lines or ["Nothing to tell at this step."] for lines in summary["lines"][1:]]
    assert standings == [row["name"] for row in summary["standings"]]
    assert sorted(standings) == sorted(HOSTILE)  # the hostile names, shown as text
    assert tab.errors == []
    await tab.close()


async def test_a_deep_link_opens_at_its_step(browser, web, db):
    _, url, summary = await replay_of(web, db, seed=4)
    tab = await browser.tab()

    async def deep(page):
        await page.goto(url + "?step=7")
        await at_step(page, 7)
        return await page.text_content("#position"), await log_of(page), page.url

    position, lines, opened = await tab.do(deep)
    assert position == f"Step 8 of {summary['steps']}"
    assert lines == (summary["lines"][7] or ["Nothing to tell at this step."])
    assert opened.endswith("?step=7")
    assert tab.errors == []
    await tab.close()


@pytest.mark.parametrize("width", list(WIDTHS))
async def test_the_pages_fit_a_phone_and_a_desktop(browser, web, db, prefs, width):
    _, url, summary = await replay_of(web, db)
    showdown = next(i for i, lines in enumerate(summary["lines"]) if any("from Pot" in line for line in lines))
    await db.execute_alone(
        "INSERT INTO stats (guild_id, user_id, games, wins, rounds, pots_won, net) VALUES (?, ?, 3, 2, 6, 4, 25)",
        (G, USERS[0]),
    )
    await prefs.update_guild(G, web_pages=True)
    links: WebLinks = web.pages.links
    pages = {
        "replay": f"{url}?step={showdown}",
        "board": local(web, links.server_url(G) + "?by=wins"),
        "player": local(web, links.player_url(G, USERS[0])),
    }
    tab = await browser.tab(*WIDTHS[width])

    async def visit(page):
        overflow = {}
        for name, address in pages.items():
            await page.goto(address)
            if name == "replay":
                await page.wait_for_selector("#viewer[data-step] #table .seat")
            overflow[name] = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            await page.screenshot(path=str(screenshot_path(f"{name}-{width}")), full_page=True)
        return overflow

    overflow = await tab.do(visit)
    assert overflow == dict.fromkeys(pages, 0)  # nothing wider than the window
    assert tab.errors == []
    await tab.close()


async def test_no_hidden_card_reaches_the_browser(browser, web, db):
    game, url, summary = await replay_of(web, db, names=("Ann", "Bob", "Cat"), seed=8)
    hidden = hidden_at_each_step(game.to_replay())
    labels = {label for table in [await step_table(web, url, 0)] for label in mat_labels(table)}
    tab = await browser.tab()

    async def everything(page):
        received = []
        page.on("response", lambda response: received.append(response))
        shown = []
        await page.goto(url)
        for step in range(summary["steps"]):
            await at_step(page, step)
            shown.append(await page.inner_text("#viewer"))
            await page.keyboard.press("ArrowRight")
        bodies = {}
        for response in received:
            if "/static/" not in response.url:
                bodies[response.url] = await response.text()
        return shown, bodies

    shown, bodies = await tab.do(everything)
    everything_hidden = set().union(*hidden)
    labels |= set(mat_labels(await step_table(web, url, summary["steps"] - 1)))
    for step, text in enumerate(shown):
        assert leaks(text, hidden[step], labels) == [], (step, text)
    steps_seen = 0
    for address, body in bodies.items():
        if "/steps/" in address:
            chunk = json.loads(body)
            for number, step in enumerate(chunk["steps"], chunk["first"]):
                assert leaks(step, hidden[number], labels) == [], (address, number)
                steps_seen += 1
        elif "/api/replay/" in address:
            data = json.loads(body)
            assert data.pop("lines") == summary["lines"]  # checked step by step
            assert leaks(data, everything_hidden, labels) == []
        else:  # the page itself: the players and the standings
            assert leaks(body, everything_hidden, labels) == [], address
    assert steps_seen == summary["steps"]
    assert tab.errors == []
    await tab.close()


async def step_table(web, url: str, step: int) -> dict:
    token = url.rsplit("/", 1)[1]
    first = step - step % STEPS_CHUNK
    async with web.session.get(f"/api/replay/{token}/steps/{first}") as response:
        return (await response.json())["steps"][step - first]["table"]


def mat_labels(table: dict) -> set[str]:
    return {space["label"] for space in table["mat"]} | {space["id"] for space in table["mat"]}
