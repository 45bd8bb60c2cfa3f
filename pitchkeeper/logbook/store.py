"""Match logs on disk: atomic writes under a lock, the text block of each hand, TOML written by hand.

A file is the source of truth: reads report a broken file with its line, and never guess. Reading
a record file is pitchkeeper.tomlfile's (re-exported here), so the rules of Pitch can read theirs
without importing the file layer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError
from pitchkeeper.tomlfile import (  # noqa: F401 (the reading half of the file layer, as store.*)
    INT_RANGE,
    MAX_BYTES,
    MAX_DEPTH,
    is_file,
    parse_text,
    read_bytes,
    read_record,
    read_text,
    shape_problem,
    text_line,
)


def write_atomic(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: temp file in the same folder, fsync, rename.

    A symlink is written through to its target (the link stays a link). The file keeps its line
    ends: a file written with CRLF (edited on Windows) gets CRLF again, unless `text` has its own.
    """
    import os

    p = target(path)
    folder = p.parent if str(p.parent) else Path(".")
    newline = "\r\n" if "\r" not in text and _crlf(p) else "\n"
    try:
        fd, tmp = mkstemp(folder, f".{p.name}.", ".tmp")
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


def mkstemp(folder: Path, prefix: str, suffix: str) -> tuple[int, str]:
    """tempfile.mkstemp without its import (tempfile and random cost a `hand` a few ms): a new
    private file (0600) with a random name, opened for writing; never an existing file or a link."""
    import os

    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


# The kill test's hook: a writer with $PITCHKEEPER_CRASH_AT set to one of these steps kills itself
# there, so that the test kills writers at chosen points of the write instead of at random times.
CRASH_AT = "PITCHKEEPER_CRASH_AT"
CRASH_STEPS = ("locked", "temp", "half", "synced", "renamed")


def _crash_point(chosen: str, step: str) -> None:
    import os
    import signal

    if chosen == step:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def _crlf(path: Path) -> bool:
    """Whether a file's first line ends in CRLF (False: LF, or no such regular file)."""
    import os
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # never open a pipe
        with open(path, "rb") as f:
            head = f.read(8192)
    except (OSError, ValueError):
        return False
    i = head.find(b"\n")
    return i > 0 and head[i - 1 : i] == b"\r"


def current_match() -> Path | None:
    """The match log the data dir's pointer names, or None when no match was started.

    The pointer is one absolute path on one line (write_pointer); anything else is a corrupt
    pointer, reported as such rather than followed.
    """
    import os

    from pitchkeeper.logbook.paths import current_pointer

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
    import os

    from pitchkeeper.game.records import HAND_KEYS
    from pitchkeeper.logbook.paths import data_dir

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
# edit cut or replace the exact text block of one hand. Every write is whole or nothing
# (write_atomic) and made under a lock on a sidecar file, so two writers never lose a hand.

LOCK_WAIT = 5.0  # seconds a writer waits for another before giving up ($PITCHKEEPER_LOCK_WAIT)
FORMAT = 1


def lock_path(path: Path) -> Path:
    """The sidecar file writers lock (the log itself is replaced by rename, so it cannot be locked).

    It sits beside the log's real file: two paths to one log (a symlink) share one lock.
    """
    real = target(path)
    return real.with_name(f".{real.name}.lock")


def target(path: str | Path) -> Path:
    """The file a write to `path` lands in: a symlink is followed (to be written through, not replaced)."""
    import os

    p = Path(path)
    if not p.is_symlink():
        return p
    try:
        return Path(os.path.realpath(p))
    except (OSError, ValueError):
        return p


def lock_wait() -> float:
    """Seconds a writer waits for another: $PITCHKEEPER_LOCK_WAIT, a finite number from 0 up."""
    import math
    import os

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
        import os
        import time

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
        import os

        if self.fd < 0:
            return
        if exc_type is not None and self.created and os.name == "posix":
            try:
                os.unlink(lock_path(self.path))  # still held: a waiter that opened it relocks (_same_file)
            except OSError:
                pass
        self._close()

    def _close(self) -> None:
        import os

        if self.fd >= 0:
            _unlock(self.fd)
            os.close(self.fd)
            self.fd = -1


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on an open file without waiting: True if it is ours now."""
    try:
        import fcntl
    except ImportError:  # Windows: lock the first byte (a lock file is empty; locking past its end is fine)
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int) -> None:
    import os

    try:
        import fcntl
    except ImportError:
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _same_file(fd: int, path: Path) -> bool:
    import os

    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino) or os.name != "posix"


def sweep_temps(path: Path) -> None:
    """Remove the temp files a killed writer left beside the log. Call only while holding its lock."""
    import os

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


def last_span(text: str) -> tuple[int, int] | None:
    """`hand_spans(text)[-1]` read from the end of the text: the cost of the last block, not of the log.

    Only for a text whose [[hands]] lines are known to be its hands (hand_spans with a count passed).
    """
    import re

    head_re = re.compile(r"(?m)^[ \t]*\[\[[ \t]*hands[ \t]*\]\][ \t]*(?:#.*)?$")
    width = 8192
    while True:
        pos = 0 if width >= len(text) else text.find("\n", len(text) - width) + 1
        heads = [m.start() for m in head_re.finditer(text, pos)]
        if heads or pos == 0:
            break
        width *= 8
    if not heads:
        return None
    head = heads[-1]
    others = [_comments_above(text, m.start()) for m in re.compile(r"(?m)^[ \t]*\[\[?[ \t]*([^\]\s.]+)").finditer(
        text, head) if m.group(1) != "hands"]
    return _comments_above(text, head), min([o for o in others if head < o], default=len(text))


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
    cut = text.find("\n[")  # such a key can only stand before the first table (else: no pattern to compile)
    if any(line.lstrip().startswith("hands") for line in (text if cut < 0 else text[:cut]).splitlines()):
        import re

        text = re.sub(r"(?m)^[ \t]*hands[ \t]*=[ \t]*\[[ \t]*\][ \t]*(?:#.*)?\n?", "", text, count=1)
    if text and not text.endswith("\n"):
        text += "\n"
    return text + "\n" + block


def remove_hand(text: str, number: int, count: int, span: tuple[int, int] | None = None) -> str:
    """The log without hand `number` (the blank line that separated it goes too). `span`: its block, when known."""
    start, end = span or hand_spans(text, count)[number - 1]
    before, after = text[:start], text[end:]
    if not after and before.endswith("\n\n"):
        before = before[:-1]
    return before + after


def replace_hand(text: str, number: int, count: int, block: str, span: tuple[int, int] | None = None) -> str:
    """The log with hand `number`'s keys replaced by `block` (a `[[hands]]` block).

    Comment lines of the old block are kept: those above it stay above it, those inside it
    follow the new `[[hands]]` line; so do the blank lines that end it.
    """
    start, end = span or hand_spans(text, count)[number - 1]
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


def cache_path(log: Path, suffix: str = ".status") -> Path:
    """Where a cache of `log` lives: in the data folder, keyed by the log's real path, never beside the log
    (a reading command must leave the user's folder as it found it)."""
    import os

    from pitchkeeper.logbook.paths import cache_dir, fingerprint

    real = os.path.realpath(log)
    key = _cache_keys.get(real)
    if key is None:  # (two paths of one key would only share files that each check whose they are)
        key = _cache_keys[real] = fingerprint(real.encode("utf-8", "surrogateescape"))
    return cache_dir() / f"{key}{suffix}"


_cache_keys: dict[str, str] = {}  # real path -> its key (a command asks for the same few, several times)



def blake2(data: bytes, size: int) -> str:
    """A blake2b hex digest without hashlib: hashlib loads OpenSSL, a few ms on every command that
    writes or reads a cache; CPython's own _blake2 costs a fraction of that."""
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=size).hexdigest()


def put_cache(target: Path, data: bytes) -> None:
    """Write a cache file whole or not at all (best effort: a cache that cannot be written is skipped)."""
    import os

    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = mkstemp(target.parent, f".{target.name}.", ".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except (OSError, ValueError):
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def read_cache(log: Path, version: str) -> dict[str, Any] | None:
    """The state cached for `log`, if the log and its ruleset files are exactly as they were."""
    import marshal

    try:
        c = marshal.loads(cache_path(log).read_bytes())
        if c["path"] != str(log) or c["version"] != version or c["log"] is None or c["log"] != stamp(log):
            return None
        for f, st in c["rules"]:
            if stamp(f) != st:
                return None
        return c["state"]
    except Exception:  # missing, corrupt or foreign: only a slower command
        return None


def write_cache(log: Path, log_stamp: list[int] | None, files: tuple[str, ...], version: str,
                state: dict[str, Any]) -> None:
    """Remember `state` for this version of the log (best effort: a cache that cannot be written is skipped).

    `log_stamp` must be the stamp of the very text `state` was derived from.
    """
    import marshal

    if log_stamp is None:
        return
    c = {"path": str(log), "version": version, "log": log_stamp, "rules": [[f, stamp(f)] for f in files], "state": state}
    try:
        data = marshal.dumps(c)  # built into the interpreter: `status` reads it back with nothing to import
        target = cache_path(log)
    except (OSError, ValueError, TypeError):
        return
    put_cache(target, data)
