"""The docs run: their code blocks are executed or checked, so they cannot drift from the code.

Convention for the documents in DOCS:
- a fenced ```python block is executed; the blocks of one document run in order in one namespace
  (a later block may use what an earlier one made), in an empty working directory;
- a fenced block for show only says so (```text); a fence without a language is refused;
- shell lines (indented 4 spaces, or fenced ```sh / ```bash) are checked, not run:
  ``bash scripts/X.sh`` - the script exists; ``python -m MODULE [COMMAND] --flags`` - that
  command's --help exits 0 and lists every flag used; ``cp FILE... DEST`` - the repository's files
  exist; ``systemctl ... tripoley-bot*`` - the unit is in deploy/. Other programs (useradd,
  systemctl's own verbs...) are the system's and are not checked.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/engine-api.md", "docs/images.md", "bot/README.md", "PRIVACY.md", "CHANGELOG.md")
# The files a reader of the two READMEs must find named there (beside every module of bot/ and cogs/).
TOP_LEVEL = (
    "LICENSE",
    "CHANGELOG.md",
    "PRIVACY.md",
    "pyproject.toml",
    "requirements.lock",
    "requirements-test.lock",
    ".env.example",
)
SHELL_FENCES = ("sh", "bash", "shell", "console")
SHOW_ONLY_FENCES = ("text", "json")
FENCE = re.compile(r"^```(\S*)\s*$")
SUBCOMMAND = re.compile(r"^[a-z][a-z-]*$")


def blocks(doc: str) -> list[tuple[str, int, str]]:
    """(language, first line number, text) of every code block; language "indented" for 4-space blocks."""
    found: list[tuple[str, int, str]] = []
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    fence: tuple[str, int, list[str]] | None = None
    indented: tuple[int, list[str]] | None = None
    previous_blank = True
    for number, line in enumerate(lines, 1):
        if fence is not None:
            if line.strip() == "```":
                found.append((fence[0], fence[1], "\n".join(fence[2])))
                fence = None
            else:
                fence[2].append(line)
            continue
        match = FENCE.match(line)
        if match:
            fence = (match.group(1), number + 1, [])
        elif line.startswith("    ") and (indented is not None or previous_blank):
            indented = indented or (number, [])
            indented[1].append(line.strip())
            continue
        elif line.strip() and indented is not None:
            found.append(("indented", indented[0], "\n".join(indented[1])))
            indented = None
        previous_blank = not line.strip()
    if indented is not None:
        found.append(("indented", indented[0], "\n".join(indented[1])))
    assert fence is None, f"{doc}: a fence opened at line {fence[1] - 1} is never closed"
    return found


def shell_commands(text: str) -> list[list[str]]:
    commands = []
    for line in text.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if not line or line.startswith("#"):
            continue
        for part in line.split("&&"):
            commands.append(shlex.split(part))
    return commands


@cache
def command_help(module: str, subcommand: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(ROOT)
    args = [sys.executable, "-m", module, *([subcommand] if subcommand else []), "--help"]
    done = subprocess.run(args, cwd=ROOT / "docs", env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"`{' '.join(args[1:])}` failed: {done.stderr[-500:]}"
    return done.stdout


def check_command(words: list[str], where: str) -> None:
    program = Path(words[0]).name if words else ""
    if program == "bash" and len(words) > 1 and words[1].startswith("scripts/"):
        assert (ROOT / words[1]).is_file(), f"{where}: {words[1]} does not exist"
    elif "-m" in words and Path(words[words.index("-m") - 1]).name.startswith("python"):
        module, rest = words[words.index("-m") + 1], words[words.index("-m") + 2 :]
        subcommand = rest[0] if rest and SUBCOMMAND.match(rest[0]) else None
        if module == "pytest":
            return
        text = command_help(module, subcommand)
        for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", " ".join(rest)):
            assert flag in text, f"{where}: `python -m {module} {subcommand or ''}` has no {flag}"
    elif program == "cp":
        for source in [w for w in words[1:-1] if not w.startswith("-")]:
            assert (ROOT / source).exists(), f"{where}: {source} does not exist"
    elif program == "systemctl":
        for unit in [w for w in words[1:] if w.startswith("tripoley-bot")]:
            name = unit if "." in unit else unit + ".service"
            name = re.sub(r"@[^.]+\.", "@.", name)  # an instance of a template unit: the template
            assert (ROOT / "deploy" / name).is_file(), f"{where}: deploy/{name} does not exist"


@pytest.mark.parametrize("doc", DOCS)
def test_shell_lines_name_what_exists(doc):
    for language, line, text in blocks(doc):
        if language in ("indented", *SHELL_FENCES):
            for words in shell_commands(text):
                check_command(words, f"{doc}:{line}")


@pytest.mark.parametrize("doc", DOCS)
def test_python_blocks_run(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for language, line, text in blocks(doc):
        assert language, f"{doc}:{line - 1}: a fence without a language: say python, text or sh"
        assert language in ("indented", "python", *SHELL_FENCES, *SHOW_ONLY_FENCES), f"{doc}:{line}: ```{language}?"
        if language == "python":
            exec(compile(text, f"{doc}:{line}", "exec"), namespace)


def test_the_checker_sees_blocks():
    kinds = {language for language, _, _ in blocks("docs/engine-api.md")}
    assert {"python", "text"} <= kinds
    assert any("scripts/test.sh" in text for _, _, text in blocks("README.md"))
    with pytest.raises(AssertionError, match="has no --nonsense"):
        check_command(shlex.split("python -m engine play --nonsense"), "here")
    with pytest.raises(AssertionError, match="does not exist"):
        check_command(shlex.split("bash scripts/missing.sh"), "here")


def readmes() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8") + (ROOT / "bot" / "README.md").read_text(encoding="utf-8")


def test_every_module_script_and_top_level_file_is_named_in_the_readmes():
    text = readmes()
    modules = [p for p in (*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/*.py")) if p.name != "__init__.py"]
    scripts = list(ROOT.glob("scripts/*.sh"))
    assert len(modules) > 40 and scripts
    missing = [str(p.relative_to(ROOT)) for p in (*modules, *scripts) if p.name not in text]
    missing += [name for name in TOP_LEVEL if name not in text or not (ROOT / name).is_file()]
    assert not missing, f"name these in README.md or bot/README.md: {missing}"


def test_every_bot_command_is_in_the_bot_readme():
    import argparse

    from bot.__main__ import parser

    text = (ROOT / "bot" / "README.md").read_text(encoding="utf-8")
    [commands] = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert {"run", "check", "sync", "has-token", "forget", "prune", "backup", "migrate-db"} <= set(commands.choices)
    for name in commands.choices:
        assert f"python -m bot {name}" in text or (name == "run" and "python -m bot\n" in text), name
    assert "python -m bot --version" in text


def test_every_slash_command_is_in_the_bot_readme():
    from cogs.admin import Admin
    from cogs.tripoley import Tripoley

    text = (ROOT / "bot" / "README.md").read_text(encoding="utf-8")
    for cog in (Tripoley, Admin):
        group = cog.__cog_group_name__
        names = [command.name for command in cog.__cog_app_commands__]
        assert len(names) >= 6
        missing = [name for name in names if f"`/{group} {name}" not in text]
        assert not missing, f"bot/README.md names no `/{group} …` for {missing}"
