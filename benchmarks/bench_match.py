"""How long keeping a match takes, as a player feels it: whole processes, wall time.

    python benchmarks/bench_match.py [--runs 20]

Prints the median wall time of every table command (`new`, `hand`, `edit`, `undo`, `status`,
`history`, `matches`, `check`) on a 30-hand match against a bare `python -c pass` (runs
interleaved, so a busy machine slows them all alike), and the time of `judge match --json` on a
generated 10,000-hand log (its target set out of reach).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_RATIO = 8.0  # a table command: at most 8x a bare interpreter start
HAND_RATIO = 7.0  # `hand`, the command typed after every deal: at most 7x
BIG_BUDGET_S = 2.0  # judge match --json of 10,000 hands


def pitchkeeper_cmd() -> list[str]:
    script = Path(sys.executable).with_name("pitchkeeper")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pitchkeeper"]


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if r.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr.decode()}")
    return elapsed


def quick_hand(rng: random.Random, dealer: str) -> str:
    bidder = rng.choice(["Ann", "Bob", "Cy", "Dee"])
    pts = {"high": rng.choice(["Us", "Them"]), "low": rng.choice(["Us", "Them"])}
    for p in ("jack", "off-jack", "game"):
        if rng.random() < 0.7:
            pts[p] = rng.choice(["Us", "Them"])
    points = ", ".join(f'{k} = "{v}"' for k, v in pts.items())
    return (f'\n[[hands]]\ndealer = "{dealer}"\ntrump = "{rng.choice("SHDC")}"\n'
            f'bid = {{ player = "{bidder}", amount = {rng.randint(2, 4)} }}\npoints = {{ {points} }}\n')


def make_log(pk: list[str], env: dict[str, str], path: Path, hands: int, seed: int) -> None:
    """A seven-point match out of reach of its target, with `hands` quick-entry hands."""
    subprocess.run([*pk, "new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--target", "10000",
                    "--match", str(path)], env=env, check=True, stdout=subprocess.DEVNULL)
    rng = random.Random(seed)
    players = ["Ann", "Bob", "Cy", "Dee"]
    with open(path, "a", encoding="utf-8") as f:
        for i in range(hands):
            f.write(quick_hand(rng, players[i % 4]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    pk = pitchkeeper_cmd()
    home = Path(tempfile.mkdtemp(prefix="pk-bench-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PITCHKEEPER_HOME=str(home), NO_COLOR="1", COLUMNS="100")
    try:
        log = home / "thirty.toml"
        make_log(pk, env, log, 30, seed=1)
        base = log.read_bytes()
        hand = [*pk, "hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none",
                "--match", str(log)]
        fresh = home / "fresh.toml"
        cmds = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "--version (CLI floor)": [*pk, "--version"],
            "hand (30-hand match)": hand,
            "status": [*pk, "status", "--match", str(log)],
            "status --json": [*pk, "status", "--json", "--match", str(log)],
            "new": [*pk, "new", "seven-point", "Ann", "Bob", "Cy", "Dee", "--match", str(fresh)],
            "edit --dry-run": [*pk, "edit", "30", "--jack", "Them", "--dry-run", "--match", str(log)],
            "undo --yes": [*pk, "undo", "--yes", "--match", str(log)],
            "history": [*pk, "history", "--match", str(log)],
            "history --json": [*pk, "history", "--json", "--match", str(log)],
            "matches": [*pk, "matches"],
            "check": [*pk, "check", str(log)],
        }
        writes = ("hand", "undo")  # each run starts from the 30-hand log

        def run(name: str, cmd: list[str]) -> float:
            if name.startswith(writes):
                log.write_bytes(base)
            fresh.unlink(missing_ok=True)
            return timed(cmd, env)

        for name, cmd in cmds.items():  # warm up: byte code written, caches filled
            run(name, cmd)
        log.write_bytes(base)
        subprocess.run([*pk, "status", "--match", str(log)], env=env, check=True, stdout=subprocess.DEVNULL)
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(args.runs):
            for name, cmd in cmds.items():
                times[name].append(run(name, cmd))
        log.write_bytes(base)
        bare = statistics.median(times["python -c pass"])
        print(f"median of {args.runs} interleaved runs (wall time of the whole process)")
        for name, ts in times.items():
            m = statistics.median(ts)
            goal = HAND_RATIO if name.startswith("hand") else BUDGET_RATIO
            verdict = "" if name.startswith("python") else f"  {m / bare:4.1f}x" if name.startswith("--") else (
                f"  {m / bare:4.1f}x  {'ok' if m / bare <= goal else 'OVER'} (goal {goal:g}x)")
            print(f"  {name:<24} {m * 1000:7.1f} ms{verdict}")
        big = home / "ten-thousand.toml"
        make_log(pk, env, big, 10_000, seed=2)
        judge = [*pk, "judge", "match", str(big), "--json"]
        runs = [timed(judge, env) for _ in range(3)]
        m = statistics.median(runs)
        print(f"  judge match --json, 10,000 hands ({big.stat().st_size // 1024} KiB): {m:.2f} s  "
              f"{'ok' if m <= BIG_BUDGET_S else 'OVER'} (budget {BIG_BUDGET_S:g} s)")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
