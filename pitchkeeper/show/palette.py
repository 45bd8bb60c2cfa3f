"""The one terminal palette: how cards, suits, signs and verdicts look, whatever draws them.

Every drawing takes its words and styles from here (`show.ansi`, `show.render`, `show.board`,
`show.scorecard`). A style is a string such as "bold green" (as Rich writes them). Nothing here prints.
"""

from __future__ import annotations

from pitchkeeper.game.cards import pretty
from pitchkeeper.game.vocabulary import SUIT_NAMES, SUIT_SYMBOLS

RED_SUITS = ("H", "D")
DIM = "dim"
GOOD = "green"  # a bid made, a gain, a match won
BAD = "red"  # a bid set, a loss, a score in the hole, an illegal play
WINNER = "bold green"
HEADING = "bold cyan"
WARNING = "yellow"


def card(c: str | None) -> tuple[str, str]:
    """A card as (words, style): its suit symbol, red for hearts, diamonds and the high joker."""
    if c is None:
        return "-", DIM
    return pretty(c), BAD if c[-1] in RED_SUITS or c == "HJ" else ""


def suit(s: str) -> tuple[str, str]:
    """A suit as (words, style): "♠ spades"."""
    return f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}", BAD if s in RED_SUITS else ""


def signed(n: int, down: bool = False) -> tuple[str, str]:
    """A score change as (words, style): "+3" green, "-2" red, "+0" dim; counting down (`down`), a score
    that comes down is the good change: "-3" green, "+2" red."""
    good = n < 0 if down else n > 0
    return f"{n:+d}", DIM if n == 0 else GOOD if good else BAD


def made(ok: bool, strong: bool = False) -> tuple[str, str]:
    """A bid's fate as (words, style)."""
    style = GOOD if ok else BAD
    return ("made" if ok else "set"), (f"bold {style}" if strong else style)


def score(n: int, hole: bool | None = None) -> tuple[str, str]:
    """A running score as (words, style): red in the hole (below zero, or where `hole` says: counting down, a
    score above the start)."""
    return str(n), "bold red" if (n < 0 if hole is None else hole) else "bold"
