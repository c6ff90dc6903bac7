"""A tournament's rules without a database: balanced seating, who advances, the order and the prizes."""

from __future__ import annotations

import pytest

from bot.tournaments.model import (
    Entrant,
    StageTable,
    Tournament,
    advancing,
    final_order,
    first_field,
    prize_split,
    prizes,
    seat_stage,
    table_order,
    table_sizes,
)


def tournament(entrants: int, table_size: int = 4, advance: int = 2) -> Tournament:
    t = Tournament(
        id=1, guild_id=1, channel_id=1, host_id=1, preset="tripoley", buy_in=10, table_size=table_size, advance=advance
    )
    t.entrants = [Entrant(entry=i, user_id=100 + i, name=f"p{i}", paid=10) for i in range(1, entrants + 1)]
    return t


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [(4, 4, [4]), (5, 4, [3, 2]), (7, 4, [4, 3]), (9, 4, [3, 3, 3]), (10, 3, [3, 3, 2, 2]), (20, 9, [7, 7, 6])],
)
def test_tables_are_as_few_as_fit_and_their_sizes_differ_by_one_at_most(players, size, sizes):
    assert table_sizes(players, size) == sizes
    stage = seat_stage([f"e{i}" for i in range(players)], size)
    assert [len(t.seats) for t in stage] == sizes
    assert sorted(k for t in stage for k in t.seats) == sorted(f"e{i}" for i in range(players))


def test_the_seating_deals_round_the_tables_so_the_first_entrants_are_spread():
    stage = seat_stage(["e1", "e2", "e3", "e4", "e5", "e6"], 3)
    assert [t.seats for t in stage] == [["e1", "e3", "e5"], ["e2", "e4", "e6"]]


def test_ai_seats_fill_the_first_stage_only_where_allowed():
    assert first_field(5, 4, ai_fill=False) == 5
    assert first_field(5, 4, ai_fill=True) == 8
    assert first_field(4, 4, ai_fill=True) == 4


def test_a_tables_order_is_by_final_stack_a_tie_by_seat():
    assert table_order(["a", "b", "c", "d"], [10, 40, 10, 0]) == ["b", "a", "c", "d"]


def test_the_best_of_each_table_advance_passing_over_those_who_left():
    t = tournament(6, table_size=3, advance=2)
    stage = [
        StageTable(1, ["e1", "e3", "e5"], order=["e5", "e1", "e3"]),
        StageTable(2, ["e2", "e4", "e6"], order=["e2", "e6", "e4"]),
    ]
    assert advancing(t, stage) == ["e5", "e2", "e1", "e6"]
    t.entrants[4].left = True  # e5 forfeited
    assert advancing(t, stage) == ["e1", "e2", "e3", "e6"]


def test_every_stage_shrinks_even_when_a_table_is_smaller_than_the_advance():
    t = tournament(5, table_size=4, advance=3)
    stage = [
        StageTable(1, ["e1", "e3", "e5"], order=["e1", "e3", "e5"]),
        StageTable(2, ["e2", "e4"], order=["e4", "e2"]),
    ]
    assert advancing(t, stage) == ["e1", "e4", "e3"]


def test_the_final_order_is_the_finals_then_the_earlier_stages_then_the_leavers():
    t = tournament(6, table_size=3, advance=1)
    t.stages = [
        [
            StageTable(1, ["e1", "e3", "e5"], order=["e5", "e1", "e3"]),
            StageTable(2, ["e2", "e4", "e6"], order=["e2", "e6", "e4"]),
        ],
        [StageTable(1, ["e5", "e2"], order=["e2", "e5"])],
    ]
    t.entrants[0].left = True  # e1 left during the first stage
    assert final_order(t) == ["e2", "e5", "e6", "e3", "e4", "e1"]


@pytest.mark.parametrize(
    ("field", "split"), [(2, (100,)), (4, (100,)), (5, (65, 35)), (7, (65, 35)), (8, (50, 30, 20))]
)
def test_the_split_by_field_size_winner_takes_all_in_a_tiny_field(field, split):
    assert prize_split(field) == split
    assert sum(split) == 100


@pytest.mark.parametrize(
    ("pot", "field", "paid"), [(0, 6, 6), (1, 9, 9), (101, 9, 9), (999, 6, 6), (77, 9, 2), (50, 9, 0)]
)
def test_the_prizes_add_up_to_the_pot_the_remainder_to_the_best_place(pot, field, paid):
    amounts = prizes(pot, field, paid)
    assert sum(amounts) == pot
    assert amounts == sorted(amounts, reverse=True)
    assert len(amounts) <= max(paid, 1)


def test_a_split_of_101_among_three_gives_the_odd_chip_to_the_winner():
    assert prizes(101, 9, 9) == [51, 30, 20]
