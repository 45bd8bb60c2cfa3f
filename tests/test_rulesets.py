"""Rulesets as data: the built-ins say what the source texts say; validation names key and fix."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets, schema
from pitchkeeper.reports.houserules import starter

SPEC_NAMES = ["seven-point", "auction-pitch", "partnership-pitch", "cutthroat-pitch", "solo-pitch", "trickster-4",
              "trickster-5", "trickster-6", "trickster-7", "trickster-9", "trickster-10", "trickster-11",
              "trickster-13"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_the_built_in_names_are_exactly_the_contracts() -> None:
    assert sorted(rulesets.builtin_names()) == sorted(SPEC_NAMES)


@pytest.mark.parametrize("name", SPEC_NAMES)
def test_every_built_in_is_valid_and_references_the_schema(name: str) -> None:
    problems, _ = rulesets.check(name)
    assert problems == []
    path = rulesets.builtin_dir() / f"{name}.toml"
    assert path.read_text(encoding="utf-8").startswith("#:schema ./ruleset.schema.json")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(rulesets.schema_path().read_text(encoding="utf-8")))


def test_the_shipped_schema_is_the_generated_one() -> None:
    assert json.loads(rulesets.schema_path().read_text(encoding="utf-8")) == schema.json_schema()


def test_the_schema_rejects_what_the_validator_rejects() -> None:
    the_schema = schema.json_schema()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"deck": {"jokerz": 2}}, the_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"points": {"low": {"to": "holder"}}}, the_schema)


def total(name: str) -> int:
    return sum(p.value for p in rulesets.load(name).points)


@pytest.mark.parametrize(("name", "points"), [("trickster-4", 4), ("trickster-5", 5), ("trickster-6", 6),
                                              ("trickster-7", 7), ("trickster-9", 9), ("trickster-10", 10),
                                              ("trickster-11", 11), ("trickster-13", 13), ("seven-point", 7)])
def test_an_n_point_game_has_n_points(name: str, points: int) -> None:
    assert total(name) == points


@pytest.mark.parametrize(("name", "target"), [("trickster-4", 11), ("trickster-5", 11), ("trickster-6", 11),
                                              ("trickster-9", 11), ("trickster-7", 32), ("trickster-10", 32),
                                              ("trickster-11", 32), ("trickster-13", 32), ("seven-point", 21),
                                              ("partnership-pitch", 21), ("cutthroat-pitch", 7), ("solo-pitch", 7),
                                              ("auction-pitch", 7)])
def test_targets_are_the_seed_texts(name: str, target: int) -> None:
    assert rulesets.load(name).settings["win"]["target"] == target


def test_seven_point_is_seed_000() -> None:
    r = rulesets.load("seven-point")
    s = r.settings
    assert s["deck"]["jokers"] == 2
    # ace, king, queen, jack of suit, jack of colour, high joker, low joker, ten ... two
    assert s["trump"]["order"][:8] == ["A", "K", "Q", "J", "off-J", "HJ", "LJ", "10"]
    assert r.point("low").to == "dealt" and r.point("high").to == "captor"
    assert [p.id for p in r.points] == ["high", "low", "jack", "off-jack", "high-joker", "low-joker", "game"]
    assert s["bidding"]["min"] == 2 and s["bidding"]["steal"] == "none"
    assert s["win"]["precedence"][0] == "bidder" and s["win"]["reach"] == "reach"
    assert s["settle"]["setback"] == "bid"  # the digest default, as the issue asks
    assert s["players"]["counts"] == [4, 6]


def test_auction_pitch_is_seed_001() -> None:
    s = rulesets.load("auction-pitch").settings
    assert s["bidding"]["auction"] == "sell-out"
    assert s["bidding"]["sale_credit"] == "none"  # a sale scores nothing for the seller
    assert s["bidding"]["all_pass"] == "eldest-pitches" and s["bidding"]["pitch_at_once"] == 4
    assert s["win"]["precedence"] == ["bidder", "count-out"]
    assert s["win"]["count_out"] == ["high", "low", "jack", "game"]
    assert s["revoke"]["setback"] == "bid" and s["revoke"]["counters"] == 1
    assert s["players"]["counts"] == [4, 5, 6, 7] and s["players"]["team_sizes"] == [1]


def test_seed_002_partnership_and_cutthroat() -> None:
    p = rulesets.load("partnership-pitch")
    c = rulesets.load("cutthroat-pitch")
    assert p.settings["bidding"]["smudge"] == 5 and p.point("all-tricks").only_bidder
    assert c.point("all-tricks") is None and c.settings["bidding"]["smudge"] == 0
    for r in (p, c):
        b = r.settings["bidding"]
        assert (b["min"], b["max"], b["forced_bid"], b["steal"]) == (1, 4, 2, "below-top")
        assert r.settings["win"]["only_bidder"] and r.point("low").to == "captor"
    assert c.settings["players"]["team_sizes"] == [1] and p.settings["players"]["team_sizes"] == [2]


def test_solo_pitch_is_seed_003() -> None:
    r = rulesets.load("solo-pitch")
    b = r.settings["bidding"]
    assert b["pitch_bid"] == 4 and b["steal"] == "below-top" and b["forced_bid"] == 2
    assert r.point("low").to == "captor" and r.point("game").need == "plurality"
    assert r.settings["win"]["only_bidder"] and r.settings["settle"]["negative"]


def test_trickster_10_family() -> None:
    r = rulesets.load("trickster-10")
    assert r.settings["play"]["follow"] == "trump-only"
    assert r.point("three").value == 3 and r.point("deuce").to == "dealt"
    assert r.game_point is None
    assert len(r.views["S"].strength) == 16  # 13 spades, the jack of clubs, two jokers
    assert rulesets.load("trickster-7").point("three") is None
    assert rulesets.load("trickster-11").point("off-ace") is not None
    assert rulesets.load("trickster-13").point("off-ace") is None
    assert rulesets.load("trickster-13").point("off-three").value == 3


def test_the_off_jack_and_jokers_are_trumps_and_leave_their_suit() -> None:
    v = rulesets.load("seven-point").views["S"]
    assert v.suit["JC"] == "T" and v.suit["HJ"] == "T" and v.suit["QC"] == "C"
    assert v.strength["JS"] > v.strength["JC"] > v.strength["HJ"] > v.strength["LJ"] > v.strength["10S"]
    v4 = rulesets.load("trickster-4").views["S"]
    assert v4.suit["JC"] == "C"


def test_a_house_ruleset_says_only_what_differs(tmp_path: Path) -> None:
    f = write(tmp_path, "house.toml", 'extends = "seven-point"\nnotes = ["Low to its captor at our table."]\n'
                                      '[points.low]\nto = "captor"\n'
                                      '[points.low-joker]\nenabled = false\n[win]\ntarget = 11\n')
    r = rulesets.load(str(f))
    base = rulesets.load("seven-point")
    assert r.notes == (*base.notes, "Low to its captor at our table.")  # choices add up through extends
    assert r.name == "house"
    assert r.point("low").to == "captor" and r.point("low").of == "lowest-trump"
    assert r.point("low-joker") is None
    assert r.settings["win"]["target"] == 11
    assert r.settings["deck"]["jokers"] == 2  # inherited
    assert [Path(c).name for c in r.chain] == ["seven-point.toml", "house.toml"]


def test_extends_a_file_beside_it(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "trickster-4"\n[win]\ntarget = 15\n')
    f = write(tmp_path, "top.toml", 'extends = "base.toml"\n[bidding]\nmin = 1\n')
    r = rulesets.load(str(f))
    assert r.settings["win"]["target"] == 15 and r.settings["bidding"]["min"] == 1


def test_extends_in_a_circle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(PitchError, match="circle"):
        rulesets.load(str(tmp_path / "a.toml"))


@pytest.mark.parametrize(("text", "message"), [
    ('extends = "seven-point"\n[deck]\njokerz = 1\n', "deck.jokerz: unknown key 'jokerz' - did you mean 'jokers'?"),
    ('extends = "seven-point"\n[win]\ntarget = "21"\n', "win.target: expected a whole number, got '21'"),
    ('extends = "seven-point"\n[points.low]\nto = "holder"\n', "points.low.to: 'holder' is not allowed"),
    ('extends = "trickster-4"\n[trump]\norder = ["A", "K", "A", "Q"]\n', "trump.order: names 'A' twice"),
    ('extends = "trickster-4"\n[points.hj]\nof = "card"\ncard = "HJ"\n',
     "points.hj.card: HJ is not a trump in this ruleset's deck"),
    ('extends = "seven-point"\n[deck]\njokers = 0\n', "trump.order: HJ is not in the deck"),
    ('extends = "seven-point"\nwinn = 3\n', "winn: unknown key 'winn' - did you mean 'win'?"),
    ('extends = "seven-point"\n[bidding]\nmin = 5\nmax = 3\n', "bidding.min: 5 is above bidding.max 3"),
    ('extends = "seven-point"\n[win]\ncount_out = ["high", "jak"]\n', "did you mean jack?"),
    ('extends = "seven-point"\n[players]\ncounts = []\n', "players.counts: expected at least one item"),
    ('extends = "seven-point"\n[win]\nprecedence = []\n', "win.precedence: expected at least one item"),
    ('extends = "seven-point"\n[players]\ncounts = [12]\n',
     "players.counts: item 1: expected a whole number from 2 to 9, got 12"),
])
def test_validation_names_the_key_and_the_fix(tmp_path: Path, text: str, message: str) -> None:
    f = write(tmp_path, "bad.toml", text)
    problems, _ = rulesets.check(str(f))
    assert any(message in p for p in problems), problems
    with pytest.raises(PitchError) as e:
        rulesets.load(str(f))
    assert str(f) in str(e.value)


def test_check_reports_every_problem_at_once(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.toml", 'extends = "seven-point"\n[deck]\njokerz = 1\n[win]\ntargett = 3\nreach = "pass"\n')
    problems, _ = rulesets.check(str(f))
    assert len(problems) == 3


def test_an_unknown_ruleset_name_suggests_the_nearest() -> None:
    with pytest.raises(PitchError, match="did you mean trickster-4"):
        rulesets.load("trickster4")


def test_a_point_on_a_card_the_deck_lacks(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.toml", 'extends = "trickster-4"\n[deck]\nranks = ["9", "10", "J", "Q", "K", "A"]\n'
                                    '[trump]\norder = ["A", "K", "Q", "J", "10", "9"]\n'
                                    '[play]\nplain_order = ["A", "K", "Q", "J", "10", "9"]\n'
                                    '[points.deuce]\nof = "card"\ncard = "2"\n')
    problems, _ = rulesets.check(str(f))
    assert any("points.deuce.card: 2 is not a trump" in p for p in problems), problems


def test_the_starter_file_names_every_setting_with_its_inherited_value(tmp_path: Path) -> None:
    base = rulesets.load("solo-pitch")
    text = starter(base, "solo-pitch", "ours")
    f = write(tmp_path, "ours.toml", text)
    assert rulesets.check(str(f))[0] == []
    # uncommenting every setting gives back exactly the inherited ruleset
    setting = re.compile(r"^# ([a-z_]+ = |\[[a-z.-]+\]$)")
    uncommented = "\n".join(line[2:].split("    #")[0] if setting.match(line) else line
                            for line in text.splitlines())
    g = write(tmp_path, "full.toml", uncommented.replace('extends = "solo-pitch"', ""))
    full = rulesets.load(str(g))
    assert full.settings == base.settings
    assert [p.id for p in full.points] == [p.id for p in base.points]
    for section, fields in rulesets.SECTIONS.items():
        for key in fields:
            assert f"# {key} = " in text, (section, key)
