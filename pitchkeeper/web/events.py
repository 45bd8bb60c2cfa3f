"""One watcher of the match log for every open page: the server-sent events of `GET /api/events`.

The log can be written by anyone (a phone through this server, the CLI in another terminal, a script
through the Python API, a person's editor), so the server does not trust its own writes to know when
it changed: one task polls the log's version - a digest of its bytes, not its stat, which an edit that
keeps the size and puts the time back leaves as it was - and, when it moved, tells every subscriber.
A write made through this server calls `check()` before and after it, so its event does not wait for
the next poll and is not merged with another writer's. Everything runs on the event loop thread, so
events go out in the order the file moved.

When `serve` follows the table (no --match), the data read also names the match served; when a new
game starts (from a page, the CLI or the API), the event says so: `{"version": ..., "match": NAME}`,
and every open page moves to it.

When the log cannot be read (edited by hand into a broken state), the event says so at once -
`{"version": ..., "broken": "The match log cannot be read: ..."}` - and every open page stops showing
the score as current until an event without `broken` (the log mended) brings it back: nothing in the
data folder leaves a page showing a stale score.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

KEEPALIVE = 15.0  # seconds between comments on an idle stream (proxies and phones drop silent ones)


class Hub:
    """The log's last known version, and a queue per open event stream."""

    def __init__(self, path: Path, read: Callable[[], dict[str, Any]], interval: float = 0.05) -> None:
        """`read()` -> the event's data for the log as it stands ({"version": ..., "match": ...})."""
        self.path = path
        self.read = read
        self.interval = interval
        self.subscribers: set[asyncio.Queue[dict[str, Any] | None]] = set()
        self.closing = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last: dict[str, Any] = self._read_or_last()
        self.sent: dict[str, Any] = {"version": self.last.get("version")}  # the data of the last event
        if self.last.get("broken"):
            self.sent["broken"] = self.last["broken"]

    def _read_or_last(self) -> dict[str, Any]:
        try:
            return self.read()
        except Exception:  # a bug in reading (a log that cannot be read is `read()`'s "broken"): no event
            return getattr(self, "last", {"version": None})

    def check(self) -> bool:
        """Look at the file now; tell every subscriber if its version, the match served or whether it can be
        read changed. True if it did. The event names the match only when it is another one than before, and
        says `broken` for as long as the log cannot be read."""
        seen = self._read_or_last()
        keys = ("version", "match", "broken")
        if tuple(seen.get(k) for k in keys) == tuple(self.last.get(k) for k in keys):
            return False
        data = {"version": seen.get("version")}
        if seen.get("match") != self.last.get("match"):
            data["match"] = seen.get("match")
        if seen.get("broken"):
            data["broken"] = seen["broken"]
        self.last = seen
        self.sent = data
        for q in self.subscribers:
            q.put_nowait(data)
        return True

    async def run(self) -> None:
        """The one polling task (started with the app, cancelled when it stops)."""
        self.loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.interval)
            self.check()

    def subscribe(self) -> asyncio.Queue[dict[str, Any] | None]:
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.subscribers.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue[dict[str, Any] | None]) -> None:
        self.subscribers.discard(q)

    def close(self) -> None:
        """End every open stream (the server is stopping: open pages must not hold it up)."""
        self.closing = True
        for q in self.subscribers:
            q.put_nowait(None)

    def close_soon(self) -> None:
        """`close`, from a signal handler or another thread: on the loop's own thread."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.close)

    async def stream(self, last_seen: str | None = None) -> AsyncIterator[str]:
        """The text/event-stream of one client: one `message` event per change, data = JSON with
        `version`. A client that reconnects with a Last-Event-ID older than the log gets the change
        it missed at once."""
        q = self.subscribe()
        try:
            if self.closing:
                return
            yield "retry: 1000\n: pitchkeeper events\n\n"
            if (last_seen and last_seen != self.last.get("version")) or self.sent.get("broken"):
                yield _event(self.sent)  # what it missed; and a log that cannot be read, said at once
            while True:
                try:
                    data = await asyncio.wait_for(q.get(), KEEPALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if data is None:  # the server is stopping
                    return
                yield _event(data)
        finally:
            self.unsubscribe(q)


def _event(data: dict[str, Any]) -> str:
    return f"id: {data.get('version')}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
