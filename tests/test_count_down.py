"""Count-down scoring (win.direction = "down"): every side starts at the target and counts down to 0; a
set adds the bid. Decided on progress, shown as the table keeps it, and agreeing hand by hand with the
same game counted up."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.game import match, rulesets, sampling, vocabulary
from pitchkeeper.game.match import parse_match, replay
from pitchkeeper.game.scoreboard import scoreboard

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
SMUDGE = rulesets.load(HOUSE / "bicycle-smudge.toml")
THREE = ["Ann", "Bob", "Cy"]


def hand(dealer: str, bidder: str, amount: int, points: dict[str, str]) -> dict[str, Any]:
    return {"dealer": dealer, "trump": "S", "bid": {"player": bidder, "amount": amount}, "points": points}


def play(r: rulesets.Ruleset, hands: list[dict[str, Any]], players: list[str] = THREE, **header: Any) -> Any:
    record = parse_match({"rules": r.name, "players": players, "hands": hands, **header})
    return replay(r, record), record


def test_scores_count_down_from_the_target_and_a_set_adds_the_bid():
    state, _ = play(SMUDGE, [hand("Cy", "Ann", 2, {"high": "Ann", "low": "Ann", "jack": "Bob", "game": "Cy"}),
                             hand("Ann", "Bob", 3, {"high": "Bob", "low": "Cy", "game": "Ann"})])
    # hand 1: Ann makes 2 (7 -> 5), Bob 1 (7 -> 6), Cy 1 (7 -> 6); hand 2: Bob bid 3 and took 1: 6 + 3 = 9
    assert [h.scores for h in state.hands] == [{"Ann": 5, "Bob": 6, "Cy": 6}, {"Ann": 4, "Bob": 9, "Cy": 5}]
    j = state.hands[0].verdict.to_json()
    assert j["delta"] == {"Ann": -2, "Bob": -1, "Cy": -1} and j["taken"] == {"Ann": 2, "Bob": 1, "Cy": 1}
    assert j["direction"] == "down" and state.to_json()["direction"] == "down"
    assert "direction" not in replay(rulesets.load("solo-pitch"), parse_match(
        {"rules": "solo-pitch", "players": THREE, "hands": []})).to_json()


def test_the_first_to_zero_wins():
    hands = [hand("Cy", "Ann", 4, {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Bob"})] * 1
    hands += [hand("Ann", "Bob", 2, {"high": "Bob", "low": "Bob", "jack": "Cy", "game": "Ann"}),
              hand("Bob", "Cy", 2, {"high": "Ann", "low": "Ann", "jack": "Cy", "game": "Ann"})]
    state, record = play(SMUDGE, hands)
    # Ann: 7 - 3 (set: bid 4, took 3 -> +4 = 11) ... the ending is on progress: 0 or below wins
    assert state.hands[0].scores == {"Ann": 11, "Bob": 6, "Cy": 7}
    assert state.hands[1].scores == {"Ann": 10, "Bob": 4, "Cy": 6}
    assert state.hands[2].scores == {"Ann": 7, "Bob": 4, "Cy": 8}
    board = scoreboard(SMUDGE, record, state)
    assert board.needed == {"Ann": 7, "Bob": 4, "Cy": 8}
    assert board.in_the_hole == ["Cy"]  # above the start
    assert board.to_json()["direction"] == "down" and list(board.to_json())[-1] == "direction"
    out, _ = play(SMUDGE, [hand("Cy", "Ann", 2, {"high": "Ann", "low": "Ann"})], target=2)
    assert out.winner == "Ann" and out.ending is not None and out.ending.reason == "Ann reached 0 as the bidding side"


def test_a_score_never_goes_above_the_start_where_scores_may_not_go_negative():
    rs = variant(str(HOUSE / "bicycle-smudge.toml"), settle={"negative": False})
    state, _ = play(rs, [hand("Cy", "Ann", 3, {"high": "Ann", "low": "Bob", "game": "Bob"})])
    assert state.scores == {"Ann": 7, "Bob": 5, "Cy": 7}


def test_passing_zero_where_the_target_must_be_passed():
    rs = variant(str(HOUSE / "bicycle-smudge.toml"), win={"reach": "exceed"})
    state, _ = play(rs, [hand("Cy", "Ann", 2, {"high": "Ann", "low": "Ann"})], target=2)
    assert state.winner is None and state.scores["Ann"] == 0
    assert match.goal_score(rs, 2) == -1 and match.needed(rs, 2, 0) == 1
    assert vocabulary.target_words("exceed", 7, "down") == "down from 7, must pass 0"
    assert vocabulary.target_words("reach", 7, "down") == "down from 7 to 0"
    assert vocabulary.target_words("reach", 21) == "to 21"


def test_progress_shown_and_gain_are_one_rule_both_ways():
    up = rulesets.load("solo-pitch")
    assert [match.progress(up, 7, 3), match.shown(up, 7, 3), match.gain(up, 2), match.goal_score(up, 7)] == [3, 3, 2, 7]
    assert [match.progress(SMUDGE, 7, 3), match.shown(SMUDGE, 7, 3), match.gain(SMUDGE, -2),
            match.goal_score(SMUDGE, 7)] == [4, 4, 2, 0]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_counting_down_agrees_with_counting_up_hand_by_hand(seed: int) -> None:
    """The same hands under the same rules counted up: after every hand, the progress counted down equals
    the score counted up, and the game ends on the same hand with the same winner."""
    down = variant(str(HOUSE / "nine-card-pitch.toml"))
    up = variant(str(HOUSE / "nine-card-pitch.toml"), win={"direction": "up"})
    rng = random.Random(seed)
    players, teams = sampling.random_table(down, rng, seating="any")
    hands = []
    dealer = players[0]
    for _ in range(12):
        hands.append(sampling.random_hand(down, rng, players, teams, dealer=dealer, quick=rng.random() < 0.5))
        dealer = players[(players.index(dealer) + 1) % len(players)]
    header: dict[str, Any] = {"players": players, **({"teams": teams} if teams else {})}
    for n in range(1, len(hands) + 1):
        try:
            d = replay(down, parse_match({**header, "rules": "x", "hands": hands[:n]}))
        except Exception as e:  # a hand after the end of the game: both refuse it
            assert "already won" in str(e)
            break
        u = replay(up, parse_match({**header, "rules": "x", "hands": hands[:n]}))
        assert {s: match.progress(down, d.target, v) for s, v in d.scores.items()} == u.scores
        assert (d.winner, d.ending and d.ending.hand) == (u.winner, u.ending and u.ending.hand)
