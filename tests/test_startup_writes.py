"""What the commands at the table load on a log they have seen before: no TOML parser, not the
module `pickle`, no platformdirs. Each of these costs a millisecond or more at every start, and each is
replaced there by what the caches hold (the replay checkpoint, the ruleset cache, the status cache,
all in the data folder); a log or ruleset edited behind their back still reads right (tests/test_rulecache.py,
tests/test_checkpoint.py). Deterministic: the modules loaded, never a time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import imported_by

SLOW = ("tomllib", "pickle", "platformdirs", "tomli_w")
QUICK = ["--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none"]


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A log written by `hand` (so its checkpoint and caches exist), in a data folder found the way a user's
    is: no PITCHKEEPER_HOME, the XDG data home under HOME."""
    home = tmp_path_factory.mktemp("user")
    env = {k: v for k, v in os.environ.items() if k not in ("PITCHKEEPER_HOME", "XDG_DATA_HOME")}
    env.update(HOME=str(home), NO_COLOR="1")
    path = home / "m.toml"
    pk = [sys.executable, "-m", "pitchkeeper"]
    subprocess.run([*pk, "new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "100", "--match", str(path)],
                   env=env, check=True, capture_output=True)
    for bidder in ("Ann", "Bob", "Cy"):
        subprocess.run([*pk, "hand", bidder, "3", "S", *QUICK, "--match", str(path)], env=env, check=True,
                       capture_output=True)
    assert (home / ".local" / "share" / "pitchkeeper" / "cache").is_dir()  # where platformdirs would put it
    return path, env


@pytest.mark.parametrize("args", [
    ["hand", "Dee", "2", "S", *QUICK],
    ["undo", "-y"],
    ["edit", "3", "Cy", "2", "H", *QUICK, "-y"],
    ["status"],
], ids=["hand", "undo", "edit", "status"])
def test_a_change_at_the_end_loads_nothing_slow(seen: tuple[Path, dict[str, str]], args: list[str],
                                                tmp_path: Path) -> None:
    path, env = seen
    backup = tmp_path / "m.toml"
    shutil.copy2(path, backup)
    try:
        mods, p = imported_by([*args, "--match", str(path)], env, whole=True)
        assert p.returncode == 0, p.stderr
        assert sorted(m for m in mods if m.split(".")[0] in SLOW) == [], args
        assert "Us" in p.stdout  # it drew the board, or said what it changed
        if args[0] != "status":
            assert path.read_bytes() != backup.read_bytes()  # and it did write
    finally:
        shutil.copy2(backup, path)


def test_the_collector_is_off_while_the_cli_starts_and_on_for_the_command() -> None:
    """launch.main turns the collector off for the start (imports only); the root group turns it back on,
    with what the start made frozen, before any command runs (serve and stats run long)."""
    import gc

    from pitchkeeper import launch

    code = ("import gc, sys; from pitchkeeper import launch, cli; "
            "seen = []; launch.started = (lambda s=launch.started: (seen.append(gc.isenabled()), s(), "
            "seen.append(gc.isenabled()), sys.stderr.write(repr(seen))));"
            "sys.argv = ['pitchkeeper', 'rules', 'list']; launch.main()")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert p.returncode == 0, p.stderr
    assert p.stderr.endswith("[False, True]"), p.stderr
    assert gc.isenabled() and not launch.PAUSED  # a program using the library is never touched
