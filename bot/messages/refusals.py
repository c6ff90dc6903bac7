"""The words of the bot's refusals, for Discord (its formatting, its command names).

The manager (and the bank, and the commands) raises a :class:`bot.errors.Refusal` with facts (names as typed, counts, the engine's
reason); :func:`words` turns them into the sentence the player reads. Names are escaped here, so
whatever a player typed stays text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.errors import AdminTool, Refusal, TripoleyError
from bot.i18n import READING, Locale, _, ngettext
from bot.messages.notices import duration_text
from bot.messages.text import chosen_and_waiting, escape, not_now, reason_words
from engine.language import N_

STARTED = N_("The game has already started.")
STALE_CLAIM = N_("Already claimed, or too late: that claim is settled, so nothing happened.")


def cheaper_games(buy_in: int) -> str:
    """The games whose usual buy-in is below ``buy_in``, by buy-in: ``Tripoley (Cadaco), Rummoli
    (100 chips)``; empty when there are none."""
    from engine.presets import PRESETS

    by_cost: dict[int, list[str]] = {}
    for preset in PRESETS.values():
        cost = int(preset.options.start_stack)
        if cost < buy_in:
            by_cost.setdefault(cost, []).append(preset.name)
    return "; ".join(
        _(GAMES_AT).format(games=", ".join(_(name) for name in names), chips=cost)
        for cost, names in sorted(by_cost.items())
    )


GAMES_AT = N_("{games} ({chips} chips)")  # the games of one usual buy-in
# A buy-in the wallet can't pay (``{refusal}``: the wallet's own sentence), by (the player opens
# the table, there are games with a smaller usual buy-in).
UNAFFORDABLE = {
    (True, True): N_(
        "The buy-in is {buy_in} chips. {refusal} Try a smaller `buy_in:` (`/tripoley start buy_in:…`),"
        " or play a game with a smaller buy-in: {games}."
    ),
    (True, False): N_("The buy-in is {buy_in} chips. {refusal} Try a smaller `buy_in:` (`/tripoley start buy_in:…`)."),
    (False, True): N_(
        "The buy-in is {buy_in} chips. {refusal} Or open a table of your own with a smaller `buy_in:`"
        " (`/tripoley start buy_in:…`), or play a game with a smaller buy-in: {games}."
    ),
    (False, False): N_(
        "The buy-in is {buy_in} chips. {refusal} Or open a table of your own with a smaller `buy_in:`"
        " (`/tripoley start buy_in:…`)."
    ),
}


def _unaffordable(buy_in: int, why: TripoleyError, opening: bool) -> str:
    """``why``: the wallet's refusal; ``opening``: the player opens the table, so a smaller
    ``buy_in:`` option would do (else: a table of their own with one)."""
    cheaper = cheaper_games(buy_in)
    return _(UNAFFORDABLE[(opening, bool(cheaper))]).format(buy_in=buy_in, refusal=say(why), games=cheaper)


def _missing_permissions(permissions: list[str], threads: bool) -> str:
    """The bot's missing permissions (their labels), one sentence for one and one for several;
    ``threads``: tables run in threads there, so turning that off is the other way out."""
    names = ", ".join(f"**{p}**" for p in permissions)
    if len(permissions) == 1:
        sentence = MISSING_ONE_IN_THREADS if threads else MISSING_ONE
    else:
        sentence = MISSING_SEVERAL_IN_THREADS if threads else MISSING_SEVERAL
    return _(sentence).format(names=names)


MISSING_ONE = N_(
    "I'm missing the {names} permission here. Ask a server admin to grant it to me in this channel, then try again."
)
MISSING_SEVERAL = N_(
    "I'm missing the {names} permissions here. Ask a server admin to grant them to me in this channel, then try again."
)
MISSING_ONE_IN_THREADS = N_(
    "I'm missing the {names} permission here. Ask a server admin to grant it to me in this channel"
    " (or turn tables in threads off: `/tripoley-admin settings threads:False`), then try again."
)
MISSING_SEVERAL_IN_THREADS = N_(
    "I'm missing the {names} permissions here. Ask a server admin to grant them to me in this channel"
    " (or turn tables in threads off: `/tripoley-admin settings threads:False`), then try again."
)

# A claim (bot.economy.bank.CLAIMS) made again too soon, or turned off by the server.
COOLDOWNS = {
    "daily": N_(
        "You've had your daily chips: the next daily grant is in **{wait}**. Your wallet holds {balance} chips."
    ),
    "relief": N_(
        "You've had your relief chips: the next relief grant is in **{wait}**. Your wallet holds {balance} chips."
    ),
}
GRANTS_OFF = {
    "daily": N_("This server has turned the daily grant off."),
    "relief": N_("This server has turned the relief grant off."),
}
REPEATED_GRANT = N_(
    "You granted {chips} chips to this wallet {ago} ago already. Nothing changed now: do it once more only if you mean to."
)
REPEATED_REMOVAL = N_(
    "You took {chips} chips from this wallet {ago} ago already. Nothing changed now: do it once more only if you mean to."
)


def _repeated(amount: int, ago: float) -> str:
    """An admin's grant (``amount`` > 0) or removal repeated within moments."""
    sentence = REPEATED_GRANT if amount > 0 else REPEATED_REMOVAL
    return _(sentence).format(chips=abs(amount), ago=duration_text(ago))


def rule_clash(reason: str | ValueError) -> str:
    """Why a house rule clashes with the table's others (the options' error): in English its message as it is."""
    return str(reason) if READING.get() == Locale.EN else reason_words(reason)


CHOICE_MADE = N_("{choice} A choice can't be changed.")  # ``{choice}``: what the seat chose and whom it waits for


WORDS: dict[Refusal, Callable[..., str]] = {
    Refusal.UNKNOWN_GAME: lambda game: _("Unknown game `{game}`.").format(game=game),
    Refusal.BAD_OPTIONS: lambda reason: _("Those options don't work: {reason}").format(reason=reason_words(reason)),
    Refusal.BUY_IN_TOO_SMALL: lambda: _("The buy-in must be at least 1 chip."),
    Refusal.CHANNEL_BUSY: lambda: _(
        "A game is already running in this channel. Join it, or start one in another channel."
    ),
    Refusal.BUY_IN_UNAFFORDABLE: _unaffordable,
    Refusal.REMATCH_GONE: lambda: _("That game can't be replayed any more. Start a new one with `/tripoley start`."),
    Refusal.REMATCH_NOT_YOURS: lambda: _(
        "Rematch is for the players of that game. Join the new table with its **Join** button."
    ),
    Refusal.REMATCH_CHANNEL_BUSY: lambda: _(
        "Another table is open in this channel: join it, or play the rematch later."
    ),
    Refusal.STARTED_JOIN_NEXT: lambda: _("The game has already started; you can join the next one."),
    Refusal.STARTED: lambda: _(STARTED),
    Refusal.ALREADY_SEATED: lambda: _("You're already at this table."),
    Refusal.TABLE_FULL: lambda seats: ngettext(
        "The table is full ({seats} seat).", "The table is full ({seats} seats).", seats
    ).format(seats=seats),
    Refusal.JOIN_BEFORE_AI: lambda: _("Only players at the table can add AI seats. Join first."),
    Refusal.UNKNOWN_AI_LEVEL: lambda: _("Choose the AI's level: Easy, Normal or Hard."),
    Refusal.HOST_ONLY_RULES: lambda: _("Only the host can change the house rules."),
    Refusal.HOST_ONLY_START: lambda: _("Only the host can start the game."),
    Refusal.RULE_NOT_OFFERED: lambda: _("That house rule isn't offered for this game."),
    Refusal.RULE_CLASH: lambda reason: _("That house rule doesn't work with this table: {reason}").format(
        reason=rule_clash(reason)
    ),
    Refusal.NOT_AT_TABLE: lambda: _("You're not at this table."),
    Refusal.MEMBER_NOT_SEATED: lambda: _("That member isn't seated at any open table in this server."),
    Refusal.ALREADY_LEFT: lambda: _("You've already left this game."),
    Refusal.TOO_FEW_PLAYERS: lambda game, players: ngettext(
        "{game} needs at least {players} player. Invite someone or press **Add AI**.",
        "{game} needs at least {players} players. Invite someone or press **Add AI**.",
        players,
    ).format(game=game, players=players),
    Refusal.EARLIER_ROUND: lambda: _("That button is from an earlier round. Use the newest table message."),
    Refusal.STALE_CARD_MENU: lambda: _(
        "That menu no longer matches your cards: nothing was played. Press **Show my hand** for your hand as it is now."
    ),
    Refusal.NOT_STARTED: lambda: _("The game hasn't started yet."),
    Refusal.GAME_OVER: lambda: _("That game is over."),
    Refusal.NOT_PLAYING: lambda: _("You're not playing at this table."),
    Refusal.LEFT_AI_PLAYS: lambda: _("You left this game; an AI plays your seat until the end."),
    Refusal.LEFT_JOIN_NEXT: lambda: _("You left this game; you can join the next one."),
    Refusal.AI_PLAYS_FOR_YOU: lambda: _("An AI is playing for you. Press **I'm back** to take your seat again."),
    Refusal.CLAIM_SETTLED: lambda: _(STALE_CLAIM),
    Refusal.NOBODY_TO_ACT: lambda: _("Nobody is to act right now: the next round is coming up."),
    Refusal.NOT_YOUR_TURN: lambda name: _("It's not your turn: waiting for **{name}**.").format(name=escape(name)),
    Refusal.TIME_RAN_OUT: lambda: _("Your time for that decision had run out when you clicked, so it wasn't used."),
    Refusal.CHOSEN_ALREADY: lambda view: _(CHOICE_MADE).format(choice=chosen_and_waiting(view)),
    Refusal.UNKNOWN_ACTION: lambda: _("That action isn't one this game knows."),
    Refusal.NOT_NOW: not_now,
    Refusal.ILLEGAL: lambda reason, view: _("Not allowed: {reason}").format(reason=reason_words(reason, view)),
    Refusal.IN_CONTROL: lambda: _("You're already in control of your seat."),
    Refusal.STOP_NOT_ALLOWED: lambda: _("Only the host or someone with **Manage Server** can stop the game."),
    Refusal.NO_TABLE: lambda: _("There's no Tripoley table in this channel. Start one with `/tripoley start`."),
    Refusal.TABLE_CLOSED: lambda: _("That table is closed already. Start a new one with `/tripoley start`."),
    Refusal.NO_CARDS_YET: lambda: _("The game hasn't started yet: your cards come with the first deal."),
    Refusal.NO_HAND_TO_SHOW: lambda: _("You're not playing at this table, so there's no hand to show."),
    Refusal.HOST_ONLY_KICK: lambda: _("Only the table's host can remove a player from it."),
    Refusal.KICK_YOURSELF: lambda: _("You can't remove yourself: use `/tripoley leave`."),
    Refusal.KICK_NOT_SEATED: lambda: _("That member isn't playing at this table."),
    Refusal.KICK_LEFT_ALREADY: lambda name: _("An AI plays **{name}**'s seat already.").format(name=escape(name)),
    Refusal.KICK_UNCONFIRMED: lambda name: _(
        "The game is on: confirm first that an AI should play **{name}**'s seat."
    ).format(name=escape(name)),
    Refusal.VOTE_CLOSED: lambda: _("That vote is closed: the player is back, or an AI plays their seat already."),
    Refusal.VOTE_NOT_YOURS: lambda: _("Only the other players still at the table can vote on this seat."),
    Refusal.VOTED_ALREADY: lambda: _("You've voted already: each player's vote counts once."),
    Refusal.DATABASE_BUSY: lambda: _("The game's database is busy — try again in a moment."),
    Refusal.NOT_ENOUGH_CHIPS: lambda amount, have: ngettext(
        "You need {amount} chip but your wallet holds {have}.",
        "You need {amount} chips but your wallet holds {have}.",
        amount,
    ).format(amount=amount, have=have),
    Refusal.HOUSE_SHORT: lambda amount, have: ngettext(
        "The house can't fund another AI seat: the buy-in is {amount} chip and the house holds {have}. "
        "An admin can add chips with `/tripoley-admin house`, or invite a person instead.",
        "The house can't fund another AI seat: the buy-in is {amount} chips and the house holds {have}. "
        "An admin can add chips with `/tripoley-admin house`, or invite a person instead.",
        amount,
    ).format(amount=amount, have=have),
    Refusal.ON_COOLDOWN: lambda kind, wait, balance: _(COOLDOWNS[kind]).format(
        wait=duration_text(wait), balance=balance
    ),
    Refusal.RELIEF_NOT_NEEDED: lambda below, balance: _(
        "Relief is for wallets below {below} chips (the smallest buy-in); yours holds {balance}. "
        "Try `/tripoley daily`, or open a table your wallet covers with `/tripoley start buy_in:…`."
    ).format(below=below, balance=balance),
    Refusal.GRANT_OFF: lambda kind: _(GRANTS_OFF[kind]),
    Refusal.REPEATED_GRANT: _repeated,
    Refusal.TABLES_OPEN: lambda: _(
        "A table is open in this server (a game playing or a lobby holding buy-ins). "
        "Reset once every table has finished, or stop them first with `/tripoley stop`."
    ),
    Refusal.STILL_SEATED: lambda: _("You're seated at a table in this server: leave it (or let the game end) first."),
    Refusal.STILL_ENTERED: lambda: _("You're entered in a tournament in this server: leave it (or let it end) first."),
    Refusal.SEATED_ELSEWHERE: lambda: _(
        "You're seated at a table in one of the servers: leave it (or let the game end) first, then forget everywhere."
    ),
    Refusal.MISSING_PERMISSIONS: _missing_permissions,
    Refusal.BOT_HAS_NO_WALLET: lambda: _("Bots have no wallet. For the AI seats' chips use `/tripoley-admin house`."),
    Refusal.ADMIN_ROLE_TWICE: lambda: _("Give `admin_role` or `no_admin_role`, not both."),
    Refusal.ONE_WAY_TO_END: lambda: _("Pick one way to end the game: `rounds`, `minutes` or `elimination`."),
    Refusal.TABLE_RULES_GONE: lambda: _("That table is closed. `/tripoley rules` shows the rules of any game."),
    Refusal.RULES_GONE: lambda: _("Those rules are no longer available. `/tripoley rules` shows every game's rules."),
    Refusal.LEADERBOARD_GONE: lambda: _("That leaderboard is no longer available."),
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

# The admin tools (``tool`` of bot.discordio.admin.require_admin), each refused in a sentence of its own.
ADMIN_ONLY = {
    AdminTool.GRANT: N_("Granting chips needs the **Manage Server** permission or this server's Tripoley admin role."),
    AdminTool.HOUSE: N_(
        "The house bankroll needs the **Manage Server** permission or this server's Tripoley admin role."
    ),
    AdminTool.AUDIT: N_("The audit needs the **Manage Server** permission or this server's Tripoley admin role."),
    AdminTool.KICK: N_("Kicking a player needs the **Manage Server** permission or this server's Tripoley admin role."),
    AdminTool.RESET: N_(
        "Resetting the economy needs the **Manage Server** permission or this server's Tripoley admin role."
    ),
    AdminTool.SETTINGS: N_(
        "Changing the settings needs the **Manage Server** permission or this server's Tripoley admin role."
    ),
    AdminTool.SEASON: N_(
        "Running the seasons needs the **Manage Server** permission or this server's Tripoley admin role."
    ),
}
STALE_CONTROLS = {
    "button": N_("That button is no longer in use."),
    "menu": N_("That menu is no longer in use."),
    "form": N_("That form is no longer in use."),
}
WORDS.update(
    {
        Refusal.SERVER_ONLY: lambda: _("Tripoley is played in a server's channels, not in direct messages."),
        Refusal.NO_CHANNEL: lambda: _("There is no table here: Tripoley is played in a server's channels."),
        Refusal.STALE_CONTROL: lambda kind: _(STALE_CONTROLS.get(kind, STALE_CONTROLS["button"])),
        Refusal.TABLE_GONE: lambda: _(
            "This table is closed: that game is over. Start a new one with `/tripoley start`."
        ),
        Refusal.PAGE_GONE: lambda: _("That page is no longer available."),
        Refusal.LOBBY_CLOSED: lambda: _("This lobby is closed: the game has started."),
        Refusal.AMOUNT_UNAFFORDABLE: lambda: _("You don't have enough chips for that."),
        Refusal.AMOUNT_TOO_LATE: lambda: _("That round is over; your amount was not used."),
        Refusal.NOT_A_NUMBER: lambda typed: _("“{typed}” is not a whole number of chips.").format(typed=escape(typed)),
        Refusal.AMOUNT_OUTSIDE: lambda low, high, amount: _(
            "The amount must be between {low} and {high} chips; you entered {amount}."
        ).format(low=low, high=high, amount=amount),
        Refusal.LOG_NOT_KEPT: lambda: _("That game's log isn't kept in this server."),
        Refusal.NO_REPLAY: lambda: _("That game has no replay file (it began before games were kept as replays)."),
        Refusal.ADMIN_ONLY: lambda tool: _(ADMIN_ONLY.get(tool, ADMIN_ONLY[AdminTool.SETTINGS])),
        Refusal.MANAGE_SERVER_ONLY: lambda: _("Choosing the admin role needs the **Manage Server** permission."),
    }
)
