"""`judge trick`, and `judge hand` on records with `tricks`, through the CLI (in process and as real runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

DATA = Path(__file__).resolve().parent / "data" / "play"
runner = CliRunner()


def run(*args: str) -> object:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def trick(*args: str) -> object:
    return run("judge", "trick", *args)


# ---------------------------------------------------------------------------
# judge trick


def test_judge_trick_json_seed_000_jack_of_clubs() -> None:
    r = trick("--rules", "seven-point", "--trump", "spades", "--cards", "Ann:5C Bob:9H Cy:KC Dee:2S",
              "--held", "Bob:JC 9H 4D", "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"rules", "trump", "first", "led", "winner", "card", "why", "plays"}
    assert (out["rules"], out["trump"], out["led"], out["first"]) == ("seven-point", "S", "C", False)
    assert (out["winner"], out["card"]) == ("Dee", "2S")  # the only trump played
    bob = out["plays"][1]
    assert bob["legal"] is True and bob["rule"] is None and bob["could"] == ["JC", "9H", "4D"]
    assert "J♣ is a spade for this hand" in bob["why"]
    # no held cards for Cy and Dee: following suit and trumping are legal whatever they held
    assert [p["legal"] for p in out["plays"]] == [True, True, True, True]
    assert [set(p) for p in out["plays"]] == [{"player", "card", "suit", "legal", "rule", "why", "could"}] * 4


def test_judge_trick_json_illegal_play_names_rule_and_what_was_allowed() -> None:
    r = trick("-r", "auction-pitch", "-t", "S", "-c", "Ann:5C Bob:9H Cy:KC Dee:2S",
              "--held", "Bob:JC 9H 4D; Cy:KC 7D", "--held", "Dee:2S 3C", "--json")
    assert r.exit_code == 0, r.stderr
    plays = {p["player"]: p for p in json.loads(r.stdout)["plays"]}
    assert plays["Bob"]["legal"] is False and plays["Bob"]["rule"] == "must-follow-or-trump"
    assert plays["Bob"]["could"] == ["JC"]  # no off-jack here: J♣ is a club
    assert plays["Dee"]["legal"] is True  # a trump, though able to follow: allowed by seed 001


def test_judge_trick_unknown_legality_is_null() -> None:
    r = trick("-r", "auction-pitch", "-t", "S", "-c", "Ann:5C Bob:9H", "--json")
    assert json.loads(r.stdout)["plays"][1]["legal"] is None


def test_judge_trick_first_lead_and_folds_in_trump_only_play() -> None:
    r = trick("-r", "trickster-10", "-t", "S", "-c", "Ann:AS Bob:fold Cy:KS Dee:JC", "--held", "Bob:3S 4H",
              "--first", "--json")
    out = json.loads(r.stdout)
    assert out["first"] is True and out["winner"] == "Ann"
    bob = out["plays"][1]
    assert (bob["card"], bob["suit"], bob["legal"], bob["rule"]) == (None, None, False, "trump-only")
    assert out["plays"][3]["suit"] == "trump"  # the off-jack


def test_judge_trick_draws_a_table_with_the_winner() -> None:
    r = trick("-r", "seven-point", "-t", "S", "-c", "Ann:5C Bob:9H Cy:KC Dee:2H", "--held", "Dee:2H 3C")
    assert r.exit_code == 0, r.stderr
    assert "winner: Cy with K♣" in r.stdout
    dee = next(line for line in r.stdout.splitlines() if line.startswith("Dee"))
    assert "NO" in dee and "[must-follow-or-trump]" in dee and "could have played 3♣" in dee


@pytest.mark.parametrize(("args", "message"), [
    (["-t", "S", "-c", "Ann:AS"], "error: --rules: say which ruleset"),
    (["-r", "seven-point", "-c", "Ann:AS"], "error: --trump: say which suit is trump"),
    (["-r", "seven-point", "-t", "S"], "error: --cards: give the cards"),
    (["-r", "seven-point", "-t", "X", "-c", "Ann:AS"], "error: --trump: 'X' is not a suit"),
    (["-r", "seven-poin", "-t", "S", "-c", "Ann:AS"], "error: no ruleset named 'seven-poin' - did you mean seven-point?"),
    (["-r", "auction-pitch", "-t", "S", "-c", "Ann:AS Bob:LJ"], "error: --cards: LJ is not in auction-pitch's deck"),
    (["-r", "seven-point", "-t", "S", "-c", "Ann:AS Bob:KS", "--held", "Bob:QS"],
     "error: --held: Bob played KS, which is not among Bob's held cards"),
    (["-r", "seven-point", "-t", "S", "-c", "Ann:AS Bob:KS", "--held", "Bob KS"],
     "error: --held: expected \"Player:card card ...\""),
])
def test_judge_trick_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = trick(*args)
    assert r.exit_code == 2
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1, r.stderr
    assert r.stdout == ""


# ---------------------------------------------------------------------------
# judge hand with tricks


def test_judge_hand_reports_the_revoke_in_illegal() -> None:
    r = run("judge", "hand", str(DATA / "auction-pitch-revoke.toml"), "--json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert [{k: i[k] for k in ("trick", "player", "card", "rule")} for i in out["illegal"]] == [
        {"trick": 2, "player": "Bob", "card": "2H", "rule": "must-follow-or-trump"}]
    assert out["illegal"][0]["why"].startswith("Bob played 2♥")
    assert out["delta"]["Bob"] == -out["bid"]["amount"]  # the offender is set back the amount bid


def test_judge_hand_from_tricks_scores_like_the_contract() -> None:
    out = json.loads(run("judge", "hand", str(DATA / "seven-point-offjack.toml"), "--json").stdout)
    assert out["illegal"] == []
    # worked in the record: A♠, 2♠ (dealt to Cy), J♣ and HJ all end with Us, and game 25 to 8
    assert {a["point"]: a["side"] for a in out["awards"]} == {
        "high": "Us", "low": "Us", "off-jack": "Us", "high-joker": "Us", "game": "Us"}
    assert out["game"]["counts"] == {"Us": 25, "Them": 8}
    assert out["taken"] == {"Us": 5, "Them": 0} and out["delta"] == {"Us": 5, "Them": 0}


def test_judge_hand_bad_trick_is_one_line_naming_file_and_key(tmp_path: Path) -> None:
    text = (DATA / "seven-point-offjack.toml").read_text(encoding="utf-8")
    bad = tmp_path / "h.toml"
    bad.write_text(text.replace('"7H", "6H", "QH", "AH"', '"7H", "AS", "QH", "AH"'), encoding="utf-8")
    r = run("judge", "hand", str(bad), "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"error: {bad}: tricks[3].cards[2]: AS was already played in trick 1\n"


# ---------------------------------------------------------------------------
# Real runs


def real(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, text=True, env=env,
                          timeout=60, check=False)


def test_real_run_judge_trick_and_hand() -> None:
    r = real("judge", "trick", "-r", "seven-point", "-t", "S", "-c", "Ann:JC Bob:AC Cy:5C Dee:2S", "--first", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["winner"] == "Ann" and out["plays"][0]["legal"] is True  # J♣ may open a spades hand here
    r = real("judge", "hand", str(DATA / "trickster-10-fold.toml"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["illegal"] == []


def test_real_run_bad_input_exit_2_without_traceback(tmp_path: Path) -> None:
    text = (DATA / "trickster-10-fold.toml").read_text(encoding="utf-8")
    bad = tmp_path / "t.toml"
    bad.write_text(text.replace('leader = "Cy", cards = ["Cy:QS"', 'leader = "Dee", cards = ["Cy:QS"'),
                   encoding="utf-8")
    r = real("judge", "hand", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1
    assert "tricks[3].leader" in r.stderr and "(Cy) leads this trick" in r.stderr


def test_judge_trick_in_trump_only_play_takes_an_illegal_plain_card_back() -> None:
    """As in a replayed hand: a non-trump cannot win a trick of trump-only play."""
    import json

    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    r = CliRunner().invoke(app, ["judge", "trick", "--rules", "trickster-10", "--trump", "S", "--cards",
                                 "Ann:QC Bob:2S", "--json"])
    out = json.loads(r.stdout)
    assert out["winner"] == "Bob" and out["plays"][0]["legal"] is False and out["plays"][0]["rule"] == "trump-only"
    none = CliRunner().invoke(app, ["judge", "trick", "--rules", "trickster-10", "--trump", "S", "--cards",
                                    "Ann:QC Bob:fold"])
    assert none.exit_code == 2 and "no trump was played" in none.stderr
