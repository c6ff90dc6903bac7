"""``python -m bot``: start the Discord bot."""

from __future__ import annotations

import sys

NO_TOKEN = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy it (no privileged intents are needed).
  3. Put it in a .env file next to where you run the bot (see .env.example):
         DISCORD_TOKEN=your-token-here
     or export DISCORD_TOKEN in your shell, then run `python -m bot` again.
  4. Invite the bot with the scopes "bot applications.commands" (see the README).

Just want to see the game? Play it in your terminal, no Discord needed:
    python -m engine play
"""


def main(argv: list[str] | None = None) -> int:
    from pydantic import ValidationError

    from .settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"Invalid settings:\n{exc}", file=sys.stderr)
        return 2
    token = settings.token()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2

    from .logsetup import setup_logging

    setup_logging(settings.log_level, [token])

    from .client import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
