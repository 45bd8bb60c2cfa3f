"""Reading record files (and, for match logs, writing them safely).

A file is the source of truth: reads report a broken file with its line, and never guess.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError


def read_record(path: str | Path) -> dict[str, Any]:
    """A TOML record file as a table; a missing, unreadable or broken file is a PitchError naming it."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise PitchError("no such file", str(path)) from None
    except IsADirectoryError:
        raise PitchError("is a folder, not a record file", str(path)) from None
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(path)) from None
    except UnicodeDecodeError as e:
        raise PitchError(f"not UTF-8 text (byte {e.start})", str(path)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PitchError(f"not valid TOML: {e}", str(path)) from None


def rules_ref(data: dict[str, Any], path: str | Path, override: str | None) -> str:
    """Which ruleset a record asks for: --rules wins; a relative path is read beside the record."""
    if override:
        return override
    ref = data.get("rules")
    if ref is None:
        raise PitchError("missing: name the ruleset, rules = \"seven-point\" (or give --rules)", f"{path}: rules")
    if not isinstance(ref, str):
        raise PitchError("expected a ruleset name or file path", f"{path}: rules")
    if ref.endswith(".toml") and not Path(ref).is_absolute():
        beside = Path(path).parent / ref
        if beside.is_file():
            return str(beside)
    return ref


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: temp file in the same folder, fsync, rename."""
    import os
    import tempfile

    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise PitchError(f"cannot write: {e.strerror or e}", str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
        try:
            dfd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def current_match() -> Path | None:
    """The match log the data dir's pointer names, or None when no match was started."""
    from pitchkeeper.paths import current_pointer

    try:
        text = current_pointer().read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(current_pointer())) from None
    return Path(text) if text else None


def resolve_match_path(explicit: str | None) -> Path:
    """The match log a command works on: the explicit --match path, else the current match."""
    if explicit:
        return Path(explicit)
    cur = current_match()
    if cur is None:
        raise PitchError("no current match: start one with `pitchkeeper new`, or give --match FILE")
    return cur
