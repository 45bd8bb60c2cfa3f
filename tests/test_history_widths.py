"""`history` and `status` at every width a terminal has (40 to 120 columns) and with names of every width
(李雷, emoji, long names): each line fits, and the match is either a table with every side's column
under its name or, where no such table fits, each hand on stacked lines with every side named beside its
score - never a side's column dropped, its scores on an unlabelled line. Every point of each hand is
named, those not out too (as the TV says them)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cli_runs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len  # an independent measure of terminal cells

import pitchkeeper
from pitchkeeper.web.view import verdict_lines

NAMES = [("Ann", "Bob", "Cy", "Dee"), ("李雷", "Bob 🃏", "José", "韩梅梅"), ("Ann-Marie Delacroix", "Bartholomew", "Cy",
                                                                           "Deirdre O'Sullivan-Smythe")]
TEAMS = [("Us", "Them"), ("红队", "Them 🂡"), ("The Kitchen Table Champions", "Visitors")]


def match(tmp_path: Path, players: tuple[str, ...], teams: tuple[str, str], hands: int) -> tuple[Path, dict[str, Any]]:
    a, b, c, d = players
    us, them = teams
    log = tmp_path / "h.toml"
    if log.exists():
        log.unlink()
    book = pitchkeeper.Logbook.create(log, "seven-point", list(players), {us: [a, c], them: [b, d]})
    shapes = [
        {"trump": "S", "bid": {"player": a, "amount": 3}, "points": {"high": us, "low": them, "jack": us, "game": us}},
        {"trump": "H", "bid": {"player": b, "amount": 2}, "points": {"high": them, "low": them}},  # game tied
        {"trump": "D", "bid": {"player": c, "amount": 4}, "points": {"high": us, "low": us, "jack": us,
                                                                     "off-jack": them}},
        {"trump": "C", "bid": {"player": d, "amount": 2}, "points": {"high": them, "low": us, "game": them,
                                                                     "high-joker": them, "low-joker": us}},
    ]
    for i in range(hands):
        book.append(shapes[i % len(shapes)])
    return log, book.state()


run = cli_runs.ok


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def check_history(out: str, width: int, state: dict[str, Any], sides: tuple[str, str]) -> str:
    lines = out.splitlines()
    for line in lines:
        assert cell_len(line) <= width, f"{cell_len(line)} cells at {width}: {line!r}"
    table = next((i for i, line in enumerate(lines) if line.startswith("#")), None)
    if table is not None:  # a table: every side a column under its name, each row's scores in that order
        heading = lines[table]
        for s in sides:
            assert s in heading, f"{s} has no column at {width}: {heading!r}"
        assert heading.index(sides[0]) < heading.index(sides[1])
        for n, h in enumerate(state["hands"], 1):
            row = next(line for line in lines if re.match(rf"{n}\s", line))
            cells = [f"{h['scores'][s]} {signed(h['delta'][s])}" for s in sides]
            assert re.search(r"\s+".join(map(re.escape, cells)) + r"$", row), (width, row)
        return "table"
    for h in state["hands"]:  # stacked: each side named beside its score and change, on one line
        for s in sides:
            said = f"{s} {h['scores'][s]} {signed(h['delta'][s])}"
            assert any(said in line for line in lines), f"{said!r} not on one line at {width}:\n{out}"
    return "stacked"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(width=st.integers(40, 120), names=st.integers(0, len(NAMES) - 1), hands=st.integers(1, 4))
def test_history_fits_every_width_with_every_side_labelled(tmp_path: Path, width: int, names: int, hands: int) -> None:
    log, state = match(tmp_path, NAMES[names], TEAMS[names], hands)
    check_history(run("history", "--match", str(log), columns=width), width, state, TEAMS[names])


def test_every_width_from_40_to_120_is_a_table_or_stacked_and_the_table_comes_once_it_fits(tmp_path: Path) -> None:
    log, state = match(tmp_path, NAMES[0], TEAMS[0], 4)
    layouts = {w: check_history(run("history", "--match", str(log), columns=w), w, state, TEAMS[0])
               for w in range(40, 121)}
    assert layouts[40] == "stacked" and layouts[120] == "table"
    first = min(w for w, how in layouts.items() if how == "table")
    assert all(how == "table" for w, how in layouts.items() if w >= first)  # no width back to a worse layout
    assert first <= 80  # the default terminal shows the table


def test_wide_names_at_the_widths_of_a_default_terminal(tmp_path: Path) -> None:
    for i in (1, 2):  # 李雷, emoji, 红队; long names and a long team name
        log, state = match(tmp_path, NAMES[i], TEAMS[i], 4)
        for width in (72, 76, 79, 80):
            check_history(run("history", "--match", str(log), columns=width), width, state, TEAMS[i])


def test_every_point_is_named_those_not_out_too_in_the_tvs_words(tmp_path: Path) -> None:
    log, state = match(tmp_path, NAMES[0], TEAMS[0], 2)
    for width in (40, 200):  # stacked, and a table too wide to fold a line: each hand's points read as one
        out = " ".join(run("history", "--match", str(log), columns=width).split())
        assert "high Us, low Them, jack Us, game: Us; not out: off-jack, high joker, low joker" in out
        assert ("high Them, low Them, game: tie, not scored; not out: jack, off-jack, high joker, low joker"
                in out)
    status = " ".join(run("status", "--match", str(log), columns=100).split())
    assert "high Them, low Them, game: tie, not scored; not out: jack, off-jack, high joker, low joker" in status
    tv = verdict_lines(state["hands"][-1], pitchkeeper.Logbook.open(log).load()[0].ruleset)
    assert "not out: jack, off-jack, high joker, low joker" in tv  # the very words of the TV and the phone


def test_a_ruleset_whose_every_point_was_out_says_nothing_of_not_out(tmp_path: Path) -> None:
    log = tmp_path / "t.toml"
    book = pitchkeeper.Logbook.create(log, "seven-point", list(NAMES[0]), {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})
    book.append({"trump": "S", "bid": {"player": "Ann", "amount": 3},
                 "points": {"high": "Us", "low": "Them", "jack": "Us", "off-jack": "Us", "high-joker": "Them",
                            "low-joker": "Us", "game": "Us"}})
    for cmd in ("history", "status"):
        assert "not out" not in run(cmd, "--match", str(log), columns=100)


def test_the_path_line_fits_a_phone(tmp_path: Path) -> None:
    deep = tmp_path / ("a-rather-long-folder-name-" * 3) / "matches"
    deep.mkdir(parents=True)
    log = deep / "2026-11-25-seven-point.toml"
    pitchkeeper.Logbook.create(log, "seven-point", list(NAMES[0]))
    for cmd in (["history", "--match", str(log)], ["new", "seven-point", *NAMES[0], "--match", str(deep / "n.toml")]):
        out = run(*cmd, columns=40)
        assert all(cell_len(line) <= 40 for line in out.splitlines()), out
        joined = "".join(line.strip() for line in out.splitlines())
        assert str(deep) in joined  # cut after a / where it must be, nothing of it lost
