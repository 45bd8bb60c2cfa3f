"""The one match `serve` serves: reads keyed by the file's content, writes through `Logbook`.

The log is the source of truth and may change under us (the CLI, another program, an editor): every
read reads the file's bytes and reuses the last page's data only for the very same bytes (their
digest, `Logbook.read`), so no edit - the same size, its time put back - leaves a stale score.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitchkeeper.game.scoreboard import scoreboard
from pitchkeeper.logbook.book import Logbook, Reading


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


class Served:
    """A match log served over HTTP. Thread-safe: reads and writes run in worker threads."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.book = Logbook.open(self.path)  # a missing or broken log stops `serve` before it listens
        self._lock = threading.Lock()
        self._last: tuple[Reading, Snapshot] | None = None

    def snapshot(self) -> Snapshot:
        reading = self.book.read()  # the file's bytes, read now; parsed and replayed again only if they changed
        with self._lock:
            if self._last is not None and self._last[0] is reading:
                return self._last[1]
        loaded, state = reading.loaded, reading.state
        board = scoreboard(loaded.ruleset, loaded.record, state, match=str(loaded.path),
                           warnings=loaded.warnings).to_json()
        snap = Snapshot(reading.version, loaded, state.to_json(), board)
        with self._lock:
            self._last = (reading, snap)
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
