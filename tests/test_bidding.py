"""The auction, checked from each ruleset's [bidding] data, in the words of the seed texts."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import variant

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.game.bidding import check_auction, check_bid, sale_credit
from pitchkeeper.game.records import parse_hand, parse_table
from pitchkeeper.game.scoring import verdict

FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}




def deal(rules: str | rulesets.Ruleset, auction: str, bid: tuple[str, int | str], dealer: str = "Dee",
         players: list[str] = FOUR, teams: dict[str, list[str]] | None = None, points: dict[str, str] | None = None):
    r = rulesets.load(rules) if isinstance(rules, str) else rules
    data: dict[str, Any] = {"players": players}
    if teams:
        data["teams"] = teams
    table = parse_table(data)
    hand = parse_hand({"dealer": dealer, "trump": "S", "bid": {"player": bid[0], "amount": bid[1]},
                       "auction": auction.split(), "points": points or {"high": bid[0], "low": bid[0]}}, table)
    return r, table, hand


def fails(rules: str | rulesets.Ruleset, auction: str, bid: tuple[str, int | str], where: str, words: str,
          **kw: Any) -> None:
    r, table, hand = deal(rules, auction, bid, **kw)
    with pytest.raises(PitchError) as e:
        check_auction(r, table, hand)
    assert e.value.where == where, str(e.value)
    assert words in e.value.message


# -- once around the table (seeds 000, 002, 003, 004)


def test_calls_go_round_from_the_dealers_left_each_higher_than_the_last():
    r, table, hand = deal("seven-point", "Ann:pass Bob:2 Cy:3 Dee:pass", ("Cy", 3), teams=TEAMS)
    out = check_auction(r, table, hand)
    assert (out.player, out.amount) == ("Cy", 3)


def test_a_call_out_of_turn_is_named():
    fails("seven-point", "Bob:pass Ann:2 Cy:3 Dee:pass", ("Cy", 3), "auction[1]", "out of turn", teams=TEAMS)


def test_a_bid_not_higher_than_the_last_is_refused():
    fails("seven-point", "Ann:2 Bob:3 Cy:3 Dee:pass", ("Bob", 3), "auction[3]", "not higher than Bob's 3", teams=TEAMS)


def test_seven_point_gives_the_dealer_no_privilege():
    # seed 000: "they must either pass or bid higher than the previous high bid"
    fails("seven-point", "Ann:2 Bob:pass Cy:pass Dee:2", ("Dee", 2), "auction[4]", "not higher", teams=TEAMS)


def test_bids_out_of_the_rulesets_range_are_refused():
    fails("partnership-pitch", "Ann:9 Bob:pass Cy:pass Dee:pass", ("Ann", 9), "auction[1]", "out of range",
          teams=TEAMS)
    fails("seven-point", "Ann:smudge Bob:pass Cy:pass Dee:pass", ("Ann", "smudge"), "auction[1]", "no smudge",
          teams=TEAMS)


def test_the_stuck_dealer_must_bid_two_not_one():
    # seed 002: "if all the other players pass ... that requires the dealer to bid two. She can not just bid one."
    fails("partnership-pitch", "Ann:pass Bob:pass Cy:pass Dee:pass", ("Dee", 2), "auction[4]", "stuck", teams=TEAMS)
    fails("partnership-pitch", "Ann:pass Bob:pass Cy:pass Dee:1", ("Dee", 1), "auction[4]", "at least 2",
          teams=TEAMS)
    r, table, hand = deal("partnership-pitch", "Ann:pass Bob:pass Cy:pass Dee:2", ("Dee", 2), teams=TEAMS)
    assert check_auction(r, table, hand).player == "Dee"


def test_the_dealer_may_match_the_high_bid_but_not_a_smudge():
    # seed 002: "the dealer can match the highest bid and be the pitcher unless someone bids smudge"
    r, table, hand = deal("partnership-pitch", "Ann:3 Bob:pass Cy:pass Dee:3", ("Dee", 3), teams=TEAMS)
    assert check_auction(r, table, hand).player == "Dee"
    r, table, hand = deal("partnership-pitch", "Ann:4 Bob:pass Cy:pass Dee:4", ("Dee", 4), teams=TEAMS)
    assert check_auction(r, table, hand).player == "Dee"
    fails("partnership-pitch", "Ann:smudge Bob:pass Cy:pass Dee:smudge", ("Dee", "smudge"), "auction[4]",
          "may not take a top bid", teams=TEAMS)


def test_only_the_dealer_has_the_privilege():
    fails("partnership-pitch", "Ann:3 Bob:3 Cy:pass Dee:pass", ("Bob", 3), "auction[2]", "only the dealer Dee",
          teams=TEAMS)


def test_cutthroat_four_makes_the_pitcher_outright():
    # seed 002: "If a player bids four points, he is known as the pitcher"; the dealer matches lower bids only
    players = ["Ann", "Bob", "Cy"]
    fails("cutthroat-pitch", "Ann:4 Bob:pass Cy:4", ("Cy", 4), "auction[3]", "top bid", players=players, dealer="Cy")
    r, table, hand = deal("cutthroat-pitch", "Ann:3 Bob:pass Cy:3", ("Cy", 3), players=players, dealer="Cy")
    assert check_auction(r, table, hand).player == "Cy"


def test_solo_pitch_a_card_laid_face_up_bids_four_and_ends_the_auction():
    # seed 003: "Un joueur peut indiquer une enchère de 4 en plaçant immédiatement une carte"
    r, table, hand = deal("solo-pitch", "Ann:pitch", ("Ann", 4))
    assert (check_auction(r, table, hand).amount, check_auction(r, table, hand).player) == (4, "Ann")
    r, table, hand = deal("solo-pitch", "Ann:pass Bob:pitch Cy:pass Dee:pass", ("Bob", 4))
    assert check_auction(r, table, hand).amount == 4
    fails("solo-pitch", "Ann:pitch Bob:pass Cy:pass Dee:4", ("Dee", 4), "auction[4]", "can only pass")
    fails("seven-point", "Ann:pitch Bob:pass Cy:pass Dee:pass", ("Ann", 4), "auction[1]", "no bid by pitching",
          teams=TEAMS)


def test_solo_pitch_the_dealer_steals_below_four_only():
    # seed 003: "le croupier peut voler l'enchère ... mais que personne n'a lancé (enchère 4)"
    r, table, hand = deal("solo-pitch", "Ann:1 Bob:2 Cy:pass Dee:2", ("Dee", 2))
    assert check_auction(r, table, hand).player == "Dee"
    fails("solo-pitch", "Ann:4 Bob:pass Cy:pass Dee:4", ("Dee", 4), "auction[4]", "top bid")


def test_all_pass_redeals_where_the_ruleset_says_so():
    fails("trickster-10", "Ann:pass Bob:pass Cy:pass Dee:pass", ("Dee", 5), "auction", "deals again", teams=TEAMS,
          points={"ace": "Us"})


def test_the_auction_stops_early():
    fails("seven-point", "Ann:2 Bob:pass", ("Ann", 2), "auction[3]", "before Cy has spoken", teams=TEAMS)


def test_the_winner_must_agree_with_the_bid():
    fails("seven-point", "Ann:2 Bob:3 Cy:pass Dee:pass", ("Ann", 2), "auction", "gives the pitch to Bob at 3",
          teams=TEAMS)
    fails("seven-point", "Ann:2 Bob:3 Cy:pass Dee:pass", ("Bob", 2), "auction", "but the bid says Bob 2", teams=TEAMS)


def test_the_auction_is_checked_when_a_hand_is_judged():
    r, table, hand = deal("seven-point", "Ann:2 Bob:2 Cy:pass Dee:pass", ("Bob", 2), teams=TEAMS)
    with pytest.raises(PitchError, match="not higher"):
        verdict(r, table, hand)


# -- Auction Pitch's sell-out (seed 001)


def test_eldest_pitches_at_once_and_must_make_four():
    # seed 001: "If the eldest hand decides to pitch and not to sell out ... is obliged to make four points"
    r, table, hand = deal("auction-pitch", "Ann:pitch", ("Ann", 4))
    assert check_auction(r, table, hand).amount == 4
    fails("auction-pitch", "Ann:pitch Bob:2", ("Ann", 4), "auction[2]", "ends the auction")


def test_eldest_sells_to_the_highest_bidder():
    r, table, hand = deal("auction-pitch", "Ann:pass Bob:2 Cy:3 Dee:pass Ann:pass", ("Cy", 3))
    out = check_auction(r, table, hand)
    assert (out.player, out.amount, out.seller, out.price) == ("Cy", 3, "Ann", 3)


def test_eldest_undertakes_as_many_as_the_bidder():
    # seed 001: "the eldest hand must either accept a bid or undertake to make as many points as the bidder"
    r, table, hand = deal("auction-pitch", "Ann:pass Bob:2 Cy:3 Dee:pass Ann:3", ("Ann", 3))
    out = check_auction(r, table, hand)
    assert (out.player, out.amount, out.refused) == ("Ann", 3, "Cy")
    fails("auction-pitch", "Ann:pass Bob:2 Cy:3 Dee:pass Ann:2", ("Ann", 2), "auction[5]", "as many points as Cy's 3")
    # as many, not more: eldest keeps the pitch at the bidder's price or sells it
    fails("auction-pitch", "Ann:pass Bob:2 Cy:3 Dee:pass Ann:4", ("Ann", 4), "auction[5]", "as many points as Cy's 3")


def test_in_partnership_pitch_a_bid_of_five_is_the_smudge():
    # seed 002: "Bidding 'smudge' is equivalent to bidding five"
    r, table, hand = deal("partnership-pitch", "Ann:5 Bob:pass Cy:pass Dee:pass", ("Ann", 5), teams=TEAMS)
    out = check_auction(r, table, hand)
    assert (out.player, out.amount, out.smudge) == ("Ann", 5, True)
    v = verdict(r, table, hand)
    assert (v.bid.amount, v.bid.label) == (5, "smudge")
    # the same hand written with the word, or the bid with the number and the call with the word
    for call, amount in (("Ann:smudge", "smudge"), ("Ann:smudge", 5), ("Ann:5", "smudge")):
        r, table, hand = deal("partnership-pitch", f"{call} Bob:pass Cy:pass Dee:pass", ("Ann", amount), teams=TEAMS)
        assert verdict(r, table, hand).delta == v.delta
    # and the dealer may not take it by equalling it, written either way
    fails("partnership-pitch", "Ann:5 Bob:pass Cy:pass Dee:5", ("Dee", 5), "auction[4]", "top bid", teams=TEAMS)


def test_a_smudge_of_another_worth_is_that_worth():
    r = variant("partnership-pitch", bidding={"smudge": 6})
    r2, table, hand = deal(r, "Ann:6 Bob:pass Cy:pass Dee:pass", ("Ann", 6), teams=TEAMS)
    assert verdict(r2, table, hand).bid.label == "smudge"
    fails(r, "Ann:5 Bob:pass Cy:pass Dee:pass", ("Ann", 5), "auction[1]", "out of range", teams=TEAMS)


def test_eldest_must_say_whether_he_sells():
    fails("auction-pitch", "Ann:pass Bob:2 Cy:pass Dee:pass", ("Bob", 2), "auction[5]", "has not said")


def test_nobody_bids_so_eldest_pitches_without_a_contract():
    # seed 001: "If no bid is made he pitches the trump himself, without the obligation of making anything."
    r, table, hand = deal("auction-pitch", "Ann:pass Bob:pass Cy:pass Dee:pass", ("Ann", 0))
    out = check_auction(r, table, hand)
    assert (out.player, out.amount) == ("Ann", 0)
    v = verdict(r, table, parse_hand({"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 0},
                                      "auction": ["Ann:pass", "Bob:pass", "Cy:pass", "Dee:pass"],
                                      "points": {"high": "Bob", "low": "Bob"}}, table))
    assert v.bid.made and v.delta["Ann"] == 0 and v.delta["Bob"] == 2


def test_eldest_first_call_is_pitch_or_pass():
    fails("auction-pitch", "Ann:2 Bob:pass Cy:pass Dee:pass", ("Ann", 2), "auction[1]", "either pitch")


def test_a_pitch_without_a_contract_belongs_to_eldest():
    r, table, hand = deal("auction-pitch", "", ("Cy", 0))
    hand = parse_hand({"dealer": "Dee", "trump": "S", "bid": {"player": "Cy", "amount": 0},
                       "points": {"high": "Cy", "low": "Cy"}}, table)
    with pytest.raises(PitchError, match="eldest hand's: Ann"):
        check_bid(r, table, hand)


# -- who scores the price of a sale (bidding.sale_credit)


def _sale(mode: str, auction: str | None, bid: tuple[str, int]):
    r = variant("auction-pitch", bidding={"sale_credit": mode})
    table = parse_table({"players": FOUR})
    data: dict[str, Any] = {"dealer": "Dee", "trump": "S", "bid": {"player": bid[0], "amount": bid[1]},
                            "points": {"high": "Bob", "low": "Bob", "jack": "Dee"}}
    if auction:
        data["auction"] = auction.split()
    return r, table, parse_hand(data, table)


def test_no_sale_credit_by_default():
    r, table, hand = _sale("none", "Ann:pass Bob:2 Cy:pass Dee:pass Ann:pass", ("Bob", 2))
    assert rulesets.load("auction-pitch").settings["bidding"]["sale_credit"] == "none"
    assert verdict(rulesets.load("auction-pitch"), table, hand).delta == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}
    assert sale_credit(r, table, hand) is None


def test_the_seller_scores_the_price():
    r, table, hand = _sale("seller", "Ann:pass Bob:2 Cy:pass Dee:pass Ann:pass", ("Bob", 2))
    v = verdict(r, table, hand)
    assert v.delta == {"Ann": 2, "Bob": 2, "Cy": 0, "Dee": 1}
    assert any("sale" in line for line in v.settlement)
    # without the auction the seller is still known: anyone but eldest pitching bought the pitch
    r, table, hand = _sale("seller", None, ("Bob", 2))
    assert verdict(r, table, hand).delta["Ann"] == 2


def test_the_refused_buyer_scores_the_price():
    r, table, hand = _sale("buyer", "Ann:pass Bob:2 Cy:pass Dee:pass Ann:2", ("Ann", 2))
    v = verdict(r, table, hand)
    assert v.delta == {"Ann": -2, "Bob": 4, "Cy": 0, "Dee": 1}  # Ann set back 2; Bob 2 taken + 2 for the sale
    r, table, hand = _sale("buyer", "Ann:pass Bob:2 Cy:pass Dee:pass Ann:pass", ("Bob", 2))
    assert verdict(r, table, hand).delta["Bob"] == 2  # a sale that went through credits no buyer
    r, table, hand = _sale("buyer", None, ("Ann", 2))
    with pytest.raises(PitchError, match="give the auction"):
        verdict(r, table, hand)
