#!/usr/bin/env bash
# Make the lock files again from pyproject.toml, with uv's `pip compile` (every pin with its hashes, for
# every platform and Python from 3.11 on):
#   requirements.lock        the runtime (what scripts/setup.sh installs for run.sh and production)
#   requirements-test.lock   the same runtime pins plus the test tools (scripts/test.sh)
#
#   bash scripts/lock.sh                                # after changing pyproject.toml: the pins that still fit stay
#   bash scripts/lock.sh --upgrade                      # every package to the newest version pyproject.toml allows
#   bash scripts/lock.sh --upgrade-package discord-py   # one package (and what it needs) to its newest
# Needs the package index and uv (`pip install uv` into any environment: `python3 -m uv` is used when uv is
# not on PATH). Review the diff, run bash scripts/test.sh, and commit the lock files with the change.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v uv >/dev/null 2>&1; then
  uv=(uv)
elif python3 -m uv --version >/dev/null 2>&1; then
  uv=(python3 -m uv)
else
  echo "lock: uv is needed: pip install uv (into any environment), then run this again." >&2
  exit 1
fi
common=(--universal --python-version 3.11 --generate-hashes --custom-compile-command "bash scripts/lock.sh" --quiet)
"${uv[@]}" pip compile pyproject.toml "${common[@]}" "$@" -o requirements.lock
"${uv[@]}" pip compile pyproject.toml --extra test --constraint requirements.lock "${common[@]}" "$@" \
  -o requirements-test.lock
