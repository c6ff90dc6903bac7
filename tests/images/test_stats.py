"""The stats chart (images.stats): drawn for no game, one game and many, from plain data, with alt
text that tells the same in words."""

from __future__ import annotations

import io

from PIL import Image

from images import render_stats
from images.stats import running_totals


def stats(nets: list[int], families=None) -> dict:
    games = [{"game": "Tripoley (Cadaco)", "net": n, "winner": n > 20} for n in nets]
    by_game = (
        families
        if families is not None
        else (
            [{"game": "Tripoley (Cadaco)", "games": len(nets), "wins": sum(n > 20 for n in nets), "net": sum(nets)}]
            if nets
            else []
        )
    )
    return {"name": "Ann", "games": games, "total_net": sum(nets) + 40, "by_game": by_game}


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as picture:
        return picture.size


def test_the_line_is_the_net_over_all_games_after_each_of_the_last():
    # 40 chips won in earlier games, then +10, -30, +25: the line ends at the total.
    assert running_totals([{"net": 10}, {"net": -30}, {"net": 25}], 45) == [50, 20, 45]
    assert running_totals([], 12) == []


def test_no_game_yet():
    chart = render_stats(stats([]))
    assert size(chart.png) == (chart.width, chart.height)
    assert chart.alt == "Ann has no finished games yet."


def test_one_game():
    chart = render_stats(stats([-7]))
    assert size(chart.png) == (chart.width, chart.height)
    assert chart.alt == (
        "Ann's net chips after their last game: +33; they did not win it. By game: Tripoley (Cadaco) 1 game,"
        " 0 wins, -7."
    )


def test_many_games_and_games_of_the_family():
    nets = [10, -30, 25, 0, 60, -5, 45, -20, 15, 30, -10, 5, 80, -60, 20, 35, -15, 10, 0, 25]
    families = [
        {"game": "Tripoley (Cadaco)", "games": 12, "wins": 5, "net": 140},
        {"game": "Rummoli", "games": 7, "wins": 1, "net": -35},
        {"game": "Great Lakes", "games": 1, "wins": 0, "net": 0},
    ]
    chart = render_stats(stats(nets, families))
    few = render_stats(stats(nets, families[:1]))
    assert size(chart.png) == (chart.width, chart.height) and chart.height > few.height  # a row per game
    points = running_totals([{"net": n} for n in nets], sum(nets) + 40)
    assert chart.alt.startswith(
        f"Ann's net chips after each of the last 20 games: from {points[0]:+d} to {points[-1]:+d}"
        f" (lowest {min(points):+d}, highest {max(points):+d}); won 7 of them."
    )
    assert "By game: Tripoley (Cadaco) 12 games, 5 wins, +140; Rummoli 7 games, 1 win, -35; Great Lakes 1 game," in (
        chart.alt
    )
    assert len(chart.alt) <= 1024


def test_same_data_same_picture():
    assert render_stats(stats([5, -5, 12])).png == render_stats(stats([5, -5, 12])).png


def test_the_value_labels_never_overlap():
    """A line that barely rises above zero and falls far below: +3 would sit on 0's label, so only
    zero and the lowest are labelled; far apart, all three are."""
    from images.stats import CHART_H, CHART_TOP, LABEL_GAP, axis_labels

    def y_of_for(low, high):
        return lambda v: CHART_TOP + CHART_H - (v - low) / max(high - low, 1) * CHART_H

    close = axis_labels(-200, 3, y_of_for(-200, 3))
    assert [v for v, _ in close] == [0, -200]
    apart = axis_labels(-100, 120, y_of_for(-100, 120))
    assert [v for v, _ in apart] == [120, 0, -100]
    for labels in (close, apart):
        ys = [y for _, y in labels]
        assert all(b - a >= LABEL_GAP for a, b in zip(ys, ys[1:]))


def test_the_rating_after_each_rated_game_is_a_second_line_told_in_words():
    data = stats([10, -30, 25, 5])
    for game, rating in zip(data["games"], [1020, None, 1060, 1090]):  # the second game was not rated
        game["rating"] = rating
    chart = render_stats(data)
    assert "Rating over these games: from 1020 to 1090." in chart.alt
    plain = render_stats(stats([10, -30, 25, 5]))
    assert "Rating" not in plain.alt and chart.png != plain.png  # the cyan line is drawn only when rated
    one = stats([10])
    one["games"][0]["rating"] = 1025
    assert "Rating after the last rated game: 1025." in render_stats(one).alt


def test_the_rating_and_the_words_in_french_and_german():
    data = stats([10, -30, 25])
    for game, rating in zip(data["games"], [1020, 1040, 1060]):
        game["rating"] = rating
    french = render_stats({**data, "locale": "fr"})
    assert "Cote sur ces parties : de 1020 à 1060." in french.alt
    assert french.alt.startswith("Jetons nets de Ann après chacune des 3 dernières parties : de +50 à +45")
    assert "Par jeu : Tripoley (Cadaco) : 3 parties, 1 victoire, +5." in french.alt
    german = render_stats({**data, "locale": "de"})
    assert "Wertung über diese Spiele: von 1020 bis 1060." in german.alt
    assert "Nach Spiel: Tripoley (Cadaco): 3 Spiele, 1 Sieg, +5." in german.alt
    assert french.png != german.png != render_stats(data).png  # the labels drawn, the rating's among them
