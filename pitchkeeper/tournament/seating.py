"""Seating the next round, for each format: pure functions of the tournament as it stands.

Players (or, with fixed teams, teams) who cannot fill a table sit out in turn: whoever has sat out
the fewest rounds so far is chosen first, so nobody sits out twice while another has not at all.
pitchkeeper does not seat a fifth or sixth player at a table, even where a ruleset's player counts
allow it: an odd table would break the movement (a table of three sides has two losers) and would
make tallies from tables of different sizes incomparable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pitchkeeper.errors import PitchError, or_list
from pitchkeeper.tournament.model import FORMATS, Round, Seating, Shape, Tournament


def shape_for(ruleset: Any, fmt: str, team_size: int | None) -> Shape:
    """How a table is laid out for this ruleset and format (a ruleset setting decides; never its name).

    Progressive plays partnerships of two at a table of four where the ruleset allows that (the
    classic progressive pitch), else each for himself at the ruleset's table (four if it allows, else
    its smallest). The pairing formats put two sides at a table: the given fixed teams, or one
    player a side in individual play.
    """
    ps = ruleset.settings["players"]
    counts, sizes = list(ps["counts"]), list(ps["team_sizes"])
    if fmt not in FORMATS:
        raise PitchError(f"expected {or_list(FORMATS)}, got {fmt!r}", "--format")
    if fmt == "progressive":
        if team_size not in (None, 2):
            raise PitchError("a progressive tournament changes partners every round: give no --teams", "--teams")
        if 2 in sizes and 4 in counts:
            return Shape(2, 2)
        if 1 in sizes:
            n = 4 if 4 in counts else min(counts)
            return Shape(n, 1)
        raise PitchError(f"{ruleset.name} has no table a progressive tournament can use (players "
                         f"{or_list(counts)}, teams of {or_list(sizes)})", "--rules")
    size = team_size or 1
    if size not in sizes or 2 * size not in counts:
        if size == 1:
            fix = "give fixed --teams" if any(2 * k in counts for k in sizes if k > 1) else "use --format progressive"
            raise PitchError(f"{fmt} seats two sides at a table, and {ruleset.name} is not played one against one "
                             f"(players {or_list(counts)}, teams of {or_list(sizes)}): {fix}", "--teams")
        raise PitchError(f"{ruleset.name} cannot seat two teams of {size} at a table (players {or_list(counts)}, "
                         f"teams of {or_list(sizes)})", "--teams")
    return Shape(2, size)


def default_rounds(fmt: str, units: int, shape: Shape) -> int:
    """Rounds when --rounds is not given: a full cycle for round robin, enough to separate the field in Swiss."""
    if fmt == "round-robin":
        return units - 1 if units % 2 == 0 else units
    if fmt == "swiss":
        return max(1, math.ceil(math.log2(units)))
    return 6  # progressive: a usual evening


def choose_sitters(candidates: Sequence[str], count: int, sat: dict[str, int]) -> list[str]:
    """Who sits out: fewest sit-outs so far first, then the latest in the list (fair and repeatable)."""
    order = {p: i for i, p in enumerate(candidates)}
    return sorted(candidates, key=lambda p: (sat[p], -order[p]))[:count]


def next_round(t: Tournament) -> Round:
    """The next round's seating. The current round must be fully recorded and a round must be left."""
    cur = t.current
    if cur is not None and not t.complete(cur):
        missing = ", ".join(map(str, t.unrecorded(cur)))
        raise PitchError(f"round {cur.number} is still being played: table(s) {missing} have not reported")
    if t.closed is not None:
        raise PitchError(f"the night was closed after round {t.closed}")
    if len(t.rounds) >= t.planned:
        raise PitchError(f"all {t.planned} round(s) have been played")
    number = len(t.rounds) + 1
    if t.format == "progressive":
        return progressive(t, number)
    if t.format == "round-robin":
        return round_robin(t, number)
    return swiss(t, number)


# ---------------------------------------------------------------------------
# Progressive


def first_progressive(players: Sequence[str], shape: Shape, sat: dict[str, int]) -> Round:
    """Round 1: tables filled in the order of the list; partners sit across (1st & 3rd, 2nd & 4th)."""
    out = choose_sitters(players, len(players) % shape.seats, sat)
    playing = [p for p in players if p not in out]
    tables = []
    for n, i in enumerate(range(0, len(playing), shape.seats), 1):
        seats = playing[i:i + shape.seats]
        tables.append(Seating(n, tuple(tuple(seats[s::shape.sides]) for s in range(shape.sides))))
    return Round(1, tuple(tables), tuple(p for p in players if p in out))


def moved(t: Tournament, rnd: Round) -> list[list[tuple[str, ...]]]:
    """Each table's new sides after the movement of spec section 8.

    At every table the winning side moves up one table and the losing side stays; at the head
    table the winners stay and the losers go to the last table. At every table but the head the
    sides are then made anew, each joining one player who moved with one who stayed. In individual
    play with more than two players a table, the winner moves up and the others stay, and at the
    head table the last-placed player (the lowest score; the later seat on a tie) goes to the last
    table: with two sides that is exactly the rule above.
    """
    n = len(rnd.tables)
    stay: list[list[tuple[str, ...]]] = [[] for _ in range(n)]
    come: list[list[tuple[str, ...]]] = [[] for _ in range(n)]
    for seat in rnd.tables:
        res = t.final[(rnd.number, seat.table)]
        i = seat.table - 1
        w = res.winner
        if i == 0:
            low = min((s for s in range(len(seat.sides)) if s != w), key=lambda s: (res.scores[s], -s))
            for s, side in enumerate(seat.sides):
                (come[n - 1] if s == low else stay[0]).append(side)
        else:
            for s, side in enumerate(seat.sides):
                (come[i - 1] if s == w else stay[i]).append(side)
    tables = []
    for i in range(n):
        if i == 0 or t.shape.size == 1:
            sides = stay[i] + come[i] if i == 0 else come[i] + stay[i]
        else:
            mover, stayer = come[i][0], stay[i][0]  # two sides at a partnership table
            sides = [(mover[k], stayer[k]) for k in range(t.shape.size)]
        tables.append(sides)
    return tables


def progressive(t: Tournament, number: int) -> Round:
    sat = t.sat_out()
    if number == 1:
        return first_progressive(t.players, t.shape, sat)
    prev = t.rounds[number - 2]
    tables = moved(t, prev)
    out = choose_sitters(t.players, len(prev.sitting_out), sat)
    back = [p for p in prev.sitting_out if p not in out]
    # a player sitting out leaves a seat; a player coming back takes it
    swap: dict[str, str] = {}
    for sides in tables:
        for side in sides:
            for p in side:
                if p in out:
                    swap[p] = back[len(swap)]
    seated = tuple(Seating(i + 1, tuple(tuple(swap.get(p, p) for p in side) for side in sides))
                   for i, sides in enumerate(tables))
    return Round(number, seated, tuple(p for p in t.players if p in out))


# ---------------------------------------------------------------------------
# Fixed teams: round robin and Swiss


def _round_of(t: Tournament, number: int, pairs: list[tuple[int, int]], byes: list[int]) -> Round:
    tables = tuple(Seating(n, (t.teams[a], t.teams[b])) for n, (a, b) in enumerate(pairs, 1))
    out = tuple(p for i in sorted(byes) for p in t.teams[i])
    return Round(number, tables, out)


def circle(n: int, number: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Round `number` of the circle method for n teams: (pairs, byes).

    One place stays put and the others turn one step a round; with an odd count the fixed place
    is empty, and the team drawn against it has the bye (each team once over the cycle).
    """
    ids: list[int | None] = list(range(n))
    if n % 2:
        ids.insert(0, None)
    m = len(ids)
    k = (number - 1) % (m - 1)
    rest = ids[1:]
    rest = rest[-k:] + rest[:-k] if k else rest
    order = [ids[0], *rest]
    pairs, byes = [], []
    for i in range(m // 2):
        a, b = order[i], order[m - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            pairs.append((a, b) if i % 2 == 0 or number % 2 else (b, a))
    return pairs, [b for b in byes if b is not None]


def round_robin(t: Tournament, number: int) -> Round:
    """The next round of the circle method whose games have not been played: round `number` for a file
    pitchkeeper seated, and still no rematch for one whose earlier rounds were typed in by hand."""
    _wins, _points, met, _byes = records(t)
    full = len(t.teams) - 1 if len(t.teams) % 2 == 0 else len(t.teams)
    if number > full:
        raise PitchError(f"a round robin of {len(t.teams)} teams has {full} rounds")
    for k in [number, *range(1, full + 1)]:
        pairs, byes = circle(len(t.teams), k)
        if not any(frozenset(p) in met for p in pairs):
            return _round_of(t, number, pairs, byes)
    raise PitchError(f"every round of the cycle repeats a game already played; round {number} cannot be seated")


def records(t: Tournament) -> tuple[list[int], list[int], set[frozenset[int]], list[int]]:
    """Per team: wins, points and byes so far; and the pairs of teams that have met."""
    idx = {frozenset(tm): i for i, tm in enumerate(t.teams)}
    wins = [0] * len(t.teams)
    points = [0] * len(t.teams)
    byes = [0] * len(t.teams)
    met: set[frozenset[int]] = set()
    for rnd in t.rounds:
        for seat in rnd.tables:
            ids = [idx[frozenset(s)] for s in seat.sides]
            met.add(frozenset(ids))
            res = t.final.get((rnd.number, seat.table))
            if res is not None:
                wins[ids[res.winner]] += 1
                for i, sc in zip(ids, res.scores, strict=True):
                    points[i] += sc
        for i, tm in enumerate(t.teams):
            if tm[0] in rnd.sitting_out:
                byes[i] += 1
    return wins, points, met, byes


def pair(order: Sequence[int], met: set[frozenset[int]], allow_rematch: bool = False) -> list[tuple[int, int]] | None:
    """Pair teams listed best first, each with the nearest one below it that it has not met.

    Backtracking: when the rest cannot be paired, the next-nearest opponent is tried, so a pairing
    without a rematch is found whenever one exists. Sets of teams already shown unpairable are
    remembered, which keeps the search small even late in a long event.
    """
    dead: set[frozenset[int]] = set()

    def go(rest: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        key = frozenset(rest)
        if key in dead:
            return None
        a = rest[0]
        order: Sequence[int] = range(1, len(rest))
        if allow_rematch:  # still a new opponent first where there is one
            order = sorted(order, key=lambda j: frozenset((a, rest[j])) in met)
        for j in order:
            b = rest[j]
            if not allow_rematch and frozenset((a, b)) in met:
                continue
            tail = go(rest[1:j] + rest[j + 1:])
            if tail is not None:
                return [(a, b), *tail]
        dead.add(key)
        return None

    return go(tuple(order))


def swiss(t: Tournament, number: int) -> Round:
    """Teams with equal or nearest records meet (wins, then points, then seed order); no rematch while a
    pairing without one exists. With an odd count the bye goes to the lowest-placed team with the fewest
    byes whose absence still leaves such a pairing."""
    wins, points, met, byes = records(t)
    order = sorted(range(len(t.teams)), key=lambda i: (-wins[i], -points[i], i))
    candidates = [None] if len(order) % 2 == 0 else sorted(reversed(order), key=lambda i: byes[i])
    for allow in (False, True):
        for bye in candidates:
            rest = [i for i in order if i != bye]
            pairs = pair(rest, met, allow)
            if pairs is not None:
                return _round_of(t, number, pairs, [] if bye is None else [bye])
    raise AssertionError("a pairing that allows rematches always exists")

