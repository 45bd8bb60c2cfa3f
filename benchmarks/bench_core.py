"""The engine against a naive scorer, and the start-up of the commands that need no match.

    python benchmarks/bench_core.py [--hands 30000] [--runs 15] [--skip-startup]

Issue 14's figures, each beside its goal and a baseline measured in the same run:
4. verdicts per second (of CPU time, best pass) on captured-card hands, >= 2x the naive independent scorer
   (benchmarks/naive_scorer.py) on the same deals; quick entry >= 300,000 hands/s; hands recorded
   trick by trick (with the held cards, every play checked) >= 20,000 hands/s; and, with no goal, both
   entry forms at first sight (a fresh engine and naive scorer for one pass: nothing kept from before);
1. `--version`, `--help`, `judge hand` (and --json), `judge trick`, `rules list/show/explain/diff`
   within 10x a bare `python -c pass` of the same venv (interleaved medians; issue 18).
Prints figures; asserts nothing (speed is measured here, never in tests).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tomli_w
from benchlib import figure, honest_env, interleaved, pitchkeeper_cmd, show_ratios

START_GOAL = 10.0


def best_rate(fn: Callable[[Any, Any, Any], Any], deals: Sequence[tuple[Any, ...]], passes: int = 5) -> float:
    """Hands per second of CPU time: the best of `passes` passes over the deals (the collector kept off
    the deals). CPU time, not wall time: on a shared machine other processes would otherwise decide."""
    gc.collect()
    gc.freeze()
    best = 0.0
    try:
        for _ in range(passes):
            t0 = time.process_time()
            for rs, table, hand, *_ in deals:
                fn(rs, table, hand)
            best = max(best, len(deals) / max(time.process_time() - t0, 1e-9))
    finally:
        gc.unfreeze()
    return best


def bench_engine(n: int) -> None:
    import deals
    from naive_scorer import NaiveScorer

    from pitchkeeper.game import scoring

    t0 = time.perf_counter()
    captured = deals.sampled(n, quick=False)
    quick = deals.sampled(n, quick=True, seed=8)
    tricks = deals.played(max(1000, n // 10))
    made = time.perf_counter() - t0
    naive = NaiveScorer()
    for rs, table, hand, _ in captured[:200] + quick[:200]:  # the baseline agrees before it is timed
        assert naive.judge(rs, table, hand) == scoring.verdict(rs, table, hand).to_json()
    verdict = scoring.verdict
    print(f"4. the engine ({len(deals.NAMES)} built-in rulesets in turn; deals made in {made:.1f} s)")
    # interleave engine and baseline passes, so a busy moment hurts both
    rates: dict[str, list[float]] = {"engine": [], "naive": []}
    for _ in range(4):
        rates["engine"].append(best_rate(verdict, captured, 2))
        rates["naive"].append(best_rate(naive.judge, captured, 2))
    eng, nav = max(rates["engine"]), max(rates["naive"])
    figure(f"captured cards, {len(captured):,} hands", eng, "hands/s", ">= 2x naive", eng >= 2 * nav,
           f"naive scorer {nav:,.0f} hands/s on the same deals ({eng / nav:.2f}x)")
    q_eng = max(best_rate(verdict, quick, 3), best_rate(verdict, quick, 3))
    q_nav = best_rate(naive.judge, quick, 3)
    figure(f"quick entry, {len(quick):,} hands", q_eng, "hands/s", ">= 300,000", q_eng >= 300_000,
           f"naive scorer {q_nav:,.0f} hands/s ({q_eng / q_nav:.2f}x)")
    t_eng = best_rate(verdict, tricks, 3)
    figure(f"trick by trick (held given), {len(tricks):,} hands", t_eng, "hands/s", ">= 20,000",
           t_eng >= 20_000, f"the same deals entered as captured cards: {eng:,.0f} hands/s")
    # The passes above judge the same deals again, so whatever the engine keeps per table (its compiled
    # rulesets, tables and, for quick entry, the entries it has judged there) is warm. At first sight
    # nothing is: each pass below gets rulesets loaded afresh (a new compiled form, new tables' seats)
    # and a new naive scorer, and the hands at equal tables share one table object, as a match log's
    # hands do. Entries still recur within a pass, as at a table.
    print("  first sight (a fresh engine and naive scorer for each single pass; no goal, for comparison):")
    for name, rows in (("captured cards", captured), ("quick entry", quick)):
        f_eng, f_nav = first_sight(rows, verdict), first_sight(rows, None)
        print(f"    {name + f', {len(rows):,} hands':<42} {f_eng:>12,.0f} hands/s  naive scorer {f_nav:,.0f} "
              f"hands/s ({f_eng / f_nav:.2f}x)")


def first_sight(deals_: Sequence[tuple[Any, ...]], verdict: Callable[..., Any] | None, passes: int = 3) -> float:
    """Hands per second of one pass over deals no engine has seen: the rulesets loaded again (their
    compiled forms are made on first use), or a new naive scorer when `verdict` is None; the best of
    `passes`."""
    from naive_scorer import NaiveScorer

    from pitchkeeper.game import rulesets

    best = 0.0
    for _ in range(passes):
        fresh = {name: rulesets.load(name) for name in {rs.name for rs, *_ in deals_}}
        tables: dict[Any, Any] = {}  # equal tables as one object
        rows = [(fresh[rs.name], tables.setdefault(table, table), hand) for rs, table, hand, *_ in deals_]
        judge = verdict or NaiveScorer().judge
        best = max(best, best_rate(judge, rows, 1))
    return best


def bench_startup(runs: int) -> None:
    from pitchkeeper.game import rulesets, sampling

    pk = pitchkeeper_cmd()
    with tempfile.TemporaryDirectory() as d:
        env = honest_env(PITCHKEEPER_HOME=d, NO_COLOR="1", COLUMNS="100")
        rng = random.Random(3)
        rs = rulesets.load("seven-point")
        players, teams = sampling.random_table(rs, rng)
        record = {"rules": "seven-point", "players": players, **({"teams": teams} if teams else {}),
                  **sampling.random_hand(rs, rng, players, teams)}
        hand_file = Path(d) / "hand.toml"
        hand_file.write_text(tomli_w.dumps(record), encoding="utf-8")
        trick = ["judge", "trick", "-r", "seven-point", "-t", "S", "-c", "Ann:JC Bob:AC Cy:5C Dee:2S",
                 "--held", "Bob:AC KC 4D"]
        cmds = {
            "--version": [*pk, "--version"],
            "--help": [*pk, "--help"],
            "judge hand": [*pk, "judge", "hand", str(hand_file)],
            "judge hand --json": [*pk, "judge", "hand", str(hand_file), "--json"],
            "judge trick": [*pk, *trick],
            "judge trick --json": [*pk, *trick, "--json"],
            "rules list": [*pk, "rules", "list"],
            "rules show seven-point": [*pk, "rules", "show", "seven-point"],
            "rules explain off-jack": [*pk, "rules", "explain", "off-jack", "-r", "seven-point"],
            "rules diff seven-point trickster-10": [*pk, "rules", "diff", "seven-point", "trickster-10"],
        }
        medians = interleaved(cmds, env, runs)
    show_ratios("1. commands that need no match", medians, START_GOAL)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30_000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--skip-startup", action="store_true")
    ap.add_argument("--skip-engine", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    if not args.skip_engine:
        bench_engine(args.hands)
    if not args.skip_startup:
        bench_startup(args.runs)


if __name__ == "__main__":
    main()
