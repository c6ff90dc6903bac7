"""The words of the chip commands' answers: a wallet, the grants, the leaderboard, forget-me, and
the admin tools (grants and removals, the house, the reset, the server's settings).

Each is a whole sentence with named placeholders, one per meaning and count; the commands
(cogs/, bot/discordio/admin.py) give the facts.
"""

from __future__ import annotations

from bot.economy.prefs import GuildConfig
from bot.i18n import ENDONYMS, READING, _, ngettext
from bot.i18n.choice import spoken
from bot.messages.notices import duration_text
from bot.messages.text import escape
from engine.cardnames import card_names
from engine.language import N_
from engine.presets import PRESETS

# -- a wallet and its grants -------------------------------------------------------------

WALLET = N_("Your wallet: **{chips}** chips.")
AT_THIS_TABLE = N_("At this table: **{chips}** chips.")
# When a grant (bot.economy.bank.CLAIMS) can be claimed next: in a while, or now.
GRANT_IN = {"daily": N_("`/tripoley daily` in {wait}"), "relief": N_("`/tripoley relief` in {wait}")}
GRANT_READY = {"daily": N_("`/tripoley daily` is ready"), "relief": N_("`/tripoley relief` is ready")}
DAILY_CLAIMED = N_("+{chips} chips! Your wallet: **{balance}** chips. The next daily grant is in {wait}.")
RELIEF_CLAIMED = N_("+{chips} chips to get you back in. Your wallet: **{balance}** chips.")


def grant_due(kind: str, wait: float) -> str:
    """When ``kind`` (daily, relief) can be claimed: in ``wait`` seconds, or now (0 or less)."""
    return _(GRANT_IN[kind]).format(wait=duration_text(wait)) if wait > 0 else _(GRANT_READY[kind])


def daily_claimed(chips: int, balance: int, cooldown: float) -> str:
    return _(DAILY_CLAIMED).format(chips=chips, balance=balance, wait=duration_text(cooldown))


def relief_claimed(chips: int, balance: int) -> str:
    return _(RELIEF_CLAIMED).format(chips=chips, balance=balance)


# -- the leaderboard and stats -----------------------------------------------------------

# Its title by what it ranks, all time and this week.
LEADERBOARD_TITLE = {
    ("balance", False): N_("Leaderboard — balance"),
    ("net", False): N_("Leaderboard — net winnings"),
    ("wins", False): N_("Leaderboard — games won"),
    ("net", True): N_("Leaderboard — net winnings this week"),
    ("wins", True): N_("Leaderboard — games won this week"),
}
BOARD_EMPTY = {False: N_("Nobody has played yet."), True: N_("No games ended this week yet.")}
PAGE = N_("Page {page}/{pages}")
PAGE_OF_WEEK = N_("Page {page}/{pages} · the week starts Monday 00:00 UTC")
NO_GAMES_YET = N_("{name} hasn't finished a game here yet.")
STATS_TITLE = N_("Stats")
# The fields of /tripoley stats, by what they count.
STATS_FIELDS = {
    "games": N_("Games"),
    "wins": N_("Wins"),
    "rate": N_("Win rate"),
    "favourite": N_("Favourite game"),
    "rounds": N_("Rounds"),
    "pots": N_("Pots won"),
    "net": N_("Net winnings"),
    "best": N_("Best poker hand"),
}


def board_row(rank: int, user_id: int, by: str, value: int) -> str:
    """One row of the leaderboard ``by`` (balance, net, wins): net winnings signed."""
    shown = f"+{value}" if by == "net" and value > 0 else str(value)
    if by == "wins":
        row = ngettext("**{rank}.** <@{user}> — {value} win", "**{rank}.** <@{user}> — {value} wins", abs(value))
    else:
        row = ngettext("**{rank}.** <@{user}> — {value} chip", "**{rank}.** <@{user}> — {value} chips", abs(value))
    return row.format(rank=rank, user=user_id, value=shown)


def page_footer(page: int, pages: int, week: bool) -> str:
    """``page``: counted from 1."""
    return _(PAGE_OF_WEEK if week else PAGE).format(page=page, pages=pages)


def hand_name(english: str) -> str:
    """A poker hand's name as the engine gives it (the stats keep it so) in the language being read."""
    return card_names(READING.get().value).hand(english)


def no_games_yet(name: str) -> str:
    return _(NO_GAMES_YET).format(name=escape(name))


# -- forget-me ---------------------------------------------------------------------------

FORGET_EVERYWHERE_ASK = N_(
    "This deletes, in **every** server where you played: your wallets (their chips are gone for good), "
    "your stats and your name from the games; and your DM and ping preferences. Ledger rows stay, "
    "anonymised, so each server's totals still add up. Sure?"
)
FORGET_ASK = N_(
    "This deletes your wallet (its chips are gone for good), your stats and your name from this "
    "server's games. Ledger rows stay, anonymised, so the server's totals still add up. If you play "
    "here again you start at 0 chips, and your daily and relief cooldowns carry on: all that is kept "
    "for that is a keyed hash of your id (see PRIVACY.md). Sure?"
)
FORGET_EVERYWHERE_BUTTON = N_("Forget me everywhere")
FORGET_BUTTON = N_("Forget me")
FORGOTTEN_HERE = N_("Done: your wallet ({chips} chips), stats and name are gone from this server.")


def forgotten_everywhere(servers: int, chips: int) -> str:
    return ngettext(
        "Done: you are forgotten in {servers} server ({chips} chips removed from your wallets),"
        " and your preferences are deleted.",
        "Done: you are forgotten in {servers} servers ({chips} chips removed from your wallets),"
        " and your preferences are deleted.",
        servers,
    ).format(servers=servers, chips=chips)


def forgotten_here(chips: int) -> str:
    return _(FORGOTTEN_HERE).format(chips=chips)


# -- the admin tools ---------------------------------------------------------------------

HOUSE_HOLDS = N_("The house holds **{chips}** chips. AI seats buy in from it and their winnings go back to it.")
HOUSE_ADDED = N_("Added {chips} chips: the house holds **{balance}** now.")
HOUSE_REMOVED = N_("Removed {chips} chips: the house holds **{balance}** now.")
GRANTED = N_("Granted **{chips}** chips to <@{user}>; their wallet holds {balance}.")
TOOK = N_("Took **{chips}** chips from <@{user}>; their wallet holds {balance}.")
DO_IT_AGAIN = N_("Do it again")
RESET_ASK = N_(
    "This puts **every** wallet in this server back to {chips} chips and the house back to {bankroll}. Sure?"
)
RESET_BUTTON = N_("Reset the economy")


def house_holds(chips: int) -> str:
    return _(HOUSE_HOLDS).format(chips=chips)


def adjusted(user_id: int, moved: int, balance: int, house: bool) -> str:
    """An admin's grant (``moved`` ≥ 0) or removal to a member's wallet, or to the house's."""
    if house:
        return _(HOUSE_ADDED if moved >= 0 else HOUSE_REMOVED).format(chips=abs(moved), balance=balance)
    return _(GRANTED if moved >= 0 else TOOK).format(chips=abs(moved), user=user_id, balance=balance)


def reset_ask(chips: int, bankroll: int) -> str:
    return _(RESET_ASK).format(chips=chips, bankroll=bankroll)


def reset_done(wallets: int, chips: int, bankroll: int) -> str:
    return ngettext(
        "Done: {wallets} wallet is back to {chips} chips (the house to {bankroll}).",
        "Done: {wallets} wallets are back to {chips} chips (the house to {bankroll}).",
        wallets,
    ).format(wallets=wallets, chips=chips, bankroll=bankroll)


# The server's settings, as /tripoley settings shows them (and /tripoley-admin settings after a change).
SETTINGS = N_(
    "**Server settings**\n"
    "Default game: {game}\n"
    "Starting balance: {starting} chips\n"
    "Turn timer: {timer} s\n"
    "AI pause: {pause:g} s\n"
    "Daily grant: {daily} chips every {daily_hours:g} h\n"
    "Relief grant: {relief} chips every {relief_hours:g} h, for wallets below {below} chips\n"
    "{threads}\n"
    "{pings}\n"
    "{admins}\n"
    "Language of the tables: {language}\n"
    "House bankroll of a new server: {bankroll} chips (see `/tripoley-admin house`)\n"
    "{web_pages}"
)
SERVER_DISCORD_LANGUAGE = N_("the server's Discord language")
THREADS = {True: N_("Tables in threads: on"), False: N_("Tables in threads: off")}
PINGS = {True: N_("Turn pings: on by default"), False: N_("Turn pings: off by default")}
ADMINS_WITH_ROLE = N_("Tripoley admins: Manage Server and the role <@&{role}>")
ADMINS_MANAGERS_ONLY = N_("Tripoley admins: Manage Server only")


def language_name(setting: str | None) -> str:
    """The server's language setting as ``/tripoley settings`` names it."""
    locale = spoken(setting)
    return ENDONYMS[locale] if locale is not None else _(SERVER_DISCORD_LANGUAGE)


def settings_text(config: GuildConfig, house_bankroll: int, smallest_buy_in: int, web_pages: str) -> str:
    """The server's settings (``smallest_buy_in``: relief's bar, the smallest usual buy-in; ``web_pages``:
    the line about the server's web pages, :func:`bot.messages.web.web_pages_setting`)."""
    preset = PRESETS.get(config.default_preset)
    admins = _(ADMINS_WITH_ROLE).format(role=config.admin_role) if config.admin_role else _(ADMINS_MANAGERS_ONLY)
    return _(SETTINGS).format(
        game=_(preset.name) if preset is not None else config.default_preset,
        starting=config.starting_balance,
        timer=int(config.turn_timeout),
        pause=config.ai_pause,
        daily=config.daily_amount,
        daily_hours=config.daily_cooldown_hours,
        relief=config.relief_amount,
        relief_hours=config.relief_cooldown_hours,
        below=smallest_buy_in,
        threads=_(THREADS[bool(config.threads)]),
        pings=_(PINGS[bool(config.pings)]),
        admins=admins,
        language=language_name(config.language),
        bankroll=house_bankroll,
        web_pages=web_pages,
    )
