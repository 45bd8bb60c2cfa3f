"""The sides of one hand: the table's sides, or, where the bidder calls a partner, the hand's own.

At a table of `partner.counts` players each plays for himself, but in every hand the bidder names a
card after the auction and whoever holds it when play began is the bidder's partner for that hand only.
The hand is then played by hand sides: the bidder and partner (or the bidder alone) against the others
(together, or each alone: `partner.defenders`). Points are won and the bid made or set by hand sides;
the scores stay the table's (each player), every member of a hand side credited what the side took.
A hand side is named by its players joined with '+', clockwise from the bidder (or, for the defenders,
from the first of them after the bidder): 'Ann+Cy', 'Bob+Dee+Eve'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game.cards import SUIT_NAMES, Card, suit_of
from pitchkeeper.game.deal import TRUMP, Deal, check_deal
from pitchkeeper.game.records import Hand, Table, teams_fit
from pitchkeeper.game.rulesets import Ruleset


class HandSides(NamedTuple):
    """Who played with whom in one hand."""

    sides: tuple[tuple[str, tuple[str, ...]], ...]  # hand side -> its players, the bidding side first
    side_of: Mapping[str, str]  # player (and table side) -> hand side
    bidding: str  # the bidding hand side
    bid_team: tuple[str, ...]  # the table sides of the bidding hand side, the bidder's first
    partner: str | None  # the called partner; None: none called, or the bidder alone
    called: Card | None  # the card called

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s for s, _ in self.sides)


Teams = tuple[tuple[str, tuple[str, ...]], ...]  # (team, its players), in seating order


def team_name(players: Sequence[str]) -> str:
    """A hand side's name: its players joined with '+' ('Ann+Cy'); a lone player is his own name."""
    return "+".join(players)


def crosswise(players: Sequence[str], size: int) -> Teams | None:
    """Teams of `size` seated crosswise (players 1 and 3 against 2 and 4; in threes, every third seat), two
    teams named Us and Them, more by their members; None when the players do not make two or more such teams.
    The seating a new match gives partners (logbook.book.auto_teams), and the examples' table (words.samples)."""
    if size < 2 or not teams_fit(len(players), size):
        return None
    k = len(players) // size
    groups = [tuple(players[i::k]) for i in range(k)]
    names = ["Us", "Them"] if k == 2 else [team_name(g) for g in groups]
    return tuple(zip(names, groups, strict=True))


def calls(ruleset: Ruleset, table: Table) -> bool:
    """Does this table call a partner each hand? (Individual play, at a size in partner.counts.)"""
    return table.teams is None and ruleset.calls_partner(len(table.players))


def table_sides(table: Table, bidder: str) -> HandSides:
    """The hand's sides when they are the table's (no partner is called)."""
    side_of = {p: table.side_of(p) for p in table.players}
    side_of.update({s: s for s in table.sides})
    bidding = table.side_of(bidder)
    return HandSides(tuple((s, table.members(s)) for s in table.sides), side_of, bidding, (bidding,), None, None)


def hand_sides(ruleset: Ruleset, table: Table, hand: Hand, deal: Deal | None = None,
               played: Mapping[Card, str] | None = None) -> HandSides:
    """The sides of this hand. At a table that calls a partner: the called card checked (`called`), who
    held it when play began found from the tricks (`played`: card -> who played it), the held cards, or
    `partner`, which must agree with them; PitchError naming the key when the record is wrong or silent."""
    bidder = hand.bid.player
    if not calls(ruleset, table):
        if hand.called is not None or hand.partner is not None:
            key = "called" if hand.called is not None else "partner"
            if table.teams is not None:
                raise PitchError("this match plays in fixed teams; a partner is called only each for himself", key)
            counts = ruleset.settings["partner"]["counts"]
            raise PitchError(f"{ruleset.name} calls no partner with {len(table.players)} players "
                             f"(partner.counts = {counts})", key)
        return table_sides(table, bidder)
    partner = _partner(ruleset, table, hand, deal, played or {})
    order = table.clockwise_from(bidder)
    team = [p for p in order if p in (bidder, partner)]
    others = [p for p in order if p not in team]
    sides = [(team_name(team), tuple(team))]
    if ruleset.settings["partner"]["defenders"] == "together":
        sides.append((team_name(others), tuple(others)))
    else:
        sides += [(p, (p,)) for p in others]
    side_of = {p: name for name, ps in sides for p in ps}
    return HandSides(tuple(sides), side_of, sides[0][0], tuple(team), partner or None, hand.called)


def holder(ruleset: Ruleset, table: Table, hand: Hand) -> str | None:
    """Who held the called card when play began, as the record shows it: a player, "" (no other player
    did: the bidder played alone), or None when the record cannot tell (no tricks, no held cards). What
    the entry writes as `partner` when none was typed. PitchError when the record is wrong."""
    if not calls(ruleset, table) or hand.called is None:
        return None
    deal = check_deal(ruleset, table, hand)
    played: dict[Card, str] = {}
    if hand.tricks is not None:
        from pitchkeeper.game.play import replay  # a hand recorded trick by trick: the play of tricks

        played = {c: p for t in replay(ruleset, table, hand, deal=deal).tricks for p, c in t.plays}
    try:
        return _partner(ruleset, table, hand._replace(partner=None), deal, played)
    except PitchError as e:
        if e.where == "partner" and e.message.startswith("missing"):
            return None
        raise


def _partner(ruleset: Ruleset, table: Table, hand: Hand, deal: Deal | None, played: Mapping[Card, str]) -> str:
    """The called card checked, and who held it when play began ("": no other player)."""
    bidder = hand.bid.player
    card = hand.called
    n = len(table.players)
    name = ruleset.name
    if card is None:
        raise PitchError(f"missing - with {n} players the bidder calls a partner's card: called = \"AH\"", "called")
    if card not in ruleset.deck:
        raise PitchError(f"{card} is not in {name}'s deck ({ruleset.deck_words()})", "called")
    view = ruleset.views[hand.trump]
    may = ruleset.settings["partner"]["may_call"]
    is_trump = view.suit[card] == TRUMP
    if may == "trump" and not is_trump:
        raise PitchError(f"{card} is not a trump ({SUIT_NAMES[suit_of(card) or view.trump]}); the bidder calls a trump "
                         "(partner.may_call)", "called")
    if may == "non-trump" and is_trump:
        raise PitchError(f"{card} is a trump; the bidder calls a non-trump (partner.may_call)", "called")
    came = deal is not None and ((deal.kitty is not None and card in deal.kitty) or card in deal.drawn.get(bidder, ()))
    fix = "the bidder may not call a card it holds; if it came from the kitty or the draw, give kitty or drawn"
    for key, listed in (("held", hand.held), ("dealt", hand.dealt)):
        cards = dict(listed).get(bidder, ())
        if card in cards and not came:
            raise PitchError(f"{bidder} called {card}, which {bidder} held ({key}.{bidder}): {fix}", "called")
    shown: str | None = None  # who the record shows held it when play began ("": nobody else)
    where = ""
    if played.get(card) is not None:
        shown = played[card]
        where = f"tricks[{_trick_of(hand, card)}]"
        if shown == bidder:
            if not came:
                raise PitchError(f"{bidder} plays {card}, the card {bidder} called: {fix}", where)
            shown = ""
    elif hand.tricks is not None and (is_trump or ruleset.settings["play"]["follow"] != "trump-only"):
        shown = ""  # every card held is played in the tricks (every trump, in trump-only play): nobody held it
    else:
        for key, listed in (("held", hand.held), ("dealt", hand.dealt)):
            for q, cards in listed:
                if card in cards and shown is None:
                    shown, where = ("" if q == bidder else q), f"{key}.{q}"
    if shown is None and (came or (deal is not None and card in deal.gone)):
        shown = ""  # in the kitty the bidder took, drawn by the bidder, or thrown in the draw
    given = hand.partner
    if given is not None:
        if given == bidder:
            raise PitchError(f"{bidder} is the bidder; when no other player held {card}, write partner = \"none\"",
                             "partner")
        if shown is not None and shown != given:
            said = given or "nobody"
            if shown and where.startswith("tricks"):
                raise PitchError(f"{said}, but {shown} played {card} ({where})", "partner")
            if shown:
                raise PitchError(f"{said}, but {where} lists {card}", "partner")
            why = (f"{card} was not played" if hand.tricks is not None else
                   f"{card} went to {bidder} or out of play (kitty, drawn or discard)")
            raise PitchError(f"{said}, but no other player held it: {why}", "partner")
        shown = given
    if shown is None:
        raise PitchError(f"missing - say who held the called card {card} (partner = \"{_example(table, bidder)}\", "
                         "or \"none\" if no other player did)", "partner")
    if not shown and ruleset.settings["partner"]["unheld"] == "redeal":
        raise PitchError(f"nobody but the bidder held {card}: {name} deals again (partner.unheld = redeal), so there "
                         "is no hand to score", "partner")
    return shown


def _trick_of(hand: Hand, card: Card) -> int:
    for i, t in enumerate(hand.tricks or (), 1):
        if any(p.card == card for p in t.plays):
            return i
    return 0


def _example(table: Table, bidder: str) -> str:
    return next(p for p in table.players if p != bidder)


__all__ = ["HandSides", "calls", "hand_sides", "holder", "table_sides", "team_name"]
