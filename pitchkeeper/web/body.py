"""The JSON body of a hand (spec sections 3 and 7), checked for its shape before the library sees it.

The library checks names, cards, bids and points against the log; what it is not made for is JSON's
own values (`null`, a number where a table goes), which would otherwise surface as "cannot write
NoneType as TOML". And a client that says who won nothing ("tie", "none") is told the contract's way
to say it: leave the point out.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any
from urllib.parse import parse_qsl

from pitchkeeper.errors import PitchError, shown

# The deepest a record nests (spec sections 3 and 7): a hand { tricks = [ { cards = [...] } ] }, four
# levels. A body nested deeper is no record, and it is refused before it is parsed (the parser recurses).
DEPTH = 4
_TOKEN = re.compile(rb'["\[\]{}]')
_STRING_REST = re.compile(rb'(?:[^"\\]++|\\.)*+"', re.DOTALL)  # possessive: one pass, never back


def depth(raw: bytes, enough: int = DEPTH + 1) -> int:
    """How deep the arrays and objects of a JSON text nest (counted up to `enough`), brackets inside
    strings left out, in one pass (an unterminated string ends the count: the parser then says what
    is wrong)."""
    deepest = level = i = 0
    while (m := _TOKEN.search(raw, i)) is not None:
        c = m.group()
        if c == b'"':
            end = _STRING_REST.match(raw, m.end())
            if end is None:
                break
            i = end.end()
            continue
        i = m.end()
        if c in b"[{":
            level += 1
            deepest = max(deepest, level)
            if deepest >= enough:
                break
        else:
            level -= 1
    return deepest


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise PitchError(f"the key {shown(ascii(k))} is given twice", "body")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise PitchError(f"{name} is not a JSON number", "body")


LONGEST_NUMBER = 400  # digits: far beyond any value of a record (64 bits have 19), short of Python's own limit


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > LONGEST_NUMBER:
        raise PitchError(f"a number of {len(digits.lstrip('-')):,} digits: no value of a record is so long", "body")
    return int(digits)


def _fraction(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise PitchError(f"the number {shown(text[:40])} is too large for JSON's numbers", "body")
    return value


def json_kind(v: Any) -> str:
    """A JSON value as the client wrote it, in JSON's words (null, true, a number, text, an array, an
    object), never Python's type names."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"the number {shown(json.dumps(v))[:40]}"
    if isinstance(v, str):
        return f"the text {shown(json.dumps(v, ensure_ascii=False))[:60]}"
    if isinstance(v, list):
        return "an array"
    return "an object"


def _unicode(v: Any, where: str) -> None:
    """Every key and string valid Unicode: JSON's escapes can spell a lone surrogate (\\ud800), which
    no file, terminal or page can hold."""
    items: Any = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise PitchError(f"{shown(ascii(v))} is not valid Unicode text (a lone surrogate)", where) from None
    for k, item in items:
        if isinstance(k, str):
            _unicode(k, where)
            _unicode(item, f"{where}.{shown(ascii(k)[1:-1])}")
        else:
            _unicode(item, f"{where}[{k}]")


def parse_json(raw: bytes) -> Any:
    """A JSON body as a strict reader takes it: UTF-8, nested no deeper than a record, every key and
    string valid Unicode, no key twice, no NaN or Infinity. A PitchError (one line) otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PitchError(f"not UTF-8 text (byte {e.start + 1} is {raw[e.start]:#04x})", "body") from None
    if depth(raw) > DEPTH:
        raise PitchError(f"JSON nested more than {DEPTH} deep; a record nests {DEPTH} deep at most", "body")
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_pairs, parse_constant=_no_constant,
                          parse_int=_whole, parse_float=_fraction)
    except PitchError:
        raise
    except ValueError as e:
        raise PitchError(f"not JSON: {shown(e)}", "body") from None
    _unicode(data, "body")
    return data


def form_pairs(raw: bytes) -> list[tuple[str, str]]:
    """A posted form (application/x-www-form-urlencoded) as (name, value) pairs; PitchError when it is
    not UTF-8 text (a browser never sends that)."""
    try:
        return parse_qsl(raw.decode("utf-8"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeError:
        raise PitchError("the form is not UTF-8 text", "body") from None

NOBODY_WORDS = {"tie", "tied", "none", "nobody", "not out", "-", ""}

CARDS_OF = 'an object {"Ann": ["AS", "JS"]}'
SHAPES: dict[str, tuple[str, str]] = {
    # key: (the JSON type it must be, how the message names it: in JSON's words, as the client wrote it)
    "dealer": ("str", "a player's name"),
    "trump": ("str", "a suit (S, H, D, C)"),
    "bid": ("dict", 'an object {"player": "Ann", "amount": 3}'),
    "auction": ("list", 'an array of calls ["Bob:pass", "Cy:2"]'),
    "captured": ("dict", 'an object {"Us": ["AS", "JS"]} (a side or player, and the cards it took)'),
    "dealt": ("dict", CARDS_OF),
    "held": ("dict", CARDS_OF),
    "points": ("dict", 'an object {"high": "Us", ...} (each point, and who won it)'),
    "tricks": ("list", 'an array of {"leader": "Ann", "cards": [...]}'),
    "revokes": ("list", "an array of players"),
    "note": ("str", "text"),
    "kitty": ("list", 'an array of cards ["AS", "5H", "JD"]'),
    "discard": ("cards", 'an array of the bidder\'s cards, or an object {"Ann": ["AS"]}'),
    "drawn": ("dict", CARDS_OF),
    "called": ("str", 'a card, such as "AH"'),
    "partner": ("str", 'a player, or "none"'),
}
# a list may also be one string; cards: a list (or one string) of the bidder's, or a table player -> cards
TYPES: dict[str, Any] = {"str": str, "dict": dict, "list": (list, str), "cards": (list, str, dict)}


def checked(hand: dict[str, Any], number: int, sides: list[str], players: list[str]) -> dict[str, Any]:
    """The body as it came, or a PitchError placed at `hands[N].key` (the library's own naming)."""
    where = f"hands[{number}]"
    for key, (kind, words) in SHAPES.items():
        if key not in hand:
            continue
        v = hand[key]
        if not isinstance(v, TYPES[kind]):
            raise PitchError(f"expected {words}, got {json_kind(v)}", f"{where}.{key}")
    bid = hand.get("bid")
    if isinstance(bid, dict):
        player, amount = bid.get("player"), bid.get("amount")
        if "player" in bid and not isinstance(player, str):
            raise PitchError(f"expected the bidder's name, got {json_kind(player)}", f"{where}.bid.player")
        if "amount" in bid and (isinstance(amount, bool) or not isinstance(amount, (int, str))):
            raise PitchError(f"expected a whole number (or \"smudge\"), got {json_kind(amount)}", f"{where}.bid.amount")
    for key in ("captured", "dealt", "held", "drawn", "discard"):
        table = hand.get(key)
        for who, cards in (table.items() if isinstance(table, dict) else ()):
            if not isinstance(cards, (list, str)):
                raise PitchError(f"expected an array of cards, got {json_kind(cards)}", f"{where}.{key}.{shown(who)}")
    names = set(sides) | set(players)
    for point, who in (hand.get("points") or {}).items():
        nobody = who is None or (isinstance(who, str) and who.strip().lower() in NOBODY_WORDS and who not in names)
        if nobody:
            raise PitchError(f"{shown(repr(who)) if who is not None else 'null'} is not a team or player: to say "
                             "nobody won it (not out, or game tied), leave it out", f"{where}.points.{shown(point)}")
        if not isinstance(who, str):
            raise PitchError(f"expected a team or player's name, got {json_kind(who)}", f"{where}.points.{shown(point)}")
    return hand
