"""The words the table reads are the words it types: options named as options (not TOML), no hint to run
what is running, no stray punctuation, and every error placed at the argument it is about."""

from __future__ import annotations

import functools
from pathlib import Path

import cli_runs

run = functools.partial(cli_runs.invoke, columns=100)


def test_cards_without_who_was_dealt_low_ask_for_the_option_not_toml(tmp_path: Path):
    log = tmp_path / "s.toml"
    assert run("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(log)).exit_code == 0
    before = log.read_bytes()
    r = run("hand", "Bob", "2", "H", "--cards", "Us: AH 2H KS QS JS 10S 9S 8S 7S 6S 5S 4S",
            "--cards", "Them: 3H JH 4C 5C 6C 7C 8C 9C 10C JC QC KC", "--match", str(log))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("error: --dealt: 2H goes to the player dealt it") and '--dealt "Ann: 2H"' in r.stderr
    assert "dealt = {" not in r.stderr
    assert log.read_bytes() == before
    r = run("hand", "Bob", "2", "H", "--cards", "Us: AH 2H KS QS JS 10S 9S 8S 7S 6S 5S 4S",
            "--cards", "Them: 3H JH 4C 5C 6C 7C 8C 9C 10C JC QC KC", "--dealt", "cy: 2H", "--match", str(log))
    assert r.exit_code == 0, r.stderr


def test_play_starting_a_match_does_not_tell_you_to_run_play(_home: Path):
    r = run("play", "--piped", input="seven-point\nAnn, Bob, Cy, Dee\nAnn\nq\n")
    assert r.exit_code == 0, r.stderr
    assert "new match:" in r.stdout and "hand 1: Ann deals" in r.stdout
    assert "pitchkeeper play" not in r.stdout
    assert "pitchkeeper play" in run("new", "seven-point", "Ann", "Bob", "Cy", "Dee").stdout  # `new` still says it


def test_chart_without_a_title_has_no_stray_dash(tmp_path: Path):
    log = tmp_path / "game.toml"
    assert run("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(log)).exit_code == 0
    assert run("hand", "Ann", "2", "S", "--high", "Us", "--low", "Them", "--game", "tie", "--rest", "none",
               "--match", str(log)).exit_code == 0
    for columns in (100, 40):
        first = run("chart", "--match", str(log), columns=columns).stdout.splitlines()[0]
        assert first.startswith("game.toml: seven-point") and " - " not in first and not first.endswith("-")


def test_an_unknown_ruleset_is_placed_at_its_argument(tmp_path: Path):
    for args, where in ((["sheet", "nosuch", "-o", str(tmp_path / "x.html")], "RULESET"), (["stats", "-r", "nosuch"], "--rules")):
        r = run(*args)
        assert r.exit_code == 2 and r.stderr.startswith(f"error: {where}: no ruleset named 'nosuch'"), r.stderr
    assert not (tmp_path / "x.html").exists()
