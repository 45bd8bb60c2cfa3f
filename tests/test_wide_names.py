"""Tables that fit every name: Chinese and Korean names (two cells a letter), a name written with a
combining mark (no cell for the mark), emoji (two cells, whatever follows them) - at a 40-column phone
and an 80-column terminal, every line fits and every column starts where its heading does.

Widths are measured with Rich's own `rich.cells.cell_len`, the reference the plain renderer follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from typer.testing import CliRunner

from pitchkeeper import cells
from pitchkeeper.cli import app

runner = CliRunner()
ZOE = "Zoe\u0308"  # Zoë with a combining diaeresis: three cells, four code points
LI, HAN, SAM = "李雷", "한국", "Sam 😀"
HOME_SIDE, AWAY_SIDE = "李雷家", "🂡 Aces"
ATOMS = ["a", "Z", " ", "é", "e\u0308", "o\u0301\u0302", "李", "雷", "한", "국", "ａ", "ｶ", "😀", "👍\U0001f3fd",
         "👨\u200d👩\u200d👧", "\U0001f1eb\U0001f1f7", "❤\ufe0f", "♠", "🂡", "ก\u0e48", "क\u093e", "न\u094dम", "Ж", "ß",
         "#\ufe0f\u20e3", "\u200b"]
names = st.lists(st.sampled_from(ATOMS), max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(names)
def test_a_name_takes_the_cells_rich_says(name: str) -> None:
    assert cells.cell_len(name) == cell_len(name)


@settings(max_examples=200, deadline=None)
@given(names, st.integers(min_value=4, max_value=30))
def test_padding_wrapping_and_cutting_count_cells(text: str, width: int) -> None:
    assert cell_len(cells.ljust(text, width)) == max(width, cell_len(text))
    assert cell_len(cells.rjust(text, width)) == max(width, cell_len(text))
    cut = cells.cut(text, width)
    assert cell_len(cut) <= width and (cut == text or cut.endswith("..."))
    lines = cells.wrap_cells(text, width)
    assert all(cell_len(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, no cluster cut in two


def test_the_names_measure_as_a_terminal_shows_them() -> None:
    assert [cells.cell_len(n) for n in (LI, HAN, ZOE, SAM, HOME_SIDE, "👨\u200d👩\u200d👧", "🇫🇷")] == [4, 4, 3, 6, 6, 2, 2]


@pytest.fixture
def match(tmp_path: Path) -> Path:
    log = tmp_path / "wide.toml"
    ok("new", "seven-point", LI, HAN, ZOE, SAM, "--team", f"{HOME_SIDE}={LI},{ZOE}", "--team",
       f"{AWAY_SIDE}={HAN},{SAM}", "--title", f"Friday at {LI}'s", "--match", str(log))
    ok("hand", LI, "3", "S", "--high", HOME_SIDE, "--low", AWAY_SIDE, "--jack", HOME_SIDE, "--game", HOME_SIDE,
       "--rest", "none", "--match", str(log))
    ok("hand", HAN, "2", "H", "--high", AWAY_SIDE, "--low", AWAY_SIDE, "--game", "tie", "--rest", "none",
       "--match", str(log))
    return log


def ok(*args: str, columns: int = 80) -> list[str]:
    r = runner.invoke(app, list(args), env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert r.exit_code == 0, r.output + r.stderr
    return r.stdout.splitlines()


def at(line: str, text: str, after: int = 0) -> int:
    """The cell where `text` starts in `line` (its first occurrence at or after cell `after`)."""
    i = 0
    while cell_len(line[:i]) < after:
        i += 1
    return cell_len(line[:line.index(text, i)])


def fits(lines: list[str], width: int) -> None:
    """Every line within `width` cells, but a file's path, which is never cut (it is copied as a whole)."""
    assert lines
    for line in lines:
        path = "/" in line and max(cell_len(w) for w in line.split()) > width - 2
        assert cell_len(line) <= width or path, f"{cell_len(line)} cells > {width}: {line!r}"
        assert line == line.rstrip(), repr(line)


@pytest.mark.parametrize("width", [40, 80])
def test_status_columns_line_up(match: Path, width: int) -> None:
    lines = ok("status", "--match", str(match), columns=width)
    fits(lines, width)
    head = next(line for line in lines if line.startswith("side"))
    rows = {side: next(line for line in lines if line.startswith(side)) for side in (HOME_SIDE, AWAY_SIDE)}
    for side, players in ((HOME_SIDE, f"{LI} & {ZOE}"), (AWAY_SIDE, f"{HAN} & {SAM}")):
        row = rows[side]
        assert at(row, players) == at(head, "players")  # a left-aligned column: same start
        score_end = at(row, "3", at(head, "players") + cell_len(players)) + 1
        assert score_end == at(head, "score") + len("score")  # right-aligned: same end
        assert at(row, "18", score_end) + 2 == at(head, "needs") + len("needs")
    assert next(line for line in lines if "deals next" in line) == f"{ZOE} deals next"


def test_history_columns_line_up_at_80(match: Path) -> None:
    lines = ok("history", "--match", str(match), columns=80)
    fits(lines, 80)
    head = next(line for line in lines if line.startswith("#"))
    starts = {h: at(head, h) for h in ("dealer", "bid", "trump", "points")}
    for number, dealer, bid, trump in (("1", LI, f"{LI} 3 made", "♠ spades"), ("2", HAN, f"{HAN} 2 made", "♥ hearts")):
        row = next(line for line in lines if line.startswith(number + " "))
        assert at(row, dealer) == starts["dealer"]
        assert at(row, bid, starts["bid"]) == starts["bid"]
        assert at(row, trump) == starts["trump"]
        assert at(row, "high ", starts["points"]) == starts["points"]


def test_history_at_40_stacks_each_hand_under_its_number(match: Path) -> None:
    lines = ok("history", "--match", str(match), columns=40)
    fits(lines, 40)
    first = lines.index(next(line for line in lines if line.startswith(" 1 ")))
    hand_lines = lines[first:]
    assert hand_lines[0] == f" 1 {LI} dealt; {LI} bid 3 ♠ made"
    assert all(line.startswith("   ") or line[:3].strip().isdigit() for line in hand_lines)
    totals = [line for line in hand_lines if f"{HOME_SIDE} " in line and "+" in line and "high" not in line]
    assert [at(line, AWAY_SIDE) for line in totals] == [at(totals[0], AWAY_SIDE)] * 2  # the sides line up too


@pytest.mark.parametrize("width", [40, 80])
def test_the_matches_list_fits_and_keeps_its_indent(match: Path, width: int) -> None:
    lines = ok("matches", columns=width)
    fits(lines, width)
    assert lines[0].startswith("*  1  ") and at(lines[0], "wide") == 6
    block = lines[1:lines.index(next(line for line in lines if line.startswith("kept in")))]
    assert block[0] == f"      Friday at {LI}'s"
    assert all(at(line, line.strip()[:1]) == 6 for line in block)  # every line of the match under its name
    words = " ".join(" ".join(block).split())
    assert f"{HOME_SIDE} 3, {AWAY_SIDE} 3; playing, hand 2" in words
