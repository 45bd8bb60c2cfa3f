"""What each table command must NOT import: the start-up budget, guarded deterministically (no timing).

Every command draws with pitchkeeper.show.ansi, never Rich (25-60 ms of imports, more than the rest of
a command); none loads pydantic or importlib.metadata. Each command runs in a fresh interpreter, the way
a user meets it, and reports the modules it loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import imported_by

HEAVY = ("rich", "pydantic", "importlib.metadata")


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "NO_COLOR": "1"}
    path = home / "m.toml"
    pk = [sys.executable, "-m", "pitchkeeper"]
    subprocess.run([*pk, "new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "100", "--match", str(path)],
                   env=env, check=True, capture_output=True)
    for bidder in ("Ann", "Bob", "Cy"):
        subprocess.run([*pk, "hand", bidder, "3", "S", "--high", "Us", "--low", "Them", "--game", "Us", "--rest", "none",
                        "--match", str(path)], env=env, check=True, capture_output=True)
    return path, env


def commands(m: str) -> list[list[str]]:
    return [
        ["status", "--match", m], ["history", "--match", m], ["judge", "match", m], ["chart", "--match", m],
        ["stats", m], ["matches"], ["export", "--format", "md", "--match", m],
        ["export", "--format", "csv", "--match", m], ["edit", "3", "Cy", "2", "H", "--high", "Us", "--low", "Us",
                                                      "--rest", "none", "--game", "tie", "--dry-run", "--match", m],
        ["hand", "Dee", "2", "S", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie", "--dry-run", "--match", m],
        ["judge", "trick", "-r", "seven-point", "-t", "S", "-c", "Ann:JC Bob:AC Cy:5C Dee:2S"],
        ["rules", "list"], ["rules", "show", "seven-point"], ["rules", "diff", "seven-point", "trickster-10"],
        ["rules", "explain", "-r", "seven-point"], ["rules", "explain", "off-jack", "-r", "seven-point"],
        ["--help"], ["--version"],
    ]


@pytest.mark.parametrize("i", range(len(commands("m"))))
def test_a_table_command_draws_without_rich(log: tuple[Path, dict[str, str]], i: int) -> None:
    path, env = log
    args = commands(str(path))[i]
    mods, p = imported_by(args, env)
    assert p.returncode == 0, (args, p.stderr[-800:])
    bad = sorted(m for m in mods if m.split(".")[0] in HEAVY[:2] or m == HEAVY[2])
    assert bad == [], args
    assert len(p.stdout.splitlines()) > 1 or args[0] == "--version", p.stdout  # it drew something


def test_the_root_help_builds_no_command(log: tuple[Path, dict[str, str]]) -> None:
    """`pitchkeeper --help` lists every command from its help text: no command's parameters are built,
    so no domain module a command would need is loaded (the game engine, the log's loader, TOML)."""
    mods, p = imported_by(["--help"], log[1])
    assert p.returncode == 0 and "hand" in p.stdout and "Record a hand" in p.stdout, p.stdout
    loaded = sorted(m for m in mods if m in ("pitchkeeper.game.match", "pitchkeeper.game.rulesets",
                                             "pitchkeeper.logbook.book", "pitchkeeper.logbook.loader", "tomllib",
                                             "dataclasses"))
    assert loaded == []


def test_recording_a_hand_loads_no_openssl(log: tuple[Path, dict[str, str]]) -> None:
    """The checkpoint's text digest comes from CPython's own _blake2 (hashlib's OpenSSL costs a few ms on
    every hand), the caches' names from zlib (loaded already); a real write, so the checkpoint is read
    and saved."""
    path, env = log
    mods, p = imported_by(["hand", "Dee", "2", "S", "--high", "Us", "--low", "Us", "--rest", "none", "--game", "tie",
                           "--match", str(path)], env)
    assert p.returncode == 0, p.stderr[-800:]
    assert "hashlib" not in mods and "_hashlib" not in mods
    assert "_blake2" in mods and "zlib" in mods
