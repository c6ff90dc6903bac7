"""The words of the table manager's refusals, for Discord (its formatting, its command names).

The manager raises a :class:`bot.errors.Refusal` with facts (names as typed, counts, the engine's
reason); :func:`words` turns them into the sentence the player reads. Names are escaped here, so
whatever a player typed stays text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.errors import AdminTool, Refusal, TripoleyError
from bot.messages.text import escape, in_words, not_now

START = "Start a new one with `/tripoley start`."
STARTED = "The game has already started."
STALE_CLAIM = "Already claimed, or too late: that claim is settled, so nothing happened."


def cheaper_games(buy_in: int) -> str:
    """The games whose usual buy-in is below ``buy_in``, by buy-in: ``Tripoley (Cadaco), Rummoli
    (100 chips)``; empty when there are none."""
    from engine.presets import PRESETS

    by_cost: dict[int, list[str]] = {}
    for preset in PRESETS.values():
        cost = int(preset.options.start_stack)
        if cost < buy_in:
            by_cost.setdefault(cost, []).append(preset.name)
    return "; ".join(f"{', '.join(names)} ({cost} chips)" for cost, names in sorted(by_cost.items()))


def _unaffordable(buy_in: int, why: TripoleyError, opening: bool) -> str:
    """``why``: the wallet's refusal; ``opening``: the player opens the table, so a smaller
    ``buy_in:`` option would do (else: a table of their own with one)."""
    how = "Try a smaller `buy_in:`" if opening else "Or open a table of your own with a smaller `buy_in:`"
    cheaper = cheaper_games(buy_in)
    return f"The buy-in is {buy_in} chips. {say(why)} {how} (`/tripoley start buy_in:…`)" + (
        f", or play a game with a smaller buy-in: {cheaper}." if cheaper else "."
    )


WORDS: dict[Refusal, Callable[..., str]] = {
    Refusal.UNKNOWN_GAME: lambda game: f"Unknown game `{game}`.",
    Refusal.BAD_OPTIONS: lambda reason: f"Those options don't work: {in_words(reason)}",
    Refusal.BUY_IN_TOO_SMALL: lambda: "The buy-in must be at least 1 chip.",
    Refusal.CHANNEL_BUSY: lambda: (
        "A game is already running in this channel. Join it, or start one in another channel."
    ),
    Refusal.BUY_IN_UNAFFORDABLE: _unaffordable,
    Refusal.REMATCH_GONE: lambda: f"That game can't be replayed any more. {START}",
    Refusal.REMATCH_NOT_YOURS: lambda: (
        "Rematch is for the players of that game. Join the new table with its **Join** button."
    ),
    Refusal.REMATCH_CHANNEL_BUSY: lambda: "Another table is open in this channel: join it, or play the rematch later.",
    Refusal.STARTED_JOIN_NEXT: lambda: "The game has already started; you can join the next one.",
    Refusal.STARTED: lambda: STARTED,
    Refusal.ALREADY_SEATED: lambda: "You're already at this table.",
    Refusal.TABLE_FULL: lambda seats: f"The table is full ({seats} seats).",
    Refusal.JOIN_BEFORE_AI: lambda: "Only players at the table can add AI seats. Join first.",
    Refusal.UNKNOWN_AI_LEVEL: lambda: "Choose the AI's level: Easy, Normal or Hard.",
    Refusal.HOST_ONLY_RULES: lambda: "Only the host can change the house rules.",
    Refusal.HOST_ONLY_START: lambda: "Only the host can start the game.",
    Refusal.RULE_NOT_OFFERED: lambda: "That house rule isn't offered for this game.",
    Refusal.RULE_CLASH: lambda reason: f"That house rule doesn't work with this table: {reason}",
    Refusal.NOT_AT_TABLE: lambda: "You're not at this table.",
    Refusal.MEMBER_NOT_SEATED: lambda: "That member isn't seated at any open table in this server.",
    Refusal.ALREADY_LEFT: lambda: "You've already left this game.",
    Refusal.TOO_FEW_PLAYERS: lambda game, players: (
        f"{game} needs at least {players} players. Invite someone or press **Add AI**."
    ),
    Refusal.EARLIER_ROUND: lambda: "That button is from an earlier round. Use the newest table message.",
    Refusal.STALE_CARD_MENU: lambda: (
        "That menu no longer matches your cards: nothing was played. Press **Show my hand** for your hand as it is now."
    ),
    Refusal.NOT_STARTED: lambda: "The game hasn't started yet.",
    Refusal.GAME_OVER: lambda: "That game is over.",
    Refusal.NOT_PLAYING: lambda: "You're not playing at this table.",
    Refusal.LEFT_AI_PLAYS: lambda: "You left this game; an AI plays your seat until the end.",
    Refusal.LEFT_JOIN_NEXT: lambda: "You left this game; you can join the next one.",
    Refusal.AI_PLAYS_FOR_YOU: lambda: "An AI is playing for you. Press **I'm back** to take your seat again.",
    Refusal.CLAIM_SETTLED: lambda: STALE_CLAIM,
    Refusal.NOBODY_TO_ACT: lambda: "Nobody is to act right now: the next round is coming up.",
    Refusal.NOT_YOUR_TURN: lambda name: f"It's not your turn: waiting for **{escape(name)}**.",
    Refusal.TIME_RAN_OUT: lambda: "Your time for that decision had run out when you clicked, so it wasn't used.",
    Refusal.CHOSEN_ALREADY: lambda choice, names: (
        f"You chose {choice}; waiting for {names}. A choice can't be changed."
    ),
    Refusal.UNKNOWN_ACTION: lambda: "That action isn't one this game knows.",
    Refusal.NOT_NOW: not_now,
    Refusal.ILLEGAL: lambda reason, view: f"Not allowed: {in_words(reason, view)}",
    Refusal.IN_CONTROL: lambda: "You're already in control of your seat.",
    Refusal.STOP_NOT_ALLOWED: lambda: "Only the host or someone with **Manage Server** can stop the game.",
    Refusal.NO_TABLE: lambda: "There's no Tripoley table in this channel. Start one with `/tripoley start`.",
    Refusal.TABLE_CLOSED: lambda: f"That table is closed already. {START}",
    Refusal.NO_CARDS_YET: lambda: "The game hasn't started yet: your cards come with the first deal.",
    Refusal.NO_HAND_TO_SHOW: lambda: "You're not playing at this table, so there's no hand to show.",
    Refusal.HOST_ONLY_KICK: lambda: "Only the table's host can remove a player from it.",
    Refusal.KICK_YOURSELF: lambda: "You can't remove yourself: use `/tripoley leave`.",
    Refusal.KICK_NOT_SEATED: lambda: "That member isn't playing at this table.",
    Refusal.KICK_LEFT_ALREADY: lambda name: f"An AI plays **{escape(name)}**'s seat already.",
    Refusal.KICK_UNCONFIRMED: lambda name: (
        f"The game is on: confirm first that an AI should play **{escape(name)}**'s seat."
    ),
    Refusal.VOTE_CLOSED: lambda: "That vote is closed: the player is back, or an AI plays their seat already.",
    Refusal.VOTE_NOT_YOURS: lambda: "Only the other players still at the table can vote on this seat.",
    Refusal.VOTED_ALREADY: lambda: "You've voted already: each player's vote counts once.",
    Refusal.DATABASE_BUSY: lambda: "The game's database is busy — try again in a moment.",
}


def words(refusal: Refusal, facts: dict[str, Any]) -> str:
    """The sentence a player reads for a refusal."""
    return WORDS[refusal](**facts)


def say(error: TripoleyError) -> str:
    """What the player reads for a refused action: its own words, or its refusal's."""
    if error.words is not None:
        return error.words
    assert error.refusal is not None  # raised without words: with a refusal
    return words(error.refusal, error.facts)


# -- the Discord controls' refusals (bot.discordio.controller) --------------------------------

ADMIN_ROLE = "the **Manage Server** permission or this server's Tripoley admin role"
ADMIN_ONLY = {
    AdminTool.GRANT: f"Granting chips needs {ADMIN_ROLE}.",
    AdminTool.HOUSE: f"The house bankroll needs {ADMIN_ROLE}.",
    AdminTool.AUDIT: f"The audit needs {ADMIN_ROLE}.",
    AdminTool.KICK: f"Kicking a player needs {ADMIN_ROLE}.",
    AdminTool.RESET: f"Resetting the economy needs {ADMIN_ROLE}.",
    AdminTool.SETTINGS: f"Changing the settings needs {ADMIN_ROLE}.",
}
STALE_CONTROLS = {
    "button": "That button is no longer in use.",
    "menu": "That menu is no longer in use.",
    "form": "That form is no longer in use.",
}
WORDS.update(
    {
        Refusal.SERVER_ONLY: lambda: "Tripoley is played in a server's channels, not in direct messages.",
        Refusal.NO_CHANNEL: lambda: "There is no table here: Tripoley is played in a server's channels.",
        Refusal.STALE_CONTROL: lambda kind: STALE_CONTROLS.get(kind, STALE_CONTROLS["button"]),
        Refusal.TABLE_GONE: lambda: f"This table is closed: that game is over. {START}",
        Refusal.PAGE_GONE: lambda: "That page is no longer available.",
        Refusal.LOBBY_CLOSED: lambda: "This lobby is closed: the game has started.",
        Refusal.AMOUNT_UNAFFORDABLE: lambda: "You don't have enough chips for that.",
        Refusal.AMOUNT_TOO_LATE: lambda: "That round is over; your amount was not used.",
        Refusal.NOT_A_NUMBER: lambda typed: f"“{escape(typed)}” is not a whole number of chips.",
        Refusal.AMOUNT_OUTSIDE: lambda low, high, amount: (
            f"The amount must be between {low} and {high} chips; you entered {amount}."
        ),
        Refusal.LOG_NOT_KEPT: lambda: "That game's log isn't kept in this server.",
        Refusal.NO_REPLAY: lambda: "That game has no replay file (it began before games were kept as replays).",
        Refusal.ADMIN_ONLY: lambda tool: ADMIN_ONLY.get(tool, ADMIN_ONLY[AdminTool.SETTINGS]),
        Refusal.MANAGE_SERVER_ONLY: lambda: "Choosing the admin role needs the **Manage Server** permission.",
    }
)
