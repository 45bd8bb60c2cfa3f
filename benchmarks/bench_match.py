"""Keeping a match as a player feels it: whole processes, wall time, against a bare interpreter.

    python benchmarks/bench_match.py [--runs 15] [--sizes 30,200,1000] [--skip-commands]

The figures of issues 14 and 18, each beside its goal and a baseline measured in the same run
(docs/performance.md keeps the latest; needs the test extra, for tomli-w):
1. every table command on a 30-hand match within 10x a bare `python -c pass` of the same venv
   (interleaved medians): new, hand in each entry form, status, history, undo, edit, judge match,
   export in each format, chart, stats of one log; beside them `import typer` alone, the floor no
   command can go under;
2. (issue 18) hand, undo, edit of the last hand and status on a 200-hand log within 1.5x of their
   cost on 30 hands - each command parses and replays the whole log, there is no cache - and the
   same commands on the other sizes asked for, as figures without a goal; judge match, history and
   export of 1,000 hands under 0.3 s; peak memory of `hand` on the longest log under 40 MiB
   (baseline: the bare interpreter's peak).
Prints figures; asserts nothing (speed is measured here, never in tests).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import tomli_w
from benchlib import BARE, figure, honest_env, interleaved, pitchkeeper_cmd, run_once, show_ratios

from pitchkeeper.game import rulesets, sampling

START_GOAL = 10.0  # x a bare interpreter
GROWTH_GOAL = 1.5  # x the same command on 30 hands
GROWTH_AT = 200  # hands: a long evening (a normal one is 10-60)
BIG_GOAL_S = 0.3  # judge match / history / export of 1,000 hands
MEMORY_GOAL_MIB = 40
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def quick_hand(rng: random.Random, dealer: str) -> str:
    bidder = rng.choice(PLAYERS)
    pts = {"high": rng.choice(["Us", "Them"]), "low": rng.choice(["Us", "Them"])}
    for p in ("jack", "off-jack", "game"):
        if rng.random() < 0.7:
            pts[p] = rng.choice(["Us", "Them"])
    points = ", ".join(f'{k} = "{v}"' for k, v in pts.items())
    return (f'\n[[hands]]\ndealer = "{dealer}"\ntrump = "{rng.choice("SHDC")}"\n'
            f'bid = {{ player = "{bidder}", amount = {rng.randint(2, 4)} }}\npoints = {{ {points} }}\n')


def make_log(pk: list[str], env: dict[str, str], path: Path, hands: int, seed: int) -> None:
    """A seven-point match out of reach of its target, with `hands` quick-entry hands."""
    subprocess.run([*pk, "new", "seven-point", *PLAYERS, "--target", "100000", "--match", str(path)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    rng = random.Random(seed)
    with open(path, "a", encoding="utf-8") as f:
        for i in range(hands):
            f.write(quick_hand(rng, PLAYERS[i % 4]))


def entry_forms(home: Path, dealer: str) -> dict[str, list[str]]:
    """The arguments of `hand` in each entry form, for the next hand (dealt by `dealer`)."""
    rs = rulesets.load("seven-point")
    rng = random.Random(5)
    rec = sampling.random_hand(rs, rng, PLAYERS, TEAMS, dealer=dealer)
    cards = [f"{k}: {' '.join(v)}" for k, v in rec["captured"].items()]
    dealt = [f"{k}: {' '.join(v)}" for k, v in rec["dealt"].items()]
    b = rec["bid"]
    captured = [b["player"], str(b["amount"]), rec["trump"], *[a for c in cards for a in ("-c", c)],
                *[a for d in dealt for a in ("--dealt", d)]]
    played = None
    while played is None:
        played = sampling.random_played(rs, rng, PLAYERS, TEAMS, dealer)
    tricks_file = home / "tricks-hand.toml"
    tricks_file.write_text(tomli_w.dumps(played), encoding="utf-8")
    return {
        "hand (quick: --high --low ...)": ["Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us",
                                           "--game", "Us", "--rest", "none"],
        "hand (quick: -p id=who)": ["Ann", "3", "S", "-p", "high=Us", "-p", "low=Them", "-p", "jack=Us",
                                    "-p", "game=Us", "--rest", "none"],
        "hand (captured: -c WHO: CARDS)": captured,
        "hand (tricks: --from FILE)": ["--from", str(tricks_file)],
    }


def restore(log: Path, text: bytes) -> Callable[[], None]:
    return lambda: log.write_bytes(text)


def table_commands(pk: list[str], env: dict[str, str], home: Path, runs: int) -> None:
    log = home / "thirty.toml"
    make_log(pk, env, log, 30, seed=1)
    base = log.read_bytes()
    m = ["--match", str(log)]
    hand_last = ["Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none"]
    cmds: dict[str, list[str]] = {
        # not a command: the floor every command stands on (the CLI is a Typer app), measured beside them
        "(floor) python -c 'import typer'": [sys.executable, "-c", "import typer"],
        "--version": [*pk, "--version"],
        "--help": [*pk, "--help"],
        "new": [*pk, "new", "seven-point", *PLAYERS, "--match", str(home / "new.toml")],
    }
    before: dict[str, Callable[[], None]] = {"new": lambda: (home / "new.toml").unlink(missing_ok=True)}
    for name, args in entry_forms(home, PLAYERS[30 % 4]).items():
        cmds[name] = [*pk, "hand", *args, *m]
        before[name] = restore(log, base)
    cmds.update({
        "status": [*pk, "status", *m],
        "status --json": [*pk, "status", "--json", *m],
        "history": [*pk, "history", *m],
        "undo": [*pk, "undo", "-y", *m],
        "edit (the last hand)": [*pk, "edit", "30", *hand_last, "-y", *m],
        "judge match": [*pk, "judge", "match", str(log)],
        "judge match --json": [*pk, "judge", "match", str(log), "--json"],
        **{f"export --format {f}": [*pk, "export", "--format", f, *m] for f in ("csv", "json", "md", "html")},
        "chart": [*pk, "chart", *m],
        "stats (one log)": [*pk, "stats", str(log)],
    })
    before.update({"undo": restore(log, base), "edit (the last hand)": restore(log, base)})
    medians = interleaved(cmds, env, runs, before)
    log.write_bytes(base)
    show_ratios("1. table commands on a 30-hand match", medians, START_GOAL)


def growth(pk: list[str], env: dict[str, str], home: Path, runs: int, sizes: list[int]) -> None:
    hand_last = ["Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game", "Us", "--rest", "none"]
    logs = {}
    for n in sizes:
        logs[n] = home / f"log-{n}.toml"
        make_log(pk, env, logs[n], n, seed=2)
    times: dict[tuple[str, int], float] = {}
    for n in sizes:
        log = logs[n]
        base = log.read_bytes()
        m = ["--match", str(log)]
        cmds = {
            "hand": [*pk, "hand", *hand_last, *m],
            "undo": [*pk, "undo", "-y", *m],
            "status": [*pk, "status", *m],
            "edit (the last hand)": [*pk, "edit", str(n), *hand_last, "-y", *m],
        }
        before = {k: restore(log, base) for k in ("hand", "undo", "edit (the last hand)")}
        med = interleaved(cmds, env, runs if n < 5000 else max(3, runs // 3), before)
        log.write_bytes(base)
        for k, v in med.items():
            times[k, n] = v
    small = min(sizes)
    print(f"2. cost against match length (median wall time; goal: {GROWTH_AT} hands within {GROWTH_GOAL:g}x of "
          f"the {small}-hand time; other lengths without a goal)")
    for k in ("hand", "undo", "edit (the last hand)", "status"):
        for n in sizes:
            if n == small:
                continue
            r = times[k, n] / times[k, small]
            base = (f"{small} hands {times[k, small] * 1000:.1f} ms ({r:.2f}x); "
                    f"{BARE} {times[BARE, n] * 1000:.1f} ms")
            if n == GROWTH_AT:
                figure(f"{k}, {n:,} hands", times[k, n] * 1000, "ms", f"<= {GROWTH_GOAL:g}x", r <= GROWTH_GOAL, base)
            else:
                figure(f"{k}, {n:,} hands", times[k, n] * 1000, "ms", "(none)", True, base)
    big = [n for n in sizes if n >= 1000]
    if not big:
        return
    n = min(big)
    log = logs[n]
    m = ["--match", str(log)]
    cmds = {
        "judge match": [*pk, "judge", "match", str(log)],
        "judge match --json": [*pk, "judge", "match", str(log), "--json"],
        "history": [*pk, "history", *m],
        "history --json": [*pk, "history", "--json", *m],
        **{f"export --format {f}": [*pk, "export", "--format", f, *m] for f in ("csv", "json", "md", "html")},
    }
    med = interleaved(cmds, env, max(3, runs // 2))
    for k, v in med.items():
        if k != BARE:
            figure(f"{k}, {n:,} hands", v, "s", f"< {BIG_GOAL_S:g} s", v < BIG_GOAL_S,
                   f"{BARE} {med[BARE] * 1000:.1f} ms")
    n = max(sizes)
    log = logs[n]
    base = log.read_bytes()
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    peaks = {}
    for k, cmd in (("bare", [sys.executable, "-c", "pass"]),
                   ("hand", [*pk, "hand", *hand_last, "--match", str(log)])):
        out = subprocess.run([sys.executable, "-c", probe, *cmd], env=env, capture_output=True, text=True,
                             check=True)
        peaks[k] = int(out.stdout.split()[-1]) / 1024
        log.write_bytes(base)
    figure(f"peak memory of hand, {n:,} hands", peaks["hand"], "MiB", f"< {MEMORY_GOAL_MIB} MiB",
           peaks["hand"] < MEMORY_GOAL_MIB, f"{BARE} {peaks['bare']:.1f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sizes", default="30,200,1000", help="match lengths for the growth figures (30 and 200 "
                    "carry the goal)")
    ap.add_argument("--skip-commands", action="store_true", help="only the growth figures")
    args = ap.parse_args()
    pk = pitchkeeper_cmd()
    home = Path(tempfile.mkdtemp(prefix="pk-bench-"))
    env = honest_env(PITCHKEEPER_HOME=str(home), NO_COLOR="1", COLUMNS="100")
    try:
        run_once([*pk, "--version"], env)
        if not args.skip_commands:
            table_commands(pk, env, home, args.runs)
        growth(pk, env, home, args.runs, sorted(int(s) for s in args.sizes.split(",")))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
