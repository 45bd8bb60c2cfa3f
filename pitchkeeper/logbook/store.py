"""Reading record files (and, for match logs, writing them safely).

A file is the source of truth: reads report a broken file with its line, and never guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError


def read_record(path: str | Path) -> dict[str, Any]:
    """A TOML record file as a table; a missing, unreadable or broken file is a PitchError naming it."""
    return parse_text(read_text(path, "file"), path, "")


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: temp file in the same folder, fsync, rename."""
    import os
    import tempfile

    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise PitchError(f"cannot write: {e.strerror or e}", str(path)) from None
    try:
        # mkstemp makes a private file (0600); give it the mode the file has, or the usual one
        try:
            mode = os.stat(p).st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
        try:
            dfd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):  # a folder where the file should be, a full disk: one line, nothing written
            raise PitchError(f"cannot write: {e.strerror or e}", str(path)) from None
        raise


def current_match() -> Path | None:
    """The match log the data dir's pointer names, or None when no match was started."""
    from pitchkeeper.logbook.paths import current_pointer

    try:
        text = current_pointer().read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(current_pointer())) from None
    return Path(text) if text else None


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
# edit cut or replace the exact text block of one hand. Every write is whole or nothing
# (write_atomic) and made under a lock on a sidecar file, so two writers never lose a hand.

LOCK_WAIT = 5.0  # seconds a writer waits for another before giving up ($PITCHKEEPER_LOCK_WAIT)
FORMAT = 1


def lock_path(path: Path) -> Path:
    """The sidecar file writers lock (the log itself is replaced by rename, so it cannot be locked)."""
    return path.with_name(f".{path.name}.lock")


class locked:
    """`with locked(path):` - hold the match log's write lock, waiting a little for another writer.

    fcntl.flock on a sidecar file: released by the kernel when a process dies, so a killed
    writer never leaves a stale lock behind.
    """

    def __init__(self, path: Path, wait: float | None = None) -> None:
        import os

        self.path = path
        if wait is None:
            try:
                wait = float(os.environ.get("PITCHKEEPER_LOCK_WAIT", LOCK_WAIT))
            except ValueError:
                raise PitchError("expected a number of seconds", "PITCHKEEPER_LOCK_WAIT") from None
        self.wait = wait
        self.fd = -1

    def __enter__(self) -> locked:
        import fcntl
        import os
        import time

        try:
            self.fd = os.open(lock_path(self.path), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise PitchError(f"cannot lock: {e.strerror or e}", str(self.path)) from None
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    self.fd = -1
                    raise PitchError(f"another pitchkeeper is writing {self.path}; try again") from None
                time.sleep(0.01)

    def __exit__(self, *exc: object) -> None:
        import fcntl
        import os

        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1


def sweep_temps(path: Path) -> None:
    """Remove the temp files a killed writer left beside the log. Call only while holding its lock."""
    import os

    # Cache temps too: one that a live reader is writing at this moment only costs it its cache write.
    # (A scan by prefix and suffix rather than a glob: no pattern to compile on every hand.)
    prefix = f".{path.name}."
    try:
        names = [e.name for e in os.scandir(path.parent) if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        try:
            (path.parent / name).unlink()
        except OSError:
            pass


def read_text(path: str | Path, kind: str = "match log (start one with `pitchkeeper new`)") -> str:
    """A file's text; a missing or unreadable file is a PitchError naming it (and what it should be)."""
    p = Path(path)
    try:
        return p.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise PitchError(f"no such {kind}", str(path)) from None
    except IsADirectoryError:
        raise PitchError(f"is a folder, not a {kind.split(' (')[0]}", str(path)) from None
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(path)) from None
    except UnicodeDecodeError as e:
        raise PitchError(f"line {text_line(p.read_bytes()[: e.start].decode('utf-8', 'replace'))}: "
                         f"not UTF-8 text (byte {e.start})", str(path)) from None


def parse_text(text: str, path: str | Path, note: str = "; the log was not changed") -> dict[str, Any]:
    """TOML text as a table; a broken file is reported with its line (tomllib says where)."""
    import re
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", msg)
        if m:
            msg = f"line {m.group(1)}, column {m.group(2)}: not valid TOML: {msg[: m.start()]}"
        elif "end of document" in msg:
            msg = f"line {text_line(text)}: not valid TOML: {msg} (is the file cut short?)"
        else:
            msg = f"not valid TOML: {msg}"
        raise PitchError(msg + note, str(path)) from None


def text_line(text: str, offset: int | None = None) -> int:
    """The line number (from 1) of a character offset (default: the end)."""
    return text.count("\n", 0, len(text) if offset is None else offset) + 1


def _hands_headers(text: str) -> list[int]:
    import re

    return [m.start() for m in re.finditer(r"(?m)^[ \t]*\[\[[ \t]*hands[ \t]*\]\][ \t]*(?:#.*)?$", text)]


def hand_spans(text: str, count: int | None = None) -> list[tuple[int, int]]:
    """The text block of each hand: (start, end) offsets.

    A block runs from its `[[hands]]` line (and the comment lines right above it, which belong
    to it) to the next block, or to another table ([ruleset], say, moved below the hands by a
    person or a TOML writer; only `[[hands]]` and its own sub-tables such as [hands.captured]
    belong to a hand). `count`, the number of hands the TOML holds, guards against a header
    hidden in a string or hands written as an inline array, which cannot be cut safely.
    """
    import re

    heads = _hands_headers(text)
    if count is not None and count != len(heads):
        raise PitchError(f"the log holds {count} hand(s) but {len(heads)} [[hands]] line(s): pitchkeeper only "
                         "changes hands written as [[hands]] blocks")
    starts = [_comments_above(text, h) for h in heads]
    others = [_comments_above(text, m.start()) for m in re.finditer(r"(?m)^[ \t]*\[\[?[ \t]*([^\]\s.]+)", text)
              if m.group(1) != "hands"]
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
    that line goes, since [[hands]] blocks cannot follow it.
    """
    import re

    text = re.sub(r"(?m)^[ \t]*hands[ \t]*=[ \t]*\[[ \t]*\][ \t]*(?:#.*)?\n?", "", text, count=1)
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


# -- writing TOML text (small and deterministic; a hand is a flat block of inline values)


def _key(k: str) -> str:
    import re

    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)


def toml_value(v: Any) -> str:
    """One TOML value on one line: strings, whole numbers, booleans, lists and inline tables."""
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if hasattr(v, "isoformat"):  # TOML dates and times, as read by tomllib
        return v.isoformat()
    if isinstance(v, str):
        # JSON string escapes are valid TOML basic strings; TOML also wants DEL escaped
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def hand_toml(hand: dict[str, Any]) -> str:
    """A `[[hands]]` block: one key a line, in the order given."""
    lines = ["[[hands]]"]
    for k, v in hand.items():
        if k == "tricks" and isinstance(v, list) and v:
            lines.append("tricks = [")
            lines.extend(f"  {toml_value(t)}," for t in v)
            lines.append("]")
        else:
            lines.append(f"{_key(k)} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


def table_toml(data: dict[str, Any], path: tuple[str, ...] = ()) -> str:
    """A table as TOML text: sections and their sub-tables ([points.high]) as headers, deeper tables inline.

    Used for the pinned copy of a ruleset: short lines a person can read, and it reads back the same.
    """
    lines: list[str] = []
    tables = []
    for k, v in data.items():
        if isinstance(v, dict) and len(path) < 2:
            tables.append((k, v))
        else:
            lines.append(f"{_key(str(k))} = {toml_value(v)}")
    out = []
    if path and (lines or not tables):
        out.append("[" + ".".join(_key(p) for p in path) + "]")
    out += lines
    text = "\n".join(out) + ("\n" if out else "")
    for k, v in tables:
        text += ("\n" if text else "") + table_toml(v, (*path, str(k)))
    return text


def multiline(text: str) -> str:
    """A TOML multi-line literal string for `text` (a basic string if it cannot be literal)."""
    if "'''" in text or "\r" in text:
        return toml_value(text)
    return "'''\n" + text + ("" if text.endswith("\n") else "\n") + "'''"


def write_pointer(log: Path) -> None:
    """Make `log` the current match (the pointer file in the data dir)."""
    from pitchkeeper.logbook.paths import current_pointer

    ptr = current_pointer()
    try:
        ptr.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PitchError(f"cannot create the data folder: {e.strerror or e}", str(ptr.parent)) from None
    write_atomic(ptr, str(log.resolve()) + "\n")


def create_new(path: Path, text: str) -> None:
    """Write a new log; refuse to replace a file that exists (checked under the lock, so no race)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PitchError(f"cannot create the folder: {e.strerror or e}", str(path.parent)) from None
    with locked(path):
        if path.exists():
            raise PitchError("already exists; choose another --match path", str(path))
        write_atomic(path, text)


# -- a memo of a log's derived state, so `status` need not parse and replay an unchanged log


def stamp(path: str | Path) -> list[int] | None:
    """What identifies a file's version: size, modification and change times, inode (None: no file)."""
    import os

    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def cache_path(log: Path) -> Path:
    return log.with_name(f".{log.name}.cache.json")


def read_cache(log: Path, version: str) -> dict[str, Any] | None:
    """The state cached for `log`, if the log and its ruleset files are exactly as they were."""
    import json

    try:
        c = json.loads(cache_path(log).read_text(encoding="utf-8"))
        if c["version"] != version or c["log"] is None or c["log"] != stamp(log):
            return None
        for f, st in c["rules"]:
            if stamp(f) != st:
                return None
        return c["state"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_cache(log: Path, log_stamp: list[int] | None, files: tuple[str, ...], version: str,
                state: dict[str, Any]) -> None:
    """Remember `state` for this version of the log (best effort: a cache that cannot be written is skipped).

    `log_stamp` must be the stamp of the very text `state` was derived from.
    """
    import json
    import os
    import tempfile

    if log_stamp is None:
        return
    c = {"version": version, "log": log_stamp, "rules": [[f, stamp(f)] for f in files], "state": state}
    target = cache_path(log)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{log.name}.", suffix=".cache.tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(c, f, ensure_ascii=False)
        os.replace(tmp, target)
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass
