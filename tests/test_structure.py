"""The shape of the product's code: imports flow one way, no import circle of any kind, no module
over 600 lines, and a table's status or a game's phase compared as its enum, never as a raw string
(the project's standards; bot/README.md, "How the bot is organised").

The import graph of ``engine/``, ``bot/``, ``cogs/`` and ``images/`` is read from the source (the
syntax tree), not from what Python happens to load, and counts every import of ours: at module
level, inside a function, under ``if TYPE_CHECKING:`` and ``importlib.import_module("...")`` with a
literal name. A function-level or annotation-only import hides a circle from the interpreter, not
from the reader: the modules still cannot be understood, tested or moved one without the other.

The flow between the packages: ``cogs → bot → engine``, ``bot → images → engine`` (the bot draws
its pictures with ``images``, in bot/discordio/render.py's worker processes), and ``engine``
imports nothing of ours.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "cogs", "images")
# Which of our packages each package may import (besides itself).
MAY_IMPORT: dict[str, frozenset[str]] = {
    "cogs": frozenset({"bot", "engine"}),
    "bot": frozenset({"engine", "images"}),
    "images": frozenset({"engine"}),
    "engine": frozenset(),
}
MAX_LINES = 600


@dataclass(frozen=True, slots=True)
class Module:
    name: str  # dotted: "engine.phases.base"; a package by its own name ("engine.phases")
    path: Path
    is_package: bool


@cache
def modules() -> dict[str, Module]:
    found: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            found[name] = Module(name, path, is_package)
    return found


def ours(dotted: str) -> str | None:
    """The module of ours that importing ``dotted`` runs (a name inside a module: that module)."""
    known = modules()
    while dotted and dotted not in known:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def imported_names(module: Module) -> Iterator[str]:
    """Every dotted name ``module`` imports, anywhere in its code."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # ``from package import submodule`` imports the submodule; a name, its module
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base
        elif isinstance(node, ast.Call) and _called(node) == "import_module" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and not first.value.startswith("."):
                yield first.value


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module → the modules of ours it imports."""
    return {
        name: frozenset(target for dotted in imported_names(module) if (target := ours(dotted)) is not None)
        for name, module in modules().items()
    }


def circles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and the modules importing
    themselves (Tarjan's algorithm, iterative: the graph is a few hundred modules deep at most)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    found.append(sorted(component))
    return found


def long_modules() -> dict[str, int]:
    counts = {name: len(m.path.read_text(encoding="utf-8").splitlines()) for name, m in modules().items()}
    return {name: n for name, n in counts.items() if n > MAX_LINES}


def test_the_graph_sees_every_kind_of_import() -> None:
    """The reader is checked on imports the interpreter runs late or never: a function-level one
    (engine/__main__.py's ``.replay``), a package's own submodules, and an annotation-only one."""
    edges = graph()
    assert "engine.replay" in edges["engine.__main__"]  # inside main()
    assert "engine.phases.base" in edges["engine.phases"]  # from .base import Phase
    assert "engine.table" in edges["engine.phases.base"]  # under TYPE_CHECKING
    assert "engine.phases.names" in edges["engine.table"]
    assert len(modules()) > 100 and all(m in modules() for m in edges["cogs.tripoley"])


def test_no_import_circle() -> None:
    found = circles(graph())
    assert not found, "import circles (every import counts, function-level and TYPE_CHECKING too):\n" + "\n".join(
        " ↔ ".join(c) for c in found
    )


def test_a_circle_is_found_however_it_is_made() -> None:
    edges = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a", "d"}),
        "d": frozenset(),
        "e": frozenset({"e"}),
        "f": frozenset({"d"}),
    }
    assert sorted(circles(edges)) == [["a", "b", "c"], ["e"]]


def test_imports_flow_one_way() -> None:
    against = sorted(
        f"{source} → {target}"
        for source, targets in graph().items()
        for target in targets
        if (a := source.split(".")[0]) != (b := target.split(".")[0]) and b not in MAY_IMPORT[a]
    )
    assert not against, "imports against cogs → bot → engine, bot → images → engine:\n" + "\n".join(against)


def test_no_module_over_600_lines() -> None:
    long = long_modules()
    assert not long, f"modules over {MAX_LINES} lines (split them by subject): {long}"


def raw_comparisons(module: Module) -> list[str]:
    """Where ``module`` compares something named like a status or a phase (``table.status``,
    ``aw.phase``, ``row["status"]``, ``view.get("phase")``) with a raw string that is a value of
    :class:`bot.tables.model.TableStatus` or :class:`engine.phases.names.PhaseName`."""
    from bot.tables.model import TableStatus
    from engine.phases.names import PhaseName

    words = {s.value for s in TableStatus} | {p.value for p in PhaseName}
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            raw = [text for side in sides for text in _strings(side) if text in words]
            if raw and any(word in _name_of(side) for side in sides for word in ("status", "phase")):
                found.append(f"{module.name}:{node.lineno} {raw}")
    return found


def _strings(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]


def _name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        first = node.args[0]
        return str(first.value) if isinstance(first, ast.Constant) else ""
    return ""


def test_statuses_and_phases_are_compared_as_enums() -> None:
    offending = [line for _, m in sorted(modules().items()) for line in raw_comparisons(m)]
    assert not offending, "compare TableStatus / PhaseName, not their raw values:\n" + "\n".join(offending)


def test_a_raw_comparison_is_found(tmp_path: Path) -> None:
    path = tmp_path / "sample.py"
    path.write_text('if table.status == "lobby" or aw.phase in ("claim", "x") or row["status"] != "finished": pass\n')
    found = raw_comparisons(Module("sample", path, False))
    assert found == ["sample:1 ['lobby']", "sample:1 ['claim']", "sample:1 ['finished']"]
