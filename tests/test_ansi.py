"""The small styled-text stand-in used by the at-the-table commands."""

from __future__ import annotations

import io

import pytest

from pitchkeeper.show.ansi import Console, Text


def test_plain_text_and_width() -> None:
    t = Text.assemble(("Us", "bold"), " +", ("3", "green"))
    assert t.plain == "Us +3" and t.cell_len == 5
    assert Text("   ").join([Text("a"), Text("b")]).plain == "a   b"
    assert Text("x  ").rstrip().plain == "x"


def test_styles_only_where_colour_is_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Text("made", style="bold green")
    assert t.render(color=False) == "made"
    assert t.render(color=True) == "\x1b[1;32mmade\x1b[0m"
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    c = Console()
    c.file = io.StringIO()
    c.print(Text("set", style="red"))
    assert c.file.getvalue() == "\x1b[31mset\x1b[0m\n"
    monkeypatch.setenv("NO_COLOR", "1")
    assert Console().color is False
