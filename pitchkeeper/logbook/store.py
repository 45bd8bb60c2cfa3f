"""Match logs on disk, as a command that reads them finds them: which log a command works on, whether a
file holds kept data, and the text block of each hand (where it is, and how one is added, cut or changed).

A file is the source of truth: reads report a broken file with its line, and never guess. Reading
a record file is pitchkeeper.tomlfile's (re-exported here), so the rules of Pitch can read theirs
without importing the file layer. Writing a file (whole or nothing, under a lock) and the TOML a write
makes are logbook.writing's: a command that only reads loads neither.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pitchkeeper.errors import PitchError
from pitchkeeper.game.records import HAND_KEYS
from pitchkeeper.logbook.paths import current_pointer, data_dir
from pitchkeeper.tomlfile import (  # noqa: F401 (the reading half of the file layer, as store.*)
    INT_RANGE,
    MAX_BYTES,
    MAX_DEPTH,
    decoded,
    is_file,
    parse_text,
    read_bytes,
    read_record,
    read_text,
    shape_problem,
    text_line,
)


def current_match() -> Path | None:
    """The match log the data dir's pointer names, or None when no match was started.

    The pointer is one absolute path on one line (write_pointer); anything else is a corrupt
    pointer, reported as such rather than followed.
    """
    ptr = current_pointer()
    try:
        text = read_text(ptr, "file").strip()
    except PitchError:
        if not os.path.lexists(ptr):
            return None
        raise
    if not text:
        return None
    bad = ("\n" in text or any(ord(c) < 32 or ord(c) == 127 for c in text) or not os.path.isabs(text)
           or len(text.encode("utf-8", "surrogateescape")) > 4096)
    if bad:
        raise PitchError("corrupt: not the path of a match log; give --match FILE, or start a match with "
                         "`pitchkeeper new`", str(ptr))
    return Path(text)


def holds_a_record(path: str | Path) -> bool:
    """Whether writing over `path` would destroy kept data: the current match, any .toml file in the
    data folder (a kept log, even a broken one), or any file whose text is a match or tournament record.

    Used by commands that write a file a user names (`export -o`), which must never fork or lose a log.
    """
    real = target(path)
    try:
        current = current_match()
    except PitchError:
        current = None
    try:
        if current is not None and os.path.exists(current) and os.path.samefile(current, real):
            return True
        if real.suffix == ".toml" and Path(os.path.realpath(real)).is_relative_to(os.path.realpath(data_dir())):
            return True
    except (OSError, ValueError):
        pass
    try:
        data = parse_text(read_text(real, "file"), real, "")
    except PitchError:
        return False
    return ("hands" in data or data.get("kind") == "tournament"
            or ("players" in data and not any(k in data for k in HAND_KEYS)))


def resolve_match_path(explicit: str | None) -> Path:
    """The match log a command works on: the explicit --match path, else the current match."""
    if explicit:
        return Path(explicit)
    cur = current_match()
    if cur is None:
        raise PitchError("no current match: start one with `pitchkeeper new`, or give --match FILE")
    return cur


# ---------------------------------------------------------------------------
# The match log: a TOML file people read and fix by hand, so it is treated as a ledger.
# Hands are appended as text (a comment a person wrote survives every write), and undo and
# edit cut or replace the exact text block of one hand (logbook.writing writes the result).

def target(path: str | Path) -> Path:
    """The file a write to `path` lands in: a symlink is followed (to be written through, not replaced)."""
    p = Path(path)
    if not p.is_symlink():
        return p
    try:
        return Path(os.path.realpath(p))
    except (OSError, ValueError):
        return p


_HANDS_HEADER = re.compile(r"(?m)^[ \t]*\[\[[ \t]*hands[ \t]*\]\][ \t]*(?:#.*)?$")
_TABLE_HEADER = re.compile(r"(?m)^[ \t]*\[\[?[ \t]*([^\]\s.]+)")
_HANDS_KEY = re.compile(r"(?m)^[ \t]*(?:hands|\"hands\"|'hands')[ \t]*=")
_NO_HANDS = re.compile(r"(?m)^[ \t]*hands[ \t]*=[ \t]*\[\s*\][ \t]*(?:#.*)?\n?")  # `hands = []`, what a TOML writer makes
FIX_BLOCKS = "write each hand as a [[hands]] block, then run `pitchkeeper check`"


def _hands_headers(text: str) -> list[int]:
    return [m.start() for m in _HANDS_HEADER.finditer(text)]


def _top_keys(text: str) -> str:
    """The text before the first table header: where a top-level `hands = [...]` can stand."""
    m = _TABLE_HEADER.search(text)
    return text if m is None else text[:m.start()]


def blocks_problem(text: str, count: int) -> str | None:
    """Why the `count` hands of a log cannot be changed as text blocks (None: they can).

    TOML lets a person write the hands as an inline array (`hands = [ { ... } ]`) or under another
    spelling of the key; a `[[hands]]` block appended to such a file, or a block cut out of it, would
    break it or change another hand. Such a log is refused whole, before anything is written.
    """
    top = _top_keys(text)
    key = _HANDS_KEY.search(top)
    if key is not None and (count or _NO_HANDS.match(top, key.start()) is None):
        return f"written as an inline array (hands = [...]), which pitchkeeper cannot change safely: {FIX_BLOCKS}"
    heads = len(_hands_headers(text))
    if heads != count:
        return (f"{count} hand(s) but {heads} [[hands]] line(s) (a hand written another way, or such a line in "
                f"a string), which pitchkeeper cannot change safely: {FIX_BLOCKS}")
    return None


def check_blocks(text: str, count: int, where: str | None = None) -> None:
    """Refuse (a PitchError at `where`) a log whose hands are not written as `count` [[hands]] blocks."""
    problem = blocks_problem(text, count)
    if problem is not None:
        raise PitchError(problem, where)


def hand_spans(text: str, count: int | None = None) -> list[tuple[int, int]]:
    """The text block of each hand: (start, end) offsets.

    A block runs from its `[[hands]]` line (and the comment lines right above it, which belong
    to it) to the next block, or to another table ([ruleset], say, moved below the hands by a
    person or a TOML writer; only `[[hands]]` and its own sub-tables such as [hands.captured]
    belong to a hand). `count`, the number of hands the TOML holds, guards against a header
    hidden in a string or hands written as an inline array, which cannot be cut safely.
    """
    if count is not None:
        check_blocks(text, count, "hands")
    heads = _hands_headers(text)
    starts = [_comments_above(text, h) for h in heads]
    others = [_comments_above(text, m.start()) for m in _TABLE_HEADER.finditer(text) if m.group(1) != "hands"]
    spans = []
    for i, (start, head) in enumerate(zip(starts, heads, strict=True)):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        spans.append((start, min([o for o in others if head < o < end], default=end)))
    return spans


def _comments_above(text: str, line_start: int) -> int:
    """Where a header's block starts: the comment lines right above it belong to it."""
    s = line_start
    while s > 0:
        prev = text.rfind("\n", 0, s - 1) + 1
        if text[prev:s].lstrip().startswith("#"):
            s = prev
        else:
            break
    return s


def hand_line(text: str, number: int) -> int | None:
    """The line of hand `number`'s `[[hands]]` header, for messages (None when there is none)."""
    heads = _hands_headers(text)
    return text_line(text, heads[number - 1]) if 0 < number <= len(heads) else None


def append_hand(text: str, block: str) -> str:
    """The log with one more hand: its text appended, the rest left byte for byte.

    A match record written by a tool may say `hands = []` (what a TOML writer makes of no hands);
    that line goes, since [[hands]] blocks cannot follow it. The caller checks the log's shape
    first (check_blocks): hands written as an inline array are refused, never appended to.
    """
    top = _top_keys(text)
    empty = _NO_HANDS.search(top)
    if empty is not None:
        text = text[:empty.start()] + text[empty.end():]
    if text and not text.endswith("\n"):
        text += "\n"
    return text + "\n" + block


def remove_hand(text: str, number: int, count: int) -> str:
    """The log without hand `number` (the blank line that separated it goes too)."""
    start, end = hand_spans(text, count)[number - 1]
    before, after = text[:start], text[end:]
    if not after and before.endswith("\n\n"):
        before = before[:-1]
    return before + after


def replace_hand(text: str, number: int, count: int, block: str) -> str:
    """The log with hand `number`'s keys replaced by `block` (a `[[hands]]` block).

    Comment lines of the old block are kept: those above it stay above it, those inside it
    follow the new `[[hands]]` line; so do the blank lines that end it.
    """
    start, end = hand_spans(text, count)[number - 1]
    old = text[start:end]
    head = _hands_headers(old)[0]
    above = old[:head]
    body = old[head:].split("\n")[1:]
    comments = [ln for ln in body if ln.lstrip().startswith("#")]
    tail = old[len(old.rstrip("\n")):] or "\n"
    first, _, rest = block.partition("\n")
    new = "\n".join([first, *comments, rest.rstrip("\n")]) if comments else block.rstrip("\n")
    return text[:start] + above + new + tail + text[end:]
