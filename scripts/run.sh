#!/usr/bin/env bash
# Set up the runtime (no test tools), then run the bot. Without a Discord token, play the game in the
# terminal instead. Whether there is a token is the bot's own settings' answer (the environment and
# .env, read exactly as the bot reads them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh runtime
found=0
.venv/bin/python -m bot has-token >/dev/null || found=$?
case "$found" in
  0) exec .venv/bin/python -m bot ;;
  1)
    echo "No DISCORD_TOKEN set (see README: 'Play on Discord'). Starting the game in your terminal instead."
    echo
    exec .venv/bin/python -m engine play "$@"
    ;;
  *) exit "$found" ;; # the settings could not be read: has-token said why
esac
