"""`play`: a whole game entered question by question, with answers piped in deliberately."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


@pytest.fixture
def solo(tmp_path: Path) -> Path:
    p = tmp_path / "solo.toml"
    r = run("new", "solo-pitch", "Ana", "Ben", "Chloe", "--target", "3", "--match", str(p))
    assert r.exit_code == 0, r.stderr
    return p


def answers(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_play_refuses_to_prompt_when_stdin_is_not_a_terminal(solo: Path):
    r = run("play", "--match", str(solo), input="Ana\n")
    assert r.exit_code == 2 and "--piped" in r.stderr
    assert "\n[[hands]]" not in solo.read_text()


def test_a_whole_game_hand_by_hand_until_it_is_won(solo: Path):
    r = run("play", "--match", str(solo), "--piped", input=answers(
        # hand 1, Ana deals: no auction kept; a bad amount is asked again, '<' goes back to the amount
        "", "Ben", "9", "2", "<", "3", "S", "p", "Ben", "Ben", "-", "Chloe", "y",
        # hand 2, Ben deals: who took each point; game tied
        "", "Chloe", "", "hearts", "", "Chloe", "Chloe", "Chloe", "tie", "y",
    ))
    assert r.exit_code == 0, r.stdout + r.stderr
    out = r.stdout
    assert "hand 1: Ana deals" in out and "hand 2: Ben deals" in out
    assert "out of range" in out  # the 9, re-asked
    assert "trump (S, H, D, C): <\nbid (1-4) [2]: 3" in out  # went back; the answer given is the default
    # the verdict and the new scores come before the question that saves them
    first = out.index("save this hand?")
    assert "Ben bid 3 in" in out[:first] and "Ben took 2: -3" in out[:first]
    # the win is what saving would do before the question, and announced once the hand is saved
    last = out.rindex("save this hand? [Y/n]")
    assert "if this hand is saved, Chloe wins" in out[:last] and "Chloe won on hand 2" not in out[:last]
    assert "saved hand 2" in out[last:] and "Chloe won on hand 2" in out[out.index("saved hand 2"):]
    assert "hand 3" not in out  # the game is won: play ends
    hands = tomllib.loads(solo.read_text())["hands"]
    assert [h["bid"] for h in hands] == [{"player": "Ben", "amount": 3}, {"player": "Chloe", "amount": 2}]
    assert hands[0]["points"] == {"high": "Ben", "low": "Ben", "game": "Chloe"}
    assert hands[1]["trump"] == "H" and hands[1]["points"] == {"high": "Chloe", "low": "Chloe", "jack": "Chloe"}
    st = json.loads(run("status", "--match", str(solo), "--json").stdout)
    assert st["winner"] == "Chloe" and st["scores"] == {"Ana": 0, "Ben": -3, "Chloe": 4}
    r = run("play", "--match", str(solo), "--piped", input="")
    assert r.exit_code == 0 and "the game is over" in r.stdout


def test_cards_entry_asks_who_was_dealt_low(tmp_path: Path):
    p = tmp_path / "t4.toml"
    assert run("new", "trickster-4", "North", "East", "South", "West", "--dealer", "West", "--match",
               str(p)).exit_code == 0
    r = run("play", "--match", str(p), "--piped", input=answers(
        "", "North", "2", "S", "c",
        "Them: JS 10H",  # the cards of the wrong side: asked again
        "Us: KC KD KH QS JC JD 7S 3S 5H 6D 4C 8H 9C 2D 6H 7C",
        "JS 10H 9D 8D 5C 4H 3D 2H",
        "West", "y", "q",
    ))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "who was dealt 3S?" in r.stdout
    assert "these are the cards Us captured, not Them" in r.stdout
    hand = tomllib.loads(p.read_text())["hands"][0]
    assert hand["dealt"] == {"West": ["3S"]} and hand["captured"]["Us"][0] == "KC"
    assert "stopped: hand 2 was not saved" in r.stdout
    st = json.loads(run("status", "--match", str(p), "--json").stdout)
    assert st["scores"] == {"Us": 2, "Them": 2}


def test_a_hand_the_rules_refuse_is_entered_again(solo: Path):
    r = run("play", "--match", str(solo), "--piped", input=answers(
        "", "Ben", "2", "S", "c", "AS KS", "2S", "-",  # 3 cards cannot be six whole tricks: ask again
        "<", "p", "Ben", "Ben", "-", "-", "y", "q",  # asked at the first wrong answer (Ana's cards); < to the entry
    ))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "whole tricks" in r.stdout or "cards captured" in r.stdout
    assert "(nothing was written)\ncards Ana captured (- for none) [AS KS]: <" in r.stdout
    assert tomllib.loads(solo.read_text())["hands"][0]["points"] == {"high": "Ben", "low": "Ben"}


def test_input_ending_mid_hand_writes_nothing_of_it(solo: Path):
    before = solo.read_bytes()
    r = run("play", "--match", str(solo), "--piped", input=answers("", "Ben", "2", "S"))
    assert r.exit_code == 0
    assert "input ended: hand 1 was not saved" in r.stdout
    assert solo.read_bytes() == before


def test_saying_no_starts_the_hand_again(solo: Path):
    r = run("play", "--match", str(solo), "--piped", input=answers(
        "", "Ben", "2", "S", "p", "Ben", "Ben", "-", "-", "n",
        "", "Chloe", "", "", "", "Chloe", "Chloe", "", "", "y", "q"))  # Enter keeps an answer given before
    assert r.exit_code == 0, r.stdout
    hands = tomllib.loads(solo.read_text())["hands"]
    assert len(hands) == 1 and hands[0]["bid"]["player"] == "Chloe"


def test_the_auction_comes_first_and_gives_the_bidder_and_the_bid(solo: Path):
    r = run("play", "--match", str(solo), "--piped", input=answers(
        # Ana deals: Ben speaks first; Chloe's 2 is not higher than Ben's 2 (asked again at once); the dealer
        # Ana steals at 2 (solo-pitch lets the dealer equal a bid below 4)
        "2", "2", "pass", "2", "S", "p", "Ana", "Ana", "-", "Ana", "y", "q"))
    assert r.exit_code == 0, r.stdout + r.stderr
    out = r.stdout
    assert out.index("auction: Ben's call (pass, 1-4, pitch a card (4); - for none)") < out.index("trump")
    refusal = out.index("? Chloe bid 2, not higher than Ben's 2")
    assert out[refusal:].split("\n", 1)[1].startswith("Chloe's call")  # asked again at once
    assert "Ana won the bid at 2" in out and "who won the bid?" not in out  # derived, not asked
    hand = tomllib.loads(solo.read_text())["hands"][0]
    assert hand["bid"] == {"player": "Ana", "amount": 2} and hand["auction"] == ["Ben:2", "Chloe:pass", "Ana:2"]


def test_a_sale_is_asked_as_such_in_auction_pitch(tmp_path: Path):
    p = tmp_path / "ap.toml"
    assert run("new", "auction-pitch", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee", "--match", str(p)).exit_code == 0
    r = run("play", "--match", str(p), "--piped", input=answers(
        "pass", "2", "3", "pass", "sell", "S", "p", "Cy", "Cy", "-", "Cy", "y", "q"))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "Ann's call (sell to Cy (3), keep it at 3)" in r.stdout and "Cy won the bid at 3" in r.stdout
    hand = tomllib.loads(p.read_text())["hands"][0]
    assert hand["auction"] == ["Ann:pass", "Bob:2", "Cy:3", "Dee:pass", "Ann:sell"] and hand["bid"]["player"] == "Cy"
    assert "Cy 3 bought from Ann" in run("history", "--match", str(p)).stdout  # the sale, named
