"""Windows, by simulation: no `fcntl` (the lock is msvcrt's), and a console code page that cannot show
the suit symbols (letters instead, never a UnicodeEncodeError)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pitchkeeper.errors import PitchError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Loaded first by the interpreter (PYTHONPATH): fcntl cannot be imported, and msvcrt.locking is
# played by an flock taken before fcntl was hidden (a non-blocking lock of the file, as LK_NBLCK is).
NO_FCNTL = """
import fcntl as _real, subprocess, sys, types  # subprocess first: it takes a module msvcrt for Windows
sys.modules["fcntl"] = None  # `import fcntl` now raises ImportError, as on Windows
def locking(fd, mode, nbytes):
    if mode == LK_UNLCK:
        _real.flock(fd, _real.LOCK_UN)
        return
    try:
        _real.flock(fd, _real.LOCK_EX | _real.LOCK_NB)
    except BlockingIOError:
        raise PermissionError(13, "Permission denied") from None
msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_NBLCK, msvcrt.LK_UNLCK, LK_UNLCK = 2, 0, 0
msvcrt.locking = locking
sys.modules["msvcrt"] = msvcrt
"""


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, timeout=60,
                          env={**os.environ, **env})


def test_without_fcntl_a_match_is_kept_with_the_msvcrt_lock(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(NO_FCNTL, encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "PITCHKEEPER_HOME": str(tmp_path / "home")}
    log = tmp_path / "m.toml"
    probe = run(["--version"], env)
    assert probe.returncode == 0, probe.stderr
    for args in (["new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(log)],
                 ["hand", "Ann", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Them"],
                 ["hand", "Bob", "3", "H", "--high", "Them", "--rest", "none", "--game", "tie", "--low", "Them"],
                 ["undo", "--yes"], ["status", "--json"]):
        p = run(args, env)
        assert p.returncode == 0, p.stderr.decode()
    assert b'"hands": 1' in p.stdout
    # the lock still excludes: a writer holding it (here, the fake msvcrt in this process too) refuses another
    hold = (f"import sys, time; sys.path.insert(0, {str(tmp_path)!r}); import sitecustomize; "
            "from pitchkeeper.logbook import writing; from pathlib import Path\n"
            f"with writing.locked(Path({str(log)!r})):\n print('held', flush=True); time.sleep(30)")
    holder = subprocess.Popen([sys.executable, "-c", hold], stdout=subprocess.PIPE, env={**os.environ, **env})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        p = run(["hand", "Cy", "2", "S", "--high", "Us", "--rest", "none", "--game", "tie", "--low", "Us"],
                {**env, "PITCHKEEPER_LOCK_WAIT": "0.2"})
        assert p.returncode == 2 and b"another pitchkeeper is writing" in p.stderr
    finally:
        holder.kill()
        holder.communicate()


def test_the_writer_locks_with_msvcrt_when_fcntl_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl
    import types

    calls: list[int] = []

    def locking(fd: int, mode: int, nbytes: int) -> None:
        calls.append(mode)
        if mode == 0:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PermissionError(13, "Permission denied") from None

    fake = types.ModuleType("msvcrt")
    fake.LK_NBLCK, fake.LK_UNLCK, fake.locking = 2, 0, locking  # type: ignore[attr-defined]
    from pitchkeeper.logbook import writing

    monkeypatch.setattr(writing, "fcntl", None)  # as on Windows, where the module imports msvcrt instead
    monkeypatch.setattr(writing, "msvcrt", fake, raising=False)
    p = tmp_path / "m.toml"
    with writing.locked(p), pytest.raises(PitchError, match="another pitchkeeper is writing"), writing.locked(p, wait=0.05):
        pass
    with writing.locked(p, wait=0):
        pass
    assert 2 in calls and 0 in calls


@pytest.mark.parametrize("args", [
    ["judge", "match", str(EXAMPLES / "kitchen-table.toml")],
    ["judge", "hand", str(EXAMPLES / "seven-point-jokers.toml")],
    ["judge", "trick", "--rules", "seven-point", "--trump", "S", "--cards", "Ann:QC Bob:AC Cy:JC Dee:2S"],
    ["rules", "explain", "off-jack", "--rules", "seven-point"],
    ["judge", "match", str(EXAMPLES / "kitchen-table.toml"), "--json"],
])
def test_a_cp1252_console_shows_letters_for_suits(tmp_path: Path, args: list[str]) -> None:
    p = run(args, {"PYTHONIOENCODING": "cp1252", "PITCHKEEPER_HOME": str(tmp_path)})
    assert p.returncode == 0, p.stderr.decode("cp1252")
    out = p.stdout.decode("cp1252")  # what the console shows: every byte is cp1252
    assert "Traceback" not in p.stderr.decode("cp1252", "replace")
    assert not any(s in out for s in "♠♥♦♣")
    if "--json" in args:
        import json

        assert json.loads(out)["winner"]  # the data whole, in \\u escapes where needed
    else:
        assert any(f"{r}{s}" in out or f"{s} " in out for r in ("J", "Q", "A", "10", "2") for s in "SHDC"), out


def test_a_cp1252_console_keeps_the_table_at_the_table(tmp_path: Path) -> None:
    env = {"PYTHONIOENCODING": "cp1252", "PITCHKEEPER_HOME": str(tmp_path)}
    for args in (["new", "seven-point", "Ann", "Bob", "Cy", "Dee"],
                 ["hand", "Ann", "2", "S", "--high", "Us",
                  "--rest", "none", "--game", "tie", "--low", "Them"], ["status"], ["history"],
                 ["chart"]):
        p = run(args, env)
        assert p.returncode == 0, p.stderr.decode("cp1252", "replace")
        assert "♠" not in p.stdout.decode("cp1252")
    assert "Ann 2" in p.stdout.decode("cp1252") or b"Us" in p.stdout
