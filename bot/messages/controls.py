"""The words of the Discord controls' answers (bot.discordio.controller and its answering helpers):
what a click, a form or a command is told besides a refusal (bot.messages.refusals words those)."""

from __future__ import annotations

from collections.abc import Sequence

GENERIC_FAILURE = "Something went wrong on my side; it has been logged. Please try again."
NO_DMS = "Tripoley is played in server channels, not in DMs."
COMMAND_NOT_HERE = "You can't use that command here."
SEATED = "You're in!"
LEFT = "You left the table."
WELCOME_BACK = "Welcome back!"
HOUSE_RULE_SET = "House rule set."
VOTE_COUNTED = "Your vote counts."
GAME_OVER = "The game is over."
HAND_VIEW_NOT_UPDATED = "Done. Press **Show my hand** for your current hand."
AI_PLAYS_FOR_YOU = "\n\n*An AI is playing for you. Press **I'm back** on the table message to play again.*"
PICK_A_SPACE = "Pick a space of the mat to see what pays it."
SPACE_GONE = "That space isn't on the mat any more: pick another."


def user_lacks(permissions: Sequence[str]) -> str:
    """A command the user's own permissions don't allow (``permissions``: their labels)."""
    names = ", ".join(f"**{label}**" for label in permissions)
    return f"You need the {names} permission for that."


def cooling_down(seconds: float) -> str:
    return f"Slow down a little: try again in {seconds:.0f} s."


def not_every_ai_back(answer: str, refused: str) -> str:
    """A rematch's answer, and why not every AI seat came back (``refused``, worded already)."""
    return f"{answer} Not every AI seat came back: {refused}"


def replay_attached(file_name: str) -> str:
    return (
        "The replay of that game: every deck and every decision. "
        f"Play it back with `python -m engine replay {file_name}`."
    )
