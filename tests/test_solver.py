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


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_lead_tried_first_as_the_killer_changes_no_answer(name: str, seed: int) -> None:
    """The killer (game.search: at a lead, the lead that last refuted a lead with as many cards held) only
    orders the leads: a search whose killers are planted at random - cards held or not, good leads or bad -
    gives the brute-force value and the same best cards as a fresh search."""
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    state = ref.random_position(g, rng, 3)
    pos = ref.position(g, state)
    want = ref.brute(g, state)
    fresh = solver.Solver(g.deal, pos, "pure")
    assert fresh.value() == want
    planted = solver.Solver(g.deal, pos, "pure")
    for i in range(64):
        planted.search.killer[i] = rng.randrange(-1, 64)
    assert planted.value() == want
    assert planted.best(want) == fresh.best(want)


def test_the_killer_is_set_by_the_leads_that_refute_and_agrees_with_the_brute_force() -> None:
    """The heuristic fires: searches of positions with three tricks left keep leads that refuted (the
    killers), and their values are the brute force's."""
    rng = random.Random(21)
    searched = fired = 0
    while searched < 12:
        g = ref.random_game("seven-point", rng, max_players=4)
        state = ref.random_position(g, rng, 3)
        if ref.tricks_left(g, state) < 3:
            continue
        searched += 1
        s = solver.Solver(g.deal, ref.position(g, state), "pure")
        assert s.value() == ref.brute(g, state)
        fired += any(k >= 0 for k in s.search.killer)
    assert fired >= 3


@pytest.mark.parametrize("name", NAMES)
def test_a_hand_of_one_card_may_play_what_the_follow_rules_allow_it(name: str) -> None:
    """The last forced trick (game.search) asks `solo` whether a seat may play its one card: for every card,
    suit led and first trick or not, that is what the follow rules give a hand of that card alone."""
    g = ref.random_game(name, random.Random(name), max_players=4)
    s = solver.Solver(g.deal, solver.start_of_play(g.deal, g.held, g.first_leader), "pure").search
    for first in (False, True):
        for led in range(6):
            for c in range(s.ncards):
                s.hands[0] = 1 << c
                assert bool((s.solo[(6 if first else 0) + led] >> c) & 1) == (s._allowed(0, led, first) == 1 << c)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_follower_sees_which_side_still_to_play_can_take_the_trick(name: str, seed: int) -> None:
    """Move ordering (game.search) reads who could still take the trick: `_tops` gives the best strength
    that the seats still to play of each side may play, and it beats the trick's best card exactly when, by
    the rules (game.play through the brute force's helpers), one of those seats has a card it may play that
    would win the trick - and the value is still the brute force's."""
    rng = random.Random(seed)
    for _ in range(50):
        g = ref.random_game(name, rng, max_players=4)
        state = ref.random_position(g, rng, 2)
        if state.trick:
            break
    else:
        return  # (no trick in progress found: nothing to ask)
    due, _ = ref.due(g, state)
    assert due is not None
    bidding = g.side_of[g.bidder]
    n, start = len(g.players), g.players.index(state.leader)
    after = [g.players[(start + k) % n] for k in range((g.players.index(due) - start) % n + 1, n)]
    led = g.ruleset.views[g.trump].suit[state.trick[0][1]]

    def beaten(ally: bool) -> bool:
        return any(ref.winner(g, state.done, (*state.trick, (p, c))) == p for p in after
                   if ((g.side_of[p] == bidding) == (g.side_of[due] == bidding)) == ally
                   for c in ref._allowed(g, state, p, led))

    s = solver.Solver(g.deal, ref.position(g, state), "pure")
    assert s.bidding() == (g.side_of[due] == bidding)
    assert (s.search.best_rank < s.search._tops(s.bidding())) == beaten(False)
    assert (s.search.best_rank < s.search.ally_top) == beaten(True)
    assert s.value() == ref.brute(g, state)


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
