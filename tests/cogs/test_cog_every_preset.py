"""Every preset can be played to the end through the bot's own controls (buttons, selects,
amount modals) — no decision the engine asks for is missing from the UI — and everything it shows
on the way (labels, texts, log lines, alt text, refusals) is in players' words, no internal id."""

from __future__ import annotations

import re

import pytest

from bot.messages.components import SelectSpec, hand_components, mat_components
from bot.messages.outgoing import hand_message, table_message
from bot.messages.text import not_now
from cogs.tripoley import Tripoley
from engine import PRESETS, Game
from engine.options import Options
from images.hands import _standings, hand_alt, summary_alt
from images.mat import mat_alt
from tests.cogs.fakes import FakeInteraction, ephemeral_message, make_stack, public_message


def internal_ids() -> set[str]:
    """Space ids that differ from their label (``AH2``, ``k-q``, ``corner-AC``), phases, option names
    spelt with dashes (``bet-limit``; with underscores they are caught as such)."""
    ids = {f.replace("_", "-") for f in Options.__dataclass_fields__ if "_" in f}
    for key, preset in PRESETS.items():
        game = Game.new(key, ["a", "b", "c", "d"][: max(preset.min_players, 3)], seed=1)
        ids |= {
            sp["id"]
            for sp in game.view(None)["mat"]
            if sp["id"].lower() != sp["label"].lower() and not (sp["id"].isalpha() and sp["id"].islower())
        }
    return ids | {
        "poker-betting",
        "poker-choose",
        "spare-hand",
        "suit-bid",
        "name-suit",
        "michigan-lead",
        "michigan-play",
        "wanagan-pass",
        "wanagan-reveal",
        "corner-bet",
        "corner-cover",
    }


INTERNAL = re.compile(
    r"(?<![\w♣♦♥♠-])(?:" + "|".join(sorted(map(re.escape, internal_ids()), key=len, reverse=True)) + r")(?![\w-])"
    r"|\b[a-z]+_[a-z_]+\b"  # verbs and option names: pass_cards, bet_limit
    r"|(?<![\w♣♦♥♠])(?:10|[2-9TJQKA])[CDHS]\d?(?!\w)"  # card codes: AH, TH, AH2
)
BARE_VERBS = "keep|check|call|fold|swap|look|auction|pass|claim|cover|decline|bet|raise|bid|play|lead|choose"


def assert_human_words(texts: list[str], log: list[str], names: list[str]) -> None:
    """No internal id in ``texts``; every ``log`` line about a seat is a sentence ("Ann keeps…", not "Ann keep")."""
    for text in texts:
        found = INTERNAL.search(text or "")
        assert found is None, f"internal id {found.group(0)!r} shown in:\n{text}"
    bare = re.compile(rf"^(?:{'|'.join(map(re.escape, names))}) (?:{BARE_VERBS})\b")
    for line in log:
        assert bare.search(line) is None, f"not a sentence: {line!r}"


def shown(out) -> list[str]:
    """Every word a message shows: its text and its controls."""
    texts = [out.text]
    for spec in out.components:
        if isinstance(spec, SelectSpec):
            texts += [spec.placeholder, *(label for label, _ in spec.options)]
        else:
            texts.append(spec.label)
    return texts


G, C = 8, 800
ANN, BOB = 81, 82


def pick_control(table, seat, view):
    private = hand_components(table, seat, view)
    space = next((spec for spec in private if spec.custom_id.endswith(":pick.space")), None)
    if space is not None:  # Wanagan: the five cards are asked once a space is chosen
        assert isinstance(space, SelectSpec) and not space.defaults
        private = hand_components(table, seat, view, space.options[0][1])
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
        await ctl.on_component(
            FakeInteraction(BOB, C, G, client=stack, message=public_message()), "tripoley:1:0:join", []
        )
        await ctl.on_component(
            FakeInteraction(ANN, C, G, client=stack, message=public_message()), "tripoley:1:0:ai", []
        )
        go = FakeInteraction(ANN, C, G, client=stack, message=public_message())
        await ctl.on_component(go, "tripoley:1:0:start", [])
        assert go.calls.names() == ["defer"], go.calls
        table = stack.manager.registry.get_by_id(1)
        used = set()
        texts: list[str] = []
        for _ in range(3000):
            if table.status != "playing":
                break
            aw = table.awaiting()
            assert aw is not None, "with no pauses the table never waits between rounds"
            user = table.seats[aw.seat].user_id
            view = table.game.view(aw.seat)
            public = table.game.view(None)
            texts += shown(table_message(table)) + shown(hand_message(table, aw.seat, view))
            texts += [mat_alt(public), hand_alt(view, view.get("hand") or [], set()), not_now("_", aw.legal)]
            spec, action = pick_control(table, aw.seat, view)
            assert spec is not None, f"no control for {aw.phase} {aw.legal} {aw.detail}"
            used.add(action.split(".")[0] + "." + action.split(".")[1] if "." in action else action)
            it = FakeInteraction(user, C, G, client=stack, message=ephemeral_message())
            version = table.version
            if isinstance(spec, SelectSpec):
                values = [v for _, v in spec.options][: spec.min_values]
                await ctl.on_component(it, spec.custom_id, values)
            elif action.startswith("amt."):
                await ctl.on_component(it, spec.custom_id, [])
                modal = it.calls.last("send_modal")[2]["modal"]
                texts += [modal.title, modal.amount_label.text]
                it = FakeInteraction(user, C, G, client=stack, message=ephemeral_message())
                await ctl.on_amount(it, modal.button, str(modal.low))
            else:
                await ctl.on_component(it, spec.custom_id, [])
            first = it.calls[0]
            assert first[0] in ("edit_message", "defer"), f"{aw.phase} {action}: refused: {first[1]}"
            assert table.version != version or table.status != "playing"
        assert table.status == "finished", f"{preset} did not finish"
        texts += shown(table_message(table)) + [summary_alt(*_standings(table.game.view(None)))]
        texts += [c[3].text for c in stack.sink.calls if c[0] in ("post", "edit")]
        assert_human_words(texts + table.log, table.log, [seat.name for seat in table.seats])
        audit = await stack.bank.audit(G)
        assert audit.ok and audit.tables == 0
    finally:
        await stack.publisher.flush()
        await stack.db.close()
