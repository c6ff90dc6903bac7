"""Card menus of a hand dealt from several decks: each physical card is an option of its own (Discord
refuses repeated option values), the label says which copy it is, the suggested best five is
preselected as five distinct options, and repeated combinations or leads are one control."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discordio.ui import build_view
from bot.messages import buttonids as B
from bot.messages.components import ButtonSpec, SelectSpec, hand_components
from tests.contract import check_components

POOL = ["9C", "9C", "KH", "AD", "AD", "2S", "QH"]
BEST = ["AD", "AD", "9C", "9C", "KH"]


def table() -> SimpleNamespace:
    return SimpleNamespace(id=4, round=2, awaiting=lambda: None)


def menus(view: dict, choice: str | None = None) -> list:
    comps = hand_components(table(), 0, view, choice)
    check_components(build_view(comps).to_components(), "hand view")
    return comps


def select(comps: list, kind: str) -> SelectSpec:
    return next(c for c in comps if isinstance(c, SelectSpec) and c.custom_id.split(":")[3].startswith(f"pick.{kind}"))


def test_the_poker_five_offers_each_copy_and_preselects_the_best_five_as_distinct_options():
    comps = menus({"legal": ["choose"], "detail": {"cards": POOL, "best": BEST}, "hand": POOL})
    menu = select(comps, "choose")
    labels = dict((value, label) for label, value in menu.options)
    assert list(labels) == ["9C", "9C.2", "KH", "AD", "AD.2", "2S", "QH"]
    assert labels["9C"] == "9♣ (copy 1 of 2)" and labels["9C.2"] == "9♣ (copy 2 of 2)" and labels["KH"] == "K♥"
    assert (menu.min_values, menu.max_values) == (5, 5)
    assert sorted(menu.defaults) == sorted(["AD", "AD.2", "9C", "9C.2", "KH"])
    assert sorted(B.read_card_values(list(menu.defaults), POOL)) == sorted(BEST)  # what submitting it plays
    payload = build_view([menu]).to_components()[0]["components"][0]
    assert sum(1 for o in payload["options"] if o.get("default")) == 5


def test_wanagans_pass_and_reveal_menus_offer_each_copy_once():
    passing = menus({"legal": ["pass_cards"], "detail": {"cards": POOL, "count": 3, "direction": "left"}})
    menu = select(passing, "pass_cards")
    assert [v for _, v in menu.options] == B.card_values(POOL) and menu.max_values == 3
    assert B.read_card_values(["AD", "AD.2", "QH"], POOL) == ["AD", "AD", "QH"]  # both copies may be passed
    view = {
        "legal": ["reveal"],
        "detail": {"cards": POOL, "spaces": ["one-pair", "flush"]},
        "mat": [{"id": "one-pair", "label": "One pair"}, {"id": "flush", "label": "Flush"}],
    }
    assert not [c for c in menus(view) if isinstance(c, SelectSpec) and ":pick.reveal" in c.custom_id]  # space first
    reveal = select(menus(view, choice="flush"), "reveal")
    assert [v for _, v in reveal.options] == B.card_values(POOL) and reveal.max_values == 5


def test_two_identical_combinations_from_two_decks_are_one_option():
    combo = [["8H", "8H", "4C", "4C"], ["8H", "8H", "4C", "4C"], ["8H", "8D", "4C", "4C"]]
    comps = menus({"legal": ["full_house", "play"], "detail": {"full_house": combo, "card": "8H"}, "hand": POOL})
    assert [v for _, v in select(comps, "full_house").options] == ["8H-8H-4C-4C", "8H-8D-4C-4C"]


def test_a_card_to_lead_twice_over_is_one_button_or_option():
    few = menus({"legal": ["lead"], "detail": {"cards": ["2S", "2S", "3H"]}, "hand": POOL})
    leads = [c.label for c in few if isinstance(c, ButtonSpec)]
    assert leads == ["Lead 2♠", "Lead 3♥"]
    many = ["2S", "2S", "3H", "4D", "5C", "6S", "7H", "7H"]
    menu = select(menus({"legal": ["lead"], "detail": {"cards": many}, "hand": POOL}), "lead")
    assert [v for _, v in menu.options] == ["2S", "3H", "4D", "5C", "6S", "7H"]
