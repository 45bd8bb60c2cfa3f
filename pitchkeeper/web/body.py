"""The JSON body of a hand (spec sections 3 and 7), checked for its shape before the library sees it.

The library checks names, cards, bids and points against the log; what it is not made for is JSON's
own values (`null`, a number where a table goes), which would otherwise surface as "cannot write
NoneType as TOML". And a client that says who won nothing ("tie", "none") is told the contract's way
to say it: leave the point out.
"""

from __future__ import annotations

from typing import Any

from pitchkeeper.errors import PitchError, shown

NOBODY_WORDS = {"tie", "tied", "none", "nobody", "not out", "-", ""}

TABLE_OF_CARDS = "a table { player or side = [cards ...] }"
SHAPES: dict[str, tuple[str, str]] = {
    # key: (the JSON type it must be, how the message names it)
    "dealer": ("str", "a player's name"),
    "trump": ("str", "a suit (S, H, D, C)"),
    "bid": ("dict", "a table { player = ..., amount = ... }"),
    "auction": ("list", 'a list of calls ["Bob:pass", "Cy:2"]'),
    "captured": ("dict", TABLE_OF_CARDS),
    "dealt": ("dict", "a table { player = [cards ...] }"),
    "held": ("dict", "a table { player = [cards ...] }"),
    "points": ("dict", 'a table { point = who won it }, e.g. { high = "Us" }'),
    "tricks": ("list", 'a list of { leader = ..., cards = [...] }'),
    "revokes": ("list", "a list of players"),
    "note": ("str", "text"),
}
TYPES: dict[str, Any] = {"str": str, "dict": dict, "list": (list, str)}  # a list may also be one string


def checked(hand: dict[str, Any], number: int, sides: list[str], players: list[str]) -> dict[str, Any]:
    """The body as it came, or a PitchError placed at `hands[N].key` (the library's own naming)."""
    where = f"hands[{number}]"
    for key, (kind, words) in SHAPES.items():
        if key not in hand:
            continue
        v = hand[key]
        if not isinstance(v, TYPES[kind]):
            got = "null" if v is None else type(v).__name__
            raise PitchError(f"expected {words}, got {got}", f"{where}.{key}")
    bid = hand.get("bid")
    if isinstance(bid, dict):
        amount = bid.get("amount")
        if not isinstance(bid.get("player"), str) or isinstance(amount, bool) or not isinstance(amount, (int, str)):
            raise PitchError(f"expected {SHAPES['bid'][1]}", f"{where}.bid")
    for key in ("captured", "dealt", "held"):
        for who, cards in (hand.get(key) or {}).items():
            if not isinstance(cards, (list, str)):
                raise PitchError(f"expected a list of cards, got {'null' if cards is None else type(cards).__name__}",
                                 f"{where}.{key}.{shown(who)}")
    names = set(sides) | set(players)
    for point, who in (hand.get("points") or {}).items():
        nobody = who is None or (isinstance(who, str) and who.strip().lower() in NOBODY_WORDS and who not in names)
        if nobody:
            raise PitchError(f"{shown(repr(who)) if who is not None else 'null'} is not a team or player: to say "
                             "nobody won it (not out, or game tied), leave it out", f"{where}.points.{shown(point)}")
        if not isinstance(who, str):
            raise PitchError(f"expected a team or player's name, got {type(who).__name__}",
                             f"{where}.points.{shown(point)}")
    return hand
