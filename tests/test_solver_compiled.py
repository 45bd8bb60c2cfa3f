"""The compiled solver core against the pure-Python one: the same value on thousands of random positions of
all 13 built-in rulesets and of every house file of examples/house-rules, and an install without a C
compiler that still works.

The `compiled` tier (`python -m pytest -m compiled`, run by .ci/run after it has checked that the compiled
core is built): a machine without a C compiler has no compiled core to compare."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import solver_ref as ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_solver_house import JOKER_VARIANTS, with_both_jokers

import pitchkeeper
from pitchkeeper.errors import PitchError
from pitchkeeper.game import odds, rulesets, solver

pytestmark = pytest.mark.compiled
NAMES = rulesets.builtin_names()
ROOT = Path(__file__).resolve().parent.parent
MANY = settings(max_examples=160, deadline=None, suppress_health_check=list(HealthCheck))  # per ruleset: 2,080


def test_the_compiled_core_is_built_from_this_source() -> None:
    have = solver.cores()
    assert set(have) == {"compiled", "pure"}
    assert have["compiled"].COMPILED and not have["pure"].COMPILED
    assert have["compiled"].__file__.endswith((".so", ".pyd"))


@pytest.mark.parametrize("seed", [209, 229, 236])
def test_a_search_that_outgrows_its_first_table_keeps_the_value_and_best_cards(seed: int) -> None:
    """6 and 7 seats of solo-pitch, five tricks left: searches past the first table's size, where the compiled
    table grows, keeps two positions per bucket and keys its entries up to cards that play alike. The
    same search with no table at all is the reference."""
    rng = random.Random(seed)
    g = ref.random_game("solo-pitch", rng)
    assert len(g.deal.players) >= 6
    pos = ref.position(g, ref.random_position(g, rng, 5))
    s = solver.Solver(g.deal, pos, "compiled")
    value = s.value()
    assert s.nodes > 4096 * 64  # past the first table: it grew
    bare = solver.Solver(g.deal, pos, "compiled", tt=False)
    assert bare.value() == value
    if s.to_play():
        assert sorted(s.best(value)) == sorted(bare.best(value))


def same_in_both_cores(deal: solver.Deal, pos: solver.Position) -> int:
    """The position's value, asserted the same from the compiled core and the pure one, and so are the
    best cards of the player to play."""
    fast = solver.Solver(deal, pos, "compiled")
    pure = solver.Solver(deal, pos, "pure")
    v = fast.value()
    assert pure.value() == v
    if fast.to_play() is not None:
        assert fast.best(v) == pure.best(v)
    return v


@pytest.mark.parametrize("name", NAMES)
@MANY
@given(seed=st.integers(0, 2**32 - 1))
def test_both_cores_give_the_same_value_and_best_cards_on_random_positions(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng)
    state = ref.random_position(g, rng, 4)
    pos = ref.position(g, state)
    same_in_both_cores(g.deal, pos)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_both_cores_and_the_naive_search_agree_on_whole_deals(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=4)
    start = solver.start_of_play(g.deal, g.held, g.first_leader)
    v = solver.solve(g.deal, start, "compiled")
    assert solver.solve(g.deal, start, "pure") == v
    assert solver.Solver(g.deal, start, "compiled", tt=False, equivalence=False).value() == v


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**31 - 1))
def test_both_cores_give_the_same_odds(name: str, seed: int) -> None:
    """The odds, with the work their layouts share (game.solver.Shared), are the same from either core."""
    r = rulesets.load(name)
    rng = random.Random(seed)
    size = r.settings["deck"]["deal_size"] if odds.forced_draw(r) else r.settings["deck"]["hand_size"]
    hand = rng.sample(sorted(r.deck), size or r.settings["deck"]["hand_size"])
    try:
        fast = pitchkeeper.bid_odds(hand, r, samples=8, seed=seed, core="compiled")
    except PitchError:
        assume(False)
        return
    assert pitchkeeper.bid_odds(hand, r, samples=8, seed=seed, core="pure") == fast


def test_an_install_without_a_c_compiler_builds_the_pure_solver_and_works(tmp_path: Path) -> None:
    env = {**os.environ, "CC": str(tmp_path / "no-such-compiler"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                       env=env, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    wheel = next(tmp_path.glob("pitchkeeper-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {"pitchkeeper/game/search.py", "pitchkeeper/game/hand_state.py"} <= set(names)
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert wheel.name.endswith("-py3-none-any.whl")
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = ("import pitchkeeper\nfrom pitchkeeper.game import solver\nassert list(solver.cores()) == ['pure']\n"
            "print(pitchkeeper.bid_odds('AS KS 5S 2H 9D JC', 'seven-point', trump='S', samples=3, seed=1)['trumps'][0]['mean'])")
    r = subprocess.run([sys.executable, "-c", code], env={**env, "PYTHONPATH": str(target)}, capture_output=True, text=True,
                       check=False, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout) > 0


@pytest.mark.parametrize("name", ref.HOUSE_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_both_cores_agree_on_every_house_file_and_with_the_brute_force(name: str, seed: int) -> None:
    """Issue 22's house files (a kitty, a draw, a called partner, look-alike jokers, tie rules...): the same
    value and best cards from both cores, and the brute force's value with up to two tricks left."""
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=5)
    state = ref.random_position(g, rng, 4)
    pos = ref.position(g, state)
    v = same_in_both_cores(g.deal, pos)
    if ref.tricks_left(g, state) <= 2:
        assert v == ref.brute(g, state)


@pytest.mark.parametrize("r", JOKER_VARIANTS, ids=lambda r: "-".join(
    (r.settings["trump"]["identical_jokers"], r.by_id["high-joker"].to, r.settings["play"]["follow"])))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_both_cores_rename_look_alike_jokers_alike(r: rulesets.Ruleset, seed: int) -> None:
    rng = random.Random(seed)
    g = with_both_jokers(ref.random_game(r, rng, max_players=4), rng)
    state = ref.random_position(g, rng, 4)
    pos = ref.position(g, state)
    v = solver.solve(g.deal, pos, "compiled")
    assert solver.solve(g.deal, pos, "pure") == v
    assert solver.Solver(g.deal, pos, "compiled", tt=False, equivalence=False).value() == v
    if ref.tricks_left(g, state) <= 2:
        assert v == ref.brute(g, state)
