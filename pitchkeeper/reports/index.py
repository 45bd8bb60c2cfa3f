"""A per-log index: one summary row per kept file, in SQLite in the data folder's cache/.

The files stay the truth. The index only remembers what reading each file gave (its kind, rules,
players, teams, final scores, winner, and the per-player / per-side figures `stats` sums), keyed by
the file's path and a digest of its bytes: a file changed in any way - the same size, its times put
back, on a file system whose times are coarse or whose "ctime" is the creation time - is read again.
A stamp of the file's metadata alone (size, times, inode) would be cheaper to take, but only the
bytes say for certain that a log is the one that was summed (docs/performance.md has the figures).
A refresh re-reads exactly the files whose digest changed, adds new ones and forgets removed ones.
Deleting the index file loses nothing: the next refresh rebuilds it. A damaged index (SQLite says
so, or a row does not decode) is rebuilt the same way, never trusted.

`stats --all` over unchanged logs costs a walk of the folder (each file stated and its bytes
digested), one query of the keys, compared as one list, and one query of the per-match tally
records (stats.record, JSON), decoded in one call and added up by stats.total.

Tournament files kept in the data folder are indexed too (kind "tournament", their recorded games
as figures), so ratings can count every game kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from pitchkeeper import __version__
from pitchkeeper.errors import PitchError
from pitchkeeper.logbook import loader, store
from pitchkeeper.logbook.paths import cache_dir, data_dir
from pitchkeeper.logbook.pool import in_order
from pitchkeeper.reports import stats
from pitchkeeper.tournament import book as tournaments

INDEX_NAME = "index.sqlite3"
SCHEMA = 8  # bump when a summary's content changes: every row is then re-read

Stamp = tuple[str, int, int, str]  # (absolute path, mtime_ns, size, digest of its bytes), as `walk` lists them


class Summary(NamedTuple):
    """What one file held. `kind`: "match", "tournament", "other" (a TOML file that is neither) or "error"."""

    path: str
    mtime_ns: int  # the order in which games were kept (ratings)
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
    # match: stats.MatchFigures, tournament: its games, as JSON text (the largest column, decoded only when
    # asked for: a walk for ratings never needs it)
    figures_data: str | None = None
    digest: str = ""  # of the file's bytes, as walk took it before the file was read
    # a match's day (YYYY-MM-DD, for --since/--until) and stats.record: its layout (JSON) and sums (JSON without
    # the brackets, so that the rows of one layout join into one JSON list)
    tally: tuple[str, str, str] | None = None

    @property
    def figures(self) -> dict[str, Any] | None:
        return None if self.figures_data is None else json.loads(self.figures_data)

    def match_figures(self) -> stats.MatchFigures:
        """The stats figures of a match log (stats.MatchFigures), as `stats.merge` takes them."""
        f = self.figures or {}
        return stats.MatchFigures(self.players, self.teams, self.hands, self.winner, self.finished, dict(f["taken"]),
                                  dict(f["scored"]), {p: tuple(b) for p, b in f["bids"].items()},
                                  f["player_points"], f["side_points"], self.rules or "", f.get("date", ""),
                                  f.get("player_taken"),
                                  {p: tuple(c) for p, c in f["partners"].items()} if f.get("partners") else None)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _match_json(fig: Any) -> str:
    return _json({"taken": fig.taken, "scored": fig.scored, "bids": {p: list(b) for p, b in fig.bids.items()},
                  "player_points": fig.player_points, "side_points": fig.side_points, "date": fig.date,
                  "player_taken": fig.player_taken,
                  "partners": {p: list(c) for p, c in fig.partners.items()} if fig.partners else None})


def summarise(path: Path, stamp: Stamp, cache: Any) -> Summary:
    """Read one file into its summary (never raises on bad input: a broken file is a summary of kind "error").
    `stamp`: the file's, taken before it was read (a change while reading shows at the next refresh)."""
    path_, mtime_ns, size, digest = stamp
    base = (path_, mtime_ns, size)
    try:
        text = store.read_text(path, "file")
        data = store.parse_text(text, path, "")
        if data.get("kind") == "tournament":
            return _tournament_summary(path, base, digest)
        if not stats.looks_like_match(data):
            return Summary(*base, kind="other", digest=digest)
        # the one loader: the ruleset the log pins, errors in the one shape (file:line: hands[n].key: ...)
        loaded = loader.load(path, text, load_ruleset=cache.get, kind="file", data=data)
        state = loaded.replay()
    except PitchError as e:
        return Summary(*base, kind="error", error=str(e), digest=digest)
    fig = stats.figures(state, stats.date_of(data, path))
    return Summary(*base, kind="match", rules=state.rules, players=fig.players, teams=fig.teams, hands=fig.hands,
                   scores=dict(state.scores), winner=state.winner, finished=fig.finished,
                   figures_data=_match_json(fig), digest=digest,
                   tally=_tally(fig, [p.id for p in loaded.ruleset.award_order]))


def _tally(fig: Any, point_ids: list[str]) -> tuple[str, str, str]:
    layout, sums = stats.record(fig, point_ids)
    return fig.date, _json(layout), ",".join(map(str, sums))


def _tournament_summary(path: Path, base: tuple[str, int, int], digest: str) -> Summary:
    t = tournaments.load(path)
    games = []
    for rnd in t.rounds:
        for seat in rnd.tables:
            res = t.final.get((rnd.number, seat.table))
            if res is not None:
                log = os.path.abspath(path.parent / res.match) if res.match else None
                games.append({"round": rnd.number, "table": seat.table, "sides": [list(s) for s in seat.sides],
                              "scores": list(res.scores), "winner": res.winner, "match": log})
    return Summary(*base, kind="tournament", rules=t.rules, players=t.players, hands=len(games),
                   finished=t.finished, figures_data=_json({"format": t.format, "games": games}), digest=digest)


_worker_cache: stats.RulesetCache | None = None


def _read_chunk(chunk: list[Stamp]) -> list[Summary]:
    global _worker_cache
    if _worker_cache is None:
        _worker_cache = stats.RulesetCache()
    return [summarise(Path(stamp[0]), stamp, _worker_cache) for stamp in chunk]


def _read_all(todo: list[Stamp], workers: int | None, tick: Callable[[int], None] | None = None) -> list[Summary]:
    """Every file of `todo` read (a fresh ruleset cache for each call); `tick(n)` counts them for a progress bar."""
    global _worker_cache
    _worker_cache = None
    return in_order(_read_chunk, todo, workers, tick)


_COLUMNS = ("path", "mtime_ns", "size", "digest", "kind", "rules", "players", "teams", "hands", "scores",
            "winner", "finished", "error", "figures", "date", "layout", "sums")


def _row(s: Summary) -> tuple[Any, ...]:
    return (s.path, s.mtime_ns, s.size, s.digest, s.kind, s.rules, json.dumps(list(s.players)),
            json.dumps([[t, list(m)] for t, m in s.teams]), s.hands,
            None if s.scores is None else json.dumps(s.scores), s.winner, int(s.finished), s.error,
            s.figures_data, *(s.tally or (None, None, None)))


def _code() -> str:
    """The code that makes a summary as it is - the rules engine, the loader, the tallies and this index - by
    a digest of its sources: an edit, or an upgrade that kept the version number, rebuilds the index."""
    pkg = Path(__file__).resolve().parent.parent
    sources = sorted([*(pkg / "game").glob("*.py"), pkg / "logbook" / "loader.py", pkg / "reports" / "stats.py",
                      Path(__file__).resolve()])
    h = hashlib.blake2b(digest_size=16)
    for f in sources:
        h.update(f.name.encode())
        try:
            h.update(f.read_bytes())
        except OSError:
            pass
    return h.hexdigest()


def _storable(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _odd(stamp: Stamp) -> Summary:
    """A file whose name is not UTF-8 (SQLite keeps only text): a problem named, as a broken file is."""
    shown = stamp[0].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return Summary(*stamp[:3], "error", error=f"{shown}: its name is not valid UTF-8: rename it to count it",
                   digest=stamp[3])


def _summary(row: Sequence[Any]) -> Summary:
    if isinstance(row, Summary):
        return row
    (path, mtime, size, digest, kind, rules, players, teams, hands, scores, winner, finished, error, figures,
     date, layout, sums) = row
    return Summary(path, mtime, size, kind, rules, tuple(json.loads(players)),
                   tuple((t, tuple(m)) for t, m in json.loads(teams)), hands,
                   None if scores is None else json.loads(scores), winner, bool(finished), error,
                   figures, digest, None if layout is None else (date, layout, sums))


class Refresh(NamedTuple):
    """What a refresh did: files re-read, files taken from the index unchanged, rows dropped."""

    read: int
    reused: int
    removed: int


class Damaged(Exception):
    """The index cannot be trusted (SQLite found it corrupt, or a row does not decode): rebuild it."""


class LogIndex:
    """The index of one data folder. `sync(stamps)` brings it up to date with those files; `refresh` does
    that and returns their summaries, in the order given; `tallies` gives what `stats` adds up."""

    def __init__(self, db: Path | str | None) -> None:
        self.db_path = db
        self.odd: dict[str, Summary] = {}  # files of the last sync whose names SQLite cannot hold
        self.conn = self._connect()

    def _connect(self) -> Any:
        target = ":memory:" if self.db_path is None else str(self.db_path)
        try:
            if self.db_path is not None:
                Path(self.db_path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(target, timeout=10)
            try:
                self._schema(conn)
            except BaseException:
                conn.close()
                raise
            return conn
        except sqlite3.OperationalError:
            pass  # locked past the timeout, or a folder we cannot write: an index in memory this time
        except (sqlite3.DatabaseError, OSError):
            if self.db_path is not None:  # a damaged index: rebuilt from the files
                try:
                    Path(self.db_path).unlink()
                    conn = sqlite3.connect(target, timeout=10)
                    self._schema(conn)
                    return conn
                except (sqlite3.DatabaseError, OSError):
                    pass
        self.db_path = None
        conn = sqlite3.connect(":memory:")
        self._schema(conn)
        return conn

    def rebuild(self) -> None:
        """Forget everything (the index was found damaged): the next sync reads every file again."""
        self.conn.close()
        if self.db_path is not None:
            try:
                Path(self.db_path).unlink()
            except OSError:
                self.db_path = None
        self.conn = self._connect()

    @staticmethod
    def _schema(conn: Any) -> None:
        want = f"{SCHEMA} {__version__} {_code()} {','.join(_COLUMNS)}"  # other code may sum a log differently
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except Exception as e:  # no meta table yet (a new index), else a damaged one
            if "no such table" not in str(e):
                raise
            row = None
        if row is not None and row[0] == want:
            return
        with conn:
            conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            conn.execute("DROP TABLE IF EXISTS logs")
            conn.execute("DROP TABLE IF EXISTS memo")
            conn.execute(f"CREATE TABLE logs ({', '.join(_COLUMNS)}, PRIMARY KEY (path))")
            conn.execute("CREATE TABLE memo (name TEXT PRIMARY KEY, fingerprint TEXT, value TEXT)")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (want,))

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
        wanted = []
        for f in files:
            st = stamp_of(os.path.abspath(f))  # not resolve(): the path as given, links and all
            if st is not None:
                wanted.append(st)
        return self.refresh_stated(wanted, prune, workers)

    def refresh_stated(self, wanted: list[Stamp], prune: bool = True,
                       workers: int | None = None, progress: Any = None) -> tuple[list[Summary], Refresh]:
        """`refresh` for files already stamped, as `walk` lists them.
        `progress(total)`: a context manager giving `tick(n)`, shown while the changed files are read."""
        def step() -> tuple[list[Summary], Refresh]:
            fresh, done = self._sync(wanted, prune, workers, progress)
            rows = {r[0]: r for r in self.conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM logs")}
            try:
                rows.update(self.odd)
                return [fresh[w[0]] if w[0] in fresh else _summary(rows[w[0]]) for w in wanted], done
            except (ValueError, TypeError, KeyError) as e:  # a row that does not decode
                raise Damaged(str(e)) from None

        return self._guarded(step)

    def sync(self, wanted: list[Stamp], prune: bool = True, workers: int | None = None,
             progress: Any = None) -> Refresh:
        """Bring the index up to date with these files (`walk`'s list), reading only those whose stamp changed
        (their bytes, or their size or time)."""
        return self._guarded(lambda: self._sync(wanted, prune, workers, progress))[1]

    def _guarded(self, step: Any) -> Any:
        """`step()`, once more on a rebuilt index if this one turns out damaged."""
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):  # another pitchkeeper writing it, past the timeout
                raise PitchError(f"the log index is busy ({e}): try again", str(self.db_path)) from None
            self.rebuild()  # no such table or column (not this version's), an I/O error: rebuilt
            return step()
        except (sqlite3.DatabaseError, Damaged):
            self.rebuild()
            return step()

    def _sync(self, wanted: list[Stamp], prune: bool, workers: int | None,
              progress: Any) -> tuple[dict[str, Summary], Refresh]:
        self.odd = {w[0]: _odd(w) for w in wanted if not w[0].isascii() and not _storable(w[0])}
        if self.odd:  # names SQLite cannot hold (not UTF-8): named as problems on every run, never indexed
            wanted = [w for w in wanted if w[0] not in self.odd]
        stamps = self.conn.execute("SELECT path, mtime_ns, size, digest FROM logs ORDER BY path").fetchall()
        if prune and stamps == wanted:  # the folder as indexed (walk's list is sorted as the query): nothing to do
            return {}, Refresh(0, len(wanted), 0)
        known = {r[0]: r for r in stamps}
        todo = [w for w in wanted if known.get(w[0]) != w]
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
        return fresh, Refresh(len(fresh), len(wanted) - len(fresh), len(removed))

    def tallies(self, rules: str | None = None, since: str | None = None, until: str | None = None,
                leave_out: Iterable[str] = ()) -> Tallies:
        """What `stats` adds up over the indexed files but those left out (paths): the match logs of `rules`
        begun within [since, until], summed per layout by SQLite (stats.record), and the files that could
        not be read. Sums that do not decode to whole rows of their layout are damage (Damaged)."""
        skip = ""
        out = set(leave_out)
        if out:
            self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS leave_out (path TEXT PRIMARY KEY)")
            self.conn.execute("DELETE FROM leave_out")
            self.conn.executemany("INSERT INTO leave_out VALUES (?)", [(p,) for p in sorted(out) if _storable(p)])
            skip = " AND path NOT IN (SELECT path FROM leave_out)"
        where, args = [], []
        if rules is not None:
            where.append("rules = ?")
            args.append(rules)
        if since is not None:
            where.append("date >= ?")
            args.append(since)
        if until is not None:
            where.append("date != '' AND date <= ?")
            args.append(until)
        cond = "".join(f" AND {w}" for w in where)
        q = self.conn.execute
        files = q("SELECT count(*) FROM logs").fetchone()[0]
        errors = q(f"SELECT path, error FROM logs WHERE kind = 'error'{skip} ORDER BY path").fetchall()
        # each layout's rows as one JSON text [layout, matches, [sums laid end to end]], all of them decoded at once
        rows = q("SELECT '[' || layout || ',' || count(*) || ',[' || group_concat(sums) || ']]' FROM logs "
                 f"WHERE kind = 'match'{skip}{cond} GROUP BY layout ORDER BY min(path)", args).fetchall()
        groups = []
        try:
            for layout, n, flat in json.loads(f"[{','.join(r[0] for r in rows)}]"):
                if type(layout) is not list or [type(x) for x in layout] != [list, list, list]:
                    raise ValueError("a layout of the wrong shape")
                w = stats.width(layout)
                if len(flat) != n * w:
                    raise ValueError("sums that are not whole rows of their layout")
                sums = flat if n == 1 else stats.column_sums(flat, w)
                if type(sum(sums)) is not int:  # anything but whole numbers among them (a string: a TypeError)
                    raise ValueError("sums that are not whole numbers")
                groups.append((layout, n, sums))
        except (ValueError, TypeError) as e:
            raise Damaged(str(e)) from None
        matches = q(f"SELECT count(*) FROM logs WHERE kind = 'match'{skip}").fetchone()[0] if cond \
            else sum(g[1] for g in groups)
        odd = [(p, s.error or "") for p, s in self.odd.items() if p not in out]
        return Tallies(files + len(self.odd), sorted([(p, e) for p, e in errors] + odd) if odd else errors, groups,
                       matches)


class Tallies(NamedTuple):
    """`LogIndex.tallies`: the files indexed, those that could not be read (path, message), by path, the
    chosen match logs added up per layout (stats.total takes them), and how many match logs there were
    before --rules/--since/--until chose."""

    files: int
    errors: list[tuple[str, str]]
    groups: list[tuple[list[Any], int, list[int]]]
    matches: int
    stamps: Sequence[Stamp] = ()  # the folder as walked (kept_tallies): what ratings.rate_kept fingerprints


CACHE = "cache"  # the data folder's cache folder (paths.cache_dir): derived state, never the truth


def index_path(root: Path | None = None) -> Path:
    return (root / CACHE if root is not None else cache_dir()) / INDEX_NAME


def fingerprint(files: Sequence[Summary | Stamp]) -> str:
    """Which files, in which versions (summaries, or `walk`'s entries: the same figure for the same files): a
    figure derived from all of them is valid while this is unchanged."""
    rows = [(f.path, f.mtime_ns, f.size, f.digest) if isinstance(f, Summary) else f for f in files]
    text = "\n".join("\t".join(map(str, r)) for r in rows).encode("utf-8", "surrogateescape")
    return f"{SCHEMA}:{len(rows)}:{hashlib.blake2b(text, digest_size=16).hexdigest()}"


def open_kept(root: Path | None = None) -> LogIndex:
    """The index of the data folder (in memory when there is no data folder yet)."""
    folder = root or data_dir()
    if not folder.is_dir():
        return LogIndex(None)
    db = index_path(folder)
    if not db.exists():  # an index kept by an earlier version in the data folder itself: not the truth, not kept
        try:
            (folder / INDEX_NAME).unlink()
        except OSError:
            pass
    for name in (db.name, f"{db.name}-journal", f"{db.name}-wal", f"{db.name}-shm"):
        _unless_regular(db.with_name(name))
    return LogIndex(db)


def _unless_regular(path: Path) -> None:
    """Remove what stands at one of the index's names and is no regular file (a pipe, a link to a device, a
    link anywhere): SQLite would refuse it, or write through it; the index is made again from the logs."""
    try:
        if stat.S_ISREG(os.lstat(path).st_mode):
            return
        os.unlink(path)
    except OSError:  # nothing there; or a folder, which SQLite refuses: an index in memory this time
        pass


def stamp_of(path: str) -> Stamp | None:
    """A file's stamp: (path, mtime_ns, size, a digest of its bytes); None when it is gone. A file that
    cannot be read (no regular file, too large) is stamped by its metadata, and its summary says why."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    try:
        digest = hashlib.blake2b(store.read_bytes(path), digest_size=16).hexdigest()
    except PitchError:
        digest = f"unread {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}"
    return path, st.st_mtime_ns, st.st_size, digest


def walk(root: Path) -> list[Stamp]:
    """Every *.toml file below `root` (not those whose name starts with a dot, nor the cache folder, as
    stats.find_logs), stamped (stamp_of), sorted by path."""
    out: list[Stamp] = []
    top = os.path.abspath(root)
    folders = [top]
    skip = os.path.join(top, CACHE)
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:
            continue
        with entries:
            for e in entries:
                name = e.name
                try:
                    if name.endswith(".toml") and name[0] != "." and e.is_file():
                        st = stamp_of(e.path)
                        if st is not None:
                            out.append(st)
                    elif e.is_dir(follow_symlinks=False) and e.path != skip:
                        folders.append(e.path)
                except OSError:
                    continue
    out.sort()
    return out


def kept(root: Path | None = None, workers: int | None = None,
         progress: Any = None) -> tuple[list[Summary], Refresh]:
    """Every file kept in the data folder (match logs and tournaments), summarised through the index."""
    with open_kept(root) as idx:
        return idx.refresh_stated(walk(root or data_dir()), prune=True, workers=workers,
                                  progress=progress)


def kept_tallies(root: Path | None = None, workers: int | None = None, progress: Any = None,
                 rules: str | None = None, since: str | None = None, until: str | None = None,
                 leave_out: Iterable[str] = ()) -> Tallies:
    """`LogIndex.tallies` of the data folder, brought up to date first: what `stats --all` adds up."""
    wanted = walk(root or data_dir())
    with open_kept(root) as idx:
        def step() -> Tallies:
            idx._sync(wanted, True, workers, progress)
            return idx.tallies(rules, since, until, leave_out)._replace(stamps=wanted)

        return idx._guarded(step)  # a damaged index: rebuilt, every file read again
