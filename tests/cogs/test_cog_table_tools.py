"""The table's tools through the cog and the controller (mock interactions): the host's
``/tripoley kick`` (at once in the lobby, confirmed mid-game), "What pays?" at the table, the
final message's Log and Replay and ``/tripoley history``'s Log N, and the stats chart."""

from __future__ import annotations

import time

import discord
import pytest

from bot.discordio.answering import report
from bot.discordio.render import ImageService, default_renderer
from bot.messages.buttonids import GameLogButton, ReplayButton, SpaceRulesButton, encode
from bot.messages.components import final_components, mat_components
from bot.messages.rules import space_rules
from cogs.tripoley import Tripoley
from tests.cogs.fakes import FakeInteraction, ephemeral_message, public_message

G, C = 5, 600
ANN, BOB = 1, 2


@pytest.fixture
def cog(stack):
    return Tripoley(stack)


def interaction(stack, user=ANN, **kw):
    return FakeInteraction(user, C, G, client=stack, **kw)


def member(user_id: int):
    return discord.Object(id=user_id)


async def lobby_with_bob(stack):
    manager = stack.manager
    await manager.lobby.create_table(G, C, ANN, "Ann", "tripoley", {"game_end": "rounds:1"}, buy_in=100)
    await manager.lobby.join(C, BOB, "Bob")
    await manager.lobby.add_ai(C, ANN)
    return manager.registry.get(C)


async def finished_game(stack):
    table = await lobby_with_bob(stack)
    await stack.manager.lobby.start(C, ANN)
    await stack.manager.play.stop(C, ANN, can_manage=False)
    assert table.status == "finished"
    return table


async def test_the_host_kicks_from_the_lobby_at_once(stack, cog):
    table = await lobby_with_bob(stack)
    it = interaction(stack, BOB)
    with pytest.raises(Exception) as refused:
        await cog.kick.callback(cog, it, member(ANN))
    await report(it, refused.value)
    assert it.calls.last("send_message")[1] == "Only the table's host can remove a player from it."
    it = interaction(stack)
    await cog.kick.callback(cog, it, member(BOB))
    assert "Bob is off the table; their 100 chips are back in their wallet." == it.calls[0][1]
    assert it.calls[0][2]["ephemeral"] and table.seat_of(BOB) is None


async def test_the_host_confirms_a_kick_mid_game(stack, cog):
    table = await lobby_with_bob(stack)
    await stack.manager.lobby.start(C, ANN)
    it = interaction(stack)
    await cog.kick.callback(cog, it, member(BOB))
    name, content, kwargs = it.calls[0]
    assert name == "send_message" and kwargs["ephemeral"] and "Hand **Bob**'s seat to an AI" in content
    assert not table.seats[1].left, "nothing happens before the confirmation"
    (confirm,) = kwargs["view"].children
    assert (
        confirm.item.label == "Yes: an AI plays Bob's seat" and confirm.custom_id == f"tripoley:{table.id}:0:kick.{BOB}"
    )
    not_host = interaction(stack, BOB, message=ephemeral_message())
    await stack.controller.on_component(not_host, confirm.custom_id, [])
    assert not_host.calls[0][1] == "Only the table's host can remove a player from it." and not table.seats[1].left
    click = interaction(stack, message=ephemeral_message())
    await stack.controller.on_component(click, confirm.custom_id, [])
    assert click.calls[0][0] == "edit_message" and "An AI plays Bob's seat now" in click.calls[0][1]
    assert table.seats[1].left


async def test_what_pays_answers_each_space_at_the_table(stack):
    table = await lobby_with_bob(stack)
    await stack.manager.lobby.start(C, ANN)
    button = next(c for c in mat_components(table) if c.label == "What pays?")
    assert button.custom_id == encode(SpaceRulesButton(table.id, table.round))
    it = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(it, button.custom_id, [])
    name, content, kwargs = it.calls[0]
    assert name == "send_message" and kwargs["ephemeral"] and content.startswith("Pick a space")
    (menu,) = kwargs["view"].children
    rules = space_rules(table.game)
    assert [(o.label, o.value) for o in menu.item.options] == [(label, space) for space, label, _ in rules]
    space, label, text = rules[-1]
    pick = interaction(stack, BOB, message=ephemeral_message())
    await stack.controller.on_component(pick, menu.custom_id, [space])
    assert pick.calls[0][0] == "edit_message" and pick.calls[0][1] == f"**{label}**: {text}"
    gone = interaction(stack, BOB, message=ephemeral_message())
    await stack.controller.on_component(gone, menu.custom_id, ["no-such-space"])
    assert "isn't on the mat" in gone.calls[0][1]


async def test_the_final_message_keeps_the_whole_log_and_the_replay(stack, cog):
    table = await finished_game(stack)
    log, replay = final_components(table)[1:]
    assert log.custom_id == encode(GameLogButton(table.id)) and replay.custom_id == encode(ReplayButton(table.id))
    it = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(it, log.custom_id, [])
    name, _, kwargs = it.calls[0]
    embed = kwargs["embed"]
    assert name == "send_message" and kwargs["ephemeral"] and "the whole game's log" in embed.title
    assert "Ann opened the table." in embed.description and embed.footer.text.startswith("Page 1/")
    it = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(it, replay.custom_id, [])
    # Named by its game, its table and the day it ended: every game's file its own name.
    day = time.strftime("%Y-%m-%d", time.gmtime(stack.manager.clock.now()))
    assert it.calls[0][2]["file"].filename == f"tripoley-game-{table.id}-{day}.json" and it.calls[0][2]["ephemeral"]
    # /tripoley history: Log N and Replay N next to each game.
    it = interaction(stack)
    await cog.history.callback(cog, it)
    labels = [c.item.label for c in it.calls[0][2]["view"].children]
    assert labels == ["Log 1", "Replay 1"]
    other_server = FakeInteraction(BOB, C, G + 1, client=stack, message=public_message())
    await stack.controller.on_component(other_server, log.custom_id, [])
    assert other_server.calls[0][1] == "That game's log isn't kept in this server."


async def test_stats_come_with_a_chart(stack, cog):
    stack.controller.publisher.images = ImageService(default_renderer())
    await finished_game(stack)
    it = interaction(stack)
    await cog.stats.callback(cog, it, None)
    assert it.calls[0][0] == "defer" and it.calls[0][2]["ephemeral"]
    name, _, kwargs = it.calls[1]
    chart = kwargs["file"]
    assert name == "followup" and kwargs["ephemeral"] and chart.filename == "stats.png"
    assert chart.description.startswith("user1's net chips after their last game:")  # Ann's display name here
    assert "By game: Tripoley (Cadaco) 1 game" in chart.description
    assert kwargs["embed"].image.url == "attachment://stats.png"
    assert chart.fp.read(8) == b"\x89PNG\r\n\x1a\n"
    # Someone else's stats are private too unless asked for everyone (no post into a game's channel).
    other = interaction(stack, BOB)
    await cog.stats.callback(cog, other, it.user)
    assert other.calls[0][2]["ephemeral"] and other.calls[1][2]["ephemeral"]
    shared = interaction(stack, BOB)
    await cog.stats.callback(cog, shared, it.user, True)
    assert shared.calls[0][2]["ephemeral"] is False and shared.calls[1][2]["ephemeral"] is False
