"""Every problem of a match log as data, for `pitchkeeper check` (a ledger checked line by line).

Each problem is in the loader's one shape: `file:line: hands[n].key: what is wrong`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError, shown
from pitchkeeper.game import match
from pitchkeeper.logbook import store
from pitchkeeper.logbook.loader import key_path, pinned_ruleset, place


@dataclass(frozen=True)
class Found:
    """One problem of a checked log, in the one shape: `str(found)` is the line `check` prints."""

    path: Path
    hand: int | None
    line: int | None
    where: str
    message: str
    warning: bool = False

    def __str__(self) -> str:
        """`error: FILE:LINE: where: what` (or `warning: ...`): one line, like every other message."""
        at = f"{self.path}:{self.line}" if self.line else str(self.path)
        return shown(f"{'warning' if self.warning else 'error'}: {at}: {self.where}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "line": self.line, "where": self.where, "message": self.message,
                "warning": self.warning}


@dataclass(frozen=True)
class Checked:
    path: Path
    ruleset: Any
    hands: int
    problems: tuple[Found, ...]
    warnings: tuple[str, ...]  # about the file as a whole (a pinned ruleset that has changed)

    @property
    def errors(self) -> tuple[Found, ...]:
        return tuple(p for p in self.problems if not p.warning)


def check_log(path: str | Path) -> Checked:
    """Every problem of a (hand-edited) log, each with its hand and line. A file that cannot be read
    as TOML at all, or whose ruleset cannot be found, is a PitchError (there is nothing to check)."""
    path = Path(path)
    text = store.read_text(path)
    data = store.parse_text(text, path)
    try:
        ruleset, warnings, _files = pinned_ruleset(data, path)
    except PitchError as e:
        raise place(e, path, text) from None
    found = []
    for p in match.check_record(ruleset, data):
        line = store.hand_line(text, p.hand) if p.hand else None
        found.append(Found(path, p.hand, line, key_path(p.where), p.message, p.warning))
    hands = data.get("hands", [])
    return Checked(path, ruleset, len(hands) if isinstance(hands, list) else 0, tuple(found), tuple(warnings))
