"""The kitty, the lay-away and the draw (game.deal): what a record of them must say, every refusal in one
line naming its key, the lay-away rules, and what a bidder's discard counts for."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from helpers import changed, variant

from pitchkeeper.errors import PitchError
from pitchkeeper.game import analysis, deal, odds, records, rulesets, scoring

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def house(name: str) -> rulesets.Ruleset:
    return rulesets.load(HOUSE / f"{name}.toml")


def judge(rs: rulesets.Ruleset, record: dict[str, Any], teams: dict[str, list[str]] | None = None) -> Any:
    table = records.parse_table({"players": PLAYERS, **({"teams": teams} if teams else {})})
    return scoring.verdict(rs, table, records.parse_hand(record, table))


def refused(rs: rulesets.Ruleset, record: dict[str, Any], where: str, message: str,
            teams: dict[str, list[str]] | None = None) -> None:
    with pytest.raises(PitchError) as e:
        judge(rs, record, teams)
    assert (e.value.where, e.value.message) == (where, message)


# ---------------------------------------------------------------------------
# A kitty of three (trickster-4-kitty). Ann bids 2 in spades; she was dealt AS KS 3H 4H 5H 10C, takes the
# kitty 2S 9D QD, and lays away 10C 9D QD (counting 12 for game). Cy takes more counters in tricks (20)
# than Ann (9).

KITTY: dict[str, Any] = {
    "dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 2},
    "kitty": ["2S", "9D", "QD"],
    "discard": ["10C", "9D", "QD"],
    "held": {"Ann": ["AS", "KS", "2S", "3H", "4H", "5H"], "Bob": ["QS", "7H", "8H", "9H", "10H", "JH"],
             "Cy": ["3S", "KH", "QH", "AH", "8D", "6H"], "Dee": ["4S", "2C", "3C", "4C", "5C", "7C"]},
    "captured": {"Ann": ["AS", "KS", "2S", "3H", "4H", "5H", "QS", "7H"],
                 "Cy": ["3S", "KH", "QH", "AH", "8H", "9H", "10H", "JH"],
                 "Dee": ["8D", "6H", "4S", "2C", "3C", "4C", "5C", "7C"]},
}


def kitty(**change: Any) -> dict[str, Any]:
    return changed(KITTY, **change)


def test_a_kitty_hand_is_judged_without_the_laid_away_cards():
    v = judge(house("trickster-4-kitty"), kitty())
    # high AS and low 2S (held by Ann when play began: it came from the kitty) to Ann; game to Cy, 20 to 9
    assert {a.point: a.side for a in v.awards} == {"high": "Ann", "low": "Ann", "game": "Cy"}
    assert v.game is not None and v.game.counts == {"Ann": 9, "Bob": 0, "Cy": 20, "Dee": 0}
    assert v.bid.made and v.delta == {"Ann": 2, "Bob": 0, "Cy": 1, "Dee": 0}
    assert v.to_json()["deal"] == {"kitty": ["2S", "9D", "QD"], "discard": {"Ann": ["10C", "9D", "QD"]},
                                   "drawn": None, "counts": "nothing"}


def test_a_discard_that_counts_for_game_counts_for_the_bidding_side_only():
    rs = variant(str(HOUSE / "trickster-4-kitty.toml"), kitty={"discard_counts": "game"})
    v = judge(rs, kitty())
    # the laid-away 10C and QD count 12 for Ann: 21 against Cy's 20
    assert v.game is not None and v.game.counts["Ann"] == 21 and v.game.side == "Ann"
    assert ("10C", 10) in v.game.cards["Ann"] and v.game.discard == ("10C", "9D", "QD")
    assert [a.point for a in v.awards if a.side == "Ann"] == ["high", "low", "game"]
    # listed in the bidder's pile, it is the same (no trick of its own; never counted twice)
    listed = kitty(captured={**KITTY["captured"], "Ann": [*KITTY["captured"]["Ann"], "10C", "9D", "QD"]})
    assert judge(rs, listed).to_json() == v.to_json()


def test_a_discard_that_counts_as_tricks_is_in_play():
    rs = variant(str(HOUSE / "trickster-4-kitty.toml"), kitty={"discard_counts": "all"})
    # Ann lays away the ace of trumps with the kitty's 9D and QD: it is still high, and hers
    record = kitty(discard=["AS", "9D", "QD"],
                   held={**KITTY["held"], "Ann": ["10C", "KS", "2S", "3H", "4H", "5H"]},
                   captured={**KITTY["captured"], "Ann": ["10C", "KS", "2S", "3H", "4H", "5H", "QS", "7H"]})
    v = judge(rs, record)
    high = next(a for a in v.awards if a.point == "high")
    assert (high.card, high.side, high.player, high.why.how) == ("AS", "Ann", "Ann", "discard")
    assert "Ann laid it away" in high.reason


@pytest.mark.parametrize(("rules", "change", "where", "message"), [
    ("trickster-4", {"discard": None}, "kitty", "trickster-4 deals no kitty (kitty.size = 0)"),
    ("trickster-4-kitty", {"kitty": ["2S", "9D"]}, "kitty", "2 cards; trickster-4-kitty deals a kitty of 3 (kitty.size)"),
    ("trickster-4-kitty", {"kitty": ["2S", "9D", "JK"]}, "kitty",
     "JK is not in trickster-4-kitty's deck (52 cards, no jokers)"),
    ("trickster-4-kitty", {"kitty": ["2S", "9D", "9D"]}, "kitty", "9D is listed twice"),
    ("trickster-4-kitty", {"held": {**KITTY["held"], "Cy": ["3S", "KH", "QH", "AH", "9D", "6H"]}}, "held.Cy",
     "9D was in the kitty, which Ann took, but held.Cy lists it"),
    ("trickster-4-kitty", {"discard": {"Ann": ["10C", "9D", "QD"], "Bob": ["JH"]}}, "discard.Bob",
     "only the bidder lays cards away in trickster-4-kitty (there is no draw)"),
    ("trickster-4-kitty", {"discard": ["10C", "9D"]}, "discard.Ann",
     "2 cards laid away; Ann held 6+3 after taking the kitty and keeps 6, so lays away 3"),
    ("trickster-4-kitty", {"discard": ["10C", "9D", "9D"]}, "discard.Ann", "9D is listed twice"),
    ("trickster-4-kitty", {"discard": ["10C", "9D", "QD"], "held": {**KITTY["held"], "Dee": [
        "4S", "2C", "3C", "4C", "5C", "10C"]}}, "held.Dee", "10C was laid away by Ann, so held.Dee cannot list it"),
    ("trickster-4-kitty", {"captured": {**KITTY["captured"], "Dee": ["10C", *KITTY["captured"]["Dee"][1:]]},
                           "held": None}, "captured.Dee",
     "10C was laid away (discard) and counts for nobody (kitty.discard_counts = nothing)"),
])
def test_a_bad_kitty_or_discard_is_refused_in_one_line(rules: str, change: dict[str, Any], where: str,
                                                       message: str) -> None:
    rs = rulesets.load(rules) if rules == "trickster-4" else house(rules)
    refused(rs, kitty(**change), where, message)


def test_a_discard_in_a_ruleset_that_lays_nothing_away_is_refused():
    refused(rulesets.load("trickster-4"), kitty(kitty=None), "discard",
            "trickster-4 lays no cards away (no kitty.size, no draw.discard)")


def test_a_counted_discard_must_be_given_and_counts_only_for_the_bidding_side():
    rs = variant(str(HOUSE / "trickster-4-kitty.toml"), kitty={"discard_counts": "game"})
    refused(rs, kitty(discard=None), "discard",
            "missing - the bidder's discard counts for game to the bidding side (kitty.discard_counts = game): "
            "list it, discard = [\"5H\", ...]")
    wrong = kitty(captured={**KITTY["captured"], "Bob": ["10C", "9D", "QD"]})
    refused(rs, wrong, "captured.Bob",
            "10C is Ann's discard; it counts for the bidding side Ann (kitty.discard_counts = game), not for Bob")


KITTY_TRICKS = [{"leader": "Ann", "cards": ["AS", "QS", "3S", "4S"]}, {"leader": "Ann", "cards": ["KS", "7H", "8D", "2C"]},
                {"leader": "Ann", "cards": ["2S", "8H", "6H", "3C"]}, {"leader": "Ann", "cards": ["3H", "9H", "KH", "4C"]},
                {"leader": "Cy", "cards": ["AH", "5C", "4H", "10H"]}, {"leader": "Cy", "cards": ["QH", "7C", "5H", "JH"]}]


def test_a_kitty_hand_played_trick_by_trick_judges_as_its_captured_cards():
    rs = house("trickster-4-kitty")
    played = {k: v for k, v in KITTY.items() if k not in ("captured", "held")} | {"tricks": KITTY_TRICKS}
    v = judge(rs, played)
    assert {a.point: a.side for a in v.awards} == {"high": "Ann", "low": "Ann", "game": "Cy"}


@pytest.mark.parametrize(("trick", "cards", "where", "message"), [
    (0, ["AS", "2S", "3S", "4S"], "tricks[1].cards[2]", "Bob plays 2S, which was in the kitty Ann took"),
    (1, ["KS", "7H", "8D", "10C"], "tricks[2].cards[4]", "Dee plays 10C, which Ann laid away (discard.Ann)"),
])
def test_cards_out_of_play_are_refused_in_the_tricks(trick: int, cards: list[str], where: str, message: str) -> None:
    tricks = copy.deepcopy(KITTY_TRICKS)
    tricks[trick]["cards"] = cards
    played = {k: v for k, v in KITTY.items() if k not in ("captured", "held")} | {"tricks": tricks}
    refused(house("trickster-4-kitty"), played, where, message)


# ---------------------------------------------------------------------------
# Trickster's draw (trickster-10-draw): nine dealt, spades trump; from Ann's left each throws every non-trump
# and is refilled to six; Cy, with nine trumps, sheds the three lowest that score nothing; Ann takes the
# rest of the stock and lays away to six.

DRAW: dict[str, Any] = {
    "dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 5},
    "discard": {"Bob": ["2D", "3D", "4D", "5D", "6D", "7D", "8D"], "Cy": ["4S", "5S", "6S"],
                "Dee": ["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                "Ann": ["3H", "4H", "5H", "6H", "7H", "8H", "10D", "JD", "QD", "KD", "AD", "9C", "10C"]},
    "drawn": {"Bob": ["9H", "10H", "JH", "QH"], "Dee": ["KH", "AH", "2H", "9D"],
              "Ann": ["10D", "JD", "QD", "KD", "AD", "9C", "10C", "QC", "KC", "AC"]},
    "held": {"Ann": ["AS", "KS", "QS", "QC", "KC", "AC"], "Bob": ["JS", "JC", "9H", "10H", "JH", "QH"],
             "Cy": ["HJ", "LJ", "10S", "9S", "8S", "7S"], "Dee": ["3S", "2S", "KH", "AH", "2H", "9D"]},
    "captured": {"Us": ["AS", "KS", "QS", "JS", "JC", "HJ", "LJ", "10S", "9S", "8S", "7S", "3S"], "Them": ["2S"]},
}
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def draw(**change: Any) -> dict[str, Any]:
    out = copy.deepcopy(DRAW)
    out.update(change)
    return out


def test_a_drawn_hand_is_judged_and_its_deal_shown():
    v = judge(house("trickster-10-draw"), draw(), TEAMS)
    # Us: ace, jack, off-jack, both jokers, ten, three (3) = 9; the deuce to Dee, who held it
    assert v.taken == {"Us": 9, "Them": 1} and v.bid.made
    assert v.to_json()["deal"]["drawn"]["Bob"] == ["9H", "10H", "JH", "QH"]
    # the built-in accepts the same record and checks its cards, with no rule of the draw
    assert judge(rulesets.load("trickster-10"), draw(), TEAMS).taken == {"Us": 9, "Them": 1}


@pytest.mark.parametrize(("change", "where", "message"), [
    ({"drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH", "9H"]}}, "drawn.Bob", "9H is listed twice"),
    ({"drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH", "JK"]}}, "drawn.Bob",
     "JK is not in trickster-10-draw's deck (54 cards, two jokers, HJ and LJ)"),
    ({"discard": {**DRAW["discard"], "Cy": ["4S", "5S", "JK"]}}, "discard.Cy",
     "JK is not in trickster-10-draw's deck (54 cards, two jokers, HJ and LJ)"),
    ({"drawn": {**DRAW["drawn"], "Cy": ["KH"]}}, "drawn.Cy", "KH is drawn by both Dee and Cy"),
    ({"drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH", "QH", "2D"]}}, "discard.Bob",
     "2D was drawn by Bob, so discard.Bob cannot list it"),
    ({"drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH"]}}, "held.Bob",
     "6 held after 7 thrown and 3 drawn, but Bob was dealt 9 (deck.deal_size 9, deck.hand_size 6)"),
    ({"discard": {k: v for k, v in DRAW["discard"].items() if k != "Bob"},
      "held": {**DRAW["held"], "Bob": ["JS", "JC", "9H", "10H", "JH", "8D"]}}, "drawn.Bob",
     "QH was drawn by Bob but is not in held.Bob"),
    ({"held": {**DRAW["held"], "Bob": ["JS", "JC", "9H", "10H", "JH", "8D"]},
      "discard": {**DRAW["discard"], "Bob": ["2D", "3D", "4D", "5D", "6D", "7D", "QH"]},
      "drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH", "QH"]}}, "discard.Bob",
     "QH was drawn by Bob, so discard.Bob cannot list it"),
    ({"held": {**DRAW["held"], "Bob": ["JS", "JC", "9H", "10H", "JH", "8D"]},
      "discard": {**DRAW["discard"], "Bob": ["2D", "3D", "4D", "5D", "6D", "7D", "JD"]},
      "drawn": {**DRAW["drawn"], "Bob": ["9H", "10H", "JH", "QH"], "Ann": ["10D", "QD", "KD", "AD", "9C", "10C", "QC",
                                                                              "KC", "AC"]}},
     "discard.Ann", "JD is thrown by both Bob and Ann"),
    ({"held": {**DRAW["held"], "Cy": ["HJ", "LJ", "4S", "9S", "8S", "7S"]},
      "discard": {**DRAW["discard"], "Cy": ["10S", "5S", "6S"]}}, "discard.Cy",
     "10S scores a point (ten) and may not be laid away while Cy keeps 4S, which scores none "
     "(discard.point_trumps = false)"),
])
def test_a_bad_draw_is_refused_in_one_line(change: dict[str, Any], where: str, message: str) -> None:
    refused(house("trickster-10-draw"), draw(**change), where, message, TEAMS)


def test_a_non_trump_kept_from_the_deal_is_refused_in_a_draw_of_non_trumps():
    # Bob keeps 8D, dealt to him, and draws three: the counts agree, the rule does not
    record = draw(held={**DRAW["held"], "Bob": ["JS", "JC", "9H", "10H", "JH", "8D"]},
                  discard={**DRAW["discard"], "Bob": ["2D", "3D", "4D", "5D", "6D", "7D"]},
                  drawn={**DRAW["drawn"], "Bob": ["9H", "10H", "JH"]})
    refused(house("trickster-10-draw"), record, "held.Bob", "8D is not a trump and was not drawn: every non-trump "
            "is thrown in the draw (draw.discard = non-trumps)", TEAMS)


def test_more_cards_drawn_than_the_stock_held_is_refused():
    record = {k: v for k, v in DRAW.items() if k not in ("held", "discard")}
    record["drawn"] = {"Bob": ["9H", "10H", "JH", "QH", "KH", "AH", "2H", "9D", "10D"],
                       "Dee": ["JD", "QD", "KD", "AD", "9C", "10C", "QC", "KC", "AC", "3D"]}
    refused(house("trickster-10-draw"), record, "drawn", "19 cards drawn, but the stock held 18 after the deal", TEAMS)


def test_a_thrown_card_may_not_be_played_or_captured():
    rs = house("trickster-10-draw")
    captured = draw(captured={"Us": ["AS", "KS", "QS", "JS", "JC", "HJ", "LJ", "10S", "9S", "8S", "7S", "3S"],
                              "Them": ["2S", "4S"]})
    refused(rs, captured, "captured.Them", "4S was thrown in the draw (discard.Cy) and is out of play", TEAMS)
    played = {k: v for k, v in DRAW.items() if k not in ("captured", "held")}
    played["tricks"] = [{"leader": "Ann", "cards": ["Ann:AS", "Bob:JS", "Cy:4S", "Dee:2S"]}]
    refused(rs, played, "tricks[1].cards[3]", "Cy plays 4S, which Cy threw in the draw (discard.Cy)", TEAMS)


def test_drawn_cards_in_a_ruleset_without_a_draw_that_deals_are_refused():
    refused(house("minnesota-smear"), {**MINNESOTA, "drawn": {"Bob": ["4C"]}}, "drawn",
            "minnesota-smear deals no cards after trump (draw.discard = down-to-hand)", TEAMS)


# ---------------------------------------------------------------------------
# Minnesota Smear: nine dealt, a kitty of four to Ann (hearts), everyone down to six without drawing.

MINNESOTA: dict[str, Any] = {
    "dealer": "Dee", "trump": "H", "bid": {"player": "Ann", "amount": 3},
    "kitty": ["2H", "9D", "10D", "3C"],
    "discard": {"Ann": ["2S", "3S", "4S", "5S", "6S", "7S", "9D"], "Bob": ["8S", "9S", "10S"],
                "Cy": ["2C", "5H", "6H"], "Dee": ["2D", "3D", "4D"]},
    "held": {"Ann": ["AH", "KH", "3H", "2H", "10D", "3C"], "Bob": ["JH", "4H", "JS", "QS", "KS", "AS"],
             "Cy": ["HJ", "LJ", "10H", "9H", "8H", "7H"], "Dee": ["QH", "JD", "5D", "6D", "7D", "8D"]},
    "captured": {"Us": ["AH", "KH", "3H", "2H", "10D", "3C", "HJ", "LJ", "10H", "9H", "8H", "7H", "JH", "4H", "JS",
                        "QS", "KS", "AS", "7D", "8D"],
                 "Them": ["QH", "JD", "5D", "6D"]},
}


@pytest.mark.parametrize(("change", "where", "message"), [
    ({"discard": {**MINNESOTA["discard"], "Bob": ["8S", "9S"]},
      "held": {**MINNESOTA["held"], "Bob": ["JH", "4H", "JS", "QS", "KS", "AS", "10S"]}}, "discard.Bob",
     "2 cards thrown; Bob held 9 and keeps 6"),
    ({"discard": {**MINNESOTA["discard"], "Ann": ["2S", "3S", "4S", "5S", "6S", "7S"]}}, "discard.Ann",
     "6 cards thrown; Ann held 9+4 and keeps 6"),
    ({"discard": {**MINNESOTA["discard"], "Bob": ["4H", "8S", "9S"]},
      "held": {**MINNESOTA["held"], "Bob": ["JH", "10S", "JS", "QS", "KS", "AS"]}}, "discard.Bob",
     "4H is a trump and Bob kept only 1 trump: a trump is laid away only by a hand holding more than 6 "
     "(discard.trumps = excess-only)"),
    ({"discard": {**MINNESOTA["discard"], "Cy": ["2C", "LJ", "5H"]},
      "held": {**MINNESOTA["held"], "Cy": ["HJ", "6H", "10H", "9H", "8H", "7H"]}}, "discard.Cy",
     "LJ scores a point (joker) and may not be laid away while Cy keeps 6H, which scores none "
     "(discard.point_trumps = false)"),
])
def test_the_lay_away_rules_are_checked(change: dict[str, Any], where: str, message: str) -> None:
    refused(house("minnesota-smear"), {**MINNESOTA, **change}, where, message, TEAMS)


def test_a_minnesota_hand_is_judged():
    v = judge(house("minnesota-smear"), MINNESOTA, TEAMS)
    # Us: high AH, low 2H (Ann held it), jack JH, both jokers, trey 3H (3), game; Them: the off-jack JD
    assert v.taken == {"Us": 9, "Them": 1}
    assert {a.point for a in v.awards if a.side == "Them"} == {"off-jack"}


def test_nine_card_pitch_limits_the_exchange():
    rs = house("nine-card-pitch")
    record = {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 3},
              "discard": {"Bob": ["2D", "3D", "4D", "5D", "6D"]},
              "points": {"high": "Ann", "low": "Ann", "game": "Ann"}}
    refused(rs, record, "discard.Bob", "5 cards thrown; at most 4 may be exchanged (draw.most)", TEAMS)


# ---------------------------------------------------------------------------
# The lay-away rules as data: what may go, what must be thrown


def test_must_throw_and_may_lay_away_follow_the_rules():
    rs = house("trickster-10-draw")
    view = rs.views["S"]
    nine = ["HJ", "LJ", "10S", "9S", "8S", "7S", "6S", "5S", "4S"]  # nine trumps, three that score
    assert deal.must_throw(rs, view, nine) == ("4S", "5S", "6S")  # the lowest that score nothing
    assert deal.must_throw(rs, view, ["AS", "2D", "3C"]) == ("2D", "3C")
    assert set(deal.may_lay_away(rs, view, nine + ["2D"], 6)) == {"2D", "9S", "8S", "7S", "6S", "5S", "4S"}
    assert deal.may_lay_away(rs, view, ["AS", "KS", "2D", "3C"], 6) == ("2D", "3C")
    plain = rulesets.load("trickster-4")
    assert deal.may_lay_away(plain, plain.views["S"], ["AS", "2D"], 1) == ("AS", "2D")


def test_two_look_alike_jokers_are_named_by_the_order_they_fall():
    rs = house("minnesota-smear")  # first-higher: the first joker played is the higher
    table = records.parse_table({"players": PLAYERS, "teams": TEAMS})
    hand = records.parse_hand({"dealer": "Dee", "trump": "H", "bid": {"player": "Ann", "amount": 3},
                               "kitty": ["LJ", "2S", "3S", "4S"],
                               "tricks": [{"leader": "Ann", "cards": ["LJ", "HJ", "2H", "3H"]}]}, table)
    named = deal.name_jokers(rs, hand)
    assert named.tricks is not None and [p.card for p in named.tricks[0].plays] == ["HJ", "LJ", "2H", "3H"]
    assert named.kitty == ("HJ", "2S", "3S", "4S")
    later = house("smear-jick")  # later-higher: of two in one trick the later wins
    assert deal.name_jokers(later, hand) == hand  # the later of the two is written HJ already
    same = hand._replace(tricks=(hand.tricks[0]._replace(plays=tuple(reversed(hand.tricks[0].plays))),))
    assert deal.name_jokers(rs, same) == same  # HJ already fell first
    swapped = deal.name_jokers(later, same).tricks
    assert swapped is not None and [p.card for p in swapped[0].plays] == ["3H", "2H", "LJ", "HJ"]


def test_the_solver_counts_a_discard_that_counts_for_game():
    """analyse hand: the value at the end of the line played is what the verdict says the bidder took, the
    laid-away counters included (without them game would be Cy's, 20 to 9)."""
    rs = house("widow-counts-for-game")
    rec = {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 2},
           "kitty": ["2S", "9D", "QD", "8D"], "discard": ["10C", "9D", "QD", "8D"],
           "tricks": [{"leader": "Ann", "cards": ["AS", "QS", "3S", "4S"]},
                      {"leader": "Ann", "cards": ["KS", "7H", "6D", "2C"]},
                      {"leader": "Ann", "cards": ["2S", "8H", "6H", "3C"]},
                      {"leader": "Ann", "cards": ["3H", "9H", "KH", "4C"]},
                      {"leader": "Cy", "cards": ["AH", "5C", "4H", "10H"]},
                      {"leader": "Cy", "cards": ["QH", "7C", "5H", "JH"]}]}
    table = records.parse_table({"players": PLAYERS})
    hand = records.parse_hand(rec, table)
    v = scoring.verdict(rs, table, hand)
    assert v.taken["Ann"] == 3 and v.game is not None and v.game.side == "Ann"
    a = analysis.analyse(rs, table, hand, name_points=False)
    assert a["plays"][-1]["after"] == 3 and a["taken"] == 3
    nothing = variant(str(HOUSE / "widow-counts-for-game.toml"), kitty={"discard_counts": "nothing"})
    plain = analysis.analyse(nothing, table, hand, name_points=False)
    assert plain["plays"][-1]["after"] == 2


@pytest.mark.parametrize(("name", "key"), [("minnesota-smear", "kitty.size = 4"), ("trickster-4-kitty", "kitty.size = 3"),
                                           ("nine-card-pitch", "draw.discard = any")])
def test_the_odds_of_a_bid_are_refused_where_players_choose_what_to_lay_away(name: str, key: str) -> None:
    rs = house(name)
    with pytest.raises(PitchError) as e:
        odds.bid_odds(sorted(rs.deck)[:rs.settings["deck"]["hand_size"]], rs, samples=2, seed=1)
    assert (e.value.where, e.value.message) == ("rules", f"{name} lets players choose what to lay away before play "
                                                           f"({key}); the cards held when play begins are unknown, so "
                                                           "no odds are given")
