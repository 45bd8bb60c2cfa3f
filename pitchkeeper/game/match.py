"""A match replayed: running scores hand by hand, and the end of the game by the ruleset's rules.

All state is derived from the match record (the log), as a ledger derives balances: nothing
here is stored, so editing a hand and replaying gives every later total again.

Scores are shown as the table keeps them: counting up from 0 to the target, or, with `win.direction =
"down"`, down from the target to 0. Every decision (who is out, who is nearer, who is in the hole) is
made on a side's progress towards the goal (`progress`), so one rule serves both directions.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
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
    sets: dict[str, int] | None = None  # win.sets_out: the times each side was set, after this hand
    out: Mapping[str, int] = {}  # win.sets_out: the sides out of the game after this hand -> the hand they went out


class Ending(NamedTuple):
    winner: str
    hand: int
    reason: str
    how: str = "target"  # "target": a side got there (decide); else the EarlyEnd.how that ended the game sooner


class MatchState(NamedTuple):
    rules: str
    target: int
    table: Table
    hands: tuple[HandResult, ...]
    scores: dict[str, int]
    ending: Ending | None
    warnings: tuple[str, ...] = ()
    direction: str = "up"  # "down": scores count down from the target to 0
    sets: dict[str, int] | None = None  # win.sets_out: the times each side was set (None: no such rule)
    out: tuple[str, ...] = ()  # win.sets_out: the sides out of the game, in the order they went out

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
        } | ({"direction": self.direction} if self.direction != "up" else {}) | (
            {"sets": dict(self.sets), "out": list(self.out)} if self.sets is not None else {})


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


def next_dealer(table: Table, dealer: str, out: Sequence[str] = ()) -> str:
    """The deal passes to the left: the next player in seating order (still in the game, win.sets_out)."""
    if not out:
        return table.left_of(dealer)
    return next((p for p in table.clockwise_from(dealer)[1:] if p not in out), dealer)


# ---------------------------------------------------------------------------
# Progress towards the goal: one rule for counting up and counting down


def progress(ruleset: Ruleset, target: int, score: int) -> int:
    """How far a side has come towards the goal: its score counting up, `target - score` counting down."""
    return target - score if ruleset.settings["win"]["direction"] == "down" else score


def shown(ruleset: Ruleset, target: int, progress: int) -> int:
    """The score the table sees for a side that has come `progress` towards the goal."""
    return target - progress if ruleset.settings["win"]["direction"] == "down" else progress


def gain(ruleset: Ruleset, delta: int) -> int:
    """A change of the shown score as points gained towards the goal (what a side scored, for stats)."""
    return -delta if ruleset.settings["win"]["direction"] == "down" else delta


def start_score(ruleset: Ruleset, target: int) -> int:
    """Every side's score before the first hand: 0, or the target counting down."""
    return shown(ruleset, target, 0)


def _goal(ruleset: Ruleset, target: int) -> int:
    """The progress at which a side is out: the target reached, or passed."""
    return target if ruleset.settings["win"]["reach"] == "reach" else target + 1


def goal_score(ruleset: Ruleset, target: int) -> int:
    """The shown score at which a side is out: the target (or one more) counting up; 0 (or -1) down."""
    return shown(ruleset, target, _goal(ruleset, target))


class EarlyEnd(NamedTuple):
    """A rule that ends a game before its winner gets to the target. `how` is the ending the engine gives
    when the rule ends a game (the verdict's Instant.how, or this module's "sets-out": Ending.how); `on`:
    does the ruleset have the rule; `words`: the rule as the table says it."""

    how: str
    on: Callable[[Ruleset], bool]
    words: Callable[[Ruleset], str]


# Every way a game ends sooner. The engine names the one that ended a game (Ending.how), and a game
# reported by its final scores is judged by this same table (`reported`): an ending missing here would
# have the engine end games the tournament refuses (a property test replays games to hold them together).
EARLY_ENDINGS: tuple[EarlyEnd, ...] = (
    EarlyEnd("every-point", lambda r: r.settings["win"]["instant"] != "none",
             lambda r: "a side that takes every point wins at once"),
    EarlyEnd("smudge-made", lambda r: r.settings["smudge"]["made"] == "win",
             lambda r: "a smudge made wins the game at once"),
    EarlyEnd("smudge-set", lambda r: r.settings["smudge"]["set"] == "lose",
             lambda r: "a smudge set loses the game at once"),
    EarlyEnd("sets-out", lambda r: r.settings["win"]["sets_out"] > 0,
             lambda r: f"a side set {r.settings['win']['sets_out']} times is out of the game"),
)


def early_endings(ruleset: Ruleset) -> tuple[EarlyEnd, ...]:
    """The rules of `ruleset` that can end a game before its winner gets to the target."""
    return tuple(e for e in EARLY_ENDINGS if e.on(ruleset))


def leaders(ruleset: Ruleset, target: int, scores: Sequence[int]) -> list[int]:
    """The sides (by position in `scores`) with the best score: the highest, or the lowest counting down."""
    ahead = [progress(ruleset, target, s) for s in scores]
    return [i for i, a in enumerate(ahead) if a == max(ahead)]


class Reported(NamedTuple):
    """A game reported by its final scores and its winner, as the ruleset reads it."""

    reached: bool  # the winner came as far as the target
    early: str  # how the ruleset ends a game sooner, in words ("" where it cannot)
    behind: bool  # another side has the better score
    why_behind: str  # the rule that lets a side behind win, in words ("" where none says so)

    @property
    def possible(self) -> bool:
        """Could the game have ended so: the winner got to the target, or a rule ends games sooner."""
        return self.reached or bool(self.early)


def reported(ruleset: Ruleset, scores: Sequence[int], won: int, target: int | None = None) -> Reported:
    """What the ruleset says of a game that ended with `scores`, won by the side at position `won`.

    "Reached" is lenient by one point: a winner at the very target is taken where win.reach = exceed asks
    to pass it (tables write the target as the winning score, and it is no typo). A side behind may have
    won where the bidding side goes out first (decide: win.only_bidder, win.precedence) or a game ends
    sooner (EARLY_ENDINGS)."""
    target = ruleset.settings["win"]["target"] if target is None else target
    early = next((e.words(ruleset) for e in early_endings(ruleset)), "")
    w = ruleset.settings["win"]
    bidder_first = w["only_bidder"] or "bidder" in w["precedence"]
    return Reported(progress(ruleset, target, scores[won]) >= target, early,
                    won not in leaders(ruleset, target, scores),
                    "the bidding side goes out first" if bidder_first else early)


def _got_there(ruleset: Ruleset, target: int) -> str:
    down = ruleset.settings["win"]["direction"] == "down"
    if ruleset.settings["win"]["reach"] == "reach":
        return "reached 0" if down else f"reached {target}"
    return "went below 0" if down else f"went past {target}"


def active_table(table: Table, out: Sequence[str]) -> Table:
    """The table without the sides that are out of the game (win.sets_out): their players leave it."""
    if not out:
        return table
    gone = {p for s in out for p in table.members(s)}
    teams = None if table.teams is None else tuple((t, ms) for t, ms in table.teams if t not in out)
    return Table(tuple(p for p in table.players if p not in gone), teams)


def decide(ruleset: Ruleset, table: Table, after: Mapping[str, int], v: Verdict,
           target: int) -> tuple[str | None, str]:
    """Who, if anyone, wins the game with this hand, and the rule that says so (in words).

    A hand that ends the game at once (v.instant: a side took every point, a smudge made or failed that
    wins or loses the game) decides first. With `win.only_bidder` only the bidding side can win, at the end
    of a hand it bid (seeds 002 and 003), and with `win.set_and_win` a defending side that set it too.
    Otherwise any side out wins; when several are out on one hand, `win.precedence` applies its rules in
    turn, each narrowing the field: "bidder" (the bidding side goes out first, seed 000 and seed 001),
    "higher" (the higher score), "count-out" (count the hand's points in the order `win.count_out`; the
    first side to get there wins, seed 001's "high first, then low, Jack and game"). In a called partner's
    hand the bidding side is the bidder and the partner, the bidder first.
    """
    if v.instant is not None:
        return v.instant.side, v.instant.why
    w = ruleset.settings["win"]
    goal = _goal(ruleset, target)
    prog = {s: progress(ruleset, target, after[s]) for s in table.sides}
    out = [s for s in table.sides if prog[s] >= goal]
    if not out:
        return None, ""  # the usual case: nobody is out yet
    there = _got_there(ruleset, target)
    bidder = v.bid.side
    team = v.bidding_team
    with_ = f" (with {', '.join(team[1:])})" if len(team) > 1 else ""
    if w["only_bidder"]:
        set_ = v.bid.amount > 0 and not v.bid.made
        eligible = [s for s in out if (v.bid.made or not w["bidder_must_make"]) if s in team] + \
            [s for s in out if s not in team and w["set_and_win"] and set_]
        if not eligible:
            if any(s in out for s in team):
                who = next(s for s in team if s in out)
                return None, (f"{who} {there} but was set, and only a bidding side that makes its bid can win; "
                              "play on")
            return None, (f"{', '.join(out)} {there} but only the bidding side can win, at the end of a hand it "
                          "bid; play on")
        if len(eligible) == 1 and eligible[0] not in team:
            return eligible[0], f"{eligible[0]} {there} while defending and set the bidders, {bidder} (win.set_and_win)"
        out = eligible
    if all(s in team for s in out):  # the bidding side goes out (a bidder and a called partner together)
        s = next(t for t in team if t in out)
        if s == bidder:
            return s, f"{s} {there} as the bidding side{with_}"
        return s, f"{s} {there} as the bidder's partner ({bidder})"
    if len(out) == 1:
        return out[0], f"{out[0]} {there}"
    head = f"{' and '.join(out)} {there} on the same hand"
    field_ = list(out)
    tie = ""
    for rule in w["precedence"]:
        # a pitch without a contract has no bidder to go out first (seed 001: "without the obligation of
        # making anything"): the next rule (count-out: high, low, jack, game) decides
        first = next((s for s in team if s in field_), None)
        if rule == "bidder" and first is not None and v.bid.amount:
            if tie:
                return first, f"{head}; {tie}, and a tie goes to the bidding side, {first}"
            if first == bidder:
                return bidder, f"{head}; {bidder} bid, and the bidder goes out first"
            return first, f"{head}; {bidder} bid with {first}, and the bidding side goes out first"
        if rule == "higher":
            top = max(prog[s] for s in field_)
            leaders = [s for s in field_ if prog[s] == top]
            score = shown(ruleset, target, top)
            if len(leaders) == 1:
                which = "lower" if ruleset.settings["win"]["direction"] == "down" else "higher"
                return leaders[0], f"{head}; {leaders[0]} has the {which} score ({score})"
            field_ = leaders
            tie = f"{' and '.join(leaders)} tie at {score}"
        if rule == "count-out":
            won, why = _count_out(ruleset, after, v, field_, target)
            if won is not None:
                return won, f"{head}; " + (f"{tie}; " if tie else "") + why
    return None, f"{head} and no rule of {ruleset.name} separates them; play on"


def _count_out(ruleset: Ruleset, after: Mapping[str, int], v: Verdict, field_: list[str],
               target: int) -> tuple[str | None, str]:
    """Count the hand's points in the ruleset's order; the first side of `field_` to get there wins.

    A side counts its points one by one when it scored what it took (a defender, or a bidder who
    made it; a sale credit came before play); a side set back or penalised does not count out.
    """
    order = list(ruleset.settings["win"]["count_out"])
    awards = sorted(v.awards, key=lambda a: order.index(a.point) if a.point in order else len(order))
    goal = _goal(ruleset, target)
    counting = {s for s in v.delta if v.taken.get(s, 0) > 0 and gain(ruleset, v.delta[s]) >= v.taken[s]}
    running = {s: progress(ruleset, target, after[s]) - (v.taken[s] if s in counting else 0) for s in after}
    early = [s for s in field_ if running[s] >= goal]
    if len(early) == 1:
        return early[0], f"{early[0]} was out before the points were counted"
    members = dict(v.hand_sides or ())
    for a in awards:
        for s in members.get(a.side, (a.side,)):
            if s not in counting:
                continue
            running[s] += a.value
            if s in field_ and running[s] >= goal:
                return s, f"counting out in order ({', '.join(order)}), {s} got there first with {a.point}"
    return None, ""


def replay(ruleset: Ruleset, record: MatchRecord, upto: int | None = None) -> MatchState:
    """Replay every hand: verdicts, running scores, and the end of the game.

    A hand recorded after the game was won is bad input (PitchError naming it). A dealer out of
    turn is only a warning: tables do skip a deal now and then.
    """
    table = record.table
    table.check_against(ruleset)
    target = record.target or ruleset.settings["win"]["target"]
    scores = dict.fromkeys(table.sides, start_score(ruleset, target))
    results: list[HandResult] = []
    ending: Ending | None = None
    warnings: list[str] = []
    expected_dealer = record.first_dealer
    hands = record.hands if upto is None else record.hands[:upto]
    prior: HandResult | None = None
    for i, hand in enumerate(hands, 1):
        if ending is not None:
            raise PitchError(f"the game was already won on hand {ending.hand} ({ending.reason}); "
                             "a hand after it cannot be scored - start the next game", f"hands[{i}]")
        if expected_dealer is not None and hand.dealer != expected_dealer:
            warnings.append(f"hands[{i}].dealer: {hand.dealer} deals, but the deal passes to {expected_dealer}")
        result, ending = score_hand(ruleset, table, scores, hand, i, target, prior=prior)
        expected_dealer = next_dealer(table, hand.dealer, out_players(table, result.out))
        scores = dict(result.scores)
        results.append(result)
        prior = result
    sets = None if not ruleset.settings["win"]["sets_out"] else (
        dict(prior.sets or {}) if prior is not None else dict.fromkeys(table.sides, 0))
    return MatchState(ruleset.name, target, table, tuple(results), dict(scores), ending, tuple(warnings),
                      ruleset.direction, sets, tuple(prior.out) if prior is not None else ())


def out_players(table: Table, out: Mapping[str, int] | Sequence[str]) -> tuple[str, ...]:
    """The players of the sides out of the game."""
    return tuple(p for s in out for p in table.members(s))


def score_hand(ruleset: Ruleset, table: Table, before: Mapping[str, int], hand: Hand, number: int,
               target: int, *, prior: HandResult | None = None) -> tuple[HandResult, Ending | None]:
    """One hand on top of the scores before it (and, for win.sets_out, the result of the hand before):
    its result, and the end of the game if it came."""
    out = dict(prior.out) if prior is not None else {}
    active = active_table(table, list(out)) if out else table
    try:
        if out:
            _check_in(table, hand, out, prior)
        if "smudge-rules" in ruleset.features:
            _check_smudge_allowed(ruleset, active, hand, before, target)
        v = verdict(ruleset, active, hand, target=target)
    except PitchError as e:
        raise e.at(f"hands[{number}]") from None
    negative = ruleset.settings["settle"]["negative"]
    after = {}
    for s, score in before.items():
        after[s] = score + v.delta.get(s, 0)
        if not negative and progress(ruleset, target, after[s]) < 0:
            after[s] = start_score(ruleset, target)
    sets = None
    if ruleset.features & _MATCH_RULES:
        v, after = _match_rules(ruleset, v, before, after, target)
        if ruleset.settings["win"]["sets_out"]:
            sets = dict(prior.sets) if prior is not None and prior.sets is not None else dict.fromkeys(table.sides, 0)
            if v.bid.amount > 0 and not v.bid.made:
                for s in v.bidding_team:
                    sets[s] += 1
    winner, why = decide(ruleset, active, after, v, target)
    how = "target" if v.instant is None else v.instant.how
    if winner is None and sets is not None:
        winner, why, out = _sets_out(ruleset, active, sets, out, number)
        how = "sets-out"
    return (HandResult(number, v, after, sets, out),
            Ending(winner, number, why, how) if winner is not None else None)


_MATCH_RULES = frozenset({"smudge-rules", "stop-short", "sets-out"})


def _check_smudge_allowed(ruleset: Ruleset, table: Table, hand: Hand, before: Mapping[str, int], target: int) -> None:
    """smudge.in_the_hole = may-not: a side in the hole may not bid the smudge."""
    b = ruleset.settings["bidding"]
    if ruleset.settings["smudge"]["in_the_hole"] != "may-not" or not (
            hand.bid.smudge or (b["smudge"] and hand.bid.amount == b["smudge"])):
        return
    side = table.side_of(hand.bid.player)
    if progress(ruleset, target, before[side]) < 0:
        raise PitchError(f"{side} is in the hole ({before[side]}): a side in the hole may not bid {b['smudge_name']} "
                         "(smudge.in_the_hole = may-not)", "bid")


def _match_rules(ruleset: Ruleset, v: Verdict, before: Mapping[str, int], after: dict[str, int],
                 target: int) -> tuple[Verdict, dict[str, int]]:
    """The rules that need the scores: a smudge made in the hole goes to zero instead of winning
    (smudge.in_the_hole = to-zero); a defending side stops one short of the goal (win.defenders_stop_short)."""
    notes = list(v.notes)
    delta = dict(v.delta)
    instant = v.instant
    team = v.bidding_team
    if (instant is not None and instant.how == "smudge-made" and ruleset.settings["smudge"]["in_the_hole"] == "to-zero"
            and progress(ruleset, target, before[team[0]]) < 0):
        instant = None
        zero = start_score(ruleset, target)
        for s in team:
            after[s], delta[s] = zero, zero - before[s]
        notes.append(("to-zero", v.bid.side, ruleset.settings["bidding"]["smudge_name"], zero))
    if ruleset.settings["win"]["defenders_stop_short"]:
        goal = _goal(ruleset, target)
        for s in after:
            if s not in team and progress(ruleset, target, after[s]) >= goal > progress(ruleset, target, before[s]):
                stop = shown(ruleset, target, goal - 1)
                notes.append(("stopped-short", s, v.taken.get(s, 0), stop))
                after[s], delta[s] = stop, stop - before[s]
    if instant is v.instant and delta == v.delta:
        return v, after
    return v._replace(notes=tuple(notes), delta=delta, instant=instant), after


def _sets_out(ruleset: Ruleset, table: Table, sets: Mapping[str, int], out: dict[str, int],
              number: int) -> tuple[str | None, str, dict[str, int]]:
    """win.sets_out: a side set that many times is out; with two sides left the other wins at once, with
    more the game goes on without it, and the last side left wins."""
    k = ruleset.settings["win"]["sets_out"]
    newly = [s for s in table.sides if sets.get(s, 0) >= k]
    if not newly:
        return None, "", out
    left = [s for s in table.sides if s not in newly]
    gone = " and ".join(newly)
    was = "was" if len(newly) == 1 else "were"
    if len(left) == 1:
        return left[0], f"{gone} {was} set {k} times and {'is' if len(newly) == 1 else 'are'} out (win.sets_out): " \
                        f"{left[0]} wins", out
    out = {**out, **dict.fromkeys(newly, number)}
    return None, "", out


def _check_in(table: Table, hand: Hand, out: Mapping[str, int], prior: HandResult | None) -> None:
    """A hand after a side went out (win.sets_out) names none of its players."""
    gone = {p: s for s in out for p in table.members(s)} | {s: s for s in out}
    for key, name in _names(hand):
        if name in gone:
            s = gone[name]
            k = prior.sets.get(s, 0) if prior is not None and prior.sets else 0
            raise PitchError(f"{name} is out of the game ({s} was set {k} times on hand {out[s]}; win.sets_out)", key)


def _names(hand: Hand) -> Iterator[tuple[str, str]]:
    """Every player or side a hand record names, with its key."""
    yield "dealer", hand.dealer
    yield "bid.player", hand.bid.player
    for i, (p, _) in enumerate(hand.auction, 1):
        yield f"auction[{i}]", p
    for key, table in (("captured", hand.captured or ()), ("dealt", hand.dealt), ("held", hand.held),
                       ("discard", hand.discard), ("drawn", hand.drawn)):
        for p, _ in table:
            yield f"{key}.{p}", p
    for pid, who in hand.points or ():
        yield f"points.{pid}", who
    for i, t in enumerate(hand.tricks or (), 1):
        yield f"tricks[{i}].leader", t.leader
        for j, play in enumerate(t.plays, 1):
            if play.player is not None:
                yield f"tricks[{i}].cards[{j}]", play.player
    for p in hand.revokes:
        yield "revokes", p
    if hand.partner:
        yield "partner", hand.partner


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
    scores = dict.fromkeys(table.sides, start_score(ruleset, target))
    ending: Ending | None = None
    expected = rec.first_dealer
    prior: HandResult | None = None
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
        gone = out_players(table, prior.out) if prior is not None else ()
        expected = next_dealer(table, hand.dealer, gone) if hand.dealer in table.players else None
        if ending is not None:
            problems.append(Problem(i, f"hands[{i}]", f"the game was already won on hand {ending.hand} "
                                                      f"({ending.reason}); a hand after it cannot be scored"))
            continue
        try:
            result, ending = score_hand(ruleset, table, scores, hand, i, target, prior=prior)
        except PitchError as e:
            where = e.where or f"hands[{i}]"
            where = where.replace(f"hands[{i}]: ", f"hands[{i}].", 1)
            problems.append(Problem(i, where, e.message))
            continue
        scores = dict(result.scores)
        prior = result
        expected = next_dealer(table, hand.dealer, out_players(table, result.out))
        for ill in result.verdict.illegal:
            problems.append(Problem(i, f"hands[{i}].tricks[{ill.trick}]", f"{ill.why} [{ill.rule}]", warning=True))
    return problems


# ---------------------------------------------------------------------------
# At the table: who deals, what is needed, and the stakes


def dealer_due(record: MatchRecord, out: Sequence[str] = ()) -> str | None:
    """Who deals the next hand: the deal passes to the left after every hand (skipping the players of
    `out`, the sides out of the game: MatchState.out)."""
    if record.hands:
        return next_dealer(record.table, record.hands[-1].dealer, out_players(record.table, out))
    return record.first_dealer


def needed(ruleset: Ruleset, target: int, score: int) -> int:
    """Points a side still needs to be out (0 when it is); `score` as shown (counting up or down)."""
    return max(_goal(ruleset, target) - progress(ruleset, target, score), 0)


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
