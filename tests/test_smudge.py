"""Shoot the moon (the smudge bid: what it needs, what it pays, in the hole), and a side that takes every
point winning at once (Bicycle's smudge)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, sampling, scoring
from pitchkeeper.game.match import parse_match, replay

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
TEN = ("ace", "jack", "off-jack", "high-joker", "low-joker", "ten", "three", "deuce")  # 10-point's points (three: 3)


def house(name: str) -> rulesets.Ruleset:
    return rulesets.load(HOUSE / f"{name}.toml")


def hand(dealer: str, bidder: str, amount: int | str, points: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "trump": "S", "bid": {"player": bidder, "amount": amount}, "points": points, **extra}


def play(r: rulesets.Ruleset, hands: list[dict[str, Any]], teams: dict[str, list[str]] | None = TEAMS,
         players: list[str] = FOUR, **header: Any) -> Any:
    data: dict[str, Any] = {"rules": r.name, "players": players, "hands": hands, **header}
    if teams:
        data["teams"] = teams
    return replay(r, parse_match(data))


def judge(r: rulesets.Ruleset, rec: dict[str, Any], teams: dict[str, list[str]] | None = TEAMS,
          players: list[str] = FOUR) -> scoring.Verdict:
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    return scoring.verdict(r, table, records.parse_hand(rec, table))


def all_to(side: str, but: dict[str, str] | None = None) -> dict[str, str]:
    return {p: side for p in TEN} | (but or {})


def test_a_moon_made_wins_the_game_at_once():
    moon = house("moon-10")
    state = play(moon, [hand("Dee", "Ann", "moon", all_to("Us"))])
    # all ten points: Us scores what it took (10) and wins, far from 32
    assert state.winner == "Us" and state.scores == {"Us": 10, "Them": 0}
    assert state.ending is not None and state.ending.reason == "Us bid moon and made it: the game is won at once " \
                                                                "(smudge.made)"
    j = state.hands[0].verdict.to_json()
    assert j["instant"] == {"side": "Us", "how": "smudge-made", "why": state.ending.reason}
    assert j["bid"]["amount"] == "smudge"


def test_a_moon_set_loses_the_game_at_once():
    moon = house("moon-10")
    state = play(moon, [hand("Dee", "Ann", "moon", all_to("Us", {"deuce": "Them"}))])
    assert state.winner == "Them" and state.scores == {"Us": -11, "Them": 1}
    assert "Us bid moon and fell short: the game is lost at once (smudge.set)" in state.hands[0].verdict.settlement


def test_a_moon_made_in_the_hole_goes_to_zero_instead():
    moon = house("moon-10")
    set_first = hand("Dee", "Ann", 6, {"ace": "Them", "deuce": "Them", "three": "Them"})
    state = play(moon, [set_first, hand("Ann", "Cy", "moon", all_to("Us"))])
    assert state.hands[0].scores == {"Us": -6, "Them": 5}
    assert state.winner is None and state.scores == {"Us": 0, "Them": 5}
    assert "Us made moon while in the hole: back to 0 instead of winning (smudge.in_the_hole)" in \
        state.hands[1].verdict.settlement
    assert state.hands[1].verdict.delta == {"Us": 6, "Them": 0}


def test_every_point_cannot_be_made_when_a_point_was_not_dealt():
    moon = house("moon-10")
    v = judge(moon, hand("Dee", "Ann", "moon", {p: "Us" for p in TEN if p != "deuce"}))
    assert v.taken == {"Us": 9, "Them": 0} and not v.bid.made


def test_every_point_out_is_made_without_a_point_that_was_not_out():
    rs = variant("partnership-pitch", smudge={"needs": "every-point-out"})
    v = judge(rs, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Us", "game": "Us"}))
    assert v.bid.made and v.delta == {"Us": 3, "Them": 0}  # the jack was not out; Kirk's smudge scores what it took
    worth = variant("partnership-pitch")  # the default: at least its worth, 5
    assert not judge(worth, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Us", "game": "Us"})).bid.made
    tied = judge(rs, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Us", "jack": "Us"}))
    assert not tied.bid.made  # game was out, and nobody won it


def test_a_shoot_needs_every_trick_from_the_cards():
    shoot = house("trickster-4-shoot")
    refused = hand("Dee", "Ann", "shoot", {"high": "Us", "low": "Us", "jack": "Us", "game": "Us"})
    with pytest.raises(PitchError) as e:
        judge(shoot, refused)
    assert (e.value.where, e.value.message) == (
        "bid", "a shoot needs every trick (smudge.needs): give captured cards or tricks, not points")
    # every point and every trick: 24 cards to Us, Ann held the two of trumps (low goes to the player dealt it)
    deck = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    cards = deck[:13] + deck[13:24]
    rec = {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": "shoot"}, "captured": {"Us": cards},
           "dealt": {"Ann": ["2S"]}}
    v = judge(shoot, rec)
    assert v.bid.made and v.instant is not None and v.instant.how == "smudge-made"
    one_trick = {"Us": cards[:20], "Them": cards[20:]}
    v = judge(shoot, {**rec, "captured": one_trick})
    assert v.taken == {"Us": 4, "Them": 0} and not v.bid.made  # every point, but not every trick
    assert v.delta == {"Us": -11, "Them": 0}
    assert v.settlement[0] == "Us bid shoot and fell short: set back the target, 11 (smudge.set)"


def test_what_a_made_smudge_scores_and_a_set_one_costs():
    worth = variant("partnership-pitch", smudge={"made": "worth", "set": "points", "set_points": 7})
    made = judge(worth, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Us", "jack": "Us", "game": "Us",
                                                        "all-tricks": "Us"}))
    assert made.delta == {"Us": 5, "Them": 0}
    points = variant("partnership-pitch", smudge={"made": "points", "made_points": 12})
    assert judge(points, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Us", "jack": "Us", "game": "Us",
                                                       "all-tricks": "Us"})).delta == {"Us": 12, "Them": 0}
    set_ = judge(worth, hand("Dee", "Ann", "smudge", {"high": "Us", "low": "Them"}))
    assert set_.delta == {"Us": -7, "Them": 1}
    assert "Us bid smudge and fell short: set back 7 (smudge.set)" in set_.settlement


def test_a_side_in_the_hole_may_not_bid_the_smudge_where_the_rules_say_so():
    rs = variant("partnership-pitch", smudge={"in_the_hole": "may-not"})
    set_first = hand("Dee", "Ann", 3, {"high": "Us", "low": "Them"})
    with pytest.raises(PitchError) as e:
        play(rs, [set_first, hand("Ann", "Bob", 2, {"high": "Them", "low": "Them"}),
                  hand("Bob", "Cy", "smudge", {"high": "Us", "low": "Us"})])
    assert (e.value.where, e.value.message) == (
        "hands[3]: bid", "Us is in the hole (-3): a side in the hole may not bid smudge (smudge.in_the_hole = may-not)")


# Bicycle's smudge: anyone who takes all four points wins at once; everyone counts down from 7


def test_a_defender_who_takes_every_point_wins_at_once():
    rs = house("bicycle-smudge")
    three = ["Ann", "Bob", "Cy"]
    state = play(rs, [hand("Cy", "Ann", 2, {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"})],
                 teams=None, players=three)
    assert state.winner == "Bob" and state.scores == {"Ann": 9, "Bob": 3, "Cy": 7}
    assert state.ending is not None and state.ending.reason == "Bob took every point: Bob wins at once (win.instant)"
    only_bidder = variant(str(HOUSE / "bicycle-smudge.toml"), win={"instant_by": "bidder"})
    state = play(only_bidder, [hand("Cy", "Ann", 2, {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"})],
                 teams=None, players=three)
    assert state.winner is None


def test_every_point_out_wins_at_once_without_a_point_not_out():
    rs = variant(str(HOUSE / "bicycle-smudge.toml"), win={"instant": "every-point-out"})
    v = judge(rs, hand("Cy", "Ann", 2, {"high": "Ann", "low": "Ann", "game": "Ann"}), teams=None,
              players=["Ann", "Bob", "Cy"])
    assert v.instant is not None and v.instant.side == "Ann" and "every point that was out" in v.instant.why
    strict = judge(house("bicycle-smudge"), hand("Cy", "Ann", 2, {"high": "Ann", "low": "Ann", "game": "Ann"}),
                   teams=None, players=["Ann", "Bob", "Cy"])
    assert strict.instant is None


SETTLED = {**{n: rulesets.load(n) for n in rulesets.builtin_names()},
           **{p.stem: rulesets.load(p) for p in sorted((Path(__file__).resolve().parent.parent / "examples" /
                                                         "house-rules").glob("*.toml"))}}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SETTLED)), st.integers(0, 2**32 - 1))
def test_settle_scores_a_bid_as_the_verdict_does(name: str, seed: int) -> None:
    """scoring.settle (what a caller weighing a bid reads) gives the bidding side what the verdict of a
    whole hand gives it, for the same bid, points taken and made-or-not."""
    rs = SETTLED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng, seating="any")
    record = {"players": players, **({"teams": teams} if teams else {}), **sampling.random_hand(rs, rng, players, teams)}
    table = records.parse_table(record)
    hand = records.parse_hand(record, table, extra_keys=("players", "teams"))
    v = scoring.verdict(rs, table, hand)
    if hand.revokes or v.illegal or hand.auction or v.hand_sides is not None or not v.bid.amount:
        return
    side = v.bid.side
    amount = "smudge" if v.bid.label == "smudge" else v.bid.amount
    assert scoring.settle(rs, amount, v.bid.took, made=v.bid.made) == v.delta[side]
    if amount != "smudge":
        assert v.bid.made == (v.bid.took >= v.bid.amount)
