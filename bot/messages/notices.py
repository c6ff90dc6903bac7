"""The bot's notices about a table's life outside its moves: a seat handed to the AI, a table
whose place on Discord is gone, the chip audit, how long until a grant."""

from __future__ import annotations

from bot.messages.text import escape


def left_server_to_ai(name: str) -> str:
    """The table's line when a player whose time ran out is no longer in the server."""
    return f"{escape(name)} is no longer in this server: an AI plays their seat and they are cashed out at the end."


def timed_out_to_ai(name: str, count: int) -> str:
    """The table's line when a player's seat passes to the AI after ``count`` timeouts in a row."""
    return f"{escape(name)} timed out {count} times in a row: an AI plays until they press **I'm back**."


def ai_takeover_notice(count: int) -> str:
    """What that player is told (by DM, or a ping in the channel)."""
    return (
        f"you ran out of time {count} times in a row, so an AI is playing your seat now."
        " Press **I'm back** on the table message to play again."
    )


# Why a table's place on Discord is gone (bot.discordio.places), in the words its players read.
PLACE_LOST = {
    "channel-deleted": "its channel was deleted",
    "thread-deleted": "its thread was deleted",
    "thread-closed": "its thread was archived or locked",
    "removed": "the bot was removed from the server",
    "no-access": "the bot can no longer post in its channel",
}


def place_lost_line(why: str, lobby: bool) -> str:
    """The table's last log line when it ends because its place is gone (``why``: a key of :data:`PLACE_LOST`)."""
    if lobby:
        return f"The table closed because {PLACE_LOST[why]}; buy-ins are refunded."
    return f"The game ended because {PLACE_LOST[why]}; everyone is cashed out."


def place_lost_notice(preset_name: str, channel_id: int, why: str, lobby: bool) -> str:
    """What the host is told by DM: the table can't tell anyone where it played."""
    chips = "every buy-in is back in its wallet" if lobby else "everyone was cashed out with the chips they had"
    return (
        f"Your **{preset_name}** table in <#{channel_id}> ended because {PLACE_LOST[why]}: {chips}."
        " Start a new one with `/tripoley start`."
    )


def audit_text(audit: dict) -> str:
    """``/tripoley-admin audit``'s answer: where the chips are, and the verdict. Quarantined tables
    (bot.tables.quarantine) are listed apart: their chips returned, or frozen until an operator
    repairs them."""
    held = audit["users"] + audit["house"] + audit["tables"] + audit["frozen"]
    net = audit["granted"] - audit["removed"]
    frozen = f" + frozen {audit['frozen']}" if audit["frozen"] else ""
    lines = [
        "**Chip audit** — chips only enter through grants and leave through removals.",
        f"Players' wallets {audit['users']} + house {audit['house']} + on tables {audit['tables']}{frozen} = **{held}**",
        f"Grants {audit['granted']} − removals {audit['removed']} = **{net}**",
    ]
    quarantined = audit["quarantined"]
    if quarantined:
        lines.append("Quarantined tables (their saved state could not be loaded; they are closed):")
        for q in quarantined:
            held_there = f"**{q['chips']} chips frozen**" if q["chips"] else "chips returned to the players"
            lines.append(f"- table {q['id']} in <#{q['channel_id']}>: {held_there}")
    stuck = [q["id"] for q in quarantined if q["chips"]]
    if not audit["ok"]:
        lines.append("❌ The books don't balance: please report this.")
    elif stuck:
        ids = ", ".join(map(str, stuck))
        lines.append(
            f"⚠️ Every chip is accounted for, but {audit['frozen']} are frozen at quarantined table(s) {ids}: "
            f"the bot's operator returns them with `python -m bot repair TABLE_ID`."
        )
    else:
        lines.append("✅ Every chip is accounted for.")
    return "\n".join(lines)


def duration_text(seconds: float) -> str:
    """``3 h 5 min``, ``12 min``, ``40 s``: how long until a cooldown ends."""
    seconds = max(0, int(seconds + 0.999))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"
