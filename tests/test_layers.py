"""The layers a newcomer sees in the tree hold: imports point down, and the domain never imports a
front end (every import counted, those inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pitchkeeper"
FRONT = ("typer", "click", "rich", "starlette", "uvicorn", "pitchkeeper.cli", "pitchkeeper.show", "pitchkeeper.web")
# layer -> what it must not import
RULES = {
    "game": (*FRONT, "pitchkeeper.logbook", "pitchkeeper.words", "pitchkeeper.reports", "pitchkeeper.tournament"),
    "words": (*FRONT, "pitchkeeper.logbook", "pitchkeeper.reports", "pitchkeeper.tournament"),
    "logbook": FRONT,
    "reports": FRONT,
}


def imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(RULES))
def test_a_layer_never_imports_what_sits_above_it(layer: str) -> None:
    files = sorted((PKG / layer).glob("*.py"))
    assert files
    for f in files:
        bad = sorted(m for m in imports(f) if any(m == r or m.startswith(r + ".") for r in RULES[layer]))
        assert bad == [], f"{f.relative_to(PKG.parent)} imports {bad}"


def test_the_reading_floor_imports_only_errors() -> None:
    assert {m for m in imports(PKG / "tomlfile.py") if m.startswith("pitchkeeper")} == {"pitchkeeper.errors"}
