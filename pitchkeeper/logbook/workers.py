"""The worker processes of a large reading (logbook.pool decides when a set is large enough)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def in_workers(read_chunk: Callable[[list[T]], list[Any]], items: Sequence[T], workers: int,
               tick: Callable[[int], None] | None = None) -> list[Any]:
    """`read_chunk` over every item on `workers` processes, in chunks; the results in the items' order."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(8, len(items) // (workers * 4))
    chunks = [list(items[i:i + size]) for i in range(0, len(items), size)]
    out: list[Any] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for part in pool.map(read_chunk, chunks):
            out += part
            if tick is not None:
                tick(len(part))
    return out
