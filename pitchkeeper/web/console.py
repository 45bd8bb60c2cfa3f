"""`serve`'s console: log lines written by a thread of their own, so the server never waits for them.

A console is a terminal or a pipe, and a pipe that nobody reads fills up: a write to it then blocks,
and a server that logs from its event loop stops serving. Here the event loop only puts a line in a
bounded queue (never waiting); a thread writes the queue out; when the queue is full a line is dropped
and counted, and the count is told once the console takes lines again. The same line repeated (a
hundred clients going away, a flood of malformed requests) is written once a second at most, with
the number of those it stood for.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, TextIO

CAPACITY = 1000  # lines waiting for the console, at most
REPEAT_SECONDS = 1.0  # the same line (the same logger and message template) once a second at most
KINDS = 1000  # message templates remembered for that, at most


class Console(logging.Handler):
    """A logging handler that never blocks the thread that logs."""

    def __init__(self, stream: TextIO, capacity: int = CAPACITY) -> None:
        super().__init__()
        self.stream = stream
        self.lines: queue.Queue[str | None] = queue.Queue(capacity)
        self.dropped = 0
        # kind (logger, template) -> [when one was last written, how many held back since, the last held back]
        self.recent: dict[tuple[str, str], list[Any]] = {}
        self.thread = threading.Thread(target=self._write_out, name="pitchkeeper-console", daemon=True)
        self.thread.start()

    def emit(self, record: logging.LogRecord) -> None:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        seen = self.recent.get(kind)
        if seen is not None and now - seen[0] < REPEAT_SECONDS:
            seen[1] += 1
            seen[2] = record
            return
        if len(self.recent) >= KINDS:
            self.recent.clear()
        held = seen[1] if seen is not None else 0
        self.recent[kind] = [now, 0, None]
        line = self.line(record)
        if held:
            line += f" (and {held} more like it before)"
        self.put(line)

    def line(self, record: logging.LogRecord) -> str:
        try:
            return self.format(record)
        except Exception:  # a bad format string in some library's call: its template, not a traceback
            return str(record.msg)

    def put(self, line: str) -> None:
        try:
            self.lines.put_nowait(line)
        except queue.Full:
            self.dropped += 1

    def held_back(self) -> list[str]:
        """Lines held back for more than a second with none written since: the last of each, counted."""
        now = time.monotonic()
        out = []
        with self.lock:  # type: ignore[union-attr]  # logging creates it in __init__
            for seen in self.recent.values():
                if seen[1] and now - seen[0] >= REPEAT_SECONDS:
                    more = f" (and {seen[1] - 1} more like it)" if seen[1] > 1 else ""
                    out.append(self.line(seen[2]) + more)
                    seen[:] = [now, 0, None]
        return out

    def _write_out(self) -> None:
        while True:
            try:
                line = self.lines.get(timeout=REPEAT_SECONDS)
            except queue.Empty:
                for held in self.held_back():
                    self._write(held)
                continue
            if line is None:
                return
            self._write(line)
            if self.dropped and self.lines.empty():  # those waiting were older than the dropped ones
                dropped, self.dropped = self.dropped, 0
                self._write(f"({dropped} console lines dropped: the console was not being read)")

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # the console is gone: nothing to tell it
            pass

    def close(self) -> None:
        """Let the lines already queued out (for a moment at most: the console may be stuck)."""
        try:
            self.lines.put(None, timeout=0.5)
        except queue.Full:
            pass
        self.thread.join(0.5)
        super().close()


def console_logging(stream: TextIO, level: int = logging.WARNING) -> Console:
    """Route every log line of the process (uvicorn's, asyncio's, pitchkeeper's) to one Console."""
    handler = Console(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio", "pitchkeeper"):
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.propagate = True
    return handler
