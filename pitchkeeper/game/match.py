"""A match replayed: running scores hand by hand, and the end of the game by the ruleset's rules.

All state is derived from the match record (the log), as a ledger derives balances: nothing
here is stored, so editing a hand and replaying gives every later total again.
"""

from collections.abc import Mapping
from typing import Any, NamedTuple

from pitchkeeper.errors import PitchError, control_free, unknown_key
from pitchkeeper.game.records import MATCH_KEYS, Hand, Table, parse_hand, parse_table
from pitchkeeper.game.rulesets import Ruleset
from pitchkeeper.game.scoring import Verdict, verdict


class MatchRecord(NamedTuple):
    table: Table
    hands: tuple[Hand, ...]
    target: int | None = None
    first_dealer: str | None = None
    stake: int | None = None
    header: Mapping[str, Any] = {}  # every header key as read (never changed: a shared empty default is safe)


class HandResult(NamedTuple):
    number: int
    verdict: Verdict
    scores: dict[str, int]  # running totals after this hand


class Ending(NamedTuple):
    winner: str
    hand: int
    reason: str


class MatchState(NamedTuple):
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
            raise unknown_key(k, MATCH_KEYS, k)
    table = parse_table(data)
    target = data.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target < 1):
        raise PitchError(f"expected a whole number above 0, got {target!r}", "target")
    first = data.get("first_dealer")
    if first is not None:
        first = table.player(first, "first_dealer")
    title = data.get("title")
    if title is not None:
        if not isinstance(title, str):
            raise PitchError(f"expected text, got {title!r}", "title")
        control_free(title, "title", "a title is plain text")
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
    return table.left_of(dealer)


def is_out(ruleset: Ruleset, score: int, target: int) -> bool:
    return score >= target if ruleset.settings["win"]["reach"] == "reach" else score > target


def _got_there(ruleset: Ruleset, target: int) -> str:
    return f"reached {target}" if ruleset.settings["win"]["reach"] == "reach" else f"went past {target}"


def decide(ruleset: Ruleset, table: Table, after: Mapping[str, int], v: Verdict,
           target: int) -> tuple[str | None, str]:
    """Who, if anyone, wins the game with this hand, and the rule that says so (in words).

    With `win.only_bidder` only the bidding side can win, at the end of a hand it bid (seeds 002 and
    003). Otherwise any side out wins; when several are out on one hand, `win.precedence` applies
    its rules in turn, each narrowing the field: "bidder" (the bidding side goes out first, seed 000
    and seed 001), "higher" (the higher score), "count-out" (count the hand's points in the order
    `win.count_out`; the first side to get there wins, seed 001's "high first, then low, Jack and game").
    """
    w = ruleset.settings["win"]
    goal = target if w["reach"] == "reach" else target + 1
    out = [s for s in table.sides if after[s] >= goal]
    if not out:
        return None, ""  # the usual case: nobody is out yet
    there = _got_there(ruleset, target)
    bidder = v.bid.side
    if w["only_bidder"]:
        if bidder in out:
            if v.bid.made or not w["bidder_must_make"]:
                return bidder, f"{bidder} {there} as the bidding side"
            return None, (f"{bidder} {there} but was set, and only a bidding side that makes its bid can win; "
                          "play on")
        return None, (f"{', '.join(out)} {there} but only the bidding side can win, at the end of a hand it "
                      "bid; play on")
    if len(out) == 1:
        s = out[0]
        return s, f"{s} {there}" + (" as the bidding side" if s == bidder else "")
    head = f"{' and '.join(out)} {there} on the same hand"
    field_ = list(out)
    tie = ""
    for rule in w["precedence"]:
        # a pitch without a contract has no bidder to go out first (seed 001: "without the obligation of
        # making anything"): the next rule (count-out: high, low, jack, game) decides
        if rule == "bidder" and bidder in field_ and v.bid.amount:
            if tie:
                return bidder, f"{head}; {tie}, and a tie goes to the bidding side, {bidder}"
            return bidder, f"{head}; {bidder} bid, and the bidder goes out first"
        if rule == "higher":
            top = max(after[s] for s in field_)
            leaders = [s for s in field_ if after[s] == top]
            if len(leaders) == 1:
                return leaders[0], f"{head}; {leaders[0]} has the higher score ({top})"
            field_ = leaders
            tie = f"{' and '.join(leaders)} tie at {top}"
        if rule == "count-out":
            first, why = _count_out(ruleset, after, v, field_, target)
            if first is not None:
                return first, f"{head}; " + (f"{tie}; " if tie else "") + why
    return None, f"{head} and no rule of {ruleset.name} separates them; play on"


def _count_out(ruleset: Ruleset, after: Mapping[str, int], v: Verdict, field_: list[str],
               target: int) -> tuple[str | None, str]:
    """Count the hand's points in the ruleset's order; the first side of `field_` to get there wins.

    A side counts its points one by one when it scored what it took (a defender, or a bidder who
    made it; a sale credit came before play); a side set back or penalised does not count out.
    """
    order = list(ruleset.settings["win"]["count_out"])
    awards = sorted(v.awards, key=lambda a: order.index(a.point) if a.point in order else len(order))
    counting = {s for s in v.delta if v.taken.get(s, 0) > 0 and v.delta[s] >= v.taken[s]}
    running = {s: after[s] - (v.taken[s] if s in counting else 0) for s in after}
    early = [s for s in field_ if is_out(ruleset, running[s], target)]
    if len(early) == 1:
        return early[0], f"{early[0]} was out before the points were counted"
    for a in awards:
        if a.side not in counting:
            continue
        running[a.side] += a.value
        if a.side in field_ and is_out(ruleset, running[a.side], target):
            return a.side, f"counting out in order ({', '.join(order)}), {a.side} got there first with {a.point}"
    return None, ""


def replay(ruleset: Ruleset, record: MatchRecord, upto: int | None = None) -> MatchState:
    """Replay every hand: verdicts, running scores, and the end of the game.

    A hand recorded after the game was won is bad input (PitchError naming it). A dealer out of
    turn is only a warning: tables do skip a deal now and then.
    """
    table = record.table
    table.check_against(ruleset)
    target = record.target or ruleset.settings["win"]["target"]
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
        result, ending = score_hand(ruleset, table, scores, hand, i, target)
        scores = dict(result.scores)
        results.append(result)
    return MatchState(ruleset.name, target, table, tuple(results), dict(scores), ending, tuple(warnings))


def score_hand(ruleset: Ruleset, table: Table, before: Mapping[str, int], hand: Hand, number: int,
               target: int) -> tuple[HandResult, Ending | None]:
    """One hand on top of the scores before it: its result, and the end of the game if it came."""
    try:
        v = verdict(ruleset, table, hand)
    except PitchError as e:
        raise e.at(f"hands[{number}]") from None
    negative = ruleset.settings["settle"]["negative"]
    after = {}
    for s, score in before.items():
        after[s] = score + v.delta[s]
        if not negative and after[s] < 0:
            after[s] = 0
    winner, why = decide(ruleset, table, after, v, target)
    return HandResult(number, v, after), (Ending(winner, number, why) if winner is not None else None)


# ---------------------------------------------------------------------------
# Checking a hand-edited log: every problem, not just the first


class Problem(NamedTuple):
    hand: int | None  # None: the header
    where: str  # the key, e.g. "hands[3].bid.amount"
    message: str
    warning: bool = False


def check_record(ruleset: Ruleset, data: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a match record, each with its hand number, as a ledger checker reports.

    Hands that are bad are left out of the running scores, so the later hands are still checked.
    """
    problems: list[Problem] = []
    header = {k: v for k, v in data.items() if k != "hands"}
    try:
        rec = parse_match(header)
        rec.table.check_against(ruleset)
    except PitchError as e:
        return [Problem(None, e.where or "", e.message)]
    table = rec.table
    raw = data.get("hands", [])
    if not isinstance(raw, list):
        return [Problem(None, "hands", "expected [[hands]] tables")]
    target = rec.target or ruleset.settings["win"]["target"]
    scores = dict.fromkeys(table.sides, 0)
    ending: Ending | None = None
    expected = rec.first_dealer
    for i, h in enumerate(raw, 1):
        try:
            if not isinstance(h, Mapping):
                raise PitchError("expected a [[hands]] table", f"hands[{i}]")
            hand = parse_hand(h, table, f"hands[{i}].")
        except PitchError as e:
            problems.append(Problem(i, e.where or f"hands[{i}]", e.message))
            d = h.get("dealer") if isinstance(h, Mapping) else None
            expected = next_dealer(table, d) if isinstance(d, str) and d in table.players else None
            continue
        if expected is not None and hand.dealer != expected:
            problems.append(Problem(i, f"hands[{i}].dealer",
                                    f"{hand.dealer} deals, but the deal passes to {expected}", warning=True))
        expected = next_dealer(table, hand.dealer)
        if ending is not None:
            problems.append(Problem(i, f"hands[{i}]", f"the game was already won on hand {ending.hand} "
                                                      f"({ending.reason}); a hand after it cannot be scored"))
            continue
        try:
            result, ending = score_hand(ruleset, table, scores, hand, i, target)
        except PitchError as e:
            where = e.where or f"hands[{i}]"
            where = where.replace(f"hands[{i}]: ", f"hands[{i}].", 1)
            problems.append(Problem(i, where, e.message))
            continue
        scores = dict(result.scores)
        for ill in result.verdict.illegal:
            problems.append(Problem(i, f"hands[{i}].tricks[{ill.trick}]", f"{ill.why} [{ill.rule}]", warning=True))
    return problems


# ---------------------------------------------------------------------------
# At the table: who deals, what is needed, and the stakes


def dealer_due(record: MatchRecord) -> str | None:
    """Who deals the next hand: the deal passes to the left after every hand."""
    if record.hands:
        return next_dealer(record.table, record.hands[-1].dealer)
    return record.first_dealer


def needed(ruleset: Ruleset, target: int, score: int) -> int:
    """Points a side still needs to be out (0 when it is)."""
    goal = target if ruleset.settings["win"]["reach"] == "reach" else target + 1
    return max(goal - score, 0)


class Stakes(NamedTuple):
    """Seed 001's counters: the stake each player puts up, and the pool revokes forfeit into."""

    stake: int  # per player per game
    unit: str
    forfeits: dict[str, int]  # player -> counters forfeited to the pool so far
    settled: dict[str, int] | None  # side -> what it wins (+) or pays (-), once the game is won

    @property
    def pool(self) -> int:
        return sum(self.forfeits.values())

    def to_json(self) -> dict[str, Any]:
        return {"stake": self.stake, "unit": self.unit, "forfeits": dict(self.forfeits), "pool": self.pool,
                "settled": dict(self.settled) if self.settled is not None else None}


def stakes(ruleset: Ruleset, record: MatchRecord, state: MatchState) -> Stakes | None:
    """The stakes of a game (None when it is played for nothing): at the end the winner collects
    the stake from every other player, and the pool of forfeited counters."""
    st = ruleset.settings["stakes"]
    stake = record.stake if record.stake is not None else st["per_game"]
    forfeits: dict[str, int] = {}
    for h in state.hands:
        for p, n in (h.verdict.counters or {}).items():
            forfeits[p] = forfeits.get(p, 0) + n
    if not stake and not forfeits:
        return None
    settled = None
    if state.ending is not None:
        table = state.table
        win = state.ending.winner
        settled = {}
        for side in table.sides:
            lost = sum(forfeits.get(p, 0) for p in table.members(side))
            settled[side] = -stake * len(table.members(side)) - lost if side != win else -lost
        settled[win] += -sum(settled.values())  # the stakes of the others, and the pool (their forfeits and its own)
    return Stakes(stake, st["unit"], forfeits, settled)
