"""Reading many kept files at once (`stats`, the log index): TOML parsing and replay are CPU-bound,
so a large set is split over worker processes (logbook.workers); the results come back in the order
of the files. A small set - one log, an evening's - is read here, in this process: the worker pool's
module, and the process machinery it stands on, is loaded only for a set large enough to need it."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# Below this many files a worker pool costs more than it saves (docs/performance.md).
PARALLEL_FROM = 64


def in_order(read_chunk: Callable[[list[T]], list[Any]], items: Sequence[T], workers: int | None = None,
             tick: Callable[[int], None] | None = None) -> list[Any]:
    """`read_chunk` over every item, in order. `read_chunk` must be a module-level function (it is sent
    to the workers); `tick(n)` is told of each n items read, for a progress bar."""
    if workers is None:
        workers = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 8)
    if workers >= 2 and len(items) >= PARALLEL_FROM:
        from pitchkeeper.logbook.workers import in_workers  # a large set only: see the module's docstring

        return in_workers(read_chunk, items, workers, tick)
    if tick is None:
        return read_chunk(list(items))
    out: list[Any] = []
    for item in items:
        out += read_chunk([item])
        tick(1)
    return out
