"""An independent implementation of the tournament rules, written from spec section 8 and
docs/tournaments.md (not from pitchkeeper/tournament/): the progressive movement with its sit-outs, the
round robin's cycle, Swiss pairings by brute force, and the standings with each format's tie-breaks.
The night's tests compare what `serve --tournament` answers with what this computes."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

Side = tuple[str, ...]
Table = list[Side]  # the sides at a table, in seating order


def sitters(players: Sequence[str], count: int, sat: dict[str, int]) -> list[str]:
    """Who sits out: those who sat out least so far, then the latest in the players' list."""
    ranked = sorted(range(len(players)), key=lambda i: (sat[players[i]], -i))
    return [players[i] for i in ranked[:count]]


def first_round(players: Sequence[str], sides: int, size: int) -> tuple[list[Table], list[str]]:
    """Round 1: tables filled in the players' order, partners across (1st & 3rd, 2nd & 4th)."""
    seats = sides * size
    out = sitters(players, len(players) % seats, dict.fromkeys(players, 0))
    playing = [p for p in players if p not in out]
    tables = []
    for start in range(0, len(playing), seats):
        four = playing[start:start + seats]
        tables.append([tuple(four[s + k * sides] for k in range(size)) for s in range(sides)])
    return tables, [p for p in players if p in out]


def next_progressive(players: Sequence[str], prev: list[Table], prev_out: list[str],
                     results: dict[int, tuple[list[int], int]], sat: dict[str, int]) -> tuple[list[Table], list[str]]:
    """The movement of spec section 8 (results: table -> (scores, winner index))."""
    n = len(prev)
    staying: list[list[Side]] = [[] for _ in range(n)]
    coming: list[list[Side]] = [[] for _ in range(n)]
    for t, table in enumerate(prev):
        scores, winner = results[t + 1]
        if t == 0:  # the head table: the winners stay; the loser (the lowest of the others) goes to the last table
            losers = [i for i in range(len(table)) if i != winner]
            down = min(losers, key=lambda i: (scores[i], -i))
            for i, side in enumerate(table):
                if i == down:
                    coming[n - 1].append(side)
                else:
                    staying[0].append(side)
        else:  # the winner moves up one table, the others stay
            for i, side in enumerate(table):
                if i == winner:
                    coming[t - 1].append(side)
                else:
                    staying[t].append(side)
    tables: list[Table] = []
    for t in range(n):
        if t == 0:
            tables.append(staying[0] + coming[0])
        elif len(coming[t][0]) == 1:  # one player a side: nobody to switch partners with
            tables.append(coming[t] + staying[t])
        else:  # partners switch: each new side one player who moved and one who stayed (the k-th of each)
            mover, stayer = coming[t][0], staying[t][0]
            tables.append([(mover[k], stayer[k]) for k in range(len(mover))])
    out = sitters(players, len(prev_out), sat)
    back = [p for p in prev_out if p not in out]
    # the players chosen leave their seats; those coming back take them, in the order the seats come
    it = iter(back)
    tables = [[tuple(next(it) if p in out else p for p in side) for side in table] for table in tables]
    return tables, [p for p in players if p in out]


def circle_ok(rounds: list[list[frozenset[str]]], byes: list[list[str]], teams: list[str]) -> None:
    """A whole round robin: every two teams meet once, nobody twice in a round, each bye once (odd count)."""
    met = [pair for rnd in rounds for pair in rnd]
    assert len(met) == len(set(met)) == len(teams) * (len(teams) - 1) // 2
    for rnd, out in zip(rounds, byes, strict=True):
        seated = [t for pair in rnd for t in pair]
        assert len(seated) == len(set(seated)) and sorted(seated + out) == sorted(teams)
    if len(teams) % 2:
        assert sorted(b for out in byes for b in out) == sorted(teams)


def swiss_pairs(teams: list[str], wins: dict[str, int], points: dict[str, int], met: set[frozenset[str]],
                byes: dict[str, int]) -> tuple[list[tuple[str, str]], list[str]]:
    """Swiss by brute force: teams in order of wins, then points, then seed; of every pairing without a
    rematch (else every pairing), the one whose top team each time meets the nearest it can; with an odd
    count, the bye to the lowest-placed team with the fewest byes whose absence leaves such a pairing."""
    order = sorted(teams, key=lambda t: (-wins[t], -points[t], teams.index(t)))

    def matchings(rest: list[str]) -> list[list[tuple[str, str]]]:
        if not rest:
            return [[]]
        out = []
        for j in range(1, len(rest)):
            for tail in matchings(rest[1:j] + rest[j + 1:]):
                out.append([(rest[0], rest[j]), *tail])
        return out

    def best(rest: list[str], allow: bool) -> list[tuple[str, str]] | None:
        fine = [m for m in matchings(rest) if allow or not any(frozenset(p) in met for p in m)]
        if not fine:
            return None

        def key(m: list[tuple[str, str]]) -> tuple[int, ...]:
            left, out = list(rest), []
            for a, b in m:  # m lists the pairs top team first, in order
                out.append((frozenset((a, b)) in met) if allow else 0)
                out.append(left.index(b))
                left.remove(a)
                left.remove(b)
            return tuple(out)

        return min(fine, key=key)

    candidates: list[str | None] = [None] if len(order) % 2 == 0 else sorted(reversed(order), key=lambda t: byes[t])
    for allow in (False, True):
        for bye in candidates:
            pairs = best([t for t in order if t != bye], allow)
            if pairs is not None:
                return pairs, [] if bye is None else [bye]
    raise AssertionError("unreachable")


# ---------------------------------------------------------------------------
# standings


ORDERS = {"progressive": ["points", "wins", "head-to-head"], "round-robin": ["wins", "points", "head-to-head"],
          "swiss": ["wins", "points", "opponents-wins", "head-to-head"]}


def standings(units: Sequence[str], games: list[tuple[list[list[str]], list[int], int]], order: Sequence[str],
              ) -> list[tuple[str, int, int, int, int]]:
    """(name, rank, points, games, wins) of every unit (player or team), ranked by `order`.
    games: (each side's units, each side's score, the winning side)."""
    pts = dict.fromkeys(units, 0)
    played = dict.fromkeys(units, 0)
    won = dict.fromkeys(units, 0)
    against: dict[str, list[str]] = {u: [] for u in units}
    beat: dict[tuple[str, str], int] = {}
    met: set[frozenset[str]] = set()
    for sides, scores, winner in games:
        for s, members in enumerate(sides):
            others = [o for k, ms in enumerate(sides) if k != s for o in ms]
            for u in members:
                pts[u] += scores[s]
                played[u] += 1
                won[u] += s == winner
                against[u] += others
                for o in others:
                    met.add(frozenset((u, o)))
                    if s == winner:
                        beat[(u, o)] = beat.get((u, o), 0) + 1

    def value(criterion: str, u: str, group: list[str]) -> int:
        if criterion == "points":
            return pts[u]
        if criterion == "wins":
            return won[u]
        if criterion == "opponents-wins":
            return sum(won[o] for o in against[u])
        if all(frozenset((a, b)) in met for a, b in itertools.combinations(group, 2)):
            return sum(beat.get((u, o), 0) for o in group if o != u)
        return 0

    def split(group: list[str], criteria: Sequence[str]) -> list[list[str]]:
        if len(group) < 2 or not criteria:
            return [group]
        levels = sorted({value(criteria[0], u, group) for u in group}, reverse=True)
        out = []
        for level in levels:
            out += split([u for u in group if value(criteria[0], u, group) == level], criteria[1:])
        return out

    rows = []
    for g in split(list(units), order):
        rank = len(rows) + 1
        rows += [(u, rank, pts[u], played[u], won[u]) for u in g]
    return rows


def as_rows(json_rows: list[dict[str, Any]]) -> list[tuple[str, int, int, int, int]]:
    return [(r["name"], r["rank"], r["points"], r["games"], r["wins"]) for r in json_rows]
