"""The solver under issue 22's house rules: exact against the brute force scored by the verdict engine, on
random positions of every house file of examples/house-rules, and on small deals that put each rule the
search must play by at stake: two look-alike jokers (renamed as they fall), the called card that its
holder must play to the first trick, a game tie to the elder hand. And `analyse hand` of house-rule hands.

The brute force (tests/solver_ref.py) deals a house file's hand through its kitty, draw and called partner,
plays every legal line with game.play's functions, ranks the jokers by the rule as it writes it, and judges
each finished hand, kitty, discard, called card and all, with the verdict engine."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest
import solver_ref as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pitchkeeper
from pitchkeeper.game import rulesets, solver
from pitchkeeper.game.rulesets import Ruleset

EACH = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))


def test_every_house_file_is_covered() -> None:
    assert len(ref.HOUSE_NAMES) >= 20
    assert {"smear-jick", "minnesota-smear", "call-partner-5", "two-hand-elder-tie", "widow-counts-for-game"} <= set(
        ref.HOUSE_NAMES)


@pytest.mark.parametrize("name", ref.HOUSE_NAMES)
@EACH
@given(seed=st.integers(0, 2**32 - 1))
def test_the_value_is_the_brute_force_minimax_on_every_house_file(name: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(name, rng, max_players=5)
    state = ref.random_position(g, rng, 3 if len(g.players) <= 4 else 2)
    want = ref.brute(g, state)
    pos = ref.position(g, state)
    assert solver.solve(g.deal, pos) == want
    assert solver.Solver(g.deal, pos, tt=False, equivalence=False).value() == want


# ---------------------------------------------------------------------------
# Small deals that put each rule at stake


def variant(name: str, **sections: dict[str, Any]) -> Ruleset:
    """A house file or built-in with some settings changed (each section's keys merged into the file's)."""
    data, _ = rulesets.load_merged(str(ref.HOUSE / f"{name}.toml") if name in ref.HOUSE_NAMES else name)
    data = copy.deepcopy(dict(data))
    for section, keys in sections.items():
        if section == "points":
            for pid, p in keys.items():
                data["points"][pid] = {**data["points"].get(pid, {}), **p}
        else:
            data[section] = {**data.get(section, {}), **keys}
    data["name"] = f"{name}-variant"
    return rulesets.compile_ruleset(data)


def joker_variants() -> list[Ruleset]:
    """Smear with look-alike jokers and hands of four: each rule of the two, with the jokers' points unequal
    (the high joker worth 2), also going to the player dealt it with the jokers the lowest trumps (so one may
    be low, to its holder), in each way of following."""
    out = []
    for rule, dealt, follow in itertools.product(("first-higher", "later-higher"), (False, True),
                                                 ("suit-or-trump", "suit", "trump-only")):
        points: dict[str, dict[str, Any]] = {"high-joker": {"value": 2, **({"to": "dealt"} if dealt else {})}}
        trump: dict[str, Any] = {"identical_jokers": rule}
        if dealt:
            points["low"] = {"natural": False}
            trump["order"] = [*(s for s in rulesets.load("seven-point").settings["trump"]["order"] if s not in ("HJ", "LJ")),
                              "HJ", "LJ"]
        out.append(variant("smear-jick", trump=trump, points=points, deck={"hand_size": 4},
                           play={"follow": follow}, players={"counts": [2, 3, 4], "team_sizes": [1, 2]}))
    return out


JOKER_VARIANTS = joker_variants()


def with_both_jokers(g: ref.Game, rng: random.Random) -> ref.Game:
    """The deal with both jokers held by someone (each put in place of a random card where it was not dealt)."""
    held = {p: list(cs) for p, cs in g.held.items()}
    for j in ("HJ", "LJ"):
        if not any(j in cs for cs in held.values()):
            p = rng.choice(list(held))
            held[p][rng.randrange(len(held[p]))] = j
    return g._replace(held={p: tuple(cs) for p, cs in held.items()})


@pytest.mark.parametrize("r", JOKER_VARIANTS, ids=lambda r: "-".join(
    (r.settings["trump"]["identical_jokers"], r.by_id["high-joker"].to, r.settings["play"]["follow"])))
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_look_alike_jokers_rank_by_the_order_they_fall_in_every_line(r: Ruleset, seed: int) -> None:
    rng = random.Random(seed)
    g = with_both_jokers(ref.random_game(r, rng, max_players=4), rng)
    for most in (4 if len(g.players) < 4 else 3, 2):
        state = ref.random_position(g, rng, most)
        want = ref.brute(g, state)
        pos = ref.position(g, state)
        assert solver.solve(g.deal, pos) == want
        assert solver.Solver(g.deal, pos, tt=False, equivalence=False).value() == want


@pytest.mark.parametrize(("rule", "lead", "follow", "alike", "apart"), [
    # later-higher: of two jokers in one trick the later wins; told apart, the HJ led wins
    ("later-higher", "HJ", "LJ", 0, 4),
    # first-higher: the first joker played is the higher; told apart, the HJ that follows wins
    ("first-higher", "LJ", "HJ", 4, 0),
])
def test_which_joker_wins_depends_on_the_order_they_fall(rule: str, lead: str, follow: str, alike: int,
                                                         apart: int) -> None:
    """Ann (bidding) leads one joker and Bob must follow with the other: high and the jokers' points (1, 2
    and 1) go to whoever the rule makes the higher."""
    def value(identical: str) -> int:
        r = variant("smear-jick", trump={"identical_jokers": identical}, deck={"hand_size": 1},
                    points={"high-joker": {"value": 2}}, players={"counts": [2], "team_sizes": [1]})
        deal = solver.deal_of(r, "S", ("Ann", "Bob"), None, "Ann")
        return solver.solve(deal, solver.start_of_play(deal, {"Ann": [lead], "Bob": [follow]}, "Ann"))

    assert value(rule) == alike
    assert value("no") == apart


def called_variant(base: str, **partner: Any) -> Ruleset:
    """A table of four or five that calls a partner, with hands of three: call-partner-5 itself (trump-only
    play, a trump called) without its draw, or seven-point's following play with any card called."""
    may = "trump" if base == "call-partner-5" else "any"
    return variant(base, deck={"hand_size": 3, "deal_size": 0}, draw={"discard": "none"},
                   partner={"counts": [4, 5], "may_call": may, "first_trick": True, "unheld": "alone",
                            "defenders": "together", **partner},
                   players={"counts": [4, 5], "team_sizes": [1]})


@pytest.mark.parametrize(("base", "defenders"), [("call-partner-5", "together"), ("call-partner-5", "each"),
                                                  ("seven-point", "together"), ("seven-point", "each")])
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_the_called_card_is_played_to_the_first_trick_in_every_line(base: str, defenders: str, seed: int) -> None:
    rng = random.Random(seed)
    g = ref.random_game(called_variant(base, defenders=defenders), rng, max_players=5)
    state = ref.random_position(g, rng, 3)
    want = ref.brute(g, state)
    pos = ref.position(g, state)
    assert solver.solve(g.deal, pos) == want
    assert solver.Solver(g.deal, pos, tt=False, equivalence=False).value() == want


def test_the_called_card_binds_its_holder_in_the_first_trick_and_costs_what_it_costs() -> None:
    """Ann bids and calls the 10 of hearts (10 for game); Cy holds it with the ace of trumps. In trick 1 Cy
    must throw the 10 under Dee's king, where the follow rules alone would make Cy win with the ace."""
    r = called_variant("seven-point")
    held = {"Ann": ("2S", "3C", "6D"), "Bob": ("QS", "4C", "7D"), "Cy": ("AS", "10H", "8C"), "Dee": ("KS", "5C", "9D")}
    g = ref.Game(r, "S", ("Ann", "Bob", "Cy", "Dee"), None, "Ann", "Dee", held,
                 {"called": "10H", "partner": "Cy"}, {"player": "Ann", "amount": 5})
    start = solver.start_of_play(g.deal, held, "Ann")
    bound = solver.solve(g.deal, start)
    assert bound == ref.brute(g, ref.begin(g))
    free = solver.solve(g.deal._replace(called=None), start)
    assert (bound, free) == (2, 3)  # the rule costs the bidding side a point: the search plays by it
    s = solver.Solver(g.deal, start)
    s.push("2S")
    s.push("QS")
    assert s.moves() == ["10H"]


def test_a_game_tie_goes_to_the_elder_hand_as_the_dealer_seats_it() -> None:
    """Two-hand Pitch where a tie for game goes to the elder hand: the same position has two values, one for
    each dealer, and each is the brute force's."""
    r = ref.load("two-hand-elder-tie")
    found = 0
    for seed in range(200):
        rng = random.Random(seed)
        g = ref.random_game(r, rng)
        state = ref.random_position(g, rng, 3)
        values = set()
        for dealer in g.players:
            gd = g._replace(dealer=dealer)
            v = solver.solve(gd.deal, ref.position(gd, state))
            assert v == ref.brute(gd, state)
            values.add(v)
        found += len(values) > 1
        if found >= 3:
            break
    assert found >= 3


# ---------------------------------------------------------------------------
# analyse hand on house-rule hands


def played(name: str, seed: int) -> tuple[ref.Game, list[ref.State], dict[str, Any]]:
    """A random deal of a house file played along a random legal line (solver_ref.played_hand)."""
    return ref.played_hand(name, seed, 4 if "partner" not in ref.load(name).features else 5,
                           str(ref.HOUSE / f"{name}.toml"))


@pytest.mark.parametrize("name", ["minnesota-smear", "smear-jick", "call-partner-5", "widow-counts-for-game",
                                  "trickster-4-shoot", "two-hand-elder-tie", "bicycle-smudge"])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_analyse_hand_of_a_house_rule_hand(name: str, seed: int) -> None:
    """Each card valued before and after, its cost, the cards that kept the value (against the brute force in
    the last two tricks), and the points a costly card gave away, named from two lines the verdict engine
    judged."""
    g, states, rec = played(name, seed)
    a = pitchkeeper.analyse_hand(rec)
    judged = pitchkeeper.judge_hand(rec)
    assert a["taken"] == judged["taken"][judged["bid"]["side"]]
    ref.check_plays(g, a)
    plays = a["plays"]
    for p in plays:
        if p["cost"]:
            assert p["lost"], p  # named: both lines were judged
    for p, state in zip(plays, states, strict=False):
        if ref.tricks_left(g, state) > 2:
            continue
        value, best = ref.brute_best(g, state)
        assert p["before"] == value
        if "jokers-alike" not in g.ruleset.features:
            assert set(p["best"]) == best
        else:  # the jokers as the analysis names them (by the record's line), the brute force's as dealt
            assert len(p["best"]) == len(best)
