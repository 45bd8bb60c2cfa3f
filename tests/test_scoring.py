"""The verdict on a hand, worked out by hand from the source texts, ruleset by ruleset.

Each record is written inline, as a player would write the file; the comment above each
expectation says how the source text gives it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pitchkeeper.errors import PitchError
from pitchkeeper.game import records, rulesets, scoring

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

FOUR = 'players = ["N", "E", "S", "W"]\nteams = { NS = ["N", "S"], EW = ["E", "W"] }\n'
THREE = 'players = ["Ana", "Ben", "Cy"]\n'


def with_keys(text: str, keys: str) -> str:
    """Add top-level keys to a record (before its first [table], where TOML needs them)."""
    i = text.index("\n[")
    return text[:i + 1] + keys + text[i + 1:]


def judge(text: str, rules: str | None = None) -> scoring.Verdict:
    data = tomllib.loads(text)
    ruleset = rulesets.load(rules or data["rules"])
    table, hand = records.parse_hand_record(data)
    table.check_against(ruleset)
    return scoring.verdict(ruleset, table, hand)


def awards(v: scoring.Verdict) -> dict[str, tuple[Any, ...]]:
    return {a.point: (a.card, a.side, a.player, a.value) for a in v.awards}


def example(name: str) -> scoring.Verdict:
    return judge((EXAMPLES / name).read_text(encoding="utf-8"))


# --- the worked examples of the contract -----------------------------------------------------


def test_seed_004_game_point_example() -> None:
    v = example("trickster-4-game-point.toml")
    # Us: three kings 9, a queen 2, two jacks 2 = 13; Them: a jack 1 and the ten of hearts 10 = 11
    assert v.game is not None and v.game.counts == {"Us": 13, "Them": 11} and v.game.side == "Us"
    assert dict(v.game.cards["Them"]) == {"JS": 1, "10H": 10}
    assert awards(v) == {"high": ("QS", "Us", None, 1), "low": ("3S", "Them", "West", 1),
                         "jack": ("JS", "Them", None, 1), "game": (None, "Us", None, 1)}
    assert v.taken == {"Us": 2, "Them": 2} and v.bid.made and v.delta == {"Us": 2, "Them": 2}


def test_seed_003_lone_jack_is_high_low_and_jack() -> None:
    v = example("solo-pitch-lone-jack.toml")
    assert awards(v)["high"][0] == awards(v)["low"][0] == awards(v)["jack"][0] == "JH"
    assert v.taken == {"Ana": 3, "Ben": 1, "Chloe": 0}  # game to Ben: 15 against 12 and 8
    assert v.game.counts == {"Ana": 12, "Ben": 15, "Chloe": 8}
    assert v.delta == {"Ana": 3, "Ben": 1, "Chloe": 0}


def test_seed_000_jokers_and_off_jack() -> None:
    v = example("seven-point-jokers.toml")
    a = awards(v)
    assert a["off-jack"] == ("JC", "NS", None, 1) and a["high-joker"][1] == "NS"
    assert a["low"] == ("2S", "EW", "W", 1)  # 2S was captured by NS but dealt to W
    assert a["low-joker"][1] == "EW" and a["game"][1] == "EW"
    assert v.game.counts == {"NS": 11, "EW": 17}
    assert v.delta == {"NS": 4, "EW": 3}


def test_awards_are_listed_in_the_contracts_order() -> None:
    v = example("seven-point-jokers.toml")
    assert [a.point for a in v.awards] == ["high", "low", "jack", "off-jack", "high-joker", "low-joker", "game"]


@pytest.mark.parametrize("name", ["seven-point-jokers.toml", "trickster-4-game-point.toml"])
def test_a_verdict_reads_compares_and_prints_its_awards_and_game_as_records(name: str) -> None:
    # the engine keeps what it found and makes the Awards and the GameCount when they are read: a caller sees
    # the records throughout
    v = example(name)
    quick = judge(QUICK + 'points = { high = "NS", low = "E", jack = "NS", game = "ns" }\n', "partnership-pitch")
    for w in (v, quick):
        made = w._replace(awards=w.awards, game=w.game)
        assert all(type(a) is scoring.Award for a in w.awards) and w.awards == made.awards
        assert type(w.game) is scoring.GameCount and w.game == made.game and w.game.reason == made.game.reason
        assert "game=GameCount(counts=" in repr(w) and tuple(w)[3] == w.game
        assert w == made and repr(w) == repr(made) and w.to_json() == made.to_json()
        assert "awards=(Award(point='high'" in repr(w) and tuple(w)[2] == w.awards
        _, _, listed, *_ = w
        assert listed[0].reason == w.awards[0].reason and listed[0].why.rule.id == "high"
    assert v != quick


# --- who gets low ----------------------------------------------------------------------------

LOW_HAND = FOUR + """
dealer = "W"
trump = "H"
bid = { player = "N", amount = 2 }
dealt = { E = ["2H"] }
[captured]
NS = ["AH", "2H", "KH", "3C", "QS", "4D", "5S", "6D", "KD", "7C", "8S", "9D", "10C", "JD", "3S", "4C"]
EW = ["5H", "9H", "QD", "10S", "2C", "3D", "6S", "7S"]
"""


def test_low_to_the_player_dealt_it_or_to_its_captor() -> None:
    # trickster-4: "taking or holding the lowest trump" -> E was dealt 2H: EW scores low
    dealt = judge(LOW_HAND, "trickster-4")
    assert awards(dealt)["low"] == ("2H", "EW", "E", 1)
    # partnership-pitch: "winning the trick with the lowest trump" -> NS captured 2H
    captured = judge(LOW_HAND.replace('dealt = { E = ["2H"] }\n', ""), "partnership-pitch")
    assert awards(captured)["low"] == ("2H", "NS", None, 1)


def test_low_to_dealt_needs_the_dealt_entry() -> None:
    with pytest.raises(PitchError, match=r"low \(2H\) goes to the player dealt it") as e:
        judge(LOW_HAND.replace('dealt = { E = ["2H"] }\n', ""), "trickster-4")
    assert e.value.where == "dealt"


def test_a_lone_trump_needs_no_dealt_entry() -> None:
    # the only trump always wins its own trick: whoever captured it was dealt it
    text = FOUR + """
dealer = "W"
trump = "C"
bid = { player = "E", amount = 2 }
[captured]
NS = ["AH", "2H", "KH", "3H", "QS", "4D", "5S", "6D", "KD", "7D", "8S", "9D", "10D", "JD", "3S", "4S"]
EW = ["5H", "9H", "QD", "10S", "2S", "3D", "6S", "5C"]
"""
    v = judge(text, "trickster-4")
    assert awards(v)["high"][:2] == awards(v)["low"][:2] == ("5C", "EW")


def test_a_joker_is_never_low_when_the_ruleset_says_so(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "seven-point"\n[trump]\norder = ["A", "K", "Q", "J", "off-J", "10", "9", "8", "7", '
                     '"6", "5", "4", "3", "2", "HJ", "LJ"]\n[points.low]\nskip = ["HJ", "LJ"]\n', encoding="utf-8")
    text = FOUR + """
dealer = "W"
trump = "S"
bid = { player = "N", amount = 2 }
dealt = { N = ["9S"] }
[captured]
NS = ["9S", "AH", "KH", "3H", "QH", "4D", "5H", "6D", "KD", "7D", "8H", "9D", "10D", "JD", "3C", "4C"]
EW = ["LJ", "HJ", "QD", "10H", "2H", "3D", "6H", "5C"]
"""
    v = judge(text, str(house))
    assert awards(v)["low"] == ("9S", "NS", "N", 1)  # LJ ranks lowest but is never low
    assert awards(v)["high"][0] == "9S"


# --- points that may not be in play ------------------------------------------------------------

NO_JACK = FOUR + """
dealer = "W"
trump = "D"
bid = { player = "N", amount = 4 }
dealt = { N = ["2D"] }
[captured]
NS = ["AD", "2D", "KD", "3C", "QS", "4D", "5S", "6D", "KC", "7C", "8S", "9C", "10C", "JC", "3S", "4C"]
EW = ["5D", "9D", "QC", "10S", "2C", "3H", "6S", "7S"]
"""


def test_the_jack_not_in_play_scores_nobody_and_a_4_cannot_be_made() -> None:
    v = judge(NO_JACK, "trickster-4")
    assert "jack" not in awards(v)
    # NS took high (AD), game (4+3+3+10+1 = 21 against 2+10 = 12), and low 2D: 3 < 4 -> set back 4
    assert v.taken == {"NS": 3, "EW": 0} and not v.bid.made
    assert v.delta == {"NS": -4, "EW": 0}


def test_the_off_jack_jokers_not_in_play() -> None:
    v = judge(NO_JACK.replace('"9C", "10C", "JC"', '"9C", "10C", "JS"'), "trickster-5")
    assert "off-jack" not in awards(v) and "jack" not in awards(v)


# --- the game point ----------------------------------------------------------------------------


def test_a_tied_game_scores_nobody() -> None:
    text = FOUR + """
dealer = "W"
trump = "H"
bid = { player = "N", amount = 2 }
dealt = { N = ["2H"] }
[captured]
NS = ["AH", "2H", "KS", "3C", "5S", "4D", "6S", "7D"]
EW = ["KH", "9H", "AS", "2C", "3D", "6D", "7S", "8D", "8C", "9C", "2S", "3S", "4S", "5C", "6C", "7C"]
"""
    v = judge(text, "trickster-4")
    # NS: AH 4 + KS 3 = 7; EW: KH 3 + AS 4 = 7
    assert v.game.counts == {"NS": 7, "EW": 7} and v.game.side is None
    assert "game" not in awards(v) and "tied" in v.game.reason


def test_plurality_is_enough_in_individual_play(tmp_path: Path) -> None:
    text = THREE + """
dealer = "Cy"
trump = "S"
bid = { player = "Ana", amount = 1 }
[captured]
Ana = ["AS", "2S", "10H", "3C", "4C", "5C"]
Ben = ["KD", "KC", "QD", "6C", "7C", "8C"]
Cy = ["JD", "AD", "9C", "9D", "8D", "7D"]
"""
    # Ana 4 + 10 = 14, Ben 3 + 3 + 2 = 8, Cy 1 + 4 = 5: 14 of 27 is a plurality (and a majority)
    v = judge(text, "solo-pitch")
    assert v.game.side == "Ana"
    # Ben's and Cy's counts together beat Ana's: with need = majority, nobody scores it
    house = tmp_path / "maj.toml"
    house.write_text('extends = "solo-pitch"\n[points.game]\nneed = "majority"\n', encoding="utf-8")
    v2 = judge(text.replace('"10H"', '"9H"').replace('"QD", "6C"', '"10D", "6C"'), str(house))
    # Ana 4, Ben 3 + 3 + 10 = 16, Cy 5: 16 of 25 is a majority
    assert v2.game.side == "Ben"
    v3 = judge(text.replace('"AD"', '"QH"'), str(house))
    # Ana 14, Ben 8, Cy 1 + 2 = 3: 14 of 25 is more than half
    assert v3.game.side == "Ana"


def test_a_tie_for_the_most_among_three_scores_nobody() -> None:
    text = THREE + """
dealer = "Cy"
trump = "S"
bid = { player = "Ana", amount = 1 }
[captured]
Ana = ["AS", "2S", "3C", "4C", "5C", "6C"]
Ben = ["AD", "KC", "7C", "8C", "9C", "2C"]
Cy = ["KD", "AH", "3D", "4D", "5D", "6D"]
"""
    v = judge(text, "cutthroat-pitch")
    # Ana 4, Ben 7, Cy 7: Ben and Cy tie for the most
    assert v.game.side is None and v.game.counts == {"Ana": 4, "Ben": 7, "Cy": 7}


# --- setbacks, smudge, all tricks ----------------------------------------------------------------


def test_a_set_bidder_loses_the_bid_and_defenders_keep_theirs() -> None:
    v = judge(NO_JACK.replace('player = "N", amount = 4', 'player = "E", amount = 2'), "trickster-4")
    assert not v.bid.made and v.bid.side == "EW"
    assert v.delta == {"NS": 3, "EW": -2}


def test_all_six_tricks_and_a_made_smudge() -> None:
    deck = ["AS", "KS", "QS", "JS", "2S", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH",
            "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    text = FOUR + f"""
dealer = "W"
trump = "S"
bid = {{ player = "N", amount = "smudge" }}
[captured]
NS = {deck}
"""
    v = judge(text, "partnership-pitch")
    assert awards(v)["all-tricks"] == (None, "NS", None, 1)
    assert v.taken == {"NS": 5, "EW": 0} and v.bid.amount == 5 and v.bid.label == "smudge" and v.bid.made
    assert v.delta == {"NS": 5, "EW": 0}


def test_a_smudge_cannot_be_made_without_the_jack() -> None:
    deck = ["AS", "KS", "QS", "10S", "2S", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH",
            "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    text = FOUR + f'dealer = "W"\ntrump = "S"\nbid = {{ player = "N", amount = "smudge" }}\n[captured]\nNS = {deck}\n'
    v = judge(text, "partnership-pitch")
    # high, low, game and the sweep: 4 < 5
    assert v.taken == {"NS": 4, "EW": 0} and not v.bid.made and v.delta == {"NS": -5, "EW": 0}


def test_the_sweep_point_is_only_for_the_bidding_side() -> None:
    deck = ["AS", "KS", "QS", "JS", "2S", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH",
            "2D", "3D", "4D", "5D", "6D", "7D", "8D"]
    text = FOUR + f'dealer = "W"\ntrump = "S"\nbid = {{ player = "E", amount = 2 }}\n[captured]\nNS = {deck}\n'
    v = judge(text, "partnership-pitch")
    assert "all-tricks" not in awards(v) and v.taken["NS"] == 4


def test_smudge_where_the_ruleset_has_none() -> None:
    with pytest.raises(PitchError, match="trickster-4 has no smudge bid") as e:
        judge(NO_JACK.replace("amount = 4", 'amount = "smudge"'), "trickster-4")
    assert e.value.where == "bid.amount"


@pytest.mark.parametrize(("rules", "amount", "message"), [
    ("trickster-4", 5, "bids are 2 to 4"),
    ("trickster-4", 1, "bids are 2 to 4"),
    ("partnership-pitch", 6, "bids are 1 to 4 or smudge (5)"),
    ("trickster-4", 0, "pitching without a contract"),
])
def test_a_bid_out_of_range(rules: str, amount: int, message: str) -> None:
    with pytest.raises(PitchError, match=re.escape(message)):
        judge(NO_JACK.replace("amount = 4", f"amount = {amount}"), rules)


# --- auction pitch: no contract and the revoke penalty -----------------------------------------

AP = 'players = ["Ann", "Bob", "Cy", "Dee"]\n' + """
dealer = "Dee"
trump = "C"
bid = { player = "Bob", amount = 3 }
dealt = { Ann = ["2C"] }
[captured]
Ann = ["AC", "KD", "QH", "2H"]
Bob = ["JC", "10D", "3D", "4H", "5S", "6S", "7S", "8S"]
Cy = ["2C", "9C", "4D", "5D", "6H", "7H", "8H", "9H", "9S", "3S", "JS", "QS"]
"""


def test_auction_pitch_scoring() -> None:
    v = judge(AP, "auction-pitch")
    # high AC to Ann; low 2C was dealt to Ann though Cy captured it; jack to Bob;
    # game: Ann 4+3+2 = 9, Bob 1+10 = 11, Cy 1+2 = 3 -> Bob
    assert awards(v)["high"][1] == "Ann" and awards(v)["low"][1] == "Ann"
    assert awards(v)["jack"][1] == "Bob" and awards(v)["game"][1] == "Bob"
    assert v.taken == {"Ann": 2, "Bob": 2, "Cy": 0, "Dee": 0}
    assert not v.bid.made and v.delta == {"Ann": 2, "Bob": -3, "Cy": 0, "Dee": 0}


def test_a_pitch_without_a_contract() -> None:
    # seed 001: "if no bid is made he [the eldest hand, Ann at the dealer's left] pitches ... without the
    # obligation of making anything"
    v = judge(AP.replace('player = "Bob", amount = 3', 'player = "Ann", amount = 0'), "auction-pitch")
    assert v.bid.made and v.bid.side == "Ann" and v.delta["Ann"] == 2
    with pytest.raises(PitchError, match="a pitch without a contract \\(0\\) is eldest hand's: Ann"):
        judge(AP.replace("amount = 3", "amount = 0"), "auction-pitch")


def test_a_revoke_sets_the_offender_back_the_bid_and_costs_a_counter() -> None:
    v = judge(with_keys(AP, 'revokes = ["Ann"]\n'), "auction-pitch")
    # seed 001: "the offender being set back the number of points bid and forfeiting a red counter"
    assert v.delta["Ann"] == -3 and v.counters == {"Ann": 1}
    assert any("Ann revoked" in line for line in v.settlement)


def test_a_revoke_where_the_ruleset_sets_no_penalty() -> None:
    v = judge(with_keys(LOW_HAND, 'revokes = ["E"]\n'), "trickster-4")
    assert v.delta == judge(LOW_HAND, "trickster-4").delta
    assert any("no penalty" in line for line in v.settlement)


# --- trump-only play (trickster 10-point) --------------------------------------------------------

TR10 = FOUR + """
dealer = "W"
trump = "H"
bid = { player = "N", amount = 5 }
dealt = { S = ["2H"] }
[captured]
NS = ["AH", "JH", "JD", "HJ", "3H", "2H", "4H", "5H"]
EW = ["LJ", "10H", "KH", "6H"]
"""


def test_trickster_10_card_points() -> None:
    v = judge(TR10, "trickster-10")
    a = awards(v)
    assert a["ace"][1] == a["jack"][1] == a["off-jack"][1] == a["high-joker"][1] == "NS"
    assert a["three"] == ("3H", "NS", None, 3) and a["deuce"] == ("2H", "NS", "S", 1)
    assert a["low-joker"][1] == a["ten"][1] == "EW"
    assert v.game is None and v.taken == {"NS": 8, "EW": 2} and v.bid.made


def test_trump_only_play_captures_no_plain_card() -> None:
    with pytest.raises(PitchError, match="KS is not a trump") as e:
        judge(TR10.replace('"6H"]', '"6H", "KS"]'), "trickster-10")
    assert e.value.where == "captured.EW"


# --- bad card data -------------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "message", "where"), [
    (('"AH", "2H"', '"AH", "AH"'), "AH is listed twice for NS", "captured.NS"),
    (('"5H", "9H"', '"5H", "AH"'), "AH is captured twice (NS and EW)", "captured.EW"),
    (('"5H", "9H"', '"5H", "HJ"'), "HJ is not in this ruleset's deck (52 cards, no jokers)", "captured.EW"),
    (('"6S", "7S"]', '"6S"]'), "7 cards cannot come from whole tricks of 4 cards", "captured.EW"),
    (('"6S", "7S"]', '"6S", "7S", "8C", "9C", "JC", "QC"]'), "28 cards captured in all", "captured"),
    (('E = ["2H"]', 'E = ["2H"], S = ["2H"]'), "2H is dealt to both E and S", "dealt.S"),
    (('E = ["2H"]', 'E = ["2H", "JH"]'), "JH is a trump E held, but nobody captured it", "dealt.E"),
])
def test_bad_card_data_names_the_key(change: tuple[str, str], message: str, where: str) -> None:
    with pytest.raises(PitchError) as e:
        judge(LOW_HAND.replace(*change), "trickster-4")
    assert message in e.value.message and e.value.where == where


def test_a_joker_in_a_52_card_game_with_a_player_key() -> None:
    text = THREE + 'dealer = "Cy"\ntrump = "S"\nbid = { player = "Ana", amount = 1 }\n[captured]\n' \
                   'Ana = ["AS", "2S", "3C", "4C", "5C", "JK"]\nBen = ["KD", "KC", "QD", "6C", "7C", "8C"]\n' \
                   'Cy = ["JD", "AD", "9C", "9D", "8D", "7D"]\n'
    with pytest.raises(PitchError, match="JK is not in this ruleset's deck"):
        judge(text, "solo-pitch")


# --- quick entry ---------------------------------------------------------------------------------

QUICK = FOUR + 'dealer = "W"\ntrump = "S"\nbid = { player = "N", amount = 3 }\n'


def test_quick_entry_by_side_or_player() -> None:
    v = judge(QUICK + 'points = { high = "NS", low = "E", jack = "NS", game = "ns" }\n', "partnership-pitch")
    assert awards(v) == {"high": (None, "NS", None, 1), "low": (None, "EW", "E", 1), "jack": (None, "NS", None, 1),
                         "game": (None, "NS", None, 1)}
    assert v.delta == {"NS": 3, "EW": 1} and v.game.side == "NS"


@pytest.mark.parametrize(("points", "message", "where"), [
    ('{ high = "NS", low = "EW", jak = "NS" }', "partnership-pitch has no point 'jak' - did you mean jack?",
     "points.jak"),
    ('{ high = "NS", low = "Them" }', "'Them' is not a team or player", "points.low"),
    ('{ low = "NS", jack = "NS" }', "high is always out", "points.high"),
    ('{ high = "NS", low = "NS", all-tricks = "EW" }', "only the bidding side (NS) can score all the tricks",
     "points.all-tricks"),
])
def test_quick_entry_is_checked_against_the_ruleset(points: str, message: str, where: str) -> None:
    with pytest.raises(PitchError) as e:
        judge(QUICK + f"points = {points}\n", "partnership-pitch")
    assert message in e.value.message and e.value.where == where


def test_the_same_quick_entry_is_checked_against_each_bid() -> None:
    """Who may score a sweep is the bid's: the same entry under another bid is judged afresh, and what a
    caller does with a verdict it was given changes no later verdict."""
    ruleset = rulesets.load("partnership-pitch")
    table, hand = records.parse_hand_record(tomllib.loads(
        QUICK + 'points = { high = "NS", low = "NS", jack = "NS", game = "NS", all-tricks = "NS" }\n'))
    first = scoring.verdict(ruleset, table, hand)
    assert first.taken["NS"] == sum(a.value for a in first.awards) and first.bid.made
    first.taken.clear()
    first.delta.clear()
    with pytest.raises(PitchError, match=r"only the bidding side \(EW\) can score all the tricks"):
        scoring.verdict(ruleset, table, hand._replace(bid=records.Bid("E", 3)))  # the same entry, EW bidding
    again = scoring.verdict(ruleset, table, hand._replace(bid=records.Bid("S", 4)))
    assert again.taken == {"NS": sum(a.value for a in again.awards), "EW": 0} and again.bid.player == "S"
    assert again.delta == again.taken and again.bid.made


def test_six_players_in_three_teams() -> None:
    text = """players = ["A1", "B1", "C1", "A2", "B2", "C2"]
teams = { A = ["A1", "A2"], B = ["B1", "B2"], C = ["C1", "C2"] }
dealer = "C2"
trump = "S"
bid = { player = "A1", amount = 2 }
points = { high = "A", low = "B2", game = "C" }
"""
    v = judge(text, "seven-point")
    assert v.taken == {"A": 1, "B": 1, "C": 1} and not v.bid.made
    assert v.delta == {"A": -2, "B": 1, "C": 1}


def test_a_table_that_does_not_fit_the_ruleset() -> None:
    with pytest.raises(PitchError, match="partnership game"):
        judge('players = ["N", "E", "S", "W"]\ndealer = "W"\ntrump = "S"\nbid = { player = "N", amount = 2 }\n'
              'points = { high = "N", low = "N" }\n', "seven-point")
    with pytest.raises(PitchError, match="played by 4 players, not 3"):
        judge(THREE + 'teams = { X = ["Ana"], Y = ["Ben"], Z = ["Cy"] }\ndealer = "Cy"\ntrump = "S"\n'
                      'bid = { player = "Ana", amount = 2 }\npoints = { high = "X", low = "X" }\n',
              "partnership-pitch")


# --- the other Trickster games: one hand each, worked from seed 004's tables ------------------------


def test_trickster_6_the_joker() -> None:
    text = FOUR + """
dealer = "W"
trump = "H"
bid = { player = "N", amount = 3 }
dealt = { E = ["4H"] }
[captured]
NS = ["AH", "JD", "JK", "5C", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
EW = ["4H", "KH", "QS", "10C", "2C", "3C", "6D", "7D", "8D", "9D", "2D", "3D"]
"""
    v = judge(text, "trickster-6")
    # high AH, off-jack JD (same colour as hearts), the joker: NS; low 4H dealt to E; game: NS 4+1 = 5,
    # EW 3+2+10 = 15 -> EW
    assert {k: a[1] for k, a in awards(v).items()} == {"high": "NS", "low": "EW", "off-jack": "NS", "joker": "NS",
                                                       "game": "EW"}
    assert v.taken == {"NS": 3, "EW": 2} and v.delta == {"NS": 3, "EW": 2}


def test_trickster_9_the_five_is_worth_five() -> None:
    text = FOUR + """
dealer = "W"
trump = "C"
bid = { player = "E", amount = 6 }
dealt = { S = ["2C"] }
[captured]
NS = ["AC", "2C", "KD", "QD", "3S", "4S", "5S", "6S"]
EW = ["5C", "JC", "10D", "9D", "8D", "7D", "2S", "7S", "8S", "9S", "2H", "3H", "4H", "5H", "6H", "7H"]
"""
    v = judge(text, "trickster-9")
    # EW: the five of clubs (5), the jack (1), game (10 + 1 = 11 against 4+3+2 = 9): 7 >= 6
    assert awards(v)["five"] == ("5C", "EW", None, 5)
    assert v.taken == {"NS": 2, "EW": 7} and v.bid.made and v.delta == {"NS": 2, "EW": 7}


def test_trickster_7_has_no_three_and_11_adds_the_off_ace() -> None:
    text = FOUR + """
dealer = "W"
trump = "S"
bid = { player = "N", amount = 5 }
dealt = { W = ["2S"] }
[captured]
NS = ["AS", "3S", "JS", "10S"]
EW = ["2S", "JC", "HJ", "LJ"]
"""
    seven = judge(text, "trickster-7")
    assert "three" not in awards(seven) and "off-ace" not in awards(seven)
    # NS: ace, jack, ten = 3 < 5: set back 5; EW: deuce (dealt to W), off-jack, both jokers = 4
    assert seven.taken == {"NS": 3, "EW": 4} and seven.delta == {"NS": -5, "EW": 4}
    eleven = judge(text.replace('"10S"]', '"10S", "AC"]'), "trickster-11")
    # the ace of clubs is the off-ace when spades are trump; the three is worth 3: NS 1+1+3+1+1 = 7
    assert awards(eleven)["off-ace"] == ("AC", "NS", None, 1) and awards(eleven)["three"][3] == 3
    assert eleven.taken == {"NS": 7, "EW": 4} and eleven.bid.made


def test_trickster_13_the_off_three() -> None:
    text = FOUR + """
dealer = "W"
trump = "D"
bid = { player = "E", amount = 5 }
dealt = { N = ["2D"] }
[captured]
NS = ["2D"]
EW = ["3H", "3D", "AD", "JH"]
"""
    v = judge(text, "trickster-13")
    # diamonds trump: 3H is the off-three (3) and JH the off-jack; 13-point has no off-ace, so AH is no trump
    assert awards(v)["off-three"] == ("3H", "EW", None, 3)
    assert "AH" not in rulesets.load("trickster-13").views["D"].strength
    assert v.taken == {"NS": 1, "EW": 8} and v.delta == {"NS": 1, "EW": 8}


def test_a_hand_played_trick_by_trick_shows_who_was_dealt_low() -> None:
    """Low to the player dealt it, with no `held` or `dealt`: the tricks show who played 2S (Cy)."""
    text = (Path(__file__).parent / "data" / "play" / "seven-point-offjack.toml").read_text(encoding="utf-8")
    v = judge(text[:text.index("[held]")])
    assert awards(v)["low"] == ("2S", "Us", "Cy", 1)
    assert v == judge(text)._replace(illegal=v.illegal)


def test_quick_entry_may_leave_low_out_where_the_ruleset_can(tmp_path: Path) -> None:
    """With `apart`, a lone trump is high only: a quick-entry hand then names no low."""
    house = tmp_path / "apart.toml"
    house.write_text('extends = "trickster-4"\n[points.low]\napart = true\n', encoding="utf-8")
    v = judge(QUICK + 'points = { high = "NS", game = "EW" }\n', str(house))
    assert v.taken == {"NS": 1, "EW": 1}
    with pytest.raises(PitchError, match="low is always out"):
        judge(QUICK + 'points = { high = "NS", game = "EW" }\n', "trickster-4")


def test_dealt_must_agree_with_the_tricks() -> None:
    text = (Path(__file__).parent / "data" / "play" / "seven-point-offjack.toml").read_text(encoding="utf-8")
    bad = text[:text.index("[held]")] + 'dealt = { Bob = ["2S"] }\n'
    with pytest.raises(PitchError, match="2S is listed for Bob, but Cy played it") as e:
        judge(bad)
    assert e.value.where == "dealt.Bob"
