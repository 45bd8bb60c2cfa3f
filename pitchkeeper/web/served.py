"""The one match `serve` serves: reads cached by the file's version, writes through `Logbook`.

The log is the source of truth and may change under us (the CLI, another program): every read looks at
the file's stat first and reuses the last replay only while the file is the same one.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Snapshot:
    """The log as it stood at one version: what every page and `GET /api/match` show."""

    version: str
    loaded: Any  # logbook.loader.Loaded: text, data, ruleset, record
    state: dict[str, Any]  # the `judge match` object
    board: dict[str, Any]  # the scoreboard (the `status --json` object)

    @property
    def ruleset(self) -> Any:
        return self.loaded.ruleset

    @property
    def table(self) -> Any:
        return self.loaded.record.table

    @property
    def hands(self) -> list[dict[str, Any]]:
        """The hands as the log keeps them (for the correction form)."""
        return list(self.loaded.data.get("hands", []))

    @property
    def won(self) -> bool:
        return self.state["winner"] is not None

    def match_json(self) -> dict[str, Any]:
        return {**self.state, "version": self.version}


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


class Served:
    """A match log served over HTTP. Thread-safe: reads and writes run in worker threads."""

    def __init__(self, path: Path) -> None:
        from pitchkeeper import Logbook

        self.path = Path(path)
        self.book = Logbook.open(self.path)  # a missing or broken log stops `serve` before it listens
        self._lock = threading.Lock()
        self._cache: tuple[tuple[int, int, int] | None, Snapshot] | None = None

    def snapshot(self) -> Snapshot:
        st = _stat(self.path)
        with self._lock:
            if self._cache is not None and st is not None and self._cache[0] == st:
                return self._cache[1]
        from pitchkeeper.game.scoreboard import scoreboard

        version = self.book.version  # before the state: a change in between brings an event, never a stale version
        loaded, state = self.book.load()
        # the scoreboard of this very reading (Logbook.scoreboard() would read and parse the file again)
        board = scoreboard(loaded.ruleset, loaded.record, state, match=str(loaded.path),
                           warnings=loaded.warnings).to_json()
        snap = Snapshot(version, loaded, state.to_json(), board)
        with self._lock:
            self._cache = (st if _stat(self.path) == st else None, snap)
        return snap

    def event(self) -> dict[str, Any]:
        """The data of the event sent when the log changes (a digest of the file: no replay on the loop)."""
        return {"version": self.book.version}

    # writes: each is the Logbook's own (lock, read, check, atomic write); a bad one writes nothing

    def append(self, hand: Any) -> dict[str, Any]:
        """A hand after the game was won is refused by the Logbook itself (nothing written)."""
        return self.book.append(hand)

    def replace(self, number: int, hand: Any) -> dict[str, Any]:
        return self.book.replace(number, hand)

    def drop_last(self) -> dict[str, Any]:
        return self.book.drop_last()

    def preview_append(self, hand: Any) -> Any:
        """The change a new hand makes, judged and replayed, not written (logbook Change)."""
        return self.book.record(hand, dry_run=True)

    def preview_replace(self, number: int, hand: Any) -> Any:
        return self.book.prepare_replace(number, hand)
