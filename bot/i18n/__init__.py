"""The bot's languages: which one a reader gets (:mod:`bot.i18n.choice`), their text
(:func:`translator`, over the catalogs of :mod:`engine.language`) and the command list's
(:mod:`bot.i18n.commands`). docs/languages.md says how to add one."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from typing import ParamSpec, TypeVar

from engine.language import LANGUAGE, Words, words


class Locale(StrEnum):
    """The languages the bot speaks (``qps``: the tests' pseudo-locale, never chosen for a reader)."""

    EN = "en"
    FR = "fr"
    DE = "de"
    QPS = "qps"


#: The languages a reader may get, and an admin may choose for a server.
SPOKEN: tuple[Locale, ...] = (Locale.EN, Locale.FR, Locale.DE)
#: Each spoken language's name in itself (as a server's admin chooses it).
ENDONYMS = {Locale.EN: "English", Locale.FR: "Français", Locale.DE: "Deutsch"}


def translator(locale: Locale) -> Words:
    """The text of ``locale``: ``gettext``, ``ngettext``, ``pgettext``; an entry a catalog lacks reads as
    its English source."""
    return words(locale.value)


#: The language the words being made now are in, read by every sentence of bot/messages (``_``): the
#: reader's while an interaction is answered (bot.i18n.choice.answer_in_readers_language), a table's
#: while its public messages are made (:func:`in_table_language`), a DM reader's for a DM (:func:`reading`).
READING: ContextVar[Locale] = ContextVar("reading", default=Locale.EN)


def _(message: str) -> str:
    """A whole sentence (its placeholders named) in the language being read."""
    return translator(READING.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The sentence for ``n`` of something (the language's own plural forms)."""
    return translator(READING.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A short text whose meaning its ``context`` fixes (a button's label, a column's heading)."""
    return translator(READING.get()).pgettext(context, message)


def as_locale(code: str | None) -> Locale:
    """One of our languages for a saved code (a table's, a reader's); English for anything else."""
    try:
        return Locale(code or Locale.EN)
    except ValueError:
        return Locale.EN


def read_in(locale: Locale) -> Callable[[], None]:
    """From here on the words made are in ``locale``: the bot's (:data:`READING`) and the engine's
    (:data:`engine.language.LANGUAGE`: its event sentences, rule pages and reasons). Returns what
    puts back the language read before."""
    tokens = READING.set(locale), LANGUAGE.set(locale.value)

    def restore() -> None:
        READING.reset(tokens[0])
        LANGUAGE.reset(tokens[1])

    return restore


@contextmanager
def reading(code: str | None) -> Iterator[None]:
    """The words made inside are in ``code``'s language (then back to the one before)."""
    restore = read_in(as_locale(code))
    try:
        yield
    finally:
        restore()


Made = TypeVar("Made")
Given = ParamSpec("Given")


def in_table_language(make: Callable[Given, Made]) -> Callable[Given, Made]:
    """For a function of bot/messages whose first argument is a table (anything with ``locale``): what it
    makes is in the table's language, whoever's interaction made it (a channel reads it)."""

    def made(*args: Given.args, **kwargs: Given.kwargs) -> Made:
        with reading(getattr(args[0], "locale", None)):
            return make(*args, **kwargs)

    return functools.wraps(make)(made)


__all__ = [
    "ENDONYMS",
    "READING",
    "SPOKEN",
    "Locale",
    "_",
    "as_locale",
    "in_table_language",
    "ngettext",
    "pgettext",
    "read_in",
    "reading",
    "translator",
]
