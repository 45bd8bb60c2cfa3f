"""Every built-in house file of examples/house-rules: `rules check` passes it, and a whole game under it, written
by hand for its distinctive rule (tests/data/house-rules/NAME.match.toml), is judged by `judge match` to the
hand-by-hand totals and the winner worked out by hand in the file's comments (`# => Side score, ...` after each
hand, `# winner: Side on hand N` at the top)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

ROOT = Path(__file__).resolve().parent.parent
HOUSE = sorted((ROOT / "examples" / "house-rules").glob("*.toml"))
GAMES = Path(__file__).resolve().parent / "data" / "house-rules"
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_there_are_at_least_ten_house_files_each_with_a_whole_game():
    assert len(HOUSE) >= 10
    assert sorted(f.stem for f in HOUSE) == sorted(f.name.removesuffix(".match.toml") for f in GAMES.glob("*.toml"))


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_rules_check_passes_each_house_file(path: Path) -> None:
    r = run("rules", "check", str(path))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{path}: ok - {path.stem}")


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_each_house_file_names_the_shipped_schema_and_meets_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#:schema ../../rulesets/ruleset.schema.json")
    schema = json.loads((ROOT / "rulesets" / "ruleset.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(tomllib.loads(text), schema)


def expectations(text: str) -> tuple[list[dict[str, int]], str | None, int | None]:
    """The totals after each hand and the winner, as the file's comments give them."""
    totals = []
    for m in re.finditer(r"^# => (.*)$", text, re.M):
        totals.append({side: int(score) for side, score in (part.rsplit(" ", 1) for part in m.group(1).split(", "))})
    won = re.search(r"^# winner: (\S+)(?: on hand (\d+))?$", text, re.M)
    assert won is not None, "say who wins: '# winner: Side on hand N' (or '# winner: none')"
    if won.group(1) == "none":
        return totals, None, None
    return totals, won.group(1), int(won.group(2))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.match.toml")), ids=lambda p: p.name.removesuffix(".match.toml"))
def test_a_whole_game_is_judged_as_worked_out_by_hand(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    totals, winner, hand = expectations(text)
    r = run("judge", "match", str(path), "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert [h["scores"] for h in got["hands"]] == totals
    assert (got["winner"], got["won_on_hand"]) == (winner, hand)
    for m in re.finditer(r"^# reason: (.*)$", text, re.M):
        assert got["reason"] == m.group(1)
    for m in re.finditer(r"^# illegal in hand (\d+): (\S+) by (\S+)$", text, re.M):
        found = [(i["rule"], i["player"]) for i in got["hands"][int(m.group(1)) - 1]["illegal"]]
        assert (m.group(2), m.group(3)) in found
