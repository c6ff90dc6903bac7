"""Refusals the players see, as exceptions carrying a friendly message.

Anything raised as a :class:`TripoleyError` is answered ephemerally with its
``message``; anything else is logged in full and answered with a generic
apology (never a traceback, never a secret).
"""

from __future__ import annotations


class TripoleyError(Exception):
    """A refused action: ``message`` is shown to the player as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourTurn(TripoleyError):
    pass


class WrongPhase(TripoleyError):
    pass


class StaleButton(TripoleyError):
    pass


class AmountOutOfRange(TripoleyError):
    pass


class NotEnoughChips(TripoleyError):
    pass


class TableExists(TripoleyError):
    pass


class NoTable(TripoleyError):
    pass


class NotSeated(TripoleyError):
    pass


class NotAllowed(TripoleyError):
    pass


class LobbyFull(TripoleyError):
    pass


class MissingBotPermissions(TripoleyError):
    def __init__(self, permissions: list[str]) -> None:
        names = ", ".join(f"**{p}**" for p in permissions)
        super().__init__(
            f"I'm missing the {names} permission{'s' if len(permissions) > 1 else ''} in this channel. "
            "Ask a server admin to grant it, then try again."
        )
        self.permissions = permissions


def permission_label(name: str) -> str:
    """``send_messages`` → ``Send Messages``."""
    special = {
        "embed_links": "Embed Links",
        "attach_files": "Attach Files",
        "send_messages_in_threads": "Send Messages in Threads",
    }
    return special.get(name, name.replace("_", " ").title())


class OnCooldown(TripoleyError):
    """A daily or relief grant claimed again too soon; ``retry_at``: when it can be claimed."""

    def __init__(self, message: str, retry_at: float) -> None:
        super().__init__(message)
        self.retry_at = retry_at


class HouseShort(NotEnoughChips):
    """The house bankroll cannot fund an AI seat."""
