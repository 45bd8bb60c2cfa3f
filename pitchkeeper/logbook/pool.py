"""Reading many kept files at once (`stats`, the log index): TOML parsing and replay are CPU-bound,
so a large set is split over worker processes; the results come back in the order of the files."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
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
    out: list[Any] = []
    if workers < 2 or len(items) < PARALLEL_FROM:
        if tick is None:
            return read_chunk(list(items))
        for item in items:
            out += read_chunk([item])
            tick(1)
        return out
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(8, len(items) // (workers * 4))
    chunks = [list(items[i:i + size]) for i in range(0, len(items), size)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for part in pool.map(read_chunk, chunks):
            out += part
            if tick is not None:
                tick(len(part))
    return out
