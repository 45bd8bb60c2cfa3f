"""The scoreboard of a match as data: what a table wants to see between two hands.

One function of the replayed match (`scoreboard`), used by `status` (drawn), `status --json` (its
`to_json` is that contract), `play`, and the web page. Nothing here reads a file or prints.
"""

from typing import Any, NamedTuple

from pitchkeeper.game.match import MatchRecord, MatchState, Stakes, dealer_due, needed, progress, stakes
from pitchkeeper.game.partners import calls
from pitchkeeper.game.rulesets import Ruleset


class Scoreboard(NamedTuple):
    """The scoreboard between two hands, as `status --json` gives it (`to_json`)."""

    match: str  # the log it was read from
    rules: str
    title: str | None
    target: int
    reach: str  # "reach" or "exceed": how a side gets out
    only_bidder: bool  # only the bidding side can win
    hands: int
    sides: dict[str, list[str]]  # side -> its players
    teams: bool
    scores: dict[str, int]
    needed: dict[str, int]  # points each side still needs (0: out)
    in_the_hole: list[str]
    next_dealer: str | None  # None once the game is won
    last_hand: dict[str, Any] | None  # the judge-hand object of the last hand, with number, dealer, scores
    winner: str | None
    won_on_hand: int | None
    reason: str | None
    stakes: Stakes | None
    warnings: list[str]
    direction: str = "up"  # "down": scores count down from the target to 0
    partners: bool = False  # the table calls a partner each hand (per-hand teams; sides are players)
    sets: dict[str, int] | None = None  # win.sets_out: the times each side was set
    out: tuple[str, ...] = ()  # win.sets_out: the sides out of the game
    points: tuple[tuple[str, str], ...] = ()  # (id, label) of the ruleset's points but game, in order: a screen
    # names every point of the last hand, those not out too

    @property
    def bid_in_play(self) -> dict[str, Any] | None:
        """The last hand's bid and whether it was made (the last verdict), or None before the first hand."""
        return self.last_hand["bid"] if self.last_hand else None

    def to_json(self) -> dict[str, Any]:
        """The `status --json` object (its keys and their order are a contract)."""
        return {
            "match": self.match,
            "rules": self.rules,
            "title": self.title,
            "target": self.target,
            "reach": self.reach,
            "only_bidder": self.only_bidder,
            "hands": self.hands,
            "sides": self.sides,
            "teams": self.teams,
            "scores": dict(self.scores),
            "needed": dict(self.needed),
            "in_the_hole": list(self.in_the_hole),
            "next_dealer": self.next_dealer,
            "last_hand": self.last_hand,
            "winner": self.winner,
            "won_on_hand": self.won_on_hand,
            "reason": self.reason,
            "stakes": self.stakes.to_json() if self.stakes else None,
            "warnings": list(self.warnings),
        } | self._more_json()

    def _more_json(self) -> dict[str, Any]:
        """The keys a house rule adds (after the others, each only where its rule is)."""
        out: dict[str, Any] = {}
        if self.partners:
            out["partners"] = True
        if self.direction != "up":
            out["direction"] = self.direction
        if self.sets is not None:
            out["sets"] = dict(self.sets)
            out["out"] = list(self.out)
        return out


def scoreboard(ruleset: Ruleset, record: MatchRecord, state: MatchState, *, match: str = "",
               warnings: tuple[str, ...] = ()) -> Scoreboard:
    """The scoreboard of a replayed match. `warnings`: those of reading it (a changed ruleset, say)."""
    table = state.table
    last = None
    if state.hands:
        h = state.hands[-1]
        last = {"number": h.number, "dealer": record.hands[len(state.hands) - 1].dealer, **h.verdict.to_json(),
                "scores": dict(h.scores)}
    w = ruleset.settings["win"]
    return Scoreboard(
        match=match,
        rules=ruleset.name,
        title=record.header.get("title"),
        target=state.target,
        reach=w["reach"],
        only_bidder=w["only_bidder"],
        hands=len(state.hands),
        sides={s: list(table.members(s)) for s in table.sides},
        teams=table.teams is not None,
        scores=dict(state.scores),
        needed={s: needed(ruleset, state.target, v) for s, v in state.scores.items()},
        in_the_hole=[s for s, v in state.scores.items() if progress(ruleset, state.target, v) < 0],
        next_dealer=None if state.ending else dealer_due(record, state.out),
        last_hand=last,
        winner=state.winner,
        won_on_hand=state.ending.hand if state.ending else None,
        reason=state.ending.reason if state.ending else None,
        stakes=stakes(ruleset, record, state),
        warnings=list(warnings) + list(state.warnings),
        direction=state.direction,
        partners=calls(ruleset, table),
        sets=None if state.sets is None else dict(state.sets),
        out=tuple(state.out),
        points=tuple((p.id, p.label) for p in ruleset.points if p is not ruleset.game_point),
    )
