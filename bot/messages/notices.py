"""The bot's notices outside a table's moves: a turn ping, a hand that can't go by DM, a table
whose place on Discord is gone, the chip audit, how long until a grant.

A ping and the closed-DMs notice are read by the table's channel: in the table's language
(:func:`bot.i18n.in_table_language`); the audit and a wait in the reader's."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from bot.i18n import SPOKEN, _, in_table_language, reading
from bot.messages.handtext import prompt_text
from bot.messages.text import timestamp
from bot.tables.model import Table
from engine.language import N_

# A turn ping (``{who}``: the mentions, ``{what}``: the decision's prompt), by (the hand view is
# up to date, a timer runs). What every one says between ``{who}`` and ``{what}`` (" your turn: ")
# is how a ping is found after a restart (:func:`is_turn_ping`).
PINGS = {
    (True, True): N_(
        "{who} your turn: {what} — your hand view is up to date (or press **Show my hand**). Time runs out {time}."
    ),
    (True, False): N_("{who} your turn: {what} — your hand view is up to date (or press **Show my hand**)."),
    (False, True): N_(
        "{who} your turn: {what} — press **Show my hand** on the table message <{link}>. Time runs out {time}."
    ),
    (False, False): N_("{who} your turn: {what} — press **Show my hand** on the table message <{link}>."),
}
PING_MARK = " your turn: "  # what an English turn ping says after its mention


def _ping_marks() -> frozenset[str]:
    """What a turn ping says after its mention, in every language."""
    marks = set()
    for locale in SPOKEN:
        with reading(locale):
            for sentence in PINGS.values():
                marks.add(_(sentence).partition("{who}")[2].partition("{what}")[0])
    return frozenset(mark for mark in marks if mark.strip())


def is_turn_ping(content: str) -> bool:
    """Whether a message of the bot's is a turn ping (in any language), to find one after a restart."""
    return content.startswith("<@") and any(mark in content for mark in _ping_marks())


@in_table_language
def ping_text(
    table: Table,
    user_ids: int | Sequence[int],
    phase: str | None,
    deadline: float | None,
    link: str,
    hand_view_updated: bool,
) -> str:
    """The ping: who (everyone still choosing, in a step decided at once), what (the phase's words
    only) and until when."""
    who = " ".join(f"<@{u}>" for u in ((user_ids,) if isinstance(user_ids, int) else user_ids))
    what = prompt_text(phase)
    return _(PINGS[(hand_view_updated, bool(deadline))]).format(who=who, what=what, link=link, time=timestamp(deadline))


@in_table_language
def hand_dms_closed(table: Table, user_id: int) -> str:
    """Said in the table's channel when a player's hand could not go to them by DM."""
    return _(
        "<@{user}> I couldn't DM you your hand (your DMs are closed to me). Press **Show my hand** on the table message instead."
    ).format(user=user_id)


# Why a table's place on Discord is gone (bot.discordio.places), as the operator's log says it (English: the operator's log).
PLACE_LOST = {
    "channel-deleted": "its channel was deleted",
    "thread-deleted": "its thread was deleted",
    "thread-closed": "its thread was archived or locked",
    "removed": "the bot was removed from the server",
    "no-access": "the bot can no longer post in its channel",
}

# The table's last log line when it ends because its place is gone: a lobby (buy-ins refunded), a game.
LOBBY_PLACE_LOST = {
    "channel-deleted": N_("The table closed because its channel was deleted; buy-ins are refunded."),
    "thread-deleted": N_("The table closed because its thread was deleted; buy-ins are refunded."),
    "thread-closed": N_("The table closed because its thread was archived or locked; buy-ins are refunded."),
    "removed": N_("The table closed because the bot was removed from the server; buy-ins are refunded."),
    "no-access": N_("The table closed because the bot can no longer post in its channel; buy-ins are refunded."),
}
GAME_PLACE_LOST = {
    "channel-deleted": N_("The game ended because its channel was deleted; everyone is cashed out."),
    "thread-deleted": N_("The game ended because its thread was deleted; everyone is cashed out."),
    "thread-closed": N_("The game ended because its thread was archived or locked; everyone is cashed out."),
    "removed": N_("The game ended because the bot was removed from the server; everyone is cashed out."),
    "no-access": N_("The game ended because the bot can no longer post in its channel; everyone is cashed out."),
}

# What the host is told by DM (the table can't tell anyone where it played): a lobby, a game.
LOBBY_PLACE_LOST_NOTICE = {
    "channel-deleted": N_(
        "Your **{game}** table in {channel} ended because its channel was deleted:"
        " every buy-in is back in its wallet. Start a new one with `/tripoley start`."
    ),
    "thread-deleted": N_(
        "Your **{game}** table in {channel} ended because its thread was deleted:"
        " every buy-in is back in its wallet. Start a new one with `/tripoley start`."
    ),
    "thread-closed": N_(
        "Your **{game}** table in {channel} ended because its thread was archived or locked:"
        " every buy-in is back in its wallet. Start a new one with `/tripoley start`."
    ),
    "removed": N_(
        "Your **{game}** table in {channel} ended because the bot was removed from the server:"
        " every buy-in is back in its wallet. Start a new one with `/tripoley start`."
    ),
    "no-access": N_(
        "Your **{game}** table in {channel} ended because the bot can no longer post in its channel:"
        " every buy-in is back in its wallet. Start a new one with `/tripoley start`."
    ),
}
GAME_PLACE_LOST_NOTICE = {
    "channel-deleted": N_(
        "Your **{game}** table in {channel} ended because its channel was deleted:"
        " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`."
    ),
    "thread-deleted": N_(
        "Your **{game}** table in {channel} ended because its thread was deleted:"
        " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`."
    ),
    "thread-closed": N_(
        "Your **{game}** table in {channel} ended because its thread was archived or locked:"
        " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`."
    ),
    "removed": N_(
        "Your **{game}** table in {channel} ended because the bot was removed from the server:"
        " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`."
    ),
    "no-access": N_(
        "Your **{game}** table in {channel} ended because the bot can no longer post in its channel:"
        " everyone was cashed out with the chips they had. Start a new one with `/tripoley start`."
    ),
}


def place_lost_notice(preset_name: str, channel_id: int, why: str, lobby: bool, locale: str | None = None) -> str:
    """What the host is told by DM: the table can't tell anyone where it played (``why``: a key of
    :data:`PLACE_LOST`); in ``locale``, the table's."""
    with reading(locale) if locale else nullcontext():
        sentence = _((LOBBY_PLACE_LOST_NOTICE if lobby else GAME_PLACE_LOST_NOTICE)[why])
    return sentence.format(game=preset_name, channel=f"<#{channel_id}>")


AUDIT_HEAD = N_("**Chip audit** — chips only enter through grants and leave through removals.")
# Where the chips are: without and with chips frozen at quarantined tables.
AUDIT_HELD = N_("Players' wallets {wallets} + house {house} + on tables {tables} = **{held}**")
AUDIT_HELD_FROZEN = N_("Players' wallets {wallets} + house {house} + on tables {tables} + frozen {frozen} = **{held}**")
AUDIT_CAME_IN = N_("Grants {granted} − removals {removed} = **{net}**")
AUDIT_QUARANTINED = N_("Quarantined tables (their saved state could not be loaded; they are closed):")
QUARANTINED_FROZEN = N_("- table {table} in <#{channel}>: **{chips} chips frozen**")
QUARANTINED_RETURNED = N_("- table {table} in <#{channel}>: chips returned to the players")
AUDIT_UNBALANCED = N_("❌ The books don't balance: please report this.")
# Every chip accounted for, some frozen: at one quarantined table, or at several.
AUDIT_FROZEN_AT = {
    True: N_(
        "⚠️ Every chip is accounted for, but {chips} are frozen at quarantined table {tables}:"
        " the bot's operator returns them with `python -m bot repair TABLE_ID`."
    ),
    False: N_(
        "⚠️ Every chip is accounted for, but {chips} are frozen at quarantined tables {tables}:"
        " the bot's operator returns them with `python -m bot repair TABLE_ID`."
    ),
}
AUDIT_BALANCED = N_("✅ Every chip is accounted for.")


def audit_text(audit: dict[str, Any]) -> str:
    """``/tripoley-admin audit``'s answer: where the chips are, and the verdict. Quarantined tables
    (bot.tables.quarantine) are listed apart: their chips returned, or frozen until an operator
    repairs them."""
    held = audit["users"] + audit["house"] + audit["tables"] + audit["frozen"]
    where = AUDIT_HELD_FROZEN if audit["frozen"] else AUDIT_HELD
    lines = [
        _(AUDIT_HEAD),
        _(where).format(
            wallets=audit["users"], house=audit["house"], tables=audit["tables"], frozen=audit["frozen"], held=held
        ),
        _(AUDIT_CAME_IN).format(
            granted=audit["granted"], removed=audit["removed"], net=audit["granted"] - audit["removed"]
        ),
    ]
    quarantined = audit["quarantined"]
    if quarantined:
        lines.append(_(AUDIT_QUARANTINED))
        for q in quarantined:
            line = QUARANTINED_FROZEN if q["chips"] else QUARANTINED_RETURNED
            lines.append(_(line).format(table=q["id"], channel=q["channel_id"], chips=q["chips"]))
    stuck = [q["id"] for q in quarantined if q["chips"]]
    if not audit["ok"]:
        lines.append(_(AUDIT_UNBALANCED))
    elif stuck:
        ids = ", ".join(map(str, stuck))
        lines.append(_(AUDIT_FROZEN_AT[len(stuck) == 1]).format(chips=audit["frozen"], tables=ids))
    else:
        lines.append(_(AUDIT_BALANCED))
    return "\n".join(lines)


def duration_text(seconds: float) -> str:
    """``3 h 5 min``, ``12 min``, ``40 s``: how long until a cooldown ends."""
    seconds = max(0, int(seconds + 0.999))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours and minutes:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    if hours:
        return _("{hours} h").format(hours=hours)
    if minutes:
        return _("{minutes} min").format(minutes=minutes)
    return _("{seconds} s").format(seconds=secs)
