"""Where pitchkeeper keeps its match logs: the user data dir, or $PITCHKEEPER_HOME.

platformdirs is imported only where it is asked: not when the override is set, nor on Linux, where
the answer is the XDG data home (docs/performance.md).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

CURRENT = "current"
MATCHES = "matches"


def data_dir() -> Path:
    """The data folder (not created): $PITCHKEEPER_HOME when set, else the platform's user data dir."""
    home = os.environ.get("PITCHKEEPER_HOME")
    if home:
        return Path(home).expanduser()
    fast = _xdg_data_dir()
    if fast is not None:
        return Path(fast)
    import platformdirs

    return Path(platformdirs.user_data_dir("pitchkeeper"))


def _xdg_data_dir() -> str | None:
    """On Linux, what platformdirs answers (tests/test_paths.py compares them), without its import: the
    XDG data home (when absolute), else ~/.local/share. None: ask platformdirs (another system, Android,
    or a HOME that is not an absolute path)."""
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel") or (
            os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system"):
        return None
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "pitchkeeper")
    if not os.environ.get("HOME", "").startswith("/"):
        return None
    return os.path.join(os.path.expanduser("~/.local/share"), "pitchkeeper")


def matches_dir() -> Path:
    """The folder `new` writes match logs into when no --match path is given."""
    return data_dir() / MATCHES


def cache_dir() -> Path:
    """The folder of the `stats` index (reports.index): what the logs give again, never the truth."""
    return data_dir() / "cache"


def current_pointer() -> Path:
    """The small text file naming the current match log."""
    return data_dir() / CURRENT


def new_log_path(rules_name: str) -> Path:
    """A new log's path in the data folder: the date and the ruleset, numbered if taken."""
    folder = matches_dir()
    stem = f"{time.strftime('%Y-%m-%d')}-{Path(rules_name).stem}"
    p = folder / f"{stem}.toml"
    n = 2
    while p.exists():
        p = folder / f"{stem}-{n}.toml"
        n += 1
    return p
