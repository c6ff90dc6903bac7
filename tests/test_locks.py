"""The lock files: every runtime dependency pinned with hashes, the test lock holding the very same
runtime pins, both fitting pyproject.toml, and this environment installed from them."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$")


def pins(name: str) -> dict[str, tuple[str, str | None, frozenset[str]]]:
    """name -> (version, marker, hashes) of every pin in the lock file."""
    found: dict[str, tuple[str, str | None, frozenset[str]]] = {}
    current = None
    for line in (ROOT / name).read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match.group(1))
            found[current] = (match.group(2), match.group(3), frozenset())
        elif line.strip().startswith("--hash=sha256:") and current is not None:
            version, marker, hashes = found[current]
            found[current] = (version, marker, hashes | {line.strip().split(":", 1)[1].rstrip(" \\")})
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"{name}: a line that is no pin: {line!r}")
    return found


def requirements(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    texts = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return [Requirement(text) for text in texts]


def test_every_pin_has_hashes_and_says_how_it_was_made():
    for name in ("requirements.lock", "requirements-test.lock"):
        text = (ROOT / name).read_text()
        assert "bash scripts/lock.sh" in text.splitlines()[1], name
        locked = pins(name)
        assert locked and all(hashes for _, _, hashes in locked.values()), name


def test_the_test_lock_holds_the_runtime_pins_unchanged():
    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    changed = {name: (pin, test.get(name)) for name, pin in runtime.items() if test.get(name) != pin}
    assert not changed
    for tool in ("pytest", "hypothesis", "ruff", "mypy"):
        assert tool in test and tool not in runtime


def test_the_locks_fit_pyproject():
    for lock, wanted in (("requirements.lock", requirements()), ("requirements-test.lock", requirements("test"))):
        locked = pins(lock)
        for requirement in wanted:
            version = locked[canonicalize_name(requirement.name)][0]
            assert requirement.specifier.contains(version, prereleases=True), (lock, requirement, version)


def test_this_environment_is_the_locked_one():
    """The tests run on what the set-up installed (scripts/test.sh: requirements-test.lock)."""
    environment = default_environment()
    wrong = {}
    for name, (version, marker, _) in pins("requirements-test.lock").items():
        if marker and not Requirement(f"x; {marker}").marker.evaluate(environment):
            continue
        installed = importlib.metadata.version(name)
        if installed != version:
            wrong[name] = (installed, version)
    assert not wrong, f"installed, locked: {wrong}; run bash scripts/setup.sh test"
