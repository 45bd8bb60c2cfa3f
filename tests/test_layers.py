"""The layers a newcomer sees in the tree hold: imports point down, the domain never imports a front
end, and the import graph of the package has no circle (every import counted, those inside functions
too; only those under `if TYPE_CHECKING:` are left out, since they never run)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pitchkeeper"

# Each layer may import its own modules and those of the layers listed before it, never one after it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("pitchkeeper.errors", "pitchkeeper.cells", "pitchkeeper.tomlfile"),  # the floor: no rules, no files
    ("pitchkeeper.game",),  # the rules of Pitch, pure
    ("pitchkeeper.words",),  # the rules in words
    ("pitchkeeper.logbook",),  # the match-log files
    ("pitchkeeper.tournament",),  # tournaments: a pure model and its file
    ("pitchkeeper.reports",),  # exports, charts, stats and their index, ratings
    ("pitchkeeper.show",),  # the terminal
    ("pitchkeeper.web",),  # serve
    ("pitchkeeper.cli",),  # the command line (its `serve` command starts the web layer)
    ("pitchkeeper.launch", "pitchkeeper.__main__"),  # the console script
)
FRONT_ENDS = ("typer", "click", "rich", "starlette", "uvicorn", "jinja2")
DOMAIN = ("pitchkeeper.errors", "pitchkeeper.cells", "pitchkeeper.tomlfile", "pitchkeeper.game", "pitchkeeper.words",
          "pitchkeeper.logbook", "pitchkeeper.tournament", "pitchkeeper.reports")


def module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str) -> int | None:
    for i, prefixes in enumerate(LAYERS):
        if any(under(name, p) for p in prefixes):
            return i
    return None  # the package itself (its __init__ loads the public API on first use only)


def imports(path: Path) -> set[str]:
    """What a module imports, outside `if TYPE_CHECKING:`. `from pkg import sub` counts as `pkg.sub`
    when `sub` is a module (as import checkers read it), else as `pkg`."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                for n in node.orelse:
                    self.visit(n)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES]
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(module)

    Visitor().visit(ast.parse(path.read_text(encoding="utf-8")))
    return found - {me}


GRAPH = {name: {m for m in imports(path) if m in MODULES} for name, path in MODULES.items()}


def test_every_module_has_a_layer() -> None:
    lost = sorted(n for n in MODULES if n != "pitchkeeper" and layer_of(n) is None)
    assert lost == [], f"modules outside every layer (add them to LAYERS): {lost}"


@pytest.mark.parametrize("layer", range(len(LAYERS)), ids=[" ".join(p) for p in LAYERS])
def test_a_layer_imports_only_itself_and_the_layers_below(layer: int) -> None:
    bad = []
    for name, deps in GRAPH.items():
        if layer_of(name) != layer:
            continue
        for dep in sorted(deps):
            dep_layer = layer_of(dep)
            if dep_layer is not None and dep_layer > layer:
                bad.append(f"{name} imports {dep}")
    assert bad == []


@pytest.mark.parametrize("prefix", DOMAIN)
def test_the_domain_never_imports_a_front_end(prefix: str) -> None:
    bad = sorted(f"{name} imports {m}" for name, path in MODULES.items() if under(name, prefix)
                 for m in imports(path) if any(under(m, f) for f in FRONT_ENDS))
    assert bad == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle() -> None:
    assert circles(GRAPH) == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above could fail: a made-up graph with a circle is caught, one without is not."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
