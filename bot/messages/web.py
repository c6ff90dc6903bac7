"""The words of the web pages (bot/web): every label and sentence a viewer reads there, whole, with
named placeholders. The templates and the pages' script take them from here (the script through the
page's data), marked for the gettext catalogs and looked up per request in the page's language (a
game's: its table's; a server's: its admins' setting): :func:`page_words`, :func:`script_words`."""

from __future__ import annotations

from typing import Any

from bot.i18n import READING, _
from engine.cardnames import card_names
from engine.cards import RANKS
from engine.language import N_

SITE_NAME = "Tripoley"

#: Labels and sentences the templates show (``{name}`` placeholders are filled by :func:`say`).
PAGE_WORDS: dict[str, str] = {
    "replay_title": N_("{game}: the replay"),
    "replay_heading": N_("Replay of a game of {game}"),
    "live_title": N_("{game}: live"),
    "live_heading": N_("{game}, live"),
    "board_title": N_("Leaderboard"),
    "board_heading": N_("The leaderboard of this server"),
    "player_title": N_("A player's record"),
    "player_heading": N_("{name}'s record in this server"),
    "players": N_("Players"),
    "standings": N_("Standings at the end"),
    "rank": N_("Rank"),
    "player": N_("Player"),
    "chips": N_("Chips"),
    "net": N_("Net"),
    "wins": N_("Wins"),
    "games": N_("Games"),
    "rounds": N_("Rounds"),
    "pots_won": N_("Pots won"),
    "best_hand": N_("Best poker hand"),
    "win_rate": N_("Win rate"),
    "balance": N_("Wallet"),
    "recent_games": N_("Recent games"),
    "game": N_("Game"),
    "replay_link": N_("Replay"),
    "nobody_yet": N_("Nobody has finished a game here yet."),
    "no_games_yet": N_("No finished game is kept for this player."),
    "not_found_title": N_("Not found"),
    "not_found": N_(
        "There is no page here. A game's page goes when the game is removed or its time to be kept is over."
    ),
    "too_many_title": N_("Too many requests"),
    "too_many": N_("Too many requests from your address. Wait a minute and load the page again."),
    "read_only": N_("A read-only view: nothing on this page acts in a game."),
    "needs_script": N_("This page draws the table with JavaScript: turn it on to see the game step by step."),
    "unnamed_player": N_("a player with no game kept here"),
    "index": N_("Tripoley on the web. Game pages are reached from the links the bot posts on Discord."),
}

#: Labels and sentences the pages' script shows (given to it as JSON in the page's data).
SCRIPT_WORDS: dict[str, str] = {
    "first": N_("First step"),
    "back": N_("Step back"),
    "forward": N_("Step forward"),
    "last": N_("Last step"),
    "step": N_("Step {step} of {steps}"),
    "round": N_("Round {round}"),
    "jump": N_("Jump to a round"),
    "start": N_("The game is about to be dealt."),
    "nothing": N_("Nothing to tell at this step."),
    "dealer": N_("dealer"),
    "to_act": N_("to act"),
    "cards": N_("{count} cards"),
    "stack": N_("{chips} chips"),
    "bet": N_("bet {chips}"),
    "spare": N_("Spare hand: {count} cards (never shown)"),
    "sequence": N_("Played in Michigan"),
    "showdown": N_("Showdown"),
    "pay_suit": N_("Pay suit: {suit}"),
    "ante": N_("Ante {ante}"),
    "phase": N_("Now: {phase}"),
    "status_folded": N_("folded"),
    "status_sitting-out": N_("sitting out"),
    "status_eliminated": N_("out of the game"),
    "live_waiting": N_("Connecting to the table…"),
    "live_connected": N_("Live: the table updates by itself."),
    "live_lost": N_("The connection was lost; trying again…"),
    "live_over": N_("The game is over."),
    "live_cancelled": N_("The table closed before its game ended."),
    "live_replay": N_("Watch its replay"),
}


def page_words() -> dict[str, str]:
    """The templates' labels in the language being read (``words`` in the templates)."""
    return {key: _(text) for key, text in PAGE_WORDS.items()}


def script_words() -> dict[str, Any]:
    """What the pages' script is given as JSON: its labels in the language being read (their
    ``{placeholders}`` as in English) and, under ``ranks``, each rank's letter in the engine's
    notation (``T``, ``Q``) as that language writes it (``10``, ``D``)."""
    labels: dict[str, Any] = {key: _(text) for key, text in SCRIPT_WORDS.items()}
    labels["ranks"] = dict(zip(RANKS, card_names(READING.get().value).ranks, strict=True))
    return labels


def say(key: str, **facts: Any) -> str:
    """A page's label or sentence ``key`` in the language being read, its placeholders filled."""
    return _(PAGE_WORDS[key]).format(**facts)


def web_pages_setting(on: bool, server_url: str | None) -> str:
    """The line of ``/tripoley settings`` about the server's pages (``server_url``: None when the bot
    serves no web pages now)."""
    if not on:
        return _("Leaderboard on the web: off")
    if server_url is None:
        return _("Leaderboard on the web: on (the bot serves no web pages now)")
    return _("Leaderboard on the web: on, at <{url}>").format(url=server_url)


def history_replay_link(replay_url: str) -> str:
    """The end of a ``/tripoley history`` line: its game's replay on the web, as a masked link."""
    return " · " + _("[Replay on the web]({url})").format(url=replay_url)
