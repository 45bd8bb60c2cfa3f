"""The auction: one state machine over the ruleset's bidding rules, for checking and for asking.

`Auction` is an auction being called, one call at a time: whose turn it is, the calls legal now,
and what the calls so far decide. `check_auction` feeds a hand's recorded calls through it; the
entry page (a button per legal call) and `play` (a prompt per player) ask through it. So each rule
of bidding is written once, here, and the calls a page offers are exactly those a check accepts.

Everything is read from the ruleset's [bidding] table, so a variant is data:

- `auction = "once-around"`: from the dealer's left, each player speaks once (the dealer last),
  passing or bidding higher than the last bid; the dealer may `steal` by equalling the high bid
  (`any`, or `below-top`: not a top bid - the smudge, or `max` where there is no smudge); when
  everyone else passed, `all_pass` says what happens (the dealer is stuck and bids at least
  `forced_bid`, or the hand is redealt, or eldest pitches without a contract, bid 0).
  A player may bid `pitch_bid` by laying a card face up at once ("Ann:pitch"); the auction ends there.
- `auction = "sell-out"` (seed 001): eldest hand pitches at once ("Ann:pitch", a contract of
  `pitch_at_once`) or passes to offer the pitch for sale; the others bid once each; eldest then
  sells it to the top bidder ("Ann:sell", or as first written, "Ann:pass") or undertakes as many
  points as the top bid himself ("Ann:3", when `steal` allows it; no more and no fewer: seed 001,
  "undertake to make as many points as the bidder"); if nobody bids, eldest pitches with no
  contract. `sale_credit` says who scores the price of a sale.

Errors name the call (`auction[N]`, counted from 1) so a player can find it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError
from pitchkeeper.game.records import Hand, Table
from pitchkeeper.game.rulesets import Ruleset

Call = int | str  # "pass", a number, "smudge", "pitch", or "sell" (eldest's sale in a sell-out auction)
SALE_WORDS = ("pass", "sell")  # eldest's last word that sells the pitch: "sell", or as first written, "pass"


class Outcome(NamedTuple):
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


def _value(call: Call, b: dict, name: str, where: str) -> tuple[int, bool]:
    """A call's worth, checked against the ruleset's range: (value, smudge?)."""
    if call == "smudge":
        if not b["smudge"]:
            raise PitchError(f"{name} has no {b['smudge_name']} bid (bids {b['min']}-{b['max']})", where)
        return b["smudge"], True
    if call == "pitch":
        if not b["pitch_bid"]:
            raise PitchError(f"{name} has no bid by pitching a card at once; write the amount", where)
        return b["pitch_bid"], False
    if call == "sell":
        raise PitchError("only eldest hand sells, with the last word of a sell-out auction; "
                         f"{name} has no sale here: write pass or a bid", where)
    assert isinstance(call, int)
    if b["smudge"] and call == b["smudge"]:  # a call of the smudge's worth is the smudge (seed 002)
        return b["smudge"], True
    if not b["min"] <= call <= b["max"]:
        extra = f" or {b['smudge_name']}" if b["smudge"] else ""
        raise PitchError(f"a bid of {call} is out of range: {name} bids are {b['min']} to {b['max']}{extra}", where)
    return call, False


def _stuck_dealer(b: dict, dealer: str, call: Call, where: str) -> None:
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


# the calls an auction may offer, in the order a page shows them (pass or sell first, the bids rising)
def _candidates(b: dict) -> list[Call]:
    out: list[Call] = ["pass", "sell", *range(b["min"], b["max"] + 1)]
    if b["smudge"]:
        out.append("smudge")
    if b["pitch_bid"] or b["pitch_at_once"]:
        out.append("pitch")
    return out


# when two calls do the same (eldest's sale written sell or pass; a pitch at once written pitch or 4), the
# one a page offers: the first of these
_PREFERRED: tuple[Call, ...] = ("sell", "pitch", "smudge", "pass")


class Auction(NamedTuple):
    """An auction being called: the calls so far, checked one by one against the ruleset's bidding rules.

    `then(player, call)` is the auction after one more call (PitchError at `auction[N]` if the rules
    forbid it); `turn` is who speaks next (None when nobody may); `legal()` the calls that player may
    make, each tried through `then`; `done` says whether the calls so far are a whole auction, and
    `outcome()` what it decided (PitchError when it is not whole, or everyone passed and the hand is
    dealt again).
    """

    ruleset: Ruleset
    table: Table
    dealer: str
    calls: tuple[tuple[str, Call], ...] = ()
    high: HighBid | None = None
    pitched: bool = False  # once-around: a card laid face up ended the bidding
    at_once: bool = False  # sell-out: eldest pitched at once
    final: Outcome | None = None  # sell-out: eldest's last word (sold, or undertaken)

    @classmethod
    def start(cls, ruleset: Ruleset, table: Table, dealer: str) -> Auction:
        return cls(ruleset, table, table.player(dealer, "dealer"))

    @classmethod
    def of(cls, ruleset: Ruleset, table: Table, dealer: str, calls: Any) -> Auction:
        """The auction after `calls` ((player, call) pairs), each checked in turn."""
        a = cls.start(ruleset, table, dealer)
        for player, call in calls:
            a = a.then(player, call)
        return a

    # -- what the rules say

    @property
    def b(self) -> dict:
        return dict(self.ruleset.settings["bidding"])

    @property
    def order(self) -> tuple[str, ...]:
        return speaking_order(self.table, self.dealer)

    @property
    def sell_out(self) -> bool:
        return bool(self.b["auction"] == "sell-out")

    @property
    def turn(self) -> str | None:
        """Who speaks next; None when nobody may (the auction is over)."""
        n, order = len(self.calls), self.order
        if not self.sell_out:
            return order[n] if n < len(order) else None
        if self.at_once or n > len(order) or (n == len(order) and self.high is None):
            return None
        return order[0] if n == len(order) else order[n]

    @property
    def done(self) -> bool:
        """Whether the calls so far are a whole auction (later calls, if any, can only be passes)."""
        n, order = len(self.calls), self.order
        if not self.sell_out:
            return n == len(order) or self.pitched
        return self.at_once or n > len(order) or (n == len(order) and self.high is None)

    @property
    def last_word(self) -> bool:
        """Eldest hand's last word in a sell-out auction: sell to the top bidder or undertake the bid."""
        return self.sell_out and self.high is not None and len(self.calls) == len(self.order)

    def legal(self) -> tuple[Call, ...]:
        """The calls the player whose turn it is may make now, as a page offers them (one of each kind)."""
        who = self.turn
        if who is None:
            return ()
        found: dict[Any, Call] = {}
        for call in sorted(_candidates(self.b), key=lambda c: _PREFERRED.index(c) if c in _PREFERRED else 9):
            try:
                after = self.then(who, call)
            except PitchError:
                continue
            found.setdefault(after._state(), call)
        chosen = set(found.values())
        return tuple(c for c in _candidates(self.b) if c in chosen)

    def _state(self) -> tuple[Any, ...]:
        return (self.high, self.pitched, self.at_once, self.final, len(self.calls))

    # -- one more call

    def then(self, player: str, call: Call) -> Auction:
        """The auction after `player` calls `call`; PitchError (at auction[N]) where the rules forbid it."""
        n = len(self.calls) + 1
        where = f"auction[{n}]"
        nxt = self._sell_out(player, call, n, where) if self.sell_out else self._once_around(player, call, n, where)
        return nxt._replace(calls=(*self.calls, (player, call)))

    def _once_around(self, player: str, call: Call, n: int, where: str) -> Auction:
        b, order, high = self.b, self.order, self.high
        dealer = order[-1]
        if n > len(order):
            raise PitchError(f"everyone has spoken once already ({len(order)} calls, the dealer {dealer} last)", where)
        expected = order[n - 1]
        if player != expected:
            raise PitchError(f"{player} speaks out of turn: {expected} was next "
                             f"(calls go clockwise from the dealer's left, {order[0]})", where)
        if self.pitched:
            if call != "pass":
                raise PitchError(f"{high.player if high else ''} pitched a card, which ends the auction; "
                                 f"{player} can only pass", where)
            return self
        last = n == len(order)
        if last and high is None:
            _stuck_dealer(b, dealer, call, where)
        if call == "pass":
            return self
        value, smudge = _value(call, b, self.ruleset.name, where)
        if high is not None and not b["over_partner"] and high.player != player and \
                self.table.side_of(high.player) == self.table.side_of(player):
            raise PitchError(f"{player} may not bid over {high.player}, {player}'s partner: pass "
                             "(bidding.over_partner = false)", where)
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
        return self._replace(high=high, pitched=call == "pitch")

    def _sell_out(self, player: str, call: Call, n: int, where: str) -> Auction:
        b, order, high, name = self.b, self.order, self.high, self.ruleset.name
        first = order[0]
        if n == 1:  # 1. eldest pitches at once, or passes to offer the pitch for sale
            if player != first:
                raise PitchError(f"{player} speaks out of turn: eldest hand {first} (the dealer's left) speaks first",
                                 where)
            if call == "pitch" or (b["pitch_at_once"] and call == b["pitch_at_once"]):
                if not b["pitch_at_once"]:
                    raise PitchError(f"{name} has no pitching at once: eldest passes to sell", where)
                return self._replace(at_once=True)
            if call != "pass":
                want = f"pitch ({first}:pitch, a contract of {b['pitch_at_once']}) or " if b["pitch_at_once"] else ""
                later = f"; he sells ({first}:sell) once the others have bid" if call == "sell" else ""
                raise PitchError(f"eldest hand {first} either {want}passes to offer the pitch for sale{later}", where)
            return self
        if self.at_once:
            raise PitchError(f"eldest hand {first} pitched at once, which ends the auction", where)
        if n <= len(order):  # 2. the others bid once each, each higher than the last
            expected = order[n - 1]
            if player != expected:
                raise PitchError(f"{player} speaks out of turn: {expected} was next", where)
            if n == len(order) and high is None:
                _stuck_dealer(b, expected, call, where)
            if call == "pass":
                return self
            value, smudge = _value(call, b, name, where)
            if high is not None and value <= high.value:
                raise PitchError(f"{player} bid {_label(value, smudge, b)}, not higher than {high.player}'s "
                                 f"{_label(high.value, high.smudge, b)}", where)
            return self._replace(high=HighBid(player, value, smudge))
        if n > len(order) + 1 or (self.final is not None):
            raise PitchError("the auction is over once eldest has accepted or undertaken the top bid", where)
        # 3. eldest sells, or undertakes the top bid himself
        if high is None:
            if call not in ("pass", "pitch", 0, "sell"):
                raise PitchError(f"nobody bid, so eldest hand {first} pitches", where)
            return self
        if player != first:
            raise PitchError(f"{player} speaks out of turn: eldest hand {first} has the last word", where)
        if call in SALE_WORDS:
            return self._replace(final=Outcome(high.player, high.value, high.smudge, seller=first, price=high.value))
        value, smudge = _value(call, b, name, where)
        top = _label(high.value, high.smudge, b)
        if not _may_steal(b, high.value):
            raise PitchError(f"eldest hand {first} may not undertake {top} by equalling it "
                             f"(bidding.steal = {b['steal']}): he sells ({first}:sell)", where)
        if value != high.value:  # seed 001: "undertake to make as many points as the bidder" - no more, no fewer
            raise PitchError(f"eldest hand {first} bid {_label(value, smudge, b)}, but may only sell to {high.player} "
                             f"or undertake as many points as {high.player}'s {top} ({first}:{high.value})", where)
        return self._replace(final=Outcome(first, value, smudge, refused=high.player, price=high.value))

    # -- what it decided

    def outcome(self) -> Outcome:
        """What the whole auction decided; PitchError when it stops short, or everyone passed where the
        ruleset deals again."""
        b, order, name, n = self.b, self.order, self.ruleset.name, len(self.calls)
        first = order[0]
        if not self.sell_out:
            if n < len(order) and not self.pitched:
                raise PitchError(f"the auction stops before {order[n]} has spoken: every player speaks once, "
                                 f"the dealer {order[-1]} last", f"auction[{n + 1}]")
            if self.high is None:
                if b["all_pass"] == "redeal":
                    raise PitchError(f"everyone passed: {name} deals again, so there is no hand to score", "auction")
                return Outcome(first, 0)  # eldest-pitches
            return Outcome(self.high.player, self.high.value, self.high.smudge)
        if self.at_once:
            return Outcome(first, b["pitch_at_once"])
        if n < len(order):
            what = ("eldest hand pitches or passes" if n == 0 else
                    "each player after eldest bids or passes once")
            raise PitchError(f"the auction stops before {order[n]} has spoken: {what}", f"auction[{n + 1}]")
        if self.high is None:
            if b["all_pass"] == "redeal":
                raise PitchError(f"nobody bid: {name} deals again, so there is no hand to score", "auction")
            return Outcome(first, 0)  # no bid: eldest pitches without a contract
        if self.final is None:
            raise PitchError(f"eldest hand {first} has not said whether he sells to {self.high.player} ({first}:sell) "
                             f"or undertakes {_label(self.high.value, self.high.smudge, b)} himself",
                             f"auction[{len(order) + 1}]")
        return self.final

    def so_far(self) -> HighBid | None:
        """The highest bid so far (None: nobody has bid)."""
        return self.high


def check_auction(ruleset: Ruleset, table: Table, hand: Hand) -> Outcome | None:
    """Raise PitchError (naming `auction[N]`) when the calls break the ruleset's bidding rules.

    Returns what the auction decided (None when the hand gives no auction). The winner and the
    amount must agree with the hand's `bid`.
    """
    if not hand.auction:
        return None
    b = dict(ruleset.settings["bidding"])
    out = Auction.of(ruleset, table, hand.dealer, hand.auction).outcome()
    bid = hand.bid
    smudge = bid.smudge or bool(b["smudge"] and bid.amount == b["smudge"])  # a bid of its worth is the smudge
    same = bid.player == out.player and smudge == out.smudge and (out.smudge or bid.amount == out.amount)
    if not same:
        says = "no contract (0)" if out.amount == 0 else _label(out.amount, out.smudge, b)
        raise PitchError(f"the auction gives the pitch to {out.player} at {says}, "
                         f"but the bid says {bid.player} {bid.label}", "auction")
    return out


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
