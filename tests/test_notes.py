"""Item 3 of issue 22: every default where a source is silent has a note citing its keys; a house file
that changes a cited key drops or marks the note; notes change words, not games (play_digest); and the
checks that tie the new settings together, each one line naming its key."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pitchkeeper.game import rulesets

ROOT = Path(__file__).resolve().parent.parent
BEFORE = Path(__file__).resolve().parent / "data" / "rulesets-before-22"

# The eight defaults the audit found without a note: (ruleset, a key each note must cite)
SILENT = [
    ("trickster-9", "deck.hand_size"),
    ("auction-pitch", "bidding.min"),
    ("auction-pitch", "points.game.counts"),
    ("seven-point", "points.low.natural"),
    ("trickster-5", "points.low.natural"),
    ("trickster-6", "points.low.natural"),
    ("partnership-pitch", "bidding.forced_exact"),
    ("cutthroat-pitch", "bidding.forced_exact"),
    ("trickster-4", "settle.setback"),
    ("trickster-10", "settle.setback"),
    ("trickster-7", "settle.setback"),
    ("auction-pitch", "win.precedence"),
    ("partnership-pitch", "play.must_trump"),
]


@pytest.mark.parametrize(("name", "key"), SILENT)
def test_each_silent_default_has_a_note_citing_its_key(name: str, key: str) -> None:
    r = rulesets.load(name)
    assert any(key in rulesets.cited_keys(n) for n in r.notes)


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_no_built_in_note_cites_a_key_that_is_no_setting(name: str) -> None:
    merged, _ = rulesets.load_merged(name)
    assert [p for p in rulesets.validate(merged) if p.startswith("notes")] == []


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_notes_change_words_not_games(name: str, tmp_path: Path) -> None:
    """Each built-in plays exactly as it did before issue 22 (its files then are kept as test data)."""
    for f in BEFORE.glob("*.toml"):  # extends by file, so each old file extends the old files
        text = f.read_text(encoding="utf-8")
        for parent in rulesets.builtin_names():
            text = text.replace(f'extends = "{parent}"', f'extends = "{parent}.toml"')
        (tmp_path / f.name).write_text(text, encoding="utf-8")
    old = rulesets.load(tmp_path / f"{name}.toml")
    new = rulesets.load(name)
    assert old.play_digest == new.play_digest and old.settings == new.settings
    if name != "solo-pitch":  # every other built-in gained a note or extends one that did
        assert old.digest != new.digest


def test_cited_keys_reads_sections_and_points():
    assert rulesets.cited_keys("(points.game.enabled, points.ten; win.count_out = [...] and play.must_trump)") == (
        "points.game.enabled", "points.ten", "win.count_out", "play.must_trump")
    assert rulesets.cited_keys("Nothing here: the play. Win.") == ()


def house_files(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / next(iter(files))


def test_a_house_file_drops_the_notes_it_overrides_and_marks_the_rest(tmp_path: Path):
    top = house_files(tmp_path, {
        "mine.toml": 'extends = "partnership-pitch"\n[play]\nmust_trump = true\n',
    })
    r = rulesets.load(top)
    kirk = next(n for n in rulesets.load("partnership-pitch").notes if n.startswith("Kirk's follow sentence"))
    assert kirk in r.notes  # it cites play.follow too, which this file left alone: kept, marked
    (marked,) = r.overridden_notes
    assert (marked.text, marked.keys, marked.dropped) == (kirk, ("play.must_trump",), False)
    assert marked.by.endswith("mine.toml")
    both = house_files(tmp_path, {"both.toml": 'extends = "partnership-pitch"\n[play]\nfollow = "suit"\n'
                                               'must_trump = true\n'})
    r = rulesets.load(both)
    assert kirk not in r.notes and r.overridden_notes[0].dropped
    # the same value as before overrides nothing
    same = house_files(tmp_path, {"same.toml": 'extends = "partnership-pitch"\n[play]\nfollow = "suit-or-trump"\n'})
    assert rulesets.load(same).overridden_notes == ()


def test_a_chain_of_house_files_drops_a_parent_files_notes():
    r = rulesets.load(ROOT / "examples" / "house-rules" / "minnesota-smear.toml")
    dropped = [o for o in r.overridden_notes if o.dropped]
    assert {o.keys for o in dropped} == {("trump.identical_jokers",), ("deck.deal_size",)}
    assert not any(o.text in r.notes for o in dropped)
    assert all(o.by.endswith("minnesota-smear.toml") for o in dropped)


# -- the checks that tie the settings together (rules check), one line each

def problems(base: str | None = "trickster-4", **sections: dict[str, Any]) -> list[str]:
    merged: dict[str, Any] = {}
    if base is not None:
        merged, _ = rulesets.load_merged(base)
    for sec, values in sections.items():
        merged[sec] = {**merged.get(sec, {}), **values}
    return rulesets.validate(merged)


@pytest.mark.parametrize(("base", "change", "message"), [
    ("trickster-4", {"kitty": {"size": 30}}, "kitty.size: 30 is out of range (0 to 20)"),
    ("trickster-10", {"players": {"counts": [5]}, "kitty": {"size": 10}},
     "players.counts: 5 players of 9 cards and a kitty of 10 need 55 cards; the deck has 54"),
    ("trickster-10", {"kitty": {"size": 3}},
     "deck.deal_size: with a kitty, the other players come down from 9 to 6 only in a draw: set draw.discard"),
    ("trickster-4", {"kitty": {"discard_counts": "game"}},
     "kitty.discard_counts: no kitty is dealt (kitty.size = 0), so the bidder lays nothing away to count"),
    ("trickster-10", {"kitty": {"size": 3, "discard_counts": "game"}, "draw": {"discard": "non-trumps"}},
     "kitty.discard_counts: the discard counts for game, but trickster-10 has no game point"),
    ("partnership-pitch", {"draw": {"discard": "non-trumps"}},
     "draw.discard: the draw comes after trump is named: set trump.set_by = \"named\""),
    ("trickster-4", {"draw": {"discard": "down-to-hand"}},
     "draw.discard: down-to-hand throws nothing: deck.deal_size is the hand size and there is no kitty"),
    ("trickster-4", {"draw": {"discard": "non-trumps", "most": 3}},
     "draw.most: only with draw.discard = \"any\" (draw.discard = \"non-trumps\" throws every non-trump, however many)"),
    ("trickster-4", {"draw": {"discard": "none", "most": 3}},
     "draw.most: only with draw.discard = \"any\" (there is no draw: draw.discard is \"none\")"),
    ("trickster-10", {"draw": {"discard": "down-to-hand", "most": 3}},
     "draw.most: only with draw.discard = \"any\" (draw.discard = \"down-to-hand\" throws down to the hand size, "
     "drawing nothing)"),
    ("trickster-4", {"kitty": {"size": 3}, "draw": {"rest": True}},
     "draw.rest: the bidder takes the rest of the stock only after a draw that deals (draw.discard = non-trumps or any)"),
    ("trickster-4", {"discard": {"trumps": "excess-only"}},
     "discard.trumps: nothing is laid away in these rules (no kitty.size, no draw.discard, and deck.deal_size is "
     "the hand size)"),
    ("partnership-pitch", {"kitty": {"size": 3}, "discard": {"point_trumps": False}},
     "discard.point_trumps: the lay-away rules read trump: set trump.set_by = \"named\""),
    ("trickster-4", {"partner": {"counts": [5]}}, "partner.counts: 5 is not among players.counts"),
    ("trickster-10", {"partner": {"counts": [4]}},
     "partner.counts: calling a partner needs individual play: add 1 to players.team_sizes"),
    ("solo-pitch", {"partner": {"counts": [5], "may_call": "trump"}},
     "partner.may_call: calling a trump needs trump named first: set trump.set_by = \"named\""),
    ("trickster-4", {"partner": {"first_trick": True}}, "partner.first_trick: no table calls a partner (partner.counts = [])"),
    ("trickster-10", {"players": {"counts": [5], "team_sizes": [1]}, "partner": {"counts": [5], "first_trick": True}},
     "partner.first_trick: only trumps are played (play.follow = trump-only), so a called non-trump is never "
     "played: call a trump (partner.may_call = \"trump\")"),
    ("trickster-4", {"smudge": {"made": "win"}}, "smudge.made: trickster-4 has no smudge bid (bidding.smudge = 0)"),
    ("partnership-pitch", {"smudge": {"made": "points"}},
     "smudge.made_points: made = \"points\" needs how many (smudge.made_points)"),
    ("partnership-pitch", {"smudge": {"set_points": 3}}, "smudge.set_points: only with smudge.set = \"points\""),
    ("partnership-pitch", {"smudge": {"in_the_hole": "to-zero"}},
     "smudge.in_the_hole: to-zero only applies to a smudge that wins the game (smudge.made = \"win\")"),
    ("cutthroat-pitch", {"bidding": {"smudge": 5}, "smudge": {"set": "lose"}},
     "smudge.set: lose gives the game to the other side, which needs exactly two sides; 3 players each for "
     "himself gives 3"),
    ("trickster-4", {"win": {"instant_by": "bidder"}}, "win.instant_by: no side wins at once (win.instant = none)"),
    ("trickster-10", {"play": {"must_trump": True}},
     "play.must_trump: only trumps are played anyway (play.follow = trump-only)"),
    ("trickster-4", {"trump": {"identical_jokers": "first-higher"}},
     "trump.identical_jokers: needs two jokers (deck.jokers = 2)"),
    ("seven-point", {"trump": {"identical_jokers": "later-higher", "order": [
        "HJ", "A", "K", "Q", "J", "off-J", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2"]}},
     "trump.identical_jokers: HJ and LJ must be next to each other in trump.order"),
])
def test_settings_that_do_not_fit_together_are_refused(base: str, change: dict[str, Any], message: str) -> None:
    assert message in problems(base, **change)


def test_a_game_tie_rule_needs_a_plurality_and_a_note_must_cite_real_keys():
    merged, _ = rulesets.load_merged("trickster-4")
    merged["points"]["game"] = {**merged["points"]["game"], "tie": "bidder", "need": "majority"}
    merged["notes"] = [*merged["notes"], "We play it our way (bidding.minimum; points.low.nautral; points.lo)."]
    found = rulesets.validate(merged)
    assert "points.game.tie: with need = \"majority\" a tie never wins game; only tie = \"nobody\" applies" in found
    n = len(merged["notes"])
    assert f"notes[{n}]: cites 'bidding.minimum', which is no setting - did you mean min?" in found
    assert f"notes[{n}]: cites 'points.low.nautral', which is no setting - did you mean natural?" in found
    assert f"notes[{n}]: cites 'points.lo', which is no setting - did you mean low?" in found


def test_forced_bid_is_checked_only_where_a_dealer_is_stuck():
    assert problems("trickster-4", bidding={"min": 3, "all_pass": "redeal"}) == []
    assert "bidding.forced_bid: 2 is outside the bids 3-4" in problems("trickster-4", bidding={"min": 3})


def test_every_house_file_and_every_new_key_at_its_default_validates(tmp_path: Path):
    defaults = {sec: {k: f.default for k, f in rulesets.SECTIONS[sec].items()}
                for sec in ("partner", "kitty", "draw", "discard", "smudge")}
    assert problems(**defaults) == []
    for f in (ROOT / "examples" / "house-rules").glob("*.toml"):
        merged, _ = rulesets.load_merged(str(f))
        assert rulesets.validate(merged) == [], f.name
    shutil.copy(ROOT / "rulesets" / "trickster-4.toml", tmp_path / "t.toml")
    assert rulesets.load(tmp_path / "t.toml").features == frozenset()
