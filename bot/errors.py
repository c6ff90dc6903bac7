"""Refusals the players see, as exceptions.

Anything raised as a :class:`TripoleyError` is answered ephemerally: with its ``words``, or with
its :class:`Refusal` and facts worded where it is answered; anything else is logged in full and
answered with a generic apology (never a traceback, never a secret).

The table manager refuses with a :class:`Refusal` (what is refused) and its facts (a seat's
name, a count…), never with words: the Discord side words them where it answers
(:func:`bot.messages.refusals.say`), with its formatting and command names. This module words
nothing of them, so it imports nothing of the messages.
"""

from __future__ import annotations

import enum
from typing import Any


class Refusal(enum.Enum):
    """What the bot refuses (the table manager, the bank, the commands); the facts each needs are
    in :data:`bot.messages.refusals.WORDS`."""

    UNKNOWN_GAME = enum.auto()
    BAD_OPTIONS = enum.auto()
    BUY_IN_TOO_SMALL = enum.auto()
    CHANNEL_BUSY = enum.auto()
    BUY_IN_UNAFFORDABLE = enum.auto()
    REMATCH_GONE = enum.auto()
    REMATCH_NOT_YOURS = enum.auto()
    REMATCH_CHANNEL_BUSY = enum.auto()
    STARTED_JOIN_NEXT = enum.auto()
    STARTED = enum.auto()
    ALREADY_SEATED = enum.auto()
    TABLE_FULL = enum.auto()
    JOIN_BEFORE_AI = enum.auto()
    UNKNOWN_AI_LEVEL = enum.auto()
    HOST_ONLY_RULES = enum.auto()
    HOST_ONLY_START = enum.auto()
    RULE_NOT_OFFERED = enum.auto()
    RULE_CLASH = enum.auto()
    NOT_AT_TABLE = enum.auto()
    MEMBER_NOT_SEATED = enum.auto()
    ALREADY_LEFT = enum.auto()
    TOO_FEW_PLAYERS = enum.auto()
    EARLIER_ROUND = enum.auto()
    STALE_CARD_MENU = enum.auto()
    NOT_STARTED = enum.auto()
    GAME_OVER = enum.auto()
    NOT_PLAYING = enum.auto()
    LEFT_AI_PLAYS = enum.auto()
    LEFT_JOIN_NEXT = enum.auto()
    AI_PLAYS_FOR_YOU = enum.auto()
    CLAIM_SETTLED = enum.auto()
    NOBODY_TO_ACT = enum.auto()
    NOT_YOUR_TURN = enum.auto()
    TIME_RAN_OUT = enum.auto()
    CHOSEN_ALREADY = enum.auto()
    UNKNOWN_ACTION = enum.auto()
    NOT_NOW = enum.auto()
    ILLEGAL = enum.auto()
    IN_CONTROL = enum.auto()
    STOP_NOT_ALLOWED = enum.auto()
    NO_TABLE = enum.auto()
    TABLE_CLOSED = enum.auto()
    NO_CARDS_YET = enum.auto()
    NO_HAND_TO_SHOW = enum.auto()
    HOST_ONLY_KICK = enum.auto()
    KICK_YOURSELF = enum.auto()
    KICK_NOT_SEATED = enum.auto()
    KICK_LEFT_ALREADY = enum.auto()
    KICK_UNCONFIRMED = enum.auto()
    VOTE_CLOSED = enum.auto()
    VOTE_NOT_YOURS = enum.auto()
    VOTED_ALREADY = enum.auto()
    DATABASE_BUSY = enum.auto()
    # The bank's (bot.economy) and the commands' refusals.
    NOT_ENOUGH_CHIPS = enum.auto()
    HOUSE_SHORT = enum.auto()
    ON_COOLDOWN = enum.auto()
    RELIEF_NOT_NEEDED = enum.auto()
    GRANT_OFF = enum.auto()
    REPEATED_GRANT = enum.auto()
    TABLES_OPEN = enum.auto()
    STILL_SEATED = enum.auto()
    STILL_ENTERED = enum.auto()
    SEATED_ELSEWHERE = enum.auto()
    MISSING_PERMISSIONS = enum.auto()
    BOT_HAS_NO_WALLET = enum.auto()
    ADMIN_ROLE_TWICE = enum.auto()
    ONE_WAY_TO_END = enum.auto()
    TABLE_RULES_GONE = enum.auto()
    RULES_GONE = enum.auto()
    LEADERBOARD_GONE = enum.auto()

    # -- the Discord controls' refusals (bot.discordio.controller; worded at the end of
    # bot.messages.refusals) --
    SERVER_ONLY = enum.auto()  # a command in direct messages
    NO_CHANNEL = enum.auto()  # an interaction from no channel
    STALE_CONTROL = enum.auto()  # a button, menu or form this version no longer reads (``kind``)
    TABLE_GONE = enum.auto()  # the button's table is closed, or not in this channel
    PAGE_GONE = enum.auto()  # a page of a list no longer offered
    LOBBY_CLOSED = enum.auto()  # a lobby's button once the game started
    AMOUNT_UNAFFORDABLE = enum.auto()  # an amount button with no amount the player can pay
    AMOUNT_TOO_LATE = enum.auto()  # an amount sent after its round ended
    NOT_A_NUMBER = enum.auto()  # an amount that is no whole number (``typed``)
    AMOUNT_OUTSIDE = enum.auto()  # an amount outside ``low``..``high`` (``amount``)
    LOG_NOT_KEPT = enum.auto()  # a finished game's log asked for in another server, or pruned
    NO_REPLAY = enum.auto()  # a game older than the replay files
    ADMIN_ONLY = enum.auto()  # an admin tool (``tool``) used by someone without Manage Server or the admin role
    MANAGE_SERVER_ONLY = enum.auto()  # choosing the admin role, by someone without Manage Server


class AdminTool(enum.Enum):
    """The ``/tripoley-admin`` tools, as a refusal names the one refused (bot.discordio.admin)."""

    GRANT = enum.auto()
    HOUSE = enum.auto()
    AUDIT = enum.auto()
    KICK = enum.auto()
    RESET = enum.auto()
    SETTINGS = enum.auto()
    SEASON = enum.auto()


class TripoleyError(Exception):
    """A refused action. Raised either with its ``words`` (shown to the player as they are) or with a
    :class:`Refusal` and the facts it needs (``refusal``, ``facts``), worded where it is shown."""

    def __init__(self, message: str | Refusal, **facts: Any) -> None:
        super().__init__(message)
        self.refusal = message if isinstance(message, Refusal) else None
        self.facts = facts
        self.words = message if isinstance(message, str) else None

    def __str__(self) -> str:
        """For the log: the words, or the refusal's name (never its facts: they may name a player's cards)."""
        if self.words is not None:
            return self.words
        assert self.refusal is not None  # raised without words: with a refusal
        return self.refusal.name


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
    """The bot lacks ``permissions`` (their labels) in a channel; ``threads``: tables run in threads
    there, so turning that off is the other way out."""

    def __init__(self, permissions: list[str], threads: bool = False) -> None:
        super().__init__(Refusal.MISSING_PERMISSIONS, permissions=permissions, threads=threads)
        self.permissions = permissions


def permission_label(name: str) -> str:
    """``send_messages`` → ``Send Messages``."""
    special = {
        "embed_links": "Embed Links",
        "attach_files": "Attach Files",
        "send_messages_in_threads": "Send Messages in Threads",
        "view_channel": "View Channels",
    }
    return special.get(name, name.replace("_", " ").title())


class OnCooldown(TripoleyError):
    """A daily or relief grant claimed again too soon; ``retry_at``: when it can be claimed."""

    def __init__(self, message: str | Refusal, retry_at: float, **facts: Any) -> None:
        super().__init__(message, **facts)
        self.retry_at = retry_at


class HouseShort(NotEnoughChips):
    """The house bankroll cannot fund an AI seat."""


class DatabaseUnavailable(TripoleyError):
    """The database did not answer (it restarted, is locked or full) for as long as the bot
    retries: the work was not done (a transaction that failed before its commit is rolled back),
    and the player is asked to try again in a moment."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(Refusal.DATABASE_BUSY)
        self.detail = detail  # for the log: what failed and why


class CommitOutcomeUnknown(DatabaseUnavailable):
    """A transaction's COMMIT was sent but its answer lost, and the database stayed away too long
    to ask whether it was applied: the process can no longer tell its memory from the truth."""


class RepeatedGrant(NotAllowed):
    """An admin's grant or removal repeats their same change to the same wallet made moments ago
    (:data:`bot.economy.bank.REPEAT_WINDOW`); ``row_id``: that change's ledger row, which a
    confirmed repeat names (only a change after it counts as a repeat again)."""

    def __init__(self, message: str | Refusal, row_id: int, **facts: Any) -> None:
        super().__init__(message, **facts)
        self.row_id = row_id
