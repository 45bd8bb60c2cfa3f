"""The entry of issue 22's record keys through the CLI: --called, --partner, --kitty, --discard, --drawn and --held
round-trip into the log's hand table and back; who held the called card is written when the held cards show it;
bad input is one line naming the key, exit 2, and nothing written."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.logbook import loader

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules"
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
# a hand of call-partner-5 by points: Ann and Cy take 7
POINTS = ["--ace", "Cy", "--jack", "Ann", "--off-jack", "Bob", "--high-joker", "Ann", "--low-joker", "Dee",
          "--ten", "Cy", "--point", "three=Ann", "--deuce", "Eve"]
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "120"})


def new(tmp_path: Path, rules: str, players: list[str], *more: str) -> Path:
    path = tmp_path / "m.toml"
    r = run("new", str(HOUSE / f"{rules}.toml"), *players, "--match", str(path), *more)
    assert r.exit_code == 0, r.output
    return path


def hands(path: Path) -> list[dict[str, Any]]:
    return tomllib.loads(path.read_text(encoding="utf-8"))["hands"]


def test_called_and_partner_round_trip(tmp_path: Path) -> None:
    path = new(tmp_path, "call-partner-5", FIVE)
    r = run("hand", "Ann", "6", "S", "--called", "as", "--partner", "cy", *POINTS, "--match", str(path), "--json")
    assert r.exit_code == 0, r.output
    h = hands(path)[0]
    assert (h["called"], h["partner"]) == ("AS", "Cy")
    assert list(h)[:5] == ["dealer", "trump", "bid", "called", "partner"]  # the order a person reads them
    last = json.loads(r.stdout)["hands"][-1]
    assert last["bid"] | {} == {"side": "Ann", "player": "Ann", "amount": 6, "made": True, "called": "AS",
                                "partner": "Cy", "team": "Ann+Cy"}
    assert last["teams"]["Ann+Cy"] == {"players": ["Ann", "Cy"], "taken": 7}
    # read back: the log's hand has them
    k = loader.load(path)
    assert (k.record.hands[0].called, k.record.hands[0].partner) == ("AS", "Cy")
    # an edit changes who held it; "none" says the bidder played alone
    r = run("edit", "1", "--partner", "none", "--match", str(path), "--yes")
    assert r.exit_code == 0, r.output
    assert hands(path)[0]["partner"] == "none"
    assert "partner: called A♠ (Cy) → called A♠, held by nobody: Ann alone" in " ".join(r.stdout.split())
    r = run("status", "--match", str(path), "--json")
    assert json.loads(r.stdout)["last_hand"]["bid"]["team"] == "Ann"


def test_the_holder_is_read_from_the_held_cards_when_not_typed(tmp_path: Path) -> None:
    path = new(tmp_path, "call-partner-5", FIVE)
    r = run("hand", "Ann", "6", "S", "--called", "KS", "--held", "Dee: KS 2S", *POINTS, "--match", str(path))
    assert r.exit_code == 0, r.output
    h = hands(path)[0]
    assert (h["called"], h["partner"], h["held"]) == ("KS", "Dee", {"Dee": ["KS", "2S"]})


def test_kitty_and_discard_round_trip(tmp_path: Path) -> None:
    path = new(tmp_path, "trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"])
    r = run("hand", "Bob", "2", "H", "--kitty", "AS 5h JD", "--discard", "2C 3c 4C", "--high", "Them", "--low", "Us",
            "--jack", "Them", "--game", "Them", "--match", str(path))
    assert r.exit_code == 0, r.output
    h = hands(path)[0]
    assert (h["kitty"], h["discard"]) == (["AS", "5H", "JD"], ["2C", "3C", "4C"])  # the bidder's: a bare list
    k = loader.load(path)
    assert k.record.hands[0].kitty == ("AS", "5H", "JD") and k.record.hands[0].discard == (("Bob", ("2C", "3C", "4C")),)
    assert run("edit", "1", "--kitty", "-", "--match", str(path), "--yes").exit_code == 0
    assert "kitty" not in hands(path)[0] and hands(path)[0]["discard"] == ["2C", "3C", "4C"]


def test_a_draw_round_trips_with_each_players_cards(tmp_path: Path) -> None:
    path = new(tmp_path, "nine-card-pitch", ["Ann", "Bob", "Cy", "Dee"])
    r = run("hand", "Ann", "3", "S", "--discard", "Bob: 2C 3C", "--discard", "Ann: 4D", "--drawn", "Bob: 4C 5C",
            "--drawn", "Ann: 6D", "--high", "Us", "--low", "Us", "--jack", "Them", "--rest", "none", "--game", "tie",
            "--match", str(path))
    assert r.exit_code == 0, r.output
    h = hands(path)[0]
    assert h["discard"] == {"Bob": ["2C", "3C"], "Ann": ["4D"]}
    assert h["drawn"] == {"Bob": ["4C", "5C"], "Ann": ["6D"]}
    state = json.loads(run("judge", "match", str(path), "--json").stdout)
    assert state["direction"] == "down" and state["scores"] == {"Us": 24, "Them": 20}  # set: back up 3; Them -1


@pytest.mark.parametrize(("rules", "players", "args", "line"), [
    ("call-partner-5", FIVE, ["--called", "AX", "--partner", "Cy"], "error: --called: 'AX' is not a card"),
    ("call-partner-5", FIVE, ["--called", "2H", "--partner", "Cy"],
     "hands[1].called: 2H is not a trump (hearts); the bidder calls a trump (partner.may_call) (nothing was written)"),
    ("call-partner-5", FIVE, ["--called", "AS", "--partner", "Ann"],
     "hands[1].partner: Ann is the bidder; when no other player held AS, write partner = \"none\""),
    ("call-partner-5", FIVE, ["--called", "AS", "--partner", "Zed"], "error: --partner: 'Zed' is not a player"),
    ("call-partner-5", FIVE, ["--partner", "Cy"],
     "hands[1].called: missing - with 5 players the bidder calls a partner's card"),
    ("call-partner-5", FIVE, ["--called", "AS"], "hands[1].partner: missing - say who held the called card AS"),
    ("call-partner-5", FIVE, ["--called", "AS", "--held", "Ann: AS 3S"],
     "hands[1].called: Ann called AS, which Ann held (held.Ann): the bidder may not call a card it holds"),
    ("call-partner-5", FIVE, ["--called", "AS", "--partner", "Cy", "--held", "Dee: AS"],
     "hands[1].partner: Cy, but held.Dee lists AS"),
    ("call-partner-5", FIVE, ["--called", "AS", "--partner", "Cy", "--kitty", "2C 3C 4C"],
     "hands[1].kitty: call-partner-5 deals no kitty (kitty.size = 0)"),
    ("call-partner-5", FIVE, ["--called", "AS", "--partner", "Cy", "--drawn", "Bob: 9X"],
     "error: --drawn Bob: '9X' is not a card"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--kitty", "AS 5H"],
     "hands[1].kitty: 2 cards; trickster-4-kitty deals a kitty of 3 (kitty.size)"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--kitty", "AS 5H AS"], "hands[1].kitty: AS is listed twice"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--discard", "Cy: 2C 3C 4C"],
     "hands[1].discard.Cy: only the bidder lays cards away in trickster-4-kitty (there is no draw)"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--discard", "2C 3C"],
     "hands[1].discard.Ann: 2 cards laid away; Ann held 6+3 after taking the kitty and keeps 6, so lays away 3"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--drawn", "Bob: 2C"],
     "hands[1].drawn: trickster-4-kitty deals no cards after trump (draw.discard = none)"),
    ("trickster-4-kitty", ["Ann", "Bob", "Cy", "Dee"], ["--called", "AS", "--partner", "Cy"],
     "hands[1].called: this match plays in fixed teams; a partner is called only each for himself"),
    ("nine-card-pitch", ["Ann", "Bob", "Cy", "Dee"], ["--discard", "Bob: 2C 3C 4C 5C 6C"],
     "hands[1].discard.Bob: 5 cards thrown; at most 4 may be exchanged (draw.most)"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path: Path, rules: str, players: list[str],
                                                           args: list[str], line: str) -> None:
    path = new(tmp_path, rules, players)
    before = path.read_bytes()
    points = POINTS if rules == "call-partner-5" else ["--high", "Us", "--low", "Us", "--jack", "Them", "--rest", "none",
                                                       "--game", "tie"]
    r = run("hand", "Ann", "6" if rules == "call-partner-5" else "3", "S", *args, *points, "--match", str(path))
    err = r.stderr.strip().splitlines()
    assert r.exit_code == 2 and len(err) == 1 and line in err[0], r.stderr
    assert "Traceback" not in r.output and path.read_bytes() == before


def test_a_table_that_calls_no_partner_refuses_a_called_card(tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    assert run("new", "cutthroat-pitch", "Ann", "Bob", "Cy", "Dee", "--match", str(path)).exit_code == 0
    before = path.read_bytes()
    r = run("hand", "Ann", "2", "S", "--called", "AS", "--partner", "Cy", "--high", "Ann", "--low", "Bob", "--rest",
            "none", "--game", "tie", "--match", str(path))
    assert r.exit_code == 2 and path.read_bytes() == before
    assert "hands[1].called: cutthroat-pitch calls no partner with 4 players (partner.counts = [])" in r.stderr


def test_the_options_say_what_they_take() -> None:
    r = run("hand", "--help")
    text = " ".join(r.stdout.split())
    for option in ("--called", "--partner", "--kitty", "--discard", "--drawn", "--held"):
        assert option in text
    assert "\"5H 4C\" is the bidder's, \"Bob: 9D 3C\" another's" in text
