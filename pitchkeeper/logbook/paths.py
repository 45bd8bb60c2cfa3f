"""Where pitchkeeper keeps its match logs: the user data dir, or $PITCHKEEPER_HOME.

platformdirs costs ~27 ms to import, so it is imported only when the override is unset.
"""

from __future__ import annotations

import os
from pathlib import Path

CURRENT = "current"
MATCHES = "matches"


def data_dir() -> Path:
    """The data folder (not created): $PITCHKEEPER_HOME when set, else the platform's user data dir."""
    home = os.environ.get("PITCHKEEPER_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("pitchkeeper"))


def matches_dir() -> Path:
    """The folder `new` writes match logs into when no --match path is given."""
    return data_dir() / MATCHES


def cache_dir() -> Path:
    """Caches of derived state (status, replay checkpoints): disposable, never the truth."""
    return data_dir() / "cache"


def current_pointer() -> Path:
    """The small text file naming the current match log."""
    return data_dir() / CURRENT


def new_log_path(rules_name: str) -> Path:
    """A new log's path in the data folder: the date and the ruleset, numbered if taken."""
    import time

    folder = matches_dir()
    stem = f"{time.strftime('%Y-%m-%d')}-{Path(rules_name).stem}"
    p = folder / f"{stem}.toml"
    n = 2
    while p.exists():
        p = folder / f"{stem}-{n}.toml"
        n += 1
    return p
