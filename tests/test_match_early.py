"""Property: the match engine and a result reported by its final scores read the end of a game alike.

The engine ends a game when a side gets to the target or by a rule that ends it sooner (a side taking
every point, a smudge won or lost, a side set too often); a tournament, a phone or the JSON interface
judges a game by its final scores alone (game.match.reported). Random games are replayed hand by hand on
every built-in ruleset and the house rules that end games sooner: every game the engine ends is one the
tournament takes, and every early ending the engine reports is one the ruleset's table names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import match, rulesets
from pitchkeeper.game.partners import crosswise
from pitchkeeper.tournament import book, model

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
RULES = rulesets.builtin_names() + [str(HOUSE / f"{n}.toml") for n in
                                    ("bicycle-smudge", "three-sets-out", "trickster-4-shoot", "moon-10")]
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@st.composite
def games(draw: Any, name: str) -> tuple[rulesets.Ruleset, dict[str, Any]]:
    r = rulesets.load(name)
    n = draw(st.sampled_from(list(r.settings["players"]["counts"])))
    players = PLAYERS[:n]
    sizes = [s for s in r.settings["players"]["team_sizes"] if crosswise(players, s) is not None]
    size = draw(st.sampled_from(sizes)) if sizes else 1
    teams = crosswise(players, size) if size > 1 else None
    sides = [t for t, _ in teams] if teams else players
    b = r.settings["bidding"]
    hands = []
    for _ in range(draw(st.integers(1, 12))):
        amount: int | str = draw(st.integers(max(b["min"], 1), b["max"]))
        if b["smudge"] and draw(st.booleans()):
            amount = "smudge"
        bidder = draw(st.sampled_from(players))
        sweep = draw(st.booleans())  # every point to the bidding side: a smudge made, a side taking every point
        own = next((t for t, ms in teams if bidder in ms), bidder) if teams else bidder
        points = {}
        for p in r.points:
            if p.of == "all-tricks":
                continue
            if sweep:
                points[p.id] = own
            elif p.of in ("highest-trump", "lowest-trump") or draw(st.booleans()):
                points[p.id] = draw(st.sampled_from(sides))
        hands.append({"dealer": draw(st.sampled_from(players)), "trump": draw(st.sampled_from("SHDC")),
                      "bid": {"player": bidder, "amount": amount}, "points": points})
    record = {"players": players, "hands": hands, "target": draw(st.integers(3, 15))}
    if teams:
        record["teams"] = {t: list(ms) for t, ms in teams}
    return r, record


def ended(r: rulesets.Ruleset, record: dict[str, Any]) -> match.MatchState | None:
    """The game replayed hand by hand up to its end; None if it did not end (or a hand is not scorable)."""
    try:
        parsed = match.parse_match(record)
        for k in range(1, len(parsed.hands) + 1):
            state = match.replay(r, parsed, upto=k)
            if state.ending is not None:
                return state
    except PitchError:
        return None  # a hand the ruleset cannot score from quick entry (a smudge needing every trick, say)
    return None


@pytest.mark.parametrize("name", RULES, ids=lambda n: Path(n).stem)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_game_the_engine_ends_is_one_its_final_scores_allow(name: str, data: st.DataObject) -> None:
    r, record = data.draw(games(name))
    state = ended(r, record)
    if state is None:
        return
    assert state.ending is not None
    sides = list(state.table.sides)
    scores = [state.scores[s] for s in sides]
    won = sides.index(state.ending.winner)
    said = match.reported(r, scores, won, state.target)
    early = {e.how for e in match.early_endings(r)}
    # an ending sooner than the target is one the ruleset's table of early endings names...
    assert state.ending.how == "target" or state.ending.how in early, (state.ending, early)
    # ...and the final scores the engine left are a result the tournament takes
    assert said.possible, (state.ending, scores)
    if state.ending.how == "target":
        assert said.reached
    if said.behind:  # a winner behind another side: the page has a rule to name
        assert said.why_behind


def test_a_ruleset_without_early_endings_refuses_a_winner_short_of_the_target() -> None:
    r = rulesets.load("partnership-pitch")
    assert match.early_endings(r) == ()
    assert not match.reported(r, [3, 11], 0).possible
    assert match.reported(r, [21, 23], 0) == match.Reported(True, "", True, "the bidding side goes out first")
    bike = rulesets.load(str(HOUSE / "bicycle-smudge.toml"))
    assert [e.how for e in match.early_endings(bike)] == ["every-point"]
    assert match.reported(bike, [4, 6, 5, 7], 0).possible


def test_the_tournament_and_the_engine_share_one_table_of_early_endings() -> None:
    """Every built-in and house ruleset: the tournament takes a winner short of the target exactly when the
    engine's table names a rule that ends games sooner."""
    for name in RULES:
        r = rulesets.load(name)
        target = r.settings["win"]["target"]
        short = match.shown(r, target, 1)
        scores = (short, match.shown(r, target, 0))
        seat = model.Seating(1, (("Ann", "Cy"), ("Bob", "Dee")))
        try:
            book.check_won(r, seat, scores, 0, "score")
            taken = True
        except book.CannotHaveWon:
            taken = False
        assert taken == bool(match.early_endings(r)), name
