"""Tournament seating and standings: the movement rules of spec section 8, fair sit-outs, no avoidable
Swiss rematch, tallies that equal their sums, shared ranks. Played in memory with random results."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.tournament import seating
from pitchkeeper.tournament.model import Result, Shape, Tournament, side_name
from pitchkeeper.tournament.standings import standings


def _tournament(fmt: str, n: int, shape: Shape, rounds: int) -> Tournament:
    players = tuple(f"P{i}" for i in range(n))
    teams: tuple[tuple[str, ...], ...] = ()
    if fmt != "progressive":
        teams = tuple(players[i:i + shape.size] for i in range(0, n - n % shape.size, shape.size))
        players = tuple(p for tm in teams for p in tm)
    return Tournament("partnership-pitch", fmt, shape, players, teams, rounds)


def _play(t: Tournament, draw: st.DrawFn) -> Tournament:
    """Seat the next round and record every table with drawn scores (the winner: the higher score, or any)."""
    rnd = seating.next_round(t)
    t = replace(t, rounds=(*t.rounds, rnd))
    results = []
    for seat in rnd.tables:
        scores = tuple(draw(st.integers(-10, 30)) for _ in seat.sides)
        winner = draw(st.integers(0, len(seat.sides) - 1))
        results.append(Result(rnd.number, seat.table, scores, winner))
    return replace(t, results=(*t.results, *results))


def _everyone_once(t: Tournament) -> None:
    for rnd in t.rounds:
        seated = [p for s in rnd.tables for p in s.players]
        assert sorted(seated + list(rnd.sitting_out)) == sorted(t.players)
        assert len(rnd.sitting_out) == len(t.players) % t.shape.seats if not t.teams else True


def _fair_sitouts(t: Tournament) -> None:
    """Nobody sits out twice while another has not: after every round the counts differ by one at most."""
    for r in range(1, len(t.rounds) + 1):
        counts = t.sat_out(r).values()
        assert max(counts) - min(counts) <= 1


def _tallies(t: Tournament) -> None:
    s = standings(t)
    sums = {p: [0, 0, 0] for p in t.players}
    for rnd in t.rounds:
        for seat in rnd.tables:
            res = t.final[(rnd.number, seat.table)]
            for i, side in enumerate(seat.sides):
                for p in side:
                    sums[p][0] += res.scores[i]
                    sums[p][1] += 1
                    sums[p][2] += i == res.winner
    for row in s["players"]:
        assert [row["points"], row["games"], row["wins"]] == sums[row["name"]]
    assert sum(r["points"] for r in s["players"]) == sum(
        sc * t.shape.size for res in t.final.values() for sc in res.scores)


@st.composite
def progressive_event(draw: st.DrawFn, shape: Shape) -> Tournament:
    n = draw(st.integers(shape.seats, shape.seats * 6 + shape.seats - 1))
    t = _tournament("progressive", n, shape, draw(st.integers(1, 6)))
    while len(t.rounds) < t.planned:
        t = _play(t, draw)
    return t


def _check_movement(t: Tournament) -> None:
    """Round by round, for every player who played both rounds: spec section 8's movement."""
    for prev, nxt in zip(t.rounds, t.rounds[1:], strict=False):
        last = len(prev.tables)
        where = {p: s.table for s in nxt.tables for p in s.players}
        movers: set[str] = set()
        for seat in prev.tables:
            res = t.final[(prev.number, seat.table)]
            if t.shape.sides == 2:
                losers = [1 - res.winner]
            else:  # individual play, several players a table: the head's last-placed player goes down
                others = [i for i in range(len(seat.sides)) if i != res.winner]
                losers = [min(others, key=lambda i: (res.scores[i], -i))] if seat.table == 1 else others
            for i, side in enumerate(seat.sides):
                won = i == res.winner
                head_goes = 1 if won or i not in losers else last
                goes = head_goes if seat.table == 1 else seat.table - 1 if won else seat.table
                for p in side:
                    if p in where:
                        assert where[p] == goes, (prev.number, p, seat.table, won)
                if goes != seat.table:
                    movers.update(side)
        prev_partner = {p: frozenset(side) for s in prev.tables for side in s.sides for p in side}
        came_back = set(prev.sitting_out)
        for seat in nxt.tables:
            for side in seat.sides:
                if len(side) < 2 or came_back & set(side):
                    continue
                if seat.table == 1:
                    assert frozenset(side) == prev_partner[side[0]]  # head table: nobody switches
                else:
                    assert len(movers & set(side)) == 1, (nxt.number, seat.table, side)  # one mover, one stayer


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_progressive_partnerships_follow_every_movement_rule(data: st.DataObject) -> None:
    t = data.draw(progressive_event(Shape(2, 2)))
    _everyone_once(t)
    _fair_sitouts(t)
    _check_movement(t)
    _tallies(t)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([Shape(2, 1), Shape(3, 1), Shape(4, 1)]))
def test_progressive_individual_play_moves_winners_up(data: st.DataObject, shape: Shape) -> None:
    t = data.draw(progressive_event(shape))
    _everyone_once(t)
    _fair_sitouts(t)
    _check_movement(t)
    _tallies(t)


def _matchable(teams: list[int], met: set[frozenset[int]]) -> bool:
    """By brute force: can these teams all be paired without a rematch?"""
    if not teams:
        return True
    a = teams[0]
    return any(frozenset((a, b)) not in met and _matchable([x for x in teams[1:] if x != b], met) for b in teams[1:])


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 11), st.sampled_from([1, 2]))
def test_swiss_never_pairs_a_rematch_while_another_pairing_exists(data: st.DataObject, n: int, size: int) -> None:
    t = _tournament("swiss", n * size, Shape(2, size), data.draw(st.integers(1, n + 1)))
    ids = {frozenset(tm): i for i, tm in enumerate(t.teams)}
    met: set[frozenset[int]] = set()
    while len(t.rounds) < t.planned:
        t = _play(t, data.draw)
        rnd = t.rounds[-1]
        pairs = [frozenset(ids[frozenset(s)] for s in seat.sides) for seat in rnd.tables]
        everyone = list(range(len(t.teams)))
        avoidable = (_matchable(everyone, met) if n % 2 == 0 else
                     any(_matchable([x for x in everyone if x != b], met) for b in everyone))
        if avoidable:
            assert not (set(pairs) & met), (rnd.number, pairs, met)
        assert len({i for p in pairs for i in p}) == 2 * len(pairs)
        assert len(rnd.sitting_out) == (n % 2) * size
        met |= set(pairs)
    _everyone_once(t)
    _tallies(t)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 12))
def test_round_robin_meets_every_team_once_and_gives_each_one_bye(data: st.DataObject, n: int) -> None:
    full = n - 1 if n % 2 == 0 else n
    t = _tournament("round-robin", n * 2, Shape(2, 2), full)
    while len(t.rounds) < t.planned:
        t = _play(t, data.draw)
    ids = {frozenset(tm): i for i, tm in enumerate(t.teams)}
    meetings = [frozenset(ids[frozenset(s)] for s in seat.sides) for r in t.rounds for seat in r.tables]
    assert len(meetings) == len(set(meetings)) == n * (n - 1) // 2
    byes = [tm[0] for r in t.rounds for tm in t.teams if tm[0] in r.sitting_out]
    assert sorted(byes) == (sorted(tm[0] for tm in t.teams) if n % 2 else [])
    _everyone_once(t)
    _tallies(t)
    assert standings(t)["finished"] is True


def test_a_correction_re_ranks_without_moving_anyone_already_seated() -> None:
    t = _tournament("progressive", 8, Shape(2, 2), 3)
    r1 = seating.next_round(t)
    t = replace(t, rounds=(r1,), results=(Result(1, 1, (21, 10), 0), Result(1, 2, (20, 5), 0)))
    r2 = seating.next_round(t)
    t = replace(t, rounds=(r1, r2))
    before = standings(t)
    t2 = replace(t, results=(*t.results, Result(1, 1, (10, 21), 1, correction=True)))
    after = standings(t2)
    assert t2.rounds[1] == r2  # seated rounds stay as seated
    top_before = {r["name"] for r in before["players"] if r["rank"] == 1}
    top_after = {r["name"] for r in after["players"] if r["rank"] == 1}
    assert top_before == {"P0", "P2"}
    assert top_after == {"P1", "P3"}  # the corrected winners of table 1 now lead


def test_the_next_round_waits_for_every_table() -> None:
    t = _tournament("progressive", 8, Shape(2, 2), 3)
    t = replace(t, rounds=(seating.next_round(t),), results=(Result(1, 1, (21, 10), 0),))
    with pytest.raises(PitchError, match=r"table\(s\) 2 have not reported"):
        seating.next_round(t)


def test_first_round_partners_sit_across() -> None:
    t = _tournament("progressive", 10, Shape(2, 2), 2)
    r = seating.next_round(t)
    assert [s.sides for s in r.tables] == [(("P0", "P2"), ("P1", "P3")), (("P4", "P6"), ("P5", "P7"))]
    assert r.sitting_out == ("P8", "P9")
    assert side_name(("Ann", "Cy")) == "Ann&Cy"
