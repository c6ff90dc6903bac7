"""The cog and the controller with mock interactions: every outgoing call is recorded."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace

import discord
import pytest

from bot import errors
from bot.discordio.answering import report
from bot.discordio.turns import TurnNotifier
from bot.discordio.ui import AmountModal, handle_modal_submit
from bot.messages.buttonids import AmountButton
from bot.messages.controls import GENERIC_FAILURE
from bot.messages.outgoing import hand_message
from bot.messages.refusals import say
from cogs.admin import Admin
from cogs.tripoley import Tripoley
from tests.cogs.fakes import FakeInteraction, ephemeral_message, public_message

G, C = 5, 600
ANN, BOB = 1, 2


@pytest.fixture
def cog(stack):
    return Tripoley(stack)


@pytest.fixture
def admin(stack):
    return Admin(stack)


def interaction(stack, user=ANN, **kw):
    return FakeInteraction(user, C, G, client=stack, **kw)


async def test_start_posts_the_lobby_and_remembers_its_message(stack, cog):
    it = interaction(stack)
    await cog.start.callback(cog, it, preset="tripoley", rounds=2)
    assert it.calls.names() == ["defer", "followup"]  # acknowledged before the host's buy-in is taken
    assert it.calls[0][2] == {"thinking": True, "ephemeral": False}
    name, content, kwargs = it.calls[1]
    assert "table open" in content
    ids = [c.custom_id for c in kwargs["view"].children]
    assert ids == [
        "tripoley:1:0:join",
        "tripoley:1:0:leave",
        "tripoley:1:0:ai",
        "tripoley:1:0:start",
        "tripoley:1:0:ai.easy",
        "tripoley:1:0:ai.hard",
        "tripoley:1:0:pick.house",
    ]
    assert stack.manager.registry.get(C).lobby_message_id == 6001  # the follow-up that filled "thinking…"
    # A second table in the same channel is refused, ephemerally, by the error handler.
    again = interaction(stack, BOB)
    with pytest.raises(Exception) as err:
        await cog.start.callback(cog, again, preset="tripoley")
    await report(again, err.value)
    # After the "thinking…" (removed), the refusal comes privately as a follow-up.
    assert again.calls.names() == ["defer", "delete_original_response", "followup"]
    assert again.calls.last("followup")[2]["ephemeral"] is True
    assert "already running" in again.calls.last("followup")[1]


TABLE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True, read_message_history=True
)
THREAD_PERMISSIONS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True, manage_threads=True)


@pytest.mark.parametrize(
    "lacking",
    ["view_channel", "send_messages", "embed_links", "attach_files", "read_message_history"],
)
async def test_each_missing_bot_permission_is_named(stack, cog, lacking):
    perms = discord.Permissions(TABLE_PERMISSIONS.value)
    setattr(perms, lacking, False)
    it = interaction(stack, permissions=perms.value)
    with pytest.raises(Exception) as err:
        await cog.start.callback(cog, it, preset="tripoley")
    await report(it, err.value)
    answer = it.calls.last("followup")  # after the "thinking…" (removed)
    assert answer[2]["ephemeral"] and f"**{errors.permission_label(lacking)}**" in answer[1]
    assert answer[1].count("**") == 2, "only the missing one is named"
    assert C not in stack.manager.registry.by_channel


async def test_tables_in_threads_need_the_thread_permissions(stack, cog, admin):
    await admin.settings.callback(admin, interaction(stack, manage_guild=True), threads=True)
    it = interaction(stack, permissions=TABLE_PERMISSIONS.value)
    with pytest.raises(Exception) as err:
        await cog.start.callback(cog, it, preset="tripoley")
    message = say(err.value)
    for name in ("Create Public Threads", "Send Messages in Threads", "Manage Threads"):
        assert f"**{name}**" in message
    assert "threads:False" in message and C not in stack.manager.registry.by_channel
    it = interaction(stack, permissions=TABLE_PERMISSIONS.value | THREAD_PERMISSIONS.value)
    await cog.start.callback(cog, it, preset="tripoley")
    assert stack.manager.registry.get(C).thread


async def test_only_one_end_rule(stack, cog):
    it = interaction(stack)
    with pytest.raises(Exception) as err:
        await cog.start.callback(cog, it, preset="tripoley", rounds=2, minutes=5)
    assert "one way to end" in say(err.value)


async def test_lobby_buttons_then_play_buttons(stack, cog):
    await cog.start.callback(cog, interaction(stack), preset="tripoley", rounds=1)
    join = interaction(stack, BOB, name="bob", message=public_message())
    await stack.controller.on_component(join, "tripoley:1:0:join", [])
    assert join.calls.names() == ["defer", "followup"] and join.calls[1][2]["ephemeral"]
    assert join.calls[0][2] == {"thinking": True, "ephemeral": True}  # before the buy-in: private
    early = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(early, "tripoley:1:0:start", [])
    assert "Only the host" in early.calls[0][1]
    start = interaction(stack, ANN, message=public_message())
    await stack.controller.on_component(start, "tripoley:1:0:start", [])
    assert start.calls.names() == ["defer"]
    table = stack.manager.registry.get(C)
    assert table.status == "playing"
    # Lobby buttons are stale now.
    late = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(late, "tripoley:1:0:join", [])
    assert late.calls[0][2]["ephemeral"] and "started" in late.calls[0][1]
    # An old round's button is stale.
    stale = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(stale, f"tripoley:1:{table.round + 3}:do.check", [])
    assert "earlier round" in stale.calls[0][1]
    # Show my hand: ephemeral, with the private controls; a click on the table message is a
    # deferred update (the table message then carries the table's updates) and the view a follow-up.
    hand = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(hand, f"tripoley:1:{table.round}:hand", [])
    assert hand.calls.names()[:2] == ["defer", "followup"]
    _, content, kwargs = hand.calls[1]
    assert kwargs["ephemeral"] and "Your hand" in content
    assert stack.publisher.carriers.for_message(public_message().id) is not None
    # Unknown table (e.g. a message of a long-gone game).
    gone = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(gone, "tripoley:99:1:hand", [])
    assert "closed" in gone.calls[0][1]


async def play_until_betting(stack):
    """Drive the table (timers on the fake clock) until a human must bet or check."""
    manager = stack.manager
    table = manager.registry.get(C)
    for _ in range(500):
        aw = table.awaiting()
        if aw is not None and aw.phase == "poker-betting" and not table.seats[aw.seat].auto and "bet" in aw.legal:
            return table, aw
        if table.status != "playing":
            break
        manager.clock.t = table.deadline
        await manager.timers.tick()
    pytest.skip("no betting decision came up with this seed")


async def test_amount_modal_validation_and_ephemeral_hand_edit(stack, cog):
    await cog.start.callback(cog, interaction(stack), preset="tripoley", rounds=3)
    await stack.controller.on_component(interaction(stack, BOB, message=public_message()), "tripoley:1:0:join", [])
    await stack.controller.on_component(interaction(stack, ANN, message=public_message()), "tripoley:1:0:start", [])
    table, aw = await play_until_betting(stack)
    user = table.seats[aw.seat].user_id
    other = ANN if user == BOB else BOB
    # The wrong player can't open the modal.
    wrong = interaction(stack, other, message=public_message())
    await stack.controller.on_component(wrong, f"tripoley:1:{table.round}:amt.bet", [])
    assert "not your turn" in wrong.calls[0][1].lower()
    # The right one gets a modal with the current bounds.
    opener = interaction(stack, user, message=public_message())
    await stack.controller.on_component(opener, f"tripoley:1:{table.round}:amt.bet", [])
    modal = opener.calls.last("send_modal")[2]["modal"]
    assert isinstance(modal, AmountModal) and (modal.low, modal.high) == (aw.detail["min"], aw.detail["max"])
    # Out of range and not a number: refused, nothing applied.
    version = table.version
    for raw, expect in [(str(aw.detail["max"] + 1), "between"), ("lots", "not a whole number")]:
        submit = interaction(stack, user, message=public_message())
        await stack.controller.on_amount(submit, AmountButton(1, table.round, "bet"), raw)
        assert expect in submit.calls[0][1] and submit.calls[0][2]["ephemeral"]
    assert table.version == version
    # A valid amount from the private hand view: the hand message is edited in place.
    submit = interaction(stack, user, message=ephemeral_message())
    await stack.controller.on_amount(submit, AmountButton(1, table.round, "bet"), "1")
    assert submit.calls.names() == ["defer", "edit_original_response"]
    assert table.version > version
    seat = table.seat_of(user)
    shown = submit.calls.last("edit_original_response")[1]
    assert shown == hand_message(table, seat, table.game.view(seat)).clipped()


async def test_a_public_move_refreshes_the_players_open_hand_view(stack, cog):
    """A move made with the table message's buttons: the hand view the player has open shows the hand
    after it at once, without that decision's controls (they would answer "It's not your turn")."""
    await cog.start.callback(cog, interaction(stack), preset="tripoley", rounds=3)
    await stack.controller.on_component(interaction(stack, BOB, message=public_message()), "tripoley:1:0:join", [])
    await stack.controller.on_component(interaction(stack, ANN, message=public_message()), "tripoley:1:0:start", [])
    table, aw = await play_until_betting(stack)
    turns = stack.controller.turns = TurnNotifier(stack.manager, stack.sink, carriers=stack.publisher.carriers)
    user = table.seats[aw.seat].user_id
    opened = interaction(stack, user, message=public_message())
    await stack.controller.on_component(opened, f"tripoley:1:{table.round}:hand", [])
    assert "**Your turn:**" in opened.calls[1][1]
    public = interaction(stack, user, message=public_message())
    await stack.controller.on_component(public, f"tripoley:1:{table.round}:do.check", [])
    assert public.calls.names()[0] == "defer" and table.awaiting().seat != aw.seat
    (edited,) = [c for c in opened.calls if c[0] == "followup_edit"]
    seat = table.seat_of(user)
    assert edited[1] == hand_message(table, seat, table.game.view(seat)).clipped()
    assert "**Your turn:**" not in edited[1] and not edited[2]["view"].children, "no controls left"
    turns.close()


async def test_modal_submission_is_routed_after_a_restart(stack):
    seen = []

    class Ctl:
        async def on_amount(self, interaction, button, raw):
            seen.append((button.table, button.round, button.verb, raw))

    it = FakeInteraction(ANN, C, G, client=type("B", (), {"controller": Ctl()})())
    it.type = discord.InteractionType.modal_submit
    it.data = {
        "custom_id": "tripoley-modal:7:3:raise",
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": "12"}]}],
    }
    assert await handle_modal_submit(it)
    # Discord's current layout: the text input inside a Label, as the amount form is built.
    it.data = {
        "custom_id": "tripoley-modal:7:3:bet",
        "components": [{"type": 18, "id": 1, "component": {"type": 4, "id": 2, "custom_id": "amount", "value": "9"}}],
    }
    assert await handle_modal_submit(it)
    assert seen == [(7, 3, "raise", "12"), (7, 3, "bet", "9")]


def test_the_amount_form_wraps_its_input_in_a_label():
    """Discord's modal layout (a Label, type 18, around the text input), not the deprecated Action Row."""
    payload = AmountModal(AmountButton(7, 3, "raise"), 2, 40).to_dict()
    assert payload["title"] == "Raise" and payload["custom_id"] == "tripoley-modal:7:3:raise"
    (label,) = payload["components"]
    assert label["type"] == 18 and label["label"] == "Amount (2–40)"
    text_input = label["component"]
    assert text_input["type"] == 4 and text_input["custom_id"] == "amount"
    assert (text_input["min_length"], text_input["max_length"], text_input["required"]) == (1, 6, True)
    assert not text_input.get("label"), "the Label carries the words"


async def test_unexpected_errors_are_logged_not_shown(stack, caplog):
    it = interaction(stack)
    with caplog.at_level(logging.ERROR):
        await report(it, RuntimeError("database exploded"))
    assert it.calls[0][1] == GENERIC_FAILURE
    assert "database exploded" in caplog.text


async def test_balance_stats_history_rules_dm_settings(stack, cog, admin):
    it = interaction(stack)
    await cog.balance.callback(cog, it)
    assert "1000" in it.calls[0][1]

    it = interaction(stack)
    await cog.stats.callback(cog, it, None)
    assert "hasn't finished a game" in it.calls[0][1]

    it = interaction(stack)
    await cog.rules.callback(cog, it, "rummoli")
    embed = it.calls[0][2]["embed"]
    assert "Rummoli" in embed.title and "Page 1/" in embed.footer.text
    view = it.calls[0][2]["view"]
    next_id = view.children[-1].custom_id
    assert next_id.startswith("tripoley:0:0:page.rules.rummoli.")
    page = interaction(stack, message=ephemeral_message())
    await stack.controller.on_component(page, next_id, [])
    assert page.calls[0][0] == "edit_message" and "Page 2/" in page.calls[0][2]["embed"].footer.text

    it = interaction(stack)
    await cog.dm.callback(cog, it, "on")
    assert await stack.prefs.dm_hands(ANN)

    it = interaction(stack)
    with pytest.raises(Exception) as err:
        await admin.settings.callback(admin, it, None, 50, None, None)
    assert isinstance(err.value, errors.TripoleyError) and "Manage Server" in say(err.value)
    it = interaction(stack, manage_guild=True)
    await admin.settings.callback(admin, it, None, 50, 30, 0.5)
    assert "Starting balance: 50" in it.calls[0][1]
    assert (await stack.prefs.guild(G)).turn_timeout == 30
    it = interaction(stack, BOB)  # everyone may see them
    await cog.settings.callback(cog, it)
    assert (
        it.calls[0][2]["ephemeral"]
        and "Starting balance: 50" in it.calls[0][1]
        and "Turn timer: 30 s" in it.calls[0][1]
    )

    it = interaction(stack, BOB)
    await cog.leaderboard.callback(cog, it, "balance")
    embed = it.calls[0][2]["embed"]
    assert "<@1>" in embed.description
    assert it.calls[0][2]["ephemeral"], "private by default: nothing is posted into a game's channel"
    it = interaction(stack, BOB)
    await cog.leaderboard.callback(cog, it, "balance", "all", True)
    assert it.calls[0][2]["ephemeral"] is False, "for everyone when asked"


async def test_a_server_hands_the_admin_tools_to_a_role(stack, admin):
    """Manage Server names a "game master" role; its members use /tripoley-admin, others still can't,
    and only Manage Server chooses (or clears) the role."""
    game_master, other_role = 77, 78
    gm = interaction(stack, BOB, roles=(game_master,))
    with pytest.raises(errors.NotAllowed) as refused:
        await admin.admin_audit.callback(admin, gm)
    assert refused.value.facts == {"tool": errors.AdminTool.AUDIT} and "admin role" in say(refused.value)
    owner = interaction(stack, manage_guild=True)
    await admin.settings.callback(admin, owner, admin_role=SimpleNamespace(id=game_master))
    assert f"the role <@&{game_master}>" in owner.calls[0][1]
    assert (await stack.prefs.guild(G)).admin_role == game_master

    gm = interaction(stack, BOB, roles=(game_master,))
    await admin.admin_audit.callback(admin, gm)
    assert "Chip audit" in gm.calls.last("send_message")[1]
    gm = interaction(stack, BOB, roles=(game_master,))
    await admin.settings.callback(admin, gm, None, 50)  # the defaults, yes
    assert (await stack.prefs.guild(G)).starting_balance == 50
    for attempt in ({"admin_role": SimpleNamespace(id=other_role)}, {"no_admin_role": True}):
        gm = interaction(stack, BOB, roles=(game_master,))
        with pytest.raises(errors.NotAllowed) as refused:
            await admin.settings.callback(admin, gm, **attempt)  # who administers: no
        assert refused.value.refusal is errors.Refusal.MANAGE_SERVER_ONLY and "Manage Server" in say(refused.value)
    outsider = interaction(stack, 3, roles=(other_role,))
    with pytest.raises(errors.NotAllowed):
        await admin.admin_house.callback(admin, outsider, 100)

    owner = interaction(stack, manage_guild=True)
    await admin.settings.callback(admin, owner, no_admin_role=True)
    assert (await stack.prefs.guild(G)).admin_role is None and "Manage Server only" in owner.calls[0][1]
    with pytest.raises(errors.NotAllowed):
        await admin.admin_audit.callback(admin, interaction(stack, BOB, roles=(game_master,)))


async def test_stop_needs_host_or_manage_server(stack, cog, bot_settings):
    await cog.start.callback(cog, interaction(stack), preset="tripoley")
    await stack.controller.on_component(interaction(stack, BOB, message=public_message()), "tripoley:1:0:join", [])
    with pytest.raises(Exception) as err:
        await cog.stop.callback(cog, interaction(stack, 3))
    assert "Manage Server" in say(err.value)
    await stack.controller.on_component(interaction(stack, ANN, message=public_message()), "tripoley:1:0:start", [])
    it = interaction(stack, 3, manage_guild=True)
    await cog.stop.callback(cog, it)
    assert C not in stack.manager.registry.by_channel
    audit = await stack.bank.audit(G)
    assert audit.ok and audit.tables == 0


async def test_turn_pings_per_player_and_server_default(stack, cog, admin):
    assert await stack.prefs.pings(G, ANN)  # on unless the server or the player says otherwise
    it = interaction(stack, manage_guild=True)
    await admin.settings.callback(admin, it, pings=False)
    assert "Turn pings: off by default" in it.calls[0][1]
    assert not await stack.prefs.pings(G, ANN)
    it = interaction(stack)
    await cog.ping.callback(cog, it, "on")
    assert it.calls[0][2].get("ephemeral") and "ping you" in it.calls[0][1]
    assert await stack.prefs.pings(G, ANN) and not await stack.prefs.pings(G, BOB)
    it = interaction(stack, BOB)
    await cog.ping.callback(cog, it, "off")
    assert "No more turn pings" in it.calls[0][1] and not await stack.prefs.pings(G, BOB)


async def test_a_stale_unknown_button_gets_the_friendly_answer(stack):
    """An id this version cannot read (e.g. a button of an older version) is answered as stale."""
    it = interaction(stack)
    await stack.controller.on_component(it, "tripoley:1:0:fly", [])
    assert it.calls[0][1] == "That button is no longer in use."


async def test_help_answers_privately_naming_only_commands_that_exist(stack, cog, admin):
    it = interaction(stack, BOB)
    await cog.show_help.callback(cog, it)
    name, content, kwargs = it.calls[0]
    assert name == "send_message" and kwargs["ephemeral"] and len(content) <= 2000
    assert content.startswith("**How to play Tripoley**") and "Show my hand" in content
    named = set(re.findall(r"`/tripoley (\S+?)[` ]", content))
    subcommands = {c.name for c in cog.walk_app_commands()}
    assert {"start", "join", "hand", "rules", "balance"} <= named <= subcommands, named - subcommands
    tools = re.search(r"`/tripoley-admin` \(([^)]+)\)", content)
    assert tools is not None and set(tools.group(1).split(", ")) == {c.name for c in admin.walk_app_commands()} - {
        "tripoley-admin"
    }


async def test_forget_me_everywhere_after_a_confirmation(stack, cog):
    await stack.bank.balance(G, ANN, 1000)
    await stack.bank.balance(G + 1, ANN, 300)  # another server where ANN played
    it = interaction(stack)
    await cog.forget_me.callback(cog, it, everywhere=True)
    name, content, kwargs = it.calls[0]
    assert name == "send_message" and kwargs["ephemeral"] and "**every** server" in content
    [button] = kwargs["view"].children
    assert await stack.bank.balance(G + 1, ANN, 0) == 300  # nothing forgotten before the click
    click = interaction(stack, message=ephemeral_message())
    await stack.controller.on_component(click, button.custom_id, [])
    assert click.calls[0][0] == "edit_message" and "forgotten in 2 servers (1300 chips removed" in click.calls[0][1]
    rows = await stack.db.fetchall("SELECT guild_id FROM wallets WHERE user_id = ?", (ANN,))
    assert rows == [] and (await stack.bank.audit(G + 1)).ok


async def test_a_card_menu_choice_from_before_the_hand_changed_is_refused_and_plays_nothing(stack, cog):
    """A card menu's values name physical cards of the hand as the menu showed it; one that names
    no copy of the hand now (or one copy twice) is answered privately and changes nothing."""
    await cog.start.callback(cog, interaction(stack), preset="wanagan", rounds=2)
    await stack.controller.on_component(interaction(stack, BOB, message=public_message()), "tripoley:1:0:join", [])
    await stack.controller.on_component(interaction(stack, ANN, message=public_message()), "tripoley:1:0:start", [])
    manager, table = stack.manager, stack.manager.registry.get(C)
    for _ in range(500):
        aw = table.awaiting()
        # (a reveal's five-card menu comes once its space is chosen: a pass or a poker five here)
        if aw is not None and not table.seats[aw.seat].auto and {"pass_cards", "choose"} & set(aw.legal):
            break
        manager.clock.t = table.deadline
        await manager.timers.tick()
    else:
        pytest.skip("no card menu came up with this seed")
    user = table.seats[aw.seat].user_id
    view = table.game.view(aw.seat)
    menu = next(
        c
        for c in hand_message(table, aw.seat, view).components
        if c.custom_id.split(":")[3].startswith("pick.") and c.custom_id.split(":")[3] != "pick.space"
    )
    values = [v for _, v in menu.options][: menu.min_values]
    assert len(values) >= 3  # passing, revealing or choosing: several cards
    version = table.version
    for bad in ([f"{values[0]}.9", *values[1:]], [values[0], *values[:-1]]):  # a copy not held; one copy twice
        it = interaction(stack, user, message=ephemeral_message())
        await stack.controller.on_component(it, menu.custom_id, bad)
        assert it.calls[0][1] == say(errors.StaleButton(errors.Refusal.STALE_CARD_MENU)) and it.calls[0][2]["ephemeral"]
        assert table.version == version
    stranger = interaction(stack, 99, message=ephemeral_message())
    await stack.controller.on_component(stranger, menu.custom_id, values)
    assert stranger.calls[0][1] == say(errors.NotSeated(errors.Refusal.NOT_PLAYING)) and table.version == version
    it = interaction(stack, user, message=ephemeral_message())
    await stack.controller.on_component(it, menu.custom_id, values)
    assert it.calls.names()[0] == "defer" and table.version > version


@pytest.mark.parametrize(
    "error",
    [
        discord.NotFound(
            SimpleNamespace(status=404, reason="Not Found"), {"code": 10062, "message": "Unknown interaction"}
        ),
        discord.HTTPException(
            SimpleNamespace(status=400, reason="Bad Request"),
            {"code": 40060, "message": "Interaction has already been acknowledged."},
        ),
    ],
    ids=["10062", "40060"],
)
async def test_discords_routine_refusals_are_dropped_quietly(stack, caplog, error):
    """10062 (too late to answer) and 40060 (answered already) are Discord's routine refusals: no
    answer is attempted (it would fail the same way), logged at INFO without a traceback."""
    it = interaction(stack)
    caplog.set_level(logging.INFO, "bot.discordio.answering")
    await report(it, error)
    assert it.calls == []
    [record] = [r for r in caplog.records if r.name == "bot.discordio.answering"]
    assert record.levelno == logging.INFO and record.exc_info is None
