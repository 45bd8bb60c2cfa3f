"""The house rules of issue 22 that decide a point, a play or a game: game ties to the bidder or the elder
hand, set the opponents and win, defenders stopping short, three sets and out, must trump when void, a
stuck dealer's exact bid, a low that is never a joker or an off-card, and a called partner's bidding side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import variant

from pitchkeeper.errors import PitchError
from pitchkeeper.game import bidding, play, records, rulesets, scoring
from pitchkeeper.game.match import dealer_due, parse_match, replay
from pitchkeeper.game.scoreboard import scoreboard

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def house(name: str) -> rulesets.Ruleset:
    return rulesets.load(HOUSE / f"{name}.toml")


def hand(dealer: str, bidder: str, amount: int | str, points: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "trump": "S", "bid": {"player": bidder, "amount": amount}, "points": points, **extra}


def play_match(r: rulesets.Ruleset, hands: list[dict[str, Any]], players: list[str] = FOUR,
               teams: dict[str, list[str]] | None = TEAMS, **header: Any) -> Any:
    data: dict[str, Any] = {"rules": r.name, "players": players, "hands": hands, **header}
    if teams:
        data["teams"] = teams
    record = parse_match(data)
    return replay(r, record), record


def judge(r: rulesets.Ruleset, rec: dict[str, Any], players: list[str] = FOUR,
          teams: dict[str, list[str]] | None = TEAMS) -> scoring.Verdict:
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    return scoring.verdict(r, table, records.parse_hand(rec, table))


# -- game tie rules (points.game.tie)

# Us and Them each count 10 for game: Us the ten of diamonds, Them the ten of clubs; Ann's spades win the rest.
TIED = {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 2},
        "captured": {"Us": ["2S", "3D", "4D", "5D", "10D", "6D", "7D", "8D", "3S", "9D", "2H", "3H", "4H", "5H", "6H", "7H"],
                     "Them": ["10C", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]}}


def test_a_tied_game_goes_to_the_bidding_side_where_the_rules_say_so():
    v = judge(house("pitcher-wins-ties"), TIED)
    assert v.game is not None and v.game.counts == {"Us": 10, "Them": 10} and v.game.side == "Us"
    assert v.game.reason == "game is tied at 10 (Us, Them): it goes to the bidding side, Us (points.game.tie)"
    plain = judge(rulesets.load("partnership-pitch"), TIED)
    assert plain.game is not None and plain.game.side is None  # Kirk's rule: a tie scores nobody
    bob_bids = judge(house("pitcher-wins-ties"), {**TIED, "bid": {"player": "Bob", "amount": 2}})
    assert bob_bids.game is not None and bob_bids.game.side == "Them"


def test_a_tied_game_goes_to_the_elder_hand():
    rs = house("two-hand-elder-tie")
    two = {"dealer": "Bob", "trump": "S", "bid": {"player": "Bob", "amount": 2},
           "captured": {"Ann": ["10D", "2D", "3S", "4D", "5D", "6D"], "Bob": ["10C", "2C", "2S", "4C", "5C", "6C"]},
           "dealt": {"Bob": ["2S"]}}
    v = judge(rs, two, players=["Ann", "Bob"], teams=None)
    # Ann sits at the dealer's left: the elder hand
    assert v.game is not None and v.game.side == "Ann" and "it goes to the elder hand, Ann" in v.game.reason
    v = judge(rs, {**two, "dealer": "Ann"}, players=["Ann", "Bob"], teams=None)
    assert v.game is not None and v.game.side == "Bob"


# -- set the opponents and win; defenders stop short


def test_defenders_who_set_the_pitchers_and_reach_the_target_win():
    rs = house("set-and-win")
    hands = [hand("Dee", "Bob", 3, {"high": "Us", "low": "Us", "jack": "Us", "game": "Them"})]
    state, _ = play_match(rs, hands, target=2)
    assert state.winner == "Us" and state.ending is not None
    assert state.ending.reason == "Us went past 2 while defending and set the bidders, Them (win.set_and_win)"
    plain, _ = play_match(rulesets.load("partnership-pitch"), hands, target=2)
    assert plain.winner is None  # only the pitchers can win: play on


def test_a_defending_side_stops_one_short_of_the_target():
    rs = variant("trickster-4", win={"defenders_stop_short": True})
    hands = [hand("Dee", "Ann", 2, {"high": "Them", "low": "Them", "jack": "Them", "game": "Them"})]
    state, _ = play_match(rs, hands, target=3)
    assert state.winner is None and state.scores == {"Us": -2, "Them": 2}
    assert "Them took 4 but stops at 2: a side must bid to go out (win.defenders_stop_short)" in \
        state.hands[0].verdict.settlement
    assert state.hands[0].verdict.delta == {"Us": -2, "Them": 2}
    bid, _ = play_match(rs, [hand("Dee", "Bob", 2, {"high": "Them", "low": "Them", "jack": "Them",
                                                    "game": "Them"})], target=3)
    assert bid.winner == "Them"  # the bidding side goes out


# -- three sets and out


def test_a_side_set_three_times_loses():
    rs = house("three-sets-out")
    set_us = [hand(d, "Ann", 2, {"high": "Them", "low": "Them"}) for d in ("Dee", "Ann", "Bob")]
    state, record = play_match(rs, set_us)
    assert state.winner == "Them" and state.sets == {"Us": 3, "Them": 0}
    assert state.ending is not None and state.ending.reason == "Us was set 3 times and is out (win.sets_out): Them wins"
    assert state.to_json()["sets"] == {"Us": 3, "Them": 0} and state.to_json()["out"] == []
    assert scoreboard(rs, record, state).to_json()["sets"] == {"Us": 3, "Them": 0}


def test_with_more_sides_a_side_set_three_times_leaves_the_game():
    rs = house("three-sets-out")
    three = ["Ann", "Bob", "Cy"]
    sets = [hand("Cy", "Ann", 2, {"high": "Bob", "low": "Cy"}), hand("Ann", "Ann", 2, {"high": "Bob", "low": "Cy"}),
            hand("Bob", "Ann", 2, {"high": "Bob", "low": "Cy"})]
    state, record = play_match(rs, sets, players=three, teams=None)
    assert state.winner is None and state.out == ("Ann",) and state.sets == {"Ann": 3, "Bob": 0, "Cy": 0}
    assert dealer_due(record, state.out) == "Cy"  # Bob dealt last; the deal passes Ann by
    board = scoreboard(rs, record, state)
    assert board.next_dealer == "Cy" and board.to_json()["out"] == ["Ann"]
    # a later hand naming Ann is refused
    with pytest.raises(PitchError) as e:
        play_match(rs, [*sets, hand("Cy", "Ann", 2, {"high": "Bob", "low": "Cy"})], players=three, teams=None)
    assert (e.value.where, e.value.message) == (
        "hands[4]: bid.player", "Ann is out of the game (Ann was set 3 times on hand 3; win.sets_out)")
    # the two left play on; the last side left after another goes out wins
    on = [*sets, hand("Cy", "Bob", 2, {"high": "Cy", "low": "Cy"}), hand("Bob", "Bob", 2, {"high": "Cy", "low": "Cy"}),
          hand("Cy", "Bob", 2, {"high": "Cy", "low": "Cy"})]
    state, _ = play_match(rs, on, players=three, teams=None)
    assert state.winner == "Cy" and state.ending is not None and state.ending.hand == 6
    assert state.scores["Ann"] == -6  # Ann's score stays as it was when she went out


# -- play, bidding and points


def test_a_player_out_of_the_suit_led_must_trump():
    rs = house("strict-follow")
    view = rs.views["S"]
    a = play.allowed(rs, view, ["2S", "5D", "6C"], "H")
    assert (a.cards, a.rule) == (("2S",), "must-trump")
    assert play.allowed(rs, view, ["5D", "6C"], "H").rule is None
    r = play.judge_play(rs, view, "5D", None, "H", player="Bob")
    assert (r.legal, r.why) == (None, "legal only if Bob held no hearts and no trump; give the held cards to settle it")
    r = play.judge_play(rs, view, "5D", ["2S", "5D"], "H", player="Bob")
    assert (r.legal, r.rule) == (False, "must-trump")
    plain = rulesets.load("partnership-pitch")
    assert play.allowed(plain, view, ["2S", "5D", "6C"], "H").rule is None


def test_must_trump_is_judged_in_a_whole_hand():
    rs = house("strict-follow")
    held = {"Ann": ["AS", "KH", "2C", "3C", "4C", "5C"], "Bob": ["2S", "3S", "5D", "6D", "7D", "8D"],
            "Cy": ["QH", "JH", "10H", "9H", "8H", "7H"], "Dee": ["6H", "5H", "4H", "3H", "2H", "AH"]}
    tricks = [{"leader": "Ann", "cards": ["AS", "2S", "7H", "2H"]}, {"leader": "Ann", "cards": ["KH", "5D", "8H", "AH"]},
              {"leader": "Dee", "cards": ["6H", "2C", "3S", "9H"]}, {"leader": "Bob", "cards": ["6D", "10H", "5H", "3C"]},
              {"leader": "Bob", "cards": ["7D", "JH", "4H", "4C"]}, {"leader": "Bob", "cards": ["8D", "QH", "3H", "5C"]}]
    rec = {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 2}, "held": held, "tricks": tricks}
    v = judge(rs, rec)
    # trick 2: hearts led, Bob held no heart and the 3 of trumps, and played a diamond
    assert [(i.trick, i.player, i.card, i.rule) for i in v.illegal] == [(2, "Bob", "5D", "must-trump")]
    assert judge(rulesets.load("partnership-pitch"), rec).illegal == ()


def test_a_stuck_dealer_bids_exactly_the_forced_bid():
    rs = house("stuck-dealer-exactly")
    table = records.parse_table({"players": FOUR})
    base = {"dealer": "Dee", "trump": "S", "points": {"high": "Dee", "low": "Dee"}}
    for call, message in (("3", "everyone else passed: the stuck dealer Dee must bid exactly 2, not 3"),
                          ("pass", "everyone else passed: the dealer Dee is stuck and must bid exactly 2")):
        auction = ["Ann:pass", "Bob:pass", "Cy:pass", f"Dee:{call}"]
        h = records.parse_hand({**base, "bid": {"player": "Dee", "amount": 3}, "auction": auction}, table)
        with pytest.raises(PitchError) as e:
            bidding.check_auction(rs, table, h)
        assert (e.value.where, e.value.message) == ("auction[4]", message)
    ok = records.parse_hand({**base, "bid": {"player": "Dee", "amount": 2},
                             "auction": ["Ann:pass", "Bob:pass", "Cy:pass", "Dee:2"]}, table)
    assert bidding.check_auction(rs, table, ok) is not None
    at_least = records.parse_hand({**base, "bid": {"player": "Dee", "amount": 3},
                                   "auction": ["Ann:pass", "Bob:pass", "Cy:pass", "Dee:3"]}, table)
    assert bidding.check_auction(rulesets.load("trickster-4"), table, at_least) is not None


def test_the_auction_offers_a_stuck_dealer_only_the_exact_bid():
    table = records.parse_table({"players": FOUR})
    for rs, legal in ((house("stuck-dealer-exactly"), (2,)), (rulesets.load("trickster-4"), (2, 3, 4))):
        auction = bidding.Auction.start(rs, table, "Dee")
        for p in ("Ann", "Bob", "Cy"):
            auction = auction.then(p, "pass")
        assert (auction.turn, auction.legal()) == ("Dee", legal)


def test_a_natural_low_is_never_the_joker():
    rs = house("bicycle-auction-pitch-joker")
    three = ["Ann", "Bob", "Cy"]
    rec = {"dealer": "Cy", "trump": "S", "bid": {"player": "Ann", "amount": 2},
           "captured": {"Ann": ["JK", "5S", "9H", "7H", "8H", "10H"], "Bob": ["2S", "2H", "3H", "JH", "QH", "KH"],
                        "Cy": ["4H", "5H", "6H", "AH", "3D", "4D"]},
           "dealt": {"Ann": ["5S"], "Bob": ["2S"], "Cy": ["JK"]}}
    v = judge(rs, rec, players=three, teams=None)
    awards = {a.point: (a.card, a.player) for a in v.awards}
    # the joker (the lowest trump) scores 1 to Ann, who won it; low is 2S, the lowest natural trump, dealt to Bob
    assert awards == {"high": ("5S", "Ann"), "low": ("2S", "Bob"), "joker": ("JK", "Ann"), "game": (None, None)}
    lone = {**rec, "captured": {"Ann": ["JK", "9H", "2H", "7H", "8H", "10H"], "Bob": ["5C", "6C", "3H", "JH", "QH", "KH"],
                                "Cy": ["4H", "5H", "6H", "AH", "3D", "4D"]}}
    lone.pop("dealt")
    v = judge(rs, lone, players=three, teams=None)
    assert [a.point for a in v.awards] == ["high", "joker", "game"]  # a lone joker is high only
    assert all(p.id != "low" for p in rs.always_out)  # quick entry may leave low out: it may not be out
    plain = rulesets.load("solo-pitch")
    assert any(p.id == "low" for p in plain.always_out)


def test_later_higher_jokers_in_one_trick():
    view = rulesets.load("seven-point").views["S"]
    assert play.winner_index(view, ["LJ", "HJ", "2S"], jokers="later-higher") == 1
    assert play.winner_index(view, ["HJ", "LJ", "2S"], jokers="later-higher") == 1
    assert play.winner_index(view, ["HJ", "LJ", "AS"], jokers="later-higher") == 2
    assert play.winner_index(view, ["HJ", "LJ", "2S"]) == 0


def test_the_bidder_and_a_called_partner_win_together():
    rs = house("call-partner-5")
    five = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    # Ann+Cy take the ace, jack, off-jack, high joker, ten and three (3): 8; the others the low joker and deuce
    pts = {"ace": "Cy", "jack": "Ann", "off-jack": "Ann", "high-joker": "Ann", "low-joker": "Dee", "ten": "Cy",
           "three": "Ann", "deuce": "Eve"}
    h1 = {"dealer": "Eve", "trump": "S", "bid": {"player": "Ann", "amount": 6}, "called": "AS", "partner": "Cy",
          "points": pts}
    state, _ = play_match(rs, [h1], players=five, teams=None, target=8)
    assert state.winner == "Ann" and state.ending is not None
    assert state.ending.reason == "Ann reached 8 as the bidding side (with Cy)"
    # hand 1: Ann+Cy take 5 of a bid of 5 (Cy 5); hand 2: Bob+Cy take 8 (Cy 13, Bob 1 + 8 = 9)
    h2 = {"dealer": "Ann", "trump": "S", "bid": {"player": "Bob", "amount": 6}, "called": "AS", "partner": "Cy",
          "points": {k: {"Ann": "Bob"}.get(v, v) for k, v in pts.items()}}
    first = hand("Eve", "Ann", 5, {"ace": "Cy", "ten": "Cy", "three": "Cy", "deuce": "Eve"}, called="AS", partner="Cy")
    state, _ = play_match(rs, [first, h2], players=five, teams=None, target=10)
    assert state.scores == {"Ann": 5 + 2, "Bob": 1 + 8, "Cy": 5 + 8, "Dee": 1 + 2, "Eve": 1 + 2}
    assert state.winner == "Cy" and state.ending is not None
    assert state.ending.reason == "Cy reached 10 as the bidder's partner (Bob)"
