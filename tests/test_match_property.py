"""Property: hands recorded one by one through the CLI replay to the scores computed directly."""

from __future__ import annotations

import json
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pitchkeeper.game import rulesets
from pitchkeeper.game.match import next_dealer, parse_match, replay
from pitchkeeper.game.records import parse_hand, parse_table
from pitchkeeper.game.scoring import verdict

runner = CliRunner()
TABLES = {
    "seven-point": (["Ann", "Bob", "Cy", "Dee"], True),
    "partnership-pitch": (["Ann", "Bob", "Cy", "Dee"], True),
    "trickster-4": (["Ann", "Bob", "Cy", "Dee"], True),
    "trickster-10": (["Ann", "Bob", "Cy", "Dee"], True),
    "auction-pitch": (["Ann", "Bob", "Cy", "Dee", "Eve"], False),
    "cutthroat-pitch": (["Ann", "Bob", "Cy"], False),
    "solo-pitch": (["Ann", "Bob", "Cy", "Dee"], False),
}


@st.composite
def games(draw: Any) -> tuple[str, list[dict[str, Any]]]:
    rules = draw(st.sampled_from(sorted(TABLES)))
    r = rulesets.load(rules)
    players, teams = TABLES[rules]
    sides = ["Us", "Them"] if teams else players
    b = r.settings["bidding"]
    hands = []
    for _ in range(draw(st.integers(1, 7))):
        bidder = draw(st.sampled_from(players))
        amount: int | str = draw(st.integers(b["min"], b["max"]))
        if b["smudge"] and draw(st.booleans()):
            amount = "smudge"
        points = {}
        for p in r.points:
            if p.of == "all-tricks":
                continue
            owners = st.sampled_from(sides + players if teams else sides)
            if p.of in ("highest-trump", "lowest-trump"):
                points[p.id] = draw(owners)
            else:
                who = draw(st.one_of(st.none(), owners))
                if who is not None:
                    points[p.id] = who
        if not points:  # quick entry names at least one point
            points[r.points[0].id] = draw(st.sampled_from(sides))
        hands.append({"bidder": bidder, "amount": amount, "trump": draw(st.sampled_from("SHDC")), "points": points})
    return rules, hands


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(games())
def test_recorded_hands_replay_to_the_scores_computed_directly(game: tuple[str, list[dict[str, Any]]]):
    rules, hands = game
    players, teams = TABLES[rules]
    with tempfile.TemporaryDirectory() as d:
        log = Path(d) / "m.toml"
        args = ["new", rules, *players, "--target", "10000", "--match", str(log)]
        assert runner.invoke(app_(), args + ([] if teams else ["--solo"])).exit_code == 0
        r = rulesets.load(rules)
        table = parse_table({"players": players, **({"teams": {"Us": players[::2], "Them": players[1::2]}}
                                                       if teams else {})})
        scores = dict.fromkeys(table.sides, 0)
        dealer = players[0]
        for h in hands:
            opts = [f"--point={pid}={who}" for pid, who in h["points"].items()] + ["--rest", "none"] + (
                [] if "game" in h["points"] or r.game_point is None else ["--game", "tie"])  # not out never ties
            res = runner.invoke(app_(), ["hand", h["bidder"], str(h["amount"]), h["trump"], *opts, "--match", str(log),
                                         "--json"])
            assert res.exit_code == 0, res.stderr
            # directly: the verdict on the same hand, added up
            hand = parse_hand({"dealer": dealer, "trump": h["trump"],
                               "bid": {"player": h["bidder"], "amount": h["amount"]}, "points": h["points"]}, table)
            for side, d_ in verdict(r, table, hand).delta.items():
                scores[side] += d_
            assert json.loads(res.stdout)["scores"] == scores
            dealer = next_dealer(table, dealer)
        state = replay(r, parse_match(tomllib.loads(log.read_text())))
        assert state.scores == scores
        assert [h.number for h in state.hands] == list(range(1, len(hands) + 1))
        assert not state.warnings


def app_() -> Any:
    from pitchkeeper.cli import app

    return app
