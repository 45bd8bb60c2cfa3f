"""The analysis with every card known, for serve's pages: never on the event loop, never past its budget.

A hand recorded trick by trick gets its par and its costliest card (game.analysis, in words.analysis's
words) on the phone's verdict before Save, in the hand list and on the TV; `/odds` gets `bid_odds`. Both
are searches whose time depends on the hand: a 4-player hand is solved in a blink with the compiled
core, a 7-player one can take seconds, and 200 layouts of 7 players take minutes. So:

- a job runs in a worker process of its own, driven from a thread pool of one thread (the event loop
  only awaits it), and one job at a time: the table's server keeps a core for the pages;
- a job that runs past its budget is stopped - the worker process is killed, and the next job starts
  another - and the page says "not analysed (too long)". A thread cannot be stopped, a process can: a
  hand that would take minutes costs the server its budget, not minutes;
- a page waits for its jobs at most the budget and a little more (a job still queued behind another
  is "still being analysed", and shows once done: the answers are kept, by what was analysed);
- whatever the analysis refuses (a PitchError) is its one line, and anything else is one line too:
  a page never fails because of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import signal
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, bug_line, shown
from pitchkeeper.game import analysis, rulesets
from pitchkeeper.game.odds import bid_odds
from pitchkeeper.words.analysis import verdict_line

BUDGET = 3.0  # seconds of the worker's time for one hand's analysis
ODDS_BUDGET = 8.0  # seconds of the odds worker's time for one question of /odds (200 layouts of 4 players: about one)
START = 60.0  # seconds a new worker process may take to start (its imports, on a busy machine)
GRACE = 2.0  # a page waits for its jobs at most their budget and this (a worker starting, a job finishing)
KEPT = 2048  # answers kept (by what was analysed): a hand analysed before Save is not analysed again
QUEUE = 64  # jobs waiting at most; past that a page is told the analysis is busy
PREFIX = "With every card known"


@dataclass(frozen=True)
class Outcome:
    """What became of one job: "done" (its value), "slow" (stopped at its budget), "error" (the job's one
    line), "failed" (the worker's: it could not start, or died; not kept, the next look tries again),
    "busy" (not done by the time the page was drawn: still queued or running)."""

    kind: str
    value: Any = None
    message: str = ""


# ---------------------------------------------------------------------------
# the worker process


def portable(ruleset: Any) -> tuple[Any, ...]:
    """A ruleset as it travels to the worker: its merged TOML, compiled again there (a compiled ruleset
    keeps the engine's functions once used, and functions do not travel between processes)."""
    return dict(ruleset.raw), tuple(ruleset.chain), tuple(ruleset.overridden_notes)


def _run(job: tuple[str, Any]) -> Any:
    kind, args = job
    if kind == "hand":
        rules, table, hand = args
        return analysis.analyse(rulesets.compile_ruleset(*rules), table, hand)
    if kind == "odds":
        return bid_odds(**{**args, "rules": rulesets.compile_ruleset(*args["rules"])})
    raise PitchError(f"no such job: {kind}")


def serve_jobs(conn: Connection) -> None:
    """The worker process: one job at a time from the pipe, its answer back; ends when the pipe closes (the
    server stopped it, or is gone). Ctrl-C at the server's terminal reaches this process too: the server
    stops it, so it says nothing of it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _serve_jobs(conn)
    except OSError:  # the server went away while a job ran: nobody to answer
        pass


def _serve_jobs(conn: Connection) -> None:
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("done", _run(job))
        except PitchError as e:  # its words, not the CLI's place (`--rules: ...`): a page says where itself
            answer = ("error", shown(" ".join(e.message.split())))
        except Exception as e:  # a bug: one line on the page too, never a broken page; its name on the console
            sys.stderr.write(bug_line(e))
            answer = ("error", "the analysis hit a bug (the console where serve runs shows it); the score is not "
                               "affected")
        conn.send(answer)


class Worker:
    """One worker process, started on first use and again after it was stopped."""

    def __init__(self) -> None:
        self._proc: Any = None
        self._conn: Connection | None = None
        self._lock = threading.Lock()

    def _start(self) -> Connection:
        ctx = multiprocessing.get_context("spawn")  # the same everywhere (Windows and macOS know no other)
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=serve_jobs, args=(child,), daemon=True, name="pitchkeeper-analysis")
        proc.start()
        child.close()
        with self._lock:
            self._proc, self._conn = proc, parent
        if not parent.poll(START) or parent.recv()[0] != "ready":
            raise OSError("the analysis process did not start")
        return parent

    def run(self, job: tuple[str, Any], budget: float) -> Outcome:
        """The job's outcome, within `budget` seconds of the worker's time (else the worker is killed)."""
        try:
            conn = self._conn if self._proc is not None and self._proc.is_alive() else None
            if conn is None:
                self.stop()
                conn = self._start()
            conn.send(job)
            if not conn.poll(budget):
                self.stop()
                return Outcome("slow")
            kind, value = conn.recv()
        except Exception as e:  # no process, a job that cannot be sent, a worker that died: one line
            self.stop()
            sys.stderr.write(f"the analysis worker stopped: {shown(type(e).__name__)}: {shown(str(e))}\n")
            return Outcome("failed", message="the analysis stopped before it finished; the score is not affected")
        return Outcome(kind, value) if kind == "done" else Outcome("error", message=str(value))

    def stop(self) -> None:
        with self._lock:
            proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if proc is not None:
            proc.kill()
            proc.join(5)
        if conn is not None:
            conn.close()


def _awaitable(f: Future[Outcome], loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
    """A future of the loop, done when `f` is. Unlike asyncio.wrap_future, giving up on it leaves the job
    alone (its answer is kept for the next look) and a job done after its loop closed troubles nobody."""
    w: asyncio.Future[None] = loop.create_future()

    def done(_: Future[Outcome]) -> None:
        try:
            loop.call_soon_threadsafe(lambda: None if w.done() else w.set_result(None))
        except RuntimeError:  # that loop is closed: the page was drawn long ago
            pass

    f.add_done_callback(done)
    return w


def _close(pool: ThreadPoolExecutor, worker: Worker) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    worker.stop()


class Analyst:
    """Jobs for one worker, each within `budget` seconds; answers kept by key, a job asked twice run once."""

    def __init__(self, budget: float = BUDGET, queue: int = QUEUE) -> None:
        self.budget = budget
        self.queue = queue
        self._worker = Worker()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pitchkeeper-analysis")
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, Outcome] = OrderedDict()
        self._pending: dict[str, Future[Outcome]] = {}
        self._closed = False
        self._finalizer = weakref.finalize(self, _close, self._pool, self._worker)

    def kept(self, key: str) -> Outcome | None:
        with self._lock:
            return self._kept.get(key)

    def submit(self, key: str, job: tuple[str, Any]) -> Future[Outcome]:
        with self._lock:
            hit = self._kept.get(key)
            f = self._pending.get(key)
            if hit is None and f is None and not self._closed and len(self._pending) < self.queue:
                f = self._pending[key] = self._pool.submit(self._work, key, job)
        if f is None:
            f = Future()
            f.set_result(hit or Outcome("busy"))
        return f

    def _work(self, key: str, job: tuple[str, Any]) -> Outcome:
        out = self._worker.run(job, self.budget)
        with self._lock:
            self._pending.pop(key, None)
            if out.kind != "failed":
                self._kept[key] = out
                while len(self._kept) > KEPT:
                    self._kept.popitem(last=False)
        return out

    async def outcomes(self, jobs: Mapping[str, tuple[str, Any]], wait: float | None = None) -> dict[str, Outcome]:
        """Each job's outcome; those not done within `wait` seconds (default: the budget and a grace) are
        "busy" and go on (their answers kept for the next look)."""
        futures = {k: self.submit(k, job) for k, job in jobs.items()}
        loop = asyncio.get_running_loop()
        waiting = [_awaitable(f, loop) for f in futures.values() if not f.done()]
        if waiting:
            await asyncio.wait(waiting, timeout=self.budget + GRACE if wait is None else wait)
        return {k: f.result() if f.done() else Outcome("busy") for k, f in futures.items()}

    async def outcome(self, key: str, job: tuple[str, Any], wait: float | None = None) -> Outcome:
        return (await self.outcomes({key: job}, wait))[key]

    def close(self) -> None:
        self._closed = True
        self._finalizer()


def pair() -> tuple[Analyst, Analyst]:
    """The two workers a served match uses: par and the costliest card of its hands, and /odds."""
    return Analyst(BUDGET), Analyst(ODDS_BUDGET)


# ---------------------------------------------------------------------------
# hands recorded trick by trick


class Par(NamedTuple):
    """What a page shows of a hand's analysis: its line, and whether it is still being worked out (the page
    then fetches its part again shortly: live.js, `data-analysing`)."""

    text: str
    pending: bool = False


def hand_job(ruleset: Any, table: Any, hand: Any) -> tuple[str, tuple[str, Any]] | None:
    """The key and job of a hand's analysis; None for a hand not recorded trick by trick (nothing to show)."""
    if analysis.not_analysable(hand) is not None:
        return None
    what = repr((ruleset.digest, table.players, table.teams, hand._replace(note="")))
    return hashlib.sha256(what.encode()).hexdigest(), ("hand", (portable(ruleset), table, hand))


def hand_words(o: Outcome, budget: float) -> str:
    """The line a page shows: par and the costliest card, or why there is none."""
    if o.kind == "done":
        return verdict_line(o.value)
    if o.kind == "slow":
        return f"{PREFIX}: not analysed (too long: perfect play takes more than {budget:g} s to work out here)."
    if o.kind in ("error", "failed"):
        return f"{PREFIX}: not analysed ({o.message.rstrip('.')})."
    return f"{PREFIX}: still being analysed (shown here once done)."


async def lines(analyst: Analyst, ruleset: Any, table: Any, hands: Mapping[int, Any]) -> dict[int, Par]:
    """Hand number -> its line, for the hands recorded trick by trick among `hands` (asked in that order)."""
    jobs = {n: j for n, h in hands.items() if (j := hand_job(ruleset, table, h)) is not None}
    if not jobs:
        return {}
    got = await analyst.outcomes(dict(jobs.values()))
    return {n: Par(hand_words(got[key], analyst.budget), got[key].kind == "busy") for n, (key, _) in jobs.items()}


async def of_change(analyst: Analyst, change: Any) -> Par | None:
    """The line of the hand a change adds or corrects (the verdict before Save), or None."""
    k = change.after
    got = await lines(analyst, k.ruleset, k.record.table, {change.number: k.record.hands[change.number - 1]})
    return got.get(change.number)


async def of_snapshot(analyst: Analyst, s: Any, last_only: bool = False) -> dict[int, Par]:
    """The lines of the served match's hands, the newest asked first (the last one only: the TV's verdict)."""
    hands = s.loaded.record.hands
    newest = {n: hands[n - 1] for n in range(len(hands), 0, -1)}
    return await lines(analyst, s.ruleset, s.table, dict(list(newest.items())[:1]) if last_only else newest)
