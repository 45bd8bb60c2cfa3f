"""One error type for bad input, so the CLI can turn any of them into one line and exit 2."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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
        return f"{self.where}: {self.message}" if self.where else self.message


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
