"""`analyse odds` against its own sampling: each trump's shares and mean are those of the layouts that
`odds.layouts` deals for the seed, each solved on its own (a fresh solver, nothing shared between
layouts), for random pitcher's hands of every built-in ruleset that gives odds. So whatever the odds
share between the layouts of one trump (game.solver.Shared) changes no answer."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pitchkeeper
from pitchkeeper.errors import PitchError
from pitchkeeper.game import odds, rulesets, solver

# a forced draw plays each layout's draw out first (tests/test_analyse.py checks it); the rest are dealt as played
NAMES = [n for n in rulesets.builtin_names() if not odds.forced_draw(rulesets.load(n))]
SAMPLES = 6


def test_rulesets_are_left_out_only_for_a_forced_draw() -> None:
    left_out = set(rulesets.builtin_names()) - set(NAMES)
    assert all(odds.forced_draw(rulesets.load(n)) for n in left_out)
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31 - 1), deal_seed=st.integers(0, 2**31 - 1))
def test_the_odds_are_the_values_of_their_own_layouts_each_solved_alone(name: str, seed: int, deal_seed: int) -> None:
    r = rulesets.load(name)
    rng = random.Random(deal_seed)
    hand = rng.sample(sorted(r.deck), r.settings["deck"]["hand_size"])
    players = rng.choice([n for n in r.settings["players"]["counts"] if n <= 4] or [min(r.settings["players"]["counts"])])
    try:
        got = pitchkeeper.bid_odds(hand, name, players=players, samples=SAMPLES, seed=seed)
    except PitchError:
        assume(False)  # refused in one line (tests/test_odds_errors.py): nothing to compare
        return
    seats, side_of = odds.seating(r, players)
    layouts = odds.layouts(r, tuple(got["cards"]), seats[1:], SAMPLES, seed)
    for t in got["trumps"]:
        if not t["possible"]:
            continue
        deal = solver.Deal(r, t["trump"], seats, side_of, side_of[odds.PITCHER], dealer=seats[-1])
        values = [solver.solve(deal, solver.start_of_play(deal, {odds.PITCHER: tuple(got["cards"]), **lay.hands},
                                                           odds.PITCHER)) for lay in layouts]
        tally = Counter(min(v, r.max_points) for v in values)
        assert t["points"] == {str(v): round(tally[v] / SAMPLES, 4) for v in range(r.max_points + 1)}
        assert t["mean"] == round(sum(values) / SAMPLES, 4)
        for b in odds.bids(r):
            if b != "smudge":
                assert t["make"][str(b)] == round(sum(v >= int(b) for v in values) / SAMPLES, 4)


def test_work_shared_between_layouts_belongs_to_one_deal() -> None:
    r = rulesets.load("seven-point")
    seats, side_of = odds.seating(r, 4)
    spades = solver.Deal(r, "S", seats, side_of, side_of[odds.PITCHER])
    held = {p: tuple(c) for p, c in zip(seats, (["AS", "KS", "5S", "2H", "9D", "JC"], ["QS", "JS", "3S", "4H", "5H", "6H"],
                                                 ["2S", "4S", "7D", "8D", "10D", "JD"], ["9S", "10S", "2C", "3C", "4C", "5C"]),
                                          strict=True)}
    shared = solver.Shared(spades)
    first = solver.Solver(spades, solver.start_of_play(spades, held, odds.PITCHER), shared=shared).value()
    assert shared.side_points  # the side points (game) asked of the point kinds are kept for the next layout
    assert solver.Solver(spades, solver.start_of_play(spades, held, odds.PITCHER), shared=shared).value() == first
    hearts = spades._replace(trump="H")
    with pytest.raises(ValueError):
        solver.Solver(hearts, solver.start_of_play(hearts, held, odds.PITCHER), shared=shared)
