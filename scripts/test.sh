#!/usr/bin/env bash
# The test command (README, CI): set up, run the static checks, then run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# Static checks first (a few seconds): lint, formatting, types (mypy's packages are set in pyproject.toml).
check() {
  local what=$1
  shift
  if ! "$@"; then
    echo "static check failed: $what (run: $*)" >&2
    exit 1
  fi
}
check "ruff lint" .venv/bin/python -m ruff check .
check "ruff format" .venv/bin/python -m ruff format --check .
check "mypy types" .venv/bin/python -m mypy

set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure" >&2
  exit 1
fi
exit "$rc"
