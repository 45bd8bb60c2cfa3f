"""The kinds of point (`of` in a ruleset's [points.ID]): one entry each, read by everything that scores,
checks or words a point.

A kind says which [points.ID] keys it takes (with the field of any key of its own: its type, default
and words, for the validator and the schema), whether it can go to the player dealt it, how a hand's
winner of it is found, and its words for `rules show`. The validator, the schema's choices, both
scoring paths (careful and compiled), quick entry, the table's questions and `rules show` read the
kind here and never branch on its name, so a new kind of point is one `register(PointKind(...))`.

Two shapes of point: a card's point (`card`: which captured card wins it, then its captor or the
player dealt it scores it) and a side's point (`side`: which side wins it outright, as game or a
sweep). Both functions are called once per point per hand by the engine: keep them small.
Kept light (no imports but game.frozen; no dataclass compiled): rulesets reads it at start-up, where
`rules list` needs no verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pitchkeeper.game.cards import Card
    from pitchkeeper.game.compiled import TrumpPlan
    from pitchkeeper.game.rulesets import PointRule
    from pitchkeeper.game.verdicts import Award

# (rule, the card the point is for or None, that card in words, captured card -> key, the highest trump
# captured or None, the trump's plan) -> (the card that wins the point, what makes it so) or None
CardFinder = Callable[["PointRule", "Card | None", str, Mapping["Card", str], "Card | None", "TrumpPlan"],
                      "tuple[Card, str] | None"]
# (rule, captured cards by key, key -> side, every side at 0, the rule's counts when already counted
# or None, the bidding side) -> (the side that wins it or None, how, what) - `how, what` go in Award.why
SideFinder = Callable[["PointRule", Iterable[tuple[str, Iterable["Card"]]], Mapping[str, str], dict[str, int],
                       "dict[str, int] | None", str], "tuple[str | None, str, Any]"]


def _never(rule: PointRule) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class PointKind:
    """One kind of point. Exactly one of `card` and `side` is given."""

    id: str
    keys: frozenset[str]  # the [points.ID] keys it takes besides of, value, label and enabled
    words: Callable[[PointRule, str, str], str]  # (rule, its worth, to whom) -> its sentence in `rules show`
    card: CardFinder | None = None  # a card's point: it may go to the player dealt it
    side: SideFinder | None = None  # a side's point
    reason: Callable[[Award], str] | None = None  # a side's point: the award in words (verdicts)
    always_out: Callable[[PointRule], bool] = _never  # won in every hand: quick entry must say by whom
    always_words: str = ""  # with always_out: why ("the highest trump in play")
    bidder_only: Callable[[PointRule], bool] = _never  # only the bidding side may score it
    ties: bool = False  # the table may answer "tie" for it
    game: bool = False  # its count is the verdict's game count (one such point per ruleset)
    # keys of its own that no other kind takes: key -> rulesets.F (type, default, words; they check it and
    # make the schema); their values are in PointRule.extra. The built-in kinds share the keys of POINT_FIELDS.
    fields: Mapping[str, Any] = field(default_factory=dict)

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


# ---------------------------------------------------------------------------
# The built-in kinds


def _symbol_words(sym: str) -> str:
    from pitchkeeper.game import vocabulary

    return vocabulary.symbol_words(sym, explained=True)


def _highest(rule: PointRule, card: Card | None, what: str, owner: Mapping[Card, str], high: Card | None,
             plan: TrumpPlan) -> tuple[Card, str] | None:
    return None if high is None else (high, "high")


def _lowest(rule: PointRule, card: Card | None, what: str, owner: Mapping[Card, str], high: Card | None,
            plan: TrumpPlan) -> tuple[Card, str] | None:
    for low in plan.low_order:  # from the lowest up, the skipped ones left out
        if low in owner:
            break
    else:
        return None
    if low == high:
        return None if rule.apart else (low, "lone")
    return low, "low"


def _the_card(rule: PointRule, card: Card | None, what: str, owner: Mapping[Card, str], high: Card | None,
              plan: TrumpPlan) -> tuple[Card, str] | None:
    return (card, what) if card in owner else None


_tuple_new = tuple.__new__  # a NamedTuple without its Python-level __new__ (one game count per hand judged)
_GameCount: Any = None  # verdicts.GameCount, imported at the first game counted (not at start-up)


def _game(rule: PointRule, captured: Iterable[tuple[str, Iterable[Card]]], key_side: Mapping[str, str],
          zero: dict[str, int], counts: dict[str, int] | None, bid_side: str) -> tuple[str | None, str, Any]:
    values = rule.card_values
    if counts is None:
        counts = zero.copy()
        for key, cards in captured:
            counts[key_side[key]] += sum(map(values.__getitem__, cards))
    top = 0
    winner = None  # the one side that counted the most (None: a tie, or nothing counted), in one plain loop
    for side, v in counts.items():
        if v > top:
            top, winner = v, side
        elif v == top:
            winner = None
    if winner is not None and rule.need == "majority" and top * 2 <= sum(counts.values()):
        winner = None
    made = _GameCount
    if made is None:
        made = _game_count()
    return winner, "game", _tuple_new(made, (counts, winner, "", (captured, key_side, values)))


def _game_count() -> Any:
    global _GameCount
    from pitchkeeper.game.verdicts import GameCount

    _GameCount = GameCount
    return GameCount


def _sweep(rule: PointRule, captured: Iterable[tuple[str, Iterable[Card]]], key_side: Mapping[str, str],
           zero: dict[str, int], counts: dict[str, int] | None, bid_side: str) -> tuple[str | None, str, Any]:
    holders = {key_side[key] for key, cards in captured if cards}  # the sides that took a trick
    if len(holders) == 1 and (not rule.only_bidder or bid_side in holders):
        return next(iter(holders)), "sweep", ""
    return None, "sweep", ""


THE_CARD: CardFinder = _the_card  # a point for one fixed card: the engine checks this finder inline
HIGHEST: CardFinder = _highest  # the highest and the lowest trump in play, in nearly every ruleset: inline too
LOWEST: CardFinder = _lowest
GAME: SideFinder = _game  # game, counted in the engine's one pass over the cards: inline as well


def _lowest_words(p: PointRule, worth: str, to: str) -> str:
    skip = f" (never {', '.join(_symbol_words(s) for s in p.skip)})" if p.skip else ""
    lone = "; a lone trump is high only" if p.apart else "; a lone trump is both high and low"
    return f"{worth} for the lowest trump in play{skip}, {to}{lone}"


def _game_words(p: PointRule, worth: str, to: str) -> str:
    counts = ", ".join(f"{k} {v}" for k, v in p.counts.items() if v)
    need = "more than half of all counted" if p.need == "majority" else "the most (a plurality is enough)"
    return f"{worth} for game: {need} of the counting cards taken ({counts}); a tie scores nobody"


def _sweep_words(p: PointRule, worth: str, to: str) -> str:
    who = "the bidding side" if p.only_bidder else "any side"
    return f"{worth} when {who} takes every trick"


def _sweep_reason(a: Award) -> str:
    return f"{a.side}{', the bidding side,' if a.why[2].only_bidder else ''} took every trick"


for _kind in (
    PointKind("highest-trump", frozenset({"to"}), lambda p, worth, to: f"{worth} for the highest trump in play, {to}",
              card=_highest, always_out=lambda p: True, always_words="the highest trump in play"),
    PointKind("lowest-trump", frozenset({"to", "skip", "apart"}), _lowest_words, card=_lowest,
              always_out=lambda p: not p.apart and not p.skip, always_words="the lowest trump in play"),
    PointKind("card", frozenset({"to", "card"}),
              lambda p, worth, to: f"{worth} for {_symbol_words(p.card)}, {to}, if it is in play", card=_the_card),
    PointKind("game", frozenset({"counts", "tie", "need"}), _game_words, side=_game,
              reason=lambda a: a.why[1].reason, ties=True, game=True),
    PointKind("all-tricks", frozenset({"only_bidder"}), _sweep_words, side=_sweep, reason=_sweep_reason,
              bidder_only=lambda p: p.only_bidder),
):
    register(_kind)
