"""At a real terminal 40 columns wide (pexpect), the outside tester's last evening: after "save this hand? n"
Enter keeps every earlier answer, each call of the auction included; a call the ruleset does not have is
answered with the calls it does have; and the lines of `play` on a finished game and of `edit` are wrapped
at words, as every other line at the table."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pexpect
from test_at_a_terminal import answer, screen_lines, spawn
from typer.testing import CliRunner

from pitchkeeper.cli import app


def run(home: Path, *args: str) -> None:
    r = CliRunner().invoke(app, list(args), env={"PITCHKEEPER_HOME": str(home)})
    assert r.exit_code == 0, r.stderr


def seven_point(home: Path, *extra: str) -> Path:
    log = home / "friday-night-at-the-club" / "seven-point-game.toml"
    log.parent.mkdir()
    run(home, "new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--dealer", "Dee", "--match", str(log), *extra)
    return log


def points(child: pexpect.spawn, *answers: str) -> None:
    """Seven-point's seven questions after trump, answered in order (Enter keeps a default)."""
    answer(child, "[p]: ", "")
    for text in answers:
        child.expect(r"[)\]]: ")  # a question's end, however it was wrapped
        child.send(text + "\r")


def test_enter_after_no_keeps_every_call_of_the_auction(tmp_path: Path) -> None:
    log = seven_point(tmp_path)
    child = spawn(tmp_path, "play", "--match", str(log))
    answer(child, "[-]: ", "pass")  # Ann, eldest
    answer(child, "Bob's call (pass, 2-7): ", "4")
    answer(child, "Cy's call (pass, 5-7): ", "pass")
    answer(child, "Dee's call (pass, 5-7): ", "pass")
    child.expect_exact("Bob won the bid at 4")
    answer(child, "trump (S, H, D, C): ", "S")
    points(child, "Them", "Dee", "Them", "-", "Them", "Us", "Them")
    answer(child, "save this hand? [Y/n]: ", "n")
    child.expect_exact("not saved: the answers again")
    # every call offers its earlier answer, and Enter keeps it: nothing needs typing again
    answer(child, "[pass]: ", "")
    answer(child, "Bob's call (pass, 2-7) [4]: ", "")
    answer(child, "Cy's call (pass, 5-7) [pass]: ", "")
    answer(child, "Dee's call (pass, 5-7) [pass]: ", "")
    answer(child, "trump (S, H, D, C) [S]: ", "")
    points(child, "", "", "", "", "", "", "")
    answer(child, "save this hand? [Y/n]: ", "")
    child.expect_exact("saved hand 1")
    answer(child, "[-]: ", "q")
    child.expect(pexpect.EOF)
    shown = "\n".join(screen_lines(child))
    assert "is not a call" not in shown and "say Bob's call" not in shown
    hand = tomllib.loads(log.read_text())["hands"][0]
    assert hand["auction"] == ["Ann:pass", "Bob:4", "Cy:pass", "Dee:pass"]
    assert hand["bid"] == {"player": "Bob", "amount": 4}


def test_an_earlier_call_changed_asks_the_calls_it_no_longer_allows_afresh(tmp_path: Path) -> None:
    log = seven_point(tmp_path)
    child = spawn(tmp_path, "play", "--match", str(log))
    answer(child, "[-]: ", "pass")
    answer(child, "Bob's call (pass, 2-7): ", "4")
    answer(child, "Cy's call (pass, 5-7): ", "5")
    answer(child, "Dee's call (pass, 6-7): ", "pass")
    answer(child, "trump (S, H, D, C): ", "<")
    answer(child, "Dee's call (pass, 6-7) [pass]: ", "<")
    answer(child, "Cy's call (pass, 5-7) [5]: ", "<")
    answer(child, "Bob's call (pass, 2-7) [4]: ", "6")  # now Cy's 5 is too low: no default offered for it
    child.expect(r"Cy's call \(pass, 7\)(?: \[[^\]]*\])?: ")
    assert "[5]" not in child.after
    # a call this ruleset does not have, and Enter with no default: the calls of seven-point, no others
    child.send("smudge\r")
    child.expect_exact("seven-point has no smudge bid")
    answer(child, "Cy's call (pass, 7): ", "sell")
    child.expect_exact("seven-point has no sale here")
    answer(child, "Cy's call (pass, 7): ", "six")
    child.expect_exact("'six' is not a call here: pass, 7")
    answer(child, "Cy's call (pass, 7): ", "")
    child.expect_exact("say Cy's call: pass, 7")
    answer(child, "Cy's call (pass, 7): ", "q")
    child.expect(pexpect.EOF)
    shown = " ".join(screen_lines(child))
    assert "pitch" not in shown and "eldest's sale" not in shown and "a number" not in shown
    assert "hands" not in tomllib.loads(log.read_text())


def words_whole(lines: list[str], sentence: str) -> None:
    """Every line fits 40 columns, and the sentence is there broken only between words."""
    assert all(len(ln) <= 40 for ln in lines), [ln for ln in lines if len(ln) > 40]
    flowing = " ".join(ln.strip() for ln in lines)
    assert sentence in flowing, flowing


def test_play_on_a_finished_game_and_edit_wrap_at_words_at_40_columns(tmp_path: Path) -> None:
    log = seven_point(tmp_path, "--target", "3")
    run(tmp_path, "hand", "Ann", "3", "S", "--high", "Us", "--low", "Ann", "--jack", "Us", "--game", "Us",
        "--rest", "none", "--match", str(log))
    child = spawn(tmp_path, "play", "--match", str(log))
    child.expect(pexpect.EOF)
    words_whole(screen_lines(child), "the game is over: Us won on hand 1. Start the next with: pitchkeeper new "
                                     "--rematch")
    child = spawn(tmp_path, "edit", "1", "--game", "Them", "--match", str(log))
    answer(child, "save the corrected hand 1? [y/N]: ", "y")
    child.expect(pexpect.EOF)
    lines = screen_lines(child)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("hand 1 corrected in"))
    assert all(len(ln) <= 40 for ln in lines), [ln for ln in lines if len(ln) > 40]
    # the path, long as it is, is cut only after a / (copied back whole by joining the lines)
    tail = [ln for ln in lines[at:] if ln.strip()]
    joined = "".join(ln.strip() for ln in [tail[0].removeprefix("hand 1 corrected in"), *tail[1:]])
    assert joined.strip() == str(log)
    assert all(ln.rstrip().endswith("/") for ln in tail[1:-1] if ln.strip())
    assert tomllib.loads(log.read_text())["hands"][0]["points"]["game"] == "Them"
