"""The scoring engine beside a naive scorer, and the start-up of the commands that need no match.

    python benchmarks/bench_core.py [--hands 30000] [--runs 15] [--skip-startup] [--skip-engine] [--skip-house]

Each figure beside its goal and a baseline measured in the same run (issue 18):
4. verdicts per second (of CPU time, best pass) of the one engine (game.scoring.verdict) on hands entered as
   captured cards and by quick entry, each beside the naive independent scorer (benchmarks/naive_scorer.py)
   on the same deals, passes interleaved: goal, not slower than the naive scorer. Hands recorded trick by
   trick (the held cards given, every play checked) have no naive baseline: they are shown beside the same
   deals entered as the captured cards and the dealt cards their tricks give.
5. verdicts per second of hands of five house files (issue 22: a called partner, a kitty and lay-away, a draw,
   a moon, count-down with an instant win), each beside the built-ins' rate for the same form, measured in the
   same run (no goal).
1. `--version`, `--help`, `judge hand` (and --json), `judge trick`, `rules list/show/explain/diff`
   within 10x a bare `python -c pass` of the same venv (interleaved medians).
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


def side_by_side(a: Callable[..., Any], deals_a: Sequence[tuple[Any, ...]], b: Callable[..., Any],
                 deals_b: Sequence[tuple[Any, ...]], rounds: int = 4) -> tuple[float, float]:
    """The best rates of `a` and `b`, their passes interleaved so that a busy moment hurts both."""
    ra, rb = 0.0, 0.0
    for _ in range(rounds):
        ra = max(ra, best_rate(a, deals_a, 2))
        rb = max(rb, best_rate(b, deals_b, 2))
    return ra, rb


def as_captured(rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Hands recorded trick by trick, entered instead as the captured cards their tricks give, with who
    played each card as the dealt cards (what the engine reads from the tricks)."""
    from pitchkeeper.game import play

    out = []
    for rs, table, hand, *rest in rows:
        rep = play.replay(rs, table, hand)
        dealt: dict[str, list[str]] = {}
        for t in rep.tricks:
            for p, c in t.plays:
                dealt.setdefault(p, []).append(c)
        out.append((rs, table, hand._replace(tricks=None, held=(), captured=rep.captured,
                                            dealt=tuple((p, tuple(cs)) for p, cs in dealt.items())), *rest))
    return out


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
    print(f"4. the one engine ({len(deals.NAMES)} built-in rulesets in turn; deals made in {made:.1f} s)")
    for name, rows in (("captured cards", captured), ("quick entry", quick)):
        eng, nav = side_by_side(verdict, rows, naive.judge, rows)
        figure(f"{name}, {len(rows):,} hands", eng, "hands/s", ">= naive", eng >= nav,
               f"naive scorer {nav:,.0f} hands/s on the same deals ({eng / nav:.2f}x)")
    again = as_captured(tricks)
    for (rs, table, hand, _), (_, _, flat, _) in zip(tricks[:200], again[:200], strict=True):
        assert scoring.verdict(rs, table, hand).to_json() == scoring.verdict(rs, table, flat).to_json()
    t_eng, t_flat = side_by_side(verdict, tricks, verdict, again, rounds=3)
    figure(f"trick by trick (held given), {len(tricks):,} hands", t_eng, "hands/s", "none", True,
           f"the same deals as captured and dealt cards: {t_flat:,.0f} hands/s ({t_eng / t_flat:.2f}x)")


HOUSE = ("call-partner-5", "minnesota-smear", "trickster-10-draw", "moon-10", "bicycle-smudge")


def house_deals(name: str, n: int, quick: bool, played: bool = False) -> list[tuple[Any, ...]]:
    """n hands of a house file of examples/house-rules, through its kitty, draw or called partner."""
    from pitchkeeper.game import records, rulesets, sampling

    rs = rulesets.load(Path(__file__).resolve().parent.parent / "examples" / "house-rules" / f"{name}.toml")
    rng = random.Random(5)
    out: list[tuple[Any, ...]] = []
    while len(out) < n:
        players, teams = sampling.random_table(rs, rng, seating="any")
        if played:
            rec = sampling.random_played(rs, rng, players, teams)
            if rec is None:
                continue
        else:
            rec = sampling.random_hand(rs, rng, players, teams, quick=quick)
        table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
        out.append((rs, table, records.parse_hand(rec, table)))
    return out


def bench_house(n: int) -> None:
    """Issue 22's mechanisms where they are used: the verdict rate of hands of five house files, each
    beside the same run's rate for the built-ins' hands of the same form (no goal: the mechanisms cost
    what they check; where absent they cost nothing, which section 4 shows against the naive scorer)."""
    import deals

    from pitchkeeper.game import scoring

    verdict = scoring.verdict
    built = {"captured cards": deals.sampled(n, quick=False), "quick entry": deals.sampled(n, quick=True, seed=8),
             "trick by trick": deals.played(max(300, n // 10))}
    base = {form: best_rate(verdict, rows, 3) for form, rows in built.items()}
    print(f"5. issue 22's house rules (examples/house-rules), {n:,} hands each, beside the built-ins' hands")
    for name in HOUSE:
        for form, quick, played in (("captured cards", False, False), ("quick entry", True, False),
                                    ("trick by trick", False, True)):
            rows = house_deals(name, n if not played else max(300, n // 10), quick, played)
            rate = best_rate(verdict, rows, 3)
            figure(f"{name}, {form}", rate, "hands/s", "none", True,
                   f"built-ins {base[form]:,.0f} hands/s ({rate / base[form]:.2f}x)")


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
    ap.add_argument("--skip-house", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    if not args.skip_engine:
        bench_engine(args.hands)
    if not args.skip_house:
        bench_house(max(1000, args.hands // 10))
    if not args.skip_startup:
        bench_startup(args.runs)


if __name__ == "__main__":
    main()
