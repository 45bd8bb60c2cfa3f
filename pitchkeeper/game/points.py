"""The point ids of the contract (spec section 3), one entry each: its id and its words.

Everything that lists points takes them from here: the record parser (POINT_IDS), a ruleset's
default labels, the verdict's award order, and the `--high`, `--low`, ... options of `hand` and
`edit`. A new point id is one entry. (How a point is won is its ruleset's `of` kind, scored in
game.kinds.) It imports nothing: every layer may read it.
"""

from __future__ import annotations

# id -> the words for it, in the contract's order (verdicts list awards this way)
POINTS = {
    "high": "high",
    "low": "low",
    "jack": "jack",
    "off-jack": "off-jack",
    "high-joker": "high joker",
    "low-joker": "low joker",
    "joker": "joker",
    "game": "game",
    "ace": "ace",
    "off-ace": "off-ace",
    "ten": "ten",
    "three": "three",
    "off-three": "off-three",
    "five": "five",
    "deuce": "deuce",
    "all-tricks": "all the tricks",
}

POINT_IDS = tuple(POINTS)
