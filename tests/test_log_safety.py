"""No command destroys or forks a log: export never writes over one; CRLF and symlinked logs take new
hands as they are; a refused write leaves the folder as it was (no lock file, no temp file)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import writing

runner = CliRunner()
HAND = ["hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Them"]


def ok(*args: str) -> str:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.stderr
    return r.stdout


def refused(*args: str) -> str:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
    return r.stderr


def new_log(path: Path, *hands: list[str]) -> Path:
    ok("new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(path))
    for h in hands:
        ok(*h, "--match", str(path))
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- export -o


def test_export_never_writes_over_a_match_log(tmp_path: Path, _home: Path) -> None:
    kept = new_log(_home / "matches" / "kept.toml", HAND)  # a log in the data folder, not the current one
    outside = new_log(tmp_path / "outside.toml", HAND)  # any file whose text is a match record
    current = new_log(tmp_path / "current.toml", HAND)
    broken = _home / "matches" / "broken.toml"
    broken.write_text("rules = \n", encoding="utf-8")  # a kept log, even broken, is still a log
    link = tmp_path / "link.md"
    link.symlink_to(outside)
    record = tmp_path / "plain.md"
    record.write_text('rules = "seven-point"\nplayers = ["A", "B", "C", "D"]\n', encoding="utf-8")
    for target in (current, kept, outside, broken, link, record):
        before = files(tmp_path)
        line = refused("export", "--format", "md", "-o", str(target), "--force")
        assert "is a match log" in line and files(tmp_path) == before


def test_export_writes_over_another_file_only_when_told(tmp_path: Path) -> None:
    new_log(tmp_path / "m.toml", HAND)
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n", encoding="utf-8")
    assert "add --force" in refused("export", "-o", str(notes))
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    hand_record = tmp_path / "hand.toml"  # a hand record is no log: it may be written over, when told
    hand_record.write_text('rules = "seven-point"\nplayers = ["A", "B"]\ndealer = "A"\n', encoding="utf-8")
    refused("export", "-f", "json", "-o", str(hand_record))
    ok("export", "-o", str(notes), "--force")
    assert notes.read_text(encoding="utf-8").startswith("**Pitch match**")


def _on_a_terminal(args: list[str], answer: str, env: dict[str, str]) -> tuple[int, str]:
    """Run the console script with a terminal for stdin, stdout and stderr; answer its question."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pitchkeeper", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, **env}, close_fds=True)
    os.close(slave)
    out = b""
    answered = False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if not answered and b"write over it?" in out:
            os.write(master, answer.encode() + b"\r")
            answered = True
        if proc.poll() is not None and not ready:
            break
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, out.decode("utf-8", "replace")


def test_export_asks_on_a_terminal(tmp_path: Path, _home: Path) -> None:
    new_log(tmp_path / "m.toml", HAND)
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n", encoding="utf-8")
    env = {"PITCHKEEPER_HOME": str(_home)}
    code, out = _on_a_terminal(["export", "-o", str(notes)], "n", env)
    assert code == 0 and "write over it?" in out and notes.read_text(encoding="utf-8") == "my notes\n"
    assert f"Kept {notes}: nothing written." in out  # the no acknowledged, and no error status
    code, out = _on_a_terminal(["export", "-o", str(notes)], "y", env)
    assert code == 0 and notes.read_text(encoding="utf-8").startswith("**Pitch match**")


# -- line ends and links


def test_a_crlf_log_takes_hands_and_keeps_its_line_ends(tmp_path: Path) -> None:
    log = new_log(tmp_path / "win.toml", HAND)
    log.write_bytes(log.read_bytes().replace(b"\n", b"\r\n"))  # edited on Windows
    ok("hand", "Bob", "3", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(log))
    ok("edit", "1", "--note", "fixed", "--yes", "--match", str(log))
    ok("hand", "Cy", "2", "D", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us", "--match", str(log))
    ok("undo", "--yes", "--match", str(log))
    raw = log.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") and b"\r\r" not in raw  # every line still ends in CRLF
    assert raw.count(b"\n[[hands]]") == 2 and b"fixed" in raw
    assert ok("status", "--match", str(log), "--json").count('"hands": 2') == 1


def test_a_log_reached_through_a_symlink_is_written_through_it(tmp_path: Path) -> None:
    real = new_log(tmp_path / "real" / "game.toml", HAND)
    link = tmp_path / "elsewhere" / "link.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    ok("hand", "Bob", "3", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them", "--match", str(link))
    ok("edit", "1", "--note", "via the link", "--yes", "--match", str(link))
    assert link.is_symlink() and link.resolve() == real.resolve()  # still a link, not a fork
    assert real.read_bytes().count(b"\n[[hands]]") == 2 and b"via the link" in real.read_bytes()
    beside = [p.name for p in link.parent.glob(".*")]
    assert not [n for n in beside if n.endswith((".lock", ".tmp"))], beside  # the lock and temps are the target's
    assert writing.lock_path(link) == writing.lock_path(real)


def test_two_paths_to_one_log_share_one_lock(tmp_path: Path) -> None:
    real = new_log(tmp_path / "game.toml")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    with writing.locked(real), pytest.raises(PitchError, match="another pitchkeeper is writing"), \
            writing.locked(link, wait=0):
        pass


# -- refused writes leave nothing behind


@pytest.mark.parametrize("args", [
    ["hand", "Zed", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],  # an unknown player
    ["hand", "Ann", "9", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],  # a bid out of range
    ["undo", "--yes"],  # nothing to undo
    ["edit", "1", "--high", "Nobody", "--yes"],
])
def test_a_refused_write_leaves_no_lock_or_temp_file(tmp_path: Path, args: list[str]) -> None:
    log = new_log(tmp_path / "game.toml")
    for p in tmp_path.glob(".*"):
        p.unlink()  # as a log copied here by hand would be: no sidecar yet
    before = files(tmp_path)
    refused(*args, "--match", str(log))
    assert files(tmp_path) == before


def test_no_command_writes_its_output_over_a_log(tmp_path: Path) -> None:
    log = new_log(tmp_path / "game.toml", HAND)
    before = log.read_bytes()
    assert "is a match log" in refused("rules", "new", str(log), "--force")
    night = tmp_path / "night.toml"
    ok("tournament", "new", str(night), "--rules", "partnership-pitch", "--format", "round-robin",
       "--teams", "Ann&Cy,Bob&Dee,Eve&Fay")
    tournament = night.read_bytes()
    assert "is a match log" in refused("tournament", "standings", str(night), "--format", "csv", "-o", str(log))
    assert "is a match log" in refused("export", "-o", str(night), "--format", "csv", "--match", str(log))
    assert log.read_bytes() == before and night.read_bytes() == tournament
