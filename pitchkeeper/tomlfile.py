"""Reading a TOML record file: its bytes, its text, its table - every problem one PitchError naming
the file (and the line, where TOML says). The lowest floor of the file layer, beside `errors`: the
rules of Pitch (game.rulesets) read their files with it, the logbook reads match logs with it.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from pitchkeeper.errors import PitchError


def read_record(path: str | Path) -> dict[str, Any]:
    """A TOML record file as a table; a missing, unreadable or broken file is a PitchError naming it."""
    return parse_text(read_text(path, "file"), path, "")


MAX_BYTES = 64 * 1024 * 1024  # a record file is a few KB; a bigger one is a mistake, not a record
MAX_DEPTH = 32  # tables and arrays nested deeper than this are no record (and would exhaust the stack)
READ_CHUNK = 1 << 20  # what a file that grew while it was read is read on by
INT_RANGE = (-(2**63), 2**63 - 1)  # TOML integers are 64-bit: anything else is refused, as the spec asks


def read_text(path: str | Path, kind: str = "match log (start one with `pitchkeeper new`)") -> str:
    """A file's text, CRLF line ends read as LF (write_atomic keeps the file's own ends).

    A missing, unreadable, non-UTF-8 or non-regular file (a folder, a pipe, a device) is a PitchError
    naming it: a pipe is refused before it is read, so a command never waits on one.
    """
    return decoded(read_bytes(path, kind), path)


def decoded(raw: bytes, path: str | Path) -> str:
    """A file's bytes as text (read_text): UTF-8, CRLF line ends read as LF; anything else a PitchError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PitchError(f"line {text_line(raw[: e.start].decode('utf-8', 'replace'))}: "
                         f"not UTF-8 text (byte {e.start})", str(path)) from None
    return text.replace("\r\n", "\n") if "\r" in text else text


def read_bytes(path: str | Path, kind: str = "file") -> bytes:
    """A regular file's bytes; anything else is a PitchError naming the path (see read_text)."""
    try:
        if not _NONBLOCK:  # Windows: no pipe can be opened without waiting, so look first
            _regular(os.stat(path), path, kind)
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise PitchError(f"no such {kind}", str(path)) from None
    except IsADirectoryError:
        raise PitchError(f"is a folder, not a {_what(kind)}", str(path)) from None
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(path)) from None
    except ValueError:  # a NUL in the name, or half a character (a lone surrogate): no file can have it
        why = "holds a NUL character" if "\0" in str(path) else "is not valid text"
        raise PitchError(f"no such {kind} (the name {why})", str(path)) from None
    try:
        st = os.fstat(fd)
        _regular(st, path, kind)
        if st.st_size > MAX_BYTES:
            raise PitchError(f"too large for a {_what(kind)} ({st.st_size // 2**20} MB)", str(path))
        # the size fstat gave, and one byte more (a file that grew meanwhile is read on, up to the limit);
        # one read of the limit at once would make room for all of it, on every file
        data, want = b"", st.st_size + 1
        while len(data) <= MAX_BYTES:
            chunk = os.read(fd, want)
            if not chunk:
                break
            data += chunk
            want = min(READ_CHUNK, MAX_BYTES + 1 - len(data))
        return data
    except OSError as e:
        raise PitchError(f"cannot read: {e.strerror or e}", str(path)) from None
    finally:
        os.close(fd)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS = os.O_RDONLY | _NONBLOCK | getattr(os, "O_BINARY", 0)


def _what(kind: str) -> str:
    """"match log (start one with ...)" -> "match log": what a file should have been, for a message."""
    return kind.split(" (")[0]


def _irregular(mode: int) -> str | None:
    """What a file that cannot be read as one is, in a message's words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return "is a folder" if stat.S_ISDIR(mode) else "is not a regular file (a pipe, socket or device)"


def not_a_file(path: str | Path) -> str | None:
    """Why a name that is there is no file to read ("is a folder", "is not a regular file (a pipe, socket
    or device)"); None where it is a regular file or nothing is there (the caller says "not found")."""
    try:
        return _irregular(os.stat(path).st_mode)
    except (OSError, ValueError):
        return None


def _regular(st: Any, path: str | Path, kind: str) -> None:
    why = _irregular(st.st_mode)
    if why is None:
        return
    what = _what(kind)
    raise PitchError(why if what == "file" else f"{why}, so not a {what}", str(path))


def is_file(path: str | Path) -> bool:
    """Path.is_file for a name read from input: a name too long or holding a NUL is simply no file."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def parse_text(text: str, path: str | Path, note: str = "; the log was not changed") -> dict[str, Any]:
    """TOML text as a table; a broken file is reported with its line (tomllib says where).

    Also bad input, not a crash: nesting too deep for the parser (or for anything that walks the
    data), and integers TOML does not have (beyond 64 bits; Python refuses thousands of digits).
    """
    try:
        data = tomllib.loads(text)
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
    except RecursionError:
        raise PitchError(f"not a record: nested deeper than {MAX_DEPTH} levels{note}", str(path)) from None
    except ValueError:  # an integer of thousands of digits (Python's int-from-text limit)
        raise PitchError(f"not a record: an integer beyond the 64-bit range of TOML{note}", str(path)) from None
    problem = shape_problem(data)
    if problem:
        raise PitchError(f"not a record: {problem}{note}", str(path))
    return data


def shape_problem(data: Any) -> str | None:
    """What makes parsed TOML unfit to be a record, walking it without recursion (None: nothing).

    Tables or arrays nested deeper than MAX_DEPTH, and integers outside 64 bits (TOML's own range;
    Python would take them, and then fail far from the file when showing or writing them).
    """
    lo, hi = INT_RANGE
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            items: Any = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if depth >= MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        for x in items:
            if isinstance(x, dict | list):
                stack.append((x, depth + 1))
            elif type(x) is int and not lo <= x <= hi:
                return "an integer beyond the 64-bit range of TOML"
    return None


def text_line(text: str, offset: int | None = None) -> int:
    """The line number (from 1) of a character offset (default: the end)."""
    return text.count("\n", 0, len(text) if offset is None else offset) + 1
