"""`rules show`, `rules diff`, `rules check` and `rules new` after issue 22: every new setting in words, the notes
a house file overrides marked or dropped, and a starter file that names every setting."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import rulesets
from pitchkeeper.words import explain

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules"
runner = CliRunner()


def run(*args: str) -> object:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def words(name: str) -> dict[str, str]:
    ref = str(HOUSE / f"{name}.toml") if (HOUSE / f"{name}.toml").exists() else name
    return {k: v for k, (_, v) in explain.describe(rulesets.load(ref)).items()}


@pytest.mark.parametrize(("name", "topic", "sentence"), [
    ("call-partner-5", "players", "5 players, the bidder calling a partner each hand"),
    ("call-partner-5", "partner", "with 5 players the bidder calls a card (a trump); whoever holds it is the bidder's "
                                  "partner for that hand and must play it to the first trick; if no other player holds "
                                  "it the bidder plays alone; each player of a side scores what the side took; the "
                                  "others form one side"),
    ("call-partner-5", "hand", "6 cards each; 9 dealt; after trump, each player from the bidder's left throws every "
                               "non-trump and is dealt back to 6 from the stock"),
    ("call-partner-5", "discard-rule", "a trump is laid away only by a hand holding more than 6 trumps, and only the "
                                       "excess; never a trump that scores a point while a trump that scores none could "
                                       "go"),
    ("minnesota-smear", "kitty", "4 cards are dealt to a kitty; the bidder takes them and lays away 7 (down to 6 "
                                 "cards); laid-away cards count for nobody"),
    ("minnesota-smear", "hand", "6 cards each; 9 dealt; after trump, everyone throws down to 6 (no drawing)"),
    ("minnesota-smear", "jokers-alike", "the two jokers look alike: the first one played in a hand is the higher"),
    ("widow-counts-for-game", "kitty", "4 cards are dealt to a kitty; the bidder takes them and lays away 4 (down to 6 "
                                       "cards); the discard counts for game to the bidding side"),
    ("nine-card-pitch", "hand", "9 cards each; after trump, each player may throw up to 4 cards and is dealt as many "
                                "back"),
    ("ten-point-pitch", "hand", "6 cards each; 9 dealt; after trump, each player from the bidder's left throws every "
                                "non-trump and is dealt back to 6 from the stock; the bidder then takes the rest of "
                                "the stock and lays away down to 6"),
    ("moon-10", "smudge", "moon (worth 11) needs every point; made, it wins the game at once (a side in the hole goes "
                          "to 0 instead); set, it loses the game"),
    ("trickster-4-shoot", "smudge", "shoot (worth 5) needs every point and every trick; made, it wins the game at once "
                                    "(a side in the hole goes to 0 instead); set, it is set back the target (11)"),
    ("bicycle-smudge", "target", "everyone starts at 7 and counts down; the game is won at 0"),
    ("bicycle-smudge", "instant", "a side that takes every point of a hand wins at once, whatever the score"),
    ("bicycle-smudge", "setback", "a bidding side short of its bid scores nothing and goes back up the amount bid"),
    ("bicycle-smudge", "negative", "a score may go back above the start (in the hole)"),
    ("three-sets-out", "sets-out", "a side set 3 times is out of the game; with two sides the other wins"),
    ("set-and-win", "who-wins", "only the bidding side can win, at the end of a hand it bid that made its bid; the "
                                "winner may have fewer points than a loser; a defending side that sets the bidder and "
                                "reaches the target wins too"),
    ("strict-follow", "follow", "to a plain-suit lead you must follow suit if you can; trump only when void; with none "
                                "of the suit led, a player holding a trump must play one"),
    ("stuck-dealer-exactly", "all-pass", "if all the others pass, the dealer is stuck and must bid exactly 2"),
    ("two-hand-elder-tie", "point:game", "game: 1 point for game: the most (a plurality is enough) of the counting "
                                         "cards taken (A 4, K 3, Q 2, J 1, 10 10); a tie goes to the elder hand (first "
                                         "from the dealer's left)"),
    ("bicycle-auction-pitch-joker", "point:low", "low: 1 point for the lowest trump in play (never a joker or an "
                                                 "off-card), to the player dealt it; a lone trump is both high and low"),
])
def test_every_new_setting_has_its_words(name: str, topic: str, sentence: str) -> None:
    assert words(name)[topic] == sentence


def test_count_down_several_out_is_nearer_zero() -> None:
    assert "the score nearer 0 wins" in words("nine-card-pitch")["several-out"]


def test_no_new_topic_appears_for_a_built_in() -> None:
    for name in rulesets.builtin_names():
        assert not {"kitty", "discard-rule", "partner", "smudge", "instant", "sets-out", "jokers-alike"} & set(
            words(name)) - ({"smudge"} if rulesets.load(name).settings["bidding"]["smudge"] else set())


def test_rules_diff_names_what_a_house_file_changes() -> None:
    r = run("rules", "diff", "trickster-10", str(HOUSE / "call-partner-5.toml"), "--json")
    rows = {row["topic"]: row for row in json.loads(r.stdout)}
    assert rows["partner"]["trickster-10"] == "not in these rules"
    assert rows["partner"]["call-partner-5"].startswith("with 5 players the bidder calls a card (a trump)")
    assert "discard-rule" in rows and "hand" in rows and "players" in rows


# ---------------------------------------------------------------------------
# Notes a house file overrides


def test_rules_show_marks_and_lists_the_notes_a_house_file_overrides() -> None:
    r = run("rules", "show", str(HOUSE / "minnesota-smear.toml"))
    out = " ".join(r.stdout.split())  # the lines as wrapped, joined
    low = "keeps low to the trump suit's own cards). (overridden by smear-jick: points.low.natural)"
    assert low in out
    kept, dropped = out.split("Notes of seven-point, smear-jick that these house rules override")
    assert "of two jokers in one trick, the one played later wins" not in kept
    assert "(trump.identical_jokers). (overridden here: trump.identical_jokers)" in dropped
    assert "(deck.deal_size). (overridden here: deck.deal_size)" in dropped
    assert "The first joker played in a hand is the higher one" in kept


def test_rules_show_json_lists_the_overridden_notes() -> None:
    out = json.loads(run("rules", "show", str(HOUSE / "minnesota-smear.toml"), "--json").stdout)
    got = {(o["keys"][0], o["dropped"], Path(o["by"]).stem) for o in out["overridden_notes"]}
    assert got == {("points.low.natural", False, "smear-jick"), ("trump.identical_jokers", True, "minnesota-smear"),
                   ("deck.deal_size", True, "minnesota-smear")}
    assert not any("later wins" in n for n in out["notes"])
    assert json.loads(run("rules", "show", "seven-point", "--json").stdout)["overridden_notes"] == []


def test_rules_check_says_how_many_notes_were_overridden() -> None:
    r = run("rules", "check", str(HOUSE / "minnesota-smear.toml"))
    assert r.exit_code == 0
    assert r.stdout.rstrip().endswith("target 21; 3 notes of seven-point, smear-jick overridden")
    plain = run("rules", "check", str(HOUSE / "moon-10.toml"))
    assert "overridden" not in plain.stdout


# ---------------------------------------------------------------------------
# rules new


@pytest.mark.parametrize("base", ["seven-point", str(HOUSE / "call-partner-5.toml")])
def test_rules_new_names_every_setting_with_its_value(tmp_path: Path, base: str) -> None:
    f = tmp_path / "mine.toml"
    r = run("rules", "new", str(f), "--extends", base)
    assert r.exit_code == 0, r.output
    text = f.read_text(encoding="utf-8")
    ruleset = rulesets.load(base)
    for sec, fields in rulesets.SECTIONS.items():
        assert f"# [{sec}]" in text
        for key in fields:
            line = re.search(rf"^# {key} = (.*?)    # ", text[text.index(f"# [{sec}]"):], re.M)
            assert line is not None, f"{sec}.{key}"
            assert tomllib.loads(f"v = {line.group(1)}")["v"] == ruleset.settings[sec][key], f"{sec}.{key}"
    for p in ruleset.points:
        block = text[text.index(f"# [points.{p.id}]"):]
        for k in p.kind.keys:
            assert re.search(rf"^# {k} = ", block, re.M), f"points.{p.id}.{k}"
    # uncommenting a section's header and one key gives a valid house file
    edited = text.replace("# [partner]\n", "[partner]\n").replace("# defenders = \"together\"", "defenders = \"each\"")
    if "call-partner" in base:
        f.write_text(edited, encoding="utf-8")
        assert run("rules", "check", str(f)).exit_code == 0
        assert rulesets.load(f).settings["partner"]["defenders"] == "each"
