"""Writing kept files: whole or nothing (a temp file, fsync, rename), under a lock on the log, and the TOML
text a write makes (a hand's block, a log's header, the current-match pointer).

Only a command that writes loads this module (and the temp-file machinery with it); a command that reads a
log finds it with logbook.store and reads it with logbook.loader. Every write is made under a lock on a
sidecar file, so two writers never lose a hand.
"""

from __future__ import annotations

import math
import os
import signal
import stat
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.logbook.paths import current_pointer
from pitchkeeper.logbook.store import target

try:
    import fcntl
except ImportError:  # Windows: msvcrt locks instead
    fcntl = None  # type: ignore[assignment]
    import msvcrt


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: temp file in the same folder, fsync, rename.

    A symlink is written through to its target (the link stays a link). The file keeps its line
    ends: a file written with CRLF (edited on Windows) gets CRLF again, unless `text` has its own.
    """
    p = target(path)
    folder = p.parent if str(p.parent) else Path(".")
    newline = "\r\n" if "\r" not in text and _crlf(p) else "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    except (OSError, ValueError) as e:
        raise PitchError(f"cannot write: {getattr(e, 'strerror', None) or e}", str(path)) from None
    try:
        # mkstemp makes a private file (0600); give it the mode the file has, or the usual one
        try:
            mode = os.stat(p).st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        crash = os.environ.get(CRASH_AT)
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            if crash:
                _crash_point(crash, "temp")
                f.write(text[: len(text) // 2])
                f.flush()
                _crash_point(crash, "half")
                text = text[len(text) // 2:]
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if crash:
            _crash_point(crash, "synced")
        os.replace(tmp, p)
        if crash:
            _crash_point(crash, "renamed")
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
        if isinstance(e, UnicodeEncodeError):  # bytes that are not UTF-8 (lone surrogates) got this far
            raise PitchError("cannot write text that is not UTF-8 (is the terminal set to UTF-8?)", str(path)) from None
        raise


# The kill test's hook: a writer with $PITCHKEEPER_CRASH_AT set to one of these steps kills itself
# there, so that the test kills writers at chosen points of the write instead of at random times.
CRASH_AT = "PITCHKEEPER_CRASH_AT"
CRASH_STEPS = ("locked", "temp", "half", "synced", "renamed")


def _crash_point(chosen: str, step: str) -> None:
    if chosen == step:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def _crlf(path: Path) -> bool:
    """Whether a file's first line ends in CRLF (False: LF, or no such regular file)."""

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # never open a pipe
        with open(path, "rb") as f:
            head = f.read(8192)
    except (OSError, ValueError):
        return False
    i = head.find(b"\n")
    return i > 0 and head[i - 1 : i] == b"\r"


LOCK_WAIT = 5.0  # seconds a writer waits for another before giving up ($PITCHKEEPER_LOCK_WAIT)
FORMAT = 1


def lock_path(path: Path) -> Path:
    """The sidecar file writers lock (the log itself is replaced by rename, so it cannot be locked).

    It sits beside the log's real file: two paths to one log (a symlink) share one lock.
    """
    real = target(path)
    return real.with_name(f".{real.name}.lock")


def lock_wait() -> float:
    """Seconds a writer waits for another: $PITCHKEEPER_LOCK_WAIT, a finite number from 0 up."""

    text = os.environ.get("PITCHKEEPER_LOCK_WAIT")
    if text is None:
        return LOCK_WAIT
    try:
        wait = float(text)
    except ValueError:
        wait = math.nan
    if not (math.isfinite(wait) and 0 <= wait <= 24 * 3600):
        raise PitchError(f"expected a number of seconds from 0 to 86400, got {text!r}", "PITCHKEEPER_LOCK_WAIT")
    return wait


class locked:
    """`with locked(path):` - hold the match log's write lock, waiting a little for another writer.

    A lock on a sidecar file (fcntl.flock; msvcrt.locking where there is no fcntl): released by
    the system when a process dies, so a killed writer never leaves a stale lock behind. A sidecar
    this lock created is removed again when the write is refused, so a refused command leaves the
    folder as it found it; a writer that waited on a removed sidecar notices and locks afresh.
    """
    def __init__(self, path: Path, wait: float | None = None) -> None:
        self.path = path
        self.wait = lock_wait() if wait is None else wait
        self.fd = -1
        self.created = False

    def __enter__(self) -> locked:
        lock = lock_path(self.path)
        deadline = time.monotonic() + self.wait
        while True:
            existed = os.path.lexists(lock)
            try:
                self.fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except (OSError, ValueError) as e:
                raise PitchError(f"cannot lock: {getattr(e, 'strerror', None) or e}", str(self.path)) from None
            self.created = not existed
            while not _try_lock(self.fd):
                if time.monotonic() >= deadline:
                    self._close()
                    raise PitchError(f"another pitchkeeper is writing {self.path}; try again") from None
                time.sleep(0.01)
            if _same_file(self.fd, lock):
                if CRASH_AT in os.environ:
                    _crash_point(os.environ[CRASH_AT], "locked")
                return self
            self._close()  # the sidecar was removed (a refused write) while this one waited: lock the new one

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if self.fd < 0:
            return
        if exc_type is not None and self.created and os.name == "posix":
            try:
                os.unlink(lock_path(self.path))  # still held: a waiter that opened it relocks (_same_file)
            except OSError:
                pass
        self._close()

    def _close(self) -> None:
        if self.fd >= 0:
            _unlock(self.fd)
            os.close(self.fd)
            self.fd = -1


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on an open file without waiting: True if it is ours now."""
    if fcntl is None:  # Windows: lock the first byte (a lock file is empty; locking past its end is fine)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]  # Windows only
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int) -> None:
    if fcntl is None:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined,unused-ignore]  # Windows only
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino) or os.name != "posix"


def sweep_temps(path: Path) -> None:
    """Remove the temp files a killed writer left beside the log. Call only while holding its lock."""
    real = target(path)
    # (Caches live in the data folder, not here. A scan by prefix and suffix rather than a glob: no pattern
    # to compile on every hand.)
    prefix = f".{real.name}."
    try:
        names = [e.name for e in os.scandir(real.parent) if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        try:
            (real.parent / name).unlink()
        except OSError:
            pass


# -- writing TOML text (small and deterministic; a hand is a flat block of inline values)


_BARE = str.maketrans("", "", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _key(k: str) -> str:
    """A bare key when TOML allows one (A-Z a-z 0-9 _ -), else a quoted one."""
    return k if k and not k.translate(_BARE) else toml_value(k)


# a TOML basic string's escapes: JSON's (which TOML shares), and DEL, which TOML also wants escaped
_ESCAPES = {**{i: f"\\u{i:04x}" for i in range(0x20)}, 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f",
            0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\", 0x7F: "\\u007f"}


def toml_value(v: Any) -> str:
    """One TOML value on one line: strings, whole numbers, booleans, lists and inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if hasattr(v, "isoformat"):  # TOML dates and times, as read by tomllib
        return v.isoformat()
    if isinstance(v, str):
        return f'"{v.translate(_ESCAPES)}"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


_KEY_ORDER = ("dealer", "trump", "bid", "auction", "called", "partner", "kitty", "discard", "drawn", "points",
              "captured", "tricks", "dealt", "held", "revokes", "note", "announced", "recorded")


def ordered(hand: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's keys in the order the log writes them (the known ones first, as a person reads them)."""
    return {k: hand[k] for k in sorted(hand, key=lambda k: _KEY_ORDER.index(k) if k in _KEY_ORDER else 99)}


def now() -> str:
    """The time a hand is recorded, as the log keeps it."""
    return time.strftime("%Y-%m-%dT%H:%M:%S")


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
