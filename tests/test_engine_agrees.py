"""The fast verdict engine agrees with a naive scorer written from the rules, on random deals of
every built-in ruleset (hypothesis), and with the engine's own careful path, reasons included.

The naive scorer (benchmarks/naive_scorer.py) is the benchmark's baseline: it shares no code with
pitchkeeper.game.scoring, reading only the ruleset's data and the parsed hand.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, sampling, scoring

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from helpers import variant
from naive_scorer import NaiveScorer

NAMES = rulesets.builtin_names()
LOADED = {n: rulesets.load(n) for n in NAMES}
NAIVE = NaiveScorer()
# every settlement rule: a set bidder loses the bid or nothing; the other sides score what they took or not
SETTLED = [variant(name, settle={"setback": setback, "defenders_score": defenders})
           for name in ("auction-pitch", "partnership-pitch", "trickster-10")
           for setback in ("bid", "none") for defenders in (True, False)]


def deal(name: str | rulesets.Ruleset, seed: int, quick: bool) -> tuple[rulesets.Ruleset, records.Table, records.Hand] | None:
    rs = LOADED[name] if isinstance(name, str) else name
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    record = sampling.random_hand(rs, rng, players, teams, quick=quick)
    try:
        return rs, table, records.parse_hand(record, table)
    except PitchError:
        return None


def same(a: scoring.Verdict, b: scoring.Verdict) -> None:
    """Two verdicts alike in everything a player is shown."""
    assert a.to_json() == b.to_json()
    assert [x.reason for x in a.awards] == [x.reason for x in b.awards]
    assert a.settlement == b.settlement
    assert a.bid.reason == b.bid.reason
    assert (a.game is None) == (b.game is None)
    if a.game is not None and b.game is not None:
        assert a.game.reason == b.game.reason
        assert a.game.cards == b.game.cards


def judged_alike(rs: rulesets.Ruleset, table: object, hand: object) -> object:
    """The engine's verdict; None when it refuses the hand, after checking the careful path refuses it
    in the same words."""
    try:
        return scoring.verdict(rs, table, hand)
    except PitchError as e:
        with pytest.raises(PitchError) as careful:
            scoring._careful(rs, table, hand)
        assert str(careful.value) == str(e)
        return None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_the_engine_agrees_with_the_naive_scorer(name: str, seed: int, quick: bool) -> None:
    dealt = deal(name, seed, quick)
    if dealt is None:  # a sampled bid this ruleset refuses: both paths refuse it alike (below)
        return
    rs, table, hand = dealt
    try:
        expected = NAIVE.judge(rs, table, hand)
    except NotImplementedError:
        pytest.fail("the sampler made a hand beyond the naive scorer")
    v = judged_alike(rs, table, hand)
    if v is None:
        return
    assert v.to_json() == expected
    same(v, scoring._careful(rs, table, hand))
    same(scoring.verdict(rs, table, hand), v)  # judged again: from what the first verdict compiled


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1), st.sampled_from(["drop", "twice", "foreign", "split"]))
def test_bad_captured_cards_fail_alike_on_both_paths(name: str, seed: int, how: str) -> None:
    dealt = deal(name, seed, False)
    if dealt is None or dealt[2].captured is None:
        return
    rs, table, hand = dealt
    captured = [(k, list(cs)) for k, cs in hand.captured]
    cards = captured[0][1]
    if how == "drop" and cards:
        cards.pop()
    elif how == "twice" and cards:
        cards.append(cards[0])
    elif how == "foreign":
        cards.append("JK" if "JK" not in rs.deck else "HJ")  # a joker this deck lacks
    elif how == "split" and len(captured) > 1 and cards:
        captured[1][1].append(cards[-1])  # one card captured by two sides
    bad = records.Hand(**{**{f: getattr(hand, f) for f in hand._fields},
                          "captured": tuple((k, tuple(cs)) for k, cs in captured)})
    outcomes = []
    for judge in (scoring.verdict, scoring._careful):
        try:
            outcomes.append(judge(rs, table, bad).to_json())
        except PitchError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1))
def test_a_quick_entry_seen_before_at_the_table_agrees_whatever_the_bid(name: str, seed: int) -> None:
    """The engine keeps each quick entry it judged at a table (and makes the settlement afresh): the
    same entry again under every other bid of the sample (a sweep only the bidder may score now given
    to another side, say) gives the careful path's verdict or its error, and a verdict's dicts are its own."""
    rs = LOADED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    hands = []
    for _ in range(4):
        record = sampling.random_hand(rs, rng, players, teams, quick=True)
        try:
            hands.append(records.parse_hand(record, table))
        except PitchError:
            continue
    quick = [h for h in hands if h.points is not None]
    for hand in quick:
        for other in hands:  # this entry with each sampled bid (and dealer: a pitch of 0 is eldest hand's)
            again = records.Hand(**{**{f: getattr(hand, f) for f in hand._fields},
                                    "bid": other.bid, "dealer": other.dealer})
            outcomes: list[scoring.Verdict | str] = []
            for judge in (scoring._careful, scoring.verdict, scoring.verdict):
                try:
                    outcomes.append(judge(rs, table, again))
                except PitchError as e:
                    outcomes.append(str(e))
                if len(outcomes) == 1:
                    continue
                if isinstance(outcomes[-1], scoring.Verdict):
                    assert isinstance(outcomes[0], scoring.Verdict), outcomes
                    same(outcomes[-1], outcomes[0])
                    outcomes[-1].taken.clear()  # a caller may change what it was given: the next verdict
                    outcomes[-1].delta.clear()  # is unchanged
                else:
                    assert outcomes[-1] == outcomes[0]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SETTLED), st.integers(0, 2**32 - 1), st.booleans())
def test_every_settlement_rule_agrees_on_both_paths(rs: rulesets.Ruleset, seed: int, quick: bool) -> None:
    """The fast path makes only the score change of a plain settlement; its notes, made when read, are
    the careful path's under each settlement rule, and the naive scorer agrees on the change."""
    dealt = deal(rs, seed, quick)
    if dealt is None:
        return
    rs, table, hand = dealt
    v = judged_alike(rs, table, hand)
    if v is None:
        return
    careful_v = scoring._careful(rs, table, hand)
    same(v, careful_v)
    assert v.notes == careful_v.notes
    assert v.to_json() == NAIVE.judge(rs, table, hand)
