"""Tallies and standings, recomputed from the results each time (a correction re-ranks everything).

Each format ranks by its own figures in order (model.TIEBREAKS; the file's `tiebreak` may set another):
progressive by points, then wins, then head-to-head; round robin by wins, points, head-to-head; Swiss by
wins, points, the opponents' wins, head-to-head. Players still level on every figure share a rank.

Head-to-head is as chess has it (FIDE's "direct encounter"): among the players (or teams) level so far,
each one's wins in the games it played against the others of that group - used only when every two of
them met at least once (sat on different sides of a table), else it leaves them level. It is taken once,
for the group level before it; the figures after it split what it leaves level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pitchkeeper.tournament.model import Tournament, side_name


class Line(NamedTuple):
    name: str
    rank: int
    points: int  # the sum of the side's final scores over the games played
    games: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rank": self.rank, "points": self.points, "games": self.games, "wins": self.wins}


class Record:
    """One player's (or team's) figures: points, games, wins, and whom it met and beat."""

    __slots__ = ("beat", "games", "met", "opponents", "points", "wins")

    def __init__(self) -> None:
        self.points = self.games = self.wins = 0
        self.met: dict[str, int] = {}  # opponent -> games played against them
        self.beat: dict[str, int] = {}  # opponent -> games won against them
        self.opponents: list[str] = []  # every opponent of every game, once a game


def _groups(names: list[str], value: dict[str, int]) -> list[list[str]]:
    """Names split by a figure, highest first; the order among equals kept."""
    out: dict[int, list[str]] = {}
    for n in names:
        out.setdefault(value[n], []).append(n)
    return [out[v] for v in sorted(out, reverse=True)]


def head_to_head(group: Sequence[str], records: dict[str, Record]) -> dict[str, int]:
    """Each one's wins against the others of `group`; all 0 unless every two of them met."""
    if all(records[a].met.get(b) for i, a in enumerate(group) for b in group[i + 1:]):
        return {a: sum(records[a].beat.get(b, 0) for b in group if b != a) for a in group}
    return dict.fromkeys(group, 0)


def ranked(records: dict[str, Record], order: Sequence[str]) -> list[Line]:
    """The records ranked by `order` (model.CRITERIA): 1-based, and equal figures share a rank. Among
    equals the list keeps the order of entry (the seed order)."""
    wins = {n: r.wins for n, r in records.items()}
    figures: dict[str, dict[str, int]] = {
        "points": {n: r.points for n, r in records.items()},
        "wins": wins,
        "opponents-wins": {n: sum(wins.get(o, 0) for o in r.opponents) for n, r in records.items()},
    }
    groups = [list(records)]
    for criterion in order:
        split: list[list[str]] = []
        for g in groups:
            if len(g) == 1:
                split.append(g)
                continue
            value = head_to_head(g, records) if criterion == "head-to-head" else figures[criterion]
            split += _groups(g, value)
        groups = split
    out: list[Line] = []
    for g in groups:
        rank = len(out) + 1
        for n in g:
            r = records[n]
            out.append(Line(n, rank, r.points, r.games, r.wins))
    return out


def records(t: Tournament, upto: int | None = None) -> tuple[dict[str, Record], dict[str, Record]]:
    """Every player's and every fixed team's figures after round `upto` (default: all recorded)."""
    players = {p: Record() for p in t.players}
    teams = {side_name(tm): Record() for tm in t.teams}
    team_of = {frozenset(tm): side_name(tm) for tm in t.teams}
    for rnd in t.rounds[:upto]:
        for seat in rnd.tables:
            res = t.final.get((rnd.number, seat.table))
            if res is None:
                continue
            units = [(players, list(side)) for side in seat.sides]
            if t.teams:
                units += [(teams, [team_of[frozenset(side)]]) for side in seat.sides]
            n = len(seat.sides)
            for group in (units[:n], units[n:]):  # the players' sides, then the teams'
                for s, (table, members) in enumerate(group):
                    others = [o for k, (_, ms) in enumerate(group) if k != s for o in ms]
                    for name in members:
                        r = table[name]
                        r.points += res.scores[s]
                        r.games += 1
                        r.wins += int(s == res.winner)
                        r.opponents += others
                        for o in others:
                            r.met[o] = r.met.get(o, 0) + 1
                            if s == res.winner:
                                r.beat[o] = r.beat.get(o, 0) + 1
    return players, teams


def standings(t: Tournament, upto: int | None = None) -> dict[str, Any]:
    """The contract's standings object (spec section 8), after round `upto` (default: all recorded), with
    the order it ranks by (`tiebreak`, an extension).

    `teams` is there where the format has fixed teams of two or more (not in individual play)."""
    players, teams = records(t, upto)
    shown = t.rounds[:upto]
    out: dict[str, Any] = {
        "round": len(shown),
        "finished": t.finished if upto is None or upto >= len(t.rounds) else False,
        "players": [ln.to_json() for ln in ranked(players, t.order)],
    }
    if t.teams and t.shape.size > 1:  # in individual play each "team" is one player: the players say it all
        out["teams"] = [ln.to_json() for ln in ranked(teams, t.order)]
    out["tiebreak"] = list(t.order)
    return out
