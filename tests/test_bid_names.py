"""A bid is shown by the name its ruleset gives it (bidding.smudge_name): Trickster's shoot is "shoot" on
every screen - status, history, the verdict, the winner line - never the engine's word "smudge"; the
contract's JSON keeps `amount = "smudge"` and adds the name (outside test F5)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pitchkeeper.cli import app
from pitchkeeper.game import records, rulesets, sampling, scoring
from pitchkeeper.words.verdict import bid_name, bid_words

ROOT = Path(__file__).resolve().parent.parent
SHOOT = ROOT / "examples" / "house-rules" / "trickster-4-shoot.toml"
CARDS = "AC KC QC JC 2C 10C 9C 8C 7C 6C 5C 4C AS KS QS JS 2S 3S 4S 5S 6S 7S 8S 9S"
SMUDGING = {n: rs for n, rs in {**{n: rulesets.load(n) for n in rulesets.builtin_names()},
                                **{p.stem: rulesets.load(p) for p in (ROOT / "examples" / "house-rules").glob("*.toml")}
                                }.items() if rs.settings["bidding"]["smudge"]}


def run(*args: str) -> str:
    out = CliRunner().invoke(app, list(args))
    assert out.exit_code == 0, out.output
    return " ".join(out.output.split())


def test_status_and_history_call_tricksters_shoot_a_shoot() -> None:
    run("new", str(SHOOT), "Ann", "Bob", "Cy", "Dee")
    hand = run("hand", "Bob", "shoot", "clubs", "--cards", f"Them: {CARDS}", "--dealt", "Bob: 2C")
    status, history = run("status"), run("history")
    for text in (hand, status, history):
        assert "shoot" in text and "smudge" not in text.replace("smudge.", "")
    assert "Bob bid shoot in C" in status
    assert "Bob shoot made" in history
    j = json.loads(CliRunner().invoke(app, ["history", "--json"]).output)
    bid = j["hands"][0]["bid"]
    assert (bid["amount"], bid["name"]) == ("smudge", "shoot")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(SMUDGING)), st.integers(0, 2**32 - 1))
def test_a_smudge_bid_is_worded_by_the_rulesets_name_for_it(name: str, seed: int) -> None:
    rs = SMUDGING[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    head = {"players": players, **({"teams": teams} if teams else {})}
    record = sampling.random_hand(rs, rng, players, teams)
    record["bid"] = {**record["bid"], "amount": "smudge"}
    record.pop("auction", None)
    table = records.parse_table(head)
    v = scoring.verdict(rs, table, records.parse_hand(head | record, table, extra_keys=("players", "teams")))
    called = rs.settings["bidding"]["smudge_name"]
    assert bid_name(v.bid) == bid_name(v.to_json()["bid"]) == called
    assert f" bid {called} in " in bid_words(v.to_json()) and f"bid {called} and took" in v.bid.reason
