#!/usr/bin/env bash
# Set up, then run the bot. Without a Discord token, play the game in the terminal instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
token="${DISCORD_TOKEN:-}"
if [ -z "$token" ] && [ -f .env ]; then
  token=$(sed -n 's/^DISCORD_TOKEN=//p' .env | tail -n 1)
fi
if [ -z "$token" ]; then
  echo "No DISCORD_TOKEN set (see README: 'Play on Discord'). Starting the game in your terminal instead."
  echo
  exec .venv/bin/python -m engine play "$@"
fi
exec .venv/bin/python -m bot
