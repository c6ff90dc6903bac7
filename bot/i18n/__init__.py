"""The bot's languages: which one a reader gets (:mod:`bot.i18n.choice`), their text
(:func:`translator`, over the catalogs of :mod:`engine.language`) and the command list's
(:mod:`bot.i18n.commands`). docs/languages.md says how to add one."""

from __future__ import annotations

from enum import StrEnum

from engine.language import Words, words


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


__all__ = ["ENDONYMS", "SPOKEN", "Locale", "translator"]
