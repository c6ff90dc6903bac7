"""The public pictures are uploaded in at most 256 colours: a third of the bytes, the same look."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

import images
from bot.discordio.render import compact_png, rendered
from bot.messages.outgoing import picture_view
from engine import Game
from engine.ai import autoplay


def mat_png() -> bytes:
    game = Game.new("tripoley", ["Alice", "Bob", "Carol", "Dave"], options={"game_end": "rounds:1"}, seed=3)
    steps = autoplay(game, rng=random.Random(1))
    for _ in range(12):
        next(steps)
    return images.render_mat(picture_view(game.view(None), "en")).png


def test_compact_mat_is_smaller_and_looks_the_same():
    png = mat_png()
    small = compact_png(png)
    assert len(small) * 2 < len(png)
    before, after = Image.open(io.BytesIO(png)).convert("RGB"), Image.open(io.BytesIO(small)).convert("RGB")
    assert before.size == after.size
    worst = max(ImageChops.difference(before, after).getextrema(), key=lambda band: band[1])[1]
    assert worst <= 48  # antialiased edges move a little; flat colours not at all
    assert compact_png(png) == small  # the same picture gives the same bytes


def test_only_public_pictures_are_compacted_and_other_bytes_pass_through():
    png = mat_png()
    assert rendered("mat", png)[0] == compact_png(png)
    assert rendered("hand", png)[0] == png
    assert compact_png(b"not a picture") == b"not a picture"


def test_the_mat_picture_marks_the_seat_to_act():
    """Whose turn it is reaches the picture (the seat is outlined and says TO ACT), not only the text."""
    game = Game.new("tripoley", ["Ann", "Bob", "Cat"], seed=4)
    list(game.next_deal())
    view = picture_view(game.view(None), "en")
    assert view["to_act"] is not None and view["to_act"] == game.awaiting().seat
    marked = images.render_mat(view)
    unmarked = images.render_mat({**view, "to_act": None})
    assert marked.png != unmarked.png
    seat = f"seat:{view['to_act']}"
    assert any(name == seat for name, *_ in marked.boxes)
