"""A per-log index: one summary row per kept file, in SQLite in the data folder.

The files stay the truth. The index only remembers what reading each file gave (its kind, rules,
players, teams, final scores, winner, and the per-player / per-side figures `stats` sums), keyed by
the file's path, modification time and size; a refresh re-reads exactly the files whose time or
size changed, adds new ones and forgets removed ones. Deleting the index file loses nothing:
the next refresh rebuilds it. A damaged index is rebuilt the same way.

Tournament files kept in the data folder are indexed too (kind "tournament", their recorded games
as figures), so ratings can count every game kept.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError

INDEX_NAME = "index.sqlite3"
SCHEMA = 4  # bump when a summary's content changes: every row is then re-read


@dataclass(frozen=True, slots=True)
class Summary:
    """What one file held. `kind`: "match", "tournament", "other" (a TOML file that is neither) or "error"."""

    path: str
    mtime_ns: int
    size: int
    kind: str
    rules: str | None = None
    players: tuple[str, ...] = ()
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()  # () in individual play
    hands: int = 0
    scores: dict[str, int] | None = None  # side -> final score
    winner: str | None = None
    finished: bool = False
    error: str | None = None  # one line naming the file
    # match: stats.MatchFigures as JSON; tournament: its games. Read from the index it stays JSON text
    # until asked for (`figures`): the largest column, and a walk for ratings never needs it.
    figures_data: dict[str, Any] | str | None = field(default=None, compare=False)

    @property
    def figures(self) -> dict[str, Any] | None:
        f = self.figures_data
        return json.loads(f) if isinstance(f, str) else f

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Summary):
            return NotImplemented
        return _row(self) == _row(other)

    __hash__ = None  # type: ignore[assignment]

    def match_figures(self) -> Any:
        """The stats figures of a match log (stats.MatchFigures), as `stats.merge` takes them."""
        from pitchkeeper.reports.stats import MatchFigures

        f = self.figures or {}
        return MatchFigures(self.players, self.teams, self.hands, self.winner, self.finished, dict(f["taken"]),
                            dict(f["scored"]), {p: tuple(b) for p, b in f["bids"].items()},  # type: ignore[misc]
                            f["player_points"], f["side_points"], self.rules or "", f.get("date", ""),
                            f.get("player_taken"))


def _match_json(fig: Any) -> dict[str, Any]:
    return {"taken": fig.taken, "scored": fig.scored, "bids": {p: list(b) for p, b in fig.bids.items()},
            "player_points": fig.player_points, "side_points": fig.side_points, "date": fig.date,
            "player_taken": fig.player_taken}


def summarise(path: Path, st: os.stat_result, cache: Any) -> Summary:
    """Read one file into its summary (never raises on bad input: a broken file is a summary of kind "error")."""
    from pitchkeeper.logbook import loader, store
    from pitchkeeper.reports import stats

    base = (str(path), st.st_mtime_ns, st.st_size)
    try:
        text = store.read_text(path, "file")
        data = store.parse_text(text, path, "")
        if data.get("kind") == "tournament":
            return _tournament_summary(path, base)
        if not stats.looks_like_match(data):
            return Summary(*base, kind="other")
        # the one loader: the ruleset the log pins, errors in the one shape (file:line: hands[n].key: ...)
        state = loader.load(path, text, load_ruleset=cache.get, kind="file", data=data).replay()
    except PitchError as e:
        return Summary(*base, kind="error", error=str(e))
    fig = stats.figures(state, stats.date_of(data, path))
    return Summary(*base, kind="match", rules=state.rules, players=fig.players, teams=fig.teams, hands=fig.hands,
                   scores=dict(state.scores), winner=state.winner, finished=fig.finished,
                   figures_data=_match_json(fig))


def _tournament_summary(path: Path, base: tuple[str, int, int]) -> Summary:
    try:
        from pitchkeeper.tournament import book
    except ImportError:  # a build without tournaments: the file is kept, but not summed
        return Summary(*base, kind="tournament")

    t = book.load(path)
    games = []
    for rnd in t.rounds:
        for seat in rnd.tables:
            res = t.final.get((rnd.number, seat.table))
            if res is not None:
                log = os.path.abspath(path.parent / res.match) if res.match else None
                games.append({"round": rnd.number, "table": seat.table, "sides": [list(s) for s in seat.sides],
                              "scores": list(res.scores), "winner": res.winner, "match": log})
    return Summary(*base, kind="tournament", rules=t.rules, players=t.players,
                   hands=len(games), finished=t.finished, figures_data={"format": t.format, "games": games})


_worker_cache: Any = None


def _read_chunk(chunk: list[tuple[str, int, int]]) -> list[Summary]:
    global _worker_cache
    from pitchkeeper.reports.stats import RulesetCache

    if _worker_cache is None:
        _worker_cache = RulesetCache()
    out = []
    for p, mtime, size in chunk:
        try:
            st = os.stat(p)
        except OSError as e:
            out.append(Summary(p, mtime, size, "error", error=f"{p}: cannot read: {e.strerror or e}"))
            continue
        out.append(summarise(Path(p), st, _worker_cache))
    return out


def _read_all(todo: list[tuple[str, int, int]], workers: int | None, tick: Any = None) -> list[Summary]:
    """Every file of `todo` read (a fresh ruleset cache for each call); `tick(n)` counts them for a progress bar."""
    global _worker_cache
    from pitchkeeper.logbook.pool import in_order

    _worker_cache = None
    return in_order(_read_chunk, todo, workers, tick)


_COLUMNS = ("path", "mtime_ns", "size", "kind", "rules", "players", "teams", "hands", "scores", "winner", "finished",
            "error", "figures")


def _row(s: Summary) -> tuple[Any, ...]:
    return (s.path, s.mtime_ns, s.size, s.kind, s.rules, json.dumps(list(s.players)),
            json.dumps([[t, list(m)] for t, m in s.teams]), s.hands,
            None if s.scores is None else json.dumps(s.scores), s.winner, int(s.finished), s.error,
            s.figures_data if isinstance(s.figures_data, str) or s.figures_data is None
            else json.dumps(s.figures_data, separators=(",", ":")))


def _summary(row: Sequence[Any]) -> Summary:
    (path, mtime, size, kind, rules, players, teams, hands, scores, winner, finished, error, figures) = row
    return Summary(path, mtime, size, kind, rules, tuple(json.loads(players)),
                   tuple((t, tuple(m)) for t, m in json.loads(teams)), hands,
                   None if scores is None else json.loads(scores), winner, bool(finished), error,
                   figures)


@dataclass(frozen=True)
class Refresh:
    """What a refresh did: files re-read, files taken from the index unchanged, rows dropped."""

    read: int
    reused: int
    removed: int


class LogIndex:
    """The index of one data folder. `refresh(files)` brings it up to date with those files and returns
    their summaries, in the order given."""

    def __init__(self, db: Path | str | None) -> None:
        self.db_path = db
        self.conn = self._connect()

    def _connect(self) -> Any:
        import sqlite3

        target = ":memory:" if self.db_path is None else str(self.db_path)
        try:
            if self.db_path is not None:
                Path(self.db_path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(target, timeout=10)
            self._schema(conn)
            return conn
        except (sqlite3.DatabaseError, OSError):
            # a damaged index, or a data folder we cannot write: rebuild it, or keep it in memory this time
            if self.db_path is not None:
                try:
                    Path(self.db_path).unlink()
                    conn = sqlite3.connect(target, timeout=10)
                    self._schema(conn)
                    return conn
                except (sqlite3.DatabaseError, OSError):
                    pass
            conn = sqlite3.connect(":memory:")
            self._schema(conn)
            return conn

    @staticmethod
    def _schema(conn: Any) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or row[0] != str(SCHEMA):
            conn.execute("DROP TABLE IF EXISTS logs")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        conn.execute(f"CREATE TABLE IF NOT EXISTS logs ({', '.join(_COLUMNS)}, PRIMARY KEY (path))")
        conn.execute("CREATE TABLE IF NOT EXISTS memo (name TEXT PRIMARY KEY, fingerprint TEXT, value TEXT)")
        conn.commit()

    def memo(self, name: str, fingerprint: str) -> Any:
        """A figure derived from every summary (ratings, say), if it was stored for exactly this fingerprint."""
        row = self.conn.execute("SELECT fingerprint, value FROM memo WHERE name = ?", (name,)).fetchone()
        return json.loads(row[1]) if row is not None and row[0] == fingerprint else None

    def remember(self, name: str, fingerprint: str, value: Any) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO memo VALUES (?, ?, ?)", (name, fingerprint, json.dumps(value)))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> LogIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def refresh(self, files: Iterable[Path], prune: bool = True, workers: int | None = None) -> tuple[list[Summary], Refresh]:
        """Summaries of `files` (re-reading only those changed since they were indexed). With `prune`, rows of
        files not in `files` are dropped (the files were removed from the folder the list was made from)."""
        wanted: list[tuple[str, int, int]] = []
        for f in files:
            key = os.path.abspath(f)  # not resolve(): no symlink walk, one lstat fewer per folder level
            try:
                st = os.stat(key)
            except OSError:
                continue
            wanted.append((key, st.st_mtime_ns, st.st_size))
        return self.refresh_stated(wanted, prune, workers)

    def refresh_stated(self, wanted: list[tuple[str, int, int]], prune: bool = True,
                       workers: int | None = None, progress: Any = None) -> tuple[list[Summary], Refresh]:
        """`refresh` for files already stated: (absolute path, mtime_ns, size), as `walk` lists them.
        `progress(total)`: a context manager giving `tick(n)`, shown while the changed files are read."""
        known = {r[0]: r for r in self.conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM logs")}
        todo = [w for w in wanted if (k := known.get(w[0])) is None or (k[1], k[2]) != (w[1], w[2])]
        fresh: dict[str, Summary] = {}
        if todo and progress is not None:
            with progress(len(todo)) as tick:
                fresh = {s.path: s for s in _read_all(todo, workers, tick)}
        elif todo:
            fresh = {s.path: s for s in _read_all(todo, workers)}
        listed = {w[0] for w in wanted}
        removed = [k for k in known if k not in listed] if prune else []
        with self.conn:
            if fresh:
                self.conn.executemany(f"INSERT OR REPLACE INTO logs VALUES ({', '.join('?' * len(_COLUMNS))})",
                                      [_row(s) for s in fresh.values()])
            if removed:
                self.conn.executemany("DELETE FROM logs WHERE path = ?", [(k,) for k in removed])
        out = [fresh[w[0]] if w[0] in fresh else _summary(known[w[0]]) for w in wanted]
        return out, Refresh(len(fresh), len(wanted) - len(fresh), len(removed))


def index_path(root: Path | None = None) -> Path:
    from pitchkeeper.logbook.paths import data_dir

    return (root or data_dir()) / INDEX_NAME


def fingerprint(files: Sequence[Summary | tuple[str, int, int]]) -> str:
    """Which files, in which versions (summaries, or `walk`'s entries: the same figure for the same files): a
    figure derived from all of them is valid while this is unchanged."""
    import zlib

    rows = [(f.path, f.mtime_ns, f.size) if isinstance(f, Summary) else f for f in files]
    text = "\n".join(f"{p}\t{m}\t{z}" for p, m, z in rows).encode()
    return f"{SCHEMA}:{len(rows)}:{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def open_kept(root: Path | None = None) -> LogIndex:
    """The index of the data folder (in memory when there is no data folder yet)."""
    from pitchkeeper.logbook.paths import data_dir

    folder = root or data_dir()
    return LogIndex(index_path(folder) if folder.is_dir() else None)


def walk(root: Path) -> list[tuple[str, int, int]]:
    """Every *.toml file below `root` (not those whose name starts with a dot, as stats.find_logs), stated:
    (absolute path, mtime_ns, size), sorted. os.scandir hands out each entry's type, and its stat on
    the way, at a fraction of pathlib's rglob cost over 10,000 files."""
    out: list[tuple[str, int, int]] = []
    folders = [os.path.abspath(root)]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:
            continue
        with entries:
            for e in entries:
                try:
                    if e.is_dir(follow_symlinks=False):
                        folders.append(e.path)
                    elif e.name.endswith(".toml") and not e.name.startswith(".") and e.is_file():
                        st = e.stat()
                        out.append((e.path, st.st_mtime_ns, st.st_size))
                except OSError:
                    continue
    return sorted(out)


def kept(root: Path | None = None, workers: int | None = None,
         progress: Any = None) -> tuple[list[Summary], Refresh]:
    """Every file kept in the data folder (match logs and tournaments), summarised through the index."""
    from pitchkeeper.logbook.paths import data_dir

    with open_kept(root) as idx:
        return idx.refresh_stated(walk(root or data_dir()), prune=True, workers=workers, progress=progress)
