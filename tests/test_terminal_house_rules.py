"""Three house files played end to end at a real terminal 40 columns wide (a pseudo-terminal driven by pexpect,
as on a phone): a five-player call-partner game, its partner changing every hand, with status, history, undo
and a CSV export; a Minnesota Smear hand entered as cards through `play` with the kitty and the discard; and
a nine-card Pitch game counted down to 0. No line is wider than the screen; bad input is one line."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

import pexpect
from test_at_a_terminal import screen_lines, spawn

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules"
WIDTH = 40


class Terminal:
    """One table's phone: each command run at the 40-column terminal; everything shown kept to check."""

    def __init__(self, home: Path, log: Path) -> None:
        self.home, self.log = home, log
        self.shown: list[str] = []
        self.raw = ""  # the last command's output as written (a CSV's own line ends taken out)

    def run(self, *args: str, status: int = 0, screen: bool = True) -> str:
        child = spawn(self.home, *args, "--match", str(self.log), timeout=60, cwd=self.home)
        child.expect(pexpect.EOF)
        child.close()
        lines = screen_lines(child)
        self.raw = child.logfile_read.text.replace("\r", "")
        if screen:  # a CSV is data for a spreadsheet, not a screen
            self.shown += lines
        assert child.exitstatus == status, "\n".join(lines)
        return "\n".join(lines)

    def check_width(self) -> None:
        # a path longer than the screen is kept whole on its own line, and an error is one line whatever its
        # length (the terminal folds it)
        wide = [ln for ln in self.shown if len(ln) > WIDTH and " " in ln.strip() and not ln.startswith("error: ")]
        assert not wide, wide


def flat(text: str) -> str:
    return " ".join(text.split())


POINTS = ("--ace", "--jack", "--off-jack", "--high-joker", "--low-joker", "--ten", "--point", "--deuce")


def points(*who: str) -> list[str]:
    out: list[str] = []
    for opt, w in zip(POINTS, who, strict=True):
        out += [opt, f"three={w}" if opt == "--point" else w]
    return out


def test_a_five_player_call_partner_game_at_40_columns(tmp_path: Path) -> None:
    log = tmp_path / "five.toml"
    t = Terminal(tmp_path, log)
    t.run("new", str(HOUSE / "call-partner-5.toml"), "Ann", "Bob", "Cy", "Dee", "Eve", "--target", "18",
          "--dealer", "Eve")
    out = t.run("hand", "Ann", "6", "S", "--called", "AS", "--partner", "Cy",
                *points("Cy", "Ann", "Bob", "Ann", "Dee", "Cy", "Ann", "Eve"))
    assert "partner Cy (Ann+Cy against Bob+Dee+Eve): made" in flat(out)
    t.run("hand", "Bob", "5", "H", "--called", "KH", "--held", "Dee: KH 2H",
          *points("Bob", "Dee", "Dee", "Cy", "Bob", "Eve", "Dee", "Ann"))
    # a mistyped called card, and a partner who is the bidder: one line each, nothing written
    before = log.read_bytes()
    bad = t.run("hand", "Cy", "6", "S", "--called", "QX", "--partner", "Dee",
                *points("Cy", "Dee", "Ann", "Ann", "Bob", "Bob", "Cy", "Eve"), status=2)
    assert [ln for ln in bad.splitlines() if ln.strip()] and flat(bad).startswith("error: --called: 'QX' is not a card")
    bad = t.run("hand", "Cy", "6", "S", "--called", "QS", "--partner", "Cy",
                *points("Cy", "Dee", "Ann", "Ann", "Bob", "Bob", "Cy", "Eve"), status=2)
    assert "hands[3].partner: Cy is the bidder" in flat(bad) and "Traceback" not in bad
    assert log.read_bytes() == before
    t.run("hand", "Cy", "6", "S", "--called", "QS", "--partner", "Dee",
          *points("Cy", "Dee", "Ann", "Ann", "Bob", "Bob", "Cy", "Eve"))
    history = flat(t.run("history"))
    for hand in ("Ann+Cy bid 6 ♠ (A♠) made", "Bob+Dee bid 5 ♥ (K♥) made", "Cy+Dee bid 6 ♠ (Q♠) set"):
        assert hand in history, hand
    status = flat(t.run("status"))
    assert "called Q♠ (Dee): Cy+Dee set" in status
    undo = flat(t.run("undo", "--yes"))
    assert "dropped hand 3" in undo
    t.run("hand", "Cy", "5", "S", "--called", "QS", "--partner", "none",
          *points("Cy", "Cy", "Cy", "Cy", "Bob", "Cy", "Dee", "Eve"))
    assert "Cy alone bid 5 ♠ (Q♠) made" in flat(t.run("history"))
    t.run("export", "--format", "csv", screen=False)
    rows = list(csv.reader(io.StringIO(t.raw)))
    assert rows[0][4:6] == ["called", "partner"]
    assert [r[4:6] for r in rows[1:]] == [["AS", "Cy"], ["KH", "Dee"], ["QS", "none"]]
    hands = tomllib.loads(log.read_text(encoding="utf-8"))["hands"]
    assert [h["partner"] for h in hands] == ["Cy", "Dee", "none"]
    t.check_width()


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect_exact(prompt)
    child.send(text + "\r")


def test_a_minnesota_smear_hand_entered_as_cards_with_the_kitty_and_discard(tmp_path: Path) -> None:
    log = tmp_path / "smear.toml"
    t = Terminal(tmp_path, log)
    t.run("new", str(HOUSE / "minnesota-smear.toml"), "Ann", "Bob", "Cy", "Dee")
    child = spawn(tmp_path, "play", "--match", str(log), timeout=60, cwd=tmp_path)
    answer(child, "[-]: ", "")
    answer(child, "Dee): ", "Ann")
    answer(child, "[2]: ", "6")
    answer(child, "(S, H, D, C): ", "S")
    answer(child, "[p]: ", "c")
    answer(child, "it out): ", "2H 3H 4H 5H")  # the kitty Ann took
    answer(child, "them out): ", "2H 3H 4H 5H 6H 7H 8X")  # a mistyped card: asked again at once
    child.expect_exact("'8X' is not a card")
    answer(child, "them out): ", "2H 3H 4H 5H 6H 7H")  # six laid away: she must come down from 13 to 6
    answer(child, "Us captured", "AS KS QS JS JC HJ 10S 3S 9D 9C 9H 10D 10C 10H KD KC")
    answer(child, "Them captured", "LJ 2S 4S QD QC QH KH AD")
    answer(child, "who was dealt 2S?", "Bob")
    child.expect_exact("6 cards thrown; Ann held")  # the library's line, then back to that question
    answer(child, "them out) [", "2H 3H 4H 5H 6H 7H 8H")
    for _ in range(3):  # the captured cards and who was dealt 2S kept: Enter
        child.expect_exact("]: ")
        child.send("\r")
    child.expect_exact("Ann (Us) bid 6 in")
    answer(child, "save this hand? [Y/n]: ", "y")
    child.expect_exact("saved hand 1: Us 8, Them 2")
    answer(child, "none) [-]: ", "q")
    child.expect(pexpect.EOF)
    child.close()
    typed = ("AS KS QS JS JC HJ 10S 3S 9D 9C 9H 10D 10C 10H KD KC",)  # what the player typed wraps as typed
    t.shown += [ln for ln in screen_lines(child) if not ln.endswith(typed)]
    hand = tomllib.loads(log.read_text(encoding="utf-8"))["hands"][0]
    assert hand["kitty"] == ["2H", "3H", "4H", "5H"]
    assert hand["discard"] == ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    assert hand["dealt"] == {"Bob": ["2S"]}
    assert "Us 8 +8" in flat(t.run("history"))
    t.check_width()


def test_a_nine_card_pitch_game_counted_down_to_zero(tmp_path: Path) -> None:
    log = tmp_path / "nine.toml"
    t = Terminal(tmp_path, log)
    out = t.run("new", str(HOUSE / "nine-card-pitch.toml"), "Ann", "Bob", "Cy", "Dee", "--target", "7",
                "--dealer", "Dee")
    assert "down from 7 to 0" in flat(out)
    t.run("hand", "Ann", "4", "S", "--discard", "2D 3D 4D 5D", "--drawn", "Ann: 6H 7H 8H 9H", "--high", "Us",
          "--low", "Us", "--jack", "Us", "--off-jack", "Them", "--high-joker", "Us", "--low-joker", "Them",
          "--game", "Us")
    bad = t.run("hand", "Bob", "3", "H", "--discard", "Bob: 2C 3C 4C 5C 6C", "--high", "Them", "--low", "Them",
                "--game", "Them", "--jack", "Us", "--rest", "none", status=2)
    assert "discard.Bob: 5 cards thrown; at most 4 may be exchanged (draw.most)" in flat(bad)
    t.run("hand", "Bob", "3", "H", "--high", "Them", "--low", "Them", "--game", "Them", "--jack", "Us",
          "--rest", "none")
    board = flat(t.run("status"))
    assert board.startswith("nine-card-pitch down from 7 to 0") and "Us Ann & Cy 1 1" in board
    out = flat(t.run("hand", "Cy", "3", "D", "--high", "Us", "--low", "Us", "--jack", "Us", "--rest", "none",
                     "--game", "tie"))
    assert "winner: Us on hand 3 - Us reached 0 as the bidding side" in out
    history = flat(t.run("history"))
    assert "Us -2 -3" in history  # counted down past 0: 1 - 3
    t.check_width()
