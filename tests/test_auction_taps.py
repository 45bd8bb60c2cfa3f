"""The auction as a page and `play` ask it: whose turn, the calls legal now, what the calls decide.

`Auction` is the one home of the bidding rules: the calls it offers are the ones `check_auction`
accepts, in every ruleset, and an auction tapped through to its end is a hand the judge takes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.game.bidding import Auction, _candidates, check_auction
from pitchkeeper.game.records import parse_hand, parse_table

FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def table(players: list[str] = FOUR, teams: dict[str, list[str]] | None = None) -> Any:
    return parse_table({"players": players, **({"teams": teams} if teams else {})})


def start(rules: str, dealer: str = "Dee", **kw: Any) -> Auction:
    return Auction.start(rulesets.load(rules), table(**kw), dealer)


def tap(a: Auction, *calls: Any) -> Auction:
    for c in calls:
        assert a.turn is not None, f"nobody may speak after {a.calls}"
        a = a.then(a.turn, c)
    return a


def test_the_turn_goes_round_from_the_dealers_left_and_the_bids_rise() -> None:
    a = start("seven-point", teams=TEAMS)
    assert a.turn == "Ann" and a.legal() == ("pass", 2, 3, 4, 5, 6, 7)
    a = tap(a, 3)
    assert a.turn == "Bob" and a.legal() == ("pass", 4, 5, 6, 7)
    a = tap(a, "pass", "pass")
    assert a.turn == "Dee" and not a.done
    # seed 000 gives the dealer no privilege: only higher, or pass
    assert a.legal() == ("pass", 4, 5, 6, 7)
    a = tap(a, "pass")
    assert a.done and a.turn is None and a.legal() == ()
    assert (a.outcome().player, a.outcome().amount) == ("Ann", 3)


def test_the_stuck_dealer_is_offered_no_pass() -> None:
    a = tap(start("partnership-pitch", teams=TEAMS), "pass", "pass", "pass")
    assert a.legal() == (2, 3, 4, "smudge")  # seed 002: "requires the dealer to bid two"


def test_the_dealer_may_equal_a_bid_below_the_top_but_not_a_smudge() -> None:
    a = tap(start("partnership-pitch", teams=TEAMS), 3, "pass", "pass")
    assert a.legal() == ("pass", 3, 4, "smudge")  # 3: the dealer's steal
    a = tap(start("partnership-pitch", teams=TEAMS), "smudge", "pass", "pass")
    assert a.legal() == ("pass",)


def test_a_card_laid_face_up_ends_the_bidding() -> None:
    a = start("solo-pitch")
    assert "pitch" in a.legal()
    a = tap(a, "pitch")
    assert a.done and a.turn == "Bob" and a.legal() == ("pass",)  # the others may still say pass
    assert (a.outcome().player, a.outcome().amount) == ("Ann", 4)


def test_the_sale_is_offered_as_such_at_eldests_last_word() -> None:
    a = start("auction-pitch")
    assert a.legal() == ("pass", "pitch")  # pitch at once (a contract of 4), or offer it for sale
    a = tap(a, "pass", 2, 3, "pass")
    assert a.turn == "Ann" and a.last_word and a.legal() == ("sell", 3)  # sell to Cy, or undertake 3
    sold = tap(a, "sell").outcome()
    assert (sold.player, sold.amount, sold.seller, sold.price) == ("Cy", 3, "Ann", 3)
    kept = tap(a, 3).outcome()
    assert (kept.player, kept.refused) == ("Ann", "Cy")


def test_nobody_bids_and_eldest_pitches_without_a_contract() -> None:
    a = tap(start("auction-pitch"), "pass", "pass", "pass", "pass")
    assert a.done and a.turn is None and a.outcome().amount == 0


def test_everyone_passes_and_the_hand_is_dealt_again() -> None:
    a = tap(start("trickster-10", teams=TEAMS), "pass", "pass", "pass", "pass")
    assert a.done
    with pytest.raises(PitchError, match="deals again"):
        a.outcome()


def test_a_sale_is_written_sell_and_the_old_spelling_still_sells() -> None:
    t = table()
    r = rulesets.load("auction-pitch")
    for word in ("sell", "pass"):
        hand = parse_hand({"dealer": "Dee", "trump": "S", "bid": {"player": "Cy", "amount": 3},
                           "auction": ["Ann:pass", "Bob:2", "Cy:3", "Dee:pass", f"Ann:{word}"],
                           "points": {"high": "Cy", "low": "Cy"}}, t)
        out = check_auction(r, t, hand)
        assert out is not None and out.seller == "Ann"


@pytest.mark.parametrize(("rules", "calls", "words"), [
    ("seven-point", "Ann:sell Bob:pass Cy:pass Dee:2", "only eldest hand sells"),
    ("auction-pitch", "Ann:sell Bob:2 Cy:pass Dee:pass Ann:sell", "sells (Ann:sell) once the others have bid"),
    ("auction-pitch", "Ann:pass Bob:sell Cy:2 Dee:pass Ann:sell", "only eldest hand sells"),
])
def test_a_sale_where_there_is_none_is_named(rules: str, calls: str, words: str) -> None:
    t = table(teams=TEAMS if rules == "seven-point" else None)
    hand = parse_hand({"dealer": "Dee", "trump": "S", "bid": {"player": "Dee", "amount": 2}, "auction": calls.split(),
                       "points": {"high": "Dee"}}, t)
    with pytest.raises(PitchError) as e:
        check_auction(rulesets.load(rules), t, hand)
    assert words in e.value.message and e.value.where is not None and e.value.where.startswith("auction[")


BUILT_IN = ["seven-point", "auction-pitch", "partnership-pitch", "cutthroat-pitch", "solo-pitch", "trickster-4",
            "trickster-10", "trickster-7"]


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(BUILT_IN), players=st.integers(3, 6), dealer=st.integers(0, 5), data=st.data())
def test_every_auction_tapped_from_the_legal_calls_is_one_the_judge_takes(rules: str, players: int, dealer: int,
                                                                          data: Any) -> None:
    r = rulesets.load(rules)
    names = FOUR + ["Eve", "Fay"]
    seats = names[:players]
    if players not in r.settings["players"]["counts"]:
        return
    teams = None
    if 1 not in r.settings["players"]["team_sizes"]:
        if players % 2:
            return
        teams = {"Us": seats[0::2], "Them": seats[1::2]}
    t = table(seats, teams)
    a = Auction.start(r, t, seats[dealer % players])
    while not a.done:
        legal = a.legal()
        assert legal, f"{rules}: {a.turn} has no call after {a.calls}"
        # every call not offered is one the rules refuse, or another way to write one offered (a sale
        # written pass, a pitch at once written as its worth): the same auction after it
        offered = [a.then(a.turn or "", c)._state() for c in legal]
        for c in _candidates(r.settings["bidding"]):
            if c not in legal:
                try:
                    after = a.then(a.turn or "", c)
                except PitchError:
                    continue
                assert after._state() in offered, f"{rules}: {c!r} is legal after {a.calls} but not offered"
        a = a.then(a.turn or "", data.draw(st.sampled_from(legal)))
    assert len(a.calls) <= players + 1
    try:
        out = a.outcome()
    except PitchError as e:
        assert "deals again" in e.message
        return
    amount: Any = "smudge" if out.smudge else out.amount
    hand = parse_hand({"dealer": a.dealer, "trump": "S", "bid": {"player": out.player, "amount": amount},
                       "auction": [f"{p}:{c}" for p, c in a.calls], "points": {"high": out.player}}, t)
    assert check_auction(r, t, hand) == out
