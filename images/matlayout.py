"""Where things go on the mat: its size for a number of seats, the seats' boxes, the board's and its
spaces' tiles (images.mat draws into them)."""

from __future__ import annotations

import math
from typing import NamedTuple

from .shapes import Rect

W = 1000  # every mat is this wide; up to RING_MAX seats it is RING_H tall, more seats make it taller
RING_H = 700
M = 8  # outer margin
G = 8  # gap between seats / spaces

TILE_W, TILE_H = 124, 100
CENTER_TILE_W, CENTER_TILE_H = 168, 108

# Seats are drawn for a phone, where Discord shows the picture about 400 px wide: their text is
# condensed bold at SEAT_FONT px, whose capitals and digits are 23 px tall (9.2 px at 400 wide).
SEAT_FONT = 31
SEAT_H = 74
SEAT_MAX_W = 400
SEAT_PAD = 10
RING_MAX = 6  # up to 3 seats above the board and 3 below; from 7 seats on, a table under it
TABLE_COLS = 3
TABLE_BOARD_H = 500


# ----------------------------------------------------------------- layout


class Layout(NamedTuple):
    size: tuple[int, int]
    seats: list[tuple[int, int, int, int]]  # in seat order
    board: tuple[int, int, int, int]


def _row(count: int, y: int, width: int) -> list[tuple[int, int, int, int]]:
    """``count`` seat rects of ``width`` centred in equal shares of the picture's width."""
    span = W - 2 * M
    xs = [int(round(M + (i + 0.5) * span / count - width / 2)) for i in range(count)]
    return [(x, y, x + width, y + SEAT_H) for x in xs]


def mat_layout(n: int) -> Layout:
    """Where the seats and the board go for ``n`` seats.

    Up to RING_MAX seats ring the board, clockwise from seat 0 at the bottom right: the bottom row
    right to left, then the top row left to right. Larger tables get a seat table under the board,
    TABLE_COLS to a row in seat order (the order of play), so that every seat keeps room for its
    name and the large type instead of shrinking with the count."""
    n = max(1, n)
    if n <= RING_MAX:
        bottom = math.ceil(n / 2)
        width = int(min(SEAT_MAX_W, (W - 2 * M - (bottom - 1) * G) / bottom))
        seats = _row(bottom, RING_H - M - SEAT_H, width)[::-1] + _row(n - bottom, M, width)
        board = (M, M + SEAT_H + G, W - M, RING_H - M - SEAT_H - G)
        return Layout((W, RING_H), seats, board)
    width = int((W - 2 * M - (TABLE_COLS - 1) * G) / TABLE_COLS)
    board = (M, M, W - M, M + TABLE_BOARD_H)
    rows = math.ceil(n / TABLE_COLS)
    seats = []
    for row in range(rows):
        seats += _row(TABLE_COLS, board[3] + G + row * (SEAT_H + G), width)
    height = board[3] + G + rows * (SEAT_H + G) - G + M
    return Layout((W, height), seats[:n], board)


def spread(count: int, lo: float, hi: float, size: float) -> list[int]:
    """``count`` positions of width ``size`` spread evenly between lo and hi."""
    if count <= 0:
        return []
    span = hi - lo
    return [int(round(lo + (i + 0.5) * span / count - size / 2)) for i in range(count)]


def tile_rects(board: Rect, n_ring: int, corners: int) -> tuple[list[Rect], list[Rect], Rect, tuple[int, int]]:
    """Rects of the ring spaces (clockwise from top-left), the corners and the centre area."""
    pad = 12
    fx0, fy0, fx1, fy1 = board[0] + pad, board[1] + pad, board[2] - pad, board[3] - pad
    tw, th = TILE_W, TILE_H
    for _attempt in range(12):
        fw, fh = fx1 - fx0, fy1 - fy0
        row_cap = (fw + G) // (tw + G) - (2 if corners else 0)
        side_cap = max(0, (fh - 2 * th - 2 * G + G) // (th + G))
        horiz, vert = fw, max(1, fh - 2 * th)
        sides = min(side_cap, round(n_ring * vert / (2 * (horiz + vert))))
        while True:
            rest = n_ring - 2 * sides
            top = math.ceil(rest / 2)
            if top <= row_cap or sides >= side_cap:
                break
            sides += 1
        rest = max(0, n_ring - 2 * sides)
        top = math.ceil(rest / 2)
        bottom = rest - top
        if top <= row_cap and 2 * sides <= n_ring + 1:
            break
        tw, th = int(tw * 0.92), int(th * 0.92)  # shrink until it fits
    left = sides
    right = sides
    if 2 * sides > n_ring:  # odd: one side gets one less
        right = n_ring - left
    # rows: corners take the ends
    if corners:
        inner_x0, inner_x1 = fx0 + tw + G, fx1 - tw - G
    else:
        inner_x0, inner_x1 = fx0, fx1
    top_xs = spread(top, inner_x0, inner_x1, tw)
    bot_xs = spread(bottom, inner_x0, inner_x1, tw)
    col_y0, col_y1 = fy0 + th + G, fy1 - th - G
    left_ys = spread(left, col_y0, col_y1, th)
    right_ys = spread(right, col_y0, col_y1, th)
    ring = (
        [(x, fy0, x + tw, fy0 + th) for x in top_xs]
        + [(fx1 - tw, y, fx1, y + th) for y in right_ys]
        + [(x, fy1 - th, x + tw, fy1) for x in reversed(bot_xs)]
        + [(fx0, y, fx0 + tw, y + th) for y in reversed(left_ys)]
    )
    corner_rects = []
    if corners:
        corner_rects = [
            (fx0, fy0, fx0 + tw, fy0 + th),
            (fx1 - tw, fy0, fx1, fy0 + th),
            (fx1 - tw, fy1 - th, fx1, fy1),
            (fx0, fy1 - th, fx0 + tw, fy1),
        ][:corners]
    cx0 = fx0 + (tw + G if (left or right or corners) else 0)
    cx1 = fx1 - (tw + G if (left or right or corners) else 0)
    center = (cx0, fy0 + th + G, cx1, fy1 - th - G)
    return ring, corner_rects, center, (tw, th)
