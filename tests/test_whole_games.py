"""Whole games of every built-in ruleset through the machine interface, as an outside tool drives it:
`new`, then `hand --match FILE --from HANDFILE --json` until the game is won, checked against
`judge match --json` and `status --json`; a hand after the win is refused and writes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import match, records, rulesets, sampling, scoring

runner = CliRunner()


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_a_whole_game_through_the_cli(tmp_path: Path, name: str) -> None:
    rs = rulesets.load(name)
    rng = random.Random(name)
    players, teams = sampling.random_table(rs, rng)
    log = tmp_path / "game.toml"
    args = ["new", name, *players, "--match", str(log), "--target", "5", "--dealer", players[0]]
    if teams:
        args += [arg for t, ms in teams.items() for arg in ("--team", f"{t}={','.join(ms)}")]
    else:
        args.append("--solo")
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.stderr
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    scores = dict.fromkeys(table.sides, 0)
    dealer = players[0]
    out: dict = {}
    for number in range(1, 200):
        hand = sampling.random_hand(rs, rng, players, teams, dealer=dealer, quick=number % 2 == 0)
        b = rs.settings["bidding"]
        for _ in range(50 if number % 3 else 0):  # mostly a bid its taker makes, so that games end
            taken = scoring.verdict(rs, table, records.parse_hand(hand, table)).taken
            best = max(taken, key=taken.__getitem__)
            if taken[best] >= b["min"]:
                hand["bid"] = {"player": table.members(best)[0], "amount": min(taken[best], b["max"])}
                break
            hand = sampling.random_hand(rs, rng, players, teams, dealer=dealer, quick=number % 2 == 0)
        f = tmp_path / f"hand{number}.toml"
        f.write_text(tomli_w.dumps(hand), encoding="utf-8")
        r = runner.invoke(app, ["hand", "--match", str(log), "--from", str(f), "--json"])
        assert r.exit_code == 0, r.stderr
        out = json.loads(r.stdout)
        # the hand's verdict is what the engine says directly, and the running scores add up
        v = scoring.verdict(rs, table, records.parse_hand(hand, table))
        last = out["hands"][-1]
        assert {k: last[k] for k in v.to_json()} == v.to_json()
        scores = {s: scores[s] + v.delta[s] for s in scores}
        assert last["scores"] == scores == out["scores"]
        dealer = match.next_dealer(table, dealer)
        if out["winner"] is not None:
            break
    assert out["winner"] in table.sides and out["won_on_hand"] == number and out["reason"]
    # judge match and status read the log the same way
    judged = json.loads(runner.invoke(app, ["judge", "match", str(log), "--json"]).stdout)
    assert judged == out
    status = json.loads(runner.invoke(app, ["status", "--match", str(log), "--json"]).stdout)
    assert status["scores"] == out["scores"] and status["winner"] == out["winner"]
    # a hand after the game is won is refused, and the log is left as it was
    before = log.read_bytes()
    r = runner.invoke(app, ["hand", "--match", str(log), "--from", str(f), "--json"])
    assert r.exit_code == 2 and "already won" in r.stderr and r.stdout == ""
    assert log.read_bytes() == before
