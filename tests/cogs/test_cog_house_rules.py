"""The lobby's house-rule menu through the controller, and /tripoley rules at a table."""

from __future__ import annotations

from tests.cogs.fakes import public_message
from tests.cogs.test_cog_commands import ANN, BOB, C, cog, interaction  # noqa: F401 (cog is a fixture)


async def test_house_rule_menu_host_only_and_rules_at_the_table(stack, cog):  # noqa: F811 (pytest passes the imported fixture)
    await cog.start.callback(cog, interaction(stack), preset="rummoli", rounds=1)
    await stack.controller.on_component(
        interaction(stack, BOB, name="bob", message=public_message()), "tripoley:1:0:join", []
    )
    refused = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(refused, "tripoley:1:0:pick.house", ["run=6-7-8"])
    assert refused.calls[0][2]["ephemeral"] and "Only the host" in refused.calls[0][1]
    chosen = interaction(stack, ANN, message=public_message())
    await stack.controller.on_component(chosen, "tripoley:1:0:pick.house", ["run=6-7-8"])
    assert chosen.calls[0][2]["ephemeral"] and chosen.calls[0][1] == "House rule set: Run space: 6-7-8."
    table = stack.manager.registry.get(C)
    assert table.options["run"] == "6-7-8"

    rules = interaction(stack, BOB)
    await cog.rules.callback(cog, rules, None)
    embed = rules.calls[0][2]["embed"]
    assert embed.description.startswith("**House rules at this table**:") and "Run space: 6-7-8" in embed.description
    assert "**6-7-8** — Whoever plays the 8 right after" in embed.description
    next_id = rules.calls[0][2]["view"].children[-1].custom_id
    assert next_id == f"tripoley:0:0:page.rules.table-{table.id}.1"
    page = interaction(stack, BOB, message=public_message())
    await stack.controller.on_component(page, next_id, [])
    assert page.calls[0][0] == "edit_message" and "Page 2/" in page.calls[0][2]["embed"].footer.text

    await stack.controller.on_component(interaction(stack, ANN, message=public_message()), "tripoley:1:0:start", [])
    assert table.game.options.run == "6-7-8"
    late = interaction(stack, ANN, message=public_message())
    await stack.controller.on_component(late, "tripoley:1:0:pick.house", ["run=8-9-10"])
    assert late.calls[0][2]["ephemeral"] and "has started" in late.calls[0][1]

    await cog.stop.callback(cog, interaction(stack, ANN))
    history = interaction(stack, BOB)
    await cog.history.callback(cog, history)
    assert "house rules: Game end: after 1 round; Run space: 6-7-8" in history.calls[0][2]["embed"].description
