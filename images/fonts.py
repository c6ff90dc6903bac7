"""Font fallback per character run, so that every name is drawn (emoji, CJK, Arabic, Devanagari…).

DejaVu (``images/assets``) draws what it has; every other character is drawn in the first font of
the fallback chain that has it: the Noto fonts of the ``manimgx-fonts`` and ``manimgx-fonts-cjk``
packages (installed from the lock: Noto Sans, Noto Sans for 19 scripts, Noto Sans CJK, Noto Sans
Symbols, monochrome Noto Emoji), preceded by two system fonts when the machine has them: colour
emoji from NotoColorEmoji (Debian's ``fonts-noto-color-emoji``; a CBDT bitmap font Pillow draws only
at its one size, 109, so runs are drawn there and scaled) and Noto Sans Math (``fonts-noto-core``).
A styled letter no font has (𝓜) is drawn as its plain letter (NFKC); ``drawable`` says whether a
name can be drawn at all (the renderers draw "Seat N" when not).

Each run is laid out by Pillow's raqm layout where it is available (joined and shaped Arabic,
Devanagari; ZWJ emoji sequences as one glyph); the runs are put in visual order by the bidi rule
at run level, and without raqm a right-to-left run's letters are at least put in order.
"""

from __future__ import annotations

import importlib
import math
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont, features

from .shapes import Box, Colour

RAQM = bool(features.check("raqm"))
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
BITMAP_SIZE = 109  # NotoColorEmoji's one bitmap strike
EMOJI_SCALE = 0.85  # a colour emoji's box (1.25 em at its size) brought near the height of capitals
PROBE_SIZE = 24  # the size glyph coverage is tested at (coverage does not depend on size)
NOTDEF_PROBE = "\U0010ffff"  # a noncharacter: every font draws it as its .notdef glyph
IGNORABLE = {0x200C, 0x200D, 0x2060, 0xFEFF} | set(range(0xFE00, 0xFE10))


@dataclass(frozen=True)
class Face:
    """One font file of the chain; ``bitmap`` for a colour bitmap font (drawn at BITMAP_SIZE, scaled)."""

    path: str
    index: int = 0
    bitmap: bool = False
    emoji: bool = False


@dataclass(frozen=True)
class Run:
    """A stretch of text drawn in one font, one colour and one direction."""

    text: str
    face: Face
    rtl: bool
    colour: str | None


def _package_dir(module: str) -> Path | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return Path(mod.__file__).parent if mod.__file__ else None


def _system_font(filename: str) -> Path | None:
    for folder in SYSTEM_FONT_DIRS:
        if folder.is_dir():
            for hit in sorted(folder.rglob(filename)):
                return hit
    return None


@lru_cache(maxsize=1)
def fallback_faces() -> tuple[Face, ...]:
    """The fonts tried after the primary one, in order (the fonts this install has)."""
    faces: list[Face] = []
    noto = _package_dir("manimgx_fonts")
    cjk = _package_dir("manimgx_fonts_cjk")
    if noto:
        faces.append(Face(str(noto / "NotoSans[wght].ttf")))
        skip = {"NotoSans[wght].ttf", "NotoSans-Italic[wght].ttf", "NotoSansSymbols[wght].ttf"}
        scripts = sorted(p for p in noto.iterdir() if p.name.startswith("NotoSans") and p.name not in skip)
        faces += [Face(str(p)) for p in scripts if p.suffix == ".ttf"]
    if cjk:
        faces.append(Face(str(cjk / "NotoSansCJK-VF.otf.ttc"), index=2))  # 2: the Simplified Chinese cut
    maths = _system_font("NotoSansMath-Regular.ttf")
    if maths:
        faces.append(Face(str(maths)))
    if noto:
        faces.append(Face(str(noto / "NotoSansSymbols[wght].ttf")))
    colour = _system_font("NotoColorEmoji.ttf")
    if colour:
        faces.append(Face(str(colour), bitmap=True, emoji=True))
    if noto:
        faces.append(Face(str(noto / "NotoEmoji[wght].ttf"), emoji=True))
    return tuple(f for f in faces if Path(f.path).is_file())


@lru_cache(maxsize=512)
def load(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """The face at ``size`` (a bitmap face at its own size), bold where the font is variable."""
    layout = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
    fnt = ImageFont.truetype(face.path, BITMAP_SIZE if face.bitmap else size, index=face.index, layout_engine=layout)
    if not face.bitmap:
        try:
            fnt.set_variation_by_name("Bold")
        except (OSError, ValueError):  # not a variable font, or one without a Bold instance
            pass
    return fnt


def _mask(face: Face, text: str) -> tuple[tuple[int, int], object]:
    """What ``text`` draws as: the ink's size and bytes (a colour face: its size and ink box)."""
    m = load(face, PROBE_SIZE).getmask(text, mode="RGBA" if face.bitmap else "L")
    return (m.size, m.getbbox()) if face.bitmap else (m.size, bytes(m))


@cache
def _notdef(face: Face) -> tuple[tuple[int, int], object]:
    return _mask(face, NOTDEF_PROBE)


@lru_cache(maxsize=65536)
def covers(face: Face, ch: str) -> bool:
    """Whether ``face`` has a glyph for ``ch``: its drawing differs from the font's .notdef box."""
    return _mask(face, ch) != _notdef(face)


def chain(primary: str) -> tuple[Face, ...]:
    return (Face(primary), *fallback_faces())


def _extends(ch: str) -> bool:
    """A character that belongs to the one before it (marks, joiners, selectors, skin tones, tags)."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or cp in IGNORABLE
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def _emoji_first(text: str, i: int) -> bool:
    cp = ord(text[i])
    following = text[i + 1] if i + 1 < len(text) else ""
    return 0x1F000 <= cp < 0x1FB00 or following == "\ufe0f"


def _face_for(faces: tuple[Face, ...], text: str, i: int) -> Face | None:
    ordered = sorted(faces, key=lambda f: not f.emoji) if _emoji_first(text, i) else faces
    return next((f for f in ordered if covers(f, text[i])), None)


def _direction(ch: str) -> bool | None:
    kind = unicodedata.bidirectional(ch)
    return True if kind in ("R", "AL") else False if kind == "L" else None


@lru_cache(maxsize=4096)
def _plain(text: str, primary: str) -> str:
    """``text`` with each character no font has replaced by its compatibility form when that is
    drawable (𝓜 → M), and ignorable joiners nobody needs dropped."""
    faces = chain(primary)
    out = []
    for i, ch in enumerate(text):
        if _extends(ch) or _face_for(faces, text, i):
            out.append(ch)
            continue
        plain = unicodedata.normalize("NFKC", ch)
        out.append(plain if plain != ch and all(_face_for(faces, plain, j) for j in range(len(plain))) else ch)
    return "".join(out)


@lru_cache(maxsize=4096)
def drawable(text: str, primary: str) -> bool:
    """Whether every character of ``text`` has a glyph in the chain (marks may be left out)."""
    faces = chain(primary)
    text = _plain(text, primary)
    return all(_extends(ch) or _face_for(faces, text, i) for i, ch in enumerate(text))


def _assign(text: str, faces: tuple[Face, ...]) -> list[tuple[str, Face]]:
    """Each character with its face: a word one font has whole stays in it (so joined scripts stay
    joined); otherwise character by character. Marks a face lacks are left out; so is a
    character no font has (callers check ``drawable`` first)."""
    out: list[tuple[str, Face]] = []
    for word in _words(text):
        bases = [i for i, ch in enumerate(word) if not _extends(ch)]
        whole = None
        if not any(_emoji_first(word, i) for i in bases):
            whole = next((f for f in faces if all(covers(f, word[i]) for i in bases)), None)
        prev: Face | None = None
        for i, ch in enumerate(word):
            face = whole or (prev if _extends(ch) else _face_for(faces, word, i))
            if face is None or (_extends(ch) and not covers(face, ch)):
                continue
            out.append((ch, face))
            prev = face
    return out


def _words(text: str) -> list[str]:
    """``text`` cut after each run of spaces (the spaces stay with the word before them)."""
    words, start = [], 0
    for i in range(1, len(text)):
        if text[i - 1].isspace() and not text[i].isspace():
            words.append(text[start:i])
            start = i
    return [*words, text[start:]] if text else []


@lru_cache(maxsize=8192)
def runs(text: str, primary: str, colours: tuple[tuple[str, str], ...] = ()) -> tuple[Run, ...]:
    """``text`` as runs in visual (left-to-right) order. ``colours`` maps characters to a colour key."""
    faces = chain(primary)
    colour_of = dict(colours)
    pieces: list[list[Any]] = []  # [text, face, direction (True rtl / False ltr / None neutral), colour]
    for ch, face in _assign(_plain(text, primary), faces):
        d = None if _extends(ch) else _direction(ch)
        colour = colour_of.get(ch)
        last = pieces[-1] if pieces else None
        if last and last[1] == face and last[3] == colour and (d is None or last[2] in (None, d)):
            last[0] += ch
            last[2] = last[2] if d is None else d
        else:
            pieces.append([ch, face, d, colour])
    strong = [p[2] for p in pieces if p[2] is not None]
    para_rtl = bool(strong and strong[0])
    for i, p in enumerate(pieces):  # a neutral run between two of one direction takes it, else the paragraph's
        if p[2] is None:
            before = next((q[2] for q in reversed(pieces[:i]) if q[2] is not None), para_rtl)
            after = next((q[2] for q in pieces[i + 1 :] if q[2] is not None), para_rtl)
            p[2] = before if before == after else para_rtl
    levels = [(1 if p[2] else 0) if not para_rtl else (1 if p[2] else 2) for p in pieces]
    order = list(range(len(pieces)))
    for level in range(max(levels, default=0), 0, -1):  # the bidi rule L2, on whole runs
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return tuple(Run(_visual(pieces[k][0], pieces[k][2]), pieces[k][1], pieces[k][2], pieces[k][3]) for k in order)


def _visual(text: str, rtl: bool) -> str:
    """Without raqm a right-to-left run is reversed here (cluster by cluster, marks after their letter)."""
    if RAQM or not rtl:
        return text
    clusters: list[str] = []
    for ch in text:
        if clusters and _extends(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return "".join(reversed(clusters))


def simple(text: str, primary: str) -> bool:
    """Text the primary font draws alone, as it is, left to right: the fast path."""
    if text.isascii():
        return True
    rs = runs(text, primary)
    return len(rs) == 1 and rs[0].text == text and rs[0].face.path == primary and not rs[0].rtl


def _direction_arg(run: Run) -> str | None:
    return ("rtl" if run.rtl else "ltr") if RAQM else None


@lru_cache(maxsize=16384)
def run_width(run: Run, size: int) -> float:
    fnt = load(run.face, size)
    width = fnt.getlength(run.text, direction=_direction_arg(run))
    return width * _scale(run.face, size)


def _scale(face: Face, size: int) -> float:
    return size / BITMAP_SIZE * EMOJI_SCALE if face.bitmap else 1.0


def width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """``text``'s advance width as ``draw`` draws it."""
    primary = str(fnt.path)
    if simple(text, primary):
        return fnt.getlength(text)
    return sum(run_width(r, int(fnt.size)) for r in runs(text, primary))


@lru_cache(maxsize=1024)
def _bitmap_run(run: Run, size: int) -> tuple[Image.Image, int]:
    """A colour run drawn at the font's size and scaled to ``size``; and its ascent at ``size``."""
    fnt = load(run.face, size)
    ascent, descent = fnt.getmetrics()
    w = max(1, math.ceil(fnt.getlength(run.text, direction=_direction_arg(run))))
    img = Image.new("RGBA", (w, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(img).text(
        (0, ascent), run.text, font=fnt, anchor="ls", embedded_color=True, direction=_direction_arg(run)
    )
    s = _scale(run.face, size)
    scaled = img.resize((max(1, round(w * s)), max(1, round((ascent + descent) * s))), Image.Resampling.LANCZOS)
    return scaled, round(ascent * s)


def baseline(fnt: ImageFont.FreeTypeFont, y: float, v_anchor: str) -> float:
    """The baseline's y for Pillow's vertical anchor letter ``v_anchor`` at ``y``."""
    ascent, descent = fnt.getmetrics()
    return {"a": y + ascent, "t": y + ascent, "m": y + (ascent - descent) / 2, "d": y - descent, "b": y - descent}.get(
        v_anchor, y
    )


def draw(
    draw: ImageDraw.ImageDraw, x: float, base: float, runs_: tuple[Run, ...], size: int, fills: dict[str | None, Colour]
) -> Box:
    """Draw ``runs_`` left to right from ``x`` on the baseline ``base``; returns the union of their boxes.
    ``fills`` maps a run's colour key (None for plain text) to its fill."""
    box: Box | None = None
    for run in runs_:
        rect: Box
        if run.face.bitmap:
            img, ascent = _bitmap_run(run, size)
            top = round(base) - ascent
            draw._image.paste(img, (round(x), top), img)  # Pillow keeps no public handle on the image
            ink = img.getbbox() or (0, 0, 0, 0)
            rect = (round(x) + ink[0], top + ink[1], round(x) + ink[2], top + ink[3])
        else:
            fnt = load(run.face, size)
            direction = _direction_arg(run)
            fill = fills.get(run.colour, fills[None])
            draw.text((x, base), run.text, font=fnt, fill=fill, anchor="ls", direction=direction)
            rect = draw.textbbox((x, base), run.text, font=fnt, anchor="ls", direction=direction)
        box = (
            rect
            if box is None
            else (min(box[0], rect[0]), min(box[1], rect[1]), max(box[2], rect[2]), max(box[3], rect[3]))
        )
        x += run_width(run, size)
    return box if box is not None else (x, base, x, base)
