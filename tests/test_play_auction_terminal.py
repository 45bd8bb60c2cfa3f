"""At a real terminal 40 columns wide (pexpect): `play` asks the auction first, each player in turn offered
the calls the ruleset allows then - in auction-pitch eldest's sale, "sell to Cy (3)", as such - and takes
the bidder and the bid from it; `<` takes a call back; and every yes-or-no question of the CLI is asked
one way, `[y/N]` (the capital is what Enter answers)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pexpect
from test_at_a_terminal import answer, screen_lines, spawn
from typer.testing import CliRunner

from pitchkeeper.cli import app


def new(home: Path, *args: str) -> Path:
    log = home / "m.toml"
    r = CliRunner().invoke(app, ["new", *args, "--match", str(log)], env={"PITCHKEEPER_HOME": str(home)})
    assert r.exit_code == 0, r.stderr
    return log


def test_play_asks_the_auction_first_and_names_the_sale(tmp_path: Path) -> None:
    log = new(tmp_path, "auction-pitch", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee")
    child = spawn(tmp_path, "play", "--match", str(log))
    child.expect_exact("hand 1: Dee deals")
    # Ann, eldest: pitch at once or offer the pitch for sale - the first question of the hand
    child.expect_exact("auction: Ann's call")
    child.expect_exact("pitch a card (4)")
    answer(child, "[-]: ", "pass")
    answer(child, "Bob's call", "2")
    answer(child, "Cy's call", "2")  # not higher: asked again at once, in words
    child.expect_exact("not higher than Bob's 2")
    answer(child, "Cy's call", "3")
    answer(child, "Dee's call", "4")
    answer(child, "Ann's call", "<")  # Dee's 4 taken back: Dee is asked again
    answer(child, "Dee's call", "pass")
    child.expect_exact("Ann's call (sell to Cy (3),")
    answer(child, "keep it at 3): ", "sell")
    child.expect_exact("Cy won the bid at 3")
    answer(child, "trump (S, H, D, C): ", "S")  # no bidder or bid asked: the auction gave them
    answer(child, "[p]: ", "p")
    answer(child, "who took high?", "Cy")
    answer(child, "who was dealt low?", "Cy")
    answer(child, "who took jack?", "Bob")
    answer(child, "who won game?", "Cy")
    child.expect_exact("Cy bid 3 in")
    answer(child, "save this hand? [Y/n]: ", "")  # Enter: yes
    child.expect_exact("saved hand 1")
    answer(child, "[-]: ", "q")
    child.expect(pexpect.EOF)
    hand = tomllib.loads(log.read_text())["hands"][0]
    assert hand["auction"] == ["Ann:pass", "Bob:2", "Cy:3", "Dee:pass", "Ann:sell"]
    assert hand["bid"] == {"player": "Cy", "amount": 3}
    lines = screen_lines(child)
    assert not [ln for ln in lines if len(ln) > 40 and "/" not in ln]  # a path is never cut; it is copied whole
    out = "\n".join(lines)
    assert out.index("auction: Ann's call") < out.index("trump (S, H, D, C)")
    assert "who won the bid?" not in out


def test_every_question_is_asked_the_y_n_way(tmp_path: Path) -> None:
    log = new(tmp_path, "seven-point", "Ann", "Bob", "Cy", "Dee")
    r = CliRunner().invoke(app, ["hand", "Ann", "2", "S", "--high", "Us", "--low", "Ann", "--game", "Us", "--rest",
                                 "none", "--match", str(log)], env={"PITCHKEEPER_HOME": str(tmp_path)})
    assert r.exit_code == 0, r.stderr
    child = spawn(tmp_path, "undo", "--match", str(log))
    answer(child, "drop hand 1? [y/N]: ", "maybe")  # neither: asked again, saying what Enter does
    child.expect_exact("type y or n (Enter is no)")
    before = log.read_bytes()
    answer(child, "drop hand 1? [y/N]: ", "")  # Enter: no, nothing dropped, and said so
    child.expect_exact("Kept hand 1: nothing changed.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and log.read_bytes() == before  # no error: the person said no (1 is a bug)
    child = spawn(tmp_path, "edit", "1", "--high", "Them", "--match", str(log))
    answer(child, "save the corrected hand 1? [y/N]: ", "n")
    child.expect_exact("Kept hand 1 as it was: nothing changed.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and log.read_bytes() == before
    child = spawn(tmp_path, "undo", "--match", str(log))
    answer(child, "drop hand 1? [y/N]: ", "y")
    child.expect_exact("dropped hand 1")
    child.expect(pexpect.EOF)
    assert "\n[[hands]]" not in log.read_text()
    out = tmp_path / "out.csv"
    out.write_text("old")
    child = spawn(tmp_path, "export", "--match", str(log), "-o", str(out))
    answer(child, "exists: write over it? [y/N]: ", "n")
    child.expect_exact("nothing written.")
    child.expect(pexpect.EOF)
    assert out.read_text() == "old"
