"""A player's stats as a picture: their chips over their last games and their results per game.

Pure: drawn from plain data (the bot reads it from the database), never from a game. ``stats``:

- ``name``: the player's name;
- ``games``: their last finished games, oldest first, each ``{"game": name, "net": chips won or
  lost, "winner": bool}``, and ``"rating"``: their shown rating after it (absent or None: not rated);
- ``total_net``: their net over every game they finished (the line ends there);
- ``by_game``: per game of the family, ``{"game": name, "games": n, "wins": n, "net": chips}``.

The line is their net winnings over all their games as it stood after each of the last games;
each point is green after a game they won chips in, red after one they lost chips in. Their rating
after each game is a second, cyan line on a scale of its own (its last value labelled).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from .base import (
    BG,
    CYAN,
    GOLD,
    GREEN_UP,
    MUTED,
    PANEL,
    RED_DOWN,
    WHITE,
    Rendered,
    _,
    draw_text,
    encode,
    fit_font,
    font,
    in_view_language,
    ngettext,
    truncate,
)

WIDTH = 720
PAD = 18
CHART_TOP, CHART_H = 64, 200
LEFT = 86  # the chart's left edge (the axis labels are left of it)
ROW_H = 28


def running_totals(games: list[dict[str, Any]], total_net: int) -> list[int]:
    """The net over all games after each of ``games`` (oldest first), ending at ``total_net``."""
    out = []
    after = total_net
    for game in reversed(games):
        out.append(after)
        after -= int(game.get("net") or 0)
    return out[::-1]


LABEL_GAP = 18  # px between two of the chart's value labels (13 px type): closer ones would overlap


def axis_labels(low: int, high: int, y_of: Callable[[int], float]) -> list[tuple[int, float]]:
    """The values labelled on the chart's left (the lowest, zero, the highest) with their heights:
    zero always, an extreme only where it does not overlap a label already placed."""
    placed: list[tuple[int, float]] = []
    for value in sorted({low, 0, high}, key=lambda v: (v != 0, v)):
        y = y_of(value)
        if all(abs(y - other) >= LABEL_GAP for _, other in placed):
            placed.append((value, y))
    return sorted(placed, key=lambda p: p[1])


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def stats_alt(stats: dict[str, Any]) -> str:
    """The picture in words: the line's start, end, lowest and highest, and every game's results."""
    name = str(stats.get("name") or _("This player"))
    games = list(stats.get("games") or [])
    parts = []
    if len(games) == 1:
        points = running_totals(games, int(stats.get("total_net") or 0))
        if games[0].get("winner"):
            sentence = _("{name}'s net chips after their last game: {net}; they won it.")
        else:
            sentence = _("{name}'s net chips after their last game: {net}; they did not win it.")
        parts.append(sentence.format(name=name, net=signed(points[0])))
    elif games:
        points = running_totals(games, int(stats.get("total_net") or 0))
        wins = sum(1 for g in games if g.get("winner"))
        parts.append(
            _(
                "{name}'s net chips after each of the last {count} games: from {first} to {last} (lowest {lowest},"
                " highest {highest}); won {wins} of them."
            ).format(
                name=name,
                count=len(games),
                first=signed(points[0]),
                last=signed(points[-1]),
                lowest=signed(min(points)),
                highest=signed(max(points)),
                wins=wins,
            )
        )
    else:
        parts.append(_("{name} has no finished games yet.").format(name=name))
    if rating_sentence(games):
        parts.append(rating_sentence(games))
    families = [
        _("{game} {games}, {wins}, {net}").format(
            game=_(str(f["game"])),
            games=ngettext("{count} game", "{count} games", int(f["games"])).format(count=f["games"]),
            wins=ngettext("{count} win", "{count} wins", int(f["wins"])).format(count=f["wins"]),
            net=signed(int(f["net"])),
        )
        for f in stats.get("by_game") or []
    ]
    if families:
        parts.append(_("By game: {families}.").format(families="; ".join(families)))
    return " ".join(parts)[:1024]


def rating_points(games: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(index of the game, rating after it) of the games that were rated."""
    return [(i, int(g["rating"])) for i, g in enumerate(games) if g.get("rating") is not None]


def rating_sentence(games: list[dict[str, Any]]) -> str:
    points = rating_points(games)
    if not points:
        return ""
    if len(points) == 1:
        return _("Rating after the last rated game: {rating}.").format(rating=points[-1][1])
    return _("Rating over these games: from {first} to {last}.").format(first=points[0][1], last=points[-1][1])


def draw_rating_trend(draw: ImageDraw.ImageDraw, xs: list[float], games: list[dict[str, Any]], bottom: float) -> None:
    """The rating after each rated game, a cyan line scaled to its own range, its last value labelled."""
    points = rating_points(games)
    if not points:
        return
    low, high = min(r for _, r in points), max(r for _, r in points)
    span = max(high - low, 1)
    line = [(xs[i], bottom - 12 - (r - low) / span * (CHART_H - 24)) for i, r in points]
    if len(line) > 1:
        draw.line(line, fill=CYAN, width=2)
    for x, y in line:
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=CYAN)
    draw_text(
        draw,
        (WIDTH / 2, bottom + 18),
        _("rating (cyan line): {rating}").format(rating=points[-1][1]),
        font(13),
        CYAN,
        "mm",
    )


@in_view_language
def render_stats(stats: dict[str, Any]) -> Rendered:
    games = list(stats.get("games") or [])
    families = list(stats.get("by_game") or [])[:12]
    height = CHART_TOP + CHART_H + 56 + (ROW_H * len(families) + 30 if families else 0) + PAD
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    name = str(stats.get("name") or _("Player"))
    heading = ngettext(
        "{name} \u2014 net chips over the last game", "{name} \u2014 net chips over the last {count} games", len(games)
    )
    title_font, title = fit_font(heading.format(name=name, count=len(games)), WIDTH - 2 * PAD, 22, 14)
    draw_text(draw, (PAD, 16), title, title_font, GOLD, "la")
    f13, f16 = font(13), font(16)
    right, bottom = WIDTH - PAD - 10, CHART_TOP + CHART_H
    draw.rectangle((PAD, CHART_TOP - 10, WIDTH - PAD, bottom + 34), fill=PANEL)
    if not games:
        draw_text(draw, (WIDTH / 2, CHART_TOP + CHART_H / 2), _("No finished games yet"), f16, MUTED, "mm")
    else:
        points = running_totals(games, int(stats.get("total_net") or 0))
        low, high = min(points + [0]), max(points + [0])
        span = max(high - low, 1)

        def y_of(value: int) -> float:
            return bottom - (value - low) / span * CHART_H

        step = (right - LEFT) / max(len(points) - 1, 1)
        xs = [LEFT + i * step if len(points) > 1 else (LEFT + right) / 2 for i in range(len(points))]
        zero = y_of(0)
        draw.line((LEFT, zero, right, zero), fill=MUTED, width=1)
        for value, y in axis_labels(low, high, y_of):
            draw_text(draw, (LEFT - 8, y), signed(value), f13, MUTED, "rm")
        line = [(x, y_of(v)) for x, v in zip(xs, points)]
        if len(line) > 1:
            draw.line(line, fill=WHITE, width=3)
        for (x, y), game in zip(line, games):
            net = int(game.get("net") or 0)
            colour = GREEN_UP if net > 0 else RED_DOWN if net < 0 else MUTED
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour, outline=GOLD if game.get("winner") else colour)
        draw_rating_trend(draw, xs, games, bottom)
        draw_text(draw, (LEFT, bottom + 18), _("oldest"), f13, MUTED, "lm")
        draw_text(draw, (right, bottom + 18), _("newest"), f13, MUTED, "rm")
    if families:
        top = bottom + 56
        cols = {"game": PAD + 10, "games": 400, "wins": 480, "net": 580}
        for key, label in (("games", _("GAMES")), ("wins", _("WINS")), ("net", _("NET"))):
            draw_text(draw, (cols[key], top), label, f13, MUTED, "ra")
        draw_text(draw, (cols["game"], top), _("GAME"), f13, MUTED, "la")
        worst = max([abs(int(f["net"])) for f in families] + [1])
        for i, family in enumerate(families):
            y = top + 28 + i * ROW_H
            if i % 2 == 0:
                draw.rectangle((PAD, y - ROW_H / 2, WIDTH - PAD, y + ROW_H / 2 - 2), fill=PANEL)
            game_name = truncate(_(str(family["game"])), f16, cols["games"] - 60 - cols["game"])
            draw_text(draw, (cols["game"], y), game_name, f16, WHITE, "lm")
            draw_text(draw, (cols["games"], y), str(family["games"]), f16, WHITE, "rm")
            draw_text(draw, (cols["wins"], y), str(family["wins"]), f16, WHITE, "rm")
            net = int(family["net"])
            colour = GREEN_UP if net > 0 else RED_DOWN if net < 0 else MUTED
            draw_text(draw, (cols["net"], y), signed(net), f16, colour, "rm")
            lo, hi = cols["net"] + 20, WIDTH - PAD - 8
            middle, half = (lo + hi) // 2, (hi - lo) // 2
            bar = max(2, int(abs(net) / worst * half)) if net else 0
            if net:
                draw.rectangle(
                    (
                        min(middle, middle + bar * (1 if net > 0 else -1)),
                        y - 6,
                        max(middle, middle + bar * (1 if net > 0 else -1)),
                        y + 6,
                    ),
                    fill=colour,
                )
            draw.line((middle, y - 10, middle, y + 10), fill=MUTED)
    return Rendered(png=encode(img), alt=stats_alt(stats), width=WIDTH, height=height)
