"""How a club night feels from the hall: results reaching the hall screen, a round seated and shown.

    python benchmarks/bench_night.py [--tables 50] [--seconds 60] [--rounds 4] [--no-browser]

Starts the real `pitchkeeper serve --tournament FILE` on a free loopback port over a progressive night of
`--tables` tables (four players each: 200 players), then:

1. **50 tables reporting within one minute**: each table's phone (a thread of its own, its own table PIN)
   posts its result at a random moment of the minute (`POST /api/tables/T/result`). For every result:
   the delay from the POST's start (the write included) to its event on an open `/api/events` stream,
   to the state fetched after that event (`GET /api/tournament`, as the hall screen's page fetches its
   part) showing the table reported, and - with Playwright and Chromium - to the hall screen open in
   headless Chromium at 1920 x 1080 drawing the table as reported. Median and worst; goal < 1 s each.
2. **The round seated and shown**: the organizer's `POST /api/rounds`, from its start to the event, to the
   state showing the new round, and to the hall screen drawing it; once per round after the first
   (`--rounds`), every table of the round having reported (quickly, not measured). Goal < 1 s.

Baselines measured in the same run: the same server's smallest answer (`GET /static/icon.svg`), and one
result written by the library alone (`tournament.night.report` on a copy of the file, no server).
Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

# serve and Chromium as the tests start them
from processes import FLAGS, playwright_or_why, start_serve, table_pins, versions

from pitchkeeper.tournament import book
from pitchkeeper.tournament import night as desk

GOAL_MS = 1000.0
ORGANIZER = "2468013579"


def start(path: Path, home: Path) -> tuple[subprocess.Popen[str], int, dict[int, str]]:
    """The real serve --tournament, its console to a file (a pipe nobody reads fills up)."""
    env = {**os.environ, "PITCHKEEPER_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    console = path.with_suffix(".console").open("w")
    p, text = start_serve(["--tournament", str(path), "--port", "0", "--pin", ORGANIZER], env, stderr=console,
                          cwd=path.parent)
    m = re.search(r"hall screen http://127\.0\.0\.1:(\d+)/", text)
    pins = table_pins(text)
    if not m or not pins:
        raise SystemExit(f"serve did not start: {text}")
    threading.Thread(target=lambda: [None for _ in p.stdout or []], daemon=True).start()  # drain
    return p, int(m.group(1)), pins


def request(port: int, method: str, path: str, body: object = None, pin: str | None = None) -> tuple[int, dict]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if pin:
        headers["X-Pitchkeeper-Pin"] = pin
    c.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, (json.loads(data) if data and r.getheader("content-type", "").startswith("application/json")
                      else {})


class Hall:
    """An open event stream, and after each event the state fetched again (as the hall screen does): when each
    version arrived, and when each table (of each round) was first seen reported, each round first seen."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.events: dict[str, float] = {}
        self.reported: dict[tuple[int, int], float] = {}
        self.rounds: dict[int, float] = {}
        self.cond = threading.Condition()
        self.kick = threading.Event()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        self.conn.request("GET", "/api/events")
        self.resp = self.conn.getresponse()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._fetch, daemon=True).start()

    def _read(self) -> None:
        for version in versions(self.resp):
            now = time.time()
            with self.cond:
                self.events.setdefault(version, now)
                self.cond.notify_all()
            self.kick.set()

    def _fetch(self) -> None:
        while True:
            self.kick.wait()
            self.kick.clear()
            _, state = request(self.port, "GET", "/api/tournament")
            now = time.time()
            rnd = state["seat"]["round"]
            with self.cond:
                self.rounds.setdefault(rnd, now)
                for t in state["reported"]:
                    self.reported.setdefault((rnd, t), now)
                self.cond.notify_all()

    def wait(self, check: object, timeout: float = 30) -> None:
        with self.cond:
            if not self.cond.wait_for(check, timeout):  # type: ignore[arg-type]
                raise SystemExit("the hall never saw it")


def open_screen(url: str) -> tuple[object, object, object] | str:
    """The hall screen in headless Chromium at 1920 x 1080, recording (wall clock) when each table of each
    round is first drawn reported and each round first drawn; or why not."""
    found = playwright_or_why()
    if isinstance(found, str):
        return found
    sync_playwright, chromium = found
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url + "/")
    page.wait_for_selector("#live.on")
    page.evaluate("""() => {
      window.seen = {}; window.rounds = {};
      const look = () => {
        const hall = document.getElementById("hall");
        if (!hall) return;
        const r = hall.getAttribute("data-round"), now = performance.timeOrigin + performance.now();
        if (!(r in window.rounds)) window.rounds[r] = now;
        for (const el of document.querySelectorAll('.tbl[data-state="reported"]')) {
          const k = r + ":" + el.getAttribute("data-table");
          if (!(k in window.seen)) window.seen[k] = now;
        }
      };
      new MutationObserver(look).observe(document.body, {childList: true, subtree: true, attributes: true});
      look();
    }""")
    return pw, browser, page


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs):7.1f} ms, worst {max(xs):7.1f} ms"


def row(what: str, xs: list[float], goal: float | None, base: float) -> None:
    ok = "" if goal is None else ("ok" if max(xs) < goal else "OVER GOAL")
    g = f"goal < {goal:.0f} ms" if goal else ""
    print(f"  {what:<56} {ms(xs)}  {g:<15} {statistics.median(xs) / base:7.1f}x baseline  {ok}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-night-"))
    path = tmp / "night.toml"
    players = [f"Player {i:03}" for i in range(4 * args.tables)]
    book.create(path, "seven-point", "progressive", players, rounds=args.rounds + 1, title="Bench night")
    # the library alone: one result written on a copy of the file (the floor under the server's write)
    floor = []
    for i in range(5):
        copy = tmp / f"floor{i}.toml"
        shutil.copy(path, copy)
        desk.seat_next(copy)
        seat = book.load(copy).rounds[0].tables[i]
        t0 = time.perf_counter()
        desk.report(copy, seat.table, {"&".join(seat.sides[0]): 21, "&".join(seat.sides[1]): 9})
        floor.append((time.perf_counter() - t0) * 1000)
    p, port, pins = start(path, tmp / "home")
    url = f"http://127.0.0.1:{port}"
    rng = random.Random(20)
    screen = None if args.no_browser else open_screen(url)
    try:
        hall = Hall(port)
        icon = []
        for _ in range(20):
            t0 = time.perf_counter()
            request(port, "GET", "/static/icon.svg")
            icon.append((time.perf_counter() - t0) * 1000)
        base = statistics.median(icon)
        print(f"baseline: the server's smallest answer (GET /static/icon.svg) {ms(icon)}")
        print(f"baseline: one result written by the library alone (no server)  {ms(floor)}")
        posts: dict[tuple[int, int], tuple[float, float, str]] = {}  # (round, table) -> (start, end, version)
        seated: dict[int, float] = {}

        def seat(rnd: int) -> None:
            t0 = time.time()
            status, state = request(port, "POST", "/api/rounds", {"round": rnd}, ORGANIZER)
            assert status == 201, state
            seated[rnd] = t0
            posts[(rnd, 0)] = (t0, time.time(), state["version"])

        def report(rnd: int, table: int, sides: list[list[str]], at: float) -> None:
            time.sleep(max(0.0, at - time.time()))
            score = {"&".join(sides[0]): 21, "&".join(sides[1]): rng.randint(0, 20)}
            t0 = time.time()
            status, state = request(port, "POST", f"/api/tables/{table}/result", {"score": score, "round": rnd},
                                    pins[table])
            assert status == 201, state
            posts[(rnd, table)] = (t0, time.time(), state["version"])

        for rnd in range(1, args.rounds + 1):
            seat(rnd)
            hall.wait(lambda r=rnd: r in hall.rounds)
            _, state = request(port, "GET", "/api/tournament")
            tables = state["seat"]["tables"]
            spread = args.seconds if rnd == 1 else 2.0  # round 1: the measured minute; later rounds quickly
            t0 = time.time()
            threads = [threading.Thread(target=report, args=(rnd, t["table"], t["sides"],
                                                             t0 + rng.uniform(0, spread))) for t in tables]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            count = len(tables)
            hall.wait(lambda r=rnd, n=count: sum(1 for k in hall.reported if k[0] == r) == n)
            if rnd == 1:
                print(f"{len(tables)} tables reporting within {args.seconds:g} s (round 1), from each POST's start:")
        time.sleep(1.0)  # the last drawings on the screen
        results = [(k, v) for k, v in posts.items() if k[0] == 1 and k[1] > 0]
        ev = [(hall.events[v[2]] - v[0]) * 1000 for _, v in results]
        fetched = [(hall.reported[k] - v[0]) * 1000 for k, v in results]
        row("the result's event on /api/events", ev, GOAL_MS, base)
        row("the state fetched after it shows the table reported", fetched, GOAL_MS, base)
        rounds = [r for r in range(2, args.rounds + 1)]
        sev = [(hall.events[posts[(r, 0)][2]] - seated[r]) * 1000 for r in rounds]
        sfetch = [(hall.rounds[r] - seated[r]) * 1000 for r in rounds]
        drawn_results: list[float] = []
        drawn_rounds: list[float] = []
        if isinstance(screen, tuple):
            page = screen[2]
            seen = page.evaluate("() => window.seen")  # type: ignore[attr-defined]
            drawn = page.evaluate("() => window.rounds")  # type: ignore[attr-defined]
            drawn_results = [seen[f"1:{k[1]}"] - v[0] * 1000 for k, v in results if f"1:{k[1]}" in seen]
            drawn_rounds = [drawn[str(r)] - seated[r] * 1000 for r in rounds if str(r) in drawn]
            row("the hall screen (Chromium, 1920x1080) draws it reported", drawn_results, GOAL_MS, base)
            if len(drawn_results) < len(results):
                print(f"  (the screen drew {len(drawn_results)} of {len(results)} results)")
        else:
            print(f"  the hall screen in Chromium: {screen or 'skipped: --no-browser'}")
        print(f"The round seated (the organizer's POST /api/rounds, rounds 2-{args.rounds}), from the POST's start:")
        row("its event on /api/events", sev, GOAL_MS, base)
        row("the state fetched after it shows the new round", sfetch, GOAL_MS, base)
        if drawn_rounds:
            row("the hall screen draws the new round", drawn_rounds, GOAL_MS, base)
        size = path.stat().st_size
        print(f"  file: {size // 1024} KiB after {args.rounds} rounds of {len(tables)} tables")
    finally:
        if isinstance(screen, tuple):
            screen[1].close()  # type: ignore[attr-defined]
            screen[0].stop()  # type: ignore[attr-defined]
        p.send_signal(2)
        p.wait(15)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
