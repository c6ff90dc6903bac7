"""The Discord side's modules import one another in one direction: no circle, not even through an
import made only for annotations (``TYPE_CHECKING``) or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "bot" / "discordio"


def imports_of(path: Path) -> set[str]:
    """The bot.discordio modules ``path`` imports, wherever in the file the import is."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "bot.discordio":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("bot.discordio."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names if alias.name.startswith("bot.discordio.")}
    return found


def test_no_import_circle_among_the_discord_modules() -> None:
    graph = {path.stem: imports_of(path) - {path.stem} for path in PACKAGE.glob("*.py")}
    assert len(graph) > 10  # the package was found
    done: set[str] = set()

    def walk(module: str, trail: list[str]) -> None:
        if module in trail:
            raise AssertionError("import circle: " + " → ".join([*trail[trail.index(module) :], module]))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            walk(imported, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])
