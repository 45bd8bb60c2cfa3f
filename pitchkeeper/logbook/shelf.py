"""The kept matches: the logs in the data folder, numbered for the table, finding one again, and the
table's current match - the one every command, and `serve`, works on - moved on to the next game.

A number is a log's place in `kept()` (in the order the matches began, as `matches` lists them), so the
same folder always gives the same numbers until a match is added or removed.

`start`, `next_game` and `make_current` are the table's moves, whoever makes them (`new`, `use`, a
phone's "Next game", `POST /api/matches`): each holds the current-match pointer's lock while it
checks, creates and points, so two phones tapping "Next game" at once start one game, not two.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.logbook import store, writing
from pitchkeeper.logbook.book import Logbook, Stale
from pitchkeeper.logbook.paths import current_pointer, matches_dir, new_log_path


def _stale_unless(expect: str | None) -> None:
    """Refuse (Stale) a move made against a view of the table that is not current: `expect` is the version
    of the current match the caller saw. Call while holding the pointer's lock."""
    if expect is None:
        return
    current = store.current_match()
    now = Logbook(current).version if current is not None and current.exists() else None
    if now != expect:
        raise Stale("the table moved on since this was read (a hand was saved, or another game was started): "
                    "nothing was started; look again", None, now)


def _pointer_lock() -> writing.locked:
    folder = current_pointer().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PitchError(f"cannot create the data folder: {e.strerror or e}", str(folder)) from None
    return writing.locked(current_pointer())


def start(rules: str | os.PathLike[str], players: Sequence[str],
          teams: Mapping[str, Sequence[str]] | Sequence[tuple[str, Sequence[str]]] | None = None,
          first_dealer: str | None = None, title: str | None = None, target: int | None = None, *,
          stake: int | None = None, path: str | os.PathLike[str] | None = None, expect: str | None = None) -> Logbook:
    """A new match at the table (as `Logbook.create`: `teams` None seats partners across), its log in the
    data folder unless `path` says where, and the current match from now on. `expect`: the version of the
    current match the caller saw (refused with Stale, nothing written, when the table moved on)."""
    with _pointer_lock():
        _stale_unless(expect)
        if path is None:
            if not isinstance(rules, str | os.PathLike) or isinstance(rules, bytes):
                raise PitchError(f"expected a ruleset name or the path of a ruleset file, got {type(rules).__name__}",
                                 "rules")
            path = new_log_path(rulesets.load(os.fspath(rules)).name)
        book = Logbook.create(path, rules, players, teams, first_dealer, title, target, stake=stake)
        writing.write_pointer(book.path)
    return book


def next_game(of: str | os.PathLike[str] | None = None, *, first_dealer: str | None = None, target: int | None = None,
              stake: int | None = None, title: str | None = None, force: bool = False,
              path: str | os.PathLike[str] | None = None, expect: str | None = None) -> Logbook:
    """The next game at the same table (`Logbook.rematch` of `of`, default the current match: the same
    seats, teams, rules, target and stake, the deal passed on by the rotation), made the current match."""
    with _pointer_lock():
        _stale_unless(expect)
        src = Path(of) if of is not None else store.resolve_match_path(None)
        book = Logbook(src).rematch(path, first_dealer=first_dealer, target=target, stake=stake, title=title,
                                    force=force)
        writing.write_pointer(book.path)
    return book


def make_current(path: str | os.PathLike[str]) -> tuple[Logbook, Any]:
    """Make a kept match the current one again (read first: a broken log is refused). (book, its state)"""
    book = Logbook(path)
    state = book.state()
    with _pointer_lock():
        writing.write_pointer(book.path)
    return book, state


def began(path: Path) -> str:
    """When a match began, as ISO text that sorts: its `created` (written when the log was made), else the
    date its file name starts with, else the time the file was last written; "" if none can be read."""
    try:
        c = store.parse_text(store.read_text(path, "file"), path, "").get("created")
    except PitchError:
        c = None
    if isinstance(c, dt.date):  # a TOML date or date-time written by hand
        return c.isoformat()
    if isinstance(c, str) and c.strip():
        return c.strip().replace(" ", "T")
    dated = re.match(r"\d{4}-\d{2}-\d{2}", path.name)
    if dated:
        return dated.group()
    try:
        return dt.datetime.fromtimestamp(path.stat().st_mtime).isoformat(timespec="seconds")
    except OSError:
        return ""


def _name_order(path: Path) -> tuple[str, int]:
    """A log's name in the order the same day's games were numbered: "...-seven-point" (the first) before
    "...-seven-point-2" before "...-seven-point-10"."""
    m = re.fullmatch(r"(.*?)-(\d+)", path.stem)
    return (m.group(1), int(m.group(2))) if m and not re.fullmatch(r"\d{4}-\d{2}", m.group(1)) else (path.stem, 1)


def kept() -> list[Path]:
    """The match logs in the data folder's matches folder in the order they began (`began`: the first game
    of an evening first; the same moment by name), and the current match after them when it lives elsewhere."""
    folder = matches_dir()
    files = [p for p in folder.glob("*.toml") if not p.name.startswith(".")] if folder.is_dir() else []
    files.sort(key=lambda p: (began(p), *_name_order(p), p.name))
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
