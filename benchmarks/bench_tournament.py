"""Benchmark: tournaments at scale, and ratings over 10,000 kept logs through the per-log index.

    python benchmarks/bench_tournament.py [--tables 50] [--rounds 6] [--logs 10000] [--keep DIR]

1. A progressive night of 50 tables (200 players): each round is seated (`tournament.seat`), its 50
   results recorded by hand - in odd rounds one table at a time as they report (`record --table T
   --score ...`: a locked, fsynced write each), in even rounds the whole round's score sheets at
   once (`record` with --table/--score pairs: one write) - and the standings ranked; then a round
   recorded from a folder of 50 match logs (`record --round-from`). A Swiss event of 100 teams is
   seated, recorded in one batch and ranked. Goals (issue 13): seat + record + rank of a round well
   under 1 s; one table's result, alone, under 0.1 s.
2. 10,000 match logs kept in a data folder (a real game's log with its players drawn from 400
   names): the index is built (first run), then standings over them - every log's summary
   from the index, the stats tally and the ratings - on a second run. Goal: under 2 s.
   --keep DIR reuses the logs (and the index) of an earlier run.
Baselines measured in the same run: a bare `python -c pass`, and a bare-python floor for each
task (tomllib parsing the tournament file once; reading every log's bytes). Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pitchkeeper.reports import index, ratings, stats
from pitchkeeper.tournament import book, standings

ROOT = Path(__file__).resolve().parent.parent
KITCHEN = (ROOT / "examples" / "kitchen-table.toml").read_text(encoding="utf-8")  # Ann & Cy v Bob & Dee


def log_text(a: str, b: str, c: str, d: str) -> str:
    """The kitchen-table game with other players: a & c partners against b & d (a & c win)."""
    names = {"Ann": a, "Bob": b, "Cy": c, "Dee": d}
    return re.sub(r"\b(Ann|Bob|Cy|Dee)\b", lambda m: names[m.group(1)], KITCHEN)


def bare_start() -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t


def row(what: str, secs: float, goal: float | None, base: float, base_name: str) -> None:
    g = f"goal < {goal:.2f} s" if goal else ""
    ok = "" if goal is None else ("  ok" if secs < goal else "  OVER GOAL")
    print(f"  {what:<44} {secs * 1000:9.1f} ms   {g:<14} {secs / base:8.1f}x {base_name}{ok}")


def progressive(tmp: Path, tables: int, rounds: int, start: float) -> None:
    import tomllib

    players = [f"Player {i:03}" for i in range(tables * 4)]
    path = tmp / "night.toml"
    book.create(path, "seven-point", "progressive", players, rounds=rounds + 2)
    rng = random.Random(13)
    print(f"Progressive, {tables} tables ({len(players)} players), per round:")
    worst = worst_single = 0.0
    for n in range(rounds):
        t0 = time.perf_counter()
        rnd, _new = book.seat(path)
        t1 = time.perf_counter()
        sheets = []
        for seat in rnd.tables:
            (a, c), (b, d) = seat.sides
            sheets.append((seat.table, {f"{a}&{c}": 21, f"{b}&{d}": rng.randint(0, 20)}, None, None))
        if n % 2 == 0:  # every table's result typed in as it reports: one locked, fsynced write each
            for entry in sheets:
                book.record_many(path, [entry])
            how = "one at a time"
        else:  # the round's score sheets typed in at once: one write
            book.record_many(path, sheets)
            how = "in one batch "
        t2 = time.perf_counter()
        s = standings(book.load(path))
        t3 = time.perf_counter()
        assert s["round"] == rnd.number
        if n % 2 == 0:
            worst_single = max(worst_single, (t2 - t1) / len(rnd.tables))
        else:
            worst = max(worst, t3 - t0)
        print(f"    round {rnd.number}: seat {1000 * (t1 - t0):6.1f} ms, record {len(rnd.tables)} tables {how} "
              f"{1000 * (t2 - t1):7.1f} ms, rank {1000 * (t3 - t2):6.1f} ms")
    t = time.perf_counter()
    text = path.read_text(encoding="utf-8")
    tomllib.loads(text)
    floor = time.perf_counter() - t
    row(f"worst round: seat + {tables} results + rank (batch)", worst, 1.0, start, "python -c pass")
    row("one table's result recorded alone (worst)", worst_single, 0.1, start, "python -c pass")
    row("  (bare python: tomllib parse of the file once)", floor, None, start, "python -c pass")
    # the last round from a folder of the tables' match logs
    rnd, _ = book.seat(path)
    folder = tmp / f"round{rnd.number}"
    folder.mkdir()
    for seat in rnd.tables:
        (a, c), (b, d) = seat.sides
        (folder / f"table{seat.table:02}.toml").write_text(log_text(a, b, c, d), encoding="utf-8")
    t = time.perf_counter()
    _t, results = book.record_folder(path, folder)
    took = time.perf_counter() - t
    assert len(results) == tables
    row(f"round {rnd.number} recorded from {tables} match logs", took, 1.0, start, "python -c pass")
    print(f"  file: {len(text.splitlines())} lines, {len(text) // 1024} KiB after {rounds} rounds")
    # the commands as an organiser runs them, whole processes (start-up included)
    rnd, _ = book.seat(path)
    cmd = [sys.executable, "-m", "pitchkeeper", "tournament"]
    t = time.perf_counter()
    subprocess.run([*cmd, "standings", str(path), "--json"], check=True, stdout=subprocess.DEVNULL)
    row("`tournament standings --json` (a process)", time.perf_counter() - t, 1.0, start, "python -c pass")
    seat = rnd.tables[0]
    score = ",".join(f"{'&'.join(side)}={sc}" for side, sc in zip(seat.sides, (21, 9), strict=True))
    t = time.perf_counter()
    subprocess.run([*cmd, "record", str(path), "--table", "1", "--score", score], check=True, stdout=subprocess.DEVNULL)
    row("`tournament record --table 1 --score ...` (a process)", time.perf_counter() - t, 1.0, start, "python -c pass")


def swiss(tmp: Path, tables: int, rounds: int, start: float) -> None:
    teams = [[f"S{i:03}a", f"S{i:03}b"] for i in range(tables * 2)]
    path = tmp / "swiss.toml"
    book.create(path, "seven-point", "swiss", [], teams, rounds=rounds)
    rng = random.Random(14)
    worst = 0.0
    for _ in range(rounds):
        t0 = time.perf_counter()
        rnd, _new = book.seat(path)
        sheets = []
        for seat in rnd.tables:
            x, y = ("&".join(s) for s in seat.sides)
            win = rng.random() < 0.5
            sheets.append((seat.table, {x: 21 if win else 12, y: 12 if win else 21}, None, None))
        book.record_many(path, sheets)
        standings(book.load(path))
        worst = max(worst, time.perf_counter() - t0)
    row(f"Swiss, {len(teams)} teams: worst round of {rounds}", worst, 1.0, start, "python -c pass")


def kept_logs(root: Path, count: int) -> None:
    folder = root / "matches"
    folder.mkdir(parents=True, exist_ok=True)
    have = len(list(folder.glob("*.toml")))
    rng = random.Random(10)
    names = [f"Name{i:03}" for i in range(400)]
    for i in range(have, count):
        a, b, c, d = rng.sample(names, 4)
        (folder / f"game{i:05}.toml").write_text(log_text(a, b, c, d), encoding="utf-8")


def over_logs(root: Path, count: int, start: float) -> None:
    kept_logs(root, count)
    t = time.perf_counter()
    summaries, first = index.kept(root)
    ratings.rate_kept(root, summaries)
    build = time.perf_counter() - t
    t = time.perf_counter()
    rated = ratings.rate_kept(root)  # second run: a walk, and the ratings the index remembers
    second = time.perf_counter() - t
    t = time.perf_counter()
    summaries, again = index.kept(root)
    rerate = ratings.rate(ratings.games_of(summaries))
    recomputed = time.perf_counter() - t
    t = time.perf_counter()
    tally = stats.total(index.kept_tallies(root).groups)  # as `stats --all`: SQLite adds up per layout
    tallied = time.perf_counter() - t
    assert [r.name for r in rated] == [r.name for r in rerate]
    t = time.perf_counter()
    for p in (root / "matches").glob("*.toml"):
        p.read_bytes()
    floor = time.perf_counter() - t
    print(f"Standings over {count} kept logs ({tally.matches} matches, {len(rated)} players rated):")
    row(f"first run: index built ({first.read} read), rated", build, None, start, "python -c pass")
    row("second run: ratings standings (remembered)", second, 2.0, start, "python -c pass")
    row(f"  the same, every summary from the index ({again.reused}), rated again", recomputed, 2.0, start,
        "python -c pass")
    row("  stats tally from the index (kept_tallies)", tallied, 2.0, start, "python -c pass")
    row("  (bare python: read every log's bytes once)", floor, None, start, "python -c pass")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--logs", type=int, default=10000)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    start = min(bare_start() for _ in range(5))
    print(f"baseline: python -c pass = {start * 1000:.1f} ms (best of 5)")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        progressive(tmp, args.tables, args.rounds, start)
        swiss(tmp, args.tables, args.rounds, start)
        root = args.keep or tmp / "data"
        os.environ["PITCHKEEPER_HOME"] = str(root)
        over_logs(root, args.logs, start)


if __name__ == "__main__":
    main()
