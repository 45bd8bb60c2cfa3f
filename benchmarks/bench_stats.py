"""Benchmark: `pitchkeeper stats --all` over 10,000 generated match logs.

    python benchmarks/bench_stats.py [--matches 10000] [--runs 5] [--seed 5] [--keep DIR]

--keep DIR generates into DIR and keeps the logs; a second run with the same DIR reuses them.

The logs are realistic: random but valid hands (pitchkeeper.game.sampling) of every built-in ruleset,
half in quick entry (`points`), half with the cards `captured`, bids made two times in three; each
match is played until the ruleset ends the game (15% are cut short, as matches still being played).
They are written as the match log format (one [[hands]] table per hand) under
PITCHKEEPER_HOME/matches, and `stats --all` runs in a subprocess with PITCHKEEPER_HOME pointing
there: the time includes start-up, reading, replaying and printing. Goal (issue 14, item 3): under
1 s for 10,000 logs on a second run (the first may build an index), and with one log changed since
(the index reads that one again). A later run still reads every log's bytes: the index knows a log
by a digest of them (issue 18), not by its size and times. Each figure is printed beside a bare `python -c pass` of the same
venv; the package is compiled first and PYTHONDONTWRITEBYTECODE removed (benchlib). Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tomli_w
from benchlib import BARE, figure, honest_env, pitchkeeper_cmd, run_once

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match, records, rulesets, sampling, scoring

ROOT = Path(__file__).resolve().parent.parent
MAX_HANDS = 60
MADE_RATE = 2 / 3
CHUNK = 8  # hands dealt at a time while a game goes on
GOAL_S = 1.0


def _sampled(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: Any, dealer: str,
             quick: bool) -> dict[str, Any]:
    hand = sampling.random_hand(rs, rng, players, teams, dealer=dealer, quick=quick)
    if "captured" in hand and not hand.get("points", True):
        del hand["points"]  # the sampler leaves an empty `points` beside `captured` when nobody scored
    if hand["bid"]["amount"] == 0:  # pitching without a contract is eldest hand's (left of the dealer)
        hand["bid"]["player"] = players[(players.index(dealer) + 1) % len(players)]
    return hand


def _hand(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: Any, dealer: str,
          quick: bool) -> dict[str, Any]:
    """A sampled hand whose bid is made about two times in three, as at a real table.

    The sampler hands tricks out at random, so its bidders are set nearly nine times in ten and
    games to 32 never end; drawing until the outcome matches a made rate of 2/3 keeps match lengths
    realistic (about 8-20 hands).
    """
    want_made = rng.random() < MADE_RATE
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    for attempt in range(60):
        hand = _sampled(rs, rng, players, teams, dealer, quick)
        if want_made and attempt >= 30 and isinstance(hand["bid"]["amount"], int) and hand["bid"]["amount"]:
            hand["bid"]["amount"] = rs.settings["bidding"]["min"]  # a bid this table can make
        try:
            if scoring.verdict(rs, table, records.parse_hand(hand, table)).bid.made == want_made:
                return hand
        except PitchError:
            pass  # the replay in make_match deals a refused hand again
    return hand


def _hand_number(e: PitchError) -> int | None:
    where = e.where or ""
    if not where.startswith("hands["):
        return None
    return int(where.split("[", 1)[1].split("]", 1)[0])


def make_match(rs: rulesets.Ruleset, rng: random.Random) -> dict[str, Any]:
    """One match log as a table: a random table, then hands until the game is won (or cut short).

    The log is replayed to find where the game ends (the first hand after the winning one is
    refused); a sampled hand the engine refuses for any other reason is dealt again.
    """
    players, teams = sampling.random_table(rs, rng)
    header: dict[str, Any] = {"rules": rs.name, "players": players}
    if teams:
        header["teams"] = teams
    header["first_dealer"] = players[0]
    quick = rng.random() < 0.5
    dealers = [players[i % len(players)] for i in range(MAX_HANDS)]
    hands: list[dict[str, Any]] = []
    ended = 0
    for _ in range(400):
        if len(hands) == ended:  # the game goes on: deal the next few hands
            if ended >= MAX_HANDS:
                break
            hands += [_hand(rs, rng, players, teams, d, quick) for d in dealers[ended:ended + CHUNK]]
        try:
            state = match.replay(rs, match.parse_match({**header, "hands": hands}))
        except PitchError as e:
            k = _hand_number(e)
            if k is None:
                raise
            if "already won" in e.message:
                ended = k - 1
                break
            hands[k - 1] = _hand(rs, rng, players, teams, dealers[k - 1], quick)
            continue
        ended = len(hands)
        if state.ending is not None:
            break
    else:
        raise SystemExit(f"{rs.name}: could not sample a valid match")
    if rng.random() < 0.15:  # a match still being played
        ended = rng.randint(1, ended)
    return {**header, "hands": hands[:ended]}


def generate(root: Path, n: int, seed: int) -> tuple[int, float]:
    """Write n logs under root/matches; (hands written, seconds taken)."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    names = rulesets.builtin_names()
    loaded = {name: rulesets.load(name) for name in names}
    folder = root / "matches"
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        data = make_match(loaded[names[i % len(names)]], rng)
        total += len(data["hands"])
        (folder / f"match-{i + 1:04d}.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    return total, time.perf_counter() - t0


CPU: list[float] = []  # CPU seconds (user + system) of each timed run, beside its wall time


def time_stats(home: Path, env: dict[str, str], runs: int, *extra: str,
               before: Any = None) -> tuple[list[float], str]:
    """`stats --all` timed `runs` times; `before()` runs (untimed) ahead of each run."""
    import resource

    cmd = [*pitchkeeper_cmd(), "stats", "--all", *extra]
    times = []
    out = ""
    CPU.clear()
    for _ in range(runs):
        if before is not None:
            before()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        if p.returncode != 0 or p.stderr:
            raise SystemExit(f"stats failed ({p.returncode}): {p.stderr[-2000:]}")
        out = p.stdout
    return times, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--keep", type=Path, help="generate into this folder and keep it (reused when it is full)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pk-bench-stats-") as tmp:
        home = args.keep or Path(tmp)
        logs = sorted((home / "matches").glob("*.toml"))
        if args.keep and len(logs) == args.matches:
            print(f"reusing {len(logs)} match logs under {home}")
        else:
            hands, gen_s = generate(home, args.matches, args.seed)
            logs = sorted((home / "matches").glob("*.toml"))
            print(f"generated {args.matches} match logs, {hands} hands ({hands / args.matches:.1f} a log) "
                  f"in {gen_s:.1f} s under {home}")
        print(f"{sum(f.stat().st_size for f in logs) / 1e6:.1f} MB of TOML")
        env = honest_env(PITCHKEEPER_HOME=str(home), NO_COLOR="1", COLUMNS="100")
        first = time_stats(home, env, 1, "--json")[0][0]
        bare = [run_once([sys.executable, "-c", "pass"], env) for _ in range(args.runs)]
        print(f"3. stats --all over {len(logs):,} logs (goal: under {GOAL_S:g} s on a second run)")
        figure("stats --all --json, first run", first, "s", "(none)", True,
               f"{BARE} {statistics.median(bare) * 1000:.1f} ms")
        changed = iter(logs[::max(1, len(logs) // (args.runs + 1))])

        def touch_one() -> None:  # a log written since the last run: its bytes change (a note added), as a hand does
            with open(next(changed), "a", encoding="utf-8") as f:
                f.write("# seen\n")

        for label, extra, before in (("stats --all --json, later runs", ("--json",), None),
                                     ("stats --all (tables), later runs", (), None),
                                     ("stats --all --json, one log changed before each", ("--json",), touch_one)):
            times, _ = time_stats(home, env, args.runs, *extra, before=before)
            bare.append(run_once([sys.executable, "-c", "pass"], env))
            m = statistics.median(times)
            figure(label, m, "s", f"< {GOAL_S:g} s", m < GOAL_S,
                   f"{BARE} {statistics.median(bare) * 1000:.1f} ms; best {min(times):.3f} s of {args.runs}")
            cpu = statistics.median(CPU)
            figure("  the same, CPU time (user + system)", cpu, "s", f"< {GOAL_S:g} s", cpu < GOAL_S,
                   "wall time exceeds it only by waiting for a busy machine")


if __name__ == "__main__":
    main()
