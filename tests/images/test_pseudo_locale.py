"""The pseudo-locale (every label 40% longer, every letter accented) over every picture, at 2 to 20
seats: no text is drawn outside its box or the picture, and no two texts run into each other, as the
font's bounding boxes measure them. A French or German label fits where its pseudo-locale twin does."""

from __future__ import annotations

import itertools

import pytest
from image_views import MATS, make_view
from test_render import check_layout

from engine import PRESETS
from engine.language import pseudo
from images import base, hands, mat, render_hand, render_mat, render_showdown, render_stats, render_summary, stats
from images.base import rect_inside, rects_intersect

SEATS = range(2, 21)


@pytest.fixture
def drawn(monkeypatch):
    """Every text the renderers draw, with the box the font's bbox gives it."""
    texts: list[tuple[str, tuple]] = []

    def recording(draw, xy, text, fnt, *args, **kwargs):
        box = base.draw_text(draw, xy, text, fnt, *args, **kwargs)
        texts.append((text, tuple(box)))
        return box

    for module in (mat, hands, stats):
        monkeypatch.setattr(module, "draw_text", recording)
    return texts


def check_texts(rendered, texts) -> None:
    picture = (0, 0, rendered.width, rendered.height)
    assert texts
    for text, box in texts:
        assert rect_inside(box, picture), f"{text!r} at {box} outside the {rendered.width}x{rendered.height} picture"
    for (t1, b1), (t2, b2) in itertools.combinations(texts, 2):
        assert not rects_intersect(b1, b2), f"{t1!r} {b1} runs into {t2!r} {b2}"
    assert any(pseudo("a")[0] in text or "å" in text for text, _box in texts), "nothing was drawn pseudo-localised"


def cases():
    for key in MATS:
        for n in SEATS:
            if n <= PRESETS[key].max_players if key in PRESETS else n <= 20:
                yield pytest.param(key, n, id=f"{key}-{n}")


@pytest.mark.parametrize(("preset", "players"), list(cases()))
def test_the_mat(preset, players, drawn):
    view = make_view(preset, players) | {"locale": "qps"}
    rendered = render_mat(view)
    check_layout(rendered)
    check_texts(rendered, [t for t in drawn if t[0]])


@pytest.mark.parametrize("players", SEATS)
def test_the_hand_showdown_and_standings(players, drawn):
    view = make_view("tripoley", players, viewer=0, phase="poker-betting") | {"locale": "qps"}
    view["legal"] = ["check", "bet", "fold"]
    check_texts(render_hand(view), drawn)
    drawn.clear()
    view["poker"]["showdown"] = [
        {"seat": i, "cards": ["AS", "AD", "KC", "KD", "2H"], "hand": "four of a kind"} for i in range(players)
    ]
    view["poker"]["winners"] = [0, 1] if players > 2 else [0]
    view["events"] = [{"type": "payout", "space": "pot", "seat": 0, "amount": 1234, "reason": "poker"}]
    check_texts(render_showdown(view), drawn)
    drawn.clear()
    check_texts(render_summary(view), drawn)


@pytest.mark.parametrize("games", [0, 1, 30])
def test_the_stats_chart(games, drawn):
    nets = [(-1) ** i * 17 * i for i in range(games)]
    families = [{"game": preset.name, "games": 3, "wins": 1, "net": -120} for preset in PRESETS.values()]
    data = {"name": "Ann", "games": [{"game": "Rummoli", "net": n, "winner": n > 0} for n in nets]}
    data |= {"total_net": sum(nets), "by_game": families if games else [], "locale": "qps"}
    check_texts(render_stats(data), drawn)


@pytest.mark.parametrize(
    ("language", "king_of_hearts", "kitty", "pair", "status"),
    [
        ("en", "K♥", "Kitty", "four of a kind", "FOLDED"),
        ("fr", "R♥", "Cagnotte", "carré", "COUCHÉ"),
        ("de", "K♥", "Kasse", "Vierling", "AUSGESTIEGEN"),
    ],
)
def test_the_pictures_speak_the_views_language(language, king_of_hearts, kitty, pair, status):
    from images.common import space_label, status_text

    token = base.LANGUAGE.set(language)
    try:
        assert base.card_text("KH") == king_of_hearts
        assert space_label({"label": "Kitty"}) == kitty
        assert space_label({"label": "K-Q♥"}) == {"fr": "R-D♥", "de": "K-D♥"}.get(language, "K-Q♥")
        assert base.hand_text("four of a kind") == pair
        assert status_text("folded") == status
    finally:
        base.LANGUAGE.reset(token)
    english = make_view("rummoli", 4, viewer=0)
    localised = english | {"locale": language}
    same = language == "en"
    assert (render_mat(english).png == render_mat(localised).png) is same
    assert (render_hand(english).png == render_hand(localised).png) is same  # Q, J: D, V in French, D, B in German
