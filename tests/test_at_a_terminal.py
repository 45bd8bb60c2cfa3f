"""At a real terminal (a pseudo-terminal 40 columns wide, as on a phone): `play` through a whole game with
mistakes and corrections, arrow keys editing a line, the verdict before "save this hand?", and "no"
going back to the answers; and `stats` drawing its progress bar only there. Driven by pexpect, as a
person at the table meets it."""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

import pexpect
from typer.testing import CliRunner

from pitchkeeper.cli import app

LEFT = "\x1b[D"  # the left-arrow key


def spawn(home: Path, *args: str, timeout: float = 30, cwd: Path | None = None) -> pexpect.spawn:
    """`pitchkeeper ARGS` at a 40-column terminal, the data folder `home`; all it shows kept (screen_lines)."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "COLUMNS": "40", "LINES": "24", "TERM": "xterm",
           "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "pitchkeeper", *args], env=env, encoding="utf-8",
                          dimensions=(24, 40), timeout=timeout, cwd=None if cwd is None else str(cwd))
    child.logfile_read = _Log()
    return child


class _Log:
    """Everything the terminal showed."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def screen_lines(child: pexpect.spawn) -> list[str]:
    """The lines as a person saw them: escape sequences and carriage returns taken out."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]", "", child.logfile_read.text)
    return [ln.split("\r")[-1] for ln in text.replace("\r\n", "\n").split("\n")]


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect_exact(prompt)
    child.send(text + "\r")


def test_a_whole_game_at_a_40_column_terminal_with_mistakes_and_corrections(tmp_path: Path):
    log = tmp_path / "solo.toml"
    r = CliRunner().invoke(app, ["new", "solo-pitch", "Ana", "Ben", "Chloe", "--target", "3", "--match", str(log)],
                           env={"PITCHKEEPER_HOME": str(tmp_path)})
    assert r.exit_code == 0, r.stderr
    child = spawn(tmp_path, "play", "--match", str(log))
    # hand 1, Ana deals: the auction is asked first (Enter: none kept), then a prefix for the bidder, a bid
    # out of range, a suit that is none
    answer(child, "none) [-]: ", "")
    answer(child, "Chloe): ", "Be")
    answer(child, "bid (1-4) [2]: ", "9")
    child.expect_exact("out of range")
    answer(child, "bid (1-4) [2]: ", "3")
    answer(child, "trump (S, H, D, C): ", "X")
    child.expect_exact("is not a suit")
    answer(child, "trump (S, H, D, C): ", "S")
    answer(child, "[p]: ", "p")
    answer(child, "who took high?", "Ben")
    answer(child, "who took low?", "")  # no silent default: asked again
    child.expect_exact("say who took low")
    answer(child, "who took low?", "Ben")
    answer(child, "who took jack?", "-")
    answer(child, "who won game?", "tie")
    # the verdict before the question that saves it; "no" goes back to the answers
    child.expect_exact("Ben bid 3 in")
    child.expect_exact("set")
    answer(child, "save this hand? [Y/n]: ", "n")
    child.expect_exact("not saved")
    for prompt in ("[-]: ", "[Ben]: ", "bid (1-4) [3]: ", "[S]: ", "[p]: ", "[Ben]: ", "[Ben]: ", "[-]: "):
        answer(child, prompt, "")  # Enter keeps each answer given before
    # game goes to Chloe after all: typed "Cloe", three steps left with the arrow key, "h" put in
    child.expect_exact("[tie]: ")
    child.send("Cloe" + LEFT * 3 + "h\r")
    child.expect_exact("Chloe won game")
    answer(child, "save this hand? [Y/n]: ", "y")
    child.expect_exact("saved hand 1: Ana 0, Ben -3, Chloe 1")
    # hand 2, Ben deals: the auction call by call from the dealer's left - Chloe bids 2, Ana's 9 is no bid
    # (asked again at once), the dealer passes: Chloe has the bid, never asked; in hearts she takes three
    # points and is out
    answer(child, "none) [-]: ", "2")
    answer(child, "Ana's call", "9")
    child.expect_exact("out of range")
    answer(child, "Ana's call", "pass")
    answer(child, "Ben's call", "pass")
    child.expect_exact("Chloe won the bid at 2")
    answer(child, "trump (S, H, D, C): ", "hearts")
    answer(child, "[p]: ", "")
    answer(child, "who took high?", "Chloe")
    answer(child, "who took low?", "Chloe")
    answer(child, "who took jack?", "Chloe")
    answer(child, "who won game?", "-")
    child.expect_exact("if this hand is saved")  # the win is announced once the hand is saved, not before
    answer(child, "save this hand? [Y/n]: ", "y")
    child.expect_exact("saved hand 2")
    child.expect_exact("Chloe won on hand 2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    hands = tomllib.loads(log.read_text())["hands"]
    assert hands[0]["points"] == {"high": "Ben", "low": "Ben", "game": "Chloe"}
    assert hands[1]["points"] == {"high": "Chloe", "low": "Chloe", "jack": "Chloe"}
    assert hands[1]["auction"] == ["Chloe:2", "Ana:pass", "Ben:pass"] and hands[1]["bid"]["player"] == "Chloe"
    lines = screen_lines(child)
    assert "^[[D" not in "".join(lines)
    too_wide = [ln for ln in lines if len(ln) > 40]
    assert not too_wide, too_wide


def test_play_starts_a_match_when_there_is_none(tmp_path: Path):
    child = spawn(tmp_path, "play")
    child.expect_exact("no current match")
    answer(child, "[seven-point]: ", "cutthroat")  # not a ruleset: asked again
    answer(child, "[seven-point]: ", "cutthroat-pitch")
    answer(child, "has a space): ", "Ann Marie, Bob, Cy")
    answer(child, "[Ann Marie]: ", "bob")
    child.expect_exact("hand 1: Bob deals")
    answer(child, "none) [-]: ", "q")
    child.expect(pexpect.EOF)
    logs = list((tmp_path / "matches").glob("*.toml"))
    assert len(logs) == 1
    data = tomllib.loads(logs[0].read_text())
    assert data["players"] == ["Ann Marie", "Bob", "Cy"] and data["first_dealer"] == "Bob"
    assert (tmp_path / "current").read_text().strip() == str(logs[0].resolve())


def test_stats_shows_a_progress_bar_on_a_terminal_only(tmp_path: Path):
    logs = tmp_path / "home"
    logs.mkdir()
    sample = (Path(__file__).parent / "data" / "export" / "cutthroat.toml").read_text()
    for i in range(60):
        (logs / f"m{i}.toml").write_text(sample)
    child = spawn(logs, "stats", "--all")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    seen = child.logfile_read.text
    assert "reading logs" in seen and "60 match(es)" in seen
