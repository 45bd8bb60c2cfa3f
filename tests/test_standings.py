"""Standings as people expect them (issue 20): each format's tie-breaks in order - progressive by points,
then wins, then head-to-head; round robin by wins, points, head-to-head; Swiss by wins, points, opponents'
wins, head-to-head - or the order a tournament file sets; equal figures share a rank. Random events
played in memory, ranked by pitchkeeper and by the independent implementation in tests/night_ref.py."""

from __future__ import annotations

import itertools
from dataclasses import replace

import night_ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.tournament import model, seating
from pitchkeeper.tournament.model import Result, Round, Seating, Shape, Tournament, side_name
from pitchkeeper.tournament.standings import standings


def event(fmt: str, n: int, shape: Shape, rounds: int, order: tuple[str, ...] = ()) -> Tournament:
    players = tuple(f"P{i}" for i in range(n))
    teams: tuple[tuple[str, ...], ...] = ()
    if fmt != "progressive":
        teams = tuple(players[i:i + shape.size] for i in range(0, n - n % shape.size, shape.size))
        players = tuple(p for tm in teams for p in tm)
    return Tournament("partnership-pitch", fmt, shape, players, teams, rounds, tiebreak=order)


def play(t: Tournament, draw: st.DrawFn) -> Tournament:
    """Every round seated and recorded, scores from a narrow range so that ties on points and wins are common."""
    while len(t.rounds) < t.planned:
        rnd = seating.next_round(t)
        t = replace(t, rounds=(*t.rounds, rnd))
        results = [Result(rnd.number, s.table, tuple(draw(st.integers(0, 3)) for _ in s.sides),
                          draw(st.integers(0, len(s.sides) - 1))) for s in rnd.tables]
        t = replace(t, results=(*t.results, *results))
    return t


def reference(t: Tournament, teams: bool) -> list[tuple[str, int, int, int, int]]:
    games = []
    for rnd in t.rounds:
        for seat in rnd.tables:
            res = t.final[(rnd.number, seat.table)]
            sides = [[side_name(s)] if teams else list(s) for s in seat.sides]
            games.append((sides, list(res.scores), res.winner))
    units = [side_name(tm) for tm in t.teams] if teams else list(t.players)
    return night_ref.standings(units, games, t.order)


SHAPES = {"progressive": [Shape(2, 2), Shape(4, 1), Shape(2, 1)], "round-robin": [Shape(2, 2), Shape(2, 1)],
          "swiss": [Shape(2, 2), Shape(2, 1)]}


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from(["progressive", "round-robin", "swiss"]))
def test_each_format_ranks_by_its_own_tiebreaks(data: st.DataObject, fmt: str) -> None:
    shape = data.draw(st.sampled_from(SHAPES[fmt]))
    n = data.draw(st.integers(shape.seats, shape.seats * 4 + (shape.size if fmt != "progressive" else 3)))
    if fmt != "progressive" and n // shape.size < 2:
        return
    rounds = data.draw(st.integers(1, 4))
    if fmt == "round-robin":
        units = n // shape.size
        rounds = min(rounds, units - 1 if units % 2 == 0 else units)
    t = play(event(fmt, n, shape, rounds), data.draw)
    s = standings(t)
    assert s["tiebreak"] == night_ref.ORDERS[fmt]
    assert night_ref.as_rows(s["players"]) == reference(t, teams=False)
    if "teams" in s:
        assert night_ref.as_rows(s["teams"]) == reference(t, teams=True)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.permutations(list(model.CRITERIA)), st.integers(1, 4))
def test_a_tiebreak_set_in_the_file_is_the_order_used(data: st.DataObject, order: list[str], keep: int) -> None:
    t = play(event("progressive", data.draw(st.integers(8, 14)), Shape(2, 2), 3, tuple(order[:keep])), data.draw)
    s = standings(t)
    assert s["tiebreak"] == order[:keep]
    assert night_ref.as_rows(s["players"]) == reference(t, teams=False)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_ranks_are_one_based_and_equal_figures_share_one(data: st.DataObject) -> None:
    t = play(event("progressive", data.draw(st.integers(4, 17)), Shape(2, 2), 3), data.draw)
    rows = standings(t)["players"]
    assert rows[0]["rank"] == 1
    for before, after in itertools.pairwise(rows):
        if after["rank"] == before["rank"]:  # shared: level on points and wins (head-to-head left them level)
            assert (after["points"], after["wins"]) == (before["points"], before["wins"])
        else:  # a rank counts everyone ahead
            assert after["rank"] == rows.index(after) + 1 and after["rank"] > before["rank"]


def one_a_side(games: list[list[tuple[str, str, int]]]) -> Tournament:
    """A progressive event of one player a side, seated as given: each round's games (first, second, winner),
    every game 10-10 (so that points never separate anyone)."""
    players = tuple(sorted({p for rnd in games for g in rnd for p in g[:2]}))
    rounds = tuple(Round(n, tuple(Seating(k, ((a,), (b,))) for k, (a, b, _) in enumerate(rnd, 1)))
                   for n, rnd in enumerate(games, 1))
    results = tuple(Result(n, k, (10, 10), w) for n, rnd in enumerate(games, 1) for k, (_, _, w) in enumerate(rnd, 1))
    return Tournament("solo-pitch", "progressive", Shape(2, 1), players, (), len(rounds), rounds, results)


def ranks(t: Tournament) -> dict[str, int]:
    return {r["name"]: r["rank"] for r in standings(t)["players"]}


def test_progressive_breaks_a_tie_on_points_by_wins_then_by_the_game_they_played() -> None:
    # everyone scores 20; D won twice; A and B won once each, and A beat B: A ranks above B; C won nothing
    t = one_a_side([[("A", "B", 0), ("C", "D", 1)], [("A", "D", 1), ("B", "C", 0)]])
    assert ranks(t) == {"D": 1, "A": 2, "B": 3, "C": 4}
    # A and B level and never met: level they stay, sharing the rank
    t = one_a_side([[("A", "C", 0), ("B", "D", 0)], [("A", "D", 1), ("B", "C", 1)]])
    assert ranks(t) == {"A": 1, "B": 1, "C": 1, "D": 1}
    # three level where only two of them met: head-to-head is not used for the three (as chess has it)
    t = one_a_side([[("A", "B", 0), ("C", "D", 0)], [("B", "C", 0), ("A", "D", 1)]])
    level = ranks(t)
    assert level["A"] == level["B"] == level["C"] == 1 and level["D"] == 1  # everyone one win, twenty points
    # a file that ranks by wins only: head-to-head is not used at all
    t = replace(one_a_side([[("A", "B", 0), ("C", "D", 1)], [("A", "D", 1), ("B", "C", 0)]]), tiebreak=("wins",))
    assert ranks(t) == {"D": 1, "A": 2, "B": 2, "C": 4}


@pytest.mark.parametrize(("raw", "says"), [
    ([], "expected a list of points, wins, head-to-head or opponents-wins"),
    (["points", "wins", "points"], "points is given twice"),
    (["point"], "did you mean points"),
    ("wins, head-to-head", None),
])
def test_the_tiebreak_setting_is_checked(raw: object, says: str | None) -> None:
    if says is None:
        assert model.parse_tiebreak(raw, "tiebreak") == ("wins", "head-to-head")
        return
    with pytest.raises(PitchError, match=says):
        model.parse_tiebreak(raw, "tiebreak")
