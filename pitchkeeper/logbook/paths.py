"""Where pitchkeeper keeps its match logs (the user data dir, or $PITCHKEEPER_HOME) and its caches, and
what names and keys those caches (`fingerprint`, `code_stamp`).

platformdirs costs a few ms to import, so it is imported only when the override is unset, and not on
Linux, where the answer is the XDG data home.
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
    fast = _xdg_data_dir()
    if fast is not None:
        return Path(fast)
    import platformdirs

    return Path(platformdirs.user_data_dir("pitchkeeper"))


def _xdg_data_dir() -> str | None:
    """On Linux, what platformdirs answers (tests/test_paths.py compares them), without its import: the
    XDG data home (when absolute), else ~/.local/share. None: ask platformdirs (another system, Android,
    or a HOME that is not an absolute path)."""
    import sys

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


_code: list[list[tuple[str, int, int]]] = []


def code_stamp() -> list[tuple[str, int, int]]:
    """The rules engine's source files as they are (name, size, mtime): a cache made by other code (a
    developer's edit, an upgrade that kept the version number) is not used. Read once per run."""
    if not _code:
        folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "game")
        try:
            _code.append(sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns) for e in os.scandir(folder)
                                if e.name.endswith(".py")))
        except OSError:
            _code.append([])
    return _code[0]


def fingerprint(data: bytes) -> str:
    """Two checksums of `data` (64 bits): a cache file's name. Two paths of one name would only share
    files that each check whose they are (a checkpoint matches its text by `blake2`), and zlib is
    loaded already (the CLI's Typer loads it), where even CPython's own blake2 costs half a millisecond."""
    import zlib

    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"
