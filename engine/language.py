"""The languages the game is played in: gettext catalogs kept beside the engine (``engine/locale``).

English is the source: its text is the catalogs' ``msgid``; French (``fr``) and German (``de``) are
translated; ``qps`` is a pseudo-locale for the tests (every text 40% longer, every letter accented),
made from the English at run time, so that clipped or untranslated text shows. The catalogs are here,
not under ``bot/``, because the terminal game (``engine/play.py``), the pictures (``images/``) and the
bot all read them, and the engine imports nothing of ours. The ``.mo`` files are compiled from the
``.po`` files by ``scripts/catalogs.sh compile`` (run by ``scripts/setup.sh``); they are not committed.
"""

from __future__ import annotations

import functools
import gettext
import io
import math
import re
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol

DOMAIN = "tripoley"
LOCALE_DIR = Path(__file__).with_name("locale")
SOURCE = "en"
TRANSLATED: tuple[str, ...] = ("fr", "de")
PSEUDO = "qps"
LANGUAGES: tuple[str, ...] = (SOURCE, *TRANSLATED, PSEUDO)
#: The environment variables naming the user's language, the first that is set decides (as gettext reads them).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str) -> str:
    """Marks a text of a table for the catalogs (``pybabel extract``), looked up where it is shown."""
    return message


class Words(Protocol):
    """What the text of one language is looked up through (a ``gettext.NullTranslations`` is one)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçďéƒğĥíĵķĺḿñóṕʠŕšťúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹḾÑÓṔɊŔŠŤÚṼŴẊÝŽ",
        strict=True,
    )
)
#: What a translation must keep as it is: ``{placeholders}``, ``%(placeholders)s``, Discord's ``<@mentions>``.
_KEPT = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[sd]|<[^<>]*>)")
_PADDING = "åéîøü"


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale shows it: every letter accented, 40% longer (rounded up)."""
    if not text:
        return text
    parts = _KEPT.split(text)
    accented = "".join(part if i % 2 else "".join(_ACCENTED.get(ch, ch) for ch in part) for i, part in enumerate(parts))
    extra = math.ceil(len(text) * 0.4)
    return accented + (_PADDING * extra)[:extra]


class PseudoWords(gettext.NullTranslations):
    """The pseudo-locale: the English text, :func:`pseudo`-ised."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


@functools.cache
def words(language: str) -> gettext.NullTranslations:
    """The text of ``language`` (one of :data:`LANGUAGES`; anything else reads as English). An entry a
    catalog lacks reads as its English source."""
    if language in TRANSLATED:
        try:
            return gettext.translation(DOMAIN, LOCALE_DIR, [language])
        except FileNotFoundError:  # installed without scripts/setup.sh (``pip install .``): no .mo built
            return compiled_catalog(language)
    if language == PSEUDO:
        return PseudoWords()
    return gettext.NullTranslations()


#: The language the terminal game speaks (set by engine/play.py from ``--lang`` or the environment): its
#: cards as that language writes and reads them, its fixed texts from the catalogs.
LANGUAGE: ContextVar[str] = ContextVar("language", default=SOURCE)


def _(message: str) -> str:
    """``message`` in the terminal game's language."""
    return words(LANGUAGE.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The sentence for ``n`` of something, in the terminal game's language."""
    return words(LANGUAGE.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (a word that reads differently elsewhere), in the terminal game's language."""
    return words(LANGUAGE.get()).pgettext(context, message)


def rule_summary(language: str) -> str | None:
    """The family's rules in brief, written for the players of ``language`` (``engine/locale/LANG/rules.md``:
    the French and German words of the family, Nain Jaune's and Poch's), or None (English: docs/rules.md)."""
    path = LOCALE_DIR / language / "rules.md"
    return path.read_text(encoding="utf-8").strip() if language in TRANSLATED and path.is_file() else None


def compiled_catalog(language: str) -> gettext.GNUTranslations:
    """``language``'s catalog compiled from its ``.po`` in memory (what ``pybabel compile`` writes)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        catalog = read_po(po)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def language_code(tag: str) -> str | None:
    """The language of a locale tag (``fr_CA.UTF-8``, ``de-DE``, ``fr``) when it is one of ours, else None."""
    base = re.split(r"[._@-]", tag.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The terminal's language as gettext would choose it (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``): the first variable set decides; a language we don't have, or ``C``/``POSIX``, reads as English."""
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            for tag in value.split(":"):
                code = language_code(tag)
                if code is not None:
                    return code
            return SOURCE
    return SOURCE
