"""What a verdict is made of: the points won, the game count, the bid, the score change.

Immutable NamedTuples; every reason is worded only when it is read (a replay or `stats` makes
verdicts by the thousand and reads few reasons). `scoring` makes them; the front ends read them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchkeeper.game.cards import Card, pretty

if TYPE_CHECKING:
    from pitchkeeper.game.bidding import Outcome
    from pitchkeeper.game.deal import Deal
    from pitchkeeper.game.play import Illegal, TrickResult
    from pitchkeeper.game.rulesets import PointRule


class Why(NamedTuple):
    """Why a point went where it did: how, what made it so, and the point's rule."""

    # a card's point: "captor" (its captor scores it), "dealt" (the player dealt it scores it), "lone-dealt"
    # (a lone trump: its captor was dealt it) or "entered" (quick entry); a side's point: its kind's word
    how: str
    # a card's point: what makes the card the point's, in words ("high", "low", "lone", "the jack of
    # trumps"); a side's point: what its kind's reason reads (game: the GameCount); "" when entered
    what: Any
    rule: PointRule


class Award(NamedTuple):
    """One point won; its reason is worded when it is read. It keeps the parts of its Why flat (how,
    what, rule) so that a verdict asked only for points makes one record per point."""

    point: str
    card: Card | None
    side: str
    player: str | None
    value: int
    how: str  # Why.how
    what: Any  # Why.what
    rule: PointRule  # Why.rule

    @property
    def why(self) -> Why:
        """Why the point went where it did."""
        return Why(self.how, self.what, self.rule)

    @property
    def reason(self) -> str:
        """The award in one line a player understands."""
        how, what, rule = self.how, self.what, self.rule
        who = self.side if self.player in (None, self.side) else f"{self.player} ({self.side})"
        if how == "entered":
            return f"{who} {'was dealt' if rule.to == 'dealt' else 'won'} {rule.label} (entered by hand)"
        kind = rule.kind
        if kind.side is not None:  # a side's point (game, a sweep): its kind words it
            return kind.reason(self) if kind.reason is not None else f"{who} won {rule.label}"
        c = self.card or ""
        worth = "" if self.value == 1 else f" ({self.value} points)"
        if what == "high":
            fact = f"{pretty(c)} is the highest trump in play"
        elif what == "low":
            fact = f"{pretty(c)} is the lowest trump in play"
        elif what == "lone":
            fact = f"{pretty(c)} is the only trump in play, so it is low as well as high"
        else:
            fact = f"{pretty(c)} is {what}"
        if how == "dealt":
            return f"{fact}{worth}; {rule.label} goes to the player dealt it: {self.player}"
        if how == "lone-dealt":
            return f"{fact}{worth}; a lone trump wins its own trick, so {who} both held and captured it"
        if how == "discard":
            return (f"{fact}{worth}; {self.player} laid it away, and the discard counts as the bidding side's "
                    f"tricks (kitty.discard_counts = all): {self.side} scores it")
        return f"{fact}{worth}; {who} captured it"

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "card": self.card, "side": self.side, "player": self.player,
                "value": self.value}


class GameCount(NamedTuple):
    """Game's count: what each side counted, who won it (None: nobody), and the cards counted."""

    counts: dict[str, int]
    side: str | None
    entered: str = ""  # for a quick-entry hand: what was entered, in words (no counts are known)
    piles: Mapping[str, Sequence[Card]] = {}  # side -> the cards it took (never changed: a shared default is safe)
    values: Mapping[Card, int] = {}  # what each card counts
    tie: str = ""  # "bidder" or "elder": a tie for the most that the point's tie rule gave to `side`
    discard: tuple[Card, ...] = ()  # the bidder's laid-away cards counted for game (kitty.discard_counts)
    discard_side: str | None = None  # the side they count for (the bidding side)

    @property
    def reason(self) -> str:
        """Who won game and on what count, in words."""
        if self.entered:
            return self.entered
        ranked = sorted(self.counts.items(), key=lambda kv: -kv[1])
        top = ranked[0][1] if ranked else 0
        if self.tie:
            leaders = [s for s, v in ranked if v == top]
            to = "the bidding side" if self.tie == "bidder" else "the elder hand"
            return f"game is tied at {top} ({', '.join(leaders)}): it goes to {to}, {self.side} (points.game.tie)"
        if self.side is None:
            leaders = [s for s, v in ranked if v == top]
            if len(leaders) > 1 or top == 0:
                return f"game is tied at {top} ({', '.join(leaders)}): nobody scores it"
            total = sum(self.counts.values())
            return f"{leaders[0]} counted {top}, not more than half of {total}: nobody scores game"
        against = ", ".join(f"{s} {v}" for s, v in ranked[1:])
        return f"{self.side} wins game: counted {top}" + (f" against {against}" if against else "")

    @property
    def cards(self) -> dict[str, tuple[tuple[Card, int], ...]]:
        """side -> the counting cards it took, with their values (for the card-by-card breakdown)."""
        values = self.values
        out = {s: tuple((c, values[c]) for c in self.piles.get(s, ()) if values[c]) for s in self.counts}
        if self.discard_side is not None:
            out[self.discard_side] += tuple((c, values[c]) for c in self.discard if values[c])
        return out


class BidResult(NamedTuple):
    side: str  # the bidder's side of the table (in a called partner's hand: the bidder)
    player: str
    amount: int
    label: int | str
    made: bool
    took: int  # the points the bidding side took
    partner: str | None = None  # the called partner (None: no partner called, or the bidder played alone)
    called: Card | None = None  # the card the bidder called
    team: str | None = None  # the bidding side of the hand when a partner is called ("Ann+Cy", or "Ann" alone)
    name: str = ""  # a smudge bid: the ruleset's name for it (bidding.smudge_name: "shoot", "moon"); words.bid_name
    @property
    def reason(self) -> str:
        if self.amount == 0:
            return f"{self.player} pitched without a contract"
        who = self.team or self.side
        return f"{who} bid {self.name or self.label} and took {self.took}: " + ("made" if self.made else "set")


class Instant(NamedTuple):
    """A hand that ends the game at once, whatever the scores: who wins (a side of the table), how
    ("every-point": win.instant; "smudge-made", "smudge-set": the smudge's smudge.made/set), and why."""

    side: str
    how: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "how": self.how, "why": self.why}


# A record's fields in its order, as the engine finds them: a plain tuple, made the record when read (a tuple
# equal to the record it becomes, so a verdict compares and hashes alike either way).
AwardParts = tuple[str, "Card | None", str, "str | None", int, str, Any, "PointRule"]  # an Award's
GameParts = tuple[dict[str, int], "str | None", str, Mapping[str, Sequence[Card]], Mapping[Card, int], str,
                  tuple[Card, ...], "str | None"]  # a GameCount's


def game_count(game: GameCount | GameParts | None) -> GameCount | None:
    """Game's count as a GameCount, however the engine found it."""
    return game if game is None or type(game) is GameCount else GameCount._make(game)


class _Verdict(NamedTuple):
    rules: str
    trump: str
    awards: tuple[AwardParts | Award, ...]  # read through Verdict.awards: always Awards
    game: GameCount | GameParts | None  # read through Verdict.game: a GameCount (or None)
    taken: dict[str, int]
    bid: BidResult
    delta: dict[str, int]
    illegal: tuple[Illegal, ...]
    notes: tuple[tuple[Any, ...], ...]  # why each side's score changes as it does: (kind of note, values...)
    tricks: tuple[TrickResult, ...] = ()
    counters: dict[str, int] | None = None  # stake counters forfeited (revokes)
    auction: Outcome | None = None  # what the hand's auction decided (a sale, a refused buyer), when it was given
    # the sides of the hand when they are not the table's (a called partner): hand side -> its players, in
    # seating order; awards and game counts name these, `taken` and `delta` the table's sides
    hand_sides: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    bid_team: tuple[str, ...] = ()  # the table sides of the bidding side, the bidder's first (() : (bid.side,))
    deal: Deal | None = None  # the kitty, discard and draw as the record gave them (kitty or draw rules only)
    instant: Instant | None = None  # the hand ends the game at once
    direction: str = "up"  # "down": scores count down from the target, and `delta` is the change shown


class Verdict(_Verdict):
    """The verdict on one hand. Its awards and game count are kept as the engine found them and made records
    when read: replaying a log makes a verdict of every hand and reads the awards of none."""

    __slots__ = ()

    @property
    def awards(self) -> tuple[Award, ...]:
        """Every point won, in the contract's order (POINT_IDS, then any other point)."""
        return tuple(a if type(a) is Award else Award._make(a) for a in self[2])  # the field as stored

    @property
    def game(self) -> GameCount | None:
        """Game's count (None: the ruleset has no game point)."""
        return game_count(self[3])  # the field as stored

    def __iter__(self) -> Iterator[Any]:
        """Its fields in order, the awards and game as they read (what unpacking a verdict gives)."""
        return iter((*self[:2], self.awards, self.game, *self[4:]))

    def __repr__(self) -> str:
        return _Verdict.__repr__(self._replace(awards=self.awards, game=self.game))

    @property
    def bidding_team(self) -> tuple[str, ...]:
        """The table sides of the bidding side, the bidder's first."""
        return self.bid_team or (self.bid.side,)

    @property
    def settlement(self) -> tuple[str, ...]:
        """Why each side's score changes as it does, in words."""
        return tuple(_NOTES[kind].format(*values) for kind, *values in self.notes)

    def to_json(self) -> dict[str, Any]:
        game = self.game
        g = None if game is None else {"counts": dict(game.counts), "side": game.side}
        return {
            "rules": self.rules,
            "trump": self.trump,
            "awards": [a.to_json() for a in self.awards],
            "game": g,
            "taken": dict(self.taken),
            "bid": self._bid_json(),
            "delta": dict(self.delta),
            "illegal": [i.to_json() for i in self.illegal],
        } | self._more_json()

    def _bid_json(self) -> dict[str, Any]:
        b = self.bid
        out: dict[str, Any] = {"side": b.side, "player": b.player, "amount": b.label, "made": b.made}
        if b.name and b.name != b.label:
            out["name"] = b.name  # the ruleset's own name for its smudge bid (an addition: `amount` stays "smudge")
        if b.team is not None:
            out |= {"called": b.called, "partner": b.partner, "team": b.team}
        return out

    def _more_json(self) -> dict[str, Any]:
        """The keys a house rule adds, each present only where its rule is (judge hand's JSON, additive)."""
        out: dict[str, Any] = {}
        if self.hand_sides is not None:
            taken: dict[str, int] = {}
            for a in self.awards:
                taken[a.side] = taken.get(a.side, 0) + a.value
            out["teams"] = {side: {"players": list(ps), "taken": taken.get(side, 0)} for side, ps in self.hand_sides}
        if self.deal is not None:
            out["deal"] = self.deal.to_json()
        if self.instant is not None:
            out["instant"] = self.instant.to_json()
        if self.direction != "up":
            out["direction"] = self.direction
        return out


# What each settlement note says; notes are kept as (kind, values) and worded only when read.
_NOTES = {
    "made": "{0} made the bid: scores the {1} it took",
    "no-contract": "{0} pitched without a contract: scores the {1} it took",
    "excused": "{0} fell short of {2} but is excused because another player revoked: scores the {1} it took",
    "set": "{0} bid {2} and took {1}: set back {3}",
    "set-nothing": "{0} bid {2} and took {1}: scores nothing",
    "defended": "{0} scores the {1} it took",
    "no-penalty": "revoke by {0}: {1} sets no penalty for it",
    "revoked": "{0} revoked: {1} is set back {2}{3}",
    "scores-nothing": "{0} took {1} but scores none of it: a side that revokes scores nothing of its own that hand",
    "forfeit": "{0} forfeits {1} {2} to the pool",
    "sale": "{0} scores {1} for the sale of the pitch (bidding.sale_credit)",
    "smudge-worth": "{0} made {1}: scores its worth, {2} (smudge.made)",
    "smudge-points": "{0} made {1}: scores {2} (smudge.made)",
    "smudge-win": "{0} made {1}: scores the {2} it took, and wins the game at once (smudge.made)",
    "smudge-set-points": "{0} bid {1} and fell short: set back {2} (smudge.set)",
    "smudge-set-target": "{0} bid {1} and fell short: set back the target, {2} (smudge.set)",
    "smudge-lose": "{0} bid {1} and fell short: the game is lost at once (smudge.set)",
    "stopped-short": "{0} took {1} but stops at {2}: a side must bid to go out (win.defenders_stop_short)",
    "to-zero": "{0} made {1} while in the hole: back to {2} instead of winning (smudge.in_the_hole)",
}
