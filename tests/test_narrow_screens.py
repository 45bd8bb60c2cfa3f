"""`edit`'s before/after and `stats`, drawn at the widths people use: a wide terminal and a 40-column phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_runs import ok

EXPORT = Path(__file__).parent / "data" / "export"


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    p = tmp_path / "seven.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(p), columns=100)
    ok("hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none",
       "--match", str(p), columns=100)
    return p


@pytest.mark.parametrize("columns", [200, 120, 80, 40])
def test_the_edit_confirmation_labels_every_value_before_and_after(seven: Path, columns: int):
    out = ok("edit", "1", "--low", "Us", "-n", "--match", str(seven), columns=columns)
    lines = out.splitlines()
    assert all(len(line) <= columns for line in lines), out
    assert not any(re.fullmatch(r"\s+([+-]?\d+|-)", line) for line in lines), out  # no value alone under a row
    # the numbers are a table with a before and an after column, whatever the width
    head = next(line for line in lines if re.fullmatch(r"\s+before\s+after", line))
    col = head.index("after")
    us = next(line for line in lines if line.startswith("Us change"))
    assert us[col:].strip() == "+4" and "+3" in us[:col]
    # each hand is labelled: a row of the table where it fits, else a line of its own
    text = "\n".join(lines)
    words = " ".join(text.split())  # lines wrapped at 40 joined
    assert "low Them" in words and "low Us" in words
    assert "what changes: low: Them → Us" in words  # and what changes, in words
    if columns >= 120:
        assert next(line for line in lines if line.startswith("hand  ")).count("Ann 3 in S") == 2
    else:
        assert re.search(r"^before\s+Ann 3 in S", text, re.M) and re.search(r"^after\s+Ann 3 in S", text, re.M)


def test_stats_at_forty_columns_stacks_each_name_instead_of_crushing_it(seven: Path):
    partners = EXPORT / "partners.toml"
    out = ok("stats", str(seven), str(partners), columns=40)
    lines = out.splitlines()
    assert all(len(line) <= 40 for line in lines), out
    assert "…" not in out
    for name in ("Ann", "Bob", "North", "East", "Us (Ann, Cy)"):
        assert name in lines, name  # a name whole, on a line of its own
    ann = lines.index("Ann")
    assert lines[ann + 1].startswith("  games 1  won 0  hands 1  bids 1")
    wide = ok("stats", str(seven), str(partners), columns=100)
    assert re.search(r"^name\s+games\s+won", wide, re.M)  # wide: still the table
