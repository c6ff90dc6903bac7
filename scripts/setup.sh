#!/usr/bin/env bash
# Make .venv ready: create it and install the project with its test extras from this repo's own files,
# but only when needed (no .venv, a .venv made by another Python, or pyproject.toml changed since the
# last install). The stamp is written after a successful install only, so once one install has
# succeeded the README's two commands work with no package index (offline).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
stamp_file=.venv/.setup-stamp

if ! command -v "$python" >/dev/null 2>&1; then
  echo "setup: '$python' was not found. Install Python 3.11 or newer (or set PYTHON=/path/to/python3)." >&2
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup: Python 3.11 or newer is needed; '$python' is $("$python" -V 2>&1)." >&2
  exit 1
fi

# "CPython 3 11": a venv only works with the Python series that made it.
series() { "$1" -c 'import platform, sys; print(platform.python_implementation(), *sys.version_info[:2])' 2>/dev/null || true; }
if [ -e .venv ] && [ "$(series .venv/bin/python)" != "$(series "$python")" ]; then
  echo "setup: .venv was made by another Python; making it again with $("$python" -V 2>&1)."
  rm -rf .venv
fi

# The PostgreSQL tests start a throwaway server (tests/pgserver.py): its binaries come from the system's
# postgresql package. Installed here when missing, but only in CI or as root (a developer's machine
# without them skips those tests, saying so).
have_postgres() { ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1; }
if ! have_postgres && { [ "${CI:-}" = "true" ] || [ "$(id -u)" = 0 ]; } && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing PostgreSQL (the postgresql package) for the PostgreSQL tests."
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo -n"; fi
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null; } \
    || echo "setup: PostgreSQL could not be installed; its tests will fail in CI and be skipped elsewhere." >&2
fi

wanted=$("$python" -c '
import hashlib, platform
with open("pyproject.toml", "rb") as f:
    print(platform.python_implementation(), platform.python_version(), "pyproject.toml", hashlib.sha256(f.read()).hexdigest())
')
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$wanted" ]; then
  exit 0
fi

echo "setup: installing the project and its test tools into .venv (this once needs the package index)."
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
rm -f "$stamp_file"
.venv/bin/python -m pip install --quiet -e '.[test]'
echo "$wanted" > "$stamp_file"
