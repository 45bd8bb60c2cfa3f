"""The kept matches: the logs in the data folder, numbered for the table, and finding one again.

A number is a log's place in `kept()` (oldest file name first, as `matches` lists them), so the
same folder always gives the same numbers until a match is added or removed.
"""

from __future__ import annotations

from pathlib import Path

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import store
from pitchkeeper.logbook.paths import matches_dir


def kept() -> list[Path]:
    """The match logs in the data folder's matches folder, by file name (dated, so oldest first),
    and the current match after them when it lives elsewhere."""
    folder = matches_dir()
    files = sorted(p for p in folder.glob("*.toml") if not p.name.startswith(".")) if folder.is_dir() else []
    try:
        current = store.current_match()
    except PitchError:
        current = None
    if current is not None and current.exists() and all(f.resolve() != current.resolve() for f in files):
        files.append(current)
    return files


def _title(path: Path) -> str:
    """The `title` of a log; "" when it has none or is broken (or is no regular file: a pipe is never waited on)."""
    try:
        data = store.parse_text(store.read_text(path, "file"), path, "")
    except PitchError:
        return ""
    t = data.get("title")
    return t if isinstance(t, str) else ""


def find(spec: str) -> Path:
    """A kept match by its number in `matches`, its file name (with or without .toml), a path, or a
    unique part of its file name or title (any case)."""
    files = kept()
    s = spec.strip()
    if not s:
        raise PitchError("say which match: its number in `pitchkeeper matches`, or a part of its name", "MATCH")
    if s.isdigit() and 1 <= int(s) <= len(files):
        return files[int(s) - 1]
    p = Path(s).expanduser()
    if p.suffix == ".toml" and p.is_file():
        return p
    low = s.lower()
    for f in files:
        if low in (f.name.lower(), f.stem.lower()):
            return f
    hits = [f for f in files if low in f.stem.lower()]
    if not hits:
        hits = [f for f in files if low in _title(f).lower()]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise PitchError(f"no kept match is numbered or named like '{s}' (`pitchkeeper matches` lists "
                         f"{len(files)})", "MATCH")
    names = ", ".join(f"{files.index(f) + 1} {f.stem}" for f in hits[:6])
    raise PitchError(f"'{s}' names {len(hits)} matches ({names}{', ...' if len(hits) > 6 else ''}): "
                     "give more of the name, or the number", "MATCH")
