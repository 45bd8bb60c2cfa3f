"""`rules explain`: the digest's disputes answered from each ruleset's data (pitchkeeper.words.disputes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.game import rulesets
from pitchkeeper.words import disputes

R = {n: rulesets.load(n) for n in rulesets.builtin_names()}
runner = CliRunner()


def run(*args: str) -> object:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def house(tmp_path: Path, text: str) -> rulesets.Ruleset:
    f = tmp_path / "house.toml"
    f.write_text(text, encoding="utf-8")
    return rulesets.load(f)


def answer(r: rulesets.Ruleset, topic: str) -> disputes.Answer:
    return disputes.explain(r, topic)


# ---------------------------------------------------------------------------
# Every topic, every ruleset


@pytest.mark.parametrize("name", sorted(R))
def test_every_topic_answers_for_every_builtin(name: str) -> None:
    answers = disputes.explain_all(R[name])
    assert [a.topic for a in answers] == [t.id for t in disputes.TOPICS]
    for a in answers:
        assert a.summary and a.answer and a.example and a.question.endswith("?")
        assert "\n" not in a.example and "\n" not in a.summary
        for key in a.keys:  # every answer says which settings it is drawn from, and they exist
            section, _, field = key.partition(".")
            assert section == "points" or field in rulesets.SECTIONS[section], key


def test_the_digest_disputes_are_covered() -> None:
    # the brief's list, by topic id or alias
    asked = ["off-jack", "jokers", "trumping", "who-gets-low", "lone-trump", "game-tie", "both-over", "all-pass",
             "dealer-steal", "smudge", "first-lead", "revoke", "reach", "negative-scores", "defenders"]
    found = {disputes.find(t).id for t in asked}
    assert len(found) == len(asked)
    assert {t.dispute for t in disputes.TOPICS} >= {f"D{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                                      15, 16, 18, 20, 21, 23, 24)}


# ---------------------------------------------------------------------------
# Answers follow the data, not the name


def test_off_jack_seed_000_example() -> None:
    a = answer(R["seven-point"], "off-jack")
    assert a.summary.startswith("yes")
    assert a.example == ("spades trump: J♣ is a spade for this hand, so a player whose only club is J♣ may play any "
                         "card to a club lead")
    assert "below the jack of trumps and above the high joker" in a.answer  # seed 000's ranking


def test_off_jack_absent_means_an_ordinary_club() -> None:
    a = answer(R["auction-pitch"], "off-jack")
    assert a.summary.startswith("no off-jack") and "must play J♣ to a club lead" in a.example


def test_adding_an_off_jack_to_a_house_ruleset_changes_the_answer(tmp_path: Path) -> None:
    r = house(tmp_path, 'extends = "auction-pitch"\n[trump]\norder = ["A", "K", "Q", "J", "off-J", "10", "9", "8", '
                        '"7", "6", "5", "4", "3", "2"]\n')
    assert answer(r, "off-jack").summary == answer(R["seven-point"], "off-jack").summary
    assert "may play any card to a club lead" in answer(r, "off-jack").example


def test_off_cards_of_trickster_11_and_13_are_named() -> None:
    assert "The off-ace (A♣ with spades trump) is a trump too" in answer(R["trickster-11"], "off-jack").answer
    assert "The off-three (3♣ with spades trump) is a trump too" in answer(R["trickster-13"], "off-jack").answer


def test_follow_answers_each_family(tmp_path: Path) -> None:
    assert answer(R["solo-pitch"], "follow").summary.startswith("yes")
    assert answer(R["solo-pitch"], "follow").example.endswith("must play 2♥ or 2♠")
    assert answer(R["trickster-10"], "follow").summary.startswith("the question does not arise")
    strict = house(tmp_path, 'extends = "solo-pitch"\n[play]\nfollow = "suit"\n')
    assert answer(strict, "follow").summary.startswith("no")
    assert answer(strict, "follow").example.endswith("must play 2♥")


def test_jokers() -> None:
    a = answer(R["seven-point"], "jokers")
    assert "the high joker (HJ) ranks below the off-jack and above the low joker" in a.answer
    assert "Jokers count nothing toward game" in a.answer
    assert a.example.endswith("must play LJ")
    assert answer(R["trickster-4"], "jokers").summary == "no jokers in this deck"


def test_fold_and_leader_hand_off() -> None:
    assert answer(R["trickster-10"], "fold").summary == "a player out of trumps folds; the next player still in leads"
    assert answer(R["seven-point"], "fold").summary.startswith("nobody folds")


def test_first_lead_by_how_trump_is_set() -> None:
    assert "makes spades or clubs trump: the pitcher says which" in answer(R["seven-point"], "first-lead").example
    # seed 004: "following bidding and the setting of trump ..., the pitcher leads the first trick"
    assert answer(R["trickster-5"], "first-lead").example == "spades named: any first lead is legal"
    assert answer(R["trickster-10"], "first-lead").summary == "trump is named first; the first lead must be a trump"


@pytest.mark.parametrize(("name", "words"), [
    ("seven-point", "low goes to Ann's side (Us)"),  # seed 000: "awarded to whoever it was dealt to"
    ("auction-pitch", "low goes to Ann"),  # seed 001: "the lowest trump dealt to one"
    ("cutthroat-pitch", "low goes to Bob"),  # seed 002: "winning the trick with the lowest trump"
    ("solo-pitch", "low goes to Bob"),  # seed 003: "remporté"
    ("trickster-10", "the point goes to Ann's side (Us)"),  # seed 004: the 2 of trump to whoever is dealt it
])
def test_who_gets_low(name: str, words: str) -> None:
    assert answer(R[name], "low").example.endswith(words)


def test_lone_trump() -> None:
    a = answer(R["solo-pitch"], "lone-trump")  # seed 003: 2 points, 3 if it is the jack
    assert a.summary == "yes: high and low, 2 points" and "3 points (high, low and jack)" in a.answer
    assert answer(R["trickster-10"], "lone-trump").summary.startswith("does not arise")


def test_scoring_and_winning_topics_read_their_switches(tmp_path: Path) -> None:
    base = R["cutthroat-pitch"]
    assert answer(base, "reach").summary == "exceed: 7 is not enough, 8 is"
    assert answer(base, "defenders-win").summary == "no: only the bidding side can win"
    assert answer(base, "dealer-steal").summary == "yes, by equalling any bid but the top (4)"
    assert answer(base, "all-pass").summary == "the dealer is stuck and must bid at least 2"
    changed = house(tmp_path, 'extends = "cutthroat-pitch"\n[win]\nreach = "reach"\nonly_bidder = false\n'
                              '[bidding]\nsteal = "none"\nall_pass = "redeal"\n[settle]\nnegative = false\n')
    assert answer(changed, "reach").summary == "reach: 7 is enough"
    assert answer(changed, "defenders-win").summary == "yes: any side that gets there wins"
    assert answer(changed, "dealer-steal").summary.startswith("no")
    assert answer(changed, "all-pass").summary == "the hand is thrown in and dealt again"
    assert answer(changed, "negative").example.endswith("now on 0")


def test_both_over_follows_the_precedence() -> None:
    assert answer(R["seven-point"], "both-over").example.endswith("the game goes to Us")  # seed 000: bidder wins
    assert "the game goes to Them (higher)" in answer(R["trickster-4"], "both-over").example


def test_revoke_penalty_from_the_revoke_section() -> None:
    a = answer(R["auction-pitch"], "revoke")  # seed 001: set back the bid and a red counter
    assert a.summary == "the offender is set back the amount bid"
    assert "forfeits 1 red counter to the pool" in a.answer
    # the example's play is one the play model finds illegal
    assert "Bob held 2♥, 2♠, 2♦ and played 2♦ to a heart lead" in a.example
    assert answer(R["partnership-pitch"], "revoke").summary == "no penalty in these rules"


def test_smudge_and_sweep() -> None:
    a = answer(R["partnership-pitch"], "smudge")  # seed 002: smudge = 5; the fifth point for all six tricks
    assert a.summary == "a bid worth 5: it needs every point, all the tricks included"
    assert answer(R["partnership-pitch"], "sweep").summary.startswith("yes: 1 point to the bidding side")
    assert answer(R["cutthroat-pitch"], "smudge").summary == "no smudge bid: bids 1 to 4"


def test_jack_out_limits_the_bids() -> None:
    # 4-point games: with the jack out only 3 points exist, so a bid of 4 fails (digest D11)
    assert "bids above 3 (4) cannot be made" in answer(R["trickster-4"], "jack-out").summary
    # partnership pitch keeps high, low, game and the sweep: 4 can still be made, a smudge (5) cannot
    assert "bids above 4 (smudge) cannot be made" in answer(R["partnership-pitch"], "jack-out").summary


# ---------------------------------------------------------------------------
# Finding a topic


def test_topics_by_alias_and_loose_spelling() -> None:
    assert disputes.find("jick").id == "off-jack"
    assert disputes.find("Off Jack").id == "off-jack"
    assert disputes.find("shoot_the_moon").id == "smudge"


def test_unknown_topic_suggests_the_nearest() -> None:
    with pytest.raises(PitchError) as e:
        disputes.find("offjak")
    assert e.value.message.startswith("unknown topic 'offjak' - did you mean off-jack?")


# ---------------------------------------------------------------------------
# The CLI


def test_cli_lists_every_topic() -> None:
    r = run("rules", "explain", "--rules", "seven-point")
    assert r.exit_code == 0, r.stderr
    for t in disputes.TOPICS:
        assert any(line.startswith(t.id + " ") for line in r.stdout.splitlines()), t.id


def test_cli_list_json() -> None:
    out = json.loads(run("rules", "explain", "--rules", "trickster-10", "--json").stdout)
    assert out["rules"] == "trickster-10"
    assert [t["topic"] for t in out["topics"]] == [t.id for t in disputes.TOPICS]
    assert set(out["topics"][0]) == {"topic", "question", "dispute", "summary", "number"}


def test_cli_one_topic_json() -> None:
    r = run("rules", "explain", "jick", "--rules", "seven-point", "--json")
    out = json.loads(r.stdout)
    assert set(out) == {"rules", "topic", "question", "dispute", "summary", "answer", "example", "from", "number"}
    assert (out["rules"], out["topic"], out["dispute"]) == ("seven-point", "off-jack", "D1")
    assert "trump.order" in out["from"]


def test_cli_one_topic_text() -> None:
    r = run("rules", "explain", "low", "-r", "auction-pitch")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Who gets low") and any(line.startswith("example: ") for line in lines)


def test_cli_house_file(tmp_path: Path) -> None:
    house(tmp_path, 'extends = "seven-point"\n[points.low]\nto = "captor"\n')
    r = run("rules", "explain", "low", "--rules", str(tmp_path / "house.toml"), "--json")
    assert json.loads(r.stdout)["summary"] == "to whoever captures it"


@pytest.mark.parametrize(("args", "message"), [
    (["rules", "explain", "offjak", "--rules", "seven-point"], "error: unknown topic 'offjak' - did you mean off-jack?"),
    (["rules", "explain", "low"], "error: --rules: say which ruleset"),
    (["rules", "explain", "low", "--rules", "sevenpoint"], "error: no ruleset named 'sevenpoint'"),
])
def test_cli_bad_input_one_line_exit_2(args: list[str], message: str) -> None:
    r = run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1
