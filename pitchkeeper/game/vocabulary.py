"""One vocabulary: the words for suits, ranks, jokers, trump symbols and points, in one table.

Pure data (and two lookups) for every layer that speaks: the verdict's reasons (game.scoring,
game.play), the rules in words (words.explain, words.disputes) and the terminal (show.palette).
Kept in the game layer because the domain's own messages use it; it imports nothing heavy.
"""

from __future__ import annotations

from pitchkeeper.game.cards import JOKER_NAMES, RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS
from pitchkeeper.game.points import POINTS

__all__ = ["JOKER_NAMES", "POINTS", "RANK_NAMES", "SUIT_NAMES", "SUIT_SYMBOLS", "SYMBOL_WORDS", "point_words",
           "symbol_words", "target_words"]

# The trumps that are not cards of the trump suit itself: (short words, words that explain them)
_SYMBOLS = {
    "off-J": ("the off-jack", "the off-jack (the jack of the same colour)"),
    "off-A": ("the off-ace", "the off-ace (the ace of the same colour)"),
    "off-3": ("the off-three", "the off-three (the three of the same colour)"),
    "HJ": ("the high joker", "the high joker"),
    "LJ": ("the low joker", "the low joker"),
    "JK": ("the joker", "the joker"),
}
SYMBOL_WORDS = {sym: short for sym, (short, _) in _SYMBOLS.items()}


def symbol_words(sym: str, explained: bool = False) -> str:
    """A symbol of a trump order in words: 'the off-jack', 'the ten of trumps'."""
    if sym in _SYMBOLS:
        return _SYMBOLS[sym][1 if explained else 0]
    return f"the {RANK_NAMES[sym]} of trumps"


def point_words(pid: str) -> str:
    """A point id in words ('all the tricks'); an id of a ruleset's own is its own word."""
    return POINTS.get(pid, pid)


def target_words(reach: str, target: int, direction: str = "up") -> str:
    """The goal as the table says it, agreeing with `match.needed`: "to 21", or "must pass 21" where the
    ruleset requires exceeding the target (a side at 0 then needs 22, not 21); counting down, "down from
    7 to 0" or "down from 7, must pass 0"."""
    if direction == "down":
        return f"down from {target} to 0" if reach == "reach" else f"down from {target}, must pass 0"
    return f"to {target}" if reach == "reach" else f"must pass {target}"
