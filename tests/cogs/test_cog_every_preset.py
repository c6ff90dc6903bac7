"""Every preset can be played to the end through the bot's own controls (buttons, selects,
amount modals) — no decision the engine asks for is missing from the UI."""

from __future__ import annotations

import pytest

from bot.components import SelectSpec, hand_components, mat_components
from cogs.tripoley import Tripoley
from engine import PRESETS
from tests.cogs.fakes import FakeInteraction, ephemeral_message, make_stack, public_message

G, C = 8, 800
ANN, BOB = 81, 82


def pick_control(table, seat, view):
    private = hand_components(table, seat, view)
    public = mat_components(table)
    for spec in private + public:
        action = spec.custom_id.split(":", 3)[3]
        if action in ("hand", "back", "pick.space"):
            continue
        return spec, action
    return None, None


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_preset_playable_through_ui(bot_settings, preset):
    stack = await make_stack(bot_settings)
    try:
        cog = Tripoley(stack)
        ctl = stack.controller
        start = FakeInteraction(ANN, C, G, client=stack)
        await cog.start.callback(cog, start, preset=preset, rounds=2)
        await ctl.on_component(FakeInteraction(BOB, C, G, client=stack, message=public_message()), 1, 0, "join", [])
        await ctl.on_component(FakeInteraction(ANN, C, G, client=stack, message=public_message()), 1, 0, "ai", [])
        go = FakeInteraction(ANN, C, G, client=stack, message=public_message())
        await ctl.on_component(go, 1, 0, "start", [])
        assert go.calls.names() == ["defer"], go.calls
        table = stack.manager.get_by_id(1)
        used = set()
        for _ in range(3000):
            if table.status != "playing":
                break
            aw = table.awaiting()
            assert aw is not None, "with no pauses the table never waits between rounds"
            user = table.seats[aw.seat].user_id
            view = table.game.view(aw.seat)
            spec, action = pick_control(table, aw.seat, view)
            assert spec is not None, f"no control for {aw.phase} {aw.legal} {aw.detail}"
            used.add(action.split(".")[0] + "." + action.split(".")[1] if "." in action else action)
            it = FakeInteraction(user, C, G, client=stack, message=ephemeral_message())
            version = table.version
            if isinstance(spec, SelectSpec):
                values = [v for _, v in spec.options][: spec.min_values]
                await ctl.on_component(it, table.id, table.round, action, values)
            elif action.startswith("amt."):
                await ctl.on_component(it, table.id, table.round, action, [])
                modal = it.calls.last("send_modal")[2]["modal"]
                it = FakeInteraction(user, C, G, client=stack, message=ephemeral_message())
                await ctl.on_amount(it, table.id, table.round, modal.verb, str(modal.low))
            else:
                await ctl.on_component(it, table.id, table.round, action, [])
            first = it.calls[0]
            assert first[0] in ("edit_message", "defer"), f"{aw.phase} {action}: refused: {first[1]}"
            assert table.version != version or table.status != "playing"
        assert table.status == "finished", f"{preset} did not finish"
        audit = await stack.bank.audit(G)
        assert audit.ok and audit.tables == 0
    finally:
        await stack.publisher.flush()
        await stack.db.close()
