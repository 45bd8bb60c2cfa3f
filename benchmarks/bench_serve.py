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
- 5 clients posting 20 hands each at once: every one of the 100 hands kept, none twice;
- the table (`serve` with no --match, when Playwright and Chromium are installed): a phone's entry page
  seeing a hand saved on another device (POSTed by it), from the POST's start to the hand in the phone's
  list, median of N with the worst, goal < 500 ms; and the next game reaching the TV - started from a
  phone (`POST /api/matches`, timed from its answer) and from the CLI (`new --rematch`, timed from the
  command's end) - to the new match drawn on the scoreboard, goal < 1 s. The baseline beside them: the
  same server's event, as an open /api/events stream receives it, both timed from the POST's start.
- wrong PINs (`--attack`, or `--only attack`): the rate one attacker on this machine reaches, from
  127.0.0.1 and from 40 loopback addresses (127.0.0.2 ... 127.0.0.41) at once, against this tree and
  against a checkout of main before the throttle (`--before DIR`, else `git archive 7a8edef`), beside
  the same clients' rate of `GET /api/match` (what the server answers at most): goal a few wrong PINs
  a second at most, and no more than the global budget from 40 addresses.
"""

from __future__ import annotations

import argparse
import collections
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

# serve and Chromium as the tests start them
from processes import FLAGS, playwright_or_why, start_serve, versions

PAGE_GOAL_MS = 100.0
EVENT_GOAL_MS = 500.0
NEXT_GAME_GOAL_MS = 1000.0
PIN = "135790"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def hand(i: int, note: str | None = None) -> dict[str, object]:
    h: dict[str, object] = {"trump": "SHDC"[i % 4], "bid": {"player": PLAYERS[i % 4], "amount": 2 + i % 3},
                            "points": {"high": "Us" if i % 2 else "Them", "low": "Ann" if i % 3 else "Bob",
                                       "jack": "Us" if i % 5 else "Them", "game": "Them" if i % 2 else "Us"}}
    if note:
        h["note"] = note
    return h


def start(log: Path | None, env: dict[str, str], *extra: str,
          folder: Path | None = None) -> tuple[subprocess.Popen[str], str, int]:
    """The real `serve` on a free loopback port, of one match (`log`) or of the table (None: the data folder's
    current match, followed to each next game; `folder` then holds its console). Its console goes to a file
    (a pipe nobody reads fills up)."""
    base = log.parent if log is not None else folder
    assert base is not None
    console = log.with_suffix(".console") if log is not None else base / "table.console"
    match = ["--match", str(log)] if log is not None else []
    with console.open("w") as err:  # cwd not the checkout: `-m` would import its package before PYTHONPATH's
        p, text = start_serve([*match, "--port", "0", "--pin", PIN, *extra], env, stderr=err, cwd=base)
    m = re.search(r"scoreboard\s+http://(127\.0\.0\.1):(\d+)/", text)
    if not m:
        p.wait(10)
        raise SystemExit(f"serve did not start: {text}{console.read_text()}")
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


def served_version(c: http.client.HTTPConnection) -> str:
    """The version of the match served now (GET /api/match)."""
    c.request("GET", "/api/match")
    r = c.getresponse()
    return str(json.loads(r.read())["version"])


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
        for version in versions(self.resp):
            with self.cond:
                self.arrived.append((time.perf_counter(), version))
                self.cond.notify_all()

    def wait_for(self, version: str, timeout: float = 10.0) -> float:
        """When the first event announcing `version` arrived. By version, not by count: the server may
        still announce an earlier write (one made before the stream opened) after the stream opens."""
        def seen() -> float | None:
            return next((at for at, v in self.arrived if v == version), None)

        with self.cond:
            if not self.cond.wait_for(lambda: seen() is not None, timeout):
                raise SystemExit(f"no event announcing version {version} within {timeout} s")
            at = seen()
            assert at is not None
            return at


def page_delays(url: str, book: object, runs: int, hands: int) -> list[float] | str:
    """From a write to the new hand drawn on an open scoreboard page in headless Chromium (event, fetch
    of /board, swap), if Playwright and Chromium are here; else why not."""
    found = playwright_or_why()
    if isinstance(found, str):
        return found
    sync_playwright, chromium = found
    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
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


WIN = {"trump": "S", "bid": {"player": "Ann", "amount": 3}, "points": {"high": "Us", "low": "Ann", "jack": "Us",
                                                                      "game": "Us"}}


def table_delays(tmp: Path, runs: int, games: int) -> dict[str, list[float]] | str:
    """The table served with no --match: a phone's page seeing a hand another device saved, and the next
    game reaching the TV, from a phone and from the CLI (each with the event stream's delay as baseline)."""
    found = playwright_or_why()
    if isinstance(found, str):
        return found
    sync_playwright, chromium = found
    from pitchkeeper.logbook import shelf

    home = tmp / "table-home"
    env = {**os.environ, "PITCHKEEPER_HOME": str(home)}
    old = os.environ.get("PITCHKEEPER_HOME")
    os.environ["PITCHKEEPER_HOME"] = str(home)
    try:
        shelf.start("seven-point", PLAYERS, target=10_000)
    finally:
        if old is None:
            del os.environ["PITCHKEEPER_HOME"]
        else:
            os.environ["PITCHKEEPER_HOME"] = old
    p, host, port = start(None, env, folder=tmp)
    url = f"http://{host}:{port}"
    out: dict[str, list[float]] = {"seen": [], "event": [], "phone": [], "cli": []}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
            phone.goto(url + "/enter")
            phone.fill("#pin", PIN)
            phone.click("button[type=submit]")
            phone.wait_for_selector("#hand-form")
            phone.wait_for_selector("#live.on")
            tv = browser.new_page(viewport={"width": 1920, "height": 1080})
            tv.goto(url + "/")
            tv.wait_for_selector("#live.on")
            stream = Stream(host, port)
            time.sleep(0.3)
            c = http.client.HTTPConnection(host, port, timeout=10)
            for i in range(runs):  # another phone saves a hand: this phone's list shows it
                t = time.perf_counter()  # from the save's start (the write included)
                assert post(c, hand(i)) == 201
                arrived = stream.wait_for(served_version(c))
                out["event"].append((arrived - t) * 1000)
                phone.wait_for_selector(f'#hands li[data-hand="{i + 1}"]', timeout=10_000)
                out["seen"].append((time.perf_counter() - t) * 1000)

            def cli(*args: str) -> None:
                q = subprocess.run([sys.executable, "-m", "pitchkeeper", *args], env=env, capture_output=True, text=True)
                assert q.returncode == 0, q.stderr

            def on_the_tv() -> str:
                stem = Path((home / "current").read_text().strip()).stem
                tv.wait_for_selector(f'#board[data-match="{stem}"]', timeout=10_000)
                return stem

            cli("new", "seven-point", *PLAYERS, "--target", "3")  # games one hand long: WIN ends each
            on_the_tv()
            for g in range(2 * games):  # the next game, from a phone (POST /api/matches) or the CLI, in turn
                assert post(c, WIN) == 201
                if g % 2 == 0:
                    c.request("POST", "/api/matches", body=json.dumps({"rematch": True}),
                              headers={"Content-Type": "application/json", "X-Pitchkeeper-Pin": PIN})
                    r = c.getresponse()
                    r.read()
                    assert r.status == 201, r.status
                else:
                    cli("new", "--rematch")
                t = time.perf_counter()  # the game started (answered, or the command ended)
                stem = on_the_tv()
                out["phone" if g % 2 == 0 else "cli"].append((time.perf_counter() - t) * 1000)
                phone.wait_for_selector(f'#page[data-match="{stem}"]', timeout=10_000)
            c.close()
            browser.close()
    finally:
        p.terminate()
        p.wait(10)
    return out


BEFORE = "7a8edef"  # main before the throttle (issue 19): the baseline tree of the wrong-PIN figures
WRONG_PIN = "0000000000"


def hammer(host: str, port: int, sources: list[str], per_source: int, seconds: float,
           pin: str | None) -> collections.Counter[int]:
    """Requests as fast as `per_source` connections from each source address make them, for `seconds`:
    a wrong PIN to `POST /api/hands` (`pin`), or `GET /api/match` (`pin` None). The answers' statuses."""
    counts: collections.Counter[int] = collections.Counter()
    lock = threading.Lock()
    body = json.dumps(hand(0))
    headers = {"Content-Type": "application/json", "X-Pitchkeeper-Pin": pin or ""}
    deadline = time.perf_counter() + seconds

    def client(source: str) -> None:
        mine: collections.Counter[int] = collections.Counter()
        conn = None
        while time.perf_counter() < deadline:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
                if pin is None:
                    conn.request("GET", "/api/match")
                else:
                    conn.request("POST", "/api/hands", body=body, headers=headers)
                r = conn.getresponse()
                r.read()
                mine[r.status] += 1
                conn.close()  # a new connection each time: the fastest way on main (keep-alive waited 40 ms)
                conn = None
            except OSError:
                mine[0] += 1  # a dropped connection: counted, then a new one
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()
        with lock:
            counts.update(mine)

    threads = [threading.Thread(target=client, args=(src,)) for src in sources for _ in range(per_source)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counts


def before_tree(given: str | None, tmp: Path) -> Path | None:
    """A checkout of main before the throttle: `--before DIR`, else `git archive` of BEFORE from this clone."""
    if given:
        return Path(given)
    root = Path(__file__).resolve().parent.parent
    out = tmp / "before"
    out.mkdir()
    try:
        tar = subprocess.run(["git", "-C", str(root), "archive", BEFORE, "pitchkeeper", "rulesets"],
                             capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(out)], input=tar, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    rules = out / "pitchkeeper" / "rulesets"  # as the wheel places them (pyproject's force-include)
    if not rules.exists() and (out / "rulesets").exists():
        (out / "rulesets").rename(rules)
    return out


SCENARIOS = (("get", 1, 4, None), ("one", 1, 4, WRONG_PIN), ("many", 40, 1, WRONG_PIN))


def attack_once(tree: Path | None, scenario: tuple[str, int, int, str | None], seconds: float,
                tmp: Path) -> collections.Counter[int]:
    """One scenario against a fresh `serve` of `tree` (None: this tree)."""
    import pitchkeeper

    name, count, per, pin = scenario
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp / f"home-{tree is None}")}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    sources = ["127.0.0.1"] if count == 1 else [f"127.0.0.{k}" for k in range(2, 2 + count)]
    log = tmp / f"attack-{tree is None}-{name}.toml"
    pitchkeeper.Logbook.create(log, "seven-point", PLAYERS)
    p, host, port = start(log, env)
    try:
        counts = hammer(host, port, sources, per, seconds, pin)
    finally:
        p.terminate()
        p.wait(10)
    if pitchkeeper.Logbook.open(log).state()["hands"]:
        raise SystemExit("a wrong PIN wrote a hand")
    return counts


def attack(tree: Path | None, seconds: float, tmp: Path) -> tuple[dict[str, collections.Counter[int]] | None,
                                                                  dict[str, collections.Counter[int]]]:
    """Every scenario against both trees, the two runs of a scenario one after the other and in turn
    first (thousands of connections closed on loopback slow the next ones down: neither tree always
    pays for it)."""
    before: dict[str, collections.Counter[int]] = {}
    after: dict[str, collections.Counter[int]] = {}
    for i, scenario in enumerate(SCENARIOS):
        runs = [(None, after), (tree, before)] if i % 2 else [(tree, before), (None, after)]
        for which, into in runs:
            if which is None and into is before:
                continue
            into[scenario[0]] = attack_once(which, scenario, seconds, tmp)
    return (before if tree is not None else None), after


def show_attack(seconds: float, before: dict[str, collections.Counter[int]] | None,
                after: dict[str, collections.Counter[int]]) -> None:
    def cell(c: collections.Counter[int] | None, status: int) -> str:
        if c is None:
            return "-"
        return f"{c[status]:,} ({c[status] / seconds:,.1f}/s)"

    b = before or {}
    print(f"wrong PINs checked by serve in {seconds:g} s (401 answers; the rest were refused unchecked: 429)")
    print(f"  {'':<50} {'before (main ' + BEFORE + ')':>24} {'after (this tree)':>24}")
    print(f"  {'baseline: GET /api/match from 127.0.0.1, 4 conns':<50} {cell(b.get('get'), 200):>24} "
          f"{cell(after['get'], 200):>24}")
    for key, words in (("one", "one attacker at 127.0.0.1, 4 connections"),
                       ("many", "one attacker at 40 addresses 127.0.0.2-41")):
        print(f"  {words:<50} {cell(b.get(key), 401):>24} {cell(after[key], 401):>24}")
        for label, c in (("before", b.get(key)), ("after", after[key])):
            if c is not None:
                other = {k: v for k, v in sorted(c.items()) if k != 401}
                print(f"      {label}: other answers {other or 'none'}")
    from pitchkeeper.web.guard import OVERALL, PER_ADDRESS

    goal_one = after["one"][401] <= PER_ADDRESS.burst + seconds / PER_ADDRESS.every + 1
    goal_many = after["many"][401] <= OVERALL.burst + seconds / OVERALL.every + 1
    print(f"  goal: one address at most {PER_ADDRESS.burst} at once, then one every {PER_ADDRESS.every:g} s "
          f"({PER_ADDRESS.per_hour:.0f} an hour): {'ok' if goal_one else 'OVER'}")
    print(f"  goal: 40 addresses together at most {OVERALL.burst} at once, then one every {OVERALL.every:g} s "
          f"({OVERALL.per_hour:.0f} an hour): {'ok' if goal_many else 'OVER'}")
    for key, words in (("one", "127.0.0.1"), ("many", "40 addresses")):
        c = b.get(key)
        if c is not None and c[401]:
            rate = c[401] / seconds
            print(f"  before, from {words:<13} at that rate: every six-digit PIN in {1e6 / rate / 60:,.0f} min")
    hourly = {"one": PER_ADDRESS.per_hour, "many": OVERALL.per_hour}
    for key, words in (("one", "127.0.0.1"), ("many", "40 addresses")):
        print(f"  after,  from {words:<13} at the budget ({hourly[key]:.0f} an hour): every six-digit PIN in "
              f"{1e6 / hourly[key] / 24:,.0f} days; every ten-digit one in {1e10 / hourly[key] / 24 / 365:,.0f} years")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--games", type=int, default=10, help="next games started from a phone, and as many from the CLI")
    ap.add_argument("--attack", action="store_true", help="also the wrong-PIN figures, before and after")
    ap.add_argument("--only-attack", action="store_true", help="the wrong-PIN figures only")
    ap.add_argument("--attack-seconds", type=float, default=10.0, help="each attack's length (default 10)")
    ap.add_argument("--before", metavar="DIR", help=f"a checkout of main {BEFORE} (default: git archive of it)")
    args = ap.parse_args()
    if args.only_attack:
        run_attack(args)
        return
    import pitchkeeper

    with tempfile.TemporaryDirectory() as tmp:
        table = table_delays(Path(tmp), args.runs, args.games)
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
            for i in range(args.runs):  # another program writes the file (as the CLI does)
                book.append(hand(i))
                t = time.perf_counter()  # the write is done (renamed into place): the clock starts
                arrived = stream.wait_for(book.version)  # (no event announcing it: SystemExit)
                external.append((arrived - t) * 1000)
            c = http.client.HTTPConnection(host, port, timeout=10)
            for i in range(args.runs):  # a phone writes through the server
                t = time.perf_counter()
                assert post(c, hand(i)) == 201
                arrived = stream.wait_for(book.version)
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
    print("the table (serve with no --match), Chromium: a TV and a phone open")
    if isinstance(table, str):
        print(f"  {table}")
    else:
        print(f"  baseline: the event of another phone's POST /api/hands      median {med(table['event']):7.1f} ms  "
              f"(max {max(table['event']):.0f})")
        rows = (("hand saved on another device, in a phone's list", table["seen"], EVENT_GOAL_MS),
                ("next game from a phone (POST /api/matches), on the TV", table["phone"], NEXT_GAME_GOAL_MS),
                ("next game from the CLI (new --rematch), on the TV", table["cli"], NEXT_GAME_GOAL_MS))
        for name, xs, goal in rows:
            print(f"  {name:<58} median {med(xs):7.1f} ms  (max {max(xs):.0f}, {len(xs)} runs)  goal < {goal:.0f} ms  "
                  f"{'ok' if med(xs) < goal else 'OVER'}")
    if args.attack:
        run_attack(args)


def run_attack(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = before_tree(args.before, Path(tmp))
        if tree is None:
            print(f"(no checkout of {BEFORE}: give --before DIR for the before column)")
        before, after = attack(tree, args.attack_seconds, Path(tmp))
    show_attack(args.attack_seconds, before, after)


if __name__ == "__main__":
    main()
