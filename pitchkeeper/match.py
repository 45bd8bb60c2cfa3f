"""A match replayed: running scores hand by hand, and the end of the game by the ruleset's rules.

All state is derived from the match record (the log), as a ledger derives balances: nothing
here is stored, so editing a hand and replaying gives every later total again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pitchkeeper.errors import PitchError, did_you_mean
from pitchkeeper.records import MATCH_KEYS, Hand, Table, parse_hand, parse_table
from pitchkeeper.rulesets import Ruleset
from pitchkeeper.scoring import Verdict, verdict


@dataclass(frozen=True)
class MatchRecord:
    table: Table
    hands: tuple[Hand, ...]
    target: int | None = None
    first_dealer: str | None = None
    stake: int | None = None
    header: Mapping[str, Any] = field(default_factory=dict)  # every header key as read


@dataclass(frozen=True, slots=True)
class HandResult:
    number: int
    verdict: Verdict
    scores: dict[str, int]  # running totals after this hand


@dataclass(frozen=True, slots=True)
class Ending:
    winner: str
    hand: int
    reason: str


@dataclass(frozen=True)
class MatchState:
    rules: str
    target: int
    table: Table
    hands: tuple[HandResult, ...]
    scores: dict[str, int]
    ending: Ending | None
    warnings: tuple[str, ...] = ()

    @property
    def winner(self) -> str | None:
        return self.ending.winner if self.ending else None

    def to_json(self) -> dict[str, Any]:
        hands = []
        for h in self.hands:
            j = h.verdict.to_json()
            j["scores"] = dict(h.scores)
            hands.append(j)
        return {
            "rules": self.rules,
            "target": self.target,
            "hands": hands,
            "scores": dict(self.scores),
            "winner": self.ending.winner if self.ending else None,
            "won_on_hand": self.ending.hand if self.ending else None,
            "reason": self.ending.reason if self.ending else None,
        }


def parse_match(data: Mapping[str, Any]) -> MatchRecord:
    """A match record (spec section 4). Keys are checked; hands are parsed with their number in messages."""
    for k in data:
        if k not in MATCH_KEYS:
            hint = did_you_mean(k, MATCH_KEYS)
            raise PitchError(f"unknown key '{k}'{hint or ' (valid keys: ' + ', '.join(MATCH_KEYS) + ')'}", k)
    table = parse_table(data)
    target = data.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target < 1):
        raise PitchError(f"expected a whole number above 0, got {target!r}", "target")
    first = data.get("first_dealer")
    if first is not None:
        first = table.player(first, "first_dealer")
    stake = data.get("stake")
    if stake is not None and (not isinstance(stake, int) or isinstance(stake, bool) or stake < 0):
        raise PitchError(f"expected a whole number of 0 or more, got {stake!r}", "stake")
    raw = data.get("hands", [])
    if not isinstance(raw, list):
        raise PitchError("expected [[hands]] tables", "hands")
    hands = []
    for i, h in enumerate(raw, 1):
        if not isinstance(h, Mapping):
            raise PitchError("expected a [[hands]] table", f"hands[{i}]")
        hands.append(parse_hand(h, table, f"hands[{i}]."))
    return MatchRecord(table, tuple(hands), target, first, stake, dict(data))


def next_dealer(table: Table, dealer: str) -> str:
    """The deal passes to the left: the next player in seating order."""
    i = table.players.index(dealer)
    return table.players[(i + 1) % len(table.players)]


def is_out(ruleset: Ruleset, score: int, target: int) -> bool:
    return score >= target if ruleset.settings["win"]["reach"] == "reach" else score > target


def _got_there(ruleset: Ruleset, target: int) -> str:
    return f"reached {target}" if ruleset.settings["win"]["reach"] == "reach" else f"went past {target}"


def decide(ruleset: Ruleset, table: Table, before: Mapping[str, int], after: Mapping[str, int], v: Verdict,
           target: int) -> tuple[str | None, str]:
    """Who, if anyone, wins the game with this hand, and the rule that says so (in words)."""
    w = ruleset.settings["win"]
    sides = table.sides
    there = _got_there(ruleset, target)
    out = [s for s in sides if is_out(ruleset, after[s], target)]
    bidder = v.bid.side
    if w["only_bidder"]:
        if bidder in out:
            if v.bid.made or not w["bidder_must_make"]:
                return bidder, f"{bidder} {there} as the bidding side"
            return None, (f"{bidder} {there} but was set, and only a bidding side that makes its bid can win; "
                          "play on")
        if out:
            return None, (f"{', '.join(out)} {there} but only the bidding side can win, at the end of a hand it "
                          "bid; play on")
        return None, ""
    if not out:
        return None, ""
    if len(out) == 1:
        s = out[0]
        return s, f"{s} {there}" + (" as the bidding side" if s == bidder else "")
    names = " and ".join(out)
    for rule in w["precedence"]:
        if rule == "bidder" and bidder in out:
            return bidder, f"{names} {there} on the same hand; {bidder} bid, and the bidder goes out first"
        if rule == "higher":
            top = max(after[s] for s in out)
            leaders = [s for s in out if after[s] == top]
            if len(leaders) == 1:
                return leaders[0], f"{names} {there} on the same hand; {leaders[0]} has the higher score ({top})"
        if rule == "count-out":
            s, why = _count_out(ruleset, before, after, v, out, target)
            if s is not None:
                return s, f"{names} {there} on the same hand; {why}"
    s, why = _count_out(ruleset, before, after, v, out, target)
    if s is not None:
        return s, f"{names} {there} on the same hand; {why}"
    return None, f"{names} {there} on the same hand and no rule separates them; play on"


def _count_out(ruleset: Ruleset, before: Mapping[str, int], after: Mapping[str, int], v: Verdict,
               out: list[str], target: int) -> tuple[str | None, str]:
    """Count the hand's points in the ruleset's order; the first side out wins."""
    order = list(ruleset.settings["win"]["count_out"])
    awards = sorted(v.awards, key=lambda a: order.index(a.point) if a.point in order else len(order))
    scoring_sides = {s for s in v.delta if v.delta[s] == v.taken[s] and v.taken[s] > 0}
    running = {s: after[s] - (v.taken[s] if s in scoring_sides else 0) for s in after}
    for a in awards:
        if a.side not in scoring_sides:
            continue
        running[a.side] += a.value
        if a.side in out and is_out(ruleset, running[a.side], target):
            return a.side, f"counting out in order ({', '.join(order)}), {a.side} got there first with {a.point}"
    return None, ""


def replay(ruleset: Ruleset, record: MatchRecord, upto: int | None = None) -> MatchState:
    """Replay every hand: verdicts, running scores, and the end of the game.

    A hand recorded after the game was won is bad input (PitchError naming it).
    """
    table = record.table
    table.check_against(ruleset)
    target = record.target or ruleset.settings["win"]["target"]
    negative = ruleset.settings["settle"]["negative"]
    scores = dict.fromkeys(table.sides, 0)
    results: list[HandResult] = []
    ending: Ending | None = None
    warnings: list[str] = []
    expected_dealer = record.first_dealer
    hands = record.hands if upto is None else record.hands[:upto]
    for i, hand in enumerate(hands, 1):
        if ending is not None:
            raise PitchError(f"the game was already won on hand {ending.hand} ({ending.reason}); "
                             "a hand after it cannot be scored - start the next game", f"hands[{i}]")
        if expected_dealer is not None and hand.dealer != expected_dealer:
            warnings.append(f"hands[{i}].dealer: {hand.dealer} deals, but the deal passes to {expected_dealer}")
        expected_dealer = next_dealer(table, hand.dealer)
        try:
            v = verdict(ruleset, table, hand)
        except PitchError as e:
            raise e.at(f"hands[{i}]") from None
        before = dict(scores)
        for s in scores:
            scores[s] += v.delta[s]
            if not negative and scores[s] < 0:
                scores[s] = 0
        results.append(HandResult(i, v, dict(scores)))
        winner, why = decide(ruleset, table, before, scores, v, target)
        if winner is not None:
            ending = Ending(winner, i, why)
    return MatchState(ruleset.name, target, table, tuple(results), dict(scores), ending, tuple(warnings))
