"""The kinds of point (`of` in a ruleset's [points.ID]): how each point of Pitch is won, written once.

A kind says which [points.ID] keys it takes (with the field of any key of its own: its type, default
and words, for the validator and the schema), whether it can go to the player dealt it, how a hand's
winner of it is found, and its words for `rules show`. The validator, the schema's choices, the engine
(game.scoring), quick entry, the table's questions and `rules show` read the kind here and never branch
on its name, so a new kind of point is one `register(PointKind(...))`.

Two shapes of point, each found by one function of its kind, which reads only the cards and the plan
of the trump (`ruleset.views[trump]`, a `TrumpView`: the trumps from the highest down, the low order,
each point's card and its words):

- a card's point: `kind.card(rule, InPlay(view, cards))` says which card in play wins it, and why
  (`CardWin`), or None when none does. `cards` is the cards in play (captured): anything that answers
  `card in cards`. The engine gives the point to the card's captor, or to the player dealt it.
- a side's point: `kind.side(rule, Piles(view, by_side, bidder))` says which side wins it outright
  (`SideWin`: None when nobody does), from the cards each side took and the bidding side.

That is the whole interface a caller needs: the engine asks it of the captured cards of a hand, and a
solver may ask it of any layout of the cards it explores, with no second copy of a rule:

    view = ruleset.views[trump]
    for rule in ruleset.points:
        if rule.kind.card is not None:
            won = rule.kind.card(rule, InPlay(view, cards))  # CardWin(card, what) or None
        else:
            won = rule.kind.side(rule, Piles(view, {"Us": us, "Them": them}, "Us"))  # SideWin(side, ...)
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchkeeper.game.cards import RANK_NAMES, Card, card_name
from pitchkeeper.game.verdicts import Award, GameCount
from pitchkeeper.game.vocabulary import symbol_words

if TYPE_CHECKING:
    from pitchkeeper.game.rulesets import PointRule, TrumpView


class InPlay(NamedTuple):
    """What a card's point is found from: the trump's view and the cards in play."""

    view: TrumpView
    cards: Container[Card]  # the cards in play (captured): `card in cards` is all a finder asks


class Piles(NamedTuple):
    """What a side's point is found from: the trump's view, what each side took, and who bid.

    `seats` and `discard` matter only to house rules: a game tie given to the elder hand needs the sides
    in seating order, and a bidder's discard that counts for game (kitty.discard_counts) adds to the
    bidding side's count without being a trick it took. A caller that leaves them out gets today's game.
    """

    view: TrumpView
    by_side: Mapping[str, Sequence[Card]]  # every side of the hand, and the cards it took in tricks
    bidder: str  # the bidding side
    seats: Sequence[str] = ()  # the sides in seating order from the dealer's left (points.ID.tie = "elder")
    discard: Sequence[Card] = ()  # the bidder's laid-away cards that count for game, the bidding side's


class CardWin(NamedTuple):
    """The card that wins a card's point, and what makes it so in words ("high", "the jack of trumps")."""

    card: Card
    what: str


# What makes a trump in play the point's, in words (Why.what): each trump's CardWin for each is made once per
# ruleset and trump (TrumpView.trump_wins), as a card's point's is (TrumpView.point_wins).
TRUMP_WINS = ("high", "low", "lone")


class SideWin(NamedTuple):
    """The side that wins a side's point (None: nobody), the kind's word for how (Why.how), and what its
    `reason` reads (Why.what: game's GameCount, say)."""

    side: str | None
    how: str
    what: Any = ""


CardFinder = Callable[["PointRule", InPlay], "CardWin | None"]
SideFinder = Callable[["PointRule", Piles], SideWin]


def _never(rule: PointRule) -> bool:
    return False


class PointKind(NamedTuple):
    """One kind of point. Exactly one of `card` and `side` is given."""

    id: str
    keys: frozenset[str]  # the [points.ID] keys it takes besides of, value, label and enabled
    words: Callable[[PointRule, str, str], str]  # (rule, its worth, to whom) -> its sentence in `rules show`
    card: CardFinder | None = None  # a card's point: it may go to the player dealt it
    side: SideFinder | None = None  # a side's point
    reason: Callable[[Award], str] | None = None  # a side's point: the award in words (else "X won it")
    always_out: Callable[[PointRule], bool] = _never  # won in every hand: quick entry must say by whom
    always_words: str = ""  # with always_out: why ("the highest trump in play")
    bidder_only: Callable[[PointRule], bool] = _never  # only the bidding side may score it
    ties: bool = False  # the table may answer "tie" for it
    game: bool = False  # its count is the verdict's game count (one such point per ruleset)
    sweep: bool = False  # won by taking every trick (quick entry's evidence for a smudge that needs every trick)
    # keys of its own that no other kind takes: key -> rulesets.F (type, default, words; they check it and
    # make the schema); their values are in PointRule.extra. The built-in kinds share the keys of POINT_FIELDS.
    fields: Mapping[str, Any] = {}  # (never changed: a shared default is safe)

    @property
    def to_dealt(self) -> bool:
        """May it go to the player dealt it? Only a card's point can."""
        return self.card is not None


KINDS: dict[str, PointKind] = {}  # id -> kind, in the order the schema lists them


def register(kind: PointKind) -> PointKind:
    """Add (or replace) a kind of point; rulesets may name it in `of` from then on."""
    if (kind.card is None) == (kind.side is None):
        raise ValueError(f"point kind {kind.id}: give exactly one of card and side")
    if not kind.keys >= kind.fields.keys():
        raise ValueError(f"point kind {kind.id}: its own fields must be among its keys")
    KINDS[kind.id] = kind
    return kind


def unregister(kind_id: str) -> None:
    KINDS.pop(kind_id, None)


def kind_of(rule: PointRule) -> PointKind:
    return KINDS[rule.of]


def always_out(rule: PointRule) -> bool:
    """Is this point won in every hand? High is (the pitch is a trump); so is low, unless the ruleset
    lets a lone trump be high only, or some trumps never count as low."""
    return KINDS[rule.of].always_out(rule)


def highest(view: TrumpView, cards: Container[Card]) -> Card | None:
    """The highest trump among `cards`, or None when there is no trump."""
    for card in view.order:
        if card in cards:
            return card
    return None


def card_words(rule: PointRule, card: Card, symbol: str) -> str:
    """What a point's card is, in words ('the jack of trumps')."""
    if symbol.startswith("off-"):
        return f"{card_name(card)}, the {rule.label} (a trump of the same colour as trumps)"
    if symbol in ("HJ", "LJ", "JK"):
        return card_name(card)
    return f"the {RANK_NAMES[symbol]} of trumps"


# ---------------------------------------------------------------------------
# The built-in kinds


def _highest(rule: PointRule, play: InPlay) -> CardWin | None:
    view = play.view
    high = highest(view, play.cards)
    return None if high is None else view.trump_wins["high"][high]


def _lowest(rule: PointRule, play: InPlay) -> CardWin | None:
    cards = play.cards
    for low in play.view.low_order:  # from the lowest up, the trumps that never count as low left out
        if low in cards:
            break
    else:
        return None
    if low == highest(play.view, cards):  # the only trump in play
        return None if rule.apart else play.view.trump_wins["lone"][low]
    return play.view.trump_wins["low"][low]


def _the_card(rule: PointRule, play: InPlay) -> CardWin | None:
    won = play.view.point_wins[rule.id]  # the card and its words, made once per ruleset and trump
    return won if won.card in play.cards else None


def _game(rule: PointRule, piles: Piles) -> SideWin:
    """The one side that counted the most (more than half of all counted, where the rule says so); a tie
    for the most goes where `tie` says (nobody, the bidding side among the tied, or the elder hand)."""
    values = rule.card_values
    counts = {side: sum(map(values.__getitem__, cards)) for side, cards in piles.by_side.items()}
    if piles.discard:
        counts[piles.bidder] += sum(map(values.__getitem__, piles.discard))
    top = max(counts.values(), default=0)
    leaders = [side for side, v in counts.items() if v == top]
    winner = leaders[0] if top > 0 and len(leaders) == 1 else None  # a tie, or nothing counted: nobody
    tie = ""
    if winner is None and top > 0:
        winner = tie_winner(rule, leaders, piles.bidder, piles.seats or tuple(counts))
        tie = rule.tie if winner is not None else ""
    if winner is not None and rule.need == "majority" and top * 2 <= sum(counts.values()):
        winner = None
    if not tie and not piles.discard:
        return SideWin(winner, "game", GameCount(counts, winner, "", piles.by_side, values))
    return SideWin(winner, "game", GameCount(counts, winner, "", piles.by_side, values, tie, tuple(piles.discard),
                                             piles.bidder if piles.discard else None))


def tie_winner(rule: PointRule, leaders: Sequence[str], bidder: str, seats: Sequence[str]) -> str | None:
    """Where a tie for the most goes (points.ID.tie), read here for every way a hand is entered: nobody,
    the bidding side if it is among the tied, or the tied side seated first from the dealer's left."""
    if rule.tie == "bidder":
        return bidder if bidder in leaders else None
    if rule.tie == "elder":
        return next((s for s in seats if s in leaders), None)
    return None


def _sweep(rule: PointRule, piles: Piles) -> SideWin:
    """The one side that took every trick (only the bidding side, where the rule says so)."""
    holders = [side for side, cards in piles.by_side.items() if cards]
    if len(holders) == 1 and (not rule.only_bidder or holders[0] == piles.bidder):
        return SideWin(holders[0], "sweep")
    return SideWin(None, "sweep")


def _lowest_words(p: PointRule, worth: str, to: str) -> str:
    never = [symbol_words(s, explained=True) for s in p.skip]
    if p.natural:
        never = ["a joker or an off-card"] + [w for s, w in zip(p.skip, never, strict=True)
                                               if not (s.startswith("off-") or s in ("HJ", "LJ", "JK"))]
    skip = f" (never {', '.join(never)})" if never else ""
    lone = "; a lone trump is high only" if p.apart else "; a lone trump is both high and low"
    return f"{worth} for the lowest trump in play{skip}, {to}{lone}"


def _game_words(p: PointRule, worth: str, to: str) -> str:
    counts = ", ".join(f"{k} {v}" for k, v in p.counts.items() if v)
    need = "more than half of all counted" if p.need == "majority" else "the most (a plurality is enough)"
    tie = {"nobody": "a tie scores nobody", "bidder": "a tie goes to the bidding side",
           "elder": "a tie goes to the elder hand (first from the dealer's left)"}[p.tie]
    return f"{worth} for game: {need} of the counting cards taken ({counts}); {tie}"


def _sweep_words(p: PointRule, worth: str, to: str) -> str:
    who = "the bidding side" if p.only_bidder else "any side"
    return f"{worth} when {who} takes every trick"


def _sweep_reason(a: Award) -> str:
    return f"{a.side}{', the bidding side,' if a.rule.only_bidder else ''} took every trick"


for _kind in (
    PointKind("highest-trump", frozenset({"to"}), lambda p, worth, to: f"{worth} for the highest trump in play, {to}",
              card=_highest, always_out=lambda p: True, always_words="the highest trump in play"),
    PointKind("lowest-trump", frozenset({"to", "skip", "apart", "natural"}), _lowest_words, card=_lowest,
              always_out=lambda p: not p.apart and not p.never_low, always_words="the lowest trump in play"),
    PointKind("card", frozenset({"to", "card"}),
              lambda p, worth, to: f"{worth} for {symbol_words(p.card, explained=True)}, {to}, if it is in play",
              card=_the_card),
    PointKind("game", frozenset({"counts", "tie", "need"}), _game_words, side=_game,
              reason=lambda a: a.what.reason, ties=True, game=True),
    PointKind("all-tricks", frozenset({"only_bidder"}), _sweep_words, side=_sweep, reason=_sweep_reason,
              bidder_only=lambda p: p.only_bidder, sweep=True),
):
    register(_kind)
