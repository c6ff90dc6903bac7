"""End to end, the web pages of a game played through the local Discord (``WEB_ADDRESS`` and
``PUBLIC_URL`` set): the table message's Watch link opens the live page in a real browser (a phone's
width and a desktop's), which
follows every change within 2 s with the hands hidden; when the game ends it says so and links to the
replay, the final message's Replay on the web link is the same, and the replay steps through every
action. No snapshot the live page is sent ever names a card still hidden at that moment."""

from __future__ import annotations

import socket

from bot.discordio.client import TripoleyBot
from tests.bot.web.privacy import hidden_cards, leaks
from tests.browser import screenshot_path
from tests.e2e.test_big_tables import play_from_hands, settings
from tests.e2e.test_bot import button, finished, table_message
from tests.fakediscord.harness import PATIENCE

CHANNEL = "general"
FOLLOWS_WITHIN = 2.0 * PATIENCE / 4  # seconds: the 2 s on a quiet machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_game_is_watched_live_and_replayed_on_the_web(discord_harness, tmp_path, browser):
    dh = discord_harness
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    bot = TripoleyBot(
        settings(tmp_path, dh).model_copy(update={"web_address": f"127.0.0.1:{port}", "public_url": site}),
        guild_ready_timeout=0.01,
    )
    await dh.connect(bot)
    lobby = await (await dh.run_command("alice", CHANNEL, "tripoley start", preset="tripoley", rounds=3)).message()
    await (await dh.click("bob", lobby, label="Join")).response()
    await (await dh.click("alice", lobby, label="Add AI")).response()
    bot.manager.rng.seed(5)  # the same deal every run (the game's seed is drawn at Start)
    await (await dh.click("alice", lobby, label="Start")).response()
    tm = await dh.wait_for(lambda: table_message(dh, CHANNEL), 10, what="the table message")
    table = bot.manager.registry.by_channel[dh.channel(CHANNEL).id]
    watch = button(tm, "Watch")
    assert watch is not None and watch["style"] == 5 and watch["url"] == bot.web_server.pages.links.watch_url(table.id)

    # Each snapshot, as the hub builds it, against the cards hidden at that very moment.
    hub = bot.web_server.pages.hub
    labels = {space["label"] for space in table.game.view(None)["mat"]} | {
        s["id"] for s in table.game.view(None)["mat"]
    }
    checked, leaked = [], []

    def check(update) -> None:
        watched = hub.watched.get(update.table.id)
        if watched is not None and update.table.game is not None:
            checked.append(watched.snapshot["version"])
            found = leaks(watched.snapshot, hidden_cards(update.table.game), labels)
            if found:
                leaked.append((watched.snapshot["version"], found))

    bot.manager.registry.add_listener(check)  # after the hub's own
    tab = await browser.tab(400, 800)

    async def opened(page):
        await page.goto(watch["url"])
        await page.wait_for_selector("#live[data-version] #table .seat")
        return await page.locator("#table .seat").count()

    assert await tab.do(opened) == 3
    desktop = await browser.tab(1280, 900)
    assert await desktop.do(opened) == 3
    followed = 0
    while not finished(dh, CHANNEL):
        await play_from_hands(dh, CHANNEL, moves=1)
        watched = hub.watched.get(table.id)
        if watched is None or watched.snapshot["over"]:
            break  # the game ended: its stream too
        version = watched.snapshot["version"]  # the newest change the table told

        async def caught_up(page, version=version):
            await page.wait_for_function(
                "version => Number(document.getElementById('live').dataset.version) >= version",
                arg=version,
                timeout=FOLLOWS_WITHIN * 1000,
            )
            return await page.inner_text("#live")

        shown = await tab.do(caught_up)
        if table.version == version and table.game is not None:  # the page shows the table as it is now
            assert leaks(shown, hidden_cards(table.game), labels) == [], shown
        followed += 1
        if followed == 3:
            await tab.do(lambda page: page.screenshot(path=str(screenshot_path("live-phone")), full_page=True))
            await desktop.do(lambda page: page.screenshot(path=str(screenshot_path("live-desktop")), full_page=True))
    assert followed >= 3 and checked and leaked == []

    final = await dh.wait_for(
        lambda: next((m for m in reversed(dh.channel_messages(CHANNEL)) if "🏁" in m.content), None), 10, what="the end"
    )
    replay = button(final, "Replay on the web")
    assert replay is not None and replay["url"] == bot.web_server.pages.links.replay_url(table.id)

    async def ended(page):
        await page.wait_for_selector("#over:not([hidden]) a.replay-link", timeout=FOLLOWS_WITHIN * 1000)
        link = await page.get_attribute("#over a.replay-link", "href")
        await page.click("#over a.replay-link")
        await page.wait_for_selector("#viewer[data-step]")
        steps = int((await page.get_attribute("#slider", "max")) or 0) + 1
        for step in range(1, steps):  # every action of the game played on Discord
            await page.keyboard.press("ArrowRight")
            await page.wait_for_selector(f'#viewer[data-step="{step}"]', state="attached")
        return link, steps, await page.inner_text("#table .phase")

    async def told_the_end(page):
        await page.wait_for_selector("#over:not([hidden]) a.replay-link", timeout=FOLLOWS_WITHIN * 1000)
        return await page.get_attribute("#over a.replay-link", "href")

    assert await desktop.do(told_the_end) == replay["url"]
    assert desktop.errors == []
    await desktop.close()
    link, steps, phase = await tab.do(ended)
    assert link == replay["url"]
    assert steps > followed and "finished" in phase
    assert tab.errors == []
    await tab.close()
