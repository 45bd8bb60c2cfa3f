"""The examples' table and cards, drawn from a ruleset's own data: its deck, its table shapes, its trumps.

`rules explain` tells each answer with an example at a table the ruleset allows: the first team size of
`players.team_sizes` at the first table size of `players.counts` it fits (partners seated crosswise,
as a new match seats them: `crosswise`), or, where the bidder calls a partner, a table of the first size
of `partner.counts` with the hand's own sides (Ann+Cy against Bob+Dee+Eve). Spades are trump.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pitchkeeper.game import vocabulary
from pitchkeeper.game.cards import PARTNER_SUIT, Card, pretty
from pitchkeeper.game.kinds import KINDS
from pitchkeeper.game.partners import Teams, crosswise, team_name
from pitchkeeper.game.play import TRUMP, allowed, card_list
from pitchkeeper.game.rulesets import PointRule, Ruleset, symbol_card

SAMPLE = "S"  # examples are told with spades as trump
PARTNER = PARTNER_SUIT[SAMPLE]
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


class Parts(NamedTuple):
    """What a topic's answer is made of, for one ruleset."""

    summary: str  # one line, for the list of topics
    answer: str  # the answer in plain words
    example: str  # one line, with cards where useful
    keys: tuple[str, ...]  # the ruleset settings the answer is drawn from


class Seats(NamedTuple):
    """The example's table."""

    players: tuple[str, ...]  # clockwise; Ann deals unless an example says otherwise
    teams: Teams | None  # None: each for himself (or, with `calls`, the hand's sides below)
    calls: bool  # the bidder calls a partner: in the examples Ann bids and Cy holds the card she calls
    together: bool = True  # with `calls`: the defenders play as one side (partner.defenders)

    def side_of(self, player: str) -> str:
        """The side a player plays on in the examples: its team, its hand side (Ann+Cy), or itself."""
        if self.teams:
            return next(t for t, ms in self.teams if player in ms)
        if self.calls:
            team = ("Ann", "Cy")
            if player in team:
                return team_name(team)
            others = [p for p in self.players if p not in team]
            return team_name(others) if self.together else player
        return player

    @property
    def sides(self) -> tuple[str, str]:
        """The first two sides: the bidding side (Ann's) and another."""
        return self.side_of("Ann"), self.side_of("Bob")


def calling_seats(r: Ruleset) -> Seats | None:
    """A table that calls a partner, of the first size of `partner.counts` (None: no table calls)."""
    counts = r.settings["partner"]["counts"]
    if not counts:
        return None
    return Seats(NAMES[:counts[0]], None, True, r.settings["partner"]["defenders"] == "together")


def seats(r: Ruleset) -> Seats:
    """The first table shape the ruleset allows: its first team size at the first table size that fits it."""
    p = r.settings["players"]
    size = p["team_sizes"][0]
    if size > 1:
        for n in p["counts"]:
            teams = crosswise(NAMES[:n], size)
            if teams:
                return Seats(NAMES[:n], teams, False)
    n = p["counts"][0]
    calling = calling_seats(r)
    if calling is not None and r.calls_partner(n):
        return calling
    return Seats(NAMES[:n], None, False)


def partners(r: Ruleset) -> bool:
    """Whether the usual game (the first table shape) is played by sides of more than one player."""
    s = seats(r)
    return s.teams is not None or s.calls


def sides(r: Ruleset) -> tuple[str, str]:
    return seats(r).sides


def who(r: Ruleset, player: str) -> str:
    """'Ann', or where sides have several players 'Ann's side (Us)'."""
    side = seats(r).side_of(player)
    return player if side == player else f"{player}'s side ({side})"


def verb(side: str, plural: str, singular: str) -> str:
    """The verb that agrees with a side's name: 'Them pass', 'Bob passes', 'Bob+Dee+Eve pass'."""
    return plural if side in ("Us", "Them") or "+" in side else singular


def others(players: Sequence[str], but: str) -> str:
    """'Bob, Cy and Dee': every player but one, in seating order from the one after him."""
    i = players.index(but)
    rest = [*players[i + 1:], *players[:i]]
    return rest[0] if len(rest) == 1 else f"{', '.join(rest[:-1])} and {rest[-1]}"


# ---------------------------------------------------------------------------
# Cards of the ruleset's own deck


def trump(r: Ruleset, sym: str) -> Card:
    return symbol_card(sym, SAMPLE)


def plain(r: Ruleset, suit: str, k: int = 1, high: bool = False) -> list[Card]:
    """`k` cards of `suit` that stay in their suit with spades trump, low ones first (or high)."""
    view = r.views[SAMPLE]
    ranks = r.settings["play"]["plain_order"]
    cards = [rk + suit for rk in (ranks if high else reversed(ranks))
             if rk + suit in r.deck and view.suit[rk + suit] != TRUMP]
    return cards[:k]


def lowest_trump(r: Ruleset) -> Card:
    return trump(r, r.settings["trump"]["order"][-1])


def bid(r: Ruleset) -> int:
    """A middling bid of this ruleset, for examples."""
    b = r.settings["bidding"]
    return min(max(b["min"], 3), b["max"])


def short(sym: str) -> str:
    """'the off-jack', 'the high joker', 'the ten of trumps'."""
    return vocabulary.symbol_words(sym)


def may(r: Ruleset, holding: list[Card], led: str | None, *, called: Card | None = None) -> str:
    """What the play model allows from `holding`, in words."""
    a = allowed(r, r.views[SAMPLE], holding, led, called=called)
    if len(a.cards) == len(holding):
        return "may play any card"
    if not a.cards:
        return "may play nothing (folds)"
    return f"must play {' or '.join(pretty(c) for c in a.cards)}" if len(a.cards) <= 2 else \
        f"must play one of {card_list(a.cards)}"


def points_of(r: Ruleset, of: str) -> list[PointRule]:
    """The ruleset's points of one kind: a topic is a dispute about a particular kind of point."""
    assert of in KINDS, of  # a topic names a registered kind (game.kinds)
    return [p for p in r.points if p.of == of]


def game_points(r: Ruleset) -> list[PointRule]:
    return [p for p in r.points if p.kind.game]


def card_point(r: Ruleset, sym: str) -> PointRule | None:
    """The point for one particular card (a kind that takes `card`), if any."""
    return next((p for p in r.points if "card" in p.kind.keys and p.card == sym), None)


def worth(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def to(p: PointRule) -> str:
    return "the player dealt it" if p.to == "dealt" else "whoever captures it"


def order_words(order: Sequence[str], sym: str) -> str:
    i = order.index(sym)
    above = f"below {short(order[i - 1])}" if i else "the highest trump"
    below = f" and above {short(order[i + 1])}" if i + 1 < len(order) else " (the lowest trump)"
    return f"{above}{below}"


def cards_words(cards: Sequence[Card]) -> str:
    """Cards as the table reads them: 'A♠ 5♥ 2♣'."""
    return " ".join(pretty(c) for c in cards)
