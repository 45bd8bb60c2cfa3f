"""Tallies and standings, recomputed from the results each time (a correction re-ranks everything)."""

from __future__ import annotations

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


def ranked(rows: dict[str, list[int]], by_wins: bool) -> list[Line]:
    """Rows name -> [points, games, wins], ranked: 1-based, and equal figures share a rank.

    Progressive ranks by the tally alone (the highest tally wins); the pairing formats by wins,
    then points. The list's order among equals is the order of entry (the seed order).
    """
    def key(name: str) -> tuple[int, ...]:
        pts, _games, wins = rows[name]
        return (-wins, -pts) if by_wins else (-pts,)

    names = sorted(rows, key=key)
    out: list[Line] = []
    for i, n in enumerate(names):
        rank = out[-1].rank if out and key(names[i - 1]) == key(n) else i + 1
        pts, games, wins = rows[n]
        out.append(Line(n, rank, pts, games, wins))
    return out


def standings(t: Tournament, upto: int | None = None) -> dict[str, Any]:
    """The contract's standings object (spec section 8), after round `upto` (default: all recorded).

    `teams` is there where the format has fixed teams of two or more (not in individual play)."""
    players = {p: [0, 0, 0] for p in t.players}
    teams = {side_name(tm): [0, 0, 0] for tm in t.teams}
    team_of = {frozenset(tm): side_name(tm) for tm in t.teams}
    for rnd in t.rounds[:upto]:
        for seat in rnd.tables:
            res = t.final.get((rnd.number, seat.table))
            if res is None:
                continue
            for s, side in enumerate(seat.sides):
                won = int(s == res.winner)
                rows = [players[p] for p in side]
                if t.teams:
                    rows.append(teams[team_of[frozenset(side)]])
                for row in rows:
                    row[0] += res.scores[s]
                    row[1] += 1
                    row[2] += won
    by_wins = t.format != "progressive"
    shown = t.rounds[:upto]
    out: dict[str, Any] = {
        "round": len(shown),
        "finished": t.finished if upto is None or upto >= len(t.rounds) else False,
        "players": [ln.to_json() for ln in ranked(players, by_wins)],
    }
    if t.teams and t.shape.size > 1:  # in individual play each "team" is one player: the players say it all
        out["teams"] = [ln.to_json() for ln in ranked(teams, by_wins)]
    return out
