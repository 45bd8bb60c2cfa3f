"""Helpers for the tests of `pitchkeeper serve`: an in-process client over httpx's ASGI transport, and
a real uvicorn server in a thread (the event stream needs a real connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

import pitchkeeper

PIN = "424242"


class Api:
    """A synchronous face on an async httpx client bound to the app (no server, no port)."""

    def __init__(self, app: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")

    def __call__(self, method: str, url: str, **kw: Any) -> httpx.Response:
        return self.loop.run_until_complete(self.client.request(method, url, **kw))

    def post_hand(self, hand: Any, pin: str | None = PIN) -> httpx.Response:
        headers = {"X-Pitchkeeper-Pin": pin} if pin is not None else {}
        return self("POST", "/api/hands", json=hand, headers=headers)

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


def new_log(path: Path, header: dict[str, Any]) -> Path:
    """A match log with the header of a match record (through the public API)."""
    pitchkeeper.Logbook.create(path, header["rules"], header["players"], teams=header.get("teams", {}),
                               first_dealer=header.get("first_dealer"), target=header.get("target"))
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app served by uvicorn in a thread, on a free loopback port."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
                                timeout_graceful_shutdown=1)
        self.app = app
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        served = getattr(self.app.state, "site", None) or self.app.state.night  # a table's serve, or a night's
        served.hub.close_soon()  # as `serve` does on Ctrl-C: open streams end first
        self.server.should_exit = True
        self.thread.join(10)


class Events:
    """Reads `GET /api/events` in a thread; `next()` waits for the next event's data."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.items: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.client = httpx.Client(timeout=httpx.Timeout(30, read=None))
        self.thread.start()
        assert self.ready.wait(10), "the event stream did not open"

    def _read(self) -> None:
        try:
            with self.client.stream("GET", self.url + "/api/events") as r:
                assert r.headers["content-type"].startswith("text/event-stream")
                self.ready.set()
                data: list[str] = []
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif line == "" and data:
                        with self.cond:
                            self.items.append(json.loads("\n".join(data)))
                            self.cond.notify_all()
                        data = []
        except (httpx.HTTPError, RuntimeError):
            pass

    def wait(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The first `count` events (fails after `timeout` seconds without them)."""
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.items) >= count, timeout), f"events so far: {self.items}"
            return list(self.items[:count])

    def close(self) -> None:
        self.client.close()


def lines(path: Path) -> Iterator[str]:
    yield from path.read_text().splitlines()


@contextlib.contextmanager
def serve_process(log: Path | None, home: Path, pin: str) -> Iterator[str]:
    """`pitchkeeper serve` as a user starts it (its own process, a free port): the scoreboard's URL,
    stopped with Ctrl-C afterwards. `log` None: the table's current match, followed to each next game."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    match = ["--match", str(log)] if log is not None else []
    p = subprocess.Popen([sys.executable, "-m", "pitchkeeper", "serve", *match, "--port", "0",
                          "--pin", pin], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    url = None
    for line in p.stdout:
        m = re.search(r"scoreboard\s+(http://127\.0\.0\.1:\d+)/", line)
        url = url or (m.group(1) if m else None)
        if line.startswith("Ctrl-C stops."):
            break
    assert url, p.stderr.read() if p.stderr else "serve did not start"
    try:
        yield url
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(15)
        for stream in (p.stdout, p.stderr):
            if stream is not None:
                stream.close()
