"""The Logbook's write path against a model: any sequence of append, replace and drop_last leaves a log
that reads back as exactly the hands the model holds (the text cut and patched, never rewritten)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pitchkeeper

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SIDES = ["Us", "Them"]

hands = st.fixed_dictionaries({
    "trump": st.sampled_from(["S", "H", "D", "C"]),
    "bid": st.fixed_dictionaries({"player": st.sampled_from(PLAYERS), "amount": st.integers(2, 4)}),
    "points": st.fixed_dictionaries({"high": st.sampled_from(SIDES), "low": st.sampled_from(SIDES)},
                                    optional={"jack": st.sampled_from(SIDES), "game": st.sampled_from(SIDES)}),
    "note": st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), max_size=12),
})
ops = st.lists(st.one_of(st.tuples(st.just("append"), hands), st.tuples(st.just("replace"), st.integers(1, 8), hands),
                         st.tuples(st.just("drop"))), min_size=1, max_size=10)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_any_sequence_of_writes_reads_back_as_the_model(seq: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.toml"
        log = pitchkeeper.Logbook.create(path, "seven-point", PLAYERS, target=1000)
        path.write_text(path.read_text(encoding="utf-8") + "# a comment a person wrote\n", encoding="utf-8")
        model: list[dict] = []
        for op in seq:
            if op[0] == "append":
                dealer = PLAYERS[len(model) % 4]
                log.append(op[1])
                model.append({**op[1], "dealer": dealer})
            elif op[0] == "replace" and op[1] <= len(model):
                log.replace(op[1], op[2])
                model[op[1] - 1] = {**op[2], "dealer": model[op[1] - 1]["dealer"]}
            elif op[0] == "drop" and model:
                log.drop_last()
                model.pop()
        k = log.load()[0]
        kept = [{key: v for key, v in h.items() if key != "recorded"} for h in k.data.get("hands", [])]
        assert kept == model
        record = {"rules": "seven-point", "players": PLAYERS, "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
                  "target": 1000, "hands": model}
        assert log.state() == pitchkeeper.judge_match(record)
        assert "# a comment a person wrote" in path.read_text(encoding="utf-8")
