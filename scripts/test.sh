#!/usr/bin/env bash
# The test command (README, CI): set up with the test tools, run the static checks, then the whole suite.
#   bash scripts/test.sh [--with-postgres] [--with-colour-emoji] [--with-chromium] [PYTEST ARGUMENTS...]
# The suite runs in TEST_WORKERS processes (pytest-xdist; default 3: most of its time is spent waiting on the
# local Discord, not computing); `-n 0` among the arguments runs it in this one.
# --with-postgres (implied in CI, CI=true): install the system's postgresql package when it is missing,
# for the PostgreSQL tests (tests/pgserver.py starts a throwaway server from its binaries). Without it, a
# machine lacking them skips those tests, saying so.
# --with-colour-emoji (implied in CI too): install fonts-noto-color-emoji when it is missing, so the pictures'
# colour emoji path is tested (images/fonts.py; without it emoji are drawn by the packaged monochrome Noto Emoji).
# --with-chromium (implied in CI too): install Debian's chromium when it is missing, for the web pages' browser
# tests (tests/browser.py drives /usr/bin/chromium with Playwright; never `playwright install`). Without it,
# a machine lacking it skips those tests, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
with_postgres="${CI:-}"
with_emoji="${CI:-}"
with_chromium="${CI:-}"
pytest_args=()
for arg in "$@"; do
  case "$arg" in
    --with-postgres) with_postgres=true ;;
    --with-colour-emoji) with_emoji=true ;;
    --with-chromium) with_chromium=true ;;
    *) pytest_args+=("$arg") ;;
  esac
done
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo -n"; fi

have_postgres() { ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1; }
if [ "$with_postgres" = "true" ] && ! have_postgres; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "test: no apt-get here: install PostgreSQL's server package yourself for the PostgreSQL tests." >&2
  else
    echo "test: installing PostgreSQL (the postgresql package) for the PostgreSQL tests."
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null; } \
      || echo "test: PostgreSQL could not be installed; its tests will fail in CI and be skipped elsewhere." >&2
  fi
fi

have_colour_emoji() { [ -n "$(find /usr/share/fonts /usr/local/share/fonts -name NotoColorEmoji.ttf 2>/dev/null | head -1)" ]; }
if [ "$with_emoji" = "true" ] && ! have_colour_emoji && command -v apt-get >/dev/null 2>&1; then
  echo "test: installing fonts-noto-color-emoji for the colour emoji test."
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-noto-color-emoji >/dev/null; } \
    || echo "test: fonts-noto-color-emoji could not be installed; the colour emoji test will be skipped." >&2
fi

if [ "$with_chromium" = "true" ] && [ ! -x /usr/bin/chromium ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "test: no apt-get here: install chromium at /usr/bin/chromium yourself for the browser tests." >&2
  else
    echo "test: installing chromium (Debian's package) for the web pages' browser tests."
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } \
      || echo "test: chromium could not be installed; the browser tests will fail in CI and be skipped elsewhere." >&2
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
