"""A match log pinned to a built-in ruleset before issue 22's notes were written loads silently with the
ruleset of today when only the words changed (the pinned copy's play digest equals the current one's);
a pinned copy that plays differently still wins, with its warning. The built-ins as they were are kept
as test data (tests/data/rulesets-before-22)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import loader, writing
from pitchkeeper.logbook.book import Logbook

BEFORE = Path(__file__).resolve().parent / "data" / "rulesets-before-22"
PLAYERS = {"partnership-pitch": ["Ann", "Bob", "Cy", "Dee"], "solo-pitch": ["Ann", "Bob", "Cy"]}
runner = CliRunner()


def old_ruleset(name: str, tmp_path: Path) -> rulesets.Ruleset:
    """A built-in as it was before issue 22 (each old file extending the old files)."""
    old = tmp_path / "before"
    old.mkdir(exist_ok=True)
    for f in BEFORE.glob("*.toml"):
        text = f.read_text(encoding="utf-8")
        for parent in rulesets.builtin_names():
            text = text.replace(f'extends = "{parent}"', f'extends = "{parent}.toml"')
        (old / f.name).write_text(text, encoding="utf-8")
    return rulesets.load(old / f"{name}.toml")


def pin(log: Path, r: rulesets.Ruleset) -> None:
    """Make a log pin `r` (its digest and its merged copy), as a log written under `r` did."""
    text = log.read_text(encoding="utf-8")
    head, _, _ = text.partition("[ruleset]")
    data = dict(r.raw)
    text = head + "\n".join(["[ruleset]", f"name = {writing.toml_value(r.name)}",
                             f"digest = {writing.toml_value(r.digest)}",
                             f"copy = {writing.multiline(writing.table_toml(data))}"]) + "\n"
    log.write_text(text, encoding="utf-8")


def a_log(tmp_path: Path, name: str) -> Path:
    players = PLAYERS.get(name, ["Ann", "Bob", "Cy", "Dee"])
    return Logbook.create(tmp_path / f"{name}.toml", name, players).path


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_a_log_pinned_before_the_notes_loads_without_a_warning(name: str, tmp_path: Path) -> None:
    old = old_ruleset(name, tmp_path)
    now = rulesets.load(name)
    log = a_log(tmp_path, name)
    pin(log, old)
    k = loader.load(log)
    assert k.warnings == ()
    assert k.ruleset.notes == now.notes  # the notes of today are the ones shown
    if name != "solo-pitch":  # every other built-in's words changed: the pin is no longer today's digest
        assert old.digest != now.digest
    r = runner.invoke(app, ["status", "--match", str(log)])
    assert r.exit_code == 0 and "warning" not in r.stderr


def test_a_pinned_copy_that_plays_differently_still_wins_and_warns(tmp_path: Path) -> None:
    old = old_ruleset("seven-point", tmp_path)
    changed = rulesets.compile_ruleset({**dict(old.raw), "win": {**dict(old.raw.get("win", {})), "target": 15}})
    log = a_log(tmp_path, "seven-point")
    pin(log, changed)
    k = loader.load(log)
    assert k.ruleset.settings["win"]["target"] == 15
    assert len(k.warnings) == 1 and re.search(r"ruleset 'seven-point' has changed since this match began", k.warnings[0])
    r = runner.invoke(app, ["status", "--match", str(log)])
    assert r.exit_code == 0 and "has changed since this match began" in r.stderr


def test_a_pinned_copy_edited_by_hand_is_refused_even_when_it_plays_alike(tmp_path: Path) -> None:
    old = old_ruleset("seven-point", tmp_path)
    log = a_log(tmp_path, "seven-point")
    pin(log, old)
    text = log.read_text(encoding="utf-8").replace("Seed 000", "Seed 001", 1)  # words only, but the digest breaks
    log.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["status", "--match", str(log)])
    assert r.exit_code == 2 and "was it edited by hand?" in r.stderr and len(r.stderr.strip().splitlines()) == 1
