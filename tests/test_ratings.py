"""Ratings across everything kept (openskill): who beat whom moves the ratings; nothing is counted twice."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.reports import index
from pitchkeeper.reports.ratings import Game, games_of, rank_places, rate

ROOT = Path(__file__).resolve().parent.parent
KITCHEN = ROOT / "examples" / "kitchen-table.toml"  # Us (Ann & Cy) beat Them (Bob & Dee), 21 to 22
runner = CliRunner()


def test_places_put_the_winner_first_and_equal_scores_together() -> None:
    assert rank_places(Game((("a",), ("b",), ("c",), ("d",)), (5, 9, 9, 2), 0)) == [1, 2, 2, 4]
    assert rank_places(Game((("a", "b"), ("c", "d")), (21, 22), 0)) == [1, 2]


def test_winners_rise_above_losers_and_a_longer_record_counts_more() -> None:
    games = [Game((("Ann", "Cy"), ("Bob", "Dee")), (21, 14), 0)] * 3 + [Game((("Bob",), ("Eve",)), (7, 3), 0)]
    rated = {r.name: r for r in rate(games)}
    assert rated["Ann"].ordinal > rated["Bob"].ordinal
    assert rated["Bob"].ordinal > rated["Eve"].ordinal
    assert rated["Ann"].games == 3 and rated["Bob"].games == 4
    assert rated["Ann"].sigma < rated["Eve"].sigma  # more games, more certain


def _keep_kitchen(home: Path) -> Path:
    (home / "matches").mkdir(parents=True, exist_ok=True)
    shutil.copy(KITCHEN, home / "matches" / "kitchen.toml")
    return home


def test_stats_shows_ratings_from_logs_and_tournaments_counting_a_game_once(_home: Path) -> None:
    home = _keep_kitchen(_home)
    t = home / "night.toml"
    r = runner.invoke(app, ["tournament", "new", str(t), "-r", "seven-point", "-f", "progressive", "-p",
                            "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal"])
    assert r.exit_code == 0, r.stderr
    assert runner.invoke(app, ["tournament", "seat", str(t)]).exit_code == 0
    r = runner.invoke(app, ["tournament", "record", str(t), "-t", "1", "--match", str(home / "matches" / "kitchen.toml")])
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(app, ["tournament", "record", str(t), "-t", "2", "--score", "Eve&Gus=21,Fay&Hal=4"])
    assert r.exit_code == 0, r.stderr
    summaries, _ = index.kept(home)
    assert len(games_of(summaries)) == 2  # table 1's game is the kept log itself: rated once
    r = runner.invoke(app, ["stats", "--all", "--ratings", "--json"])
    assert r.exit_code == 0, r.stderr
    rated = json.loads(r.stdout)["ratings"]
    by = {x["name"]: x for x in rated}
    assert by["Ann"]["games"] == 1 and by["Eve"]["games"] == 1
    assert by["Ann"]["rating"] > by["Bob"]["rating"] and by["Gus"]["rating"] > by["Hal"]["rating"]
    assert [x["rating"] for x in rated] == sorted((x["rating"] for x in rated), reverse=True)


def test_a_swiss_event_seeded_by_ratings_lists_the_strongest_team_first(_home: Path, tmp_path: Path) -> None:
    _keep_kitchen(_home)
    t = tmp_path / "swiss.toml"
    r = runner.invoke(app, ["tournament", "new", str(t), "-r", "seven-point", "-f", "swiss", "--teams",
                            "Bob&Dee,Eve&Fay,Ann&Cy", "--seed", "ratings"])
    assert r.exit_code == 0, r.stderr
    text = t.read_text(encoding="utf-8")
    assert text.index('["Ann", "Cy"]') < text.index('["Eve", "Fay"]') < text.index('["Bob", "Dee"]')
    assert 'seed = "ratings"' in text


def test_ratings_are_remembered_until_a_kept_file_changes(_home: Path) -> None:
    from pitchkeeper.reports.ratings import rate_kept

    home = _keep_kitchen(_home)
    first = rate_kept(home)
    summaries, _ = index.kept(home)
    with index.open_kept(home) as idx:  # a planted memo under the current fingerprint is what comes back
        idx.remember("ratings", index.fingerprint(summaries), [["Zed", 30.0, 1.0, 9]])
    assert [r.name for r in rate_kept(home)] == ["Zed"]
    text = (home / "matches" / "kitchen.toml").read_text(encoding="utf-8")
    (home / "matches" / "again.toml").write_text(text, encoding="utf-8")  # a second game kept: rated anew
    again = {r.name: r for r in rate_kept(home)}
    assert again["Ann"].games == 2 and again["Ann"].mu > {r.name: r for r in first}["Ann"].mu
