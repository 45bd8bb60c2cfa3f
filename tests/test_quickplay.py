"""Hands recorded trick by trick: the fast playback (game.quickplay) agrees with `play.replay`, and the
engine's verdict with its careful path, on random deals played out legally and on ones spoiled on purpose."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.errors import PitchError
from pitchkeeper.game import compiled, play, records, rulesets, sampling, scoring
from pitchkeeper.game.quickplay import fast_replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from deals import play_out

NAMES = rulesets.builtin_names()
LOADED = {n: rulesets.load(n) for n in NAMES}
SPOIL = ["none", "none", "leader", "swap", "held", "twice", "illegal"]


def spoiled(record: dict, how: str, rng: random.Random) -> dict:
    tricks = [dict(t, cards=list(t["cards"])) for t in record["tricks"]]
    t = rng.choice(tricks)
    if how == "leader":
        t["leader"] = rng.choice(list(record["held"]))
    elif how == "swap" and len(t["cards"]) > 1:
        t["cards"][0], t["cards"][-1] = t["cards"][-1], t["cards"][0]
    elif how == "held":
        p = rng.choice(list(record["held"]))
        record = dict(record, held={**record["held"], p: record["held"][p][1:]})
    elif how == "twice":
        other = rng.choice(tricks)
        t["cards"][-1] = t["cards"][-1].split(":")[0] + ":" + other["cards"][0].split(":")[1]
    elif how == "illegal":  # trade two cards of one trick's players between their holdings
        a, b = t["cards"][0].split(":"), t["cards"][-1].split(":")
        t["cards"][0], t["cards"][-1] = f"{a[0]}:{b[1]}", f"{b[0]}:{a[1]}"
        record = dict(record, held={p: [b[1] if c == a[1] else a[1] if c == b[1] else c for c in cs]
                                    for p, cs in record["held"].items()})
    return dict(record, tricks=tricks)


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 2**32 - 1), st.sampled_from(SPOIL), st.booleans())
def test_fast_playback_agrees_with_the_careful_replay(name: str, seed: int, how: str, held: bool) -> None:
    rs = LOADED[name]
    rng = random.Random(seed)
    players, teams = sampling.random_table(rs, rng)
    record = play_out(rs, rng, players, teams, rng.choice(players))
    if record is None:
        return
    record = spoiled(record, how, rng)
    if not held:
        del record["held"]
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    try:
        hand = records.parse_hand(record, table)
    except PitchError:
        return
    fast = fast_replay(rs, compiled.compiled(rs), table, hand)
    try:
        careful = play.replay(rs, table, hand)
    except PitchError:
        assert fast is None  # the fast path never accepts what the careful one refuses
    else:
        if how == "none":
            assert fast is not None  # a plain record never needs the careful path
        if fast is not None:
            assert fast[0] == careful
            assert fast[1] == {c: p for t in careful.tricks for p, c in t.plays}
    outcomes = []
    for judge in (scoring.verdict, scoring._careful):
        try:
            v = judge(rs, table, hand)
            outcomes.append((v.to_json(), [a.reason for a in v.awards], v.settlement, [t.why for t in v.tricks]))
        except PitchError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]
