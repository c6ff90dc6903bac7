#!/usr/bin/env bash
# The test command (README, CI): set up with the test tools, run the static checks, then the whole suite.
#   bash scripts/test.sh [--with-postgres] [PYTEST ARGUMENTS...]
# The suite runs in TEST_WORKERS processes (pytest-xdist; default 3: most of its time is spent waiting on the
# local Discord, not computing); `-n 0` among the arguments runs it in this one.
# --with-postgres (implied in CI, CI=true): install the system's postgresql package when it is missing,
# for the PostgreSQL tests (tests/pgserver.py starts a throwaway server from its binaries). Without it, a
# machine lacking them skips those tests, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
with_postgres="${CI:-}"
pytest_args=()
for arg in "$@"; do
  if [ "$arg" = "--with-postgres" ]; then with_postgres=true; else pytest_args+=("$arg"); fi
done

have_postgres() { ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1; }
if [ "$with_postgres" = "true" ] && ! have_postgres; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "test: no apt-get here: install PostgreSQL's server package yourself for the PostgreSQL tests." >&2
  else
    echo "test: installing PostgreSQL (the postgresql package) for the PostgreSQL tests."
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo -n"; fi
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null; } \
      || echo "test: PostgreSQL could not be installed; its tests will fail in CI and be skipped elsewhere." >&2
  fi
fi

bash scripts/setup.sh test

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
.venv/bin/python -m pytest -n "${TEST_WORKERS:-3}" ${pytest_args[@]+"${pytest_args[@]}"}
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure" >&2
  exit 1
fi
exit "$rc"
