"""Rummoli's strict claims through the controller: a Claim! button names the claim it was made for,
so a fast double click (or a late click) never claims the player's next pay card."""

from __future__ import annotations

import asyncio

import pytest

from bot.messages.components import mat_components
from bot.messages.refusals import STALE_CLAIM
from tests.cogs.fakes import FakeInteraction, public_message

G, C = 7, 700
ANN, BOB = 1, 2


async def drive_to_human_claim(manager, table, limit=5000):
    """Play the humans' moves as the AI would, fire AI deadlines, until a human must claim."""
    clock = manager.clock
    for _ in range(limit):
        if table.status != "playing":
            return None
        aw = table.awaiting()
        if aw is None or table.seats[aw.seat].auto:
            clock.t = table.deadline
            await manager.timers.tick()
            continue
        if aw.phase == "claim":
            return aw
        action = manager.flow.ai_action(table, aw.seat).to_dict()
        action.pop("seat", None)
        await manager.play.act(manager.registry.get(C), table.seats[aw.seat].user_id, action)
    raise AssertionError("no human claim reached")


def claim_button(table):
    return next(b for b in mat_components(table) if getattr(b, "label", "").startswith("Claim"))


async def click(stack, user, cid):
    it = FakeInteraction(user, C, G, client=stack, message=public_message())
    await stack.controller.on_component(it, cid, [])
    return it


async def rummoli_game(stack):
    """A started rummoli game: two humans and an AI."""
    manager = stack.manager
    await manager.lobby.create_table(G, C, ANN, "ann", "rummoli", {"game_end": "rounds:3"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    return manager.registry.get(C)


async def rummoli_claim(stack):
    table = await rummoli_game(stack)
    aw = await drive_to_human_claim(stack.manager, table)
    assert aw is not None, "the game ended without a human claim"
    return table, aw


async def test_claim_button_carries_the_claim_and_a_stale_one_is_refused(stack):
    table, aw = await rummoli_claim(stack)
    user = table.seats[aw.seat].user_id
    button = claim_button(table)
    assert button.custom_id.split(":")[-1].startswith("do.claim.")
    pass_button = next(b for b in mat_components(table) if getattr(b, "label", "") == "Pass")
    assert pass_button.custom_id.split(":")[-1].startswith("do.pass.")  # a pass is tied to its claim too
    chips_before = table.game.stacks[aw.seat]
    first = await click(stack, user, button.custom_id)
    assert first.calls.names() == ["defer"]
    assert table.game.stacks[aw.seat] > chips_before
    history = len(table.game.history)
    stacks = list(table.game.stacks)
    # The same button again (late, or the second half of a double click): refused, nothing changes,
    # even when the player's next decision is another claim.
    again = await click(stack, user, button.custom_id)
    name, content, kwargs = again.calls[-1]
    assert name == "send_message" and kwargs.get("ephemeral") is True and content == STALE_CLAIM
    assert "already claimed" in content.lower() and "too late" in content.lower()
    assert len(table.game.history) == history and list(table.game.stacks) == stacks


async def test_double_click_on_claim_claims_once(stack):
    table, aw = await rummoli_claim(stack)
    user = table.seats[aw.seat].user_id
    cid = claim_button(table).custom_id
    payouts_before = sum(1 for e in table.game.history if e.get("type") == "payout")
    first, second = await asyncio.gather(click(stack, user, cid), click(stack, user, cid))
    answers = sorted([first.calls[-1][0], second.calls[-1][0]])
    assert answers == ["defer", "send_message"]
    refused = first if first.calls[-1][0] == "send_message" else second
    assert refused.calls[-1][1] == STALE_CLAIM and refused.calls[-1][2]["ephemeral"] is True
    payouts = sum(1 for e in table.game.history if e.get("type") == "payout")
    assert payouts == payouts_before + 1


async def test_double_click_with_slow_acknowledgements_claims_once(stack):
    """Both clicks pass the check made before the acknowledgement (the acknowledgement is a network
    round trip, so the second click's check runs before the first is applied): the second is then
    refused under the table's lock, after its acknowledgement, by an ephemeral follow-up."""
    table, aw = await rummoli_claim(stack)
    user = table.seats[aw.seat].user_id
    cid = claim_button(table).custom_id
    payouts_before = sum(1 for e in table.game.history if e.get("type") == "payout")
    chips = sum(table.game.stacks) + sum(table.game.mat.values())
    clicks = [FakeInteraction(user, C, G, client=stack, message=public_message()) for _ in range(2)]
    for it in clicks:
        fast_defer = it.response.defer

        async def slow_defer(_defer=fast_defer, **kwargs):
            await _defer(**kwargs)
            await asyncio.sleep(0.01)

        it.response.defer = slow_defer
    await asyncio.gather(*(stack.controller.on_component(it, cid, []) for it in clicks))
    assert [it.calls[0][0] for it in clicks] == ["defer", "defer"]
    refused = [it for it in clicks if len(it.calls) > 1]
    assert len(refused) == 1
    name, content, kwargs = refused[0].calls[-1]
    assert name == "followup" and content == STALE_CLAIM and kwargs["ephemeral"] is True
    payouts = sum(1 for e in table.game.history if e.get("type") == "payout")
    assert payouts == payouts_before + 1
    assert sum(table.game.stacks) + sum(table.game.mat.values()) == chips


async def test_next_claim_of_the_same_player_gets_a_new_button(stack):
    """When a player has two claims in a row (A♥ pays two spaces), the second has its own button and
    the first one's id does not work for it."""
    manager = stack.manager
    table = await rummoli_game(stack)
    for _ in range(40):
        aw = await drive_to_human_claim(manager, table)
        if aw is None:
            pytest.skip("no human claim in this game")
        user = table.seats[aw.seat].user_id
        cid = claim_button(table).custom_id
        await click(stack, user, cid)
        nxt = table.awaiting()
        if nxt is not None and nxt.phase == "claim" and nxt.seat == aw.seat:
            assert claim_button(table).custom_id != cid
            stacks = list(table.game.stacks)
            late = await click(stack, user, cid)
            assert late.calls[-1][1] == STALE_CLAIM
            assert list(table.game.stacks) == stacks and table.awaiting().phase == "claim"
            return
    pytest.skip("no back-to-back claims by one player in this game")


async def test_a_claim_at_the_deal_does_not_name_the_hidden_card_in_public(stack):
    manager = stack.manager
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:5", "strict_claims": True})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.start(C, ANN)
    table = manager.registry.get(C)
    for _ in range(5):
        aw = await drive_to_human_claim(manager, table)
        if aw is None:
            break
        if not table.game.r.michigan.played:  # right after the deal: the card is still in the hand
            from engine.textview import space_label

            public = [b for b in mat_components(table) if hasattr(b, "label")]
            space = aw.detail["space"]
            label = space_label(table.game.view(None), space)  # as players read it: "K♥"
            assert all(space not in b.label and label not in b.label and space not in b.custom_id for b in public), (
                public
            )
            assert claim_button(table).label == "Claim!"
            # The player's own hand view does name it.
            from bot.messages.outgoing import hand_message

            own = hand_message(table, aw.seat, table.game.view(aw.seat))
            assert any(f"Claim {label}" in getattr(c, "label", "") for c in own.components)
            return
        await click(stack, table.seats[aw.seat].user_id, claim_button(table).custom_id)
    pytest.skip("no human claim at a deal")
