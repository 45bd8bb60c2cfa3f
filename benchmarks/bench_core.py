"""Core benchmarks: verdicts per second in-process, and the start-up of the table commands.

    python benchmarks/bench_core.py [--hands 100000] [--runs 20]

Prints figures; asserts nothing (speed is measured here, never in tests). Targets from issue 2:
the engine at 50,000 verdicts/s or more; `--version`, `judge hand` and `judge hand --json`
each within 8x a bare `python -c pass` of the same interpreter.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomli_w

from pitchkeeper.game import records, rulesets, sampling, scoring

ROOT = Path(__file__).resolve().parent.parent


def make_hands(n: int, seed: int = 7) -> list[tuple[rulesets.Ruleset, records.Table, records.Hand]]:
    """n random hands, spread evenly over every built-in ruleset, parsed as a record file would be."""
    rng = random.Random(seed)
    names = rulesets.builtin_names()
    loaded = {name: rulesets.load(name) for name in names}
    out = []
    for i in range(n):
        rs = loaded[names[i % len(names)]]
        players, teams = sampling.random_table(rs, rng)
        table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
        hand = records.parse_hand(sampling.random_hand(rs, rng, players, teams), table)
        out.append((rs, table, hand))
    return out


def bench_engine(n: int) -> None:
    t0 = time.perf_counter()
    hands = make_hands(n)
    made = time.perf_counter() - t0
    gc.collect()
    gc.freeze()  # the 100k prepared hands are not garbage: keep the collector from rescanning them
    verdict = scoring.verdict
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        for rs, table, hand in hands:
            verdict(rs, table, hand)
        dt = time.perf_counter() - t0
        best = max(best, n / dt)
    gc.unfreeze()
    print(f"engine: {n:,} random hands over {len(rulesets.builtin_names())} rulesets (made in {made:.1f} s)")
    print(f"  verdicts per second (best of 3 passes): {best:,.0f}   target >= 50,000   "
          f"{'OK' if best >= 50_000 else 'OVER TARGET'}")


def _median_ms(cmd: list[str], runs: list[float]) -> None:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    runs.append((time.perf_counter() - t0) * 1000)


def bench_startup(runs: int) -> None:
    exe = str(Path(sys.executable).parent / "pitchkeeper")
    with tempfile.TemporaryDirectory() as d:
        rng = random.Random(3)
        rs = rulesets.load("seven-point")
        players, teams = sampling.random_table(rs, rng)
        record = {"rules": "seven-point", "players": players, **({"teams": teams} if teams else {}),
                  **sampling.random_hand(rs, rng, players, teams)}
        hand_file = Path(d) / "hand.toml"
        hand_file.write_text(tomli_w.dumps(record), encoding="utf-8")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "pitchkeeper --version": [exe, "--version"],
            "pitchkeeper judge hand": [exe, "judge", "hand", str(hand_file)],
            "pitchkeeper judge hand --json": [exe, "judge", "hand", str(hand_file), "--json"],
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        for cmd in commands.values():  # warm the file cache once
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        for _ in range(runs):  # interleaved, so a busy moment hurts every command alike
            for name, cmd in commands.items():
                _median_ms(cmd, times[name])
    base = statistics.median(times["python -c pass"])
    print(f"start-up: median wall time of {runs} interleaved runs each")
    for name, ts in times.items():
        med = statistics.median(ts)
        ratio = med / base
        verdict = "" if name.startswith("python") else ("OK" if ratio <= 8 else "OVER TARGET")
        print(f"  {name:32s} {med:7.1f} ms   {ratio:4.1f}x   {verdict}")
    print("  target: each command within 8x the bare interpreter")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    bench_engine(args.hands)
    bench_startup(args.runs)


if __name__ == "__main__":
    main()
