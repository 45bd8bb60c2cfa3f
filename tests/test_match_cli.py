"""Keeping a match through the CLI: new, hand, status, history, undo, edit, matches, check."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import store, writing

runner = CliRunner()
DATA = Path(__file__).resolve().parent / "data" / "match"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200", **(env or {})})


def ok(*args: str, **kw):
    r = run(*args, **kw)
    assert r.exit_code == 0, r.output + r.stderr
    return r


def bad(r, *words: str) -> str:
    """Bad input: exit 2, one line on stderr naming what is wrong, never a traceback."""
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in r.output + r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    p = tmp_path / "game.toml"
    ok("new", "partnership-pitch", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee", "--match", str(p))
    return p


def hands_of(p: Path) -> list[dict]:
    return tomllib.loads(p.read_text()).get("hands", [])


def add(p: Path, *args: str):
    return ok("hand", *args, "--match", str(p))


# -- new


def test_new_writes_the_log_in_the_data_dir_and_makes_it_current(_home: Path):
    r = ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee")
    path = Path(r.stdout.split("new match: ")[1].split("\n")[0])
    assert path.parent == _home / "matches" and path.is_file()
    assert (_home / "current").read_text().strip() == str(path.resolve())
    data = tomllib.loads(path.read_text())
    assert data["rules"] == "seven-point"
    assert data["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert data["teams"] == {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}  # partners sit across
    assert data["first_dealer"] == "Ann"
    assert data["format"] == 1
    r7 = rulesets.load("seven-point")
    assert data["ruleset"]["digest"] == r7.digest
    assert rulesets.compile_ruleset(tomllib.loads(data["ruleset"]["copy"])).digest == r7.digest
    st = json.loads(ok("status", "--json").stdout)  # no --match: the current match
    assert st["match"] == str(path) and st["next_dealer"] == "Ann"
    again = ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee")
    assert "seven-point-2.toml" in again.stdout


def test_new_teams_solo_target_and_stake(tmp_path: Path):
    p = tmp_path / "t.toml"
    ok("new", "trickster-4", "N", "E", "S", "W", "--team", "NS=N,S", "--team", "EW=e,w", "--target", "15",
       "--stake", "2", "--dealer", "w", "--match", str(p))
    data = tomllib.loads(p.read_text())
    assert data["teams"] == {"NS": ["N", "S"], "EW": ["E", "W"]}
    assert (data["target"], data["stake"], data["first_dealer"]) == (15, 2, "W")
    q = tmp_path / "solo.toml"
    ok("new", "trickster-4", "N", "E", "S", "--solo", "--match", str(q))
    assert "teams" not in tomllib.loads(q.read_text())


@pytest.mark.parametrize("args, words", [
    (["seven-pint", "A", "B", "C", "D"], ["no ruleset named 'seven-pint'", "did you mean seven-point"]),
    (["seven-point", "A", "B", "C"], ["not 3"]),
    (["partnership-pitch", "A", "B", "C", "D", "--solo"], ["partnership game"]),
    (["seven-point", "A", "B", "C", "D", "--dealer", "Zed"], ["--dealer", "'Zed' is not a player"]),
    (["seven-point", "A", "B", "C", "D", "--team", "X=A,Q"], ["'Q' is not a player"]),
    (["seven-point", "A", "A", "C", "D"], ["twice"]),
])
def test_new_bad_input(tmp_path: Path, args: list[str], words: list[str]):
    p = tmp_path / "x.toml"
    bad(run("new", *args, "--match", str(p)), *words)
    assert not p.exists()


def test_new_never_overwrites(log: Path):
    before = log.read_bytes()
    bad(run("new", "seven-point", "A", "B", "C", "D", "--match", str(log)), "already exists")
    assert log.read_bytes() == before


# -- hand


def test_hand_follows_the_deal_round_the_table(log: Path):
    add(log, "Ann", "3", "spades", "--high", "Us", "--rest", "none", "--low", "Us", "--jack", "Them", "--game", "Us")
    add(log, "Bob", "2", "h", "--high", "Us", "--rest", "none", "--low", "Them", "--game", "Us")
    add(log, "Cy", "1", "d", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    assert [h["dealer"] for h in hands_of(log)] == ["Dee", "Ann", "Bob"]
    st = json.loads(ok("status", "--match", str(log), "--json").stdout)
    assert st["scores"] == {"Us": 7, "Them": -1}
    assert st["next_dealer"] == "Cy"
    assert st["in_the_hole"] == ["Them"]
    assert st["needed"] == {"Us": 15, "Them": 23}  # exceed 21: Us needs 22
    assert st["last_hand"]["number"] == 3 and st["last_hand"]["dealer"] == "Bob"


def test_a_dealer_out_of_turn_is_recorded_with_a_warning(log: Path):
    r = add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--dealer", "Bob")
    assert r.stderr.startswith("warning: ") and "hands[1].dealer: Bob deals, but the deal passes to Dee" in r.stderr
    assert hands_of(log)[0]["dealer"] == "Bob"
    assert json.loads(ok("status", "--match", str(log), "--json").stdout)["next_dealer"] == "Cy"


def test_hand_json_is_the_judge_match_object(log: Path):
    r = add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--low", "Us", "--jack", "Them", "--game", "Us", "--json")
    obj = json.loads(r.stdout)
    assert set(obj) == {"rules", "target", "hands", "scores", "winner", "won_on_hand", "reason"}
    assert obj["hands"][0]["scores"] == {"Us": 3, "Them": 1}
    assert obj["hands"][0]["bid"] == {"side": "Us", "player": "Ann", "amount": 3, "made": True}
    judged = json.loads(ok("judge", "match", str(log), "--json").stdout)
    assert judged == obj


def test_names_and_unique_prefixes(log: Path):
    add(log, "a", "3", "s", "--high", "u", "--rest", "none", "--low", "th", "--jack", "cy", "--game", "US")
    h = hands_of(log)[0]
    assert h["bid"] == {"player": "Ann", "amount": 3}
    assert h["points"] == {"high": "Us", "low": "Them", "jack": "Cy", "game": "Us"}


def test_every_point_of_the_ruleset_has_an_option(tmp_path: Path):
    p = tmp_path / "7.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(p))
    add(p, "Bob", "4", "C", "--high", "Us", "--rest", "none", "--low", "Them", "--off-jack", "Them", "--point", "high-j=Them",
        "--point", "low-joker=Us", "--game", "-")
    assert hands_of(p)[0]["points"] == {"high": "Us", "low": "Them", "off-jack": "Them", "high-joker": "Them",
                                        "low-joker": "Us"}
    bad(run("hand", "Bob", "4", "C", "--high", "Us",
            "--rest", "none", "--game", "tie", "--low", "Us", "--ten", "Us", "--match", str(p)),
        "--ten", "no point 'ten'")
    bad(run("hand", "Bob", "4", "C", "--high", "Us",
            "--rest", "none", "--game", "tie", "--low", "Us", "--point", "jocker=Us", "--match", str(p)),
        "no point 'jocker'", "did you mean")


def test_smudge_and_the_all_tricks_point(log: Path):
    r = add(log, "Cy", "smudge", "D", "--high", "Us", "--rest", "none", "--low", "Us", "--jack", "Us", "--game", "Us",
            "--all-tricks", "Us", "--json")
    assert json.loads(r.stdout)["scores"] == {"Us": 5, "Them": 0}
    assert hands_of(log)[0]["bid"]["amount"] == "smudge"


def test_a_bid_of_five_is_the_smudge(log: Path):
    # seed 002: "Bidding 'smudge' is equivalent to bidding five" - typed as 5, in the auction too
    r = add(log, "Cy", "5", "D", "--high", "Us", "--low", "Us", "--jack", "Us", "--game", "Us",
            "--all-tricks", "Us", "--auction", "Ann:pass Bob:pass Cy:5 Dee:pass", "--json")
    assert json.loads(r.stdout)["hands"][0]["bid"]["amount"] == "smudge"
    assert hands_of(log)[0]["bid"]["amount"] == "smudge"
    assert "smudge" in ok("history", "--match", str(log)).stdout


def test_the_whole_auction_is_checked_and_kept(log: Path):
    add(log, "Bob", "3", "S", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them", "--jack", "Them", "--auction",
        "Ann:pass Bob:3 Cy:pass Dee:pass")
    assert hands_of(log)[0]["auction"] == ["Ann:pass", "Bob:3", "Cy:pass", "Dee:pass"]
    before = log.read_bytes()
    bad(run("hand", "Cy", "3", "S", "--high", "Us",
            "--rest", "none", "--game", "tie", "--low", "Us", "--auction", "Bob:2 Cy:3 Dee:2 Ann:pass",
            "--match", str(log)), "auction[3]", "not higher", "nothing was written")
    assert log.read_bytes() == before


SIDE_CARDS = ["--cards", "Us: AS KS 2S QH JD 10C 9C 8C", "--cards",
              "Them: 3S 4S 5S 6H 7H 8H 9H 10H 2D 3D 4D 5D 6D 7D 8D 9D"]


def test_cards_captured_per_side(log: Path):
    r = add(log, "Ann", "2", "S", *SIDE_CARDS, "--json")
    v = json.loads(r.stdout)["hands"][0]
    assert {a["point"]: a["side"] for a in v["awards"]} == {"high": "Us", "low": "Us", "game": "Us"}
    assert hands_of(log)[0]["captured"]["Us"] == ["AS", "KS", "2S", "QH", "JD", "10C", "9C", "8C"]


@pytest.mark.parametrize("args, words", [
    (["Zed", "2", "S", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie"], ["BIDDER", "'Zed' is not a player"]),
    (["Ann", "9", "S", "--high", "Us", "--low", "Us",
      "--rest", "none", "--game", "tie"], ["bid.amount", "out of range", "hands[1]"]),
    (["Ann", "2", "X", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie"], ["TRUMP", "'X' is not a suit"]),
    (["Ann", "2", "S", "--high", "Thme", "--low", "Us", "--rest", "-", "--game", "tie"], ["--high", "did you mean Them"]),
    (["Ann", "2", "S", "--low", "Us", "--rest", "none", "--game", "tie"], ["high is always out"]),
    (["Ann", "2", "S", "--cards", "Us: AS KS 2S QH JD 10C 9C AS", "--cards",
      "Them: 3S 4S 5S 6H 7H 8H 9H 10H 2D 3D 4D 5D 6D 7D 8D 9D"], ["AS is", "twice"]),
    (["Ann", "2", "S", "--cards", "Us: AS KS 2S QH JD 10C 9C HJ", "--cards",
      "Them: 3S 4S 5S 6H 7H 8H 9H 10H 2D 3D 4D 5D 6D 7D 8D 9D"], ["HJ is not in this ruleset's deck"]),
    (["Ann", "2", "S", "--cards", "Us: AS KX"], ["'KX' is not a card"]),
    (["Ann", "2", "S"], ["say who won each point", "--high WHO --low WHO"]),
])
def test_bad_hands_write_nothing(log: Path, args: list[str], words: list[str]):
    before = log.read_bytes()
    bad(run("hand", *args, "--match", str(log)), *words)
    assert log.read_bytes() == before


def test_hand_from_a_hand_record_file(tmp_path: Path):
    p = tmp_path / "t4.toml"
    ok("new", "trickster-4", "North", "East", "South", "West", "--dealer", "West", "--match", str(p))
    r = ok("hand", "--match", str(p), "--from", str(DATA / "trickster-4-hand.toml"), "--json")
    v = json.loads(r.stdout)["hands"][0]
    assert v["delta"] == {"Us": 2, "Them": 2}
    assert {a["point"]: a["side"] for a in v["awards"]} == {"high": "Us", "low": "Them", "jack": "Them", "game": "Us"}


def test_hand_from_file_bad_key_names_the_nearest(tmp_path: Path, log: Path):
    f = tmp_path / "h.toml"
    f.write_text('dealr = "Dee"\ntrump = "S"\nbid = { player = "Ann", amount = 2 }\n'
                 'points = { high = "Us", low = "Us" }\n')
    before = log.read_bytes()
    bad(run("hand", "--from", str(f), "--match", str(log)), "unknown key 'dealr'", "did you mean 'dealer'")
    assert log.read_bytes() == before


def test_a_hand_after_the_game_is_won_is_refused(tmp_path: Path):
    p = tmp_path / "short.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "2", "--match", str(p))
    r = add(p, "Bob", "2", "S", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them", "--json")
    assert json.loads(r.stdout)["winner"] == "Them"
    before = p.read_bytes()
    bad(run("hand", "Cy", "2", "S", "--high", "Us",
            "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(p)), "already won on hand 1")
    assert p.read_bytes() == before


def test_comments_written_by_hand_survive_every_append(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    text = log.read_text().replace("\n[[hands]]\n", "\n# the first hand, Ann was lucky\n[[hands]]\n", 1)
    text = text.replace('trump = "S"', 'trump = "S"   # spades, of course')
    log.write_text(text + "# we stopped for pizza here\n")
    add(log, "Bob", "2", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them")
    new = log.read_text()
    assert new.startswith(text)
    assert "# the first hand, Ann was lucky" in new and "# spades, of course" in new and "pizza" in new


def test_a_corrupt_log_is_reported_with_its_line_and_never_overwritten(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    add(log, "Bob", "2", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them")
    text = log.read_text()
    cut = text[: text.rindex("points =") + 12]  # cut short in the middle of the last hand
    log.write_text(cut)
    line = bad(run("hand", "Cy", "2", "D", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us",
               "--match", str(log)), str(log), "line")
    assert "not valid TOML" in line
    assert log.read_text() == cut
    bad(run("status", "--match", str(log)), "line")


def test_an_unknown_key_in_the_log_names_the_nearest(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    log.write_text(log.read_text().replace("\ntrump =", "\ntrumps =", 1))
    before = log.read_bytes()
    line = bad(run("status", "--match", str(log)), "hands[1]", "unknown key 'trumps'", "did you mean 'trump'")
    assert f"{log}:" in line
    bad(run("hand", "Bob", "2", "H", "--high", "Them",
            "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(log)), "trumps")
    assert log.read_bytes() == before


def test_no_current_match():
    bad(run("status"), "no current match")
    bad(run("hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"), "no current match")


# -- undo and edit


def test_undo_gives_back_the_log_byte_for_byte(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    before = log.read_bytes()
    add(log, "Bob", "2", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them")
    bad(run("undo", "--match", str(log)), "--yes")  # no prompt when stdin is not a terminal
    r = ok("undo", "--match", str(log), "--yes")
    assert "dropped hand 2" in r.stdout
    assert log.read_bytes() == before
    ok("undo", "--match", str(log), "--yes")
    bad(run("undo", "--match", str(log), "--yes"), "no hands to undo")


def test_edit_recomputes_every_later_total(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--low", "Us", "--jack", "Them", "--game", "Us")
    add(log, "Bob", "2", "H", "--high", "Us", "--rest", "none", "--low", "Them", "--game", "Us")
    add(log, "Cy", "2", "D", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    log.write_text(log.read_text().replace('trump = "S"', '# fixed at the table\ntrump = "S"', 1))
    r = ok("edit", "1", "--jack", "Us", "--match", str(log), "--yes", "--json")
    change = json.loads(r.stdout)
    assert change["before"]["delta"] == {"Us": 3, "Them": 1}
    assert change["after"]["delta"] == {"Us": 4, "Them": 0}
    assert change["scores"] == {"before": {"Us": 7, "Them": -1}, "after": {"Us": 8, "Them": -2}}
    h = hands_of(log)
    assert h[0]["points"]["jack"] == "Us" and h[0]["bid"] == {"player": "Ann", "amount": 3}
    assert "# fixed at the table" in log.read_text()
    assert json.loads(ok("status", "--match", str(log), "--json").stdout)["scores"] == {"Us": 8, "Them": -2}


def test_edit_dry_run_and_confirmation(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    before = log.read_bytes()
    r = ok("edit", "1", "--low", "Them", "--match", str(log), "--dry-run")
    assert "after" in r.stdout and log.read_bytes() == before
    bad(run("edit", "1", "--low", "Them", "--match", str(log)), "--yes")
    assert log.read_bytes() == before
    bad(run("edit", "4", "--low", "Them", "--match", str(log), "--yes"), "no hand 4")


def test_an_edit_that_ends_the_game_earlier_cannot_strand_later_hands(tmp_path: Path):
    p = tmp_path / "e.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "3", "--match", str(p))
    add(p, "Bob", "2", "S", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them")
    add(p, "Cy", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    before = p.read_bytes()
    bad(run("edit", "1", "--jack", "Them", "--match", str(p), "--yes"), "hands[2]", "already won on hand 1")
    assert p.read_bytes() == before


def test_history(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--low", "Us", "--jack", "Them", "--game", "Us",
        "--note", "close one")
    add(log, "Bob", "2", "H", "--high", "Us", "--rest", "none", "--low", "Them", "--game", "Us")
    h = json.loads(ok("history", "--match", str(log), "--json").stdout)
    assert [row["scores"] for row in h["hands"]] == [{"Us": 3, "Them": 1}, {"Us": 5, "Them": -1}]
    assert h["hands"][0]["note"] == "close one" and h["hands"][1]["dealer"] == "Ann"
    drawn = ok("history", "--match", str(log)).stdout
    assert "Bob 2 set" in drawn and "Ann 3 made" in drawn


# -- status, matches, check


def test_status_draws_the_scoreboard(log: Path):
    add(log, "Bob", "2", "H", "--high", "Us", "--rest", "none", "--low", "Them", "--game", "Us")
    out = ok("status", "--match", str(log)).stdout
    assert "in the hole" in out and "Bob deals next" not in out and "Ann deals next" in out
    assert "last hand 1" in out


def test_status_sees_a_log_edited_by_hand(log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--jack", "Us")
    assert json.loads(ok("status", "--match", str(log), "--json").stdout)["scores"]["Us"] == 3
    assert sorted(f.name for f in log.parent.iterdir() if f.name.startswith(f".{log.name}")) == [f".{log.name}.lock"]
    log.write_text(log.read_text().replace("amount = 3", "amount = 4"))
    assert json.loads(ok("status", "--match", str(log), "--json").stdout)["scores"]["Us"] == -4


def test_reading_leaves_the_folder_of_the_log_as_it_was(log: Path, tmp_path: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--jack", "Us")
    seen = sorted(p.name for p in log.parent.iterdir())
    for cmd in (["status"], ["status", "--json"], ["history"], ["status"]):
        ok(*cmd, "--match", str(log))
    assert sorted(p.name for p in log.parent.iterdir()) == seen
    assert not any(".cache" in name for name in seen)  # every cache is in the data folder


def test_matches_lists_every_log_with_its_state(_home: Path):
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "2")
    ok("hand", "Bob", "2", "S", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them")
    ok("new", "solo-pitch", "Ana", "Ben", "Chloe")
    broken = _home / "matches" / "broken.toml"
    broken.write_text("rules = [\n")
    rows = {Path(r["match"]).name: r for r in json.loads(ok("matches", "--json").stdout)}
    assert len(rows) == 3
    won = next(r for r in rows.values() if r["rules"] == "seven-point")
    assert (won["state"], won["winner"], won["hands"], won["current"]) == ("won", "Them", 1, False)
    solo = next(r for r in rows.values() if r["rules"] == "solo-pitch")
    assert solo["state"] == "playing" and solo["current"]
    assert rows["broken.toml"]["state"] == "broken" and "line" in rows["broken.toml"]["error"]
    assert "broken" in ok("matches").stdout


def test_check_reports_every_problem_with_its_hand_and_line(tmp_path: Path):
    p = tmp_path / "edited.toml"
    p.write_text((DATA / "hand-edited.toml").read_text())
    r = run("check", str(p))
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    text = p.read_text()
    assert any(f"{p}:{store.hand_line(text, 2)}: hands[2]" in ln and "'Zed' is not a player" in ln for ln in lines)
    assert any(f"{p}:{store.hand_line(text, 3)}: hands[3].bid.amount" in ln and "out of range" in ln for ln in lines)
    assert any(ln.startswith("warning: ") and "hands[4].dealer" in ln for ln in lines)
    assert all(ln.startswith(("error: ", "warning: ")) for ln in lines)
    assert any(f"{p}:{store.hand_line(text, 5)}: hands[5]" in ln and "twice" in ln for ln in lines)
    assert r.stdout == f"3 problem(s) in {p}\n"
    report = json.loads(run("check", str(p), "--json").stdout)
    assert not report["ok"] and [x["hand"] for x in report["problems"]] == [2, 3, 4, 5]


def test_check_passes_a_good_log_with_warnings(tmp_path: Path, log: Path):
    add(log, "Ann", "3", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    assert "ok - 1 hand(s)" in ok("check", str(log)).stdout
    log.write_text(log.read_text().replace('\ndealer = "Dee"', '\ndealer = "Bob"'))
    r = ok("check", str(log))
    assert r.stderr.startswith("warning: ") and "hands[1].dealer: Bob deals, but the deal passes to Dee" in r.stderr


def test_check_a_broken_file(tmp_path: Path):
    p = tmp_path / "b.toml"
    p.write_text('rules = "seven-point"\nplayers = ["A", "B", "C", "D"]\n[[hands]]\ndealer = \n')
    bad(run("check", str(p)), "line 4")


# -- the pinned ruleset


def test_a_ruleset_file_edited_later_cannot_change_history(tmp_path: Path):
    house = tmp_path / "house.toml"
    house.write_text('name = "house"\nextends = "seven-point"\n')
    p = tmp_path / "h.toml"
    ok("new", str(house), "Ann", "Bob", "Cy", "Dee", "--match", str(p))
    add(p, "Bob", "4", "S", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Us", "--jack", "Us")
    pinned = rulesets.load(str(house)).digest
    assert json.loads(ok("status", "--match", str(p), "--json").stdout)["scores"] == {"Us": 2, "Them": -4}
    house.write_text('name = "house"\nextends = "seven-point"\n[settle]\nsetback = "none"\n')
    now = rulesets.load(str(house)).digest
    r = ok("status", "--match", str(p), "--json")
    st = json.loads(r.stdout)
    assert st["scores"] == {"Us": 2, "Them": -4}  # the pinned version still governs
    assert pinned in r.stderr and now in r.stderr and "has changed" in r.stderr
    house.unlink()
    r = ok("hand", "Cy", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(p), "--json")
    assert json.loads(r.stdout)["scores"] == {"Us": 4, "Them": -4}
    assert "cannot be loaded" in r.stderr


def test_a_tampered_pinned_copy_is_refused(log: Path):
    log.write_text(log.read_text().replace("smudge = 5", "smudge = 6").replace('name = "partnership-pitch"\ntitle',
                                                                             'name = "partnership-pitch"\ntitle'))
    text = log.read_text()
    digest = tomllib.loads(text)["ruleset"]["digest"]
    log.write_text(text.replace(digest, "0" * 16))
    bad(run("status", "--match", str(log)), "does not match its digest")


# -- the next game, and the stakes


def test_rematch_continues_the_deal(tmp_path: Path, _home: Path):
    p = tmp_path / "g1.toml"
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "2", "--dealer", "Cy", "--stake", "1",
       "--match", str(p))
    bad(run("new", "--rematch"), "still on")
    add(p, "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us")
    r = ok("new", "--rematch", "--json")
    new = json.loads(r.stdout)
    assert new["first_dealer"] == "Dee" and new["target"] == 2 and new["stake"] == 1
    assert new["rematch_of"] == str(p.resolve())
    data = tomllib.loads(Path(new["match"]).read_text())
    assert data["teams"] == {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    assert (_home / "current").read_text().strip() == str(Path(new["match"]).resolve())


def test_status_shows_the_stakes(tmp_path: Path):
    p = tmp_path / "ap.toml"
    ok("new", "auction-pitch", "Ann", "Bob", "Cy", "Dee", "--stake", "3", "--target", "4", "--match", str(p))
    add(p, "Bob", "2", "S", "--high", "Bob", "--rest", "none", "--game", "tie", "--low", "Bob", "--revoke", "Cy")
    st = json.loads(ok("status", "--match", str(p), "--json").stdout)
    assert st["stakes"] == {"stake": 3, "unit": "red counter", "forfeits": {"Cy": 1}, "pool": 1, "settled": None}
    assert "pool 1" in ok("status", "--match", str(p)).stdout
    add(p, "Bob", "2", "S", "--high", "Bob", "--rest", "none", "--game", "tie", "--low", "Bob", "--dealer", "Bob")
    st = json.loads(ok("status", "--match", str(p), "--json").stdout)
    assert st["winner"] == "Bob"
    assert st["stakes"]["settled"] == {"Ann": -3, "Bob": 10, "Cy": -4, "Dee": -3}


# -- locking


def test_a_second_writer_waits_then_gives_up_clearly(log: Path):
    before = log.read_bytes()
    with writing.locked(log):
        r = run("hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(log),
                env={"PITCHKEEPER_LOCK_WAIT": "0.2"})
    bad(r, f"another pitchkeeper is writing {log}; try again")
    assert log.read_bytes() == before


@pytest.mark.parametrize("args", [
    ["seven-point", "Ann", "Bob", "Cy", "Dee", "--team", "Us=Ann,Cy", "--team", "Them=Bob,Dee", "--dealer", "Dee"],
    ["--rules", "seven-point", "--players", "Ann,Bob,Cy,Dee", "--teams", "Us=Ann,Cy;Them=Bob,Dee",
     "--first-dealer", "Dee"],
    ["--rules", "seven-point", "Ann", "Bob", "Cy", "Dee", "-d", "Dee"],
])
def test_new_takes_the_table_in_several_spellings(tmp_path: Path, args: list[str]) -> None:
    import json

    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    r = CliRunner().invoke(app, ["new", *args, "--match", str(tmp_path / "m.toml"), "--json"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["players"] == ["Ann", "Bob", "Cy", "Dee"] and out["first_dealer"] == "Dee"
    assert out["teams"] == {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def test_every_reader_of_a_log_uses_the_ruleset_it_pins(tmp_path: Path) -> None:
    """A house-rules file edited after the match began changes no reader's scores: status, judge match,
    export and stats all use the pinned copy (and the readers that warn, warn)."""
    import json

    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    runner = CliRunner()
    ours = tmp_path / "ours.toml"
    ours.write_text('extends = "seven-point"\n[win]\ntarget = 15\n', encoding="utf-8")
    log = tmp_path / "m.toml"
    assert runner.invoke(app, ["new", str(ours), "Ann", "Bob", "Cy", "Dee", "--match", str(log)]).exit_code == 0
    r = runner.invoke(app, ["hand", "Ann", "3", "S", "--high", "Us",
                            "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(log)])
    assert r.exit_code == 0, r.stderr
    ours.write_text('extends = "seven-point"\n[win]\ntarget = 15\n[settle]\nsetback = "none"\n', encoding="utf-8")
    status = json.loads(runner.invoke(app, ["status", "--match", str(log), "--json"]).stdout)
    judged = runner.invoke(app, ["judge", "match", str(log), "--json"])
    exported = json.loads(runner.invoke(app, ["export", "--match", str(log), "--format", "json"]).stdout)
    assert status["scores"] == {"Us": -3, "Them": 1}  # set back 3 under the pinned rules
    assert json.loads(judged.stdout)["scores"] == exported["scores"] == status["scores"]
    assert "has changed since this match began" in judged.stderr
    stats = json.loads(runner.invoke(app, ["stats", str(log), "--json"]).stdout)
    us = next(t for t in stats["teams"] if t["names"] == ["Us"])
    assert us["set"] == 1 and us["scored"] == -3  # under the edited file it would be 0
