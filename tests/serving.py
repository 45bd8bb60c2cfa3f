"""Helpers for the tests of `pitchkeeper serve`: an in-process client over httpx's ASGI transport, and
a real uvicorn server in a thread (the event stream needs a real connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from processes import start_serve, stop_serve

import pitchkeeper

PIN = "424242"
PLAY = Path(__file__).parent / "data" / "play"  # whole hands, played trick by trick
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
OFFJACK = tomllib.loads((PLAY / "seven-point-offjack.toml").read_text())
# the same hand tapped on a phone: each trick's cards in playing order, nobody saying who led
TRICK_TAPS = {"bidder": "Ann", "amount": "3", "trump": "S", "mode": "tricks",
              **{f"t.{k}": " ".join(t["cards"]) for k, t in enumerate(OFFJACK["tricks"], 1)}}
# seven players of solo-pitch: a hand whose analysis takes the compiled core many seconds, and a quick one
SEVEN = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
LONG_HAND = {"dealer": "Gus", "trump": "D", "bid": {"player": "Bob", "amount": 2}, "tricks": [
    {"leader": "Bob", "cards": ["8D", "6S", "4D", "3D", "5D", "7S", "10D"]},
    {"leader": "Ann", "cards": ["9C", "JD", "7C", "10C", "10H", "6H", "JC"]},
    {"leader": "Bob", "cards": ["6D", "2C", "4C", "9D", "AD", "QH", "AS"]},
    {"leader": "Fay", "cards": ["8S", "4S", "2S", "KH", "QS", "9S", "3S"]},
    {"leader": "Cy", "cards": ["7H", "3H", "2H", "JS", "JH", "8C", "5H"]},
    {"leader": "Gus", "cards": ["AC", "KC", "QC", "4H", "AH", "KS", "10S"]}]}
QUICK_HAND = {"dealer": "Ann", "trump": "H", "bid": {"player": "Cy", "amount": 3}, "tricks": [
    {"leader": "Cy", "cards": ["9H", "10H", "2H", "QH", "AH", "4H", "6S"]},
    {"leader": "Gus", "cards": ["9C", "JC", "QC", "4C", "KS", "2C", "KH"]},
    {"leader": "Fay", "cards": ["QD", "6H", "10D", "KC", "9D", "7D", "3H"]},
    {"leader": "Gus", "cards": ["5H", "2S", "7S", "6D", "3D", "8S", "7H"]},
    {"leader": "Fay", "cards": ["8C", "JS", "AC", "10S", "3C", "4S", "KD"]},
    {"leader": "Ann", "cards": ["7C", "QS", "5S", "4D", "2D", "AS", "8D"]}]}


class Api:
    """A synchronous face on an async httpx client bound to the app (no server, no port)."""

    def __init__(self, app: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")

    def __call__(self, method: str, url: str, **kw: Any) -> httpx.Response:
        return self.loop.run_until_complete(self.client.request(method, url, **kw))

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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


def seven_hands(path: Path) -> Path:
    """A solo-pitch match log for SEVEN, Ann dealing first, with QUICK_HAND then LONG_HAND recorded."""
    new_log(path, {"rules": "solo-pitch", "players": SEVEN, "first_dealer": "Ann"})
    book = pitchkeeper.Logbook.open(path)
    book.append(QUICK_HAND)
    book.append(LONG_HAND)
    return path


def us_and_them(path: Path, **header: Any) -> Path:
    """A seven-point match log for PLAYERS, Us (Ann, Cy) against Them (Bob, Dee); `header` adds to it."""
    return new_log(path, {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS, **header})


def offjack_table(folder: Path) -> Path:
    """The log of the table OFFJACK was played at: Us against Them, Cy dealing first."""
    return us_and_them(folder / "m.toml", first_dealer="Cy")


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
    p, banner = start_serve([*match, "--port", "0", "--pin", pin], env)
    url = re.search(r"scoreboard\s+(http://127\.0\.0\.1:\d+)/", banner)
    assert url, p.stderr.read() if p.stderr else "serve did not start"
    try:
        yield url.group(1)
    finally:
        stop_serve(p)
