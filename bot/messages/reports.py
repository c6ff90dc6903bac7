"""The owner's error report (bot.reporting.OwnerReports): what went wrong, where, and how often."""

from __future__ import annotations

from bot.messages.text import escape
from bot.reporting import ErrorSeen

CONTENT_LIMIT = 2000  # Discord's message content limit


def error_report(seen: list[ErrorSeen], more: int) -> str:
    """A DM of at most 2,000 characters: one line per kind of error, the most frequent first."""
    total = sum(s.count for s in seen) + more
    lines = [f"⚠️ Tripoley Bot met {total} unexpected error{'s' if total != 1 else ''} (the log has each traceback):"]
    for s in seen:
        times = f" ×{s.count}" if s.count > 1 else ""
        lines.append(f"• `{s.kind}` at `{s.where}`{times}: {escape(s.message)}")
    if more:
        lines.append(f"…and {more} more of other kinds.")
    text = "\n".join(lines)
    return text if len(text) <= CONTENT_LIMIT else text[: CONTENT_LIMIT - 1] + "…"
