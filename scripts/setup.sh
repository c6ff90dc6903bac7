#!/usr/bin/env bash
# Make .venv ready, from this repo's own files, only when needed (no .venv, a .venv made by another
# Python, or pyproject.toml or a lock file changed since the last install):
#   bash scripts/setup.sh          the runtime only: what the bot and the terminal game need (run.sh, production),
#                                  the exact versions and hashes of requirements.lock
#   bash scripts/setup.sh test     the runtime and the test tools: pytest, hypothesis, ruff, mypy (test.sh),
#                                  from requirements-test.lock (the same runtime pins)
# Then the project itself, without its dependencies (they all came from the lock; scripts/lock.sh makes
# the lock files again). Last, every run, the gettext catalogs are compiled (engine/locale/*/LC_MESSAGES/*.mo
# from the .po files: built here, not committed; scripts/catalogs.sh).
# The stamp is written after a successful install only, so once one install has succeeded the README's
# two commands work with no package index (offline). A test set-up includes the runtime. This script
# never calls the system's package manager (test.sh installs PostgreSQL for the tests, when asked).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
stamp_file=.venv/.setup-stamp
mode="${1:-runtime}"
case "$mode" in
  runtime) lock=requirements.lock ;;
  test) lock=requirements-test.lock ;;
  *)
    echo "setup: unknown set-up '$mode': say runtime (the default) or test." >&2
    exit 2
    ;;
esac

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

# The stamp: the Python, the hash of what decides the install, and the set-up it made (runtime or test).
installed_from=$("$python" -c '
import hashlib, platform
files = ("pyproject.toml", "requirements.lock", "requirements-test.lock")
digest = hashlib.sha256(b"".join(hashlib.sha256(open(name, "rb").read()).digest() for name in files)).hexdigest()
print(platform.python_implementation(), platform.python_version(), *files, digest)
')
if [ -f "$stamp_file" ]; then
  stamp=$(cat "$stamp_file")
  if [ "$stamp" = "$installed_from test" ] || [ "$stamp" = "$installed_from $mode" ]; then
    exec bash scripts/catalogs.sh compile
  fi
fi

if [ "$mode" = test ]; then what="the project and its test tools"; else what="the project (the runtime only)"; fi
echo "setup: installing $what into .venv (this once needs the package index)."
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
rm -f "$stamp_file"
.venv/bin/python -m pip install --quiet --require-hashes -r "$lock"
.venv/bin/python -m pip install --quiet --no-deps -e .
echo "$installed_from $mode" > "$stamp_file"
bash scripts/catalogs.sh compile
