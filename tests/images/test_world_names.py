"""Every name drawn: real-world nicknames (emoji, CJK, Arabic, Hebrew, Devanagari, Thai, Cyrillic,
styled maths letters, zalgo, ZWJ sequences, very long names) come out as glyphs, never as .notdef
boxes, at every table size; told apart; in visual order; "Seat N" when no font has a character."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw
from test_render import check_layout

from engine import Game
from images import fonts, render_mat, render_summary
from images.base import ASSETS, FONT_FILES, draw_text, fit_name, font, measure, text_width, truncate
from images.common import seat_name
from images.samples import WORLD_NAMES

PRIMARIES = [str(ASSETS / f) for f in FONT_FILES.values()]
CACHED = [fonts.fallback_faces, fonts.runs, fonts._plain, fonts.drawable, fonts.run_width, fonts._bitmap_run]


def notdef_free(text: str, primary: str) -> bool:
    """Each character of each run drawn differs from its font's .notdef drawing (checked here with
    Pillow directly, not through the module's coverage cache)."""
    for run in fonts.runs(text, primary):
        fnt = fonts.load(run.face, 20)
        mode = "RGBA" if run.face.bitmap else "L"
        box = fnt.getmask(fonts.NOTDEF_PROBE, mode=mode)
        for ch in run.text:
            m = fnt.getmask(ch, mode=mode)
            if run.face.bitmap:
                same = m.size == box.size and m.getbbox() == box.getbbox()
            else:
                same = m.size == box.size and bytes(m) == bytes(box)
            if same:
                return False
    return True


@pytest.mark.parametrize("name", WORLD_NAMES)
@pytest.mark.parametrize("primary", PRIMARIES, ids=list(FONT_FILES))
def test_no_glyph_of_a_world_name_is_missing(name, primary):
    assert fonts.drawable(name, primary)
    assert notdef_free(name, primary), [(r.text, r.face.path) for r in fonts.runs(name, primary)]
    drawn = "".join(r.text for r in fonts.runs(name, primary))
    assert len(drawn) >= len(name.replace("\u200d", "").replace("\ufe0f", "")) // 2  # not silently emptied


def test_dejavu_is_used_first_and_the_fallback_only_for_what_it_lacks():
    primary = PRIMARIES[0]
    (only,) = fonts.runs("Дмитрий", primary)
    assert only.face.path == primary
    fire, mike, fire2 = fonts.runs("\U0001f525Mike\U0001f525", primary)
    assert (mike.text, mike.face.path) == ("Mike", primary)
    assert fire.face.emoji and fire2.face.emoji
    (han,) = fonts.runs("\u674e\u5c0f\u9f8d", primary)
    assert "CJK" in han.face.path
    suits = fonts.runs("A\u2665", primary)  # a suit stays DejaVu's (coloured by draw_text)
    assert all(r.face.path == primary for r in suits)


def test_a_styled_maths_name_is_drawn_in_plain_letters_when_no_maths_font_is_there():
    text = "".join(r.text for r in fonts.runs("\U0001d4dc\U0001d4f2\U0001d4f4\U0001d4ee", PRIMARIES[1]))
    maths = any("Math" in f.path for f in fonts.fallback_faces())
    assert text == ("\U0001d4dc\U0001d4f2\U0001d4f4\U0001d4ee" if maths else "Mike")


def test_right_to_left_runs_come_in_visual_order():
    primary = PRIMARIES[1]
    hebrew = "\u05d3\u05d5\u05d3"
    ltr_first = fonts.runs("Mike " + hebrew, primary)
    assert [r.rtl for r in ltr_first] == [False, True] and ltr_first[1].text.strip() == hebrew
    # A right-to-left name with a Latin word: the Latin word is drawn on the left.
    rtl_first = fonts.runs(hebrew + " Mike", primary)
    assert [r.rtl for r in rtl_first] == [False, True] and rtl_first[0].text == "Mike"
    # An emoji between two Arabic words stays between them (a neutral takes its neighbours' direction).
    arabic = fonts.runs("\u0639\u0644\u064a \U0001f451 \u0645\u062d\u0645\u062f", primary)
    assert [r.text.strip() for r in arabic] == ["\u0645\u062d\u0645\u062f", "\U0001f451", "\u0639\u0644\u064a"]


def test_without_raqm_a_right_to_left_run_is_reversed(monkeypatch):
    monkeypatch.setattr(fonts, "RAQM", False)
    for cached in (fonts.runs, fonts.run_width):
        cached.cache_clear()
    try:
        (run,) = fonts.runs("\u05d3\u05d5\u05d3 \u05db\u05d4\u05df", PRIMARIES[1])
        assert run.text == "\u05df\u05d4\u05db \u05d3\u05d5\u05d3"
        # a mark stays after its letter
        (marked,) = fonts.runs("\u05d1\u05bc\u05d0", PRIMARIES[1])
        assert marked.text == "\u05d0\u05d1\u05bc"
    finally:
        monkeypatch.undo()
        for cached in (fonts.runs, fonts.run_width):
            cached.cache_clear()


def ink(name: str) -> bytes:
    img = Image.new("L", (700, 60), 0)
    draw_text(ImageDraw.Draw(img), (5, 30), name, font(28, "cond"), 255, "lm")
    return img.tobytes()


def test_world_names_are_told_apart():
    drawings = {name: ink(name) for name in WORLD_NAMES}
    for a, b in itertools.combinations(WORLD_NAMES, 2):
        assert drawings[a] != drawings[b], (a, b)
    assert ink("\U0001f525Mike\U0001f525") != ink("Mike")  # the emoji is drawn, not dropped


def test_measures_and_cuts_use_the_fallback():
    f = font(24, "cond")
    han = "\u674e" * 30
    assert text_width(han, f) > f.getlength("M") * 20  # 30 wide glyphs, not 30 narrow boxes of DejaVu's
    cut = truncate(han, f, 200)
    assert cut.endswith("\u2026") and 150 < text_width(cut, f) <= 200
    long = WORLD_NAMES[11]
    fitted = fit_name(long + " (Hard AI)", 260, measure(f))
    assert fitted.endswith("\u2026 (Hard AI)") and text_width(fitted, f) <= 260


def test_a_name_no_font_can_draw_is_drawn_as_its_seat_number():
    cherokee = "\u13e3\u13b3\u13a9"  # no fallback font has Cherokee
    assert not fonts.drawable(cherokee, PRIMARIES[1])
    assert seat_name({"name": cherokee, "seat": 2}) == "Seat 3"
    assert seat_name({"name": "Mike \u0f00", "seat": 4}) == "Seat 5"  # one undrawable character is enough
    g = Game.new("tripoley", ["ann", cherokee, "bob"], seed=1)
    g.next_deal()
    r = render_mat(g.view(None))
    names = [text for _, role, text, _, _ in r.labels if role == "name"]
    assert "Seat 2" in names and cherokee not in names and not any(cherokee in t for t in names)


@pytest.mark.parametrize("players", list(range(2, 21)))
def test_world_names_on_a_mat_of_every_size(players):
    names = [WORLD_NAMES[(players + i) % len(WORLD_NAMES)] for i in range(players)]
    g = Game.new("tripoley-rulebook" if players > 9 else "tripoley", names, seed=players)
    g.next_deal()
    r = render_mat(g.view(None))
    check_layout(r)
    drawn = [text for _, role, text, _, _ in r.labels if role == "name"]
    assert len(drawn) == players and not any(t.startswith("Seat ") for t in drawn)
    for text in drawn:
        assert notdef_free(text, PRIMARIES[1]), text
    assert len(set(drawn)) == players  # told apart after fitting too


def test_world_names_in_the_final_standings():
    g = Game.new("tripoley", WORLD_NAMES[:6], seed=9, options={"game_end": "rounds:1"})
    view = g.view(None)
    view["standings"] = [{"seat": i, "name": n, "stack": 100 - i, "net": -i} for i, n in enumerate(WORLD_NAMES[:6])]
    r = render_summary(view)
    plain = render_summary(Game.new("tripoley", ["a", "b", "c", "d", "e", "f"], seed=9).view(None))
    assert (r.width, r.height) == (plain.width, plain.height)  # long and wide names keep the layout
    assert all(fit_name(n, 24) in r.alt for n in WORLD_NAMES[:6])  # the alt text keeps the names as typed


def test_colour_emoji_are_drawn_in_colour_when_the_system_has_the_font():
    bitmap = [f for f in fonts.fallback_faces() if f.bitmap]
    if not bitmap:
        pytest.skip("no NotoColorEmoji on this machine (fonts-noto-color-emoji): the monochrome Noto Emoji draws")
    img = Image.new("RGB", (120, 60), (0, 0, 0))
    box = draw_text(ImageDraw.Draw(img), (5, 30), "\U0001f525", font(31, "cond"), (255, 255, 255), "lm")
    rgb = img.tobytes()
    assert any(abs(rgb[i] - rgb[i + 1]) > 60 for i in range(0, len(rgb), 3))  # orange fire, not white ink
    assert 20 <= box[2] - box[0] <= 45 and 20 <= box[3] - box[1] <= 45  # about the height of the letters


def test_without_the_colour_font_emoji_come_from_the_monochrome_noto_emoji(monkeypatch):
    monkeypatch.setattr(fonts, "_system_font", lambda filename: None)
    for cached in CACHED:
        cached.cache_clear()
    try:
        (fire,) = fonts.runs("\U0001f525", PRIMARIES[1])
        assert fire.face.emoji and not fire.face.bitmap
        assert notdef_free("\U0001f525Mike\U0001f525", PRIMARIES[1])
    finally:
        monkeypatch.undo()
        for cached in CACHED:
            cached.cache_clear()
