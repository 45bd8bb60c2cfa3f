"""The one loader: every command that reads a log reports the same broken log in one shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import loader, store
from pitchkeeper.logbook.book import Logbook
from pitchkeeper.logbook.problems import check_log

runner = CliRunner()

HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us"}}


def broken(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A two-hand log with one thing in its second hand broken, and that hand's line."""
    log = Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    log.append(HAND)
    log.append({**HAND, "bid": {"player": "Bob", "amount": 2}, "points": {"high": "Them", "low": "Them"}})
    text = log.path.read_text(encoding="utf-8")
    second = text.index("[[hands]]", text.index("\n[[hands]]") + 2)
    text = text[:second] + text[second:].replace(old, new, 1)
    log.path.write_text(text, encoding="utf-8")
    return log.path, store.hand_line(text, 2) or 0


@pytest.mark.parametrize(("old", "new", "key", "what"), [
    ('trump = "S"', 'trump = "X"', "hands[2].trump", "'X' is not a suit"),
    ('amount = 2', 'amount = 9', "hands[2].bid.amount", "out of range"),
    ('trump = "S"', 'trumpp = "S"', "hands[2].trumpp", "unknown key 'trumpp' - did you mean 'trump'?"),
    ('low = "Them"', 'low = "Zed"', "hands[2].points.low", "'Zed' is not a team or player"),
])
def test_every_reader_reports_a_broken_log_in_one_shape(tmp_path: Path, old: str, new: str, key: str,
                                                        what: str) -> None:
    path, line = broken(tmp_path, old, new)
    shape = f"{path}:{line}: {key}: "
    for args in (["status"], ["history"], ["undo", "--yes"], ["edit", "1", "--jack", "Us", "--yes"],
                 ["hand", "Cy", "2", "H", "--high", "Us", "--low", "Us",
                  "--rest", "none", "--game", "tie"], ["export", "--format", "csv"],
                 ["chart"], ["stats"], ["judge", "match", str(path)]):
        r = runner.invoke(app, [*args, *(["--match", str(path)] if args[0] not in ("judge", "stats") else []),
                                *([str(path)] if args[0] == "stats" else [])])
        err = r.stderr.strip().splitlines()
        assert r.exit_code == 2, (args, r.stderr)
        assert len(err) == 1 and shape in err[0] and what in err[0], (args, err)
    with pytest.raises(PitchError) as e:
        Logbook.open(path)
    assert str(e.value).startswith(shape) and what in str(e.value)
    r = runner.invoke(app, ["check", str(path), "--json"])
    problems = json.loads(r.stdout)["problems"]
    assert r.exit_code == 2 and [(p["line"], p["where"]) for p in problems if not p["warning"]] == [(line, key)]
    found = check_log(path).errors
    assert [str(f) for f in found] == [f"error: {shape}{found[0].message}"] and what in found[0].message


def test_a_header_problem_names_the_file_and_key(tmp_path: Path) -> None:
    log = Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    text = log.path.read_text(encoding="utf-8").replace("first_dealer = \"Ann\"", "first_dealer = \"Zed\"")
    log.path.write_text(text, encoding="utf-8")
    with pytest.raises(PitchError, match=rf"^{log.path}: first_dealer: 'Zed' is not a player"):
        loader.load(log.path)


def test_a_log_is_loaded_with_the_ruleset_it_pins(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('name = "house"\nextends = "seven-point"\n[win]\ntarget = 15\n', encoding="utf-8")
    log = Logbook.create(tmp_path / "m.toml", str(house), ["Ann", "Bob", "Cy", "Dee"])
    assert log.state()["target"] == 15
    house.write_text('name = "house"\nextends = "seven-point"\n[win]\ntarget = 9\n', encoding="utf-8")
    k = loader.load(log.path)
    assert k.ruleset.settings["win"]["target"] == 15 and "has changed since this match began" in k.warnings[0]
    assert loader.load(log.path, rules="seven-point").ruleset.settings["win"]["target"] == 21


def test_house_rules_reached_through_a_link_are_named_as_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A house-rules file that is a link extends what sits beside the link: the log names the link, so the
    match reads back under the ruleset it began with (no "has changed" warning)."""
    (tmp_path / "real").mkdir()
    (tmp_path / "table").mkdir()
    (tmp_path / "real" / "house.toml").write_text('name = "house"\nextends = "base.toml"\n')
    (tmp_path / "real" / "base.toml").write_text('extends = "seven-point"\n[win]\ntarget = 15\n')
    (tmp_path / "table" / "base.toml").write_text('extends = "seven-point"\n[win]\ntarget = 25\n')
    (tmp_path / "table" / "house.toml").symlink_to(tmp_path / "real" / "house.toml")
    monkeypatch.chdir(tmp_path / "table")
    book = Logbook.create(tmp_path / "m.toml", "house.toml", ["Ann", "Bob", "Cy", "Dee"])
    k = loader.load(book.path)
    assert k.data["rules"] == str(tmp_path / "table" / "house.toml")
    assert k.warnings == () and k.ruleset.settings["win"]["target"] == 25


def test_a_bare_ruleset_name_that_is_no_built_in_is_read_beside_the_log(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "house").write_text('name = "house"\nextends = "seven-point"\n[win]\ntarget = 11\n')
    monkeypatch.chdir(tmp_path / "logs")
    book = Logbook.create(tmp_path / "logs" / "m.toml", "house", ["Ann", "Bob", "Cy", "Dee"])
    monkeypatch.chdir(tmp_path)  # elsewhere: the name is still found beside the log, as a .toml one is
    assert loader.load(book.path).ruleset.settings["win"]["target"] == 11
    assert loader.rules_ref({"rules": "seven-point"}, tmp_path / "logs" / "m.toml", None) == "seven-point"
