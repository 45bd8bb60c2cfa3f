"""Per-hand teams (call your partner) and fixed teams of two and three in any seating, through the match log,
`status`, `history` (at 40 columns and wide), `undo`, and count-down and three-sets boards: the front ends show
the partnership of every hand and never compute it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from house_games import ANN_ALONE, FIVE, GAMES, HOUSE, copied, run

from pitchkeeper.cells import cell_len


def third_hand(tmp_path: Path) -> Path:
    """Hand 3 of the call-partner-5 game (given as tricks: Bob plays the called KS to trick 1) as a hand file."""
    data = tomllib.loads((GAMES / "call-partner-5.match.toml").read_text(encoding="utf-8"))["hands"][2]
    lines = [f'trump = "{data["trump"]}"', f'bid = {{ player = "{data["bid"]["player"]}", amount = {data["bid"]["amount"]} }}',
             f'called = "{data["called"]}"',
             "held = { " + ", ".join(f'{p} = {json.dumps(cs)}' for p, cs in data["held"].items()) + " }",
             "tricks = [" + ", ".join(f'{{ leader = "{t["leader"]}", cards = {json.dumps(t["cards"])} }}'
                                      for t in data["tricks"]) + "]"]
    f = tmp_path / "hand3.toml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f


def fits(text: str, width: int) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= width or " " not in line.strip(), line  # a path longer than the line stays whole


def test_a_call_partner_evening_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "five.toml"
    m = ["--match", str(path)]
    assert run("new", str(HOUSE / "call-partner-5.toml"), *FIVE, "--target", "18", "--dealer", "Eve", *m).exit_code == 0
    first = run("hand", "Ann", "6", "S", "--called", "AS", "--partner", "Cy", "--ace", "Cy", "--jack", "Ann",
                "--off-jack", "Bob", "--high-joker", "Ann", "--low-joker", "Dee", "--ten", "Cy", "--point", "three=Ann",
                "--deuce", "Eve", *m, width=40)
    assert first.exit_code == 0, first.output
    fits(first.stdout, 40)
    assert "Ann bid 6 in ♠ spades, called A♠: partner Cy (Ann+Cy against Bob+Dee+Eve): made" in " ".join(
        first.stdout.split())
    second = run("hand", "Bob", "5", "H", "--called", "KH", "--held", "Dee: KH", "--ace", "Bob", "--jack", "Dee",
                 "--off-jack", "Dee", "--high-joker", "Cy", "--low-joker", "Bob", "--ten", "Eve", "--point", "three=Dee",
                 "--deuce", "Ann", *m)
    assert second.exit_code == 0, second.output
    third = run("hand", "--from", str(third_hand(tmp_path)), *m)
    assert third.exit_code == 0, third.output
    logged = tomllib.loads(path.read_text(encoding="utf-8"))["hands"]
    assert [(h["called"], h["partner"]) for h in logged] == [("AS", "Cy"), ("KH", "Dee"), ("KS", "Bob")]

    st = json.loads(run("status", *m, "--json").stdout)
    assert st["partners"] is True and st["teams"] is False
    assert st["scores"] == {"Ann": 19, "Bob": 19, "Cy": 11, "Dee": 11, "Eve": 7}  # the game's file, worked by hand
    assert st["winner"] == "Ann" and "with Bob" in st["reason"]
    assert st["last_hand"]["bid"]["team"] == "Ann+Bob" and st["last_hand"]["teams"]["Cy+Dee+Eve"]["taken"] == 1

    narrow = run("history", *m, width=40)
    assert narrow.exit_code == 0
    fits(narrow.stdout, 40)
    flat = " ".join(narrow.stdout.split())
    for words in ("Ann+Cy bid 6 ♠ (A♠) made", "Bob+Dee bid 5 ♥ (K♥) made", "Ann+Bob bid 5 ♠ (K♠) made",
                  "ace Cy, ten Cy", "Ann 19 +9"):
        assert words in flat, words
    wide = run("history", *m)
    assert "Ann+Cy 6 (A♠) made" in wide.stdout and "Ann+Bob 5 (K♠) made" in wide.stdout

    text = run("status", *m, width=40)
    fits(text.stdout, 40)
    assert "winner: Ann on hand 3" in " ".join(text.stdout.split())

    undo = run("undo", "--yes", *m)
    assert undo.exit_code == 0 and "called" in path.read_text(encoding="utf-8")
    st = json.loads(run("status", *m, "--json").stdout)
    assert st["scores"] == {"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10, "Eve": 6} and st["winner"] is None
    last = " ".join(run("status", *m).stdout.split())
    assert "last hand 2: Bob bid 5 in H, called K♥ (Dee): Bob+Dee made" in last


def test_the_bidder_alone(tmp_path: Path) -> None:
    path = tmp_path / "alone.toml"
    m = ["--match", str(path)]
    assert run("new", str(HOUSE / "call-partner-5.toml"), *FIVE, *m).exit_code == 0
    r = run(*ANN_ALONE, *m)
    assert r.exit_code == 0, r.output
    assert "called A♠, held by nobody: Ann alone against Bob+Cy+Dee+Eve: set" in " ".join(r.stdout.split())
    assert tomllib.loads(path.read_text(encoding="utf-8"))["hands"][0]["partner"] == "none"
    h = " ".join(run("history", *m, width=40).stdout.split())
    assert "Ann alone bid 5 ♠ (A♠) set" in h
    st = json.loads(run("status", *m, "--json").stdout)
    assert st["scores"] == {"Ann": -5, "Bob": 6, "Cy": 6, "Dee": 6, "Eve": 6}  # the four took 6 together


def test_three_teams_of_two_and_two_of_three_in_any_seating(tmp_path: Path) -> None:
    six = tmp_path / "six.toml"
    assert run("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "--match", str(six)).exit_code == 0
    st = json.loads(run("status", "--match", str(six), "--json").stdout)
    assert st["sides"] == {"Ann+Dee": ["Ann", "Dee"], "Bob+Eve": ["Bob", "Eve"], "Cy+Fay": ["Cy", "Fay"]}
    r = run("hand", "Ann", "3", "S", "--high", "Dee", "--low", "Bob", "--jack", "Cy", "--rest", "none", "--game", "Eve",
            "--match", str(six))
    assert r.exit_code == 0, r.output
    h = " ".join(run("history", "--match", str(six), width=40).stdout.split())
    assert "Ann+Dee -3 -3 Bob+Eve 2 +2 Cy+Fay 1 +1" in h
    side_by_side = tmp_path / "trio.toml"
    r = run("new", str(HOUSE / "schmier.toml"), "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "--team", "Us=Ann,Bob,Cy",
            "--team", "Them=Dee,Eve,Fay", "--match", str(side_by_side))
    assert r.exit_code == 0, r.output
    st = json.loads(run("status", "--match", str(side_by_side), "--json").stdout)
    assert st["sides"] == {"Us": ["Ann", "Bob", "Cy"], "Them": ["Dee", "Eve", "Fay"]}
    board = run("status", "--match", str(side_by_side), width=40).stdout
    fits(board, 40)
    assert "Ann & Bob & Cy" in board


def test_a_count_down_board_shows_the_score_and_the_goal_zero(tmp_path: Path) -> None:
    path = copied("nine-card-pitch", tmp_path)
    m = ["--match", str(path)]
    st = json.loads(run("status", *m, "--json").stdout)
    assert st["direction"] == "down" and st["winner"] == "Us"
    board = " ".join(run("status", *m, width=40).stdout.split())
    assert board.startswith("nine-card-pitch down from 7 to 0")
    run("undo", "--yes", *m)
    st = json.loads(run("status", *m, "--json").stdout)
    assert all(st["needed"][s] == st["scores"][s] for s in st["scores"] if st["scores"][s] >= 0)  # 0 is the goal
    chart = json.loads(run("chart", *m, "--json").stdout)
    assert all(v[0] == 7 for v in chart["scores"].values())  # everyone starts at the target
    text = run("chart", *m).stdout
    assert "goal 0" in text and "down from 7 to 0" in " ".join(text.split())


def test_three_sets_on_the_board(tmp_path: Path) -> None:
    path = copied("three-sets-out", tmp_path)
    m = ["--match", str(path)]
    st = json.loads(run("status", *m, "--json").stdout)
    assert st["sets"] == {"Us": 3, "Them": 1} and st["out"] == [] and st["winner"] == "Them"  # two sides: Them win
    board = " ".join(run("status", *m).stdout.split())
    assert "in the hole 3 sets" in board and "winner: Them on hand 5 - Us was set 3 times and is out" in board
    run("undo", "--yes", *m)
    board = " ".join(run("status", *m).stdout.split())
    assert "Us Ann & Cy -1 12 in the hole 2 sets Them Bob & Dee 1 10 1 set" in board
