"""The table's PIN and session secret, kept in the data folder from one run of `serve` to the next.

The PIN is the table's for the evening (spec section 7): generated once, kept until `serve --new-pin`;
the secret that signs the pages' cookies is kept beside it, so a page that entered the PIN stays signed
in when `serve` restarts. Both are small text files readable by their owner only (0600), read as plain
text and nothing else: a file that is not a regular file (a link, a folder, a pipe), that others may
read, that someone else owns, or that does not hold what it should, is not used - a new one replaces
it, and the console is told why. Nothing in these files can make pitchkeeper run code.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from pitchkeeper.web.guard import PIN_DIGITS, new_pin

PIN_FILE = "serve-pin"
SECRET_FILE = "serve-secret"
PIN_TEXT = re.compile(rf"\d{{{PIN_DIGITS}}}")
SECRET_TEXT = re.compile(r"[0-9a-f]{64}")
LARGEST = 256  # bytes: either file is one short line


@dataclass
class Keys:
    """What `serve` signs with and asks for, and what the console should say about it."""

    pin: str
    secret: bytes
    kept_since: float | None = None  # the PIN file's time when an existing PIN was used
    notes: list[str] = field(default_factory=list)  # one line each, for the console
    kept: bool = True  # False: the folder could not keep them, they last for this run only


def _read(path: Path, largest: int = LARGEST) -> tuple[str | None, str | None, float | None]:
    """(the file's text, why it is not used, its time). A missing file is (None, None, None)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):
            return None, "is a symbolic link (to nothing)", None
        return None, None, None
    except OSError as e:
        if os.path.islink(path):
            return None, "is a symbolic link", None
        return None, f"cannot be read ({e.strerror or e})", None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "is a folder" if stat.S_ISDIR(st.st_mode) else "is not a regular file", None
        if os.name == "posix":
            if st.st_uid != os.geteuid():
                return None, "is owned by another user", None
            if st.st_mode & 0o077:
                return None, f"is readable by others (mode {stat.S_IMODE(st.st_mode):o}): it may have been read", None
        data = os.read(fd, largest + 1)
    except OSError as e:
        return None, f"cannot be read ({e.strerror or e})", None
    finally:
        os.close(fd)
    if len(data) > largest:
        return None, "is too large", None
    try:
        return data.decode("ascii").strip(), None, st.st_mtime
    except UnicodeDecodeError:
        return None, "is not text", None


def _write(path: Path, text: str) -> str | None:
    """Write `text` atomically, readable by the owner only; why not, or None."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.write(fd, (text + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)  # a link or a pipe in the way is replaced, never written through
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return e.strerror or str(e)
    return None


def _kept(path: Path, pattern: re.Pattern[str], what: str, make: str, renew: bool,
          notes: list[str]) -> tuple[str, float | None, bool]:
    """The value kept in `path` (when it is one), else `make` written there. (value, time, kept)."""
    if not renew:
        text, why, when = _read(path)
        if text is not None and pattern.fullmatch(text):
            return text, when, True
        if text is not None:
            why = f"does not hold a {what}"
        if why:
            notes.append(f"{path} {why}; not used: a new {what} replaces it")
    failed = _write(path, make)
    if failed:
        notes.append(f"cannot keep the {what} in {path} ({failed}): it lasts for this run of serve only")
    return make, None, failed is None


def table_keys(folder: Path, *, renew: bool = False, keep_pin: bool = True) -> Keys:
    """The kept PIN and secret (made and kept when missing; made anew with `renew`). `keep_pin` False:
    the PIN is given on the command line, so only the secret is kept."""
    notes: list[str] = []
    secret_hex, _, secret_kept = _kept(folder / SECRET_FILE, SECRET_TEXT, "session secret", secrets.token_hex(32),
                                       renew, notes)
    if not keep_pin:
        return Keys("", bytes.fromhex(secret_hex), None, notes, secret_kept)
    pin, since, pin_kept = _kept(folder / PIN_FILE, PIN_TEXT, "PIN", new_pin(), renew, notes)
    return Keys(pin, bytes.fromhex(secret_hex), since, notes, secret_kept and pin_kept)


def since_words(when: float) -> str:
    """When a kept PIN was made, as the console says it."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when))


# ---------------------------------------------------------------------------
# a club night's PINs: the organizer's, and one per table (spec section 8.1)

NIGHTS = "nights"  # the data folder's folder of the nights' PINs
NIGHT_LINE = re.compile(rf"(organizer|\d{{1,4}}) (\d{{{PIN_DIGITS}}})")
NIGHT_LARGEST = 64 * 1024


@dataclass
class NightKeys:
    """A tournament's PINs for its night: the organizer's (does everything) and each table's (reports that
    table's result only); with the kept session secret."""

    organizer: str
    tables: dict[int, str]
    secret: bytes
    path: Path
    made: bool = False  # made now (not read from the folder)
    notes: list[str] = field(default_factory=list)
    kept: bool = True


def night_file(folder: Path, tournament: Path) -> Path:
    """Where a tournament's PINs are kept: the data folder's `nights/`, named after the file and its path
    (a tournament moved elsewhere gets new PINs: print its cards again)."""
    real = Path(os.path.abspath(tournament))
    digest = hashlib.blake2b(str(real).encode("utf-8", "surrogateescape"), digest_size=5).hexdigest()
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", real.stem)[:40] or "tournament"
    return folder / NIGHTS / f"{stem}-{digest}.pins"


def _night_text(organizer: str, tables: dict[int, str]) -> str:
    return "\n".join([f"organizer {organizer}", *(f"{n} {p}" for n, p in sorted(tables.items()))])


def night_keys(folder: Path, tournament: Path, tables: int, *, renew: bool = False) -> NightKeys:
    """The tournament's kept PINs (ten digits each, made once, readable by their owner only), a PIN for
    each of tables 1..`tables` (made for the tables that have none yet); all made anew with `renew`. The
    file is read as `serve-pin` is: plain text, no link, no pipe, nobody else's, else replaced and told."""
    notes: list[str] = []
    secret_hex, _, secret_kept = _kept(folder / SECRET_FILE, SECRET_TEXT, "session secret", secrets.token_hex(32),
                                       False, notes)
    path = night_file(folder, tournament)
    organizer, pins, made = "", {}, True
    if not renew:
        text, why, _when = _read(path, NIGHT_LARGEST)
        if text is not None:
            lines = [NIGHT_LINE.fullmatch(line.strip()) for line in text.splitlines() if line.strip()]
            if lines and all(lines):
                for m in lines:
                    assert m is not None
                    if m.group(1) == "organizer":
                        organizer = m.group(2)
                    else:
                        pins[int(m.group(1))] = m.group(2)
            if not organizer:
                why = why or "does not hold a night's PINs"
                pins = {}
        if why:
            notes.append(f"{path} {why}; not used: new PINs replace it (print the table cards again)")
        made = not organizer
    changed = made or any(n not in pins for n in range(1, tables + 1))
    organizer = organizer or new_pin()
    for n in range(1, tables + 1):
        pins.setdefault(n, new_pin())
    kept = True
    if changed:
        failed = _write(path, _night_text(organizer, pins))
        if failed:
            notes.append(f"cannot keep the night's PINs in {path} ({failed}): they last for this run of serve only")
            kept = False
    return NightKeys(organizer, pins, bytes.fromhex(secret_hex), path, made, notes, kept and secret_kept)
