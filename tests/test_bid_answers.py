""""Should I have bid 3?" in words (words.analysis.bid_answers), from an odds object as `bid_odds` returns
it: yes where the bid scores as much as any on average, no (naming the bid that scores best) where it
does not, and a trump the pitcher could not make said so."""

from __future__ import annotations

from typing import Any

import pytest

import pitchkeeper
from pitchkeeper.words.analysis import bid_answers


def trump(suit: str, make: dict[str, float], expected: dict[str, float], best: str) -> dict[str, Any]:
    return {"trump": suit, "possible": True, "make": make, "expected": expected, "best_bid": int(best), "mean": 3.0}


def test_yes_where_it_is_the_best_bid_no_naming_the_best_one_where_it_is_not() -> None:
    o = {"trumps": [trump("S", {"2": 1.0, "3": 0.87, "4": 0.3}, {"2": 3.1, "3": 3.4, "4": -1.2}, "3"),
                    trump("H", {"2": 0.55, "3": 0.32, "4": 0.1}, {"2": 0.8, "3": -0.8, "4": -3.0}, "2")]}
    assert bid_answers(o, "3") == [
        "In spades: yes - 3 is made in 87% of the layouts and scores +3.4 on average, the best bid.",
        "In hearts: no - 3 is made in 32% of the layouts and scores -0.8 on average; 2 scores best (+0.8, made in 55%)."]


def test_a_bid_that_scores_as_much_as_the_best_is_a_yes() -> None:
    o = {"trumps": [trump("D", {"2": 1.0, "3": 1.0}, {"2": 4.4, "3": 4.4}, "2")]}
    assert bid_answers(o, "3") == ["In diamonds: yes - 3 is made in 100% of the layouts and scores +4.4 on average; "
                                   "no bid scores more."]


def test_a_trump_the_pitcher_could_not_make_is_said() -> None:
    o = {"trumps": [{"trump": "C", "possible": False, "why": "the pitcher holds no club to lead"}]}
    assert bid_answers(o, "2") == ["In clubs: not possible - the pitcher holds no club to lead."]


@pytest.mark.parametrize("bid", ["2", "3", "4"])
def test_every_suit_of_a_real_answer_is_answered_once_and_agrees_with_its_best_bid(bid: str) -> None:
    o = pitchkeeper.bid_odds("AS KS 5S 2H 9D JC", "partnership-pitch", samples=20, seed=3)
    lines = bid_answers(o, bid)
    assert [line.split(":")[0] for line in lines] == ["In spades", "In hearts", "In diamonds", "In clubs"]
    for t, line in zip(o["trumps"], lines, strict=True):
        assert line.split(": ")[1].startswith("yes" if str(t["best_bid"]) == bid else ("yes", "no"))
