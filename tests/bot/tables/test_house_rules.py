"""House rules in the lobby: the host switches the preset's options before the start; they are
stored with the table (a restart keeps them), the game plays with them, and the lobby, the rule
pages and the history show them."""

from __future__ import annotations

import pytest

from bot import errors
from bot.messages.components import lobby_components
from bot.messages.rules import pages_for
from bot.messages.tabletext import lobby_text
from tests.bot.tables.test_manager import ANN, BOB, C, G, lobby


async def test_host_switches_a_house_rule_and_the_game_plays_with_it(manager, clock):
    table = await lobby(manager, ai=1)
    update = await manager.lobby.set_house_rule(C, ANN, "paycards", "play")
    assert update.message == "House rule set: Pay cards: when played (Cadaco variation 1)."
    assert table.options["paycards"] == "play" and manager.updates[-1].kind == "lobby"
    text = lobby_text(table, table.preset_info)
    assert "Pay cards: **when played (Cadaco variation 1)**" in text
    assert "Changed from the printed game: Pay cards: when played (Cadaco variation 1)" in text
    assert "House rule: Pay cards: when played (Cadaco variation 1)." in table.log
    await manager.lobby.start(C, ANN)
    assert table.game.options.paycards == "play"
    assert pages_for(table.preset, table.options)[0].startswith(
        "**House rules at this table**: Pay cards: when played (Cadaco variation 1)"
    )


async def test_back_to_the_printed_value_drops_the_override(manager):
    table = await lobby(manager, ai=1)
    await manager.lobby.set_house_rule(C, ANN, "strict_claims", "true")
    assert table.options["strict_claims"] is True
    await manager.lobby.set_house_rule(C, ANN, "strict_claims", "false")
    assert "strict_claims" not in table.options
    assert "Played as printed." not in lobby_text(table, table.preset_info)  # the game_end of the lobby differs
    assert "Changed from the printed game: Game end: after 2 rounds" in lobby_text(table, table.preset_info)


async def test_only_the_host_only_in_the_lobby_only_offered_rules(manager, clock):
    table = await lobby(manager, ai=1)
    with pytest.raises(errors.NotAllowed, match="HOST_ONLY_RULES"):
        await manager.lobby.set_house_rule(C, BOB, "paycards", "play")
    for name, value in (("paycards", "sometimes"), ("bet_limit", "5"), ("start_stack", "1000000"), ("", "")):
        with pytest.raises(errors.TripoleyError, match="RULE_NOT_OFFERED"):
            await manager.lobby.set_house_rule(C, ANN, name, value)
    assert table.options == {"game_end": "rounds:2"}
    await manager.lobby.start(C, ANN)
    with pytest.raises(errors.WrongPhase, match="^STARTED$"):
        await manager.lobby.set_house_rule(C, ANN, "paycards", "play")
    assert table.game.options.paycards == "deal"


async def test_house_rules_survive_a_restart(make_manager):
    first = make_manager()
    await lobby(first, ai=1)
    await first.lobby.set_house_rule(C, ANN, "endgame", "michigan-interests")
    [resumed] = await make_manager().timers.resume()
    assert resumed.status == "lobby" and resumed.options["endgame"] == "michigan-interests"


async def test_the_lobby_menu_lists_the_other_values_with_their_explanation(manager):
    table = await lobby(manager, ai=1)
    [menu] = [c for c in lobby_components(table) if c.custom_id.endswith(":pick.house")]
    values = [value for _, value in menu.options]
    assert "paycards=play" in values and "paycards=deal" not in values  # the value in force is not offered
    assert "strict_claims=true" in values and "game_end=elimination" in values
    assert all(len(label) <= 100 for label, _ in menu.options)
    assert len(menu.descriptions) == len(menu.options) and all(0 < len(d) <= 100 for d in menu.descriptions)
    await manager.lobby.set_house_rule(C, ANN, "paycards", "play")
    [menu] = [c for c in lobby_components(table) if c.custom_id.endswith(":pick.house")]
    assert "paycards=deal" in [value for _, value in menu.options]


async def test_history_names_the_house_rules(manager, clock):
    table = await lobby(manager, ai=1)
    await manager.lobby.set_house_rule(C, ANN, "paycards", "play")
    await manager.lobby.start(C, ANN)
    while table.status == "playing":
        await manager.play.stop(C, ANN, can_manage=True)
    [game] = await manager.store.history(G)
    assert "Pay cards: when played (Cadaco variation 1)" in game["result"]["house_rules"]
