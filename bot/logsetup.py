"""Logging set-up with a filter that redacts secrets (the bot token) everywhere."""

from __future__ import annotations

import logging
import logging.handlers
import re
from pathlib import Path

_REDACTED = "[REDACTED]"
# Discord bot tokens look like base64(user id).timestamp.hmac; also catch "Bot <token>" headers.
_TOKEN_SHAPE = re.compile(r"[A-Za-z\d_\-]{23,28}\.[A-Za-z\d_\-]{6,7}\.[A-Za-z\d_\-]{27,}")


class RedactingFilter(logging.Filter):
    """Replaces every known secret (and anything shaped like a bot token) in log records."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        super().__init__()
        self.secrets = [s for s in (secrets or []) if s and len(s) >= 6]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, _REDACTED)
        return _TOKEN_SHAPE.sub(_REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        redacted = self.redact(message)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if redacted != message or record.args:
            record.msg = redacted
            record.args = None
        return True


def setup_logging(
    level: str = "INFO", secrets: list[str] | None = None, log_file: str | None = None
) -> RedactingFilter:
    """Root logging to stderr, or appended to ``log_file`` (reopened when logrotate moves it away);
    the redacting filter sits on every root handler."""
    redactor = RedactingFilter(secrets)
    root = logging.getLogger()
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    if not root.handlers:
        handler: logging.Handler
        if log_file:
            Path(log_file).parent.mkdir(parents=True, exist_ok=True)
            handler = logging.handlers.WatchedFileHandler(log_file, encoding="utf-8")
        else:
            handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
        root.addHandler(handler)
    for handler in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(redactor)
        else:
            for f in handler.filters:
                if isinstance(f, RedactingFilter):
                    f.secrets = redactor.secrets
    logging.getLogger("discord.http").setLevel(max(root.level, logging.INFO))
    return redactor
