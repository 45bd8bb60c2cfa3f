"""Call your partner (game.partners): the called card, who held it, the hand's sides, the score of each
player, and every refusal of a bad record in one line naming its key."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import changed, variant

from pitchkeeper.errors import PitchError
from pitchkeeper.game import odds, partners, records, rulesets, sampling, scoring

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
CALL = rulesets.load(HOUSE / "call-partner-5.toml")
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
TABLE = records.parse_table({"players": FIVE})

# Ann bids 6 in spades and calls the ace of trumps; Cy holds it. The points as the table enters them.
POINTS = {"ace": "Cy", "jack": "Ann", "off-jack": "Bob", "high-joker": "Ann", "low-joker": "Dee", "ten": "Cy",
          "three": "Ann", "deuce": "Eve"}


def record(**change: Any) -> dict[str, Any]:
    return changed({"dealer": "Eve", "trump": "S", "bid": {"player": "Ann", "amount": 6}, "called": "AS",
                    "partner": "Cy", "points": dict(POINTS)}, **change)


def judge(rs: rulesets.Ruleset, rec: dict[str, Any], table: records.Table = TABLE) -> scoring.Verdict:
    return scoring.verdict(rs, table, records.parse_hand(rec, table))


def refused(rs: rulesets.Ruleset, rec: dict[str, Any], where: str, message: str,
            table: records.Table = TABLE) -> None:
    with pytest.raises(PitchError) as e:
        judge(rs, rec, table)
    assert (e.value.where, e.value.message) == (where, message)


def test_the_bidder_and_partner_each_score_what_they_took_together():
    v = judge(CALL, record())
    # Ann+Cy: ace, jack, high joker, ten, three (3) = 7 against a bid of 6; Bob+Dee+Eve: off-jack, low joker, deuce
    assert v.bid.made and v.bid.team == "Ann+Cy" and v.bid.partner == "Cy" and v.bid.called == "AS"
    assert v.taken == {"Ann": 7, "Bob": 3, "Cy": 7, "Dee": 3, "Eve": 3}
    assert v.delta == {"Ann": 7, "Bob": 3, "Cy": 7, "Dee": 3, "Eve": 3}
    j = v.to_json()
    assert j["bid"] == {"side": "Ann", "player": "Ann", "amount": 6, "made": True, "called": "AS", "partner": "Cy",
                        "team": "Ann+Cy"}
    assert j["teams"] == {"Ann+Cy": {"players": ["Ann", "Cy"], "taken": 7},
                          "Bob+Dee+Eve": {"players": ["Bob", "Dee", "Eve"], "taken": 3}}
    assert {a["point"]: a["side"] for a in j["awards"]}["deuce"] == "Bob+Dee+Eve"


def test_a_set_costs_the_bidder_and_the_partner_the_bid_each():
    v = judge(CALL, record(bid={"player": "Ann", "amount": 8}))
    assert not v.bid.made and v.delta == {"Ann": -8, "Bob": 3, "Cy": -8, "Dee": 3, "Eve": 3}


def test_hand_sides_are_named_clockwise_from_the_bidder():
    v = judge(CALL, record(bid={"player": "Cy", "amount": 6}, called="KS", partner="Ann"))
    assert v.hand_sides == (("Cy+Ann", ("Cy", "Ann")), ("Dee+Eve+Bob", ("Dee", "Eve", "Bob")))
    assert v.bid_team == ("Cy", "Ann")


def test_with_no_other_holder_the_bidder_plays_alone_against_the_rest():
    v = judge(CALL, record(partner="none"))
    # Ann alone: jack, high joker, three = 5 against 6: set; the four others took 5 together
    assert v.bid.partner is None and v.bid.team == "Ann" and not v.bid.made
    assert v.delta == {"Ann": -6, "Bob": 5, "Cy": 5, "Dee": 5, "Eve": 5}
    assert v.to_json()["bid"]["partner"] is None


def test_defenders_who_each_play_alone_score_their_own():
    rs = variant(str(HOUSE / "call-partner-5.toml"), partner={"defenders": "each"})
    v = judge(rs, record())
    assert v.delta == {"Ann": 7, "Bob": 1, "Cy": 7, "Dee": 1, "Eve": 1}
    assert [s for s, _ in v.hand_sides or ()] == ["Ann+Cy", "Bob", "Dee", "Eve"]


def test_without_calling_nothing_changes():
    rs = rulesets.load("trickster-10")
    table = records.parse_table({"players": FIVE[:4], "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}})
    pts = {k: ("Us" if v in ("Ann", "Cy") else "Them") for k, v in POINTS.items()}
    v = judge(rs, {"dealer": "Dee", "trump": "S", "bid": {"player": "Ann", "amount": 6}, "points": pts}, table)
    assert v.hand_sides is None and v.bid_team == () and "teams" not in v.to_json()
    assert set(v.to_json()["bid"]) == {"side", "player", "amount", "made"}


@pytest.mark.parametrize(("change", "where", "message"), [
    ({"called": "1OS"}, "called", "'1OS' is not a card - did you mean 10S?"),
    ({"called": None}, "called", "missing - with 5 players the bidder calls a partner's card: called = \"AH\""),
    ({"called": "JK"}, "called", "JK is not in call-partner-5's deck (54 cards, two jokers, HJ and LJ)"),
    ({"called": "AH"}, "called", "AH is not a trump (hearts); the bidder calls a trump (partner.may_call)"),
    ({"partner": "Zed"}, "partner", "'Zed' is not a player (players: Ann, Bob, Cy, Dee, Eve)"),
    ({"partner": "Ann"}, "partner", "Ann is the bidder; when no other player held AS, write partner = \"none\""),
    ({"partner": None}, "partner",
     "missing - say who held the called card AS (partner = \"Bob\", or \"none\" if no other player did)"),
    ({"points": {**POINTS, "ace": "Ann+Cy"}}, "points.ace",
     "'Ann+Cy' is not a player - did you mean Ann? (players: Ann, Bob, Cy, Dee, Eve)"),
])
def test_a_bad_call_is_refused_in_one_line(change: dict[str, Any], where: str, message: str) -> None:
    refused(CALL, record(**change), where, message)


def test_a_call_at_a_table_that_calls_no_partner_is_refused():
    four = records.parse_table({"players": FIVE[:4]})
    rec = record(dealer="Dee", bid={"player": "Ann", "amount": 2})
    refused(rulesets.load("trickster-4"), {**rec, "points": {"high": "Ann", "low": "Bob"}}, "called",
            "trickster-4 calls no partner with 4 players (partner.counts = [])", four)
    teams = records.parse_table({"players": FIVE[:4], "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}})
    refused(rulesets.load("trickster-4"), {**rec, "points": {"high": "Us", "low": "Us"}}, "called",
            "this match plays in fixed teams; a partner is called only each for himself", teams)


def test_a_bidder_may_not_call_a_card_it_holds():
    held = {"Ann": ["AS", "JS", "HJ", "3S"], "Cy": ["10S", "KS"], "Bob": ["JC"], "Dee": ["LJ"], "Eve": ["2S"]}
    refused(CALL, record(held=held, partner=None), "called",
            "Ann called AS, which Ann held (held.Ann): the bidder may not call a card it holds; if it came from the "
            "kitty or the draw, give kitty or drawn")
    # drawn after the call, it is no partner's: the bidder plays alone
    v = judge(CALL, record(held=held, partner=None, drawn={"Ann": ["AS"]}))
    assert v.bid.partner is None and v.bid.team == "Ann"


def test_partner_must_agree_with_who_held_the_card():
    held = {"Ann": ["JS", "HJ", "3S"], "Bob": ["AS", "JC"], "Cy": ["10S", "KS"], "Dee": ["LJ"], "Eve": ["2S"]}
    refused(CALL, record(held=held), "partner", "Cy, but held.Bob lists AS")
    refused(CALL, record(dealt={"Dee": ["AS"]}), "partner", "Cy, but dealt.Dee lists AS")
    v = judge(CALL, record(held=held, partner=None, points={**POINTS, "ace": "Bob", "ten": "Bob"}))
    assert v.bid.partner == "Bob"


def test_nobody_holding_the_card_deals_again_where_the_rules_say_so():
    rs = variant(str(HOUSE / "call-partner-5.toml"), partner={"unheld": "redeal"})
    refused(rs, record(partner="none"), "partner",
            "nobody but the bidder held AS: call-partner-5 deals again (partner.unheld = redeal), so there is no "
            "hand to score")


# A hand played out, trump-only: Ann calls the king of trumps, which Bob holds and must play to trick 1.
HELD = {"Ann": ["AS", "QS", "3S"], "Bob": ["KS", "JS"], "Cy": ["HJ", "2S"], "Dee": ["JC", "10S"],
        "Eve": ["LJ", "9S"]}
TRICKS = [{"leader": "Ann", "cards": ["Ann:AS", "Bob:KS", "Cy:2S", "Dee:10S", "Eve:9S"]},
          {"leader": "Ann", "cards": ["Ann:QS", "Bob:JS", "Cy:HJ", "Dee:JC", "Eve:LJ"]},
          {"leader": "Ann", "cards": ["Ann:3S"]}]


def played(**change: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": "Eve", "trump": "S", "bid": {"player": "Ann", "amount": 5}, "called": "KS",
                           "held": HELD, "tricks": TRICKS}
    out.update(change)
    return out


def test_the_tricks_show_the_partner():
    v = judge(CALL, played())
    assert v.bid.partner == "Bob" and v.illegal == ()
    assert partners.holder(CALL, TABLE, records.parse_hand(played(), TABLE)) == "Bob"
    refused(CALL, played(partner="Dee"), "partner", "Dee, but Bob played KS (tricks[1])")


def test_the_holder_must_play_the_called_card_to_the_first_trick():
    late = [{"leader": "Ann", "cards": ["Ann:AS", "Bob:JS", "Cy:2S", "Dee:10S", "Eve:9S"]},
            {"leader": "Ann", "cards": ["Ann:QS", "Bob:KS", "Cy:HJ", "Dee:JC", "Eve:LJ"]},
            {"leader": "Ann", "cards": ["Ann:3S"]}]
    v = judge(CALL, played(tricks=late))
    assert [(i.trick, i.player, i.card, i.rule) for i in v.illegal] == [(1, "Bob", "JS", "called-first-trick")]
    assert v.illegal[0].why.endswith("Bob held K♠, the called card, and must play it to the first trick "
                                     "(partner.first_trick)")


def test_a_bidder_who_plays_the_card_it_called_is_refused():
    tricks = [{"leader": "Ann", "cards": ["Ann:KS", "Bob:AS", "Cy:2S", "Dee:10S", "Eve:9S"]},
              {"leader": "Bob", "cards": ["Bob:JS", "Cy:HJ", "Dee:JC", "Eve:LJ", "Ann:QS"]},
              {"leader": "Ann", "cards": ["Ann:3S"]}]
    rec = {k: v for k, v in played(tricks=tricks).items() if k != "held"}
    refused(CALL, rec, "tricks[1]",
            "Ann plays KS, the card Ann called: the bidder may not call a card it holds; if it came from the kitty "
            "or the draw, give kitty or drawn")


def test_holder_is_none_when_the_record_cannot_tell():
    hand = records.parse_hand(record(partner=None), TABLE)
    assert partners.holder(CALL, TABLE, hand) is None
    assert partners.team_name(["Ann", "Cy"]) == "Ann+Cy"


def test_the_called_card_beats_the_follow_rules_in_the_first_trick():
    """Cutthroat with a called card of any suit: its holder plays it to trick 1 even when trumps are led
    and it holds one; judged legal. Over many random deals played out legally, no play is illegal, and
    such a trick is among them."""
    rs = variant("cutthroat-pitch", partner={"counts": [5], "first_trick": True})
    rng = random.Random(4)
    seen = 0
    for _ in range(300):
        rec = sampling.random_played(rs, rng, FIVE, None)
        if rec is None:
            continue
        v = judge(rs, rec)
        assert v.illegal == ()
        first = rec["tricks"][0]["cards"]
        holder = rec["partner"]
        if holder != "none":
            card = next(c.split(":")[1] for c in first if c.startswith(holder + ":"))
            trumps_held = [c for c in rec["held"][holder] if rs.views[rec["trump"]].suit[c] == "T"]
            led = rs.views[rec["trump"]].suit[first[0].split(":")[1]]
            assert card == rec["called"]
            seen += led == "T" and rs.views[rec["trump"]].suit[card] != "T" and bool(trumps_held)
    assert seen > 0


def test_the_odds_of_a_bid_are_refused_where_a_partner_is_called():
    with pytest.raises(PitchError) as e:
        odds.bid_odds(["AS", "KS", "QS", "JS", "10S", "9S"], CALL, players=5, samples=2, seed=1)
    assert (e.value.where, e.value.message) == (
        "players", "call-partner-5 calls a partner's card with 5 players (partner.counts): the odds would need the "
                     "card called, so none are given")


# ---------------------------------------------------------------------------
# Seating in teams: one test of "can n players form teams of this size", one crosswise seating


SEATS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu"]


@pytest.mark.parametrize("n", range(2, 13))
def test_crosswise_seats_partners_apart_exactly_when_the_players_make_whole_teams(n: int) -> None:
    players = SEATS[:n]
    for size in range(1, 5):
        teams = partners.crosswise(players, size)
        assert (teams is not None) == (size > 1 and records.teams_fit(n, size)) == (
            size > 1 and n % size == 0 and n >= 2 * size)
        if teams is None:
            continue
        k = len(teams)
        assert sorted(p for _, ms in teams for p in ms) == sorted(players) and {len(ms) for _, ms in teams} == {size}
        team_of = {p: t for t, ms in teams for p in ms}
        assert all(team_of[players[i]] == team_of[players[i % k]] for i in range(n))  # every k-th seat a partner
        assert all(team_of[players[i]] != team_of[players[(i + 1) % n]] for i in range(n))  # never side by side


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_a_random_table_is_seated_as_a_new_match_seats_it(name: str) -> None:
    r = rulesets.load(name)
    for seed in range(12):
        players, teams = sampling.random_table(r, random.Random(seed))
        sizes = records.team_sizes_for(r.settings["players"]["team_sizes"], len(players))
        if teams is None:
            assert 1 in sizes
            continue
        crossed = partners.crosswise(players, len(next(iter(teams.values()))))
        assert crossed is not None and [tuple(ms) for ms in teams.values()] == [ms for _, ms in crossed]


@pytest.mark.parametrize(("counts", "sizes", "fits"), [
    ([4, 6], [2], True), ([5], [2], False), ([6], [3], True), ([3], [3], False), ([5], [2, 1], True),
])
def test_a_ruleset_with_a_table_its_teams_cannot_fill_is_refused_in_one_line(tmp_path: Path, counts: list[int],
                                                                          sizes: list[int], fits: bool) -> None:
    f = tmp_path / "house.toml"
    f.write_text(f'extends = "trickster-4"\n[players]\ncounts = {counts}\nteam_sizes = {sizes}\n', encoding="utf-8")
    if fits:
        assert rulesets.load(f).settings["players"]["counts"] == counts
        return
    with pytest.raises(PitchError, match=rf"players.counts: {counts[0]} players cannot form teams of \{sizes}") as e:
        rulesets.load(f)
    assert "\n" not in str(e.value)
