"""The end of the game, for every built-in ruleset, in the words of the seed texts.

Each test replays a short match with a low target (the `target` key) so one hand can end it.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import variant

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.game.match import needed, parse_match, replay, stakes

FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
NS = {"Us": ["North", "South"], "Them": ["East", "West"]}


def hand(dealer: str, bidder: str, amount: int | str, points: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "trump": "S", "bid": {"player": bidder, "amount": amount}, "points": points, **extra}


def play(rules: str | rulesets.Ruleset, players: list[str], hands: list[dict[str, Any]], target: int | None = None,
         teams: dict[str, list[str]] | None = None, **header: Any):
    r = rulesets.load(rules) if isinstance(rules, str) else rules
    data: dict[str, Any] = {"rules": r.name, "players": players, "hands": hands, **header}
    if teams:
        data["teams"] = teams
    if target:
        data["target"] = target
    record = parse_match(data)
    return replay(r, record), record, r




# -- seed 000: seven-point


def test_seven_point_both_over_the_bidder_wins_even_with_fewer():
    # "In the event that both teams go over 21 at the end of the same deal, the team that won the bid on the
    # last hand wins even if they have less points than the other team."
    state, _, _ = play("seven-point", FOUR, [
        hand("Dee", "Ann", 2, {"high": "Us", "low": "Us", "jack": "Them", "off-jack": "Them", "high-joker": "Them"}),
        hand("Ann", "Ann", 3, {"high": "Us", "low": "Us", "jack": "Us", "off-jack": "Them", "high-joker": "Them",
                               "low-joker": "Them", "game": "Them"}),
    ], target=5, teams=TEAMS)
    assert state.scores == {"Us": 5, "Them": 7}
    assert state.winner == "Us" and state.ending.hand == 2
    assert "bid" in state.ending.reason


def test_seven_point_a_defending_team_that_gets_there_alone_wins():
    # "If a team goes over twenty-one points when the score is calculated at the end of the hand, they win."
    state, _, _ = play("seven-point", FOUR, [
        hand("Dee", "Ann", 4, {"high": "Them", "low": "Them", "jack": "Them", "game": "Them", "off-jack": "Them"}),
    ], target=5, teams=TEAMS)
    assert state.scores == {"Us": -4, "Them": 5}
    assert state.winner == "Them"


def test_seven_point_reaching_the_target_exactly_is_enough():
    # "Play proceeds until one team reaches 21 or more points."
    state, _, _ = play("seven-point", FOUR, [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"})], target=2,
                       teams=TEAMS)
    assert state.winner == "Us"


# -- seed 001: auction pitch


def _ap_first_hand() -> dict[str, Any]:
    # Ann bids 2 and takes only the jack: set back 2; Bob and Cy 1 each.
    return hand("Dee", "Ann", 2, {"high": "Bob", "low": "Cy", "jack": "Ann"})


def test_auction_pitch_the_bidder_counts_out_first():
    # "In case two players count out during the same deal, the bidder has the first right to the pool"
    state, _, _ = play("auction-pitch", FOUR, [
        _ap_first_hand(),
        hand("Ann", "Bob", 1, {"high": "Cy", "low": "Bob"}),  # Cy gets there first with high, but Bob bid
    ], target=2)
    assert state.scores["Bob"] == 2 and state.scores["Cy"] == 2
    assert state.winner == "Bob"
    assert "bidder goes out first" in state.ending.reason


def test_auction_pitch_a_pitch_without_a_contract_is_no_bidder_to_count_out_first():
    # seed 001: "If no bid is made he pitches the trump himself, without the obligation of making anything":
    # he is not "the bidder" of "bidder counts out first"; the two go out in order, high first
    state, _, _ = play("auction-pitch", FOUR, [
        _ap_first_hand(),
        hand("Ann", "Bob", 0, {"high": "Cy", "low": "Bob"}),  # Bob, eldest, pitched with no contract
    ], target=2)
    assert state.scores["Bob"] == 2 and state.scores["Cy"] == 2
    assert state.winner == "Cy"
    assert "Cy got there first with high" in state.ending.reason


@pytest.mark.parametrize("high, low, winner", [("Cy", "Bob", "Cy"), ("Bob", "Cy", "Bob")])
def test_auction_pitch_non_bidders_go_out_in_order_high_low_jack_game(high: str, low: str, winner: str):
    # "If the two players who count out are neither of them bidder, then they go out in regular order,
    # i.e. high first, then low, Jack and game."
    state, _, _ = play("auction-pitch", FOUR, [
        _ap_first_hand(),
        hand("Ann", "Dee", 1, {"high": high, "low": low, "jack": "Dee"}),
    ], target=2)
    assert state.scores == {"Ann": -2, "Bob": 2, "Cy": 2, "Dee": 1}
    assert state.winner == winner
    assert f"{winner} got there first with high" in state.ending.reason


def test_auction_pitch_jack_before_game():
    state, _, _ = play("auction-pitch", FOUR, [
        _ap_first_hand(),
        hand("Ann", "Dee", 2, {"high": "Dee", "low": "Dee", "game": "Bob", "jack": "Cy"}),
    ], target=2)
    assert state.winner == "Dee"  # Dee bid 2 and made it: out at 2, and the bidder counts out first
    state, _, _ = play("auction-pitch", FOUR, [
        _ap_first_hand(),
        hand("Ann", "Ann", 1, {"high": "Ann", "low": "Dee", "game": "Bob", "jack": "Cy"}),
    ], target=2)
    assert state.winner == "Cy"  # jack is counted before game


# -- seeds 002 and 003: only the pitcher can win


def test_cutthroat_only_the_pitcher_can_win():
    # seed 002: "The advantage of being the pitcher is that only the pitcher may win at the end of a hand."
    players = ["Ann", "Bob", "Cy"]
    first = hand("Ann", "Bob", 1, {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Bob"})
    state, _, _ = play("cutthroat-pitch", players, [first], target=2)
    assert state.scores["Cy"] == 3 and state.winner is None  # Cy is past 2, but did not pitch
    state, _, _ = play("cutthroat-pitch", players, [first, hand("Bob", "Cy", 2, {"high": "Cy", "low": "Cy"})],
                       target=2)
    assert state.winner == "Cy" and "as the bidding side" in state.ending.reason


def test_cutthroat_a_pitcher_who_was_set_does_not_win():
    players = ["Ann", "Bob", "Cy"]
    state, _, _ = play("cutthroat-pitch", players, [
        hand("Ann", "Bob", 1, {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Bob"}),
        hand("Bob", "Ann", 1, {"high": "Cy", "low": "Cy", "jack": "Ann"}),
        hand("Cy", "Cy", 2, {"high": "Ann", "low": "Bob", "jack": "Cy"}),  # Cy 5 -> 3, still past 2, but set
    ], target=2)
    assert state.scores["Cy"] == 3
    assert state.winner is None


def test_partnership_must_exceed_the_target():
    # seed 002: "to win the game of Pitch, you must exceed the agreed upon winning total"
    exactly = [hand("Dee", "Ann", 3, {"high": "Us", "low": "Us", "jack": "Us"})]
    state, _, _ = play("partnership-pitch", FOUR, exactly, target=3, teams=TEAMS)
    assert state.scores["Us"] == 3 and state.winner is None
    state, _, _ = play("partnership-pitch", FOUR,
                       [hand("Dee", "Ann", 3, {"high": "Us", "low": "Us", "jack": "Us", "game": "Us"})],
                       target=3, teams=TEAMS)
    assert state.winner == "Us"


def test_partnership_defenders_past_the_target_play_on():
    state, _, _ = play("partnership-pitch", FOUR, [
        hand("Dee", "Ann", 4, {"high": "Them", "low": "Them", "jack": "Them", "game": "Them"}),
    ], target=3, teams=TEAMS)
    assert state.scores == {"Us": -4, "Them": 4}
    assert state.winner is None


def test_solo_pitch_reaches_seven_at_the_end_of_a_hand_he_pitched():
    # seed 003: "Le premier joueur à atteindre au moins 7 points à la fin d'une main dans laquelle il était le
    # lanceur remporte la partie."
    players = ["Ana", "Ben", "Chloe"]
    state, _, _ = play("solo-pitch", players, [
        hand("Ana", "Ben", 2, {"high": "Ben", "low": "Ben", "jack": "Chloe", "game": "Chloe"}),
    ], target=2)
    assert state.scores["Chloe"] == 2 and state.winner == "Ben"  # at least 2 (reach), and Ben pitched


def test_solo_pitch_scores_may_go_negative():
    # seed 003: "il est possible qu'un joueur ait un score négatif"
    state, _, r = play("solo-pitch", ["Ana", "Ben", "Chloe"], [
        hand("Ana", "Ben", 3, {"high": "Ana", "low": "Ben"}),
    ])
    assert state.scores["Ben"] == -3
    assert needed(r, state.target, -3) == 10


def test_scores_floor_at_zero_where_the_ruleset_says_so():
    r = variant("solo-pitch", settle={"negative": False})
    state, _, _ = play(r, ["Ana", "Ben", "Chloe"], [hand("Ana", "Ben", 3, {"high": "Ana", "low": "Ben"})])
    assert state.scores["Ben"] == 0


def test_reach_or_exceed_is_a_switch():
    hands = [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"})]
    assert play("seven-point", FOUR, hands, target=2, teams=TEAMS)[0].winner == "Us"
    exceed = variant("seven-point", win={"reach": "exceed"})
    state, _, r = play(exceed, FOUR, hands, target=2, teams=TEAMS)
    assert state.winner is None and needed(r, 2, 2) == 1


# -- seed 004: trickster


def test_trickster_a_tie_goes_to_the_pitching_team():
    # seed 004: "The first team to 11 total points wins the game. In the event of a tie, the pitching team wins."
    state, _, _ = play("trickster-4", ["North", "East", "South", "West"], [
        hand("West", "North", 2, {"high": "Us", "low": "Us", "jack": "Them", "game": "Them"}),
        hand("North", "East", 2, {"high": "Them", "low": "Them", "jack": "Us", "game": "Us"}),
    ], target=4, teams=NS)
    assert state.scores == {"Us": 4, "Them": 4}
    assert state.winner == "Them"
    assert "tie" in state.ending.reason


def test_trickster_otherwise_the_higher_score_wins_even_against_the_pitchers():
    points = ["ace", "jack", "off-jack", "high-joker", "low-joker", "ten", "deuce"]
    state, _, _ = play("trickster-7", ["North", "East", "South", "West"], [
        hand("West", "North", 4, {p: "Us" for p in points[:5]} | {p: "Them" for p in points[5:]}),
        hand("North", "East", 4, {p: "Them" for p in points[:4]} | {p: "Us" for p in points[4:]}),
    ], target=6, teams=NS)
    assert state.scores == {"Us": 8, "Them": 6}
    assert state.winner == "Us" and "higher score" in state.ending.reason


# -- a hand after the end, and the stakes


def test_a_hand_after_the_game_is_won_is_refused():
    with pytest.raises(PitchError) as e:
        play("seven-point", FOUR, [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"}),
                                   hand("Ann", "Bob", 2, {"high": "Us", "low": "Us"})], target=2, teams=TEAMS)
    assert e.value.where == "hands[2]"
    assert "already won on hand 1" in e.value.message


def test_a_dealer_out_of_turn_is_a_warning():
    state, _, _ = play("seven-point", FOUR, [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"}),
                                             hand("Cy", "Bob", 2, {"high": "Them", "low": "Them"})],
                       teams=TEAMS, first_dealer="Dee")
    assert state.warnings == ("hands[2].dealer: Cy deals, but the deal passes to Ann",)


def test_stakes_winner_collects_from_each_other_player_and_the_pool():
    # seed 001: the first to count out "wins the pool and takes from it all the red counters";
    # "a revoke is punished by the offender being set back the number of points bid and forfeiting a red counter"
    state, record, r = play("auction-pitch", FOUR, [
        hand("Dee", "Ann", 2, {"high": "Ann", "low": "Ann"}, revokes=["Bob"]),
        hand("Ann", "Ann", 1, {"high": "Ann", "low": "Ann"}),
    ], target=4, stake=3)
    assert state.winner == "Ann"
    st = stakes(r, record, state)
    assert st.forfeits == {"Bob": 1} and st.pool == 1
    assert st.settled == {"Ann": 10, "Bob": -4, "Cy": -3, "Dee": -3}
    assert sum(st.settled.values()) == 0


def test_stakes_per_game_comes_from_the_ruleset_unless_the_match_sets_one():
    r = variant("seven-point", stakes={"per_game": 2})
    state, record, _ = play(r, FOUR, [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"})], target=2, teams=TEAMS)
    assert stakes(r, record, state).settled == {"Us": 4, "Them": -4}  # two players of Them pay 2 each
    state, record, _ = play(r, FOUR, [hand("Dee", "Ann", 2, {"high": "Us", "low": "Us"})], target=2, teams=TEAMS,
                            stake=0)
    assert stakes(r, record, state) is None
