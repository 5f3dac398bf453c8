"""The house rules of the source tree (issue 47, item 5), read from the code itself.

Rooms by role: no module over 400 lines; no import cycle between modules (imports under
``if TYPE_CHECKING:`` are annotations only and do not count); the library never imports
the harness (the harness is built on the library, not the other way round).
"""

from __future__ import annotations

import ast
from pathlib import Path

from ..conftest import ROOT

SRC = ROOT / "src"
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package is its ``__init__``)."""
    modules = {}
    for path in sorted((SRC / "mkbench").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _runtime_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports when it runs (at import time or inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if candidate in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {target for target in found if target in modules and target != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    # a package's __init__ re-exports its modules: an edge into it is an edge into the package, not a cycle
    return {
        name: {target for target in _runtime_imports(name, path, modules) if not name.startswith(target + ".")}
        for name, path in modules.items()
        if path.name != "__init__.py"
    }


def test_no_module_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path in _modules().values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split by role: {long}"


def test_no_import_cycle_between_modules():
    graph = _graph()
    graph = {name: {target for target in targets if target in graph} for name, targets in graph.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_library_never_imports_the_harness():
    upward = {
        name: sorted(target for target in targets if target.startswith("mkbench.harness"))
        for name, targets in _graph().items()
        if not name.startswith("mkbench.harness")
    }
    assert {name: targets for name, targets in upward.items() if targets} == {}


def test_every_import_inside_a_function_resolves():
    """Imports deferred into a function body run only when it is called: each must still name what exists."""
    import importlib

    modules = _modules()
    broken = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level and not (node.module or "").startswith("mkbench"):
                continue
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join([*base, node.module] if node.module else base) if node.level else node.module
            module = importlib.import_module(target)
            broken += [
                f"{name}: {target}.{alias.name}"
                for alias in node.names
                if not hasattr(module, alias.name) and f"{target}.{alias.name}" not in modules
            ]
    assert broken == []
