"""Properties of the verdict over random deals of every built-in ruleset (hypothesis), and its agreement
with a scorer written independently from the rules."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.game import bidding, records, rulesets, sampling, scoring

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from helpers import variant
from naive_scorer import NaiveScorer

NAMES = rulesets.builtin_names()
LOADED = {n: rulesets.load(n) for n in NAMES}


def deal(name: str, seed: int, quick: bool = False) -> tuple[rulesets.Ruleset, dict, records.Table, records.Hand]:
    rs = LOADED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    record = {"rules": name, "players": players, **({"teams": teams} if teams else {}),
              **sampling.random_hand(rs, rng, players, teams, quick=quick)}
    table, hand = records.parse_hand_record(record)
    return rs, record, table, hand


hands = st.tuples(st.sampled_from(NAMES), st.integers(0, 2**32 - 1))


@settings(max_examples=300, deadline=None)
@given(hands)
def test_every_card_in_play_is_counted_once_and_each_point_awarded_once(h: tuple[str, int]) -> None:
    rs, _record, table, hand = deal(*h)
    v = scoring.verdict(rs, table, hand)
    points = [a.point for a in v.awards]
    assert len(points) == len(set(points))
    assert set(points) <= {p.id for p in rs.points}
    in_play = [c for _, cs in hand.captured for c in cs]
    assert len(in_play) == len(set(in_play))
    if v.game is not None:
        values = rs.game_point.card_values
        assert sum(v.game.counts.values()) == sum(values[c] for c in in_play)
        counted = [c for cards in v.game.cards.values() for c, _ in cards]
        assert sorted(counted) == sorted(c for c in in_play if values[c])
    for a in v.awards:
        if a.card is not None:
            assert a.card in in_play


@settings(max_examples=300, deadline=None)
@given(hands)
def test_taken_is_the_sum_of_awards_and_delta_follows_the_setback_rule(h: tuple[str, int]) -> None:
    rs, _record, table, hand = deal(*h)
    v = scoring.verdict(rs, table, hand)
    assert set(v.taken) == set(v.delta) == set(table.sides)
    for side in table.sides:
        assert v.taken[side] == sum(a.value for a in v.awards if a.side == side)
    amount = v.bid.amount
    assert v.bid.made == (v.taken[v.bid.side] >= amount)
    for side in table.sides:
        if side != v.bid.side:
            assert v.delta[side] == v.taken[side]  # defenders always score
        elif v.bid.made:
            assert v.delta[side] == v.taken[side]
        else:
            assert v.delta[side] == -amount  # set back by the bid


@settings(max_examples=200, deadline=None)
@given(hands)
def test_high_and_low_are_the_extreme_trumps_in_play(h: tuple[str, int]) -> None:
    rs, _record, table, hand = deal(*h)
    v = scoring.verdict(rs, table, hand)
    strength = rs.views[hand.trump].strength
    trumps = [c for _, cs in hand.captured for c in cs if c in strength]
    by_point = {a.point: a for a in v.awards}
    for rule in rs.points:
        if rule.of == "highest-trump":
            assert by_point[rule.id].card == max(trumps, key=strength.__getitem__)
        if rule.of == "lowest-trump":
            assert by_point[rule.id].card == min(trumps, key=strength.__getitem__)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_quick_entry_of_the_same_awards_gives_the_same_scores(h: tuple[str, int]) -> None:
    """Entering by points what a captured-cards verdict awarded (to the player who won it, where one did)
    gives the same awards, points taken, bid and score change: quick entry and cards meet in one engine."""
    rs, record, table, hand = deal(*h)
    v = scoring.verdict(rs, table, hand)
    if not v.awards:
        return
    quick = {k: val for k, val in record.items() if k not in ("captured", "dealt")}
    quick["points"] = {a.point: a.player or a.side for a in v.awards}
    t2, h2 = records.parse_hand_record(quick)
    v2 = scoring.verdict(rs, t2, h2)
    assert [(a.point, a.side, a.value) for a in v2.awards] == [(a.point, a.side, a.value) for a in v.awards]
    assert all(a2.player == a.player for a2, a in zip(v2.awards, v.awards, strict=True) if a.card is not None)
    assert v2.taken == v.taken and v2.delta == v.delta and v2.bid == v.bid and v2.notes == v.notes
    assert (v2.game is None) == (v.game is None)
    if v.game is not None and v2.game is not None:
        assert v2.game.side == v.game.side


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands)
def test_judge_hand_json_round_trips(tmp_path: Path, h: tuple[str, int]) -> None:
    rs, record, table, hand = deal(*h)
    f = tmp_path / "hand.toml"
    f.write_text(tomli_w.dumps(record), encoding="utf-8")
    r = CliRunner().invoke(app, ["judge", "hand", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out == scoring.verdict(rs, table, hand).to_json()
    assert json.loads(json.dumps(out)) == out


def _noted(v: scoring.Verdict, table: records.Table) -> dict[str, int]:
    """Each side's score change as the settlement notes tell it, figure by figure."""
    out = dict.fromkeys(table.sides, 0)
    for kind, *values in v.notes:
        if kind in ("made", "no-contract", "excused", "defended"):
            out[values[0]] += values[1]
        elif kind == "set":
            out[values[0]] -= values[3]
        elif kind == "revoked":
            out[values[1]] -= values[2]
        elif kind == "sale":
            out[table.side_of(values[0])] += values[1]
    return out


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 2**32 - 1))
def test_the_settlement_notes_agree_with_the_figures_even_after_a_revoke(h: tuple[str, int], seed: int) -> None:
    """What the scorecard says each side scores adds up to the score change it shows (seed 001's revoke)."""
    rs, _record, table, hand = deal(*h)
    rng = random.Random(seed)
    revokes = tuple(rng.sample(table.players, rng.randint(0, 2)))
    v = scoring.verdict(rs, table, hand._replace(revokes=revokes))
    assert _noted(v, table) == v.delta, v.settlement


# ---------------------------------------------------------------------------
# Against a scorer written independently from the rules (benchmarks/naive_scorer.py): it shares no code with
# the engine, reading only the ruleset's data and the parsed hand.

# every settlement rule: a set bidder loses the bid or nothing; the other sides score what they took or not
SETTLED = [variant(name, settle={"setback": setback, "defenders_score": defenders})
           for name in ("auction-pitch", "partnership-pitch", "trickster-10")
           for setback in ("bid", "none") for defenders in (True, False)]
NAIVE = NaiveScorer()


def _sampled(rs: rulesets.Ruleset, seed: int, quick: bool) -> tuple[records.Table, records.Hand] | None:
    """A random hand of the ruleset as a person would enter it; None when the sampled bid is no bid there."""
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    hand = records.parse_hand(sampling.random_hand(rs, rng, players, teams, quick=quick), table)
    try:
        scoring.bid_amount(rs, hand)
        if hand.bid.amount == 0:
            bidding.check_bid(rs, table, hand)
    except PitchError:
        return None
    return table, hand


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_the_engine_agrees_with_the_naive_scorer(name: str, seed: int, quick: bool) -> None:
    rs = LOADED[name]
    dealt = _sampled(rs, seed, quick)
    if dealt is None:
        return
    table, hand = dealt
    assert scoring.verdict(rs, table, hand).to_json() == NAIVE.judge(rs, table, hand)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SETTLED), st.integers(0, 2**32 - 1), st.booleans())
def test_every_settlement_rule_agrees_with_the_naive_scorer(rs: rulesets.Ruleset, seed: int, quick: bool) -> None:
    """The score change under each settlement rule, and notes that add up to it."""
    dealt = _sampled(rs, seed, quick)
    if dealt is None:
        return
    table, hand = dealt
    v = scoring.verdict(rs, table, hand)
    assert v.to_json() == NAIVE.judge(rs, table, hand)
    assert _noted(v, table) == v.delta, v.settlement


@settings(max_examples=150, deadline=None)
@given(hands, st.sampled_from(["twice", "foreign", "split", "drop"]))
def test_a_card_captured_twice_or_not_in_the_deck_is_refused_naming_the_side(h: tuple[str, int], how: str) -> None:
    """Every card is captured once: a card listed twice, captured by two sides, not in the deck, or missing
    is refused in one line naming the key."""
    rs, _record, table, hand = deal(*h)
    assert hand.captured is not None
    captured = [(k, list(cs)) for k, cs in hand.captured]
    key, cards = captured[0]
    if how == "twice":
        cards.append(cards[0])
        message, where = f"{cards[0]} is listed twice for {key}", f"captured.{key}"
    elif how == "foreign":
        cards.append("JK" if "JK" not in rs.deck else "HJ")  # a joker this deck lacks
        message, where = f"{cards[-1]} is not in this ruleset's deck", f"captured.{key}"
    elif how == "split":
        if len(captured) < 2:
            return
        captured[1][1].append(cards[-1])
        message, where = f"{cards[-1]} is captured twice ({key} and {captured[1][0]})", f"captured.{captured[1][0]}"
    else:  # a card short: whole tricks no longer add up; in trump-only play, a trump dealt is then not captured
        lost = cards.pop()
        trump_only = rs.settings["play"]["follow"] == "trump-only"
        message, where = ("nobody captured it", "dealt.") if trump_only else ("cards", "captured")
        if trump_only and not any(lost in cs for _, cs in hand.dealt):
            return
    bad = hand._replace(captured=tuple((k, tuple(cs)) for k, cs in captured))
    with pytest.raises(PitchError) as e:
        scoring.verdict(rs, table, bad)
    assert message in e.value.message and e.value.where.startswith(where), (e.value.message, e.value.where)
    assert "\n" not in str(e.value)
