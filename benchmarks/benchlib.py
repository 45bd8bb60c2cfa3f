"""What every benchmark shares: an honest environment, interleaved timing, and one way to print a figure.

Honest on a fresh clone: a checkout run with PYTHONDONTWRITEBYTECODE set would compile every module
on every start, which no wheel install does. So the package is compiled first, and the commands run
without that variable. Every start-up figure is a ratio to a bare `python -c pass` of the same venv,
measured in the same run, interleaved with the commands so a busy moment hurts them all alike.
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = "python -c pass"
# CPU time (user + system) of the commands timed by the last `interleaved`, as medians (s): steadier than wall
# time on a shared machine, where a run also waits for a core and for fsync
CPU_MEDIANS: dict[str, float] = {}
LAST_CPU = [0.0]  # the CPU time of the last run_once


def honest_env(**extra: str) -> dict[str, str]:
    """The environment commands run in: no PYTHONDONTWRITEBYTECODE, plus `extra`; the package compiled."""
    compileall.compile_dir(str(ROOT / "pitchkeeper"), quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def pitchkeeper_cmd() -> list[str]:
    """The installed console script of this venv (what a user runs), else `python -m pitchkeeper`."""
    script = Path(sys.executable).with_name("pitchkeeper")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pitchkeeper"]


def run_once(cmd: Sequence[str], env: Mapping[str, str], check: bool = True) -> float:
    """Wall time of one whole process, in seconds."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(list(cmd), env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    if check and r.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    return elapsed


def interleaved(cmds: Mapping[str, Sequence[str]], env: Mapping[str, str], runs: int,
                before: Mapping[str, Callable[[], None]] | None = None) -> dict[str, float]:
    """Median wall time (s) of each command over `runs` interleaved rounds, the bare interpreter included.

    `before[name]` runs ahead of each run of that command (to put a log back as it was, say) and
    is not timed. One warm-up round fills the file cache and writes byte code.
    """
    before = before or {}
    allc = {BARE: [sys.executable, "-c", "pass"], **cmds}
    for name, cmd in allc.items():
        if name in before:
            before[name]()
        run_once(cmd, env)
    times: dict[str, list[float]] = {k: [] for k in allc}
    cpu: dict[str, list[float]] = {k: [] for k in allc}
    for _ in range(runs):
        for name, cmd in allc.items():
            if name in before:
                before[name]()
            times[name].append(run_once(cmd, env))
            cpu[name].append(LAST_CPU[0])
    CPU_MEDIANS.clear()
    CPU_MEDIANS.update({k: statistics.median(v) for k, v in cpu.items()})
    return {k: statistics.median(v) for k, v in times.items()}


def show_ratios(title: str, medians: Mapping[str, float], goal: float) -> None:
    """Each command's median beside the bare interpreter's, its ratio, and the goal ratio; then the same
    in CPU time (user + system) when `interleaved` measured it (the steadier column on a busy machine)."""
    bare = medians[BARE]
    cpu = CPU_MEDIANS if set(CPU_MEDIANS) == set(medians) and CPU_MEDIANS[BARE] > 0 else {}
    print(f"{title} (median wall time; baseline {BARE} = {bare * 1000:.1f} ms, same run, interleaved"
          + (f"; CPU time, baseline {cpu[BARE] * 1000:.1f} ms)" if cpu else ")"))
    for name, m in medians.items():
        if name == BARE:
            continue
        ratio = m / bare
        line = (f"  {name:<44} {m * 1000:7.1f} ms  {ratio:5.1f}x bare   goal <= {goal:g}x   "
                f"{'ok' if ratio <= goal else 'OVER':<4}")
        if cpu:
            c = cpu[name] / cpu[BARE]
            line += f"   cpu {cpu[name] * 1000:6.1f} ms  {c:5.1f}x  {'ok' if c <= goal else 'OVER'}"
        print(line)


def figure(name: str, value: float, unit: str, goal: str, ok: bool, baseline: str) -> None:
    """One figure, its goal and its baseline on one line."""
    digits = 3 if unit == "s" else 1 if unit in ("ms", "MiB") else 0
    print(f"  {name:<44} {value:>12,.{digits}f} {unit:<8} goal {goal:<14} {'ok' if ok else 'OVER':<5} baseline: {baseline}")
