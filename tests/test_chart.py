"""chart: the score progression drawn as text, in 80 columns, readable without colour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.reports.chart import Progression, scale_step, text_chart

DATA = Path(__file__).parent / "data" / "export"
runner = CliRunner()


def col_of_block(chart_text: str, hand: int) -> int:
    """The column where the x-axis label of `hand` starts."""
    labels = chart_text.splitlines()[-2 - 1]  # the line above the legend
    return labels.index(str(hand))


def test_partners_chart_steps_target_and_hands() -> None:
    # Us 0 2 3 -1 1 3, Them 0 2 5 8 10 12, to 11: step 1 (span -1..12 fits 16 rows).
    p = Progression(("Us", "Them"), tuple(range(6)), {"Us": (0, 2, 3, -1, 1, 3), "Them": (0, 2, 5, 8, 10, 12)},
                    11, "Them")
    tc = text_chart(p, width=80)
    lines = tc.lines()
    rows = {ln.split("|")[0].split("+")[0].strip(): ln for ln in lines[:-2]}
    assert set(rows) == {str(v) for v in range(-1, 13)}, "one row per point from -1 to 12"
    # The target row is drawn with dots and its axis mark is '+'.
    assert rows["11"].startswith("11 +") and "...." in rows["11"]
    # Block width is 4 (6 blocks fit easily): hand k's step covers columns 4 + 4k .. 4 + 4k + 3.
    assert rows["12"][4 + 4 * 5:] == "xxxx", "Them ends on 12 in hand 5's block"
    assert rows["-1"][4 + 4 * 3:4 + 4 * 4] == "oooo", "Us went in the hole on hand 3"
    assert rows["2"][4 + 4 * 1:4 + 4 * 2] == "****", "both sides on 2 after hand 1: a clash mark"
    assert lines[-1].split() == ["0", "1", "2", "3", "4", "5"]
    text = tc.text()
    assert "o Us" in text and "x Them" in text and "target 11" in text


def test_fits_80_columns_with_many_hands_and_long_names() -> None:
    n = 150
    a = tuple(i % 17 - 3 for i in range(n + 1))
    b = tuple((i * 7) % 40 for i in range(n + 1))
    long = "The Very Long Team Name Of The Tuesday Night Regulars At The Corner Table"
    p = Progression((long, "B"), tuple(range(n + 1)), {long: a, "B": b}, 52, None)
    text = text_chart(p, width=80).text()
    assert max(len(ln) for ln in text.splitlines()) <= 80
    assert "150" in text.splitlines()[-3], "the last hand is labelled even when hands are sampled"
    assert "shown" in text, "the legend says hands were sampled"


@pytest.mark.parametrize(("span", "rows", "target", "step"), [(13, 16, 11, 1), (25, 16, 21, 3), (60, 16, 52, 4),
                                                              (300, 16, 7, 20)])
def test_scale_step_prefers_a_divisor_of_the_target(span: int, rows: int, target: int, step: int) -> None:
    assert scale_step(span, rows, target) == step


def test_chart_command_plain_text_with_no_color() -> None:
    r = runner.invoke(app, ["chart", "--match", str(DATA / "partners.toml")], env={"NO_COLOR": "1", "COLUMNS": "80"})
    assert r.exit_code == 0, r.stderr
    assert "\x1b[" not in r.stdout
    lines = r.stdout.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    assert lines[0] == "partners.toml: trickster-4, to 11"  # no title: the file, no stray dash
    assert any(ln.startswith("11 +....") for ln in lines)


def test_chart_json_and_bad_input(tmp_path: Path) -> None:
    r = runner.invoke(app, ["chart", "--match", str(DATA / "cutthroat.toml"), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {"target": 7, "hands": [0, 1, 2, 3, 4, 5], "winner": "Ann",
                                    "scores": {"Ann": [0, 1, 2, 6, 7, 9], "Bob": [0, 2, 2, 2, 4, 5],
                                               "Cy": [0, 1, -2, -2, -1, -1]}}
    r = runner.invoke(app, ["chart", "--match", str(tmp_path / "nope.toml")])
    assert r.exit_code == 2
    assert r.stderr.strip().endswith("nope.toml: no such file") and r.stdout == ""


def test_chart_without_a_current_match_says_what_to_do() -> None:
    r = runner.invoke(app, ["chart"])
    assert r.exit_code == 2
    assert "no current match" in r.stderr and r.stderr.count("\n") == 1


def test_the_target_line_says_must_pass_where_the_ruleset_requires_exceeding(tmp_path: Path) -> None:
    """The legend and the HTML export agree with the headline ("must pass 21"), not "target 21"."""
    m = str(tmp_path / "p.toml")
    for args in (["new", "partnership-pitch", "Ann", "Bob", "Cy", "Dee", "--match", m],
                 ["hand", "Ann", "2", "S", "--high", "Us", "--low", "Them", "--rest", "none", "--game", "Us", "--match", m]):
        assert runner.invoke(app, args).exit_code == 0
    chart = runner.invoke(app, ["chart", "--match", m], env={"NO_COLOR": "1"})
    assert chart.exit_code == 0 and "must pass 21" in chart.stdout.splitlines()[-1], chart.stdout
    assert "target 21" not in chart.stdout
    html = runner.invoke(app, ["export", "--format", "html", "--match", m]).stdout
    assert ">must pass 21</text>" in html and "partnership-pitch, must pass 21." in html
    seven = str(tmp_path / "s.toml")
    assert runner.invoke(app, ["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", seven]).exit_code == 0
    assert "target 21" in runner.invoke(app, ["chart", "--match", seven], env={"NO_COLOR": "1"}).stdout
