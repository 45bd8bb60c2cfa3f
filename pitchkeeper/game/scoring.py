"""The verdict on one hand: every point with its reason, the game count, the bid, the score change.

`verdict(ruleset, table, hand)` is a pure function and the one engine: a hand entered as captured
cards, as tricks (played back by `play.replay` into captured cards and who played each) or by quick
entry (who won each point) is checked, awarded and settled here. How each point is won is its kind's
(game.kinds); the engine reads only the ruleset's data (its point catalogue, trump view, settlement and
penalty settings), so a new variant needs a TOML file, not code here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NoReturn

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.bidding import check_auction, check_bid, sale_credit
from pitchkeeper.game.cards import Card
from pitchkeeper.game.deal import Deal, check_deal, name_jokers
from pitchkeeper.game.kinds import InPlay, Piles, always_out, highest, tie_winner
from pitchkeeper.game.partners import HandSides, calls, hand_sides
from pitchkeeper.game.records import HOUSE_KEYS, Bid, Hand, Table
from pitchkeeper.game.rulesets import Ruleset, SettlePlan, TrumpView
from pitchkeeper.game.verdicts import (
    _NOTES,
    Award,
    AwardParts,
    BidResult,
    GameCount,
    GameParts,
    Instant,
    Verdict,
    Why,
    game_count,
)

if TYPE_CHECKING:  # the play of tricks (game.play) is loaded for a hand recorded trick by trick only
    from pitchkeeper.game.play import Illegal, TrickResult

__all__ = [
    "_NOTES",
    "Award",
    "BidResult",
    "GameCount",
    "Verdict",
    "Why",
    "always_out",
    "amount_worth",
    "bid_amount",
    "dealt_cards",
    "kept",
    "settle",
    "took_every_point",
    "took_every_point_out",
    "verdict",
]

# A hand's keys of a kitty, a draw and a called partner, read at their places in Hand (found by name); unset, they
# read _NO_HOUSE.
_HOUSE_KEYS = itemgetter(*map(Hand._fields.index, HOUSE_KEYS))
_NO_HOUSE = tuple(Hand._field_defaults[f] for f in HOUSE_KEYS)
_NONE: frozenset[Card] = frozenset()
# what a game count entered by hand has no record of: the piles and what each card counts (GameCount's defaults)
_NO_PILES, _NO_VALUES = GameCount._field_defaults["piles"], GameCount._field_defaults["values"]

Captured = tuple[tuple[str, tuple[Card, ...]], ...]  # (a side or a player, the cards it captured), as recorded


def bid_amount(ruleset: Ruleset, hand: Hand, where: str = "bid.amount") -> int:
    """The bid's worth, checked against the ruleset's range, smudge and no-contract rules."""
    return amount_worth(ruleset, hand.bid.amount, hand.bid.smudge, where)


def amount_worth(ruleset: Ruleset, amount: int, smudge: bool = False, where: str | None = None) -> int:
    """What a bid of `amount` (or a smudge) is worth under the ruleset; PitchError when it is no bid there."""
    b = ruleset.settings["bidding"]
    if smudge or (b["smudge"] and amount == b["smudge"]):  # a bid of the smudge's worth is the smudge
        if not b["smudge"]:
            raise PitchError(f"{ruleset.name} has no {b['smudge_name']} bid (bids {b['min']}-{b['max']})", where)
        return b["smudge"]
    if amount == 0:
        if b["all_pass"] == "eldest-pitches":
            return 0
        raise PitchError(f"a bid of 0 (pitching without a contract) is not allowed in {ruleset.name}; "
                         f"bids are {_bid_range(ruleset)}", where)
    if not b["min"] <= amount <= b["max"]:
        raise PitchError(f"a bid of {amount} is out of range: {ruleset.name} bids are {_bid_range(ruleset)}", where)
    return amount


def dealt_cards(ruleset: Ruleset, trump: str, cards: list[Card]) -> list[Card]:
    """The captured cards whose point goes to the player dealt them: what a `dealt` entry must name
    (a lone trump needs none: it always wins its own trick)."""
    view = ruleset.views[trump]
    in_play = InPlay(view, frozenset(cards))
    high = highest(view, in_play.cards)
    if high is None:
        return []
    out = []
    for rule in ruleset.points:
        find = rule.kind.card
        if rule.to != "dealt" or find is None:
            continue
        won = find(rule, in_play)
        if won is not None and won.card != high and won.card not in out:
            out.append(won.card)
    return out


def _bid_range(ruleset: Ruleset) -> str:
    b = ruleset.settings["bidding"]
    extra = f" or {b['smudge_name']} ({b['smudge']})" if b["smudge"] else ""
    return f"{b['min']} to {b['max']}{extra}"


def named_smudge(ruleset: Ruleset, hand: Hand) -> Hand:
    """The hand with a bid of the smudge's worth read as the smudge, in `bid` and in the auction's calls.

    Seed 002: "Bidding 'smudge' is equivalent to bidding five": in a ruleset whose smudge is worth N,
    a bid written N is the smudge (its label, its steal rule), however it was written.
    """
    worth = ruleset.settings["bidding"]["smudge"]
    if not worth:
        return hand
    bid = hand.bid
    if not bid.smudge and bid.amount == worth:
        bid = Bid(bid.player, -1, True)
    auction = tuple((p, "smudge" if type(c) is int and c == worth else c) for p, c in hand.auction) \
        if hand.auction else ()
    if bid is hand.bid and auction == hand.auction:
        return hand
    return hand._replace(bid=bid, auction=auction)


def verdict(ruleset: Ruleset, table: Table, hand: Hand, *, target: int | None = None) -> Verdict:
    """Judge one hand. Raises PitchError on bad input, naming the key; every check in order, each error
    worded where it is found. `target`: the match's (a smudge that costs the target; else the ruleset's)."""
    features = ruleset.features
    said = hand.bid
    plain = not said.smudge and not hand.auction and said.amount in ruleset.plain_bids  # worth what it says
    if not plain:
        hand = named_smudge(ruleset, hand)
    if "jokers-alike" in features:
        hand = name_jokers(ruleset, hand)
    if hand.trump not in ruleset.views:
        raise PitchError(f"'{hand.trump}' is not a suit", "trump")
    if plain:
        amount = said.amount
    else:
        amount = amount_worth(ruleset, hand.bid.amount, hand.bid.smudge, "bid.amount")
        if amount == 0:
            check_bid(ruleset, table, hand)  # a pitch without a contract is eldest hand's
    sale = check_auction(ruleset, table, hand) if hand.auction else None
    house = bool(features) or _HOUSE_KEYS(hand) != _NO_HOUSE  # a house rule's setting, or its keys in the record
    deal = check_deal(ruleset, table, hand) if house else None
    calling = house and (hand.called is not None or hand.partner is not None or calls(ruleset, table))
    illegal: tuple[Illegal, ...] = ()
    tricks: tuple[TrickResult, ...] = ()
    piles: dict[str, list[Card]] | None = None
    hs: HandSides | None = None
    bidder = hand.bid.player
    bidder_side = table.key_side[bidder]  # the bidder's side of the table
    if hand.points is not None:
        if calling:
            hs = hand_sides(ruleset, table, hand, deal)
        bid_side = hs.bidding if hs else bidder_side
        taken = dict.fromkeys(hs.names, 0) if hs else table.nothing_taken.copy()
        awards, game = _entered(ruleset, table, hand, bid_side, hs, taken)
    else:
        if hand.tricks is not None:
            from pitchkeeper.game.play import replay  # a hand recorded trick by trick: the play of tricks

            rep = replay(ruleset, table, hand, deal=deal)
            captured, illegal, tricks = rep.captured, rep.illegal, rep.tricks
            where = "tricks"
        else:
            assert hand.captured is not None
            captured = hand.captured
            where = "captured"
        # a hand played trick by trick shows who held each card played: the player dealt it
        played = {c: p for t in tricks for p, c in t.plays} if tricks else {}
        if calling:
            hs = hand_sides(ruleset, table, hand, deal, played)
        bid_side = hs.bidding if hs else bidder_side
        taken = dict.fromkeys(hs.names, 0) if hs else table.nothing_taken.copy()
        awards, game, piles = _won(ruleset, table, hand, captured, where, bid_side, played, taken, deal, hs)
    smudge = house and hand.bid.smudge and "smudge-rules" in features
    won = tuple(map(Award._make, awards)) if house else ()  # what a house rule's steps read of the points won
    counted = game_count(game) if house else None  # and of game
    made = bid_made(ruleset, bid_side, taken, won, piles, counted) if smudge else kept(amount, taken[bid_side])
    label = (amount if plain else hand.bid.label) if amount else 0
    bid = BidResult(bidder_side, bidder, amount, label, made, taken[bid_side])
    if label == "smudge":  # the ruleset's own name for it
        bid = bid._replace(name=ruleset.settings["bidding"]["smudge_name"])
    delta, notes, counters = _settle(ruleset, table, hand, taken, bid, bid_side, illegal, hs, smudge, target)
    if not house:
        return Verdict(ruleset.name, hand.trump, tuple(awards), game, taken, bid, delta, illegal, notes, tricks,
                       counters, sale)
    if hs is not None:
        bid = bid._replace(partner=hs.partner, called=hs.called, team=hs.bidding)
    shown = taken if hs is None else {t: taken[hs.side_of[t]] for t in table.sides}
    instant = _instant(ruleset, table, hs, bid_side, bid, taken, won, counted, smudge)
    return Verdict(ruleset.name, hand.trump, won, counted, shown, bid, delta, illegal, notes, tricks, counters,
                   sale, hand_sides=hs.sides if hs else None, bid_team=hs.bid_team if hs else (), deal=deal, instant=instant,
                   direction=ruleset.direction)




def kept(worth: int, took: int) -> bool:
    """Was a bid worth `worth` made by taking `took` points? (A pitch without a contract always is.)"""
    return worth == 0 or took >= worth


def settle(ruleset: Ruleset, amount: int | str, took: int, made: bool | None = None) -> int:
    """The bidding side's score change, as the engine settles it (setback, smudge), when it bid `amount` (a
    number or "smudge") and took `took` points, weighed before the hand is played (game.odds): `made`, whether
    a smudge was made as smudge.needs asks where that is more than its worth; otherwise the bid was made
    when it took its worth. Counting down, the change is towards 0 (negative)."""
    smudge = amount == "smudge"
    worth = amount_worth(ruleset, 0 if smudge else int(amount), smudge)
    if made is None:
        made = kept(worth, took)
    table = Table(("A", "B"), None)  # the bidding side and the rest: no revoke, no sale, no partner called
    hand = Hand("B", next(iter(ruleset.views)), Bid("A", worth, smudge))
    bid = BidResult("A", "A", worth, amount, made, took)
    delta, _, _ = _settle(ruleset, table, hand, {"A": took, "B": 0}, bid, "A", (),
                          smudge=smudge and "smudge-rules" in ruleset.features)
    return delta["A"]


def bid_made(ruleset: Ruleset, bid_side: str, taken: Mapping[str, int], awards: Sequence[Award],
             piles: Mapping[str, Sequence[Card]] | None, game: GameCount | None) -> bool:
    """Was a smudge (moon) made, by what smudge.needs asks of the bidding side: at least its worth, every
    point of the catalogue, every point that was out (game won), every trick, or every point and trick."""
    needs = ruleset.settings["smudge"]["needs"]
    if needs == "worth":
        return taken[bid_side] >= ruleset.settings["bidding"]["smudge"]
    ok = True
    if needs in ("every-point", "every-point-and-trick"):
        ok = took_every_point(ruleset, bid_side, taken)
    elif needs == "every-point-out":
        ok = took_every_point_out(ruleset, bid_side, taken, awards, game)
    if needs in ("every-trick", "every-point-and-trick") and ok:
        ok = took_every_trick(ruleset, bid_side, awards, piles)
    return ok


def took_every_point(ruleset: Ruleset, side: str, taken: Mapping[str, int]) -> bool:
    """Did `side` take every point of the ruleset's catalogue (smudge.needs, win.instant = every-point)?"""
    return ruleset.max_points > 0 and taken[side] == ruleset.max_points


def took_every_point_out(ruleset: Ruleset, side: str, taken: Mapping[str, int], awards: Sequence[Award],
                         game: GameCount | None) -> bool:
    """Did `side` take every point that was out: something, every point awarded, and game where the ruleset
    counts it (a game tied and given to nobody is not taken) - smudge.needs and win.instant = every-point-out."""
    return taken[side] > 0 and all(a.side == side for a in awards) and (
        ruleset.game_point is None or (game is not None and game.side == side))


def took_every_trick(ruleset: Ruleset, side: str, awards: Sequence[Award],
                     piles: Mapping[str, Sequence[Card]] | None) -> bool:
    """Did `side` take every trick? From the cards taken in tricks; with quick entry, from a point for
    taking every trick (an all-tricks point) given to it, which the ruleset must have."""
    if piles is not None:
        return bool(piles.get(side)) and not any(cards for s, cards in piles.items() if s != side)
    sweep = next((p for p in ruleset.points if p.kind.sweep), None)
    if sweep is None:
        name = ruleset.settings["bidding"]["smudge_name"]
        raise PitchError(f"a {name} needs every trick (smudge.needs): give captured cards or tricks, not points", "bid")
    return any(a.point == sweep.id and a.side == side for a in awards)


def _instant(ruleset: Ruleset, table: Table, hs: HandSides | None, bid_side: str, bid: BidResult,
             taken: Mapping[str, int], awards: Sequence[Award], game: GameCount | None, smudge: bool) -> Instant | None:
    """A hand that ends the game at once: a side that took every point (win.instant), a smudge made that
    wins (smudge.made = win) or failed that loses (smudge.set = lose). The winner is a side of the table:
    a bidding side's bidder first."""
    w = ruleset.settings["win"]
    team = hs.bid_team[0] if hs else bid_side
    if w["instant"] != "none":
        out = w["instant"] == "every-point-out"
        for side in taken:
            if w["instant_by"] == "bidder" and side != bid_side:
                continue
            if took_every_point_out(ruleset, side, taken, awards, game) if out else took_every_point(ruleset, side,
                                                                                                     taken):
                who = team if side == bid_side else side
                that = " that was out" if out else ""
                return Instant(who, "every-point", f"{side} took every point{that}: {who} wins at once (win.instant)")
    if smudge:
        sm = ruleset.settings["smudge"]
        name = ruleset.settings["bidding"]["smudge_name"]
        if bid.made and sm["made"] == "win":
            return Instant(team, "smudge-made", f"{bid_side} bid {name} and made it: the game is won at once "
                                                "(smudge.made)")
        if not bid.made and sm["set"] == "lose":
            other = next(s for s in table.sides if s != table.side_of(bid.player))
            return Instant(other, "smudge-set", f"{bid_side} bid {name} and fell short: the game is lost at once, "
                                                f"{other} wins (smudge.set)")
    return None


def _entered(ruleset: Ruleset, table: Table, hand: Hand, bid_side: str, hs: HandSides | None,
             taken: dict[str, int]) -> tuple[list[AwardParts], GameCount | GameParts | None]:
    """Quick entry: each point as entered, checked against the ruleset (a point it has, said for every
    point always out, and one only the bidding side may score given to it), and added to what its side
    `taken`."""
    assert hand.points is not None
    entries = ruleset.entries
    seat_of = table.key_seat if hs is None else {k: (s, table.key_player.get(k)) for k, s in hs.side_of.items()}
    awards: list[AwardParts] = []
    said = 0  # the bits of the points always out that were said
    last = 0
    ordered = True
    winner = None
    for pid, owner in hand.points:
        try:
            rule, value, rank, always, bidder_only, game_point = entries[pid]
        except KeyError:
            raise PitchError(f"{ruleset.name} has no point '{pid}'{did_you_mean(pid, entries)} "
                             f"(its points: {', '.join(entries)})", f"points.{pid}") from None
        side, player = seat_of[owner]
        if bidder_only and side != bid_side:
            raise PitchError(f"only the bidding side ({bid_side}) can score {rule.label}", f"points.{pid}")
        awards.append((pid, None, side, player, value, "entered", "", rule))
        taken[side] += value
        said |= always
        if rank < last:
            ordered = False
        last = rank
        if game_point and winner is None:
            winner = side
    if said != ruleset.always_said:
        given = {pid for pid, _ in hand.points}
        rule = next(r for r in ruleset.always_out if r.id not in given)
        raise PitchError(f"{rule.id} is always out ({rule.kind.always_words}): "
                         f"say who {'was dealt' if rule.to == 'dealt' else 'won'} it", f"points.{rule.id}")
    if not ordered:  # the contract's order of awards, entries of one rank as entered
        awards.sort(key=lambda a: entries[a[0]].rank)
    game: GameCount | GameParts | None = None
    g = ruleset.game_point
    if g is not None:  # (made a GameCount when read: Verdict.game)
        game = ({}, winner, f"{winner} won game (entered by hand)" if winner else "game not awarded (tied, entered by hand)",
                _NO_PILES, _NO_VALUES, "", (), None)
        if winner is None and g.tie != "nobody":  # a game left out is tied: it goes where the rule says
            sides = hs.names if hs is not None else table.sides
            if len(sides) > 2:
                raise PitchError(f"game was tied, and a tie goes to a side among the tied (points.{g.id}.tie = "
                                 f"{g.tie}): with {len(sides)} sides, say which side it went to", f"points.{g.id}")
            side_fn = hs.side_of.__getitem__ if hs is not None else table.side_of
            winner = tie_winner(g, sides, bid_side, _seats(table, hand, side_fn))
            if winner is not None:
                to = "the bidding side" if g.tie == "bidder" else "the elder hand"
                game = GameCount({}, winner, f"game was tied (entered by hand): it goes to {to}, {winner} "
                                             f"(points.{g.id}.tie)", tie=g.tie)
                awards.append((g.id, None, winner, None, g.value, g.kind.id, game, g))
                taken[winner] += g.value
                awards.sort(key=lambda a: entries[a[0]].rank)
    return awards, game


def _won(ruleset: Ruleset, table: Table, hand: Hand, captured: Captured, where: str, bid_side: str,
         played: dict[Card, str], taken: dict[str, int], deal: Deal | None = None,
         hs: HandSides | None = None) -> tuple[list[AwardParts], GameCount | None, dict[str, list[Card]]]:
    """Captured cards (given, or from the tricks played back): checked, then every point asked of its
    kind, in award order, each added to what its side `taken`. Also the cards each side took in tricks."""
    view = ruleset.views[hand.trump]
    trump_only = ruleset.trump_only
    owner = {c: key for key, cards in captured for c in cards}  # card -> key of `captured` (a side or a player)
    counted = deal.counted if deal is not None else ()
    side_fn: Callable[[str], str]
    side_of_key: Mapping[str, str]  # a key of `captured` (a side or a player) -> its side of the hand
    seat_of: Mapping[str, tuple[str, str | None]]  # a key of `captured` -> its side of the hand, and the player it names
    if hs is None:
        sides, side_fn, side_of_key, seat_of = table.sides, table.side_of, table.key_side, table.key_seat
    else:
        sides, side_fn = hs.names, hs.side_of.__getitem__
        side_of_key = {key: key if key in sides else side_fn(key) for key, _ in captured}
        seat_of = {key: (side, table.key_player.get(key)) for key, side in side_of_key.items()}
    piles, total = _piles(captured, sides, side_of_key)
    # every card once (none listed twice or by two keys), in the deck, and a trump where only trumps are played
    # (the bidder's counted discard aside)
    if len(owner) != total or not ruleset.deck.issuperset(owner) or (
            trump_only and not view.strength.keys() >= (owner.keys() - set(counted) if counted else owner.keys())):
        _bad_captured(ruleset, view, captured, where, trump_only, counted)
    if deal is not None and (deal.gone or counted):  # no card laid away or thrown is a trick's
        captured, _ = _trick_cards(ruleset, captured, where, deal, bid_side, side_fn)
        for c in counted:
            owner.pop(c, None)
        piles, total = _piles(captured, sides, side_of_key)
    if not played:
        _check_whole_tricks(ruleset, captured, total, len(table.players), trump_only, where)
    if hand.held:
        dealt = _dealt_index(ruleset, hand, owner, view.strength)
    else:  # (`dealt` alone: its table is the index)
        dealt = _dealt_table(ruleset, "dealt", hand.dealt, owner, view.strength) if hand.dealt else {}
    if played:
        for c, p in dealt.items():  # `dealt` or `held` must agree with who played the card
            if played.get(c, p) != p:
                raise PitchError(f"{c} is listed for {p}, but {played[c]} played it", f"{_key_of(hand, c)}.{p}")
        dealt = {**played, **dealt}
    laid: frozenset[Card] = _NONE
    if counted and deal is not None and deal.counts == "all":  # the discard counts as the bidder's tricks
        laid = frozenset(counted)
        owner.update(dict.fromkeys(counted, deal.bidder))
        side_of_key = {**side_of_key, deal.bidder: bid_side}
        seat_of = {**seat_of, deal.bidder: (bid_side, deal.bidder)}
        dealt = {**dealt, **dict.fromkeys(counted, deal.bidder)}
    in_play = InPlay(view, owner)
    if counted or ruleset.features:
        took = Piles(view, piles, bid_side, _seats(table, hand, side_fn), counted)
    else:
        took = Piles(view, piles, bid_side)
    awards, game = _asked(ruleset, table, view, took, in_play, dealt, owner, seat_of, side_fn, laid, taken)
    return awards, game, piles


def _asked(ruleset: Ruleset, table: Table, view: TrumpView, took: Piles, in_play: InPlay, dealt: Mapping[Card, str],
           owner: Mapping[Card, str], seat_of: Mapping[str, tuple[str, str | None]], side_fn: Callable[[str], str],
           laid: frozenset[Card], taken: dict[str, int]) -> tuple[list[AwardParts], GameCount | None]:
    """Every point asked of its kind in award order: a side point of the piles, a card point of the cards
    in play, given to the player dealt its card or to its captor; each added to what its side `taken`."""
    awards: list[AwardParts] = []
    game: GameCount | None = None
    for rule, pid, value, find_card, find_side, to_dealt in ruleset.finders:
        if find_card is None:
            assert find_side is not None  # a kind gives exactly one of the two
            side, how, what = find_side(rule, took)
            if side is not None:
                awards.append((pid, None, side, None, value, how, what, rule))
                taken[side] += value
            if rule is ruleset.game_point:
                game = what
            continue
        won = find_card(rule, in_play)
        if won is None:
            continue
        card, what = won
        player = dealt.get(card) if to_dealt else None
        if player is not None:  # to the player dealt it
            side, how = side_fn(player), "dealt"
        else:  # to its captor
            how = "discard" if laid and card in laid else "captor"
            if to_dealt:
                if card != highest(view, owner):
                    raise PitchError(f"{pid} ({card}) goes to the player dealt it: say who, "
                                     f"e.g. dealt = {{ {table.players[0]} = [\"{card}\"] }}", "dealt")
                how = "lone-dealt"  # a lone trump always wins its own trick: its captor is the player dealt it
            side, player = seat_of[owner[card]]
        awards.append((pid, card, side, player, value, how, what, rule))
        taken[side] += value
    return awards, game


def _piles(captured: Captured, sides: Sequence[str], side_of_key: Mapping[str, str]) -> tuple[dict[str, list[Card]], int]:
    """The cards each side took in tricks, and their number."""
    piles: dict[str, list[Card]] = {s: [] for s in sides}
    total = 0
    for key, cards in captured:
        piles[side_of_key[key]].extend(cards)
        total += len(cards)
    return piles, total


def _seats(table: Table, hand: Hand, side_fn: Callable[[str], str]) -> tuple[str, ...]:
    """The hand's sides in seating order from the dealer's left (the elder hand's first)."""
    return tuple(dict.fromkeys(side_fn(p) for p in table.clockwise_from(table.left_of(hand.dealer))))


def _trick_cards(ruleset: Ruleset, captured: Captured, where: str, deal: Deal, bid_side: str,
                 side_fn: Callable[[str], str]) -> tuple[Captured, int]:
    """The captured cards without the bidder's counted discard (listed, or not, under a key of the bidding
    side: it is no trick's), refusing a card laid away or thrown that is out of play; and their number."""
    counted = set(deal.counted)
    out = []
    total = 0
    for key, cards in captured:
        w = f"{where}.{key}"
        for c in cards:
            if c in counted:
                if side_fn(key) != bid_side:
                    raise PitchError(f"{c} is {deal.bidder}'s discard; it counts for the bidding side {bid_side} "
                                     f"(kitty.discard_counts = {deal.counts}), not for {key}", w)
            elif c in deal.gone:
                if deal.gone[c] == deal.bidder and deal.kitty_size:
                    raise PitchError(f"{c} was laid away (discard) and counts for nobody (kitty.discard_counts = "
                                     "nothing)", w)
                raise PitchError(f"{c} was thrown in the draw (discard.{deal.gone[c]}) and is out of play", w)
        kept = tuple(c for c in cards if c not in counted)
        out.append((key, kept))
        total += len(kept)
    return tuple(out), total


def _bad_captured(ruleset: Ruleset, view: TrumpView, captured: Captured, where: str, trump_only: bool,
                  counted: Sequence[Card] = ()) -> NoReturn:
    """Say exactly what is wrong with the captured cards: the first bad card, key by key, as listed."""
    owner: dict[Card, str] = {}
    for key, cards in captured:
        seen: set[Card] = set()
        for c in cards:
            if c not in ruleset.deck:
                raise PitchError(f"{c} is not in this ruleset's deck ({ruleset.deck_words()})", f"{where}.{key}")
            if c in seen:
                raise PitchError(f"{c} is listed twice for {key}", f"{where}.{key}")
            seen.add(c)
            if c in owner:
                raise PitchError(f"{c} is captured twice ({owner[c]} and {key})", f"{where}.{key}")
            if trump_only and c not in view.strength and c not in counted:
                raise PitchError(f"{c} is not a trump, and {ruleset.name} plays only trumps "
                                 "(non-trumps are never played)", f"{where}.{key}")
        owner.update(dict.fromkeys(cards, key))
    raise AssertionError("unreachable")  # pragma: no cover


def _key_of(hand: Hand, card: Card) -> str:
    """Which of `dealt` and `held` lists the card (for messages)."""
    return "dealt" if any(card in cs for _, cs in hand.dealt) else "held"


def _dealt_index(ruleset: Ruleset, hand: Hand, owner: dict[Card, str], strength: Any) -> dict[Card, str]:
    """Card -> player dealt it, from `dealt` (or `held` when no `dealt` names the card)."""
    held = _dealt_table(ruleset, "held", hand.held, owner, strength) if hand.held else None
    dealt = _dealt_table(ruleset, "dealt", hand.dealt, owner, strength) if hand.dealt else None
    if held is None or dealt is None:
        return held or dealt or {}
    held.update(dealt)
    return held


def _dealt_table(ruleset: Ruleset, key: str, table_: tuple[tuple[str, tuple[Card, ...]], ...], owner: dict[Card, str],
                 strength: Any) -> dict[Card, str]:
    """Card -> player, from `dealt` or `held` (`key`): each card once, in the deck, and every trump in it
    captured (a trump held is always played)."""
    seen = {c: p for p, cs in table_ for c in cs}
    listed = 0
    for _, cs in table_:
        listed += len(cs)
    if len(seen) != listed:
        _bad_dealt(ruleset, key, table_)
    if not owner.keys() >= seen.keys():  # (the captured cards are in the deck: so are the dealt ones captured)
        if not ruleset.deck.issuperset(seen):
            _bad_dealt(ruleset, key, table_)
        lost = [c for c in seen.keys() - owner.keys() if c in strength]
        if lost:
            c = min(lost)
            raise PitchError(f"{c} is a trump {seen[c]} held, but nobody captured it", f"{key}.{seen[c]}")
    return seen


def _bad_dealt(ruleset: Ruleset, key: str, table_: tuple[tuple[str, tuple[Card, ...]], ...]) -> None:
    seen: dict[Card, str] = {}
    for player, cards in table_:
        for c in cards:
            if c not in ruleset.deck:
                raise PitchError(f"{c} is not in this ruleset's deck ({ruleset.deck_words()})", f"{key}.{player}")
            if c in seen:
                who = f"listed twice for {player}" if seen[c] == player else f"dealt to both {seen[c]} and {player}"
                raise PitchError(f"{c} is {who}", f"{key}.{player}")
            seen[c] = player
    raise AssertionError("unreachable")  # pragma: no cover


def _check_whole_tricks(ruleset: Ruleset, captured: Captured, total: int, n: int, trump_only: bool,
                        where: str) -> None:
    """Captured cards without tricks: whole tricks of one card from each of the `n` players, every card
    played (in trump-only play, no more than the players held)."""
    hand_size = ruleset.settings["deck"]["hand_size"]
    if trump_only:
        if total > n * hand_size:
            raise PitchError(f"{total} cards captured; {n} players of {hand_size} cards play at most {n * hand_size}",
                             where)
        return
    for key, cards in captured:
        if len(cards) % n:
            raise PitchError(f"{len(cards)} cards cannot come from whole tricks of {n} cards", f"{where}.{key}")
    if total != n * hand_size:
        raise PitchError(f"{total} cards captured in all; {n} players of {hand_size} cards play {n * hand_size} "
                         f"({hand_size} tricks of {n})", where)


def _settle(ruleset: Ruleset, table: Table, hand: Hand, taken: dict[str, int], bid: BidResult, bid_side: str,
            illegal: tuple[Illegal, ...], hs: HandSides | None = None, smudge: bool = False,
            target: int | None = None) -> tuple[dict[str, int], tuple[tuple[Any, ...], ...], dict[str, int] | None]:
    """Each side's score change under the ruleset's setback, smudge, revoke and sale rules, and notes saying
    why. Settled per side of the hand (`taken`), then given to every side of the table in it; a penalty
    or a sale is the player's own."""
    plan = ruleset.settle_plan
    notes: list[tuple[Any, ...]] = []
    delta: dict[str, int] = {}
    offenders: Sequence[str] = ()
    penal = False
    if hand.revokes or illegal:
        offenders = list(dict.fromkeys([*hand.revokes, *(i.player for i in illegal)]))
        penal = plan.revoke_setback != "none"
        side_fn: Callable[[str], str] = table.side_of if hs is None else hs.side_of.__getitem__
    defenders_score = plan.defenders_score
    for side, t in taken.items():
        if side != bid_side:
            if defenders_score:
                delta[side] = t
                if t:
                    notes.append(("defended", side, t))
            else:
                delta[side] = 0
        elif bid.made:
            if smudge:
                delta[side] = _smudge_made(plan, side, t, bid, notes, plan.smudge_name)
            else:
                delta[side] = t
                notes.append(("made" if bid.amount else "no-contract", side, t))
        else:
            if penal and plan.bidder_excused and side not in {side_fn(p) for p in offenders}:
                delta[side] = t
                notes.append(("excused", side, t, bid.label))
            elif smudge and plan.smudge_set in ("points", "target"):
                cost = plan.smudge_set_points if plan.smudge_set == "points" else target or plan.target
                delta[side] = -cost
                notes.append((f"smudge-set-{plan.smudge_set}", side, plan.smudge_name, cost))
            elif plan.setback_bid:
                delta[side] = -bid.amount
                notes.append(("set", side, t, bid.label, bid.amount))
            else:
                delta[side] = 0
                notes.append(("set-nothing", side, t, bid.label))
            if smudge and plan.smudge_set == "lose":
                notes.append(("smudge-lose", side, plan.smudge_name))
    if hs is not None:  # every player of a side of the hand scores what the side scores
        delta = {p: delta[hs.side_of[p]] for p in table.sides}
    counters: dict[str, int] | None = None
    if offenders:
        if penal:
            counters = _penalties(plan, table, taken, offenders, bid, delta, notes, side_fn)
        else:
            notes.append(("no-penalty", ", ".join(offenders), ruleset.name))
    # --- sale credit (bidding.sale_credit, sell-out auctions): the price of a sale is scored by the
    # seller, or by the buyer eldest refused; "none" (the default) changes nothing.
    if plan.sale:
        credit = sale_credit(ruleset, table, hand)
        if credit is not None:
            who, price = credit
            delta[table.side_of(who)] += price
            notes.append(("sale", who, price))
    if plan.down:  # counting down: what a side scores comes off its score
        delta = {s: -d for s, d in delta.items()}
    return delta, tuple(notes), counters


def _penalties(plan: SettlePlan, table: Table, taken: dict[str, int], offenders: Sequence[str], bid: BidResult,
               delta: dict[str, int], notes: list[tuple[Any, ...]], side_fn: Callable[[str], str]) -> dict[str, int] | None:
    """A revoke's penalty (revoke.setback, offender_scores, counters): each offender's side set back, its
    own score taken away where the ruleset says so (and its notes with it); the counters forfeited."""
    cost = bid.amount if plan.revoke_setback == "bid" else plan.revoke_points
    own = ("made", "no-contract", "excused", "set", "set-nothing", "defended")
    for side in sorted({table.side_of(p) for p in offenders}):
        if not plan.offender_scores:
            delta[side] = 0  # the offender's side scores nothing of its own this hand: so say the notes
            notes[:] = [n for n in notes if not (n[0] in own and n[1] == side)]
            notes.append(("scores-nothing", side, taken[side_fn(side)]))
    counters: dict[str, int] | None = None
    for p in offenders:
        side = table.side_of(p)
        delta[side] -= cost
        notes.append(("revoked", p, side, cost, " (the amount bid)" if plan.revoke_setback == "bid" else ""))
        if plan.counters:
            counters = counters or {}
            counters[p] = counters.get(p, 0) + plan.counters
            notes.append(("forfeit", p, plan.counters, plan.unit))
    return counters


def _smudge_made(plan: SettlePlan, side: str, took: int, bid: BidResult, notes: list[tuple[Any, ...]],
                 name: str) -> int:
    """What a smudge made scores (smudge.made): what it took, its worth, a set number; or what it took,
    and it wins the game at once."""
    how = plan.smudge_made
    if how == "worth":
        notes.append(("smudge-worth", side, name, bid.amount))
        return bid.amount
    if how == "points":
        notes.append(("smudge-points", side, name, plan.smudge_made_points))
        return int(plan.smudge_made_points)
    notes.append(("smudge-win", side, name, took) if how == "win" else ("made", side, took))
    return took
