"""Card and suit tokens: parsing every written form, printing the canonical one.

A card is its canonical token (`AS`, `10H`, `JC`, `HJ`, `LJ`, `JK`): a plain, hashable
string, so the engine can key tables by it without wrapping objects.
"""

from __future__ import annotations

from pitchkeeper.errors import PitchError, nearest

Card = str
Suit = str

SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
JOKERS: tuple[Card, ...] = ("HJ", "LJ", "JK")
JOKER_NAMES = {"HJ": "the high joker", "LJ": "the low joker", "JK": "the joker"}
# Same colour, other suit: where the off-jack (and off-ace, off-three) comes from.
PARTNER_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}

_SUIT_ALIASES = {
    "s": "S", "spade": "S", "spades": "S", "♠": "S", "♤": "S",
    "h": "H", "heart": "H", "hearts": "H", "♥": "H", "♡": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "♦": "D", "♢": "D",
    "c": "C", "club": "C", "clubs": "C", "♣": "C", "♧": "C",
}
_RANK_ALIASES = {r.lower(): r for r in RANKS} | {"t": "10"}
_JOKER_ALIASES = {
    "hj": "HJ", "lj": "LJ", "jk": "JK",
}

ALL_CARDS: tuple[Card, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
_RANK_OF = {r + s: r for s in SUITS for r in RANKS}
_SUIT_OF = {r + s: s for s in SUITS for r in RANKS}


def _strip_variation(text: str) -> str:
    # Emoji-style suit symbols often carry U+FE0F; it is not part of the card.
    return text.replace("\ufe0f", "").strip()


def try_card(text: str) -> Card | None:
    """The canonical token for `text`, or None when it is not a card."""
    t = _strip_variation(text).lower()
    if t in _JOKER_ALIASES:
        return _JOKER_ALIASES[t]
    if len(t) < 2:
        return None
    # the suit is the last character (letter or symbol)
    suit = _SUIT_ALIASES.get(t[-1])
    rank = _RANK_ALIASES.get(t[:-1])
    if suit is None or rank is None:
        return None
    return rank + suit


def parse_card(text: object) -> Card:
    """Parse one card token, or fail naming it and the card it probably meant."""
    if not isinstance(text, str):
        raise PitchError(f"{text!r} is not a card (write cards as text, such as \"10S\" or \"HJ\")")
    card = try_card(text)
    if card is None:
        raise PitchError(f"'{text}' is not a card{_card_hint(text)}")
    return card


def _card_hint(text: str) -> str:
    t = _strip_variation(text).upper()
    # The usual slips: O for 0, I or L for 1, a stray space or dash.
    fixed = t.replace("O", "0").replace("I", "1").replace(" ", "").replace("-", "")
    if fixed.startswith("L") and fixed[1:2].isdigit():
        fixed = "1" + fixed[1:]
    guess = try_card(fixed)
    if guess is None:
        guess = nearest(t, [c for c in ALL_CARDS])
    if guess is None:
        return " (a card is a rank 2-10, J, Q, K or A and a suit S, H, D or C, such as 10S; jokers are HJ, LJ, JK)"
    return f" - did you mean {guess}?"


def parse_cards(value: object) -> tuple[Card, ...]:
    """A list of card tokens, or one string of tokens separated by spaces or commas."""
    if isinstance(value, str):
        items: list[object] = [p for p in value.replace(",", " ").split() if p]
    elif isinstance(value, list):
        items = value
    else:
        raise PitchError("expected a list of cards")
    return tuple(parse_card(item) for item in items)


def parse_suit(text: object) -> Suit:
    """A suit as S, H, D, C, its name (or any start of it) or its symbol."""
    if isinstance(text, str):
        t = _strip_variation(text).lower()
        suit = _SUIT_ALIASES.get(t)
        if suit:
            return suit
        # any start of a suit's name ("sp", "diam"): no two suit names share a first letter
        named = [s for s, name in SUIT_NAMES.items() if t and name.startswith(t)]
        if len(named) == 1:
            return named[0]
    hint = ""
    if isinstance(text, str):
        guess = nearest(text, list(SUIT_NAMES.values()))
        hint = f" - did you mean {guess}?" if guess else ""
    raise PitchError(f"{text!r} is not a suit{hint} (use S, H, D, C, spades, hearts, diamonds or clubs)")


def suit_of(card: Card) -> Suit | None:
    """The printed suit, None for a joker."""
    return _SUIT_OF.get(card)


def card_name(card: Card) -> str:
    """Words for a card: 'the jack of clubs'."""
    if card in JOKER_NAMES:
        return JOKER_NAMES[card]
    return f"the {RANK_NAMES[_RANK_OF[card]]} of {SUIT_NAMES[_SUIT_OF[card]]}"


def pretty(card: Card) -> str:
    """The card with its suit symbol, for the terminal: '10♠'."""
    if card in JOKERS:
        return card
    return _RANK_OF[card] + SUIT_SYMBOLS[_SUIT_OF[card]]
