"""One home for words: every sentence a player or admin reads is made in bot/messages from facts.

Read from the source: no refusal is raised with its words outside bot/messages (a string literal,
an f-string, or a module's text constant where the Refusal goes), and the table service neither writes
sentences nor imports the messages (function-level and annotation-only imports included).
"""

from __future__ import annotations

import ast
import pathlib

from bot import errors

ROOT = pathlib.Path(__file__).resolve().parents[3]
MESSAGES = ROOT / "bot" / "messages"
# Every exception a player or admin is answered with (bot.discordio answers a TripoleyError with its
# words), but the database's: its argument is a detail for the log, the player reads DATABASE_BUSY.
USER_ERRORS = frozenset(
    name
    for name, value in vars(errors).items()
    if isinstance(value, type)
    and issubclass(value, errors.TripoleyError)
    and not issubclass(value, errors.DatabaseUnavailable)
)


def sources(*packages: str) -> list[pathlib.Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


def is_text(node: ast.expr, constants: frozenset[str]) -> bool:
    """Whether ``node`` is words: a string literal, an f-string, or a name bound to one at module level."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return is_text(node.left, constants) or is_text(node.right, constants)
    return isinstance(node, ast.Name) and node.id in constants


def text_constants(tree: ast.Module) -> frozenset[str]:
    """The module-level names bound to text."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and is_text(node.value, frozenset()):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return frozenset(names)


def raised_with_words(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """``path:line`` (from ``root``) of every refusal raised there with words instead of a Refusal and facts."""
    tree = ast.parse(path.read_text(), str(path))
    constants = text_constants(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        func = node.exc.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        # Positional: the words or the Refusal (keywords are facts: a kind of claim, a tool's key).
        if name in USER_ERRORS and any(is_text(argument, constants) for argument in node.exc.args):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def imported_modules(path: pathlib.Path) -> set[str]:
    """Every module ``path`` imports, wherever the import stands (a function, ``TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(), str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            modules |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
    return modules


def test_no_refusal_is_raised_with_words_outside_bot_messages():
    outside = [path for path in sources("bot", "cogs") if MESSAGES not in path.parents]
    assert len(outside) > 50  # the walk found the code
    assert [where for path in outside for where in raised_with_words(path)] == []


def test_the_check_sees_words_in_every_form(tmp_path):
    """The walk above would see a refusal worded as a literal, an f-string, a constant or a sum."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from bot import errors\n"
        'SHORT = "Not enough."\n'
        "def f(n):\n"
        '    raise errors.NotAllowed("No.")\n'
        'def g(n):\n    raise errors.StaleButton(f"Gone {n}.")\n'
        "def h(n):\n    raise errors.NotEnoughChips(SHORT)\n"
        'def i(n):\n    raise errors.OnCooldown("Wait " + str(n), 1.0)\n'
        "def j(n):\n    raise errors.NotAllowed(errors.Refusal.STILL_SEATED)\n"
        'def l(n):\n    raise errors.NotAllowed(errors.Refusal.GRANT_OFF, kind="daily")\n'
        'def k(n):\n    raise ValueError("not a user id")\n'
    )
    assert raised_with_words(sample, tmp_path) == ["sample.py:4", "sample.py:6", "sample.py:8", "sample.py:10"]


def test_the_table_service_imports_nothing_of_the_messages():
    tables = sources("bot/tables")
    assert tables
    importing = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if m.startswith("bot.messages"))
        for path in tables
    }
    assert {path: modules for path, modules in importing.items() if modules} == {}
