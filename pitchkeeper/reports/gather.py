"""What `stats` shows, gathered from the logs named and (with --all) from the data folder's index.

A library function, so that a program gets what the command prints (the command only draws it); its
own module because the index (reports.index) builds on reports.stats, and only --all needs it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper.reports import stats


class Gathered(NamedTuple):
    """What `stats` shows: the figures, a line per log that could not be read, how many match logs
    were read and how many the filters kept, and the data folder as walked (for ratings) with --all."""

    figures: stats.Stats
    errors: list[str]
    read: int
    chosen: int
    folder_empty: bool = False  # --all found no match log at all
    stamps: Any = None  # --all: the folder as walked (reports.index), which ratings.rate_kept fingerprints


def gather(files: Iterable[Path], every: bool = False, rules: str | None = None, since: str | None = None,
           until: str | None = None, progress: Callable[[int], Any] | None = None) -> Gathered:
    """The figures of the match logs named (each file once, however it is named) and, with `every`, of every
    log in the data folder through the shared index (only the logs changed since are read again; a log
    also named counts once). `progress(total)` is a context manager that yields a tick(n) (a front end's
    bar). A log that cannot be read is a line in `errors`, never the end of the others."""
    bar = progress or (lambda total: contextlib.nullcontext(lambda n: None))
    seen: set[Path] = set()
    todo: list[tuple[Path, bool]] = []
    for f in files:
        try:
            key = f.resolve()
        except (OSError, ValueError):  # a name no file can have: reading it says so
            key = f
        if key not in seen:
            seen.add(key)
            todo.append((f, False))
    errors: list[str] = []
    read: list[stats.MatchFigures] = []
    if todo:
        with bar(len(todo)) as tick:
            for r in stats.read_many(todo, progress=tick):
                if r.error:
                    errors.append(r.error)
                elif r.figures is not None:
                    read.append(r.figures)
    chosen = stats.keep(read, rules, since, until)
    groups = stats.grouped(stats.record(f) for f in chosen)
    n_read, n_chosen = len(read), len(chosen)
    if not every:
        return Gathered(stats.total(groups), errors, n_read, n_chosen)
    from pitchkeeper.reports import index  # sqlite3 and the index: loaded for --all only

    kept = index.kept_tallies(progress=bar, rules=rules, since=since, until=until,
                              leave_out=[os.path.abspath(f) for f, _ in todo])
    errors += [error for _path, error in kept.errors]
    groups += kept.groups
    return Gathered(stats.total(groups), errors, n_read + kept.matches,
                    n_chosen + sum(n for _layout, n, _sums in kept.groups), not kept.files and not todo, kept.stamps)
