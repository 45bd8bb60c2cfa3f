"""`analyse hand`, `analyse match`, `analyse odds` (spec section 9): the objects, the words, bad input.

Hands are random deals played out along random legal lines (tests/solver_ref.py), written as hand records
trick by trick, as a person would record them."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
import solver_ref as ref
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.errors import PitchError
from pitchkeeper.game import deal, odds, records, rulesets, scoring
from pitchkeeper.words import analysis as words

NAMES = rulesets.builtin_names()
runner = CliRunner()
PLAY = Path(__file__).parent / "data" / "play"


def played(name: str, seed: int) -> tuple[ref.Game, list[ref.State], dict[str, Any]]:
    """A random deal of a built-in ruleset played along a random legal line (solver_ref.played_hand)."""
    return ref.played_hand(name, seed, 4, name)


def check_shape(a: dict[str, Any], players: list[str]) -> None:
    assert set(a) >= {"rules", "trump", "bid", "par", "taken", "plays", "costs"}
    assert set(a["bid"]) == {"side", "player", "amount"}
    assert set(a["costs"]) == set(players)
    for p in a["plays"]:
        assert set(p) >= {"trick", "player", "card", "before", "after", "cost", "best"}
        assert all(isinstance(p[k], int) for k in ("trick", "before", "after", "cost"))
        assert isinstance(p["best"], list)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
def test_each_card_is_valued_before_and_after_and_costs_what_it_gave_away(name: str, seed: int) -> None:
    g, states, rec = played(name, seed)
    a = pitchkeeper.analyse_hand(rec)
    check_shape(a, list(g.players))
    assert a["taken"] == pitchkeeper.judge_hand(rec)["taken"][g.side_of[g.bidder]]
    ref.check_plays(g, a)
    plays = a["plays"]
    assert a["costs"] == {pl: sum(p["cost"] for p in plays if p["player"] == pl) for pl in g.players}
    # the last two tricks, against the brute force: each value, and every card that keeps it
    for p, state in zip(plays, states, strict=False):
        if ref.tricks_left(g, state) <= 2:
            value, best = ref.brute_best(g, state)
            assert p["before"] == value and sorted(p["best"]) == sorted(best)


def test_the_spec_example_in_words() -> None:
    a = {"rules": "seven-point", "trump": "S", "bid": {"side": "Us", "player": "Ann", "amount": 3}, "par": 4,
         "taken": 3, "costs": {"Ann": 0, "Cy": 1},
         "plays": [{"trick": 3, "player": "Cy", "card": "9H", "before": 4, "after": 3, "cost": 1, "best": ["2S", "3S"],
                    "lost": ["low"]}]}
    assert words.verdict_line(a) == ("With every card known, best play by everyone gives Us 4; Us took 3 (their own "
                                     "play gave away 1); the costliest card: trick 3, Cy's 9H gave away low (the 2S "
                                     "or 3S kept it).")
    assert "Trick 3, Cy's 9H gave away low (the 2S or 3S kept it)." in words.hand_lines(a)


def test_a_recorded_hand_names_the_point_a_card_gave_away() -> None:
    a = pitchkeeper.analyse_hand(PLAY / "auction-pitch-revoke.toml")
    worst = max(a["plays"], key=lambda p: p["cost"])
    assert worst["cost"] > 0 and worst["lost"] == ["game"]
    assert "gave away game" in words.verdict_line(a)


def test_analyse_hand_json_is_the_api_object_and_words_fit_forty_columns(tmp_path: Path) -> None:
    _, _, rec = played("seven-point", 11)
    f = tmp_path / "hand.toml"
    f.write_text(tomli_w.dumps(rec), encoding="utf-8")
    r = runner.invoke(app, ["analyse", "hand", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == pitchkeeper.analyse_hand(f)
    r = runner.invoke(app, ["analyse", "hand", str(f)], env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.stderr
    assert "best play by everyone gives" in " ".join(r.stdout.split())
    assert max(len(line) for line in r.stdout.splitlines()) <= 40


def test_a_match_analyses_the_hands_recorded_trick_by_trick_and_sums_each_players_cost(tmp_path: Path) -> None:
    hands = []
    for seed in (1, 2):
        _, _, rec = played("seven-point", seed)
        hands.append({k: rec[k] for k in ("dealer", "trump", "bid", "tricks", "held")})
    g, _, _ = played("seven-point", 1)
    quick = {"dealer": "Ann", "trump": "S", "bid": {"player": "Ann", "amount": 2},
             "points": {"high": "T1", "low": "T1", "jack": "T2", "game": "T2"}}
    # the three hands at one table: the seating and teams of the first
    rec = {"rules": "seven-point", "players": list(g.players), "teams": g.teams, "hands": [hands[0], quick]}
    _, _, second = played("seven-point", 1)
    rec["hands"].append({k: second[k] for k in ("dealer", "trump", "bid", "tricks", "held")})
    m = pitchkeeper.analyse_match(rec)
    assert [h["hand"] for h in m["hands"]] == [1, 2, 3]
    assert m["hands"][1] == {"hand": 2, "analysed": False, "why": m["hands"][1]["why"]}
    for h in (m["hands"][0], m["hands"][2]):
        check_shape(h, list(g.players))
    assert m["costs"] == {p: m["hands"][0]["costs"][p] + m["hands"][2]["costs"][p] for p in g.players}
    f = tmp_path / "log.toml"
    f.write_text(tomli_w.dumps(rec), encoding="utf-8")
    r = runner.invoke(app, ["analyse", "match", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == m
    r = runner.invoke(app, ["analyse", "match", str(f)], env={"COLUMNS": "40"})
    assert "Hand 2: not recorded trick by trick" in r.stdout.replace("\n  ", " ")


def test_odds_are_repeatable_and_add_up() -> None:
    a = pitchkeeper.bid_odds("AS KS 5S 2H 9D JC", "seven-point", samples=30, seed=5)
    assert a == pitchkeeper.bid_odds(["as", "ks", "5s", "2h", "9d", "jc"], "seven-point", samples=30, seed=5)
    assert a["cards"] == ["AS", "KS", "5S", "2H", "9D", "JC"] and a["samples"] == 30 and a["seed"] == 5
    assert [t["trump"] for t in a["trumps"]] == ["S", "H", "D", "C"]
    r = rulesets.load("seven-point")
    for t in a["trumps"]:
        shares = {int(k): v for k, v in t["points"].items()}
        assert abs(sum(shares.values()) - 1) < 1e-3
        assert abs(t["mean"] - sum(k * v for k, v in shares.items())) < 1e-3
        assert list(t["make"]) == [str(b) for b in range(2, 8)]
        for b, x in t["make"].items():
            assert abs(x - sum(v for k, v in shares.items() if k >= int(b))) < 1e-3
        # the best bid is the best expected score change of the ruleset's settlement
        assert t["best_bid"] == max(odds.bids(r), key=lambda b: (t["expected"][str(b)], -int(b)))
        for b in odds.bids(r):
            want = sum(v * (k if k >= int(b) else -int(b)) for k, v in shares.items())  # seven-point: set back the bid
            assert abs(t["expected"][str(b)] - want) < 1e-2
    only = pitchkeeper.bid_odds("AS KS 5S 2H 9D JC", "seven-point", trump="spades", samples=30, seed=5)
    assert only["trumps"] == a["trumps"][:1]


def test_odds_sample_the_unseen_cards_of_the_deck_among_the_players_and_leave_the_stock() -> None:
    stripped = rulesets.compile_ruleset({**rulesets.load_merged("trickster-6")[0],
                                         "deck": {"jokers": 1, "hand_size": 6, "ranks": ["9", "10", "J", "Q", "K", "A"]}})
    for r, n in ((rulesets.load("seven-point"), 6), (stripped, 3)):
        hand = odds.parse_hand_cards(r, sorted(r.deck)[:6])
        seats, _ = odds.seating(r, n)
        layouts = odds.layouts(r, hand, seats[1:], 300, 1)
        seen: set[str] = set()
        for lay in layouts:
            cards = [c for cs in lay.hands.values() for c in cs]
            assert len(cards) == len(set(cards)) == 6 * (n - 1)
            assert not set(cards) & set(hand) and set(cards) <= r.deck
            assert sorted([*cards, *lay.stock, *hand]) == sorted(r.deck)  # the rest is the undealt stock
            seen |= set(cards)
        assert seen == r.deck - set(hand)  # every unseen card, jokers included, is dealt in some layout
        assert odds.layouts(r, hand, seats[1:], 300, 1) == layouts
    assert "JK" in stripped.deck and len(stripped.deck) == 25


def test_a_ruleset_that_draws_before_play_says_how_the_draw_is_treated() -> None:
    a = pitchkeeper.bid_odds("AS KS JS HJ 2S 3D", "trickster-10", trump="S", samples=5, seed=1)
    assert "discard and draw" in a["draw"] and "real odds are worse" in a["draw"]
    assert any("discard and draw" in line for line in words.odds_lines(a))


@pytest.mark.parametrize(("args", "message"), [
    (["odds", "--rules", "seven-point", "--cards", "AS KS 5S 2H 9D XX"], "'XX' is not a card"),
    (["odds", "--rules", "seven-point", "--cards", "AS KS 5S 2H 9D AS"], "AS is given twice"),
    (["odds", "--rules", "seven-point", "--cards", "AS KS 5S 2H 9D"], "5 cards given; a hand in seven-point holds 6"),
    (["odds", "--rules", "trickster-4", "--cards", "AS KS 5S 2H 9D HJ"], "HJ is not in trickster-4's deck"),
    (["odds", "--rules", "seven-point", "--cards", "AS KS 5S 2H 9D JC", "--players", "5"], "not 5"),
    (["odds", "--rules", "partnership-pitch", "--cards", "AS KS 5S 2H 9D JD", "--trump", "C"], "no card that can lead"),
    (["odds", "--rules", "seven-point", "--cards", "AS KS 5S 2H 9D JC", "--samples", "0"], "--samples"),
    (["odds", "--rules", "seven-pint", "--cards", "AS KS 5S 2H 9D JC"], "did you mean seven-point"),
    (["odds", "--cards", "AS KS 5S 2H 9D JC"], "--rules"),
    (["hand", str(Path(__file__).parent.parent / "examples" / "seven-point-jokers.toml")], "not trick by trick"),
    (["hand", "no-such-file.toml"], "no-such-file.toml"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["analyse", *args])
    assert r.exit_code == 2, r.stdout
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def test_at_a_40_column_terminal_the_analysis_reads_line_by_line(tmp_path: Path) -> None:
    """`analyse hand` and `analyse odds` in a real pseudo-terminal 40 columns wide, as on a phone."""
    _, _, rec = played("trickster-4", 5)
    f = tmp_path / "hand.toml"
    f.write_text(tomli_w.dumps(rec), encoding="utf-8")
    env = {**os.environ, "COLUMNS": "40", "LINES": "24", "TERM": "xterm", "NO_COLOR": "1"}
    for args in (["analyse", "hand", str(f)],
                 ["analyse", "odds", "--rules", "trickster-4", "--cards", "AS KS 5S 2H 9D JC", "--trump", "S",
                  "--samples", "20", "--seed", "3"]):
        child = pexpect.spawn(sys.executable, ["-m", "pitchkeeper", *args], env=env, encoding="utf-8",
                              dimensions=(24, 40), timeout=60)
        text = child.read()
        child.close()
        assert child.exitstatus == 0, text
        lines = [ln for ln in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r\n", "\n").split("\n")]
        assert max(len(ln) for ln in lines) <= 40
        joined = " ".join(ln.strip() for ln in lines)
        assert ("best play by everyone gives" in joined) if args[1] == "hand" else ("% made" in joined and "best bid:" in joined)


# ---------------------------------------------------------------------------
# The odds under issue 22's house rules: a forced draw, a smudge made as the engine makes it


HOUSE = ref.HOUSE


def test_a_forced_draw_is_played_out_in_each_layout_as_the_engine_checks_a_draw() -> None:
    """draw.discard = "non-trumps": the pitcher's cards are its dealt cards, and each layout's draw - every
    player throws what the rules make it throw and is dealt back from the stock, the pitcher taking the rest
    and laying away - is one game.deal.check_deal accepts as the record of a hand."""
    for name in ("trickster-10-draw", "ten-point-pitch"):
        r = rulesets.load(HOUSE / f"{name}.toml")
        seats, side_of = odds.seating(r, None)
        names = {s: f"P{k}" for k, s in enumerate(seats)}
        teams = {"A": ["P0", "P2"], "B": ["P1", "P3"]} if len(set(side_of.values())) < 4 else None
        table = records.parse_table({"players": list(names.values()), **({"teams": teams} if teams else {})})
        rng = random.Random(4)
        deck = sorted(r.deck)
        for seed in range(40):
            rng.shuffle(deck)
            hand = odds.parse_hand_cards(r, deck[:9])
            lay = odds.layouts(r, hand, seats[1:], 1, seed)[0]
            for trump in "SHDC":
                d = odds.after_draw(r, r.views[trump], seats, {seats[0]: hand, **lay.hands}, lay.stock)
                assert all(len(cs) <= 6 for cs in d.held.values())
                bid = {"player": "P0", "amount": r.settings["bidding"]["min"]}
                rec = {"dealer": names[seats[-1]], "trump": trump, "bid": bid,
                       "discard": {names[p]: cs for p, cs in d.thrown.items() if cs},
                       "drawn": {names[p]: cs for p, cs in d.drawn.items() if cs},
                       "held": {names[p]: cs for p, cs in d.held.items()}, "points": {"high": "P0"}}
                deal.check_deal(r, table, records.parse_hand(rec, table))  # raises on a draw the rules forbid
        a = pitchkeeper.bid_odds(deck[:9], r, trump="S", samples=20, seed=2)
        assert "draws after trump" in a["draw"] and "lays away down to 6" in a["draw"]
        t = a["trumps"][0]
        assert t["layouts"] + t.get("dropped", 0) == 20
        with pytest.raises(PitchError, match=rf"6 cards given; {name} deals 9 and draws before play: give the pitcher's 9"):
            pitchkeeper.bid_odds(deck[:6], r, samples=2, seed=1)


def made_brute(g: ref.Game, state: ref.State) -> bool:
    """Can the bidding side make its bid whatever the others do, as the verdict engine judges each line?"""
    p, cards = ref.due(g, state)
    if p is None:
        rec = ref.record(g, state.done)
        return scoring.verdict(g.ruleset, *records.parse_hand_record(rec)).bid.made
    outcomes = (made_brute(g, ref.after(g, state, p, c)) for c in cards)
    return any(outcomes) if g.side_of[p] == g.side_of[g.bidder] else all(outcomes)


@pytest.mark.parametrize("needs", ["every-point", "every-point-out", "every-trick", "every-point-and-trick"])
def test_a_smudge_is_made_as_the_engine_makes_it_and_a_game_ending_one_is_never_the_best_bid(needs: str) -> None:
    """Trickster 4-point with a shoot bid that needs every point, or every trick, ..., on hands of three: the
    share of layouts in which the shoot is made is the share a brute force finds, each layout judged by the
    verdict engine; a shoot that wins or loses the game at once has no score to average, so it is never the
    best bid, and the answer says both."""
    data, _ = rulesets.load_merged(str(HOUSE / "trickster-4-shoot.toml"))
    r = rulesets.compile_ruleset({**data, "deck": {**data["deck"], "hand_size": 3},
                                  "smudge": {**data["smudge"], "needs": needs}})
    cards = ["AS", "JS", "KH"]
    a = pitchkeeper.bid_odds(cards, r, players=3, trump="S", samples=25, seed=9)
    seats, _ = odds.seating(r, 3)
    want = 0
    for lay in odds.layouts(r, odds.parse_hand_cards(r, cards), seats[1:], 25, 9):
        held = {odds.PITCHER: tuple(cards), **lay.hands}
        g = ref.Game(r, "S", seats, None, odds.PITCHER, seats[-1], held, {}, {"player": odds.PITCHER, "amount": "shoot"})
        want += made_brute(g, ref.begin(g))
    t = a["trumps"][0]
    assert t["make"]["smudge"] == round(want / 25, 4)
    assert 0 < want < 25  # the layouts put the shoot at stake
    assert t["best_bid"] != "smudge"
    assert any("never the best bid" in n for n in a["notes"]) and any("smudge.needs" in n for n in a["notes"])


def test_a_moon_that_needs_every_point_is_made_only_with_every_point() -> None:
    """moon-10: the moon (11) needs all ten points; a layout in which the bidding side takes all ten makes it."""
    a = pitchkeeper.bid_odds("AS 10S JS JC 3S 2S", HOUSE / "moon-10.toml", trump="S", samples=60, seed=1)
    t = a["trumps"][0]
    assert t["make"]["smudge"] == t["points"]["10"] == 0.15  # not the share taking 11 or more: none
    assert t["best_bid"] != "smudge"


def test_a_game_tie_to_the_elder_hand_says_where_the_pitcher_sits() -> None:
    a = pitchkeeper.bid_odds("AS KS QS JS 10S 3S", HOUSE / "two-hand-elder-tie.toml", trump="S", samples=5, seed=1)
    assert a["notes"] == ["a tie for game goes to the elder hand (points.game.tie): the pitcher is taken as the elder "
                          "hand, the dealer on its right"]
    assert "notes" not in pitchkeeper.bid_odds("AS KS 5S 2H 9D JC", "seven-point", trump="S", samples=5, seed=1)


def _looped() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def _deep() -> list[Any]:
    deep: list[Any] = ["AS"]
    for _ in range(12):
        deep = [deep]
    return deep


# What a program may pass for a record by mistake, each as a change to a good hand record.
MALFORMED = {
    "a key that is not text": lambda rec: {**rec, 1: 2},
    "a tuple for a key": lambda rec: {**rec, (1, 2): 3},
    "a bid keyed by a number": lambda rec: {**rec, "bid": {1: 2}},
    "a trick keyed by a number": lambda rec: {**rec, "tricks": [{**rec["tricks"][0], 0: "Ann"}, *rec["tricks"][1:]]},
    "a list holding itself": lambda rec: {**rec, "tricks": [{**rec["tricks"][0], "rules": _looped()}]},
    "a list nested too deep": lambda rec: {**rec, "held": {**rec["held"], "Ann": _deep()}},
    "not a record at all": lambda rec: [rec],
}


def _refusal(fn: Any, record: object) -> str:
    with pytest.raises(PitchError) as e:
        fn(record)
    return str(e.value)


@settings(max_examples=30, deadline=None)
@given(how=st.sampled_from(sorted(MALFORMED)), seed=st.integers(0, 2**16), whole_match=st.booleans())
def test_analysis_refuses_a_malformed_record_with_the_judges_one_line(how: str, seed: int, whole_match: bool) -> None:
    """analyse_hand/analyse_match read a record through the same check as judge_hand/judge_match: a
    program's mistake is the same one-line PitchError, never an AttributeError from deep inside."""
    g, _, rec = played("seven-point", seed)
    bad = MALFORMED[how](rec)
    if whole_match:
        hand = {k: v for k, v in bad.items() if k not in ("players", "teams", "rules")} if isinstance(bad, dict) else bad
        record: object = {"rules": "seven-point", "players": list(g.players), "teams": g.teams, "hands": [hand]}
        judged, analysed = _refusal(pitchkeeper.judge_match, record), _refusal(pitchkeeper.analyse_match, record)
    else:
        judged, analysed = _refusal(pitchkeeper.judge_hand, bad), _refusal(pitchkeeper.analyse_hand, bad)
    assert analysed == judged
    assert "\n" not in analysed and analysed
