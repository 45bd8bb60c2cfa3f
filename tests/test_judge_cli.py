"""`judge hand` and the `rules` commands through the CLI: JSON contract, scorecard, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper import __version__
from pitchkeeper.cli import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()

GOOD = """rules = "trickster-4"
players = ["North", "East", "South", "West"]
teams = { Us = ["North", "South"], Them = ["East", "West"] }
dealer = "West"
trump = "spades"
bid = { player = "North", amount = 2 }
dealt = { West = ["3S"] }

[captured]
Us = ["KC", "KD", "KH", "QS", "JC", "JD", "7S", "3S", "5H", "6D", "4C", "8H", "9C", "2D", "6H", "7C"]
Them = ["JS", "10H", "9D", "8D", "5C", "4H", "3D", "2H"]
"""


def run(*args: str) -> object:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_version() -> None:
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"pitchkeeper {__version__}"


def test_judge_hand_json_is_the_contract() -> None:
    r = run("judge", "hand", str(EXAMPLES / "trickster-4-game-point.toml"), "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out) == ["rules", "trump", "awards", "game", "taken", "bid", "delta", "illegal"]
    assert out["rules"] == "trickster-4" and out["trump"] == "S"
    assert out["awards"][0] == {"point": "high", "card": "QS", "side": "Us", "player": None, "value": 1}
    assert out["game"] == {"counts": {"Us": 13, "Them": 11}, "side": "Us"}
    assert out["bid"] == {"side": "Us", "player": "North", "amount": 2, "made": True}
    assert out["taken"] == out["delta"] == {"Us": 2, "Them": 2}
    assert out["illegal"] == []


def test_rules_option_wins_over_the_record(tmp_path: Path) -> None:
    f = tmp_path / "h.toml"
    f.write_text(GOOD.replace('dealt = { West = ["3S"] }\n', ""), encoding="utf-8")
    r = run("judge", "hand", str(f), "--rules", "partnership-pitch", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["rules"] == "partnership-pitch"
    low = next(a for a in out["awards"] if a["point"] == "low")
    assert low["side"] == "Us"  # captured, not dealt, in partnership-pitch


def test_a_ruleset_file_beside_the_record(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('extends = "trickster-4"\n[points.low]\nto = "captor"\n', encoding="utf-8")
    f = tmp_path / "h.toml"
    f.write_text(GOOD.replace('"trickster-4"', '"house.toml"'), encoding="utf-8")
    r = run("judge", "hand", str(f), "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["rules"] == "house"
    assert next(a for a in out["awards"] if a["point"] == "low")["side"] == "Us"


def test_the_scorecard_shows_reasons_and_the_game_count_card_by_card() -> None:
    r = run("judge", "hand", str(EXAMPLES / "trickster-4-game-point.toml"))
    assert r.exit_code == 0
    text = r.stdout
    assert "Q♠ is the highest trump in play" in text
    assert "low goes to the player dealt it: West" in text
    assert "K♣ 3" in text and "10♥ 10" in text and "total 13" in text and "total 11" in text
    assert "Us made the bid" in text


@pytest.mark.parametrize(("change", "message"), [
    (("trump = ", 'trumpp = "S"\ntrump = '), "h.toml: trumpp: unknown key 'trumpp' - did you mean 'trump'?"),
    (('"KC", "KD"', '"1OS", "KD"'), "h.toml: captured.Us: '1OS' is not a card - did you mean 10S?"),
    (('"KC", "KD"', '"KD", "KD"'), "h.toml: captured.Us: KD is listed twice for Us"),
    (('"KC", "KD"', '"HJ", "KD"'), "h.toml: captured.Us: HJ is not in this ruleset's deck"),
    (('player = "North"', 'player = "Nobody"'), "h.toml: bid.player: 'Nobody' is not a player"),
    (('amount = 2', 'amount = 9'), "h.toml: bid.amount: a bid of 9 is out of range"),
    (('dealt = { West = ["3S"] }\n', ""), "h.toml: dealt: low (3S) goes to the player dealt it"),
    (('"2H"]', ']'), "h.toml: captured.Them: 7 cards cannot come from whole tricks of 4 cards"),
    (('"trickster-4"', '"trickster-44"'), "h.toml: rules: no ruleset named 'trickster-44' - did you mean trickster-4?"),
    (('Us = ["KC"', 'Uss = ["KC"'), "h.toml: captured.Uss: 'Uss' is not a team or player - did you mean Us?"),
    (('trump = "spades"', 'trump = "spds"'), "h.toml: trump: 'spds' is not a suit - did you mean spades?"),
    (('dealer = "West"\n', ""), "h.toml: dealer: missing"),
    (('bid = { player = "North", amount = 2 }', 'bid = { player = "North", amont = 2 }'),
     "h.toml: bid.amont: unknown key 'amont' - did you mean 'amount'?"),
    (("players = [", "players = [ \"North\", "), "h.toml: players: 'North' sits at the table twice"),
    (("[captured]", "[captured\n"), "h.toml: line 9, column 10: not valid TOML"),
    (("amount = 2", 'amount = "²"'), "h.toml: bid.amount: '²' is not a bid"),
    (("players = [", "players = 5\nplayrs = ["), "h.toml: playrs: unknown key 'playrs' - did you mean 'players'?"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    f = tmp_path / "h.toml"
    f.write_text(GOOD.replace(*change, 1), encoding="utf-8")
    r = runner.invoke(app, ["judge", "hand", str(f), "--json"])
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert message in lines[0].replace(str(tmp_path) + "/", "")


def test_a_missing_file() -> None:
    r = run("judge", "hand", "no/such/file.toml")
    assert r.exit_code == 2 and "no/such/file.toml: no such file" in r.stderr


def test_bad_input_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    f = tmp_path / "h.toml"
    f.write_text(GOOD.replace('"KC", "KD"', '"1OS", "KD"'), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "pitchkeeper", "judge", "hand", str(f), "--json"],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "did you mean 10S?" in p.stderr


# --- rules -----------------------------------------------------------------------------------


def test_rules_list() -> None:
    r = run("rules", "list", "--json")
    rows = json.loads(r.stdout)
    assert [row["name"] for row in rows][:5] == ["auction-pitch", "cutthroat-pitch", "partnership-pitch",
                                                 "seven-point", "solo-pitch"]
    assert {row["name"]: row["points"] for row in rows}["trickster-13"] == 13


def test_rules_show_in_plain_words() -> None:
    r = run("rules", "show", "seven-point")
    assert r.exit_code == 0
    assert "low: 1 point for the lowest trump in play, to the player dealt it" in r.stdout
    assert "the bidding side goes out first, even with fewer points" in r.stdout
    j = json.loads(run("rules", "show", "trickster-10", "--json").stdout)
    assert j["rules"]["follow"].startswith("only trumps are played")


def test_rules_diff_in_words() -> None:
    r = run("rules", "diff", "trickster-4", "partnership-pitch", "--json")
    rows = {row["topic"]: row for row in json.loads(r.stdout)}
    assert rows["low"]["trickster-4"] == "to the player dealt it"
    assert rows["low"]["partnership-pitch"] == "to whoever captures it"
    assert "all-tricks" in rows and rows["all-tricks"]["trickster-4"] == "not in these rules"
    same = run("rules", "diff", "seven-point", "seven-point")
    assert "agree on everything" in same.stdout


def test_rules_check(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('extends = "solo-pitch"\n[win]\ntarget = 11\n', encoding="utf-8")
    r = run("rules", "check", str(good))
    assert r.exit_code == 0 and "ok" in r.stdout and "target 11" in r.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "solo-pitch"\n[win]\ntargt = 11\nreach = "pass"\n', encoding="utf-8")
    r = run("rules", "check", str(bad))
    assert r.exit_code == 2
    assert "win.targt: unknown key 'targt' - did you mean 'target'?" in r.stderr
    assert "win.reach: 'pass' is not allowed" in r.stderr and "2 problem(s)" in r.stderr


def test_rules_new_writes_a_checked_starter_and_never_overwrites(tmp_path: Path) -> None:
    f = tmp_path / "ours.toml"
    r = run("rules", "new", str(f), "--extends", "trickster-5")
    assert r.exit_code == 0 and f.is_file()
    assert run("rules", "check", str(f)).exit_code == 0
    text = f.read_text(encoding="utf-8")
    assert 'extends = "trickster-5"' in text and "# [points.off-jack]" in text
    again = run("rules", "new", str(f), "--extends", "trickster-5")
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert f.read_text(encoding="utf-8") == text


def test_help_is_there_for_every_command() -> None:
    for args in (["--help"], ["-h"], ["judge", "--help"], ["rules", "--help"], ["judge", "hand", "-h"],
                 ["rules", "new", "--help"]):
        r = run(*args)
        assert r.exit_code == 0 and "Usage" in r.stdout


def test_writing_where_a_folder_stands_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "ours.toml").mkdir()
    r = run("rules", "new", str(tmp_path / "ours.toml"), "--force")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "cannot write" in r.stderr
