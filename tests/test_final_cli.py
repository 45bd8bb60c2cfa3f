"""The outside tester's last evening, on the command line: `check`'s summary for a log with one error,
par in words a card player reads, no "-0.0", `matches` in the order the games began, a chart whose target
row only a score at the target touches, and `analyse match` on the current match or --match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.reports.chart import Progression, text_chart
from pitchkeeper.words import analysis as words

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), env=env)


def ok(r) -> None:  # type: ignore[no-untyped-def]
    assert r.exit_code == 0, r.stderr


def game(*extra: str) -> None:
    """A seven-point game at Ann, Bob, Cy, Dee's table (the current match), one hand recorded."""
    ok(run("new", "seven-point", "Ann", "Bob", "Cy", "Dee", *extra))
    ok(run("hand", "Ann", "2", "S", "--high", "Us", "--low", "Ann", "--game", "Us", "--rest", "none"))


# -- check ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("errors", [1, 2])
def test_check_never_calls_a_log_with_an_error_ok(tmp_path: Path, errors: int) -> None:
    game("--match", str(tmp_path / "m.toml"))
    p = tmp_path / "m.toml"
    ok(run("hand", "Bob", "3", "H", "--high", "Them", "--low", "Bob", "--game", "Them", "--rest", "none",
           "--match", str(p)))
    text = p.read_text().replace("amount = 2", "amount = 12", 1)
    if errors == 2:
        text = text.replace('trump = "H"', 'trump = "Q"', 1)
    p.write_text(text)
    r = run("check", str(p))
    assert r.exit_code == 2
    assert "warning" not in r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == errors and all(ln.startswith("error: ") for ln in lines)  # one error: one line
    assert r.stdout == f"{errors} problem(s) in {p}\n"  # the verdict, never "ok"
    report = json.loads(run("check", str(p), "--json").stdout)
    assert report["ok"] is False and len(report["problems"]) == errors
    assert not any(x["warning"] for x in report["problems"])


def test_check_of_a_sound_log_is_ok(tmp_path: Path) -> None:
    game("--match", str(tmp_path / "m.toml"))
    r = run("check", str(tmp_path / "m.toml"))
    assert r.exit_code == 0 and r.stdout == f"{tmp_path / 'm.toml'}: ok - 1 hand(s), seven-point\n"


# -- analyse: par in words, figures ---------------------------------------------------------------------------

def test_par_below_what_was_taken_says_the_defence_gave_it_away() -> None:
    f = DATA / "play" / "seven-point-misplay.toml"  # Bob drops the JS under Ann's AS: par 2, taken 4
    a = pitchkeeper.analyse_hand(f)
    r = run("analyse", "hand", str(f), env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.stderr
    said = " ".join(r.stdout.split())
    assert (f"With every card known, best play by everyone gives Us {a['par']}; Us took {a['taken']} (the "
            f"defence gave away {a['taken'] - a['par']}).") in said
    assert a["taken"] > a["par"] and "could take" not in said
    assert max(len(ln) for ln in r.stdout.splitlines()) <= 40
    assert json.loads(run("analyse", "hand", str(f), "--json").stdout) == a  # the JSON is the API object, as before
    assert set(a) == {"rules", "trump", "bid", "par", "taken", "plays", "costs"}


@pytest.mark.parametrize(("par", "taken", "tail"), [
    (4, 3, "gives Us 4; Us took 3 (their own play gave away 1)"),
    (3, 3, "gives Us 3, and Us took 3"),
    (2, 5, "gives Us 2; Us took 5 (the defence gave away 3)"),
])
def test_par_words_name_who_gave_the_difference_away(par: int, taken: int, tail: str) -> None:
    a = {"bid": {"side": "Us", "player": "Ann", "amount": 3}, "par": par, "taken": taken}
    assert words.par_words(a) == f"with every card known, best play by everyone {tail}"


@given(st.floats(min_value=-20, max_value=20, allow_nan=False))
def test_a_figure_is_never_a_negative_zero(x: float) -> None:
    for signed in (False, True):
        shown = words.figure(x, signed)
        assert shown != "-0.0" and float(shown) == pytest.approx(round(x, 1), abs=1e-9)
        assert shown.startswith("+") == (signed and round(x, 1) > 0)


def test_odds_say_0_0_where_a_bid_scores_a_hair_below_nothing() -> None:
    args = ("analyse", "odds", "--rules", "seven-point", "--cards", "AS 3S KH 9C 4D 8H", "--trump", "C",
            "--seed", "1")  # the tester's hand: bid 2 in clubs scores a hair below nothing on average
    o = json.loads(run(*args, "--json").stdout)
    r = run(*args)
    assert r.exit_code == 0, r.stderr
    assert "-0.0" not in r.stdout
    near_nothing = [b for b, v in o["trumps"][0]["expected"].items() if round(v, 1) == 0]
    assert near_nothing
    for b in near_nothing:
        assert re.search(rf"bid {b}: \d+% made, 0\.0 on average", r.stdout), r.stdout


# -- matches: the order the games began ------------------------------------------------------------------------

def test_matches_lists_the_evenings_games_in_the_order_they_began(_home: Path) -> None:
    for _ in range(3):
        game()
    logs = sorted((_home / "matches").glob("*.toml"))
    first = next(p for p in logs if not re.search(r"-\d+\.toml$", p.name))  # new's first log of the day
    order = [first, *sorted((p for p in logs if p != first), key=lambda p: int(p.stem.rsplit("-", 1)[1]))]
    rows = json.loads(run("matches", "--json").stdout)
    assert [Path(r["match"]).name for r in rows] == [p.name for p in order]
    # `created` decides over the name: the third game's log, begun earliest, comes first
    third = order[2]
    third.write_text(re.sub(r'created = "[^"]*"', 'created = "2000-01-01T20:00:00"', third.read_text()))
    rows = json.loads(run("matches", "--json").stdout)
    assert [Path(r["match"]).name for r in rows] == [third.name, order[0].name, order[1].name]
    ok(run("use", "1"))
    assert json.loads(run("where", "--json").stdout)["current"] == str(third)
    assert "order they began" in " ".join(run("matches", "--help").stdout.split())


# -- chart: the target row -------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.integers(5, 30), st.lists(st.tuples(st.integers(-4, 8), st.integers(-4, 8)), min_size=1, max_size=30),
       st.sampled_from([30, 40, 80]), st.booleans())
def test_only_a_score_at_the_target_touches_its_row(target: int, steps: list[tuple[int, int]], width: int,
                                                    reach: bool) -> None:
    us, them = [0], [0]
    for a, b in steps:  # a game short of the target: nobody's mark may touch the target row
        if max(us[-1] + a, them[-1] + b) >= target:
            break
        us.append(us[-1] + a)
        them.append(them[-1] + b)
    if reach:  # and then Us reach it exactly, on the last hand: on the line
        us.append(target)
        them.append(them[-1])
    p = Progression(("Us", "Them"), tuple(range(len(us))), {"Us": tuple(us), "Them": tuple(them)}, target, None)
    grid = text_chart(p, width=width).rows[:-2]
    trow = next(r for r, row in enumerate(grid) if any(c.kind == "axis" and c.char == "+" for c in row))
    marks = [(r, c) for r, row in enumerate(grid) for c in row if c.kind in ("plot", "clash") and c.char != " "]
    on_or_above = [c.char for r, c in marks if r <= trow]
    assert on_or_above == (["o"] * len(on_or_above) if reach else []), (p, on_or_above)
    assert (len(on_or_above) > 0) == reach


def test_the_testers_hand_eight_them_at_19_is_not_drawn_on_21() -> None:
    us = (0, 3, -1, 0, 4, 10, 13, 17, 18, 21)
    them = (0, 3, 6, 8, 9, 10, 14, 17, 19, 21)
    p = Progression(("Us", "Them"), tuple(range(10)), {"Us": us, "Them": them}, 21, "Us")
    lines = text_chart(p, width=40).lines()
    row21 = next(ln for ln in lines if ln.lstrip().startswith("21 +"))
    start = row21.index("+") + 1
    hand8 = slice(start + 8 * 3, start + 9 * 3)
    assert row21[hand8] == "..."  # the target row is empty at hand 8: nobody has 21 yet
    assert set(row21[start + 9 * 3:]) == {"*"}  # both at 21 on hand 9: level, on the line
    row18 = next(ln for ln in lines if ln.lstrip().startswith("18 |"))
    assert row18[hand8] == "xxx"  # Them's 19 on the row nearest it, above Us


# -- analyse match: the current match, --match ------------------------------------------------------------------

def test_analyse_match_takes_the_current_match_or_match(tmp_path: Path) -> None:
    r = run("analyse", "match")
    assert r.exit_code == 2 and "no current match" in r.stderr and "Missing argument" not in r.stderr
    game()
    current = json.loads(run("where", "--json").stdout)["current"]
    r = run("analyse", "match", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == pitchkeeper.analyse_match(current)
    r = run("analyse", "match")
    assert r.stdout.splitlines() == ["Hand 1: not recorded trick by trick, not analysed.",
                                     "No hand of this match was recorded trick by trick: there is nothing to analyse."]
    other = tmp_path / "other.toml"
    game("--match", str(other))
    ok(run("use", str(current)))
    for args in (["--match", str(other)], ["-m", str(other)], [str(other)]):
        r = run("analyse", "match", *args, "--json")
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout)["hands"] == pitchkeeper.analyse_match(other)["hands"]
    r = run("analyse", "match", str(other), "--match", str(current))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "not both" in r.stderr
    r = run("analyse", "match", "--match", str(tmp_path / "none.toml"))
    assert r.exit_code == 2 and "no such file" in r.stderr
