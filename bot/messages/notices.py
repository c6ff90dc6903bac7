"""The bot's notices outside a table's moves: a turn ping, a hand that can't go by DM, a table
whose place on Discord is gone, the chip audit, how long until a grant."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.messages.text import PROMPTS, timestamp

PING_MARK = " your turn: "  # what every turn ping says after its mention (to find one after a restart)
# A turn ping (``{who}``: the mentions, ``{what}``: the decision's prompt), by (the hand view is
# up to date, a timer runs).
PINGS = {
    (True, True): "{who} your turn: {what} — your hand view is up to date (or press **Show my hand**)."
    " Time runs out {time}.",
    (True, False): "{who} your turn: {what} — your hand view is up to date (or press **Show my hand**).",
    (False, True): "{who} your turn: {what} — press **Show my hand** on the table message <{link}>."
    " Time runs out {time}.",
    (False, False): "{who} your turn: {what} — press **Show my hand** on the table message <{link}>.",
}
HAND_DMS_CLOSED = "<@{user}> I couldn't DM you your hand (your DMs are closed to me). Press **Show my hand** on the table message instead."


def ping_text(
    user_ids: int | Sequence[int], phase: str | None, deadline: float | None, link: str, hand_view_updated: bool
) -> str:
    """The ping: who (everyone still choosing, in a step decided at once), what (the phase's words
    only) and until when."""
    who = " ".join(f"<@{u}>" for u in ((user_ids,) if isinstance(user_ids, int) else user_ids))
    what = PROMPTS.get(phase or "", "your move")
    return PINGS[(hand_view_updated, bool(deadline))].format(who=who, what=what, link=link, time=timestamp(deadline))


# Why a table's place on Discord is gone (bot.discordio.places), as the operator's log says it.
PLACE_LOST = {
    "channel-deleted": "its channel was deleted",
    "thread-deleted": "its thread was deleted",
    "thread-closed": "its thread was archived or locked",
    "removed": "the bot was removed from the server",
    "no-access": "the bot can no longer post in its channel",
}

# The table's last log line when it ends because its place is gone: a lobby (buy-ins refunded), a game.
LOBBY_PLACE_LOST = {
    "channel-deleted": "The table closed because its channel was deleted; buy-ins are refunded.",
    "thread-deleted": "The table closed because its thread was deleted; buy-ins are refunded.",
    "thread-closed": "The table closed because its thread was archived or locked; buy-ins are refunded.",
    "removed": "The table closed because the bot was removed from the server; buy-ins are refunded.",
    "no-access": "The table closed because the bot can no longer post in its channel; buy-ins are refunded.",
}
GAME_PLACE_LOST = {
    "channel-deleted": "The game ended because its channel was deleted; everyone is cashed out.",
    "thread-deleted": "The game ended because its thread was deleted; everyone is cashed out.",
    "thread-closed": "The game ended because its thread was archived or locked; everyone is cashed out.",
    "removed": "The game ended because the bot was removed from the server; everyone is cashed out.",
    "no-access": "The game ended because the bot can no longer post in its channel; everyone is cashed out.",
}

# What the host is told by DM (the table can't tell anyone where it played): a lobby, a game.
LOBBY_PLACE_LOST_NOTICE = {
    "channel-deleted": "Your **{game}** table in {channel} ended because its channel was deleted:"
    " every buy-in is back in its wallet. Start a new one with `/tripoley start`.",
    "thread-deleted": "Your **{game}** table in {channel} ended because its thread was deleted:"
    " every buy-in is back in its wallet. Start a new one with `/tripoley start`.",
    "thread-closed": "Your **{game}** table in {channel} ended because its thread was archived or locked:"
    " every buy-in is back in its wallet. Start a new one with `/tripoley start`.",
    "removed": "Your **{game}** table in {channel} ended because the bot was removed from the server:"
    " every buy-in is back in its wallet. Start a new one with `/tripoley start`.",
    "no-access": "Your **{game}** table in {channel} ended because the bot can no longer post in its channel:"
    " every buy-in is back in its wallet. Start a new one with `/tripoley start`.",
}
GAME_PLACE_LOST_NOTICE = {
    "channel-deleted": "Your **{game}** table in {channel} ended because its channel was deleted:"
    " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`.",
    "thread-deleted": "Your **{game}** table in {channel} ended because its thread was deleted:"
    " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`.",
    "thread-closed": "Your **{game}** table in {channel} ended because its thread was archived or locked:"
    " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`.",
    "removed": "Your **{game}** table in {channel} ended because the bot was removed from the server:"
    " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`.",
    "no-access": "Your **{game}** table in {channel} ended because the bot can no longer post in its channel:"
    " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`.",
}


def place_lost_notice(preset_name: str, channel_id: int, why: str, lobby: bool) -> str:
    """What the host is told by DM: the table can't tell anyone where it played (``why``: a key of
    :data:`PLACE_LOST`)."""
    sentence = (LOBBY_PLACE_LOST_NOTICE if lobby else GAME_PLACE_LOST_NOTICE)[why]
    return sentence.format(game=preset_name, channel=f"<#{channel_id}>")


AUDIT_HEAD = "**Chip audit** — chips only enter through grants and leave through removals."
# Where the chips are: without and with chips frozen at quarantined tables.
AUDIT_HELD = "Players' wallets {wallets} + house {house} + on tables {tables} = **{held}**"
AUDIT_HELD_FROZEN = "Players' wallets {wallets} + house {house} + on tables {tables} + frozen {frozen} = **{held}**"
AUDIT_CAME_IN = "Grants {granted} − removals {removed} = **{net}**"
AUDIT_QUARANTINED = "Quarantined tables (their saved state could not be loaded; they are closed):"
QUARANTINED_FROZEN = "- table {table} in <#{channel}>: **{chips} chips frozen**"
QUARANTINED_RETURNED = "- table {table} in <#{channel}>: chips returned to the players"
AUDIT_UNBALANCED = "❌ The books don't balance: please report this."
# Every chip accounted for, some frozen: at one quarantined table, or at several.
AUDIT_FROZEN_AT = {
    True: "⚠️ Every chip is accounted for, but {chips} are frozen at quarantined table {tables}:"
    " the bot's operator returns them with `python -m bot repair TABLE_ID`.",
    False: "⚠️ Every chip is accounted for, but {chips} are frozen at quarantined tables {tables}:"
    " the bot's operator returns them with `python -m bot repair TABLE_ID`.",
}
AUDIT_BALANCED = "✅ Every chip is accounted for."


def audit_text(audit: dict[str, Any]) -> str:
    """``/tripoley-admin audit``'s answer: where the chips are, and the verdict. Quarantined tables
    (bot.tables.quarantine) are listed apart: their chips returned, or frozen until an operator
    repairs them."""
    held = audit["users"] + audit["house"] + audit["tables"] + audit["frozen"]
    where = AUDIT_HELD_FROZEN if audit["frozen"] else AUDIT_HELD
    lines = [
        AUDIT_HEAD,
        where.format(
            wallets=audit["users"], house=audit["house"], tables=audit["tables"], frozen=audit["frozen"], held=held
        ),
        AUDIT_CAME_IN.format(
            granted=audit["granted"], removed=audit["removed"], net=audit["granted"] - audit["removed"]
        ),
    ]
    quarantined = audit["quarantined"]
    if quarantined:
        lines.append(AUDIT_QUARANTINED)
        for q in quarantined:
            line = QUARANTINED_FROZEN if q["chips"] else QUARANTINED_RETURNED
            lines.append(line.format(table=q["id"], channel=q["channel_id"], chips=q["chips"]))
    stuck = [q["id"] for q in quarantined if q["chips"]]
    if not audit["ok"]:
        lines.append(AUDIT_UNBALANCED)
    elif stuck:
        ids = ", ".join(map(str, stuck))
        lines.append(AUDIT_FROZEN_AT[len(stuck) == 1].format(chips=audit["frozen"], tables=ids))
    else:
        lines.append(AUDIT_BALANCED)
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
