"""Everything a reader needs is in the repository: no project file, tests included, points to the
workspace's specification files or to anything outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"\.\./shared|shared/rules|shared/spec|/work/|RULES\.md|REPLAY\.md|\]\(\.\./\.\./")


def project_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    this_test = Path(__file__).resolve().relative_to(ROOT).as_posix()  # it names the patterns it looks for
    return [ROOT / name for name in listed if name != this_test and (ROOT / name).is_file()]


def test_no_file_points_outside_the_repository():
    offenders = []
    for path in project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "files point outside the repository:\n" + "\n".join(offenders)
    assert len(project_files()) > 20  # the search saw the project


def test_markdown_links_resolve_inside_the_repository():
    broken = []
    for path in project_files():
        if path.suffix != ".md":
            continue
        for target in re.findall(r"\]\(([^)#\s]+)", path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            resolved = (path.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)} → {target}")
    assert not broken, "links that leave the repository or lead nowhere:\n" + "\n".join(broken)
