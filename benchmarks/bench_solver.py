"""The double-dummy solver: whole deals, a recorded hand analysed, the odds of a bid.

    python benchmarks/bench_solver.py [--deals 1000] [--hands 20] [--seed 1] [--only deals|hands|odds]

Issue 21's figures, each beside its goal and a baseline measured in the same run, on the same deals:
1. 1,000 random whole 4-player 6-card deals of seven-point and of trickster-4, solved from the first lead
   (setup included): mean, median, p95 and worst time, nodes per deal; the compiled core (goal: median
   <= 2 ms), the pure-Python core (goal: within 30x of the compiled), and the naive search (the same
   solver with the transposition table and card equivalence off) with each technique off alone, so each
   one's gain is a measured ratio;
2. `analyse hand` of whole recorded hands (every position of the hand, one shared table), compiled
   (goal < 0.5 s), beside the pure core;
3. `analyse odds` with 200 layouts for all four trumps, compiled, for every built-in ruleset that gives odds
   (issue 21's goal: < 2 s; the project's since: <= 1 s), beside the pure core on fewer layouts, scaled to
   200 (said so).
Times are CPU time of this process (time.process_time): on a shared machine, wall time would measure the
neighbours. Prints figures; asserts nothing (speed is measured here, never in tests).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import figure

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import solver_ref as ref  # the tests' random deals and lines of play

import pitchkeeper
from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets, solver

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
HANDS = ("AS KS 5S 2H 9D JC", "AH 10H 3H KD 2C 7S")


def ratio(name: str, value: float, goal: str, ok: bool, baseline: str) -> None:
    """A ratio on benchlib.figure's line (one decimal: a gain of 1.3x is not 1x)."""
    print(f"  {name:<44} {value:>12,.1f} {'x':<8} goal {goal:<14} {'ok' if ok else 'OVER':<5} baseline: {baseline}")


def deals(name: str, count: int, seed: int) -> list[tuple[solver.Deal, solver.Position]]:
    """Random whole deals: Ann bids and leads, trump one of her suits."""
    r = rulesets.load(name)
    rng = random.Random(f"{name}/{seed}")
    out = []
    for _ in range(count):
        deck = sorted(r.deck)
        rng.shuffle(deck)
        held = {p: tuple(deck[i * 6:(i + 1) * 6]) for i, p in enumerate(PLAYERS)}
        trump = rng.choice([c[-1] for c in held["Ann"] if c[-1] in "SHDC"] or ["S"])
        deal = solver.deal_of(r, trump, PLAYERS, TEAMS, "Ann")
        out.append((deal, solver.start_of_play(deal, held, "Ann")))
    return out


def solve_all(ds: list[tuple[solver.Deal, solver.Position]], core: str, tt: bool = True,
              equivalence: bool = True) -> tuple[list[float], list[int], list[int]]:
    times, nodes, values = [], [], []
    for deal, pos in ds:
        t = time.process_time()
        s = solver.Solver(deal, pos, core, tt=tt, equivalence=equivalence)
        values.append(s.value())
        times.append((time.process_time() - t) * 1000)
        nodes.append(s.nodes)
    return times, nodes, values


def stats(times: list[float]) -> tuple[float, float, float, float]:
    xs = sorted(times)
    return statistics.mean(xs), statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))], xs[-1]


def whole_deals(name: str, count: int, seed: int) -> None:
    ds = deals(name, count, seed)
    print(f"\n{name}: {count} random whole 4-player 6-card deals, solved from the first lead")
    runs: dict[str, tuple[list[float], list[int], list[int]]] = {}
    for label, core, tt, eq in (("compiled", "compiled", True, True), ("pure", "pure", True, True),
                                ("compiled, no table", "compiled", False, True),
                                ("compiled, no equivalent cards", "compiled", True, False),
                                ("naive (compiled, neither)", "compiled", False, False)):
        runs[label] = solve_all(ds, core, tt, eq)
        assert runs[label][2] == runs["compiled"][2], f"{label} disagrees"  # every variant: the same values
    c_mean, c_med, c_p95, c_worst = stats(runs["compiled"][0])
    p_mean, p_med, p_p95, _ = stats(runs["pure"][0])
    n_mean, n_med, _, n_worst = stats(runs["naive (compiled, neither)"][0])
    nodes = runs["compiled"][1]
    naive_nodes = runs["naive (compiled, neither)"][1]
    figure("compiled: median per deal", c_med, "ms", "<= 2 ms", c_med <= 2, f"naive search {n_med:.1f} ms")
    figure("compiled: mean per deal", c_mean, "ms", "-", True, f"naive search {n_mean:.1f} ms")
    figure("compiled: p95 per deal", c_p95, "ms", "-", True, f"pure {p_p95:.1f} ms")
    figure("compiled: worst deal", c_worst, "ms", "-", True, f"naive search {n_worst:.1f} ms")
    figure("pure: median per deal", p_med, "ms", "-", True, f"compiled {c_med:.2f} ms")
    ratio("pure / compiled (median)", p_med / c_med, "<= 30x", p_med / c_med <= 30, "1x")
    ratio("pure / compiled (mean)", p_mean / c_mean, "<= 30x", p_mean / c_mean <= 30, "1x")
    figure("nodes per deal (median)", statistics.median(nodes), "nodes", "-", True,
           f"naive {statistics.median(naive_nodes):,.0f}")
    figure("nodes per deal (mean)", statistics.mean(nodes), "nodes", "-", True, f"naive {statistics.mean(naive_nodes):,.0f}")
    for label, short in (("compiled, no table", "gain of the table"),
                         ("compiled, no equivalent cards", "gain of equivalent cards"),
                         ("naive (compiled, neither)", "gain of both (over the naive search)")):
        t, n, _ = runs[label]
        ratio(f"{short}: time", statistics.mean(t) / c_mean, "-", True, f"{label}: {statistics.mean(t):.1f} ms mean")
        ratio(f"{short}: nodes", statistics.mean(n) / statistics.mean(nodes), "-", True,
              f"{label}: {statistics.mean(n):,.0f} nodes mean")


def recorded_hands(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        g = ref.random_game("seven-point", rng, max_players=4)
        st = ref.begin(g)
        for p, c in ref.random_line(g, rng):
            st = ref.after(g, st, p, c)
        rec = ref.record(g, st.done)
        rec["rules"] = "seven-point"
        out.append(rec)
    return out


def analyse_hands(count: int, seed: int) -> None:
    print(f"\nanalyse hand: {count} whole recorded seven-point hands (24 positions each, one shared table)")
    hands = recorded_hands(count, seed)
    for core in ("compiled", "pure"):
        times = []
        for rec in hands:
            t = time.process_time()
            pitchkeeper.analyse_hand(rec, core=core)
            times.append(time.process_time() - t)
        if core == "compiled":
            compiled = times
    _, c_med, _, c_worst = stats(compiled)
    _, p_med, _, p_worst = stats(times)
    figure("analyse hand, compiled: median", c_med, "s", "< 0.5 s", c_med < 0.5, f"pure {p_med:.3f} s")
    figure("analyse hand, compiled: worst", c_worst, "s", "< 0.5 s", c_worst < 0.5, f"pure {p_worst:.3f} s")


def odds(seed: int) -> None:
    print("\nanalyse odds: 200 layouts for all four trumps, every built-in ruleset that gives odds for these hands")
    few = 10
    for name in rulesets.builtin_names():
        for cards in HANDS:
            t = time.process_time()
            try:
                pitchkeeper.bid_odds(cards, name, samples=200, seed=seed, core="compiled")
            except PitchError as e:  # refused in one line (a draw the cards decide needs the hand as dealt)
                print(f"  {name} {cards}: no odds ({e})")
                continue
            compiled = time.process_time() - t
            t = time.process_time()
            pitchkeeper.bid_odds(cards, name, samples=few, seed=seed, core="pure")
            pure = (time.process_time() - t) * 200 / few
            figure(f"{name} {cards}, compiled", compiled, "s", "<= 1 s", compiled <= 1,
                   f"pure {pure:.1f} s ({few} layouts x{200 // few})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("deals", "hands", "odds"), help="one part of the figures")
    args = ap.parse_args()
    have = solver.cores()
    if "compiled" not in have:
        raise SystemExit("the solver's compiled core is not built here (pip install -e . with a C compiler)")
    if args.only in (None, "deals"):
        for name in ("seven-point", "trickster-4"):
            whole_deals(name, args.deals, args.seed)
    if args.only in (None, "hands"):
        analyse_hands(args.hands, args.seed)
    if args.only in (None, "odds"):
        odds(args.seed)


if __name__ == "__main__":
    main()
