"""What happens between the deal and the first lead: the kitty, the lay-away, the draw; and two jokers alike.

A ruleset may deal a kitty (widow) that the bidder takes and lays away from (`[kitty]`), and after trump
let every player throw cards and be dealt back from the stock, or throw down to the hand size (`[draw]`),
by the lay-away rules of `[discard]`. A hand record may give the kitty (`kitty`), what each player laid
away or threw (`discard`), what each drew (`drawn`) and the cards held when play began (`held`).
`check_deal` checks them against the deck, each other and the rules, and refuses a bad record with one
line naming its key; the engine (game.scoring, game.play) then keeps the cards laid away out of play,
except a bidder's discard that counts for the bidding side (`kitty.discard_counts`).

The lay-away rules are written once (`lay_away_problem`, `may_lay_away`, `must_throw`), for the checks
and for the words that explain them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game.cards import Card
from pitchkeeper.game.records import Hand, Table
from pitchkeeper.game.rulesets import Ruleset, TrumpView

TRUMP = "T"  # the effective suit of every trump in a TrumpView (game.play.TRUMP)


class Deal(NamedTuple):
    """The cards that went between the deal and the first lead, as the record gives them, checked."""

    kitty: tuple[Card, ...] | None  # the kitty as dealt (None: not given)
    discard: Mapping[str, tuple[Card, ...]]  # player -> the cards laid away or thrown
    drawn: Mapping[str, tuple[Card, ...]]  # player -> the cards dealt in the draw
    held: Mapping[str, tuple[Card, ...]]  # player -> the cards held when play began (as given)
    counted: tuple[Card, ...]  # the bidder's discard that counts for the bidding side (kitty.discard_counts)
    counts: str  # kitty.discard_counts: "nothing" | "game" | "all"
    bidder: str = ""
    gone: Mapping[Card, str] = {}  # card -> who laid it away or threw it (out of play, unless counted)
    draw: bool = False  # cards thrown were thrown in a draw that deals back (the words of a refusal)
    kitty_size: int = 0

    def to_json(self) -> dict[str, Any]:
        """The `deal` object of `judge hand --json`."""
        return {"kitty": None if self.kitty is None else list(self.kitty),
                "discard": {p: list(cs) for p, cs in self.discard.items()} or None,
                "drawn": {p: list(cs) for p, cs in self.drawn.items()} or None,
                "counts": self.counts}

    def gone_words(self, card: Card) -> str:
        """How a card left play, in words: 'Bob laid away (discard.Bob)'."""
        q = self.gone[card]
        how = "threw in the draw" if self.draw and not (q == self.bidder and self.kitty_size) else "laid away"
        return f"{q} {how} (discard.{q})"


def sizes(ruleset: Ruleset) -> tuple[int, int, int]:
    """(cards dealt to each player, the kitty's size, cards each plays out)."""
    d = ruleset.settings["deck"]
    return d["deal_size"] or d["hand_size"], ruleset.settings["kitty"]["size"], d["hand_size"]


def _cards(ruleset: Ruleset, cards: Sequence[Card], where: str, what: str = "listed") -> None:
    """Every card in the deck, none twice (checked at once; card by card only to say which is wrong)."""
    if len(set(cards)) == len(cards) and ruleset.deck.issuperset(cards):
        return
    seen: set[Card] = set()
    for c in cards:
        if c not in ruleset.deck:
            raise PitchError(f"{c} is not in {ruleset.name}'s deck ({ruleset.deck_words()})", where)
        if c in seen:
            raise PitchError(f"{c} is {what} twice", where)
        seen.add(c)


class _Sizes(NamedTuple):
    """The kitty, draw and lay-away rules one hand is checked against, and who bid it."""

    ruleset: Ruleset
    deal: int  # cards dealt to each player
    size: int  # the kitty's
    keep: int  # cards each plays out
    mode: str  # draw.discard
    rest: bool  # draw.rest: the bidder takes the rest of the stock
    bidder: str
    view: TrumpView
    loose: bool  # the hands come down in a way the rules do not describe
    refills: bool  # the draw deals cards back after trump

    def dealt(self, player: str) -> int:
        """How many cards a player held before laying any away: the bidder's with the kitty."""
        return self.deal + (self.size if player == self.bidder else 0)

    def keeps_thrown(self, player: str) -> bool:
        """May the player's own thrown cards come back in the draw (the bidder taking the rest, or a loose
        draw the rules do not describe)?"""
        return (player == self.bidder and self.rest) or self.loose


def check_deal(ruleset: Ruleset, table: Table, hand: Hand) -> Deal | None:
    """Check the kitty, discard, drawn and held cards of a hand against the deck, each other and the
    ruleset's kitty, draw and lay-away rules (PitchError naming the key). None when the ruleset has no
    kitty and no draw and the record gives none of them: nothing to check, nothing changes. The checks
    follow the cards as they moved: the kitty, the discard, the draw, the cards held, the discard's count."""
    features = ruleset.features
    if "kitty" not in features and "draw" not in features and hand.kitty is None and not hand.discard \
            and not hand.drawn:
        return None
    deal, size, keep = sizes(ruleset)
    mode = ruleset.settings["draw"]["discard"]
    loose = mode == "none" and not size and deal > keep  # the hands come down in a way the rules do not describe
    z = _Sizes(ruleset, deal, size, keep, mode, ruleset.settings["draw"]["rest"], hand.bid.player,
               ruleset.views[hand.trump], loose, mode in ("non-trumps", "any") or loose)
    in_kitty = _check_kitty(z, hand.kitty)
    gone = _check_discard(z, hand, in_kitty)
    drawn_by = _check_drawn(z, table, hand, in_kitty, gone)
    _check_held(hand, z.bidder, in_kitty, gone, drawn_by)
    _check_held_after_draw(z, hand)
    return Deal(hand.kitty, dict(hand.discard), dict(hand.drawn), dict(hand.held), _counted(z, hand),
                ruleset.settings["kitty"]["discard_counts"], z.bidder, gone, z.refills, size)


def _check_kitty(z: _Sizes, kitty: Sequence[Card] | None) -> frozenset[Card]:
    """The kitty's cards, if the record gives them and the ruleset deals one of that size."""
    if kitty is None:
        return frozenset()
    name = z.ruleset.name
    if not z.size:
        raise PitchError(f"{name} deals no kitty (kitty.size = 0)", "kitty")
    _cards(z.ruleset, kitty, "kitty")
    if len(kitty) != z.size:
        raise PitchError(f"{len(kitty)} cards; {name} deals a kitty of {z.size} (kitty.size)", "kitty")
    return frozenset(kitty)


def _check_discard(z: _Sizes, hand: Hand, in_kitty: frozenset[Card]) -> dict[Card, str]:
    """Who laid away or threw what: card -> player; each player's count by the rules of lay-away and draw."""
    name, size, mode, deal, keep, bidder = z.ruleset.name, z.size, z.mode, z.deal, z.keep, z.bidder
    if hand.discard and not (size or mode != "none" or deal > keep):
        raise PitchError(f"{name} lays no cards away (no kitty.size, no draw.discard)", "discard")
    gone: dict[Card, str] = {}
    for p, cards in hand.discard:
        w = f"discard.{p}"
        if p != bidder and size and mode == "none" and deal == keep:
            raise PitchError(f"only the bidder lays cards away in {name} (there is no draw)", w)
        _cards(z.ruleset, cards, w)
        if not gone.keys().isdisjoint(cards) or (p != bidder and not in_kitty.isdisjoint(cards)):
            for c in cards:
                if c in gone:
                    raise PitchError(f"{c} is thrown by both {gone[c]} and {p}", w)
                if c in in_kitty and p != bidder:
                    raise PitchError(f"{c} was in the kitty, which {bidder} took, but {w} lists it", w)
        gone.update(dict.fromkeys(cards, p))
        extra = size if p == bidder else 0
        if p == bidder and size and mode == "none" and len(cards) != deal + size - keep:
            raise PitchError(f"{len(cards)} cards laid away; {bidder} held {deal}+{size} after taking the kitty "
                             f"and keeps {keep}, so lays away {deal + size - keep}", w)
        if mode == "down-to-hand" and len(cards) != deal + extra - keep:
            held_words = f"{deal}+{extra}" if extra else str(deal)
            raise PitchError(f"{len(cards)} cards thrown; {p} held {held_words} and keeps {keep}", w)
        most = z.ruleset.settings["draw"]["most"]
        if mode == "any" and most and not (p == bidder and z.rest) and len(cards) > most:
            raise PitchError(f"{len(cards)} cards thrown; at most {most} may be exchanged (draw.most)", w)
    return gone


def _check_drawn(z: _Sizes, table: Table, hand: Hand, in_kitty: frozenset[Card],
                 gone: Mapping[Card, str]) -> dict[Card, str]:
    """Who was dealt what from the stock: card -> player; none from the kitty or another's discard, no more
    than each was dealt back to, no more than the stock held."""
    if hand.drawn and not z.refills:
        raise PitchError(f"{z.ruleset.name} deals no cards after trump (draw.discard = {z.mode})", "drawn")
    discard = dict(hand.discard)
    drawn_by: dict[Card, str] = {}
    for p, cards in hand.drawn:
        w = f"drawn.{p}"
        _cards(z.ruleset, cards, w)
        if not (drawn_by.keys().isdisjoint(cards) and in_kitty.isdisjoint(cards) and gone.keys().isdisjoint(cards)):
            for c in cards:
                if c in drawn_by:
                    raise PitchError(f"{c} is drawn by both {drawn_by[c]} and {p}", w)
                if c in in_kitty:
                    raise PitchError(f"{c} was in the kitty, not the stock", w)
                thrower = gone.get(c)
                if thrower is not None and not (thrower == p and z.keeps_thrown(p)):
                    raise PitchError(f"{c} was drawn by {p}, so discard.{thrower} cannot list it",
                                     f"discard.{thrower}")
        drawn_by.update(dict.fromkeys(cards, p))
        kept = z.dealt(p) - len(discard.get(p, ()))
        if p in discard and not (p == z.bidder and z.rest) and not z.loose and len(cards) > z.keep - kept:
            raise PitchError(f"{len(cards)} cards drawn, but {p} kept {kept} and is dealt back only to {z.keep}", w)
    stock = len(z.ruleset.deck) - len(table.players) * z.deal - z.size
    if len(drawn_by) > stock:
        raise PitchError(f"{len(drawn_by)} cards drawn, but the stock held {stock} after the deal", "drawn")
    return drawn_by


def _check_held_after_draw(z: _Sizes, hand: Hand) -> None:
    """The cards held when play began agree with what was dealt, thrown and drawn, and with what the
    rules let a player keep (every non-trump thrown in a non-trumps draw; the lay-away rules)."""
    s, view = z.ruleset.settings, z.view
    discard, drawn = dict(hand.discard), dict(hand.drawn)
    told = bool(drawn) or not z.refills  # the record says who drew what (a player it leaves out drew nothing)
    for p, cs in dict(hand.held).items():
        w = f"held.{p}"
        if p in discard and told:
            h, d, r = len(cs), len(discard[p]), len(drawn.get(p, ()))
            if h != z.dealt(p) - d + r:
                plus = f"+{z.size}" if p == z.bidder and z.size else ""
                raise PitchError(f"{h} held after {d} thrown and {r} drawn, but {p} was dealt {z.deal}{plus} "
                                 f"(deck.deal_size {z.deal}, deck.hand_size {z.keep})", w)
        for c in drawn.get(p, ()):
            if c not in cs and not (c in discard.get(p, ()) and z.keeps_thrown(p)):
                raise PitchError(f"{c} was drawn by {p} but is not in held.{p}", f"drawn.{p}")
        if drawn and z.mode == "non-trumps":
            plain = next((c for c in cs if view.suit[c] != TRUMP and c not in drawn.get(p, ())), None)
            if plain is not None:
                raise PitchError(f"{plain} is not a trump and was not drawn: every non-trump is thrown in the draw "
                                 "(draw.discard = non-trumps)", w)
        if p in discard and (s["discard"]["trumps"] != "allowed" or not s["discard"]["point_trumps"]):
            if not told:
                continue  # what was dealt is unknown without the cards drawn
            holding = [c for c in cs if c not in drawn.get(p, ()) or not z.refills or (p == z.bidder and z.rest)]
            problem = lay_away_problem(z.ruleset, view, p, holding + list(discard[p]), discard[p], z.keep)
            if problem:
                raise PitchError(problem, f"discard.{p}")


def _counted(z: _Sizes, hand: Hand) -> tuple[Card, ...]:
    """The bidder's discard that counts for the bidding side (kitty.discard_counts), which the record must
    then list unless it gives the points won."""
    counts = z.ruleset.settings["kitty"]["discard_counts"]
    if counts == "nothing" or not z.size:
        return ()
    discard = dict(hand.discard)
    if z.bidder not in discard and hand.points is None:
        what = "game" if counts == "game" else "everything"
        raise PitchError(f"missing - the bidder's discard counts for {what} to the bidding side "
                         f"(kitty.discard_counts = {counts}): list it, discard = [\"5H\", ...]", "discard")
    return discard.get(z.bidder, ())


def _check_held(hand: Hand, bidder: str, in_kitty: frozenset[Card], gone: Mapping[Card, str],
                drawn_by: Mapping[Card, str]) -> None:
    """No player holds a card of the kitty the bidder took, one laid away, or one another player drew."""
    for key, listed in (("held", hand.held), ("dealt", hand.dealt)):
        for q, cards in listed:
            if (q == bidder or in_kitty.isdisjoint(cards)) and gone.keys().isdisjoint(cards) and (
                    drawn_by.keys().isdisjoint(cards) or all(drawn_by.get(c, q) == q for c in cards)):
                continue
            for c in cards:
                if c in in_kitty and q != bidder:
                    raise PitchError(f"{c} was in the kitty, which {bidder} took, but {key}.{q} lists it", f"{key}.{q}")
                if c in gone:
                    raise PitchError(f"{c} was laid away by {gone[c]}, so {key}.{q} cannot list it", f"{key}.{q}")
                if drawn_by.get(c, q) != q:
                    raise PitchError(f"{c} was drawn by {drawn_by[c]}, but {key}.{q} lists it", f"{key}.{q}")


def check_played(deal: Deal, player: str, card: Card, where: str) -> None:
    """Refuse a card played that was out of play: laid away or thrown, or in the kitty another took."""
    if card in deal.gone:
        raise PitchError(f"{player} plays {card}, which {deal.gone_words(card)}", where)
    if deal.kitty is not None and card in deal.kitty and player != deal.bidder:
        raise PitchError(f"{player} plays {card}, which was in the kitty {deal.bidder} took", where)


# ---------------------------------------------------------------------------
# The lay-away rules ([discard]), written once


def point_trumps(ruleset: Ruleset, view: TrumpView) -> dict[Card, str]:
    """The trumps a card point is for (the jack, the off-jack, a joker, the three ...), with its label."""
    return {c: ruleset.by_id[pid].label for pid, c in view.point_card.items()}


def lay_away_problem(ruleset: Ruleset, view: TrumpView, player: str, holding: Sequence[Card],
                     gone: Sequence[Card], keep: int) -> str | None:
    """What is wrong, in words, with laying `gone` away from `holding` (every card the player had) to keep
    `keep` cards, under `discard.trumps` and `discard.point_trumps`; None when the rules allow it."""
    d = ruleset.settings["discard"]
    trumps = [c for c in holding if view.suit[c] == TRUMP]
    out = [c for c in gone if view.suit[c] == TRUMP]
    if not out:
        return None
    kept = [c for c in trumps if c not in out]
    if d["trumps"] == "excess-only" and len(out) > max(0, len(trumps) - keep):
        return (f"{out[-1]} is a trump and {player} kept only {len(kept)} trump{'' if len(kept) == 1 else 's'}: a trump "
                f"is laid away only by a hand holding more than {keep} (discard.trumps = excess-only)")
    if not d["point_trumps"]:
        points = point_trumps(ruleset, view)
        scoring = [c for c in out if c in points]
        plain = [c for c in kept if c not in points]
        if scoring and plain:
            return (f"{scoring[0]} scores a point ({points[scoring[0]]}) and may not be laid away while {player} keeps "
                    f"{plain[0]}, which scores none (discard.point_trumps = false)")
    return None


def _shed_order(ruleset: Ruleset, view: TrumpView, trumps: Sequence[Card]) -> list[Card]:
    """Trumps in the order a hand sheds them: those that score nothing first (where point trumps are kept),
    each group from the lowest up."""
    low_first = sorted(trumps, key=lambda c: view.strength[c])
    if ruleset.settings["discard"]["point_trumps"]:
        return low_first
    points = point_trumps(ruleset, view)
    return [c for c in low_first if c not in points] + [c for c in low_first if c in points]


def may_lay_away(ruleset: Ruleset, view: TrumpView, holding: Sequence[Card], keep: int) -> tuple[Card, ...]:
    """The cards of `holding` that may go when the hand keeps `keep` cards: every non-trump, and the trumps
    the lay-away rules let go (none but the excess with discard.trumps = excess-only; point trumps only once
    those that score nothing are gone, with discard.point_trumps = false)."""
    plain = [c for c in holding if view.suit[c] != TRUMP]
    trumps = [c for c in holding if view.suit[c] == TRUMP]
    d = ruleset.settings["discard"]
    if d["trumps"] == "allowed" and d["point_trumps"]:
        return tuple(holding)
    excess = len(trumps) - keep if d["trumps"] == "excess-only" else len(trumps)
    if excess <= 0:
        return tuple(plain)
    order = _shed_order(ruleset, view, trumps)
    if d["point_trumps"]:
        return tuple(plain + order)
    points = point_trumps(ruleset, view)
    free = [c for c in order if c not in points]
    return tuple(plain + (order if excess > len(free) else free))


def must_throw(ruleset: Ruleset, view: TrumpView, holding: Sequence[Card]) -> tuple[Card, ...]:
    """With draw.discard = "non-trumps": what a player holding `holding` throws before being dealt back to
    the hand size: every non-trump, and the trumps beyond the hand size, shed by the lay-away rules."""
    keep = ruleset.settings["deck"]["hand_size"]
    plain = [c for c in holding if view.suit[c] != TRUMP]
    trumps = [c for c in holding if view.suit[c] == TRUMP]
    return tuple(plain + _shed_order(ruleset, view, trumps)[:max(0, len(trumps) - keep)])


# ---------------------------------------------------------------------------
# Two jokers that look alike (trump.identical_jokers)


def name_jokers(ruleset: Ruleset, hand: Hand) -> Hand:
    """A hand played trick by trick with two look-alike jokers, their tokens relabelled so that `HJ` is the
    one the rule makes the higher: the first played in the hand (first-higher), or of two in one trick the
    later (later-higher; otherwise as written). Every key of the hand is relabelled alike. A hand not given
    trick by trick keeps its labels: the table said which it counted as high."""
    rule = ruleset.settings["trump"]["identical_jokers"]
    if rule == "no" or hand.tricks is None:
        return hand
    swap = False
    for trick in hand.tricks:
        cards = [p.card for p in trick.plays]
        if rule == "first-higher":
            first = next((c for c in cards if c in ("HJ", "LJ")), None)
            if first is not None:
                swap = first == "LJ"
                break
        elif "HJ" in cards and "LJ" in cards:
            swap = cards.index("LJ") > cards.index("HJ")
            break
    if not swap:
        return hand
    other = {"HJ": "LJ", "LJ": "HJ"}

    def cs(cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(other.get(c, c) for c in cards)

    def table(t: tuple[tuple[str, tuple[Card, ...]], ...]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
        return tuple((p, cs(c)) for p, c in t)

    tricks = tuple(t._replace(plays=tuple(p._replace(card=other.get(p.card, p.card) if p.card else None)
                                          for p in t.plays)) for t in hand.tricks)
    return hand._replace(tricks=tricks, held=table(hand.held), dealt=table(hand.dealt), discard=table(hand.discard),
                         drawn=table(hand.drawn), kitty=None if hand.kitty is None else cs(hand.kitty),
                         called=other.get(hand.called, hand.called) if hand.called else None)
