"""What the table sees: 40-column screens, "must pass", the chart's order, coming back to a match,
sharing and printing, and the statistics people ask for. Driven as users meet them (CliRunner)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import cli_runs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchkeeper.reports.chart import Progression, text_chart

EXPORT = Path(__file__).parent / "data" / "export"


run = functools.partial(cli_runs.invoke, columns=200)
ok = functools.partial(cli_runs.ok, columns=200)


@pytest.fixture
def lake(tmp_path: Path) -> Path:
    """A partnership game with a long title and a long name, two hands in."""
    p = tmp_path / "lake.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee Dee", "--title", "Friday night at the lake house",
       "--match", str(p))
    ok("hand", "Ann", "3", "spades", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none",
       "--match", str(p))
    ok("hand", "Bob", "2", "hearts", "--high", "Them", "--low", "Them", "--game", "Us", "--rest", "none",
       "--match", str(p))
    return p


def widest(text: str) -> int:
    """The widest line, but for a line that is one word (a file's path): it is never cut in two."""
    return max(len(line) for line in text.splitlines() if len(line.split()) > 1)


@pytest.mark.parametrize("command", [["status"], ["history"], ["chart"], ["matches"]])
def test_every_screen_fits_40_columns(lake: Path, command: list[str]):
    args = [*command] if command[0] in ("matches", "where") else [*command, "--match", str(lake)]
    if command[0] == "matches":
        ok("use", str(lake))
    out = ok(*args, columns=40)
    assert widest(out) <= 40, out
    wide = ok(*args, columns=200)
    for word in ("Friday", "lake", "house"):  # wrapped, never cut off
        if word in wide:
            assert word in out


def test_the_verdict_of_a_new_hand_fits_40_columns(lake: Path):
    out = ok("hand", "Cy", "4", "D", "--high", "Us", "--low", "Us", "--jack", "Us", "--game", "Us", "--rest", "-",
             "--match", str(lake), "--dry-run", columns=40)
    assert widest(out) <= 40, out
    assert "Us was dealt low" in out and "Us made the bid" in out  # the reasons are there, on lines of their own


def test_history_at_40_columns_keeps_every_hand_and_total(lake: Path):
    out = ok("history", "--match", str(lake), columns=40)
    assert " 1 Ann dealt; Ann bid 3" in out and " 2 Bob dealt; Bob bid 2" in out
    assert "Us 4 +1" in out and "Them 3 +2" in out
    assert "…" not in out


def test_must_pass_where_the_ruleset_requires_exceeding(tmp_path: Path):
    p = tmp_path / "pp.toml"
    out = ok("new", "partnership-pitch", "Ann", "Bob", "Cy", "Dee", "--match", str(p))
    assert "must pass 21" in out
    st_ = json.loads(ok("status", "--match", str(p), "--json"))
    assert st_["needed"] == {"Us": 22, "Them": 22}
    board = ok("status", "--match", str(p))
    assert "must pass 21" in board.splitlines()[0] and "22" in board and " to 21" not in board
    assert "must pass 21" in ok("chart", "--match", str(p))


def test_to_n_where_reaching_is_enough(lake: Path):
    assert ok("status", "--match", str(lake)).startswith("seven-point to 21")


def rows_of(p: Progression, width: int = 80) -> dict[str, list[int]]:
    """For each side, the grid row its symbol is drawn on at each shown hand (clash: both)."""
    tc = text_chart(p, width=width)
    grid = tc.rows[:-2]
    out: dict[str, list[int]] = {s: [] for s in p.sides}
    start = next(i for i, c in enumerate(grid[0]) if c.kind == "axis") + 1
    block, sampled = divmod(len(grid[0]) - start, len(p.hands))
    assert not sampled and block, "every hand has a block of its own"
    for b in range(len(p.hands)):
        x = start + b * block
        for si, s in enumerate(p.sides):
            hits = [r for r, row in enumerate(grid) if x < len(row) and (row[x].side == si or row[x].kind == "clash")]
            out[s].append(hits[0] if hits else -1)
    return out


def test_close_scores_are_not_shown_level():
    # 0..21 in 16 rows: a step of 3 puts 4 and 3 on one row; the chart must not say they are level
    p = Progression(("Us", "Them"), (0, 1, 2), {"Us": (0, 3, 4), "Them": (0, 1, 3)}, 21, None)
    tc = text_chart(p, width=40)
    assert "sides level" in tc.text()  # hand 0: both at 0 are level
    rows = rows_of(p)
    assert rows["Us"][2] < rows["Them"][2], "Us (4) is drawn above Them (3)"
    assert rows["Us"][0] == rows["Them"][0]


@given(st.lists(st.tuples(st.integers(-10, 40), st.integers(-10, 40)), min_size=1, max_size=30),
       st.integers(30, 100))
def test_chart_keeps_the_order_of_scores_and_level_means_level(points: list[tuple[int, int]], width: int):
    scores = {"A": (0, *(p[0] for p in points)), "B": (0, *(p[1] for p in points))}
    p = Progression(("A", "B"), tuple(range(len(points) + 1)), scores, 21, None)
    tc = text_chart(p, width=width)
    if "shown" in tc.text():
        return  # hands sampled: columns no longer map one to one
    rows = rows_of(p, width)
    for h in range(len(points) + 1):
        a, b = scores["A"][h], scores["B"][h]
        if a > b:
            assert rows["A"][h] < rows["B"][h], h  # the higher score on a higher row
        elif a < b:
            assert rows["A"][h] > rows["B"][h], h
        else:
            assert rows["A"][h] == rows["B"][h]
    level = any(scores["A"][h] == scores["B"][h] for h in range(len(points) + 1))
    assert ("sides level" in tc.text()) == level


@given(st.lists(st.integers(-30, 60), min_size=1, max_size=9), st.integers(1, 5))
def test_rows_keep_the_order_of_any_number_of_sides(values: list[int], step: int):
    from pitchkeeper.reports.chart import _rows_in_order

    sides = tuple(f"s{i}" for i in range(len(values)))
    p = Progression(sides, (0,), {s: (v,) for s, v in zip(sides, values, strict=True)}, 21, None)
    nrows = 12
    rows = _rows_in_order(p, 0, lambda v: nrows - 1 - round((v + 30) / (90 / (nrows - 1))), nrows)
    for a in sides:
        for b in sides:
            if p.scores[a][0] > p.scores[b][0] and len(set(values)) <= nrows:
                assert rows[a] < rows[b]
            elif p.scores[a][0] == p.scores[b][0]:
                assert rows[a] == rows[b]


# -- come back to a match


def test_use_by_number_name_part_and_title(_home: Path):
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--title", "Friday at the lake")
    ok("new", "auction-pitch", "Ann", "Bob", "Cy", "Dee", "--title", "Sunday lunch")
    rows = json.loads(ok("matches", "--json"))
    assert [r["number"] for r in rows] == [1, 2] and [r["current"] for r in rows] == [True, False]
    assert rows[0]["id"].endswith("auction-pitch") and rows[0]["title"] == "Sunday lunch"
    assert "seven-point" in ok("use", "2")
    assert json.loads(ok("status", "--json"))["rules"] == "seven-point"
    ok("use", "AUCTION")
    assert json.loads(ok("status", "--json"))["rules"] == "auction-pitch"
    ok("use", "lake")  # a unique part of the title
    assert json.loads(ok("status", "--json"))["rules"] == "seven-point"
    listing = ok("matches", columns=40)
    assert "Friday at the lake" in listing and "Sunday lunch" in listing and "seven-point to 21" in listing
    assert widest(listing) <= 40


@pytest.mark.parametrize(("spec", "words"), [("2026", "names 2 matches"), ("9", "no kept match"),
                                             ("zzz", "no kept match")])
def test_use_refuses_what_is_not_one_match(_home: Path, spec: str, words: str):
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(_home / "matches" / "2026-a.toml"))
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(_home / "matches" / "2026-b.toml"))
    before = (_home / "current").read_text()
    r = run("use", spec)
    assert r.exit_code == 2 and r.stderr.startswith("error: MATCH: ") and words in r.stderr
    assert r.stderr.count("\n") == 1
    assert (_home / "current").read_text() == before


def test_the_data_folder_is_shown(_home: Path):
    out = ok("where")
    assert f"data folder:   {_home}" in out and str(_home / "matches") in out
    assert ok("matches", "--path").strip() == str(_home / "matches")
    assert str(_home) in "".join(ok("--help").split())


# -- share and print


def test_share_is_a_few_lines_to_paste(lake: Path):
    out = ok("status", "--share", "--match", str(lake))
    assert out.splitlines() == ["Friday night at the lake house - seven-point, to 21",
                                "Us (Ann, Cy) 4 - Them (Bob, Dee Dee) 3 after 2 hands",
                                "Hand 2: Bob bid 2 in H – made; high Them, low Them, game: Us", "The game goes on."]
    assert ok("export", "--format", "text", "--match", str(lake)) == out
    won = ok("export", "--format", "text", "--match", str(EXPORT / "partners.toml"))
    assert "Them won on hand 5" in won and won.splitlines()[1].startswith("Them (East, West) 12")


def test_blank_score_sheet_has_the_rulesets_point_columns(tmp_path: Path):
    out = tmp_path / "sheet.html"
    r = run("sheet", "seven-point", "-o", str(out))
    assert r.exit_code == 0 and "wrote" in r.stderr
    page = out.read_text()
    for label in ("high", "low", "jack", "off-jack", "high joker", "low joker", "game"):
        assert f"<th>{label}" in page
    assert "low<br><small>(dealt)</small>" in page and "to the player who was dealt it" in page
    assert "to 21" in page and page.count("<table") == 1 and "<script" not in page and "http:" not in page
    assert "https:" not in page
    assert page.count('<td class="n">') == 16
    cut = ok("sheet", "cutthroat-pitch", "--sides", "Ann,Bob,Cy <3", "--rows", "5")
    assert "off-jack" not in cut and "Cy &lt;3" in cut and cut.count('<td class="n">') == 5
    assert "must pass 21" in ok("sheet", "partnership-pitch")


# -- statistics


def stats_json(*args: str) -> dict:
    return json.loads(ok("stats", *args, "--json"))


def test_bids_made_percent_set_most_and_best_partnership():
    s = stats_json(str(EXPORT / "partners.toml"))
    lines = {ln["name"]: ln for ln in s["players"]}
    assert lines["North"]["made_rate"] == 1.0 and lines["South"]["made_rate"] == 0.0
    assert s["set_most"] == {"who": ["South"], "set": 1, "of_bids": {"South": 1}}
    assert s["best_partnership"]["name"] == "Them (East, West)" and s["best_partnership"]["won_rate"] == 1.0
    table = ok("stats", str(EXPORT / "partners.toml"), columns=80)
    assert "2 100%" in table and "0 0%" in table and "set most: South (1 of 1 bids)" in table
    # partners: North took 3 points himself in 5 hands, his side 8 (the sides' and his own per hand)
    assert lines["North"]["own_points"] == 3 and lines["North"]["own_points_per_hand"] == 0.6
    assert lines["North"]["points_per_hand"] == 1.6
    assert "best partnership: Them (East, West), won 1 of 1 games (100%)" in table


def test_filters_by_ruleset_and_day():
    logs = [str(EXPORT / n) for n in ("partners.toml", "cutthroat.toml", "cutthroat-2.toml")]
    assert stats_json(*logs)["matches"] == 3
    only = stats_json(*logs, "--rules", "cutthroat-pitch")
    assert only["matches"] == 2 and only["filtered_out"] == 1
    assert stats_json(*logs, "--since", "2024-05-04", "--until", "2024-05-04")["matches"] == 1  # partners' day
    assert stats_json(*logs, "--until", "2024-05-03", "--rules", "trickster-4")["matches"] == 0
    r = run("stats", *logs, "--since", "May 4")
    assert r.exit_code == 2 and r.stderr.startswith("error: --since: expected a day")
    r = run("stats", *logs, "--rules", "sevenpoint")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_reading_reports_progress_and_no_bar_when_not_a_terminal(tmp_path: Path):
    from pitchkeeper.reports import stats

    files = [(EXPORT / "partners.toml", False), (EXPORT / "cutthroat.toml", False)]
    seen: list[int] = []
    stats.read_many(files, workers=1, progress=seen.append)
    assert sum(seen) == 2
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(60):
        (logs / f"m{i}.toml").write_text((EXPORT / "cutthroat.toml").read_text())
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", "stats", "--all"], capture_output=True, text=True,
                       env={**os.environ, "PITCHKEEPER_HOME": str(logs)}, check=False)
    assert p.returncode == 0 and "60 match(es)" in p.stdout
    assert p.stderr == ""  # a pipe gets no progress bar
