"""Entry that cannot silently go wrong: every point answered in `hand`/`edit` and `play`, a point named
twice refused, and the question the rule asks ("who was dealt low?"), for every built-in ruleset."""

from __future__ import annotations

import functools
import json
import tomllib
from pathlib import Path

import cli_runs
import pytest

from pitchkeeper.game import rulesets

EXPORT = Path(__file__).parent / "data" / "export"


run = functools.partial(cli_runs.invoke, columns=200)
ok = functools.partial(cli_runs.ok, columns=200)


def refused(r) -> str:
    assert r.exit_code == 2, r.stdout + r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    return r.stderr


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    p = tmp_path / "seven.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee Dee", "--match", str(p))
    return p


def hands(p: Path) -> list[dict]:
    return tomllib.loads(p.read_text())["hands"] if "[[hands]]" in p.read_text() else []


@pytest.mark.parametrize(("args", "words"), [
    (["--high", "Us", "--low", "Them"], ["points: no answer for jack, off-jack, high-joker, low-joker, game",
                                          "--jack none", "--game tie", "--rest none"]),
    (["--high", "Us", "--low", "Them", "--jack", "Us", "--off-jack", "-", "--high-joker", "-", "--low-joker", "-"],
     ["no answer for game", "--game tie"]),
    (["--high", "Us", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Us"], ["--high: high is answered 2 times"]),
    (["--high", "Us", "--point", "high=Them", "--low", "Us",
      "--rest", "none", "--game", "tie"], ["--point: high is answered twice"]),
    (["--high", "Us", "--low", "Them", "--jack", "tie", "--rest", "none", "--game", "tie"], ["--jack: only game can be tied"]),
    (["--high", "none", "--low", "Them", "--rest", "none", "--game", "tie"], ["--high: high is always out"]),
    (["--high", "Us", "--low", "Them", "--rest", "all"], ["--rest: ", "--rest none"]),
    # an answer is named as it was given: --point high, not --high
    (["-p", "high=Zed", "--low", "Them", "--rest", "none", "--game", "tie"], ["--point high: 'Zed' is not a team"]),
    (["--high", "Zed", "-p", "low=Them", "--rest", "none", "--game", "tie"], ["--high: 'Zed' is not a team"]),
    (["--high", "Us", "-p", "low=tie", "--rest", "none", "--game", "tie"], ["--point low: only game can be tied"]),
])
def test_points_left_out_or_named_twice_are_refused_and_nothing_written(seven: Path, args: list[str],
                                                                        words: list[str]):
    ok("hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--rest", "none", "--game", "tie", "--match", str(seven))
    before = seven.read_bytes()
    err = refused(run("hand", "Bob", "2", "H", *args, "--match", str(seven)))
    for w in words:
        assert w in err, err
    assert seven.read_bytes() == before


def test_tie_and_none_are_scored_as_said(seven: Path):
    out = ok("hand", "Ann", "2", "S", "--high", "Us", "--low", "Them", "--jack", "none", "--off-jack", "-",
             "--high-joker", "nobody", "--low-joker", "-", "--game", "tie", "--match", str(seven), "--json")
    h = json.loads(out)["hands"][0]
    assert {a["point"]: a["side"] for a in h["awards"]} == {"high": "Us", "low": "Them"}
    assert h["delta"] == {"Us": -2, "Them": 1}  # Us took 1 of its 2: set
    assert hands(seven)[0]["points"] == {"high": "Us", "low": "Them"}
    ok("hand", "Bob", "2", "H", "--high", "Them", "--low", "Them", "--game", "Us", "--rest", "none",
       "--match", str(seven))
    assert json.loads(ok("status", "--match", str(seven), "--json"))["scores"] == {"Us": -1, "Them": 3}


def test_a_name_with_spaces_is_taken_everywhere(tmp_path: Path):
    p = tmp_path / "sp.toml"
    ok("new", "seven-point", "--players", "Ann, Bob, Cy, Dee Dee", "--team", "Us=Ann, Cy", "--team",
       "Them=Bob, Dee Dee", "--dealer", "Dee Dee", "--match", str(p))
    ok("hand", "Dee Dee", "2", "S", "--high", "Dee Dee", "--low", "dee dee", "--rest", "none", "--game", "tie",
       "--auction", "Ann:pass, Bob:pass, Cy:pass, Dee Dee:2", "--match", str(p))
    h = hands(p)[0]
    assert h["auction"] == ["Ann:pass", "Bob:pass", "Cy:pass", "Dee Dee:2"] and h["points"]["low"] == "Dee Dee"


def test_edit_of_a_hand_entered_as_cards_changes_one_point(tmp_path: Path):
    log = tmp_path / "partners.toml"
    log.write_text((EXPORT / "partners.toml").read_text())
    r = run("edit", "1", "--jack", "Us", "--match", str(log), "--yes", "--json")
    assert r.exit_code == 0, r.stderr
    change = json.loads(r.stdout)
    assert change["before"]["delta"] == {"Us": 2, "Them": 2} and change["after"]["delta"] == {"Us": 3, "Them": 1}
    assert hands(log)[0]["points"] == {"high": "North", "low": "West", "jack": "Us", "game": "Us"}
    assert json.loads(ok("judge", "match", str(log), "--json"))["scores"] == {"Us": 4, "Them": 11}


def test_an_edit_that_changes_nothing_writes_nothing(seven: Path):
    ok("hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "-",
       "--match", str(seven))
    before = seven.read_bytes()
    assert ok("edit", "1", "--low", "Them", "--match", str(seven), "--yes") == "hand 1 unchanged\n"
    assert seven.read_bytes() == before


def test_an_edit_of_a_hand_entered_as_cards_keeps_the_cards_unless_a_point_changes(tmp_path: Path):
    log = tmp_path / "partners.toml"
    log.write_text((EXPORT / "partners.toml").read_text())
    before = log.read_bytes()
    first = hands(log)[0]
    assert "captured" in first and "points" not in first
    judged = json.loads(ok("judge", "match", str(log), "--json"))["hands"][0]["awards"]
    high = next(a for a in judged if a["point"] == "high")
    # the same answer as the cards give (a side for its player's point, too): nothing changes, nothing is written
    for who in (high["side"], high.get("player") or high["side"]):
        assert ok("edit", "1", "--high", who, "--match", str(log), "--yes") == "hand 1 unchanged\n"
        assert log.read_bytes() == before
    assert next(a for a in judged if a["point"] == "jack")["side"] == "Them"
    out = ok("edit", "1", "--jack", "Us", "--match", str(log), "-n")
    assert "hand 1 was entered as cards; it will be kept as points" in out
    assert log.read_bytes() == before
    out = ok("edit", "1", "--jack", "Us", "--match", str(log), "--yes")
    assert "hand 1 was entered as cards; it will be kept as points" in out
    assert "captured" not in hands(log)[0] and hands(log)[0]["points"]["jack"] == "Us"


def test_edit_keeps_the_rest_of_a_hand_entered_by_points(seven: Path):
    ok("hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "-",
       "--match", str(seven))
    ok("edit", "1", "--game", "tie", "--match", str(seven), "--yes")
    assert hands(seven)[0]["points"] == {"high": "Us", "low": "Them", "jack": "Us"}
    before = seven.read_bytes()
    refused(run("edit", "1", "--low", "Us", "--low", "Them", "--match", str(seven), "--yes"))
    assert seven.read_bytes() == before
    ok("edit", "1", "--high", "Them", "--low", "Them", "--rest", "none", "--game", "tie", "--match", str(seven), "--yes")
    assert hands(seven)[0]["points"] == {"high": "Them", "low": "Them"}  # the rest: not out


@pytest.fixture
def trick4(tmp_path: Path) -> Path:
    p = tmp_path / "t4.toml"
    ok("new", "trickster-4", "Ann", "Bob", "Cy", "Dee", "--match", str(p))
    return p


@pytest.mark.parametrize(("args", "words"), [
    # the tester's case: --rest none used to tie the game silently
    (["--high", "Us", "--low", "Dee", "--rest", "none"], ["points: no answer for game:", "--game WHO or --game tie"]),
    # low is always out here and goes to the player dealt it: the dealt question, not "who won it"
    (["--high", "Us", "--game", "Us", "--rest", "none"], ["points: no answer for low:", "say who was dealt it"]),
    # no points at all: the unanswered ones listed (not the log's "hands[1].points: expected a table")
    (["--rest", "none"], ["points: no answer for high, low, game:", "say who was dealt it (--low WHO)"]),
])
def test_rest_none_never_answers_game_nor_a_point_always_out(trick4: Path, args: list[str], words: list[str]):
    before = trick4.read_bytes()
    err = refused(run("hand", "Bob", "2", "S", *args, "--match", str(trick4)))
    for w in words:
        assert w in err, err
    assert "who won it" not in err.replace("high is always out: say who won it", "")
    assert trick4.read_bytes() == before
    ok("hand", "Bob", "2", "S", "--high", "Us", "--low", "Dee", "--game", "tie", "--rest", "none",
       "--match", str(trick4))
    assert tomllib.loads(trick4.read_text())["hands"][0]["points"] == {"high": "Us", "low": "Dee"}  # as said


def test_rest_none_in_edit_does_not_tie_the_game_either(seven: Path):
    ok("hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "-",
       "--match", str(seven))
    before = seven.read_bytes()
    err = refused(run("edit", "1", "--high", "Them", "--low", "Them", "--rest", "none", "--match", str(seven), "--yes"))
    assert "no answer for game" in err and "--game WHO or --game tie" in err
    assert seven.read_bytes() == before


def test_a_missing_point_always_out_in_a_file_asks_who_was_dealt_it():
    from pitchkeeper.errors import PitchError
    from pitchkeeper.game.records import parse_hand, parse_table
    from pitchkeeper.game.scoring import verdict

    table = parse_table({"players": ["Ann", "Bob", "Cy", "Dee"], "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}})
    hand = parse_hand({"dealer": "Ann", "trump": "S", "bid": {"player": "Bob", "amount": 2},
                       "points": {"high": "Us"}}, table)
    with pytest.raises(PitchError, match=r"low is always out .*: say who was dealt it"):
        verdict(rulesets.load("trickster-4"), table, hand)


def dealt_points(name: str) -> list[str]:
    return [p.label for p in rulesets.load(name).points if p.to == "dealt"]


def test_the_help_never_asks_who_took_a_point_the_rule_gives_to_the_player_dealt_it():
    text = " ".join((ok("hand", "--help") + ok("edit", "--help")).split())
    for name in rulesets.builtin_names():
        for label in dealt_points(name):
            assert f"took {label}" not in text and f"Who took {label}" not in text
    assert "who was dealt it" in text


def test_the_help_names_no_ruleset():
    # "(seven-point, the Trickster games)" was wrong twice over: seven-point has no deuce, trickster-7 no low
    text = " ".join((ok("hand", "--help") + ok("edit", "--help")).split()).lower()
    assert "trickster" not in text
    for name in rulesets.builtin_names():
        assert name not in text, name
    for pid in ("low", "deuce"):
        assert f"where the ruleset gives {pid} to the player dealt it, name who was dealt it" in text


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_prompts_and_hints_use_the_rulesets_words(tmp_path: Path, name: str):
    r = rulesets.load(name)
    n = min(c for c in r.settings["players"]["counts"] if c >= 3) if any(c >= 3 for c in
                                                                         r.settings["players"]["counts"]) else 2
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"][:n]
    p = tmp_path / "m.toml"
    ok("new", name, *players, "--match", str(p))
    hint = refused(run("hand", "Ann", str(r.settings["bidding"]["min"]), "S", "--match", str(p)))
    first = r.points[0].id
    assert f"--{first} WHO" in hint
    if first != "high":
        assert "--high" not in hint
    err = refused(run("hand", "Ann", str(r.settings["bidding"]["min"]), "S", f"--{first}", "Ann", "--match", str(p)))
    missing = [pt.id for pt in r.points[1:]]
    assert f"no answer for {', '.join(missing)}" in err
    for pt in r.points:
        if pt.to == "dealt":
            assert f"--{pt.id} WHO (the player dealt it)" in err or pt.id != missing[0]
    out = run("play", "--match", str(p), "--piped", input="-\nAnn\n\nS\np\n" + "Ann\n" * len(r.points)
               + "q\n").stdout
    for pt in r.points:
        if pt.to == "dealt":
            assert f"who was dealt {pt.label}?" in out and f"took {pt.label}?" not in out
        elif pt.of == "game":
            assert f"who won {pt.label}?" in out
        else:
            assert f"who took {pt.label}?" in out


def test_rules_explain_without_rules_takes_the_current_matchs(_home: Path):
    refused(run("rules", "explain", "low"))
    ok("new", "solo-pitch", "Ann", "Bob", "Cy")
    assert "(solo-pitch," in ok("rules", "explain", "low")
    assert "(seven-point," in ok("rules", "explain", "low", "--rules", "seven-point")


def test_a_point_the_ruleset_lacks_is_not_taken_for_another_by_prefix(tmp_path: Path):
    p = tmp_path / "t10.toml"
    out = ok("new", "trickster-10", "Ann", "Bob", "Cy", "Dee", "--match", str(p))
    assert "--ace WHO --jack WHO" in out and "--high" not in out  # the hint in this ruleset's own points
    before = p.read_bytes()
    err = refused(run("hand", "Ann", "5", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--match", str(p)))
    assert "trickster-10 has no point 'high'" in err  # not high-joker
    assert p.read_bytes() == before
