"""The verdict on one hand: every point with its reason, the game count, the bid, the score change.

`verdict(ruleset, table, hand)` is a pure function. It reads only the ruleset's data (its point
catalogue, trump view, settlement and penalty settings), so a new variant needs a TOML file, not
code here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.game.cards import Card
from pitchkeeper.game.compiled import _KEY as _COMPILED
from pitchkeeper.game.compiled import S_CARD, S_FIND, S_HIGH, S_LOW, Compiled, Seats, TrumpPlan, compiled
from pitchkeeper.game.records import POINT_IDS, Bid, Hand, Table
from pitchkeeper.game.rulesets import PointRule, Ruleset
from pitchkeeper.game.verdicts import _NOTES, Award, BidResult, GameCount, Verdict

__all__ = [
    "_NOTES",
    "Award",
    "BidResult",
    "GameCount",
    "Verdict",
    "always_out",
    "amount_worth",
    "bid_amount",
    "dealt_cards",
    "verdict",
]

if TYPE_CHECKING:  # play is loaded only for hands recorded trick by trick
    from pitchkeeper.game.play import Illegal, TrickResult

_RANK = {p: i for i, p in enumerate(POINT_IDS)}
_PLACES = len(POINT_IDS) + 1  # an award's place in the contract's order (POINT_IDS, then any other point)
_NO_DEALT: dict[Card, str] = {}
_tuple_new = tuple.__new__  # makes a NamedTuple without its Python-level __new__ (verdicts are made in bulk)


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


def always_out(rule: PointRule) -> bool:
    """Is this point won in every hand? High is (the pitch is a trump); so is low, unless the ruleset
    lets a lone trump be high only, or some trumps never count as low."""
    return rule.kind.always_out(rule)


def dealt_cards(ruleset: Ruleset, trump: str, cards: list[Card]) -> list[Card]:
    """The captured cards whose point goes to the player dealt them: what a `dealt` entry must name
    (a lone trump needs none: it always wins its own trick)."""
    view = ruleset.views[trump]
    trumps = [c for c in cards if c in view.strength]
    if not trumps:
        return []
    high = max(trumps, key=view.strength.__getitem__)
    plan = compiled(ruleset).plans[trump]
    held = dict.fromkeys(cards, "")
    out = []
    for rule in ruleset.points:
        find = rule.kind.card
        if rule.to != "dealt" or find is None:
            continue
        got = find(rule, view.point_card.get(rule.id), "", held, high, plan)
        card = None if got is None else got[0]
        if card is not None and card != high and card not in out:
            out.append(card)
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
    auction = tuple((p, "smudge" if type(c) is int and c == worth else c) for p, c in hand.auction)
    if bid is hand.bid and auction == hand.auction:
        return hand
    return hand._replace(bid=bid, auction=auction)


def verdict(ruleset: Ruleset, table: Table, hand: Hand) -> Verdict:
    """Judge one hand. Raises PitchError on bad input, naming the key.

    Quick entry and captured cards take a fast path over the ruleset compiled for the trump and the
    table (`compiled`); anything it does not expect (bad input, tricks, revokes, a sale) takes the
    careful path, which finds and words every error, so both give the same verdict or the same error.
    """
    c = ruleset.__dict__.get(_COMPILED) or compiled(ruleset)
    bid = hand.bid
    if c.smudge and ((bid.amount == c.smudge and not bid.smudge) or hand.auction):
        hand = named_smudge(ruleset, hand)
        bid = hand.bid
    plan = c.plans.get(hand.trump)
    seats = table.__dict__.get(c.seats_key) or c.seats(table)
    # the bid's worth (compiled: amount -> worth, for the amounts the ruleset allows) and the bidding side
    amount = c.smudge or None if bid.smudge else c.worth.get(bid.amount)
    bid_side = seats.key_side.get(bid.player)
    if plan is None or amount is None or bid_side is None:
        return _careful(ruleset, table, hand)
    if amount == 0:
        from pitchkeeper.game.bidding import check_bid  # a pitch without a contract is eldest hand's

        check_bid(ruleset, table, hand)
    if hand.auction:
        from pitchkeeper.game.bidding import check_auction  # loaded only for hands that give the auction

        check_auction(ruleset, table, hand)
    game: GameCount | None
    illegal: tuple[Illegal, ...] = ()
    tricks: tuple[TrickResult, ...] = ()
    points = hand.points
    if points is not None:  # quick entry
        known = seats.entered.get(points)
        if known is None:
            known = _quick(c, seats, points)
            if known is None:
                return _careful(ruleset, table, hand)  # an error (or a point given twice): it words it
        awards, taken, game, bidder = known
        if bidder is not None and bidder != bid_side:
            return _careful(ruleset, table, hand)  # only the bidding side may score that point: it says so
        taken = taken.copy()
    else:
        played: dict[Card, str] = _NO_DEALT  # (shared, never written)
        checked = False  # played back fast: whole tricks of cards in the deck, each from its player's held cards
        if hand.tricks is not None:
            from pitchkeeper.game.quickplay import fast_replay

            fast = fast_replay(ruleset, c, table, hand)
            if fast is None:
                from pitchkeeper.game.play import replay

                rep = replay(ruleset, table, hand)
                # a hand played trick by trick shows who held each card played: the player dealt it
                played = {card: p for t in rep.tricks for p, card in t.plays}
            else:
                rep, played = fast
                checked = not hand.dealt
            captured, illegal, tricks = rep.captured, rep.illegal, rep.tricks
        else:
            captured = hand.captured
        taken = seats.zero.copy()
        got_cards = _fast_cards(ruleset, c, plan, seats, hand, bid_side, taken, captured, played, checked)
        if got_cards is None:
            return _careful(ruleset, table, hand)
        awards, game = got_cards
    label = "smudge" if bid.smudge else amount
    if hand.revokes or c.sale or illegal:
        took = taken[bid_side]
        result = _tuple_new(BidResult, (bid_side, bid.player, amount, label if amount else 0,
                                        amount == 0 or took >= amount, took))
        delta, notes, counters = _settle(ruleset, table, hand, taken, result, illegal)
    else:  # no revoke, sale or illegal play: the score change follows from the bid and the points taken alone
        counters = notes = None  # (the notes follow from them too: Verdict.notes makes them when read)
        took = taken[bid_side]
        if amount:
            made = took >= amount
        else:
            made, label = True, 0
        result = _tuple_new(BidResult, (bid_side, bid.player, amount, label, made, took))
        delta = taken.copy() if c.defenders_score else seats.zero.copy()
        delta[bid_side] = took if made else -amount if c.set_back else 0
    return _tuple_new(Verdict, (ruleset.name, hand.trump, awards, game, taken, result, delta, illegal, notes, tricks,
                                counters))


def _quick(c: Compiled, seats: Seats, points: tuple[tuple[str, str], ...]) -> tuple[Any, ...] | None:
    """Quick entry's (awards, points taken, game, the side a point only the bidder may score went to),
    from each point's award made once per table (`Compiled.quick_award`), kept for the next hand entered
    so at this table (a table sees few distinct entries); None for the careful path."""
    taken = seats.zero.copy()
    placed: list[Award | None] = [None] * _PLACES  # each award in its place in the contract's order
    given = 0  # a bit for each point given, at its place
    game_side = bidder = None
    key = []  # the entry, made of the table's own objects (kept as the key: no record is kept alive)
    by_entry = seats.quick
    for entry in points:
        got = by_entry.get(entry) or c.quick_award(seats, entry)
        if got is None:
            return None
        place, award, side, value, bit, special, canonical = got
        taken[side] += value
        given |= bit
        placed[place] = award
        if special & 1:  # only the bidding side may score it (two such points to two sides: careful path)
            if bidder is not None and bidder != side:
                return None
            bidder = side
        if special & 2:
            game_side = side
        key.append(canonical)
    awards = tuple(filter(None, placed))
    if given & c.required_bits != c.required_bits or len(awards) != len(points):
        return None  # a point always out not given (or a point given twice)
    made = (awards, taken, seats.games[game_side], bidder)
    if len(seats.entered) < 4096:
        seats.entered[tuple(key)] = made
    return made


def _fast_cards(ruleset: Ruleset, c: Compiled, plan: TrumpPlan, seats: Seats, hand: Hand, bid_side: str,
                taken: dict[str, int], captured: tuple[tuple[str, tuple[Card, ...]], ...] | None,
                played: dict[Card, str], checked: bool = False) -> tuple[tuple[Award, ...], GameCount | None] | None:
    """Captured cards in one pass over the cards, then one over the compiled plan (adding to `taken`);
    None when anything needs the careful path (which then words the error). `checked`: the cards come
    from tricks played back fast (game.quickplay), which checked them, and `played` says who held each."""
    key_side = seats.key_side
    owner: dict[Card, str] = {}  # card -> the key it was captured under
    n = seats.n
    total = 0
    ragged = 0
    assert captured is not None
    values = plan.game_values
    counts = seats.zero.copy()  # each side's count for game
    try:  # one pass over the cards, in plain loops (cheaper than building dicts to merge, and calls)
        if plan.game_rule is None:  # nothing to count
            for key, cards in captured:
                key_side[key]  # (a KeyError: no side or player)
                k = len(cards)
                total += k
                ragged |= k % n
                for card in cards:
                    owner[card] = key
            if not c.trump_only and not owner.keys() <= c.deck:  # (trump-only play: every one a trump, below)
                return None
        else:
            for key, cards in captured:
                side = key_side[key]
                k = len(cards)
                total += k
                ragged |= k % n
                g = 0
                for card in cards:
                    owner[card] = key
                    g += values[card]
                counts[side] += g
    except KeyError:  # a key that is no side or player, or a card that is not in the deck
        return None
    strength = plan.strength
    if checked:
        pass
    elif len(owner) != total:  # (every card is in the deck)
        return None
    elif c.trump_only:
        if not strength.keys() >= owner.keys() or total > n * c.hand_size:
            return None
    elif ragged or total != n * c.hand_size:
        return None
    dealt = _NO_DEALT
    if checked:  # every card captured was played by the player dealt it (the held cards, if given, agree)
        dealt = played
    elif played:  # the tricks show who held each card played; `dealt` and `held` must agree with them
        dealt = _dealt_index(ruleset, hand, owner, strength) if hand.dealt or hand.held else {}
        for card, p in dealt.items():
            if played.get(card, p) != p:
                raise PitchError(f"{card} is listed for {p}, but {played[card]} played it", f"{_key_of(hand, card)}.{p}")
        dealt = {**played, **dealt}
    elif hand.held:
        dealt = _dealt_index(ruleset, hand, owner, strength)
    elif hand.dealt:  # the common case inline: every card listed once, and captured
        listed = 0
        dealt = {}
        for p, cs in hand.dealt:
            listed += len(cs)
            for card in cs:
                dealt[card] = p
        if len(dealt) != listed or not owner.keys() >= dealt.keys():
            dealt = _dealt_index(ruleset, hand, owner, strength)
    high = None
    if plan.needs_high:
        for card in plan.order:  # the trumps from the highest down: the first captured is high
            if card in owner:
                high = card
                break
    key_player = seats.key_player
    awards: list[Award | None] = [None] * len(plan.steps)  # in award order: each step has its place
    game: GameCount | None = None
    for slot, card, pid, value, why in plan.fixed:  # a point for one fixed card, scored by its captor
        if card in owner:
            key = owner[card]
            side = key_side[key]
            taken[side] += value
            awards[slot] = _tuple_new(Award, (pid, card, side, key_player[key], value, why))
    if high is not None and plan.high is not None:  # high, scored by its captor
        slot, pid, value, why = plan.high
        key = owner[high]
        side = key_side[key]
        taken[side] += value
        awards[slot] = _tuple_new(Award, (pid, high, side, key_player[key], value, why))
    if plan.low is not None:
        slot, pid, value, to_dealt, rule, apart, why, lone = plan.low
        for card in plan.low_order:  # from the lowest up, the skipped ones left out (as kinds._lowest)
            if card in owner:
                if card != high:
                    what = "low"
                elif apart:  # a lone trump is high only
                    break
                else:
                    what, why = "lone", lone
                player = dealt.get(card) if to_dealt else None
                if player is not None:  # to the player dealt it
                    side = key_side[player]
                    why = ("dealt", what, rule)
                else:
                    if to_dealt:
                        if card != high:
                            return None  # the careful path says who must be named
                        why = ("lone-dealt", what, rule)  # a lone trump wins its own trick
                    key = owner[card]
                    side = key_side[key]
                    player = key_player[key]
                taken[side] += value
                awards[slot] = _tuple_new(Award, (pid, card, side, player, value, why))
                break
    if plan.game is not None:  # counted in the pass over the cards: the one side that counted the most
        slot, pid, value, rule, majority = plan.game
        top = 0
        winner = None
        for side, v in counts.items():  # (as kinds._game)
            if v > top:
                top, winner = v, side
            elif v == top:
                winner = None
        if winner is not None and majority and top * 2 <= sum(counts.values()):
            winner = None  # a majority is needed, and this is not one
        game = _tuple_new(GameCount, (counts, winner, "", (captured, key_side, values)))
        if winner is not None:
            taken[winner] += value
            awards[slot] = _tuple_new(Award, (pid, None, winner, None, value, ("game", game, rule)))
    for slot, (code, rule, card, what, pid, value, to_dealt, why, kind, _) in plan.rest:
        if code == S_CARD:
            if card not in owner:
                continue
        elif code == S_HIGH:
            if high is None:
                continue
            card = high
        elif code in (S_FIND, S_LOW):
            got = kind.card(rule, card, what, owner, high, plan)
            if got is None:
                continue
            card, what = got
            why = ("captor", what, rule)
        else:  # a side's point (a sweep, or any other kind)
            side, how, what = kind.side(rule, captured, key_side, seats.zero,
                                        counts if rule is plan.game_rule else None, bid_side)
            if kind.game:
                game = what
            if side is not None:
                taken[side] += value
                awards[slot] = _tuple_new(Award, (pid, None, side, None, value, (how, what, rule)))
            continue
        if to_dealt:
            player = dealt.get(card)
            if player is not None:
                side = key_side[player]
                taken[side] += value
                awards[slot] = _tuple_new(Award, (pid, card, side, player, value, ("dealt", what, rule)))
                continue
            if not plan.needs_high:
                high = next(filter(owner.__contains__, plan.order), None)
            if card != high:
                return None  # the careful path says who must be named
            why = ("lone-dealt", what, rule)
        key = owner[card]
        side = key_side[key]
        taken[side] += value
        awards[slot] = _tuple_new(Award, (pid, card, side, key_player[key], value, why))
    return tuple(filter(None, awards)), game


def _careful(ruleset: Ruleset, table: Table, hand: Hand) -> Verdict:
    """The general path: every entry form, every check in order, each error worded where it is found."""
    hand = named_smudge(ruleset, hand)
    if hand.trump not in ruleset.views:
        raise PitchError(f"'{hand.trump}' is not a suit", "trump")
    amount = bid_amount(ruleset, hand)
    if amount == 0:
        from pitchkeeper.game.bidding import check_bid  # a pitch without a contract is eldest hand's

        check_bid(ruleset, table, hand)
    if hand.auction:
        from pitchkeeper.game.bidding import check_auction  # loaded only for hands that give the auction

        check_auction(ruleset, table, hand)
    bid_side = table.side_of(hand.bid.player)
    sides = table.sides
    illegal: tuple[Illegal, ...] = ()
    tricks: tuple[TrickResult, ...] = ()
    if hand.points is not None:
        awards, game = _quick_awards(ruleset, table, hand, bid_side)
    else:
        if hand.tricks is not None:
            from pitchkeeper.game.play import replay

            rep = replay(ruleset, table, hand)
            captured = rep.captured
            illegal, tricks = rep.illegal, rep.tricks
            where = "tricks"
        else:
            assert hand.captured is not None
            captured = hand.captured
            where = "captured"
        # a hand played trick by trick shows who held each card played: the player dealt it
        played = {c: p for t in tricks for p, c in t.plays}
        awards, game = _card_awards(ruleset, table, hand, captured, where, bid_side, played)
    taken = dict.fromkeys(sides, 0)
    for a in awards:
        taken[a.side] += a.value
    made = amount == 0 or taken[bid_side] >= amount
    bid = BidResult(bid_side, hand.bid.player, amount, hand.bid.label if amount else 0, made, taken[bid_side])
    delta, notes, counters = _settle(ruleset, table, hand, taken, bid, illegal)
    return Verdict(ruleset.name, hand.trump, tuple(awards), game, taken, bid, delta, illegal, notes, tricks, counters)


def _who(side: str, player: str | None, table: Table) -> str:
    if player is None or not table.teams:
        return side
    return f"{player} ({side})"


def _quick_awards(ruleset: Ruleset, table: Table, hand: Hand, bid_side: str) -> tuple[list[Award], GameCount | None]:
    assert hand.points is not None
    rules = {p.id: p for p in ruleset.points}
    awards = []
    for pid, owner in hand.points:
        rule = rules.get(pid)
        if rule is None:
            raise PitchError(f"{ruleset.name} has no point '{pid}'{did_you_mean(pid, rules)} "
                             f"(its points: {', '.join(rules)})", f"points.{pid}")
        side = table.side_of(owner) if owner not in table.sides else owner
        player = owner if owner in table.players else None
        if rule.kind.bidder_only(rule) and side != bid_side:
            raise PitchError(f"only the bidding side ({bid_side}) can score {rule.label}", f"points.{pid}")
        awards.append(Award(pid, None, side, player, rule.value, ("entered", "", rule)))
    given = {pid for pid, _ in hand.points}
    for rule in ruleset.points:
        if always_out(rule) and rule.id not in given:
            raise PitchError(f"{rule.id} is always out ({rule.kind.always_words}): "
                             f"say who {'was dealt' if rule.to == 'dealt' else 'won'} it",
                             f"points.{rule.id}")
    awards.sort(key=lambda a: _RANK.get(a.point, len(_RANK)))
    g = ruleset.game_point
    game = None
    if g is not None:
        winner = next((a.side for a in awards if a.point == g.id), None)
        game = GameCount({}, winner, f"{winner} won game (entered by hand)" if winner else
                         "game not awarded (tied, entered by hand)")
    return awards, game


def _card_awards(ruleset: Ruleset, table: Table, hand: Hand, captured: tuple[tuple[str, tuple[Card, ...]], ...],
                 where: str, bid_side: str, played: dict[Card, str]) -> tuple[list[Award], GameCount | None]:
    view = ruleset.views[hand.trump]
    deck = ruleset.deck
    sides = table.sides
    n = len(table.players)
    owner: dict[Card, str] = {}  # card -> key of `captured` (a side or a player)
    side_of_key: dict[str, str] = {}
    per_side: dict[str, int] = dict.fromkeys(sides, 0)
    trump_only = ruleset.settings["play"]["follow"] == "trump-only"
    strength = view.strength
    for key, cards in captured:
        side = key if key in sides else table.side_of(key)
        side_of_key[key] = side
        new = dict.fromkeys(cards, key)
        if len(new) != len(cards) or not owner.keys().isdisjoint(new) or not deck.issuperset(new) or (
                trump_only and not strength.keys() >= new.keys()):
            _bad_captured(ruleset, view, key, cards, owner, where, trump_only)
        owner.update(new)
        per_side[side] += len(cards)
    if not played:
        _check_whole_tricks(ruleset, captured, per_side, n, trump_only, where)
    trumps = strength.keys() & owner.keys()
    dealt = _dealt_index(ruleset, hand, owner, strength) if hand.dealt or hand.held else {}
    if played:
        for c, p in dealt.items():  # `dealt` or `held` must agree with who played the card
            if played.get(c, p) != p:
                raise PitchError(f"{c} is listed for {p}, but {played[c]} played it", f"{_key_of(hand, c)}.{p}")
        dealt = {**played, **dealt}
    awards: list[Award] = []
    high = max(trumps, key=strength.__getitem__) if trumps else None
    game: GameCount | None = None
    zero = dict.fromkeys(sides, 0)
    plan = compiled(ruleset).plans[hand.trump]
    for _, rule, card, what, _, _, _, _, kind, _ in plan.steps:
        find = kind.card
        if find is not None:
            got = find(rule, card, what, owner, high, plan)
            if got is not None:
                awards.append(_card_award(rule, got[0], owner, side_of_key, dealt, table, high, got[1]))
            continue
        side, how, what = kind.side(rule, captured, side_of_key, zero, None, bid_side)  # type: ignore[misc]
        if kind.game:
            game = what
        if side is not None:
            awards.append(Award(rule.id, None, side, None, rule.value, (how, what, rule)))
    return awards, game


def _card_award(rule: PointRule, card: Card, owner: dict[Card, str], side_of_key: dict[str, str],
                dealt: dict[Card, str], table: Table, high: Card | None, what: str) -> Award:
    if rule.to == "dealt":
        player = dealt.get(card)
        if player is not None:
            return Award(rule.id, card, table.side_of(player), player, rule.value, ("dealt", what, rule))
        if card != high:
            raise PitchError(f"{rule.id} ({card}) goes to the player dealt it: say who, "
                             f"e.g. dealt = {{ {table.players[0]} = [\"{card}\"] }}", "dealt")
        how = "lone-dealt"  # a lone trump always wins its own trick: its captor is the player dealt it
    else:
        how = "captor"
    key = owner[card]
    return Award(rule.id, card, side_of_key[key], key if key in table.players else None, rule.value,
                 (how, what, rule))


def _bad_captured(ruleset: Ruleset, view: Any, key: str, cards: tuple[Card, ...], owner: dict[Card, str],
                  where: str, trump_only: bool) -> None:
    """Say exactly what is wrong with one side's captured cards (the fast path only noticed)."""
    seen: set[Card] = set()
    for c in cards:
        if c not in ruleset.deck:
            raise PitchError(f"{c} is not in this ruleset's deck ({ruleset.deck_words()})", f"{where}.{key}")
        if c in seen:
            raise PitchError(f"{c} is listed twice for {key}", f"{where}.{key}")
        seen.add(c)
        if c in owner:
            raise PitchError(f"{c} is captured twice ({owner[c]} and {key})", f"{where}.{key}")
        if trump_only and c not in view.strength:
            raise PitchError(f"{c} is not a trump, and {ruleset.name} plays only trumps "
                             "(non-trumps are never played)", f"{where}.{key}")
    raise AssertionError("unreachable")  # pragma: no cover


def _key_of(hand: Hand, card: Card) -> str:
    """Which of `dealt` and `held` lists the card (for messages)."""
    return "dealt" if any(card in cs for _, cs in hand.dealt) else "held"


def _dealt_index(ruleset: Ruleset, hand: Hand, owner: dict[Card, str], strength: Any) -> dict[Card, str]:
    """Card -> player dealt it, from `dealt` (or `held` when no `dealt` names the card)."""
    out: dict[Card, str] = {}
    deck = ruleset.deck
    for key, table_ in (("held", hand.held), ("dealt", hand.dealt)):
        if not table_:
            continue
        seen = {c: p for p, cs in table_ for c in cs}
        if len(seen) != sum(len(cs) for _, cs in table_) or not deck.issuperset(seen):
            _bad_dealt(ruleset, key, table_)
        lost = strength.keys() & seen.keys() - owner.keys()
        if lost:
            c = min(lost)
            raise PitchError(f"{c} is a trump {seen[c]} held, but nobody captured it", f"{key}.{seen[c]}")
        out.update(seen)
    return out


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


def _check_whole_tricks(ruleset: Ruleset, captured: tuple[tuple[str, tuple[Card, ...]], ...],
                        per_side: dict[str, int], n: int, trump_only: bool, where: str) -> None:
    hand_size = ruleset.settings["deck"]["hand_size"]
    total = sum(per_side.values())
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


def _settle(ruleset: Ruleset, table: Table, hand: Hand, taken: dict[str, int], bid: BidResult,
            illegal: tuple[Illegal, ...]) -> tuple[dict[str, int], tuple[tuple[Any, ...], ...], dict[str, int] | None]:
    """Each side's score change under the ruleset's setback, revoke and sale rules, and notes saying why."""
    st = ruleset.settings["settle"]
    rv = ruleset.settings["revoke"]
    notes: list[tuple[Any, ...]] = []
    delta: dict[str, int] = {}
    offenders = list(dict.fromkeys([*hand.revokes, *(i.player for i in illegal)])) if hand.revokes or illegal else []
    penal = rv["setback"] != "none" and offenders
    off_sides = {table.side_of(p) for p in offenders} if penal else set()
    for side, t in taken.items():
        if side == bid.side:
            if bid.made:
                delta[side] = t
                notes.append(("made" if bid.amount else "no-contract", side, t))
            elif penal and rv["bidder_excused"] and side not in off_sides:
                delta[side] = t
                notes.append(("excused", side, t, bid.label))
            elif st["setback"] == "bid":
                delta[side] = -bid.amount
                notes.append(("set", side, t, bid.label, bid.amount))
            else:
                delta[side] = 0
                notes.append(("set-nothing", side, t, bid.label))
        elif st["defenders_score"]:
            delta[side] = t
            if t:
                notes.append(("defended", side, t))
        else:
            delta[side] = 0
    counters: dict[str, int] | None = None
    if offenders and not penal:
        notes.append(("no-penalty", ", ".join(offenders), ruleset.name))
    if penal:
        cost = bid.amount if rv["setback"] == "bid" else rv["points"]
        own = ("made", "no-contract", "excused", "set", "set-nothing", "defended")
        for side in sorted(off_sides):
            if not rv["offender_scores"]:
                delta[side] = 0  # the offender's side scores nothing of its own this hand: so say the notes
                notes = [n for n in notes if not (n[0] in own and n[1] == side)]
                notes.append(("scores-nothing", side, taken[side]))
        for p in offenders:
            side = table.side_of(p)
            delta[side] -= cost
            notes.append(("revoked", p, side, cost, " (the amount bid)" if rv["setback"] == "bid" else ""))
            if rv["counters"]:
                counters = counters or {}
                counters[p] = counters.get(p, 0) + rv["counters"]
                notes.append(("forfeit", p, rv["counters"], ruleset.settings["stakes"]["unit"]))
    # --- sale credit (bidding.sale_credit, sell-out auctions): the price of a sale is scored by the
    # seller, or by the buyer eldest refused; "none" (the default) changes nothing.
    if ruleset.settings["bidding"]["sale_credit"] != "none":
        from pitchkeeper.game.bidding import sale_credit

        credit = sale_credit(ruleset, table, hand)
        if credit is not None:
            who, price = credit
            delta[table.side_of(who)] += price
            notes.append(("sale", who, price))
    return delta, tuple(notes), counters
