"""End to end, the tables the other games never reach: 7 seats (two decks) and 20 (four), in every
Rulebook preset (poker's five, Wanagan's pass and reveal, Michigan's leads, Great Lakes' combinations),
through the local Discord. The humans play from "Show my hand" with the values of the components they
were shown; the deal is seeded so a human holds the same card twice. Every request the bot sent is
checked against Discord's rules for components, modals and embeds (tests/contract.py); at the end the
round's results are out and the books balance (``/tripoley-admin audit``)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter

import pytest

from bot.discordio.client import TripoleyBot
from bot.settings import Settings
from engine import Action, Game
from engine.presets import PRESETS
from tests.contract import check_components, check_requests
from tests.e2e.test_bot import applied_in_hand, button, buttons, finished, my_turn, selects, table_message
from tests.fakediscord.harness import PATIENCE

HUMANS = ("alice", "bob", "carol")
RULEBOOK = sorted(key for key, preset in PRESETS.items() if preset.rulebook_setup)
COPY = re.compile(r"\.\d+$")  # a card menu's value of a second (third…) copy: "QH.2"
COMBOS = ("pick.full_house", "pick.straight")
PREFER = ("Lead", "Play", "Check", "Call", "Keep", "Pass", "Claim", "Decline", "Cover")


def settings(tmp_path, dh) -> Settings:
    return Settings(
        _env_file=None,
        discord_token="fake",
        database_url=f"sqlite:///{tmp_path / 'big.sqlite3'}",
        discord_api_base=dh.api_base,
        starting_balance=1000,
        turn_timeout=120,
        ai_pause=0,
        round_pause=0,
        claim_timeout=1,
        ping_delay=0,
        render_processes=0,
        ai_processes=0,
        rest_rate=0,
    )


async def start_bot(dh, tmp_path) -> TripoleyBot:
    bot = TripoleyBot(settings(tmp_path, dh), guild_ready_timeout=0.01)
    await dh.connect(bot)
    return bot


def has_copies(cards) -> bool:
    return len(set(cards)) < len(cards)


def seed_for_a_copy(table, humans: set[int]) -> int:
    """A seed of the bot's random numbers whose deal gives a human the same card twice and Michigan's
    first lead (the game's seed is the first number drawn at Start: bot.tables.lobby)."""
    names = [s.name for s in table.seats]
    mine = [i for i, s in enumerate(table.seats) if s.user_id in humans]
    for seed in range(1000):
        game = Game.new(
            table.preset,
            names,
            options=table.options or None,
            stacks=[s.stake for s in table.seats],
            seed=random.Random(seed).randrange(2**31),
        )
        game.next_deal()
        while not any(game.round.hands) and (aw := game.awaiting()) is not None:
            game.apply(Action(seat=aw.seat, do="decline"))  # Rummy Royal's corner bets come before its deal
        leader = (game.round.dealer + 1) % len(names)  # Michigan's first lead: left of the dealer
        if any(has_copies(game.round.hands[i]) for i in mine) and (leader in mine or table.preset == "wanagan"):
            return seed
    raise AssertionError("no seed deals a human a card twice and the first lead")


async def open_table(dh, bot, preset: str, seats: int, channel: str = "general"):
    """The table, seated: the humans and AI seats up to ``seats``, started on a seeded deal."""
    lobby = await (await dh.run_command("alice", channel, "tripoley start", preset=preset, rounds=1)).message()
    check_components(lobby.components, "lobby")
    for user in HUMANS[1:]:
        assert (await (await dh.click(user, lobby, label="Join")).message()).ephemeral
    for _ in range(seats - len(HUMANS)):
        await (await dh.click("alice", lobby, label="Add AI")).response()
    table = bot.manager.registry.by_channel[dh.channel(channel).id]
    await dh.wait_for(lambda: len(table.seats) == seats, 10, what="the AI seats")
    bot.manager.rng.seed(seed_for_a_copy(table, {dh.user(u).id for u in HUMANS}))
    await (await dh.click("alice", lobby, label="Start")).response()
    await dh.wait_for(lambda: table_message(dh, channel), 10, what="the table message")
    return table


async def hand_view(dh, user, tm):
    """``user``'s private hand from the table message's Show my hand (None: not there any more)."""
    try:
        h = await dh.click(user, tm, label="Show my hand")
    except LookupError:
        return None
    view = await h.message()
    assert view.ephemeral
    check_components(view.components, f"{user}'s hand view")
    return view if "Your hand" in view.content else None


def card_names(labels) -> list[str]:
    """Option labels as cards ("Q♥ (copy 2 of 2)" → "Q♥")."""
    return [label.split(" (copy ")[0] for label in labels]


async def amount_form(dh, user, hand, b, stats: Counter):
    """An amount button: its form (a Label around the text input), sent with the smallest amount."""
    opened = await dh.click(user, hand, custom_id=b["custom_id"])
    await opened.response()
    assert opened.modal is not None and opened.modal["components"][0]["type"] == 18, opened.modal
    low = re.search(r"Amount: (\d+)", hand.content)
    stats["amount"] += 1
    return await dh.submit_modal(user, opened, {"amount": low.group(1) if low else "1"})


async def move_in_hand(dh, user, hand, stats: Counter):
    """One legal move from the hand view's own components; the handle of the click that made it."""
    for s in selects(hand):
        action = s["custom_id"].split(":", 3)[3]
        options = s["options"]
        values = [o["value"] for o in options]
        if any(COPY.search(v) for v in values):
            stats["menus with copies"] += 1
            assert len({o["label"] for o in options}) == len(options), "each copy's label says which it is"
        if action == "pick.choose":
            defaults = [o for o in options if o.get("default")]
            best = re.search(r"Best five: (.+)", hand.content)
            assert best and len(defaults) == 5, "the best five is preselected"
            assert sorted(card_names(o["label"] for o in defaults)) == sorted(best.group(1).split())
            chosen = [o["value"] for o in defaults]
        elif action == "pick.pass_cards" or action.startswith("pick.reveal"):
            # A second copy first, when there is one: both copies of a card are real choices.
            chosen = sorted(values, key=lambda v: not COPY.search(v))[: s["min_values"]]
        elif action in COMBOS or action == "pick.lead":
            chosen = values[:1]
        elif action == "pick.space" and not any(
            x["custom_id"].split(":", 3)[3].startswith("pick.reveal") for x in selects(hand)
        ):
            # The space first (none is preselected): the view then offers the five cards for it.
            chosen_space = await dh.select(user, hand, s["custom_id"], values[:1])
            await chosen_space.response()
            shown = await chosen_space.message()
            return await move_in_hand(dh, user, shown, stats)
        else:
            continue  # pick.space: the reveal menu beside it carries the space shown
        stats[action.split(".")[1]] += 1
        stats["copies chosen"] += sum(1 for v in chosen if COPY.search(v))
        return await dh.select(user, hand, s["custom_id"], chosen)
    amounts = [b for b in buttons(hand) if ":amt." in b["custom_id"]]
    bets = [b for b in amounts if b["custom_id"].split(":amt.")[1] in ("bet", "raise", "bid", "suit_bid")]
    if bets and not stats["amount"]:  # once a game: a bet or bid through the amount form
        return await amount_form(dh, user, hand, bets[0], stats)
    for label in PREFER:
        b = button(hand, label)
        if b:
            stats[label.lower()] += 1
            return await dh.click(user, hand, custom_id=b["custom_id"])
    for b in buttons(hand):
        if ":suit." in b["custom_id"]:
            stats["suit"] += 1
            return await dh.click(user, hand, custom_id=b["custom_id"])
    if amounts:
        return await amount_form(dh, user, hand, amounts[0], stats)
    raise AssertionError(f"no move for {user}:\n{hand.content}\n{hand.components}")


def footer(message) -> tuple[int, int] | None:
    """(page, pages) of a paged embed's footer ("Page 2/5")."""
    text = ((message.embeds or [{}])[0].get("footer") or {}).get("text", "")
    found = re.search(r"Page (\d+)/(\d+)", text)
    return (int(found[1]), int(found[2])) if found else None


async def page_through(dh, user, message, forward: str) -> int:
    """Click ``forward`` ("Next ▶", "◀ Older"…) until the last page that way; how many pages were shown."""
    shown = 1
    while footer(message) and button(message, forward):
        before = footer(message)
        h = await dh.click(user, message, label=button(message, forward)["label"])
        message = await h.message()
        check_components(message.components, "a page")
        if footer(message) == before:
            break  # the last page (its button opens the same page)
        shown += 1
    return shown


async def play_from_hands(dh, channel: str, seconds: float = 60, moves: int | None = None) -> Counter:
    """The humans play every decision of theirs from their hand views until the game is over
    (``moves``: or until they made that many), within ``seconds`` on a quiet machine."""
    stats: Counter = Counter()
    deadline = time.monotonic() + seconds * PATIENCE
    while time.monotonic() < deadline:
        if finished(dh, channel) or stats["moves"] == moves:
            return stats
        tm = table_message(dh, channel)
        for user in HUMANS if tm else ():
            hand = await hand_view(dh, user, tm)
            if hand is None or not my_turn(hand):
                continue
            before = hand.content
            h = await move_in_hand(dh, user, hand, stats)
            await applied_in_hand(dh, user, h, hand, before)
            stats["moves"] += 1
            break
        else:
            await asyncio.sleep(0.05)
    raise AssertionError(f"the game did not end: {dict(stats)}")


async def books_balance(dh) -> None:
    audit = await (await dh.run_command("owner", "general", "tripoley-admin audit")).message()
    assert "don't balance" not in audit.content and "Chip audit" in audit.content, audit.content
    held, net = re.findall(r"= \*\*(\d+)\*\*", audit.content)
    assert held == net, audit.content


@pytest.mark.parametrize("seats", [7, 20])
@pytest.mark.parametrize("preset", RULEBOOK)
async def test_a_big_table_plays_a_round_through_the_hand_views(discord_harness, tmp_path, preset, seats):
    dh = discord_harness
    bot = await start_bot(dh, tmp_path)
    table = await open_table(dh, bot, preset, seats)
    assert table.game.n_decks == (2 if seats == 7 else 4)
    stats = await play_from_hands(dh, "general")
    await dh.wait_for(lambda: any(m.embeds for m in dh.channel_messages("general")), 10, what="the round's results")
    seen = check_requests(dh.rest_calls())
    assert seen["messages"] > 0 and stats["moves"] > 0, (seen, stats)
    assert stats["menus with copies"] > 0 and stats["choose"] > 0, stats  # every Rulebook round has its poker
    if preset == "wanagan":
        assert stats["pass_cards"] > 0 and stats["reveal"] > 0, stats
    else:
        assert stats["lead"] > 0, stats
    if preset == "great-lakes":
        assert stats["full_house"] + stats["straight"] + stats["play"] > 0, stats
    await books_balance(dh)
    # The whole game's log, from the final message: every page, forward and back.
    final = next(m for m in reversed(dh.channel_messages("general")) if "🏁" in m.content)
    log = await (await dh.click("alice", final, label="Log")).message()
    assert log.embeds[0].get("color"), log.embeds
    pages = footer(log)
    assert pages is not None and pages[0] == 1, log.embeds
    assert await page_through(dh, "alice", log, "Newer ▶") == pages[1]
    assert await page_through(dh, "alice", log, "◀ Older") == pages[1]
