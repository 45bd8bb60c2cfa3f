"""The solver (game.solver, game.search): exact against a brute-force minimax scored by the verdict engine,
and the properties a double-dummy value must have, on every built-in ruleset.

The brute force (tests/solver_ref.py) plays every legal line with game.play's own functions and judges
each finished hand as a record with the verdict engine; it shares nothing with the search. The
thousands-of-positions runs, and the compiled core against the pure one, are the `compiled` tier
(tests/test_solver_compiled.py)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
import solver_ref as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets, solver

NAMES = rulesets.builtin_names()
EACH = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # per ruleset


def test_every_built_in_ruleset_is_covered() -> None:
    assert len(NAMES) == 13


@pytest.mark.parametrize("name", NAMES)
@EACH
@given(seed=st.integers(0, 2**32 - 1))
def test_the_value_is_the_brute_force_minimax_with_up_to_three_tricks_left(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    state = ref.random_position(g, rng, 3)
    want = ref.brute(g, state)
    pos = ref.position(g, state)
    assert solver.solve(g.deal, pos) == want
    # the naive search (no table, no equivalent cards) agrees too: the techniques change no answer
    assert solver.Solver(g.deal, pos, tt=False, equivalence=False).value() == want


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_larger_tables_agree_with_the_brute_force_with_up_to_two_tricks_left(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng)  # up to 9 players, 2 to 4 sides
    state = ref.random_position(g, rng, 2)
    assert solver.solve(g.deal, ref.position(g, state)) == ref.brute(g, state)



@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_pure_core_agrees_with_the_brute_force_along_a_line_of_one_search(name: str, seed: int) -> None:
    """One plain-Python search asked position after position of one line, then back again (push and pop):
    what it keeps between questions - the table, and what the cards held give its bounds and key (game.search)
    - never changes an answer."""
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    state = ref.random_position(g, rng, 3)
    s = solver.Solver(g.deal, ref.position(g, state), "pure")
    want = [ref.brute(g, state)]
    assert s.value() == want[0]
    for _ in range(rng.randint(1, 6)):
        player, cards = ref.due(g, state)
        if player is None:
            break
        card = rng.choice(cards)
        s.push(card)
        state = ref.after(g, state, player, card)
        want.append(ref.brute(g, state))
        assert s.value() == want[-1]
    for v in reversed(want[:-1]):
        s.pop()
        assert s.value() == v


def _after_each(s: solver.Solver) -> list[int]:
    """The value after each card the player to play may play, in the order of `moves`."""
    values = []
    for card in s.moves():
        s.push(card)
        values.append(s.value())
        s.pop()
    return values


def _children(g: ref.Game, state: ref.State) -> tuple[bool, int, list[int]]:
    s = solver.Solver(g.deal, ref.position(g, state))
    v = s.value()
    return s.bidding(), v, _after_each(s)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
def test_a_card_never_raises_the_value_for_the_bidding_side_nor_lowers_it_for_a_defender(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    state = ref.random_position(g, rng, 5)
    if ref.due(g, state)[0] is None:
        return
    bidding, v, values = _children(g, state)
    assert values
    if bidding:
        assert all(x <= v for x in values)
        assert max(values) == v  # the value is the value after the best card
    else:
        assert all(x >= v for x in values)
        assert min(values) == v


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
def test_par_is_the_value_after_the_best_first_card(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    start = solver.start_of_play(g.deal, g.held, g.first_leader)
    s = solver.Solver(g.deal, start)
    par = s.value()
    after = _after_each(s)
    assert (max(after) if s.bidding() else min(after)) == par
    assert set(s.best(par)) == {c for c, v in zip(s.moves(), after, strict=True) if v == par}


def _every_line(g: ref.Game, state: ref.State) -> list[int]:
    p, cards = ref.due(g, state)
    if p is None:
        return [ref.taken(g, state.done)]
    return [v for c in cards for v in _every_line(g, ref.after(g, state, p, c))]


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
def test_the_value_lies_between_the_least_and_the_most_any_line_of_play_gives(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    state = ref.random_position(g, rng, 2)
    lines = _every_line(g, state)
    s = solver.Solver(g.deal, ref.position(g, state))
    lo, hi = s.search.bounds()  # the points already taken, and those plus the points still out
    v = s.value()
    assert min(lines) <= v <= max(lines)
    assert lo <= min(lines) and max(lines) <= hi


def test_a_whole_hand_played_out_perfectly_is_judged_at_its_par() -> None:
    """Par is what the verdict engine gives the line of perfect play: the solver and the judge agree."""
    rng = random.Random(7)
    for name in NAMES:
        g = ref.random_game(name, rng, max_players=4)
        s = solver.Solver(g.deal, solver.start_of_play(g.deal, g.held, g.first_leader))
        par = s.value()
        state = ref.begin(g)
        while (p := s.to_play()) is not None:
            card = s.best(s.value())[0]
            s.push(card)
            state = ref.after(g, state, p, card)
        assert ref.taken(g, state.done) == par, name


def test_a_bad_position_is_one_line() -> None:
    rng = random.Random(3)
    g = ref.random_game("seven-point", rng)
    held = {p: list(cs) for p, cs in g.held.items()}
    first, second = g.players[:2]
    held[second] = [*held[second], held[first][0]]
    with pytest.raises(PitchError, match="is both held by"):
        solver.Solver(g.deal, solver.start_of_play(g.deal, held, g.first_leader))
    with pytest.raises(PitchError, match="not in seven-point's deck"):
        solver.Solver(g.deal, solver.start_of_play(g.deal, {first: ["JK"]}, first))
    with pytest.raises(PitchError, match="not at the table"):
        solver.Solver(g.deal, solver.Position({"Zed": ["AS"]}, (), first))


def test_without_cython_installed_the_plain_python_solver_runs_as_written() -> None:
    """The core's Cython declarations stand for nothing where Cython is not installed (game.cython_shadow)."""
    code = ("import sys\nsys.modules['cython'] = None  # as on a machine without Cython\n"
            "from pitchkeeper.game import rulesets, solver\n"
            "r = rulesets.load('seven-point')\n"
            "d = solver.deal_of(r, 'S', ('A', 'B', 'C', 'D'), {'Us': ['A', 'C'], 'Them': ['B', 'D']}, 'A')\n"
            "held = {'A': ['AS', 'KS', '2H', '3H', '4H', '5H'], 'B': ['QS', 'JS', '6H', '7H', '8H', '9H'],\n"
            "        'C': ['10S', '2S', 'AH', 'KH', 'QH', 'JH'], 'D': ['3S', '4S', '10H', '2D', '3D', '4D']}\n"
            "s = solver.Solver(d, solver.start_of_play(d, held, 'A'), 'pure')\n"
            "print(s.value(), solver.cores()['pure'].COMPILED)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    held = {"A": ["AS", "KS", "2H", "3H", "4H", "5H"], "B": ["QS", "JS", "6H", "7H", "8H", "9H"],
            "C": ["10S", "2S", "AH", "KH", "QH", "JH"], "D": ["3S", "4S", "10H", "2D", "3D", "4D"]}
    d = solver.deal_of(rulesets.load("seven-point"), "S", ("A", "B", "C", "D"), {"Us": ["A", "C"], "Them": ["B", "D"]}, "A")
    assert r.stdout.split() == [str(solver.solve(d, solver.start_of_play(d, held, "A"))), "False"]
