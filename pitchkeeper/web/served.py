"""What `serve` serves: the table's current match (following it to the next game), or one match.

Without `--match`, the table's match is the data folder's current one: a new game started from a
phone, from the CLI (`new`, `new --rematch`, `use`) or through `POST /api/matches` moves the
current-match pointer, and every read here follows it. With `--match FILE` it is that one log.

The log is the source of truth and may change under us (the CLI, another program, an editor): every
read reads the file's bytes and reuses the last page's data only for the very same bytes (their
digest, `Logbook.read`), so no edit - the same size, its time put back - leaves a stale score.
Writes are the Logbook's (lock, version check, atomic write); starting a game is the shelf's.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.scoreboard import scoreboard
from pitchkeeper.logbook import shelf, store
from pitchkeeper.logbook.book import Logbook, Reading

MATCH_KEYS = ("rematch", "force", "rules", "players", "teams", "title", "first_dealer", "target")


class OneMatch(PitchError):
    """`serve --match FILE` serves that match only: it starts no other (409)."""


class BrokenLog(PitchError):
    """The log served cannot be read now (edited by hand into a broken state, say): every page and
    `GET /api/match` say so (503) until it is mended, and work again at once. `words`: what a page says
    (the players' words: the file by its name, the hand, never a line or a key - those are the CLI's);
    the one line (`str`) is the JSON interface's, as `pitchkeeper check` prints it."""

    words: str = ""


_FOLDERS = re.compile(r"(?<![\w.~-])(?:[A-Za-z]:)?[/\\](?:[^/\\\s:'\"]+[/\\])+")


def file_names_only(text: str) -> str:
    """A message as a client may read it: every file by its name only (the server's own folders are not
    the client's business)."""
    return _FOLDERS.sub("", text)


_HAND = re.compile(r"\bhands\[(\d+)\]")


def broken(e: PitchError, path: Path) -> BrokenLog:
    """A reading's error as a client is shown it: one line, files by their names, and nothing said of
    writing (a reading writes nothing); and the page's sentence (`BrokenLog.words`)."""
    message = file_names_only(e.message.replace("; the log was not changed", ""))
    out = BrokenLog(message, file_names_only(e.where) if e.where else None)
    hand = _HAND.search(e.where or "")
    at = f", hand {hand.group(1)}" if hand else ""
    out.words = (f"The match log cannot be read: someone edited it by hand ({path.name}{at}). Mend it (pitchkeeper "
                 "check shows where); this page comes back by itself.")
    return out


@dataclass(frozen=True)
class Snapshot:
    """The log as it stood at one version: what every page and `GET /api/match` show."""

    version: str
    loaded: Any  # logbook.loader.Loaded: text, data, ruleset, record
    state: dict[str, Any]  # the `judge match` object
    board: dict[str, Any]  # the scoreboard (the `status --json` object)
    replayed: Any = None  # the game.match.MatchState (verdict objects: a sale of the pitch, say)

    @property
    def ruleset(self) -> Any:
        return self.loaded.ruleset

    @property
    def table(self) -> Any:
        return self.loaded.record.table

    @property
    def match(self) -> str:
        """The served match's name (its log's file name without .toml): pages see the table move on by it."""
        return Path(self.loaded.path).stem

    @property
    def hands(self) -> list[dict[str, Any]]:
        """The hands as the log keeps them (for the correction form)."""
        return list(self.loaded.data.get("hands", []))

    @property
    def count(self) -> int:
        return len(self.state["hands"])

    @property
    def won(self) -> bool:
        return self.state["winner"] is not None

    def match_json(self) -> dict[str, Any]:
        return {**self.state, "version": self.version}


class Served:
    """The match served over HTTP. Thread-safe: reads and writes run in worker threads."""

    def __init__(self, path: Path, follow: bool = False) -> None:
        self.follow = follow
        self._path = Path(path)
        self._books: dict[Path, Logbook] = {}
        self._lock = threading.Lock()
        self._last: tuple[Reading, Snapshot] | None = None
        self._judged: tuple[tuple[Path, str], str | None] | None = None  # (log, version) -> broken words or None
        self.book()  # a missing or broken log stops `serve` before it listens
        self.book().read()

    @property
    def path(self) -> Path:
        """The log served now: the data folder's current match when following the table."""
        if self.follow:
            try:
                current = store.current_match()
            except PitchError:  # a pointer broken by hand: keep serving the last match until it is mended
                current = None
            if current is not None:
                self._path = current
        return self._path

    def book(self) -> Logbook:
        path = self.path
        with self._lock:
            book = self._books.get(path)
            if book is None:
                book = self._books[path] = Logbook(path)
            return book

    def snapshot(self) -> Snapshot:
        """The log as it stands (BrokenLog when it cannot be read)."""
        book = self.book()
        try:
            reading = book.read()  # the bytes, read now; parsed and replayed again only if they changed
        except PitchError as e:
            raise broken(e, book.path) from None
        with self._lock:
            if self._last is not None and self._last[0] is reading:
                return self._last[1]
        loaded, state = reading.loaded, reading.state
        board = scoreboard(loaded.ruleset, loaded.record, state, match=str(loaded.path),
                           warnings=loaded.warnings).to_json()
        snap = Snapshot(reading.version, loaded, state.to_json(), board, state)
        with self._lock:
            self._last = (reading, snap)
        return snap

    def event(self) -> dict[str, Any]:
        """The data of the event sent when the table changes: the log's version (a digest of the file), the
        match served, and - when the log cannot be read - `broken`, the page's sentence, so that no open page
        goes on showing the last good score as current. The log is read again only when its bytes moved."""
        book = self.book()
        try:
            version = book.version
        except PitchError as e:  # gone, or unreadable: no version to show a score of
            return {"version": None, "match": book.path.stem, "broken": broken(e, book.path).words}
        data: dict[str, Any] = {"version": version, "match": book.path.stem}
        if self._judged is None or self._judged[0] != (book.path, version):
            words: str | None = None
            try:
                self.snapshot()
            except BrokenLog as e:
                words = e.words
            self._judged = ((book.path, version), words)
        if words_now := self._judged[1]:
            data["broken"] = words_now
        return data

    # writes: each is the Logbook's own (lock, version check, read, check, atomic write); a bad one writes nothing

    def append(self, hand: Any, expect: str | None = None, number: int | None = None) -> dict[str, Any]:
        """A hand after the game was won is refused by the Logbook itself (nothing written)."""
        return self.book().append(hand, expect=expect, number=number)

    def replace(self, number: int, hand: Any, expect: str | None = None) -> dict[str, Any]:
        return self.book().replace(number, hand, expect=expect)

    def drop_last(self, expect: str | None = None) -> dict[str, Any]:
        return self.book().drop_last(expect=expect)

    def preview_append(self, hand: Any, expect: str | None = None) -> Any:
        """The change a new hand makes, judged and replayed, not written (logbook Change); Stale when the
        log is not at `expect` any more (the verdict shown is always of the log the Save writes to)."""
        return self.book().record(hand, dry_run=True, expect=expect)

    def preview_replace(self, number: int, hand: Any) -> Any:
        return self.book().prepare_replace(number, hand)

    # the next game (the table's: refused when serving one match)

    def new_match(self, body: Mapping[str, Any], expect: str | None = None) -> dict[str, Any]:
        """Start the table's next game, `POST /api/matches`: {"rematch": true} (the same seats, the deal
        passed on), or {"rules", "players", "teams", "title"} (teams left out: partners across where the
        ruleset plays in partnerships; {} each for himself). Returns its `judge match` object."""
        if not self.follow:
            raise OneMatch("this server serves one match (serve --match FILE): it starts no other; start the next "
                           "game with `pitchkeeper new --rematch` and serve it")
        for key in body:
            if key not in MATCH_KEYS:
                raise PitchError(f"unknown key '{key}'{did_you_mean(str(key), MATCH_KEYS)} (a new match takes "
                                 "rematch, or rules, players, teams, title)", str(key))
        opt = {k: body[k] for k in ("first_dealer", "target", "title") if body.get(k) is not None}
        if body.get("rematch") is not None:
            if body["rematch"] is not True:
                raise PitchError("expected true: {\"rematch\": true} starts the next game at the same table",
                                 "rematch")
            extra = [k for k in ("rules", "players", "teams") if k in body]
            if extra:
                raise PitchError(f"a rematch keeps the table: give no {', '.join(extra)}", extra[0])
            book = shelf.next_game(expect=expect, force=body.get("force") is True, **opt)
        else:
            rules, players, teams = body.get("rules"), body.get("players"), body.get("teams")
            if not isinstance(rules, str) or not rules:
                raise PitchError("expected the ruleset's name, such as \"seven-point\" (or {\"rematch\": true})",
                                 "rules")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise PitchError("expected the players' names in seating order, clockwise", "players")
            if teams is not None and not (isinstance(teams, dict) and all(
                    isinstance(v, list) and all(isinstance(p, str) for p in v) for v in teams.values())):
                raise PitchError("expected a table of team name -> its players, such as {\"Us\": [\"Ann\", \"Cy\"]}",
                                 "teams")
            if "/" in rules or "\\" in rules or rules.endswith(".toml"):  # a page names a built-in ruleset only
                raise PitchError("a new game from the table names a built-in ruleset (`pitchkeeper rules list`); "
                                 "house rules start from the command line", "rules")
            book = shelf.start(rules, players, teams, expect=expect, **opt)
        return book.state()
