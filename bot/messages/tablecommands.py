"""The words of the table commands' answers (cogs/tables.py): what a command says when the table's
own answer is none, the host's kick question, ``/tripoley history``, the rule pages' titles, the
DM and ping preferences. Whole sentences with named placeholders; names escaped here.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from bot.messages.text import escape
from engine.language import N_

# A command's answer when the table gave none of its own (TableUpdate.message).
JOINED = N_("You're in!")
LEFT = N_("You left.")
REMOVED = N_("Removed.")
STOPPED = N_("Stopped.")

KICK_ASK = N_(
    "Hand **{name}**'s seat to an AI for the rest of the game? Their chips stay theirs:"
    " they are cashed out at the end, like a player who left."
)

NO_GAMES = N_("No finished games yet. `/tripoley start` one!")
HISTORY_TITLE = N_("Recent games")
HISTORY_GAME = N_("{number}. **{game}** in <#{channel}> {when}: {podium}")
HISTORY_PLAYER = "{name} {chips} ({net})"
HISTORY_RULES = N_("  house rules: {rules}")
HISTORY_FOOTER = N_(
    "Log N: the whole story of game N. Replay N: its file, every deck and decision (python -m engine replay FILE)"
)


DMS_OFF = N_("No more hand DMs: use **Show my hand** on the table message.")
DM_TEST = N_("👋 This is Tripoley checking that I can DM you: your hand will come here at every deal.")
DMS_CLOSED = N_(
    "I couldn't DM you: your DMs are closed to me. Allow direct messages from this server's members "
    "(Privacy Settings) and your hands will come by DM; until then use **Show my hand**."
)
DMS_ON = N_("I sent you a test DM: you'll get your hand there at every deal.")
PINGS_ON = N_(
    "I'll ping you when it's your turn and you're not watching the table "
    "(a short message, marked ✓ done once you've played)."
)
PINGS_OFF = N_("No more turn pings: watch the table message for ⏳ and your name.")


def kick_ask(name: str) -> str:
    return _(KICK_ASK).format(name=escape(name))


def history_lines(number: int, game: dict[str, Any], replay_link: str = "") -> list[str]:
    """A finished game of ``/tripoley history`` (``game``: its row, with its saved results): who
    finished how (the first four), its replay on the web (``replay_link``, or nothing), its house rules."""
    result = game["result"] or {}
    podium = ", ".join(
        HISTORY_PLAYER.format(
            name=escape(s["name"]), chips=s["final"], net=f"+{s['net']}" if s["net"] > 0 else s["net"]
        )
        for s in (result.get("seats") or [])[:4]
    )
    when = f"<t:{int(game['ended_at'])}:R>" if game["ended_at"] else ""
    name = escape(_(result.get("preset_name", game["preset"])))
    lines = [
        _(HISTORY_GAME).format(number=number, game=name, channel=game["channel_id"], when=when, podium=podium)
        + replay_link
    ]
    if result.get("house_rules"):
        lines.append(_(HISTORY_RULES).format(rules="; ".join(result["house_rules"])))
    return lines
