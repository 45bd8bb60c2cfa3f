"""Exports of house-rule games (csv, json, md, html, text): the called card and its holder in the CSV of a table
that calls a partner only, the point columns naming players, the partnership in the bid cells and the html's
hand blocks, count-down goals and chart, fixed teams of three."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

GAMES = Path(__file__).resolve().parent / "data" / "house-rules"
ALL = sorted(p.name.removesuffix(".match.toml") for p in GAMES.glob("*.match.toml"))
runner = CliRunner()


def export(name: str, fmt: str) -> str:
    r = runner.invoke(app, ["export", "--format", fmt, "--match", str(GAMES / f"{name}.match.toml")])
    assert r.exit_code == 0, r.output
    return str(r.stdout)


def judged(name: str) -> dict[str, Any]:
    r = runner.invoke(app, ["judge", "match", str(GAMES / f"{name}.match.toml"), "--json"])
    return dict(json.loads(r.stdout))


@pytest.mark.parametrize("name", ALL)
def test_csv_has_called_and_partner_only_where_a_partner_is_called(name: str) -> None:
    rows = list(csv.reader(io.StringIO(export(name, "csv"))))
    head = rows[0]
    calls = name == "call-partner-5"
    assert ("called" in head and "partner" in head) == calls
    assert head[:4] == ["hand", "dealer", "bidder", "bid"]
    assert head[4:6] == (["called", "partner"] if calls else ["trump", head[5]])
    assert len(rows) == 1 + len(judged(name)["hands"])
    assert all(len(r) == len(head) for r in rows)


def test_the_call_partner_csv_names_who_was_called_and_who_won_each_point() -> None:
    rows = list(csv.DictReader(io.StringIO(export("call-partner-5", "csv"))))
    assert [(r["bidder"], r["called"], r["partner"]) for r in rows] == [("Ann", "AS", "Cy"), ("Bob", "KH", "Dee"),
                                                                         ("Ann", "KS", "Bob")]
    players = {"Ann", "Bob", "Cy", "Dee", "Eve", ""}
    for r in rows:  # every point column names a player, never a hand's side (Ann+Cy)
        assert {r[p] for p in ("ace", "jack", "off-jack", "high-joker", "low-joker", "ten", "three", "deuce")} <= players
    j = judged("call-partner-5")
    for r, h in zip(rows, j["hands"], strict=True):  # the columns agree with judge match's awards
        assert {a["point"]: a["player"] for a in h["awards"]} == {a["point"]: r[a["point"]] for a in h["awards"]}
    assert [r["Ann total"] for r in rows] == ["7", "10", "19"]


def test_md_html_and_text_name_the_partnership() -> None:
    md = export("call-partner-5", "md")
    cells = [line.split(" | ")[2] for line in md.splitlines() if re.match(r"\| \d+ \|", line)]
    assert cells == ["Ann+Cy 6 (A♠)", "Bob+Dee 5 (K♥)", "Ann+Bob 5 (K♠)"]
    html = export("call-partner-5", "html")
    assert "<h3>Hand 3: Ann+Bob bid 5, trump S" in html
    assert "called K♠: partner Bob (Ann+Bob against Cy+Dee+Eve)" in html
    text = export("call-partner-5", "text")
    assert "Hand 3: Ann+Bob bid 5 in S (K♠) – made" in text
    j = json.loads(export("call-partner-5", "json"))
    assert j["hands"][0]["bid"]["team"] == "Ann+Cy" and j["hands"][0]["teams"]["Bob+Dee+Eve"]["taken"] == 3


def test_the_html_game_count_is_by_the_hands_own_sides(tmp_path: Path) -> None:
    # a calling table with a game point: the game count's rows are the hand's sides, not the five players
    house = tmp_path / "game5.toml"
    house.write_text('name = "game5"\nextends = "cutthroat-pitch"\n[partner]\ncounts = [5]\n', encoding="utf-8")
    path = tmp_path / "m.toml"
    assert runner.invoke(app, ["new", str(house), "Ann", "Bob", "Cy", "Dee", "Eve", "--match", str(path)]).exit_code == 0
    deck = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
    cy, bob, dee = deck[:15], deck[15:25], deck[25:30]  # six tricks of five: Cy three, Bob two, Dee one
    r = runner.invoke(app, ["hand", "Ann", "3", "S", "--called", "KS", "--partner", "Cy", "--cards",
                            f"Cy: {' '.join(cy)}", "--cards", f"Bob: {' '.join(bob)}", "--cards",
                            f"Dee: {' '.join(dee)}", "--match", str(path)])
    assert r.exit_code == 0, r.output
    html = runner.invoke(app, ["export", "--format", "html", "--match", str(path)]).stdout
    block = html[html.index('<table class="game">'):]
    block = block[:block.index("</table>")]
    assert re.findall(r'<th scope="row">([^<]+)</th>', block) == ["Ann+Cy", "Bob+Dee+Eve"]


def test_count_down_exports_say_the_goal_and_chart_from_the_target() -> None:
    md = export("bicycle-smudge", "md")
    assert md.splitlines()[0] == "**Pitch match** - bicycle-smudge, down from 7 to 0"
    html = export("bicycle-smudge", "html")
    assert "bicycle-smudge, down from 7 to 0." in html
    assert re.search(r'<text [^>]*>goal 0</text>', html)
    first = re.findall(r'points="([\d.]+),([\d.]+)', html)  # each side's line starts at hand 0
    assert len({y for _, y in first}) == 1  # everyone starts at the same score: the target
    text = export("bicycle-smudge", "text")
    assert text.splitlines()[0].endswith("bicycle-smudge, down from 7 to 0")


def test_teams_of_three_are_named_with_their_players() -> None:
    md = export("schmier", "md")
    assert "Teams: Us (Ann, Cy, Eve); Them (Bob, Dee, Fay)" in md
    rows = list(csv.reader(io.StringIO(export("schmier", "csv"))))
    assert rows[0][-4:] == ["Us change", "Them change", "Us total", "Them total"]
