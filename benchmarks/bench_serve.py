"""How `pitchkeeper serve` feels at the table: page load, event delay, several phones at once.

    python benchmarks/bench_serve.py [--runs 50]

Starts the real `pitchkeeper serve` on a free loopback port (127.0.0.1 only: nothing leaves the
machine) over a 30-hand seven-point match whose target is out of reach, then measures:

- the scoreboard page (`GET /`, a new connection each time), median of N, against the same server's
  smallest answer (`GET /static/icon.svg`) measured interleaved in the same run; also the first load
  just after a write (the log read and replayed anew), and the page with its stylesheet and script;
  goal < 100 ms;
- the delay from a write to its event on an open `/api/events` stream, median of N: writes by another
  program through the Python API (as the CLI in another terminal: the server sees them by watching
  the file), timed from the write's end; and `POST /api/hands`, timed from the request's start (the
  write included); goal < 500 ms;
- the same delay as an open scoreboard page in headless Chromium sees it (the new hand drawn), when
  Playwright and Chromium are installed;
- 5 clients posting 20 hands each at once: every one of the 100 hands kept, none twice.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

PAGE_GOAL_MS = 100.0
EVENT_GOAL_MS = 500.0
PIN = "135790"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def hand(i: int, note: str | None = None) -> dict[str, object]:
    h: dict[str, object] = {"trump": "SHDC"[i % 4], "bid": {"player": PLAYERS[i % 4], "amount": 2 + i % 3},
                            "points": {"high": "Us" if i % 2 else "Them", "low": "Ann" if i % 3 else "Bob",
                                       "jack": "Us" if i % 5 else "Them", "game": "Them" if i % 2 else "Us"}}
    if note:
        h["note"] = note
    return h


def start(log: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str, int]:
    p = subprocess.Popen([sys.executable, "-m", "pitchkeeper", "serve", "--match", str(log), "--port", "0",
                          "--pin", PIN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    text = ""
    for line in p.stdout:
        text += line
        if line.startswith("Ctrl-C stops."):
            break
    m = re.search(r"scoreboard\s+http://(127\.0\.0\.1):(\d+)/", text)
    if not m:
        raise SystemExit(f"serve did not start: {text}{p.stderr.read() if p.stderr else ''}")
    return p, m.group(1), int(m.group(2))


def get_ms(host: str, port: int, path: str) -> float:
    t = time.perf_counter()
    c = http.client.HTTPConnection(host, port, timeout=10)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    if r.status != 200 or not body:
        raise SystemExit(f"GET {path}: {r.status}")
    return (time.perf_counter() - t) * 1000


def post(c: http.client.HTTPConnection, body: dict[str, object]) -> int:
    c.request("POST", "/api/hands", body=json.dumps(body),
              headers={"Content-Type": "application/json", "X-Pitchkeeper-Pin": PIN})
    r = c.getresponse()
    r.read()
    return r.status


class Stream:
    """An open /api/events stream; records when each event arrives."""

    def __init__(self, host: str, port: int) -> None:
        self.arrived: list[tuple[float, str]] = []
        self.cond = threading.Condition()
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.conn.request("GET", "/api/events")
        self.resp = self.conn.getresponse()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                line = self.resp.fp.readline()
                if not line:
                    return
                if line.startswith(b"data:"):
                    version = json.loads(line[5:])["version"]
                    with self.cond:
                        self.arrived.append((time.perf_counter(), version))
                        self.cond.notify_all()
        except (OSError, ValueError):
            return

    def wait_for(self, count: int, timeout: float = 10.0) -> tuple[float, str]:
        with self.cond:
            if not self.cond.wait_for(lambda: len(self.arrived) >= count, timeout):
                raise SystemExit(f"no event within {timeout} s")
            return self.arrived[count - 1]


def page_delays(url: str, book: object, runs: int, hands: int) -> list[float] | str:
    """From a write to the new hand drawn on an open scoreboard page in headless Chromium (event, fetch
    of /board, swap), if Playwright and Chromium are here; else why not."""
    import shutil

    chromium = os.environ.get("PITCHKEEPER_CHROMIUM") or shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "skipped: no Playwright (pip install -e '.[browser]')"
    if not chromium:
        return "skipped: no Chromium"
    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"])
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#live.on")
        for i in range(runs):
            book.append(hand(i))  # type: ignore[attr-defined]
            t = time.perf_counter()  # from the write (done) to the hand drawn on the page
            page.wait_for_selector(f'#board[data-hands="{hands + i + 1}"]', timeout=10_000)
            out.append((time.perf_counter() - t) * 1000)
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    import pitchkeeper

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PITCHKEEPER_HOME": str(Path(tmp) / "home")}
        log = Path(tmp) / "bench.toml"
        book = pitchkeeper.Logbook.create(log, "seven-point", PLAYERS, target=10_000)
        for i in range(30):
            book.append(hand(i))
        p, host, port = start(log, env)
        try:
            for _ in range(5):  # warm up (first replay, templates compiled)
                get_ms(host, port, "/")
            page, base = [], []
            for _ in range(args.runs):
                base.append(get_ms(host, port, "/static/icon.svg"))
                page.append(get_ms(host, port, "/"))
            cold = []
            for i in range(args.runs // 2 or 1):  # the first load after a write: the log read and replayed anew
                book.append(hand(i))
                cold.append(get_ms(host, port, "/"))
            assets = [get_ms(host, port, "/") + get_ms(host, port, "/static/style.css")
                      + get_ms(host, port, "/static/live.js") for _ in range(args.runs // 2 or 1)]

            stream = Stream(host, port)
            time.sleep(0.3)
            external, through_api = [], []
            n = 0
            for i in range(args.runs):  # another program writes the file (as the CLI does)
                book.append(hand(i))
                t = time.perf_counter()  # the write is done (renamed into place): the clock starts
                n += 1
                arrived, version = stream.wait_for(n)
                assert version == book.version, "the event does not carry the log's new version"
                external.append((arrived - t) * 1000)
            c = http.client.HTTPConnection(host, port, timeout=10)
            for i in range(args.runs):  # a phone writes through the server
                t = time.perf_counter()
                assert post(c, hand(i)) == 201
                n += 1
                arrived, _ = stream.wait_for(n)
                through_api.append((arrived - t) * 1000)
            c.close()
            in_page = page_delays(f"http://{host}:{port}", book, args.runs, 30 + len(cold) + 2 * args.runs)

            before = len(tomllib.loads(log.read_text())["hands"])
            codes: list[int] = []
            lock = threading.Lock()

            def client(k: int) -> None:
                conn = http.client.HTTPConnection(host, port, timeout=30)
                for i in range(20):
                    status = post(conn, hand(i, note=f"client {k} hand {i}"))
                    with lock:
                        codes.append(status)
                conn.close()

            threads = [threading.Thread(target=client, args=(k,)) for k in range(5)]
            t = time.perf_counter()
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            burst_s = time.perf_counter() - t
            hands = tomllib.loads(log.read_text())["hands"]
            notes = [h["note"] for h in hands[before:] if "note" in h]
            kept = len(set(notes))
            twice = len(notes) - kept
        finally:
            p.terminate()
            p.wait(10)

    med = statistics.median
    print(f"serve benchmark: a 30-hand seven-point match, {args.runs} runs, loopback only")
    print(f"  baseline GET /static/icon.svg (same server)       {med(base):7.1f} ms")
    ok = med(page) < PAGE_GOAL_MS
    print(f"  scoreboard GET /  median                          {med(page):7.1f} ms  "
          f"({med(page) / med(base):.1f}x baseline)  goal < {PAGE_GOAL_MS:.0f} ms  {'ok' if ok else 'OVER'}")
    print(f"  scoreboard GET / just after a write       median  {med(cold):7.1f} ms  goal < {PAGE_GOAL_MS:.0f} ms  "
          f"{'ok' if med(cold) < PAGE_GOAL_MS else 'OVER'}")
    print(f"  scoreboard + style.css + live.js  median          {med(assets):7.1f} ms  goal < {PAGE_GOAL_MS:.0f} ms  "
          f"{'ok' if med(assets) < PAGE_GOAL_MS else 'OVER'}")
    for name, xs in (("event after another program's write", external),
                     ("event after POST /api/hands (from its start)", through_api)):
        ok = med(xs) < EVENT_GOAL_MS
        print(f"  {name:<45} median {med(xs):7.1f} ms  (max {max(xs):.0f})  goal < {EVENT_GOAL_MS:.0f} ms  "
              f"{'ok' if ok else 'OVER'}")
    if isinstance(in_page, str):
        print(f"  hand drawn on an open scoreboard page (Chromium)  {in_page}")
    else:
        ok = med(in_page) < EVENT_GOAL_MS
        print(f"  hand drawn on an open scoreboard page (Chromium) median {med(in_page):7.1f} ms  (max {max(in_page):.0f})  "
              f"goal < {EVENT_GOAL_MS:.0f} ms  {'ok' if ok else 'OVER'}")
    all_kept = kept == 100 and twice == 0 and codes == [201] * 100
    print(f"  5 clients x 20 hands at once: {codes.count(201)} answered 201, {kept} kept, {twice} twice, "
          f"in {burst_s:.2f} s  goal 100 kept, none twice  {'ok' if all_kept else 'FAILED'}")


if __name__ == "__main__":
    main()
