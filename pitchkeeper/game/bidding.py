"""The auction: checking a hand's calls against the ruleset's bidding rules.

Everything is read from the ruleset's [bidding] table, so a variant is data:

- `auction = "once-around"`: from the dealer's left, each player speaks once (the dealer last),
  passing or bidding higher than the last bid; the dealer may `steal` by equalling the high bid
  (`any`, or `below-top`: not a top bid - the smudge, or `max` where there is no smudge); when
  everyone else passed, `all_pass` says what happens (the dealer is stuck and bids at least
  `forced_bid`, or the hand is redealt, or eldest pitches without a contract, bid 0).
  A player may bid `pitch_bid` by laying a card face up at once ("Ann:pitch"); the auction ends there.
- `auction = "sell-out"` (seed 001): eldest hand pitches at once ("Ann:pitch", a contract of
  `pitch_at_once`) or passes to sell; the others bid once each; eldest then sells ("Ann:pass") or
  undertakes as many points as the top bid himself ("Ann:3", when `steal` allows it; no more and no
  fewer: seed 001, "undertake to make as many points as the bidder"); if nobody bids, eldest pitches
  with no contract. `sale_credit` says who scores the price of a sale.

Errors name the call (`auction[N]`, counted from 1) so a player can find it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game.records import Hand, Table
from pitchkeeper.game.rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an auction decided: who pitches, at what, and whether the pitch changed hands."""

    player: str
    amount: int  # what the contract is worth: 0 is a pitch without a contract
    smudge: bool = False
    seller: str | None = None  # sell-out: eldest, when he sold the pitch
    refused: str | None = None  # sell-out: the top bidder eldest refused by undertaking the bid himself
    price: int = 0  # sell-out: the sale's price, or the refused offer


class HighBid(NamedTuple):
    """The highest bid so far in an auction."""

    player: str
    value: int
    smudge: bool


def eldest(table: Table, dealer: str) -> str:
    """The player at the dealer's left: the first to speak."""
    return table.left_of(dealer)


def speaking_order(table: Table, dealer: str) -> tuple[str, ...]:
    """Everyone once, from the dealer's left round to the dealer."""
    return table.clockwise_from(table.left_of(dealer))


def _label(value: int, smudge: bool, b: dict) -> str:
    return str(b["smudge_name"]) if smudge else str(value)


def _value(call: int | str, b: dict, name: str, where: str) -> tuple[int, bool]:
    """A call's worth, checked against the ruleset's range: (value, smudge?)."""
    if call == "smudge":
        if not b["smudge"]:
            raise PitchError(f"{name} has no {b['smudge_name']} bid (bids {b['min']}-{b['max']})", where)
        return b["smudge"], True
    if call == "pitch":
        if not b["pitch_bid"]:
            raise PitchError(f"{name} has no bid by pitching a card at once; write the amount", where)
        return b["pitch_bid"], False
    assert isinstance(call, int)
    if b["smudge"] and call == b["smudge"]:  # a call of the smudge's worth is the smudge (seed 002)
        return b["smudge"], True
    if not b["min"] <= call <= b["max"]:
        extra = f" or {b['smudge_name']}" if b["smudge"] else ""
        raise PitchError(f"a bid of {call} is out of range: {name} bids are {b['min']} to {b['max']}{extra}", where)
    return call, False


def _stuck_dealer(b: dict, dealer: str, call: int | str, where: str) -> None:
    """The last to speak after everyone else passed: where the dealer is stuck, he bids at least the forced
    bid (exactly it, with forced_exact)."""
    if b["all_pass"] != "dealer-forced":
        return
    least = b["forced_bid"] or b["min"]
    if call == "pass":
        how = "exactly" if b["forced_exact"] else "at least"
        raise PitchError(f"everyone else passed: the dealer {dealer} is stuck and must bid {how} {least}", where)
    if b["forced_exact"] and call != least:
        said = b["smudge_name"] if call == "smudge" else call
        raise PitchError(f"everyone else passed: the stuck dealer {dealer} must bid exactly {least}, not {said}", where)
    if isinstance(call, int) and call < least:
        raise PitchError(f"everyone else passed: the stuck dealer {dealer} must bid at least {least}, not {call}",
                         where)


def _may_steal(b: dict, high: int) -> bool:
    top = b["smudge"] or b["max"]
    return b["steal"] == "any" or (b["steal"] == "below-top" and high < top)


def _steal_words(b: dict, who: str) -> str:
    if b["steal"] == "none":
        return ""
    what = "any bid" if b["steal"] == "any" else "a bid below the top"
    return f" (only {who} may equal, and only {what})"


def check_auction(ruleset: Ruleset, table: Table, hand: Hand) -> Outcome | None:
    """Raise PitchError (naming `auction[N]`) when the calls break the ruleset's bidding rules.

    Returns what the auction decided (None when the hand gives no auction). The winner and the
    amount must agree with the hand's `bid`.
    """
    if not hand.auction:
        return None
    b = dict(ruleset.settings["bidding"])
    out = _sell_out(ruleset, table, hand, b) if b["auction"] == "sell-out" else _once_around(ruleset, table, hand, b)
    bid = hand.bid
    smudge = bid.smudge or bool(b["smudge"] and bid.amount == b["smudge"])  # a bid of its worth is the smudge
    same = bid.player == out.player and smudge == out.smudge and (out.smudge or bid.amount == out.amount)
    if not same:
        says = "no contract (0)" if out.amount == 0 else _label(out.amount, out.smudge, b)
        raise PitchError(f"the auction gives the pitch to {out.player} at {says}, "
                         f"but bid says {bid.player} {bid.label}", "auction")
    return out


def _once_around(ruleset: Ruleset, table: Table, hand: Hand, b: dict) -> Outcome:
    order = speaking_order(table, hand.dealer)
    dealer = order[-1]
    high: HighBid | None = None
    pitched = False
    for n, (player, call) in enumerate(hand.auction, 1):
        where = f"auction[{n}]"
        if n > len(order):
            raise PitchError(f"everyone has spoken once already ({len(order)} calls, the dealer {dealer} last)", where)
        expected = order[n - 1]
        if player != expected:
            raise PitchError(f"{player} speaks out of turn: {expected} was next "
                             f"(calls go clockwise from the dealer's left, {order[0]})", where)
        if pitched:
            if call != "pass":
                raise PitchError(f"{high.player if high else ''} pitched a card, which ends the auction; "
                                 f"{player} can only pass", where)
            continue
        last = n == len(order)
        if last and high is None:
            _stuck_dealer(b, dealer, call, where)
        if call == "pass":
            continue
        value, smudge = _value(call, b, ruleset.name, where)
        if high is None or value > high.value:
            high = HighBid(player, value, smudge)
        elif value == high.value and last and _may_steal(b, high.value):
            high = HighBid(player, value, smudge)  # the dealer's privilege: equal the high bid and take it
        elif value == high.value and last and b["steal"] == "below-top":
            raise PitchError(f"the dealer may not take a top bid ({_label(value, smudge, b)}) by equalling it: "
                             f"{high.player} keeps it", where)
        else:
            raise PitchError(f"{player} bid {_label(value, smudge, b)}, not higher than {high.player}'s "
                             f"{_label(high.value, high.smudge, b)}" + _steal_words(b, f"the dealer {dealer}"), where)
        pitched = call == "pitch"
    if len(hand.auction) < len(order) and not pitched:
        missing = order[len(hand.auction)]
        raise PitchError(f"the auction stops before {missing} has spoken: every player speaks once, "
                         f"the dealer {dealer} last", f"auction[{len(hand.auction) + 1}]")
    if high is None:
        if b["all_pass"] == "redeal":
            raise PitchError(f"everyone passed: {ruleset.name} deals again, so there is no hand to score", "auction")
        return Outcome(order[0], 0)  # eldest-pitches
    return Outcome(high.player, high.value, high.smudge)


def _sell_out(ruleset: Ruleset, table: Table, hand: Hand, b: dict) -> Outcome:
    order = speaking_order(table, hand.dealer)
    first = order[0]
    calls = hand.auction
    # 1. eldest pitches at once, or passes to sell
    p0, c0 = calls[0]
    if p0 != first:
        raise PitchError(f"{p0} speaks out of turn: eldest hand {first} (the dealer's left) speaks first", "auction[1]")
    at_once = c0 == "pitch" or (b["pitch_at_once"] and c0 == b["pitch_at_once"])
    if at_once:
        if not b["pitch_at_once"]:
            raise PitchError(f"{ruleset.name} has no pitching at once: eldest passes to sell", "auction[1]")
        if len(calls) > 1:
            raise PitchError(f"eldest hand {first} pitched at once, which ends the auction", "auction[2]")
        return Outcome(first, b["pitch_at_once"])
    if c0 != "pass":
        want = f"pitch ({first}:pitch, a contract of {b['pitch_at_once']}) or " if b["pitch_at_once"] else ""
        raise PitchError(f"eldest hand {first} either {want}passes to offer the pitch for sale", "auction[1]")
    # 2. the others bid once each, each higher than the last
    high: HighBid | None = None
    others = order[1:]
    for k, expected in enumerate(others):
        n = k + 2
        where = f"auction[{n}]"
        if n > len(calls):
            raise PitchError(f"the auction stops before {expected} has spoken: each player after eldest "
                             "bids or passes once", where)
        player, call = calls[n - 1]
        if player != expected:
            raise PitchError(f"{player} speaks out of turn: {expected} was next", where)
        last = k == len(others) - 1
        if last and high is None:
            _stuck_dealer(b, expected, call, where)
        if call == "pass":
            continue
        value, smudge = _value(call, b, ruleset.name, where)
        if high is not None and value <= high.value:
            raise PitchError(f"{player} bid {_label(value, smudge, b)}, not higher than {high.player}'s "
                             f"{_label(high.value, high.smudge, b)}", where)
        high = HighBid(player, value, smudge)
    # 3. eldest sells, or undertakes the top bid himself
    n = len(order) + 1
    where = f"auction[{n}]"
    if len(calls) > n:
        raise PitchError("the auction is over once eldest has accepted or undertaken the top bid", f"auction[{n + 1}]")
    if high is None:
        if len(calls) == n and calls[-1][1] not in ("pass", "pitch", 0):
            raise PitchError(f"nobody bid, so eldest hand {first} pitches", where)
        if b["all_pass"] == "redeal":
            raise PitchError(f"nobody bid: {ruleset.name} deals again, so there is no hand to score", "auction")
        return Outcome(first, 0)  # no bid: eldest pitches without a contract
    if len(calls) < n:
        raise PitchError(f"eldest hand {first} has not said whether he sells to {high.player} ({first}:pass) "
                         f"or undertakes {_label(high.value, high.smudge, b)} himself", where)
    player, call = calls[-1]
    if player != first:
        raise PitchError(f"{player} speaks out of turn: eldest hand {first} has the last word", where)
    if call == "pass":
        return Outcome(high.player, high.value, high.smudge, seller=first, price=high.value)
    value, smudge = _value(call, b, ruleset.name, where)
    top = _label(high.value, high.smudge, b)
    if not _may_steal(b, high.value):
        raise PitchError(f"eldest hand {first} may not undertake {top} by equalling it "
                         f"(bidding.steal = {b['steal']}): he sells ({first}:pass)", where)
    if value != high.value:  # seed 001: "undertake to make as many points as the bidder" - no more, no fewer
        raise PitchError(f"eldest hand {first} bid {_label(value, smudge, b)}, but may only sell to {high.player} or "
                         f"undertake as many points as {high.player}'s {top} ({first}:{high.value})", where)
    return Outcome(first, value, smudge, refused=high.player, price=high.value)


def check_bid(ruleset: Ruleset, table: Table, hand: Hand) -> None:
    """What can be checked of a bid without its auction: a pitch without a contract (0) is eldest's."""
    if hand.bid.amount == 0 and not hand.bid.smudge:
        first = eldest(table, hand.dealer)
        if hand.bid.player != first:
            raise PitchError(f"a pitch without a contract (0) is eldest hand's: {first}, at the dealer's left, "
                             f"not {hand.bid.player}", "bid")


def sale_credit(ruleset: Ruleset, table: Table, hand: Hand) -> tuple[str, int] | None:
    """Who scores the price of a sale in a sell-out auction, and how much (None: nobody).

    `sale_credit = "seller"`: eldest scores the price when he sells the pitch (the Wikipedia
    reading of Commercial Pitch). `"buyer"`: when eldest keeps the pitch by undertaking the top
    bid, the refused bidder scores that amount (Parlett's reading). Without the auction the seller
    is still known (anyone but eldest pitching bought the pitch); the refused buyer is not.
    """
    b = ruleset.settings["bidding"]
    mode = b["sale_credit"]
    if mode == "none" or b["auction"] != "sell-out":
        return None
    if hand.auction:
        out = check_auction(ruleset, table, hand)
        assert out is not None
        if mode == "seller" and out.seller:
            return out.seller, out.price
        if mode == "buyer" and out.refused:
            return out.refused, out.price
        return None
    first = eldest(table, hand.dealer)
    amount = b["smudge"] if hand.bid.smudge else hand.bid.amount
    if mode == "seller":
        return (first, amount) if hand.bid.player != first and amount > 0 else None
    if hand.bid.player == first and amount > 0:
        raise PitchError("bidding.sale_credit = \"buyer\": give the auction, so it is known whether eldest "
                         "refused a buyer", "auction")
    return None
