"""Who reads what: the language of an answer.

A private answer (a hand, a refusal, stats, help, the rules) is in the reader's own language
(``interaction.locale``) when it is one we have; a public message (the lobby, the table message, the
mat, round results, pings) is in the server's: the language an admin chose
(``/tripoley-admin settings language``), else the server's ``guild_locale`` when it is one we have,
else English. A DM is in its reader's language: the one last seen on their interactions.
"""

from __future__ import annotations

from bot.i18n import SPOKEN, Locale, read_in

#: The value of ``/tripoley-admin settings language`` that hands the choice back to Discord's ``guild_locale``.
SERVER_LANGUAGE = "discord"


def spoken(discord_locale: object) -> Locale | None:
    """One of our languages for a Discord locale code (``fr``, ``de``, ``en-US``, ``en-GB``), else None."""
    code = str(getattr(discord_locale, "value", discord_locale) or "").split("-", 1)[0].lower()
    for locale in SPOKEN:
        if locale.value == code:
            return locale
    return None


def private_locale(user_locale: object) -> Locale:
    """The language of an answer only its reader sees: theirs, when we have it."""
    return spoken(user_locale) or Locale.EN


def reader_locale(interaction: object) -> str:
    """The language (its code) of an answer only an interaction's user sees: their ``interaction.locale``'s."""
    return private_locale(getattr(interaction, "locale", None)).value


def public_locale(server_setting: str | None, guild_locale: object) -> Locale:
    """The language of a message a whole channel reads: the server's setting, its ``guild_locale``, English."""
    return spoken(server_setting) or spoken(guild_locale) or Locale.EN


def dm_locale(last_seen: str | None) -> Locale:
    """The language of a DM: the one its reader's client last showed us, when we have it."""
    return spoken(last_seen) or Locale.EN


def answer_in_readers_language(interaction: object) -> None:
    """From here on in this interaction's task, the words made are in its reader's language (a public
    message made meanwhile is in its table's: bot.i18n.in_table_language)."""
    read_in(private_locale(getattr(interaction, "locale", None)))
