"""One error type for bad input, so the CLI can turn any of them into one line and exit 2.

Also the one way text from input is shown: `shown` escapes what would drive a terminal (a newline,
an escape sequence, a NUL), so a message stays one line and a file cannot paint the screen.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Sequence

# C0 and C1 controls, DEL, the line and paragraph separators, and the bidi overrides (which reorder
# what a terminal shows): none of them is plain text.
_CONTROLS = frozenset(map(chr, (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F),
                                 *range(0x2066, 0x206A))))
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


CONTROL = re.compile(f"[{re.escape(''.join(sorted(_CONTROLS)))}]")


def has_control(s: str) -> bool:
    """Whether `s` holds a control character."""
    return not _CONTROLS.isdisjoint(s)


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    return _NAMED.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")


LONGEST = 200  # characters of one word (a name, a path: no space in it) that a message echoes whole


def _cut(m: re.Match[str]) -> str:
    w = m.group()
    return f"{w[:100]}...{w[-60:]} ({len(w):,} characters)"


SURROGATE = re.compile("[\ud800-\udfff]")  # half of a character: what Python keeps of bytes that are not UTF-8


def shown(text: object) -> str:
    """Text from input as a message may show it: control characters escaped (\\n, \\x1b, \\x00), and lone
    surrogates (which no terminal, file or page can take: printing one fails), and a word too long to
    read on a line cut in the middle (its start, and its end, which names a file)."""
    s = str(text)
    if has_control(s):
        s = CONTROL.sub(_escape, s)
    if SURROGATE.search(s):
        s = SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", s)
    if len(s) > LONGEST:
        s = re.sub(rf"\S{{{LONGEST + 1},}}", _cut, s)
    return s


def control_free(v: str, where: str | None, what: str = "names and notes are plain text") -> str:
    """Refuse text holding a control character: a name, title or note is printed to terminals."""
    if has_control(v):
        raise PitchError(f"{shown(repr(v))} holds a control character; {what}", where)
    return utf8(v, where)


def utf8(v: str, where: str | None) -> str:
    """Refuse text holding bytes that are not UTF-8 (a terminal set to another encoding sends them; Python
    keeps them as lone surrogates, which no file or terminal can take)."""
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise PitchError(f"{shown(ascii(v))} holds bytes that are not UTF-8 text (is the terminal set to UTF-8?)",
                         where) from None
    return v


REPORT = "please report it (see 'Reporting a bug' in the README: the command and its --debug output)"


def bug_line(e: BaseException) -> str:
    """An exception nobody foresaw, as the one line that names it a bug and says where to report it."""
    what = shown(f"{type(e).__name__}: {e}" if str(e) else type(e).__name__)
    if len(what) > 300:
        what = what[:297] + "..."
    return f"error: internal error (a bug): {what} - {REPORT}\n"


def debug_wanted(args: Sequence[str] = ()) -> bool:
    """Whether a bug shows its traceback: `--debug` among `args` (before a `--`), or PITCHKEEPER_DEBUG=1."""
    end = list(args).index("--") if "--" in args else len(args)
    return "--debug" in args[:end] or os.environ.get("PITCHKEEPER_DEBUG", "") not in ("", "0")


class PitchError(ValueError):
    """Bad input: a message a player can act on, naming where the problem is.

    `where` is the file (and key or hand) the problem was found in; the CLI prints
    `where: message` on one line.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def at(self, where: str) -> PitchError:
        """The same error, placed inside `where` (a file name, say)."""
        inner = f"{where}: {self.where}" if self.where else where
        return PitchError(self.message, inner)

    def __str__(self) -> str:
        """One line, whatever the input it quotes holds (see `shown`)."""
        return shown(f"{self.where}: {self.message}" if self.where else self.message)


def or_list(items: Iterable[object]) -> str:
    """'2', '2 or 3', '2, 3 or 4': a list in words (nothing at all: 'none')."""
    words = [str(i) for i in items]
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice a typo most probably meant, if any is close."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return lowered[word.lower()]
    found = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[found[0]] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' - did you mean X?' or '' when nothing is close."""
    guess = nearest(word, choices)
    return f" - did you mean {guess}?" if guess and guess != word else ""


def unknown_key_words(key: str, valid: Iterable[str]) -> str:
    """"unknown key 'trumpp' - did you mean 'trump'?" (or the valid keys, when none is close)."""
    valid = list(valid)
    guess = nearest(key, valid)
    hint = f" - did you mean '{guess}'?" if guess and guess != key else f" (valid keys: {', '.join(valid)})"
    return f"unknown key '{key}'{hint}"


def unknown_key(key: str, valid: Iterable[str], where: str | None = None) -> PitchError:
    return PitchError(unknown_key_words(key, valid), where)
