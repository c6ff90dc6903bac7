"""The words of the Discord controls' answers (bot.discordio.controller and its answering helpers):
what a click, a form or a command is told besides a refusal (bot.messages.refusals words those).
The admin tools' answers are bot.messages.answers'."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, pgettext
from engine.language import N_

GENERIC_FAILURE = N_("Something went wrong on my side; it has been logged. Please try again.")
NO_DMS = N_("Tripoley is played in server channels, not in DMs.")
COMMAND_NOT_HERE = N_("You can't use that command here.")
SEATED = N_("You're in!")
LEFT = N_("You left the table.")
WELCOME_BACK = N_("Welcome back!")
HOUSE_RULE_SET = N_("House rule set.")
VOTE_COUNTED = N_("Your vote counts.")
GAME_OVER = N_("The game is over.")
HAND_VIEW_NOT_UPDATED = N_("Done. Press **Show my hand** for your current hand.")
AI_PLAYS_FOR_YOU = N_("\n\n*An AI is playing for you. Press **I'm back** on the table message to play again.*")
PICK_A_SPACE = N_("Pick a space of the mat to see what pays it.")
SPACE_GONE = N_("That space isn't on the mat any more: pick another.")


def user_lacks(permissions: Sequence[str]) -> str:
    """A command the user's own permissions don't allow (``permissions``: their labels)."""
    names = ", ".join(f"**{label}**" for label in permissions)
    return _("You need the {names} permission for that.").format(names=names)


def page_labels() -> tuple[str, str]:
    """A pager's buttons: a page back, a page on."""
    return pgettext("button", "◀ Prev"), pgettext("button", "Next ▶")


def cooling_down(seconds: float) -> str:
    return _("Slow down a little: try again in {seconds} s.").format(seconds=f"{seconds:.0f}")


def not_every_ai_back(answer: str, refused: str) -> str:
    """A rematch's answer, and why not every AI seat came back (``refused``, worded already)."""
    return _("{answer} Not every AI seat came back: {refused}").format(answer=answer, refused=refused)


def replay_attached(file_name: str) -> str:
    return _(
        "The replay of that game: every deck and every decision. Play it back with `python -m engine replay {file}`."
    ).format(file=file_name)
