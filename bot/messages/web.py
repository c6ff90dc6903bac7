"""The words of the web pages (bot/web): every label and sentence a viewer reads there, whole, with
named placeholders. The templates and the pages' script take them from here (the script through the
page's data), so they move to the gettext catalogs with the rest."""

from __future__ import annotations

from typing import Any

SITE_NAME = "Tripoley"

#: Labels and sentences the templates show (``{name}`` placeholders are filled by :func:`say`).
PAGE_WORDS: dict[str, str] = {
    "replay_title": "{game}: the replay",
    "replay_heading": "Replay of a game of {game}",
    "live_title": "{game}: live",
    "live_heading": "{game}, live",
    "board_title": "Leaderboard",
    "board_heading": "The leaderboard of this server",
    "player_title": "A player's record",
    "player_heading": "{name}'s record in this server",
    "players": "Players",
    "standings": "Standings at the end",
    "rank": "Rank",
    "player": "Player",
    "chips": "Chips",
    "net": "Net",
    "wins": "Wins",
    "games": "Games",
    "rounds": "Rounds",
    "pots_won": "Pots won",
    "best_hand": "Best poker hand",
    "win_rate": "Win rate",
    "balance": "Wallet",
    "recent_games": "Recent games",
    "game": "Game",
    "replay_link": "Replay",
    "nobody_yet": "Nobody has finished a game here yet.",
    "no_games_yet": "No finished game is kept for this player.",
    "not_found_title": "Not found",
    "not_found": "There is no page here. A game's page goes when the game is removed or its time to be kept is over.",
    "too_many_title": "Too many requests",
    "too_many": "Too many requests from your address. Wait a minute and load the page again.",
    "read_only": "A read-only view: nothing on this page acts in a game.",
    "needs_script": "This page draws the table with JavaScript: turn it on to see the game step by step.",
    "unnamed_player": "a player with no game kept here",
    "index": "Tripoley on the web. Game pages are reached from the links the bot posts on Discord.",
}

#: Labels and sentences the pages' script shows (given to it as JSON in the page's data).
SCRIPT_WORDS: dict[str, str] = {
    "first": "First step",
    "back": "Step back",
    "forward": "Step forward",
    "last": "Last step",
    "step": "Step {step} of {steps}",
    "round": "Round {round}",
    "jump": "Jump to a round",
    "start": "The game is about to be dealt.",
    "nothing": "Nothing to tell at this step.",
    "dealer": "dealer",
    "to_act": "to act",
    "cards": "{count} cards",
    "stack": "{chips} chips",
    "bet": "bet {chips}",
    "spare": "Spare hand: {count} cards (never shown)",
    "sequence": "Played in Michigan",
    "showdown": "Showdown",
    "pay_suit": "Pay suit: {suit}",
    "ante": "Ante {ante}",
    "phase": "Now: {phase}",
    "status_folded": "folded",
    "status_sitting-out": "sitting out",
    "status_eliminated": "out of the game",
    "live_waiting": "Connecting to the table…",
    "live_connected": "Live: the table updates by itself.",
    "live_lost": "The connection was lost; trying again…",
    "live_over": "The game is over.",
    "live_cancelled": "The table closed before its game ended.",
    "live_replay": "Watch its replay",
}


def say(key: str, **facts: Any) -> str:
    """A page's label or sentence ``key`` with its placeholders filled."""
    return PAGE_WORDS[key].format(**facts)


def web_pages_setting(on: bool, server_url: str | None) -> str:
    """The line of ``/tripoley settings`` about the server's pages (``server_url``: None when the bot
    serves no web pages now)."""
    if not on:
        return "Leaderboard on the web: off"
    if server_url is None:
        return "Leaderboard on the web: on (the bot serves no web pages now)"
    return f"Leaderboard on the web: on, at <{server_url}>"


def history_replay_link(replay_url: str) -> str:
    """The end of a ``/tripoley history`` line: its game's replay on the web, as a masked link."""
    return f" · [Replay on the web]({replay_url})"
