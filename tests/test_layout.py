"""The shape of the code: layers import only downwards, no import circles anywhere in src/, and every
game package has the same files with the same roles (rules never import bots or renderers)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "coven"
GAMES = ("amulets", "brujas", "commandments", "namaste")
SHAPE = ("__init__", "rules", "view", "notation", "worlds", "bots", "render", "metrics")
"""Every game package's modules, as DESIGN.md names them."""
NOT_RULES = ("bots", "render", "metrics", "explain")
"""What a game's rules (and view, notation) never import."""

LAYERS = {
    "core": set(),
    "testing": {"core"},
    "bots": {"core"},
    "games": {"core", "bots"},
    "store": {"core"},
    "bus": {"core"},
}
"""Each layer and the layers (of coven) it may import; the layers above (server, cli, rl, spiel, web)
may import anything below them but are never imported from here."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> Iterator[str]:
    """Every module of coven that ``path`` imports when it runs, at the top or inside a function (imports
    only for type checkers are not imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]

    def walk(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from walk(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                yield base
                for alias in child.names:
                    yield f"{base}.{alias.name}"
            yield from walk(child)

    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    for name in walk(tree):
        if name in modules:
            yield name


def graph() -> dict[str, set[str]]:
    return {module_name(p): set(imports_of(p)) - {module_name(p)} for p in PACKAGE.rglob("*.py")}


def test_no_import_circles_anywhere_in_src() -> None:
    edges = graph()
    # A package imports its own __init__ implicitly: an edge to a parent package is not a circle.
    for name, targets in edges.items():
        edges[name] = {t for t in targets if not name.startswith(t + ".")}
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                circles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == []


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_only_downwards(layer: str) -> None:
    allowed = {"coven", f"coven.{layer}"} | {f"coven.{low}" for low in LAYERS[layer]}
    wrong = []
    for path in (PACKAGE / layer).rglob("*.py"):
        name = module_name(path)
        for target in imports_of(path):
            top = ".".join(target.split(".")[:2])
            if top not in allowed:
                wrong.append(f"{name} -> {target}")
            if layer == "games" and target.startswith("coven.games."):
                own = name.split(".")[2] if name.count(".") >= 2 else None
                other = target.split(".")[2]
                if own is not None and other != own:
                    wrong.append(f"{name} -> {target} (another game)")
    assert wrong == []


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_has_the_same_shape(game: str) -> None:
    folder = PACKAGE / "games" / game
    missing = [name for name in SHAPE if not (folder / f"{name}.py").is_file()]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_rules_never_import_bots_or_renderers(game: str) -> None:
    folder = PACKAGE / "games" / game
    wrong = []
    for module in ("rules", "view", "notation", "worlds"):
        path = folder / f"{module}.py"
        if not path.is_file():
            continue
        for target in imports_of(path):
            parts = target.split(".")
            if parts[2:3] == [game] and len(parts) > 3 and parts[3] in NOT_RULES:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_the_import_graph_sees_lazy_imports() -> None:
    """The checker itself: an import inside a function counts; one for type checkers does not."""
    edges = graph()
    assert "coven.core.bot" in edges["coven.core.game"] or any(
        t.startswith("coven.core.bot") for t in edges["coven.core.game"]
    )


# --------------------------------------------------------------------------- the compiled engine
def _compiled_sources() -> list[Path]:
    """The modules setup.py compiles with mypyc (its COMPILED list, read without running it)."""
    tree = ast.parse((SRC.parent / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            paths = ast.literal_eval(node.value)
            return [SRC.parent / p for p in paths]
    raise AssertionError("setup.py names no COMPILED modules")


SERVER_COMPILED = {"table.py"}
"""The server's modules compiled with the engine: no I/O, work done for every seat after every move."""


def test_compiled_modules_are_the_engine_and_the_servers_table() -> None:
    sources = _compiled_sources()
    assert sources
    for source in sources:
        assert source.is_file(), source
        engine = source.parent.parent.name == "games" or source.parent.name == "core"
        assert engine or (source.parent.name == "server" and source.name in SERVER_COMPILED), source


def test_no_compiled_module_is_older_than_its_source() -> None:
    """A compiled module is imported instead of its source: one built before the source last changed
    would run old rules. Rebuild (``pip install -e .``) or install pure (``COVEN_PURE=1``)."""
    for source in _compiled_sources():
        for built in source.parent.glob(source.stem + ".cpython-*.so"):
            assert built.stat().st_mtime >= source.stat().st_mtime, (
                f"{built.name} is older than {source.name}: run `pip install -e .` again"
            )


def test_ci_runs_the_compiled_engine() -> None:
    """Where CI installs the project, the compiled modules are what the tests exercise (a build that fell
    back to pure Python on a machine that can compile would go unnoticed otherwise)."""
    import importlib
    import os

    if not os.environ.get("CI"):
        pytest.skip("only CI requires the compiled build (a developer may install pure)")
    for source in _compiled_sources():
        name = ".".join(source.relative_to(SRC).with_suffix("").parts)
        module = importlib.import_module(name)
        assert str(module.__file__).endswith(".so"), f"{name} runs as pure Python"
