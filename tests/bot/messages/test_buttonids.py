"""The button-id codec (bot.messages.buttonids): every id it writes reads back as the same button, ids of
messages posted before (the same wire format) still read, and unreadable ids are refused readably."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.messages import buttonids as B

ids = st.integers(min_value=0, max_value=10**12)
rounds = st.integers(min_value=0, max_value=10**4)
part = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=1, max_size=12)
maybe = st.none() | part

buttons = st.one_of(
    st.builds(B.LobbyButton, ids, st.sampled_from(B.LOBBY_VERBS)),
    st.builds(B.LobbyButton, ids, st.just("ai"), st.sampled_from(B.AI_LEVELS)),
    st.builds(B.HouseRuleMenu, ids),
    st.builds(B.RematchButton, ids),
    st.builds(B.GameLogButton, ids),
    st.builds(B.GameLogButton, ids, st.integers(min_value=0, max_value=999), st.booleans()),
    st.builds(B.ReplayButton, ids),
    st.builds(B.SpaceRulesButton, ids, rounds),
    st.builds(B.SpaceRulesMenu, ids, rounds),
    st.builds(B.VoteButton, ids, rounds, st.integers(min_value=0, max_value=19)),
    st.builds(B.KickButton, ids, st.integers(min_value=0, max_value=2**64)),
    st.builds(B.SeatButton, ids, rounds, st.sampled_from(B.SEAT_VERBS)),
    st.builds(B.LogButton, ids, rounds),
    st.builds(B.LogButton, ids, rounds, st.integers(min_value=0, max_value=999), st.booleans()),
    st.builds(B.MoveButton, ids, rounds, part, maybe),
    st.builds(B.AmountButton, ids, rounds, part, maybe),
    st.builds(B.SuitButton, ids, rounds, part),
    st.builds(B.LeadButton, ids, rounds, part),
    st.builds(B.CardMenu, ids, rounds, st.sampled_from(B.CARD_MENUS), maybe),
    st.builds(B.PageButton, part, st.lists(part, min_size=1, max_size=3).map(".".join), st.integers(0, 10**6)),
    st.builds(B.ConfirmButton, part),
)


@given(buttons)
def test_every_id_reads_back_as_its_button(button):
    cid = B.encode(button)
    assert len(cid) <= 100
    assert B.decode(cid) == button


@given(st.builds(B.AmountButton, ids, rounds, part, maybe))
def test_an_amount_form_carries_its_button(button):
    assert B.decode_form(B.encode_form(button)) == button


@pytest.mark.parametrize(
    ("cid", "button"),
    [
        ("tripoley:12:0:join", B.LobbyButton(12, "join")),
        ("tripoley:12:0:ai.hard", B.LobbyButton(12, "ai", "hard")),
        ("tripoley:12:0:pick.house", B.HouseRuleMenu(12)),
        ("tripoley:12:0:rematch", B.RematchButton(12)),
        ("tripoley:12:0:replay", B.ReplayButton(12)),
        ("tripoley:12:0:gamelog", B.GameLogButton(12)),
        ("tripoley:12:0:gamelog.2.next", B.GameLogButton(12, 2, newer=True)),
        ("tripoley:12:3:spaces", B.SpaceRulesButton(12, 3)),
        ("tripoley:12:3:pick.spacerule", B.SpaceRulesMenu(12, 3)),
        ("tripoley:12:3:vote.4", B.VoteButton(12, 3, 4)),
        ("tripoley:12:0:kick.123456789012345678", B.KickButton(12, 123456789012345678)),
        ("tripoley:12:3:hand", B.SeatButton(12, 3, "hand")),
        ("tripoley:12:3:log", B.LogButton(12, 3)),
        ("tripoley:12:3:log.2.next", B.LogButton(12, 3, 2, newer=True)),
        ("tripoley:12:3:do.check", B.MoveButton(12, 3, "check")),
        ("tripoley:12:3:do.claim.41", B.MoveButton(12, 3, "claim", "41")),
        ("tripoley:12:3:amt.corner_bet.AS", B.AmountButton(12, 3, "corner_bet", "AS")),
        ("tripoley:12:3:suit.H", B.SuitButton(12, 3, "H")),
        ("tripoley:12:3:lead.10H", B.LeadButton(12, 3, "10H")),
        ("tripoley:12:3:pick.reveal.full-house", B.CardMenu(12, 3, "reveal", "full-house")),
        ("tripoley:0:0:page.rules.table-7.1", B.PageButton("rules", "table-7", 1)),
        ("tripoley:0:0:page.replay.game.15", B.PageButton("replay", "game", 15)),
        ("tripoley:0:0:confirm.reset", B.ConfirmButton("reset")),
        ("tripoley-modal:7:3:raise", None),
    ],
)
def test_ids_already_posted_still_read(cid, button):
    """The wire format is the one messages posted before the codec carry."""
    if button is None:
        assert B.decode_form(cid) == B.AmountButton(7, 3, "raise")
    else:
        assert B.decode(cid) == button
        assert B.encode(button) == cid


@pytest.mark.parametrize(
    ("cid", "menu"),
    [("tripoley:1:2:fly", False), ("tripoley:1:2:pick.juggle", True), ("other:1:2:join", False), ("", False)],
)
def test_unreadable_ids_are_refused_readably(cid, menu):
    with pytest.raises(B.BadButtonId, match="unreadable button id") as raised:
        B.decode(cid)
    assert raised.value.menu is menu


def test_bad_parts_are_refused_when_building():
    with pytest.raises(ValueError, match="letters, digits"):
        B.encode(B.MoveButton(1, 1, "claim", "a.b"))
    with pytest.raises(ValueError, match="longer than 100"):
        B.encode(B.ConfirmButton("x" * 100))
    assert B.decode_form("tripoley-modal:x:1:bet") is None


hands = st.lists(st.sampled_from(["QH", "AD", "9C", "TS", "2H"]), max_size=25)


@given(hands)
def test_card_values_name_every_physical_card_once_and_read_back_as_its_code(cards):
    values = B.card_values(cards)
    assert len(set(values)) == len(values) == len(cards)
    assert all(len(v) <= 100 for v in values)
    assert B.card_values(cards) == values  # the same hand, the same values
    assert B.read_card_values(values, cards) == cards
    assert [B.copy_number(v) for v in values] == [cards[: i + 1].count(c) for i, c in enumerate(cards)]


def test_a_second_copy_has_a_value_of_its_own():
    assert B.card_values(["QH", "AD", "QH", "QH"]) == ["QH", "AD", "QH.2", "QH.3"]
    assert B.read_card_values(["QH.2", "QH"], ["QH", "AD", "QH"]) == ["QH", "QH"]


@pytest.mark.parametrize(
    "values",
    [
        ["QH.2"],  # the hand holds one QH now (the menu was shown before it changed)
        ["KS"],  # no such card in the hand
        ["QH", "QH"],  # one copy chosen twice (forged)
        ["QH.1"],  # the first copy is written without a number
        ["QH.x"],
        [""],
    ],
)
def test_a_choice_that_names_no_copy_of_the_hand_is_refused(values):
    with pytest.raises(B.BadCardValue):
        B.read_card_values(values, ["QH", "AD"])
