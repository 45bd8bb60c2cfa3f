"""The public Python API (spec section 6), driven directly as an outside program drives it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.game import match, records, rulesets, sampling, scoring

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _made_hand(rs: rulesets.Ruleset, rng: random.Random, players: list[str], teams: dict | None, dealer: str,
               table: records.Table, quick: bool) -> dict:
    """A random hand, mostly with a bid its taker makes, so that games end."""
    hand = sampling.random_hand(rs, rng, players, teams, dealer=dealer, quick=quick)
    b = rs.settings["bidding"]
    for _ in range(50):
        taken = scoring.verdict(rs, table, records.parse_hand(hand, table)).taken
        best = max(taken, key=taken.__getitem__)
        if taken[best] >= b["min"]:
            hand["bid"] = {"player": table.members(best)[0], "amount": min(taken[best], b["max"])}
            break
        hand = sampling.random_hand(rs, rng, players, teams, dealer=dealer, quick=quick)
    return hand


def _add(rs: rulesets.Ruleset, scores: dict[str, int], delta: dict[str, int]) -> dict[str, int]:
    out = {s: scores[s] + delta[s] for s in scores}
    return out if rs.settings["settle"]["negative"] else {s: max(v, 0) for s, v in out.items()}


@pytest.mark.parametrize("name", rulesets.builtin_names())
def test_a_whole_game_of_every_ruleset_through_the_api(tmp_path: Path, name: str) -> None:
    rs = rulesets.load(name)
    rng = random.Random(f"api-{name}")
    players, teams = sampling.random_table(rs, rng)
    path = tmp_path / "game.toml"
    log = pitchkeeper.Logbook.create(path, name, players, teams if teams else {}, first_dealer=players[0], target=5)
    table = records.parse_table({"players": players, **({"teams": teams} if teams else {})})
    assert log.state() == {"rules": rs.name, "target": 5, "hands": [], "scores": dict.fromkeys(table.sides, 0),
                           "winner": None, "won_on_hand": None, "reason": None}
    running: list[dict[str, int]] = []  # the scores after each hand, by the engine directly
    scores = dict.fromkeys(table.sides, 0)
    dealer = players[0]
    out: dict = {}
    for number in range(1, 200):
        hand = _made_hand(rs, rng, players, teams, dealer, table, quick=number % 2 == 0)
        v = scoring.verdict(rs, table, records.parse_hand(hand, table))
        if number % 4 == 0:  # a slip, then corrected by replace
            slip = dict(hand, trump="S" if hand["trump"] != "S" else "H")
            if "tricks" in slip or "held" in slip:
                slip = dict(hand, revokes=[])
            log.append({k: x for k, x in slip.items() if k != "dealer"})
            out = log.replace(number, hand)
        elif number % 5 == 0:  # a hand recorded by mistake, then undone
            version = log.version
            log.append(hand)
            assert log.version != version
            out = log.drop_last()
            assert len(out["hands"]) == number - 1 and log.version == version
            out = log.append({k: x for k, x in hand.items() if k != "dealer"})  # the rotation's dealer
        else:
            out = log.append(hand)
        scores = _add(rs, scores, v.delta)
        running.append(scores)
        last = out["hands"][-1]
        assert {k: last[k] for k in v.to_json()} == v.to_json()
        assert last["scores"] == scores == out["scores"]
        assert [h["scores"] for h in out["hands"]] == running
        dealer = match.next_dealer(table, dealer)
        if out["winner"] is not None:
            break
    assert out["winner"] in table.sides and out["won_on_hand"] == number and out["reason"]
    assert log.state() == out == pitchkeeper.judge_match(path) == pitchkeeper.Logbook.open(path).state()
    # after the win: no more hands, through the API or the CLI, and the file is left as it was
    before = path.read_bytes()
    with pytest.raises(pitchkeeper.PitchError, match="already won"):
        log.append(hand)
    assert path.read_bytes() == before


@pytest.fixture()
def log(tmp_path: Path) -> pitchkeeper.Logbook:
    return pitchkeeper.Logbook.create(tmp_path / "m.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"])


HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 3}, "points": {"high": "Us", "low": "Them", "jack": "Us"}}


@pytest.mark.parametrize(("hand", "words"), [
    ({**HAND, "trump": "X"}, r"hands\[2\]\.trump: .*not a suit"),
    ({**HAND, "bid": {"player": "Zed", "amount": 3}}, r"hands\[2\]\.bid\.player: 'Zed' is not a player"),
    ({**HAND, "bid": {"player": "Ann", "amount": 9}}, r"hands\[2\]\.bid\.amount: .*out of range"),
    ({**HAND, "trumps": "S"}, r"hands\[2\]\.trumps: unknown key 'trumps' - did you mean 'trump'\?"),
    ({**HAND, "points": {"high": "Us", "hgh": "Them"}}, r"hands\[2\]"),
    ({**HAND, "note": None}, r"hands\[2\]: cannot write NoneType"),
    ("not a table", r"hand: expected a table of the per-hand keys"),
])
def test_a_bad_hand_is_refused_and_the_file_is_unchanged(log: pitchkeeper.Logbook, hand: object, words: str) -> None:
    log.append(HAND)
    before, version = log.path.read_bytes(), log.version
    with pytest.raises(pitchkeeper.PitchError) as e:
        log.append(hand)  # type: ignore[arg-type]
    assert re.search(words, str(e.value)), str(e.value)
    assert "\n" not in str(e.value) and str(e.value).startswith(str(log.path))
    assert log.path.read_bytes() == before and log.version == version
    with pytest.raises(pitchkeeper.PitchError):
        log.replace(1, hand)  # type: ignore[arg-type]
    assert log.path.read_bytes() == before


def test_a_snapshot_is_the_state_and_the_version_of_one_reading(log: pitchkeeper.Logbook) -> None:
    log.append(HAND)
    assert log.snapshot() == (log.state(), log.version)
    crlf = log.path.read_bytes().replace(b"\n", b"\r\n")
    log.path.write_bytes(crlf)  # a log edited on Windows reads the same; its version is its own bytes'
    state, version = log.snapshot()
    assert state == log.state() and version == log.version and len(state["hands"]) == 1


def test_replace_and_drop_last_refuse_what_is_not_there(log: pitchkeeper.Logbook) -> None:
    with pytest.raises(pitchkeeper.PitchError, match="no hands to undo"):
        log.drop_last()
    with pytest.raises(pitchkeeper.PitchError, match="there is no hand 1: the log has 0 hand"):
        log.replace(1, HAND)
    assert log.state()["hands"] == []


def test_the_api_and_the_cli_write_the_same_log_one_after_the_other(log: pitchkeeper.Logbook) -> None:
    m = str(log.path)
    log.append(HAND)  # Ann deals first (the first player), so Bob deals the second hand
    v1 = log.version
    r = runner.invoke(app, ["hand", "Bob", "2", "hearts", "--high", "Them", "--low", "Them", "--rest", "none", "--game", "tie",
                            "--match", m])
    assert r.exit_code == 0, r.stderr
    assert log.version != v1
    state = log.state()
    assert [h["bid"]["player"] for h in state["hands"]] == ["Ann", "Bob"]
    log.append({**HAND, "bid": {"player": "Cy", "amount": 2}})
    assert [h["dealer"] for h in pitchkeeper.Logbook.open(m).load()[0].data["hands"]] == ["Ann", "Bob", "Cy"]
    r = runner.invoke(app, ["undo", "--yes", "--match", m])
    assert r.exit_code == 0, r.stderr
    assert len(log.state()["hands"]) == 2
    r = runner.invoke(app, ["edit", "1", "--jack", "Them", "--yes", "--match", m])
    assert r.exit_code == 0, r.stderr
    assert log.state()["hands"][0]["awards"][-1]["side"] == "Them"
    r = runner.invoke(app, ["status", "--json", "--match", m])
    assert r.exit_code == 0 and '"scores"' in r.stdout
    log.drop_last()
    r = runner.invoke(app, ["check", m])
    assert r.exit_code == 0 and "1 hand(s)" in r.stdout


def test_a_comment_written_by_a_person_survives_api_writes(log: pitchkeeper.Logbook) -> None:
    log.append(HAND)
    log.path.write_text(log.path.read_text(encoding="utf-8") + "# Bob swears he had the jack\n", encoding="utf-8")
    log.append({**HAND, "bid": {"player": "Bob", "amount": 2}})
    log.replace(1, {**HAND, "points": {"high": "Them", "low": "Them"}})
    log.drop_last()
    assert "# Bob swears he had the jack" in log.path.read_text(encoding="utf-8")


def test_create_refuses_bad_tables_and_existing_files(tmp_path: Path, log: pitchkeeper.Logbook) -> None:
    with pytest.raises(pitchkeeper.PitchError, match="already exists"):
        pitchkeeper.Logbook.create(log.path, "seven-point", ["Ann", "Bob", "Cy", "Dee"])
    with pytest.raises(pitchkeeper.PitchError, match="played by"):
        pitchkeeper.Logbook.create(tmp_path / "x.toml", "seven-point", ["Ann", "Bob"])
    with pytest.raises(pitchkeeper.PitchError, match="no ruleset named 'sevenpoint' - did you mean seven-point"):
        pitchkeeper.Logbook.create(tmp_path / "x.toml", "sevenpoint", ["Ann", "Bob", "Cy", "Dee"])
    assert not (tmp_path / "x.toml").exists()
    solo = pitchkeeper.Logbook.create(tmp_path / "solo.toml", "cutthroat-pitch", ["Ann", "Bob", "Cy"],
                                      first_dealer="Cy", title="Friday", target=11)
    k = solo.load()[0]
    assert (k.record.first_dealer, k.data["title"], solo.state()["target"]) == ("Cy", "Friday", 11)


def test_open_reports_a_broken_log_in_the_one_shape(tmp_path: Path, log: pitchkeeper.Logbook) -> None:
    log.append(HAND)
    text = log.path.read_text(encoding="utf-8").replace('trump = "S"', 'trump = "Q"')
    log.path.write_text(text, encoding="utf-8")
    line = text[: text.index("\n[[hands]]") + 1].count("\n") + 1
    with pytest.raises(pitchkeeper.PitchError) as e:
        pitchkeeper.Logbook.open(log.path)
    assert str(e.value).startswith(f"{log.path}:{line}: hands[1].trump: ")
    with pytest.raises(pitchkeeper.PitchError, match="no such match log"):
        pitchkeeper.Logbook.open(tmp_path / "gone.toml")


def test_judge_hand_and_match_take_a_mapping_or_a_path(tmp_path: Path) -> None:
    record = {"rules": "seven-point", "players": ["Ann", "Bob", "Cy", "Dee"],
              "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}, "dealer": "Dee", **HAND}
    v = pitchkeeper.judge_hand(record)
    table, hand = records.parse_hand_record(record)
    assert v == scoring.verdict(rulesets.load("seven-point"), table, hand).to_json()
    f = tmp_path / "hand.toml"
    import tomli_w

    f.write_text(tomli_w.dumps(record), encoding="utf-8")
    assert pitchkeeper.judge_hand(f) == v == pitchkeeper.judge_hand(str(f))
    assert pitchkeeper.judge_hand({**record, "rules": "nope"}, rules="seven-point") == v
    with pytest.raises(pitchkeeper.PitchError, match=r"^captured\.Us: '1OS' is not a card"):
        pitchkeeper.judge_hand({**{k: x for k, x in record.items() if k != "points"}, "captured": {"Us": ["1OS"]}})
    m = {k: x for k, x in record.items() if k in ("rules", "players", "teams")}
    m["hands"] = [{k: x for k, x in record.items() if k in records.HAND_KEYS}]
    assert pitchkeeper.judge_match(m)["hands"][0]["delta"] == v["delta"]
    m["hands"][0]["bid"] = {"player": "Ann", "amount": 9}
    with pytest.raises(pitchkeeper.PitchError, match=r"^hands\[1\]\.bid\.amount: "):
        pitchkeeper.judge_match(m)


def test_the_package_names_its_api_and_nothing_else() -> None:
    assert sorted(pitchkeeper.__all__) == ["Logbook", "PitchError", "__version__", "analyse_hand", "analyse_match",
                                           "bid_odds", "judge_hand", "judge_match"]
    assert all(hasattr(pitchkeeper, name) for name in pitchkeeper.__all__)
    with pytest.raises(AttributeError):
        pitchkeeper.no_such_thing  # noqa: B018


def test_the_example_in_docs_api_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/api.md's example, run as written (in an empty folder)."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        exec(compile(code, "docs/api.md", "exec"), {"__name__": "docs_api"})


def test_rematch_passes_the_deal_and_keeps_the_table(tmp_path: Path) -> None:
    log = pitchkeeper.Logbook.create(tmp_path / "g1.toml", "seven-point", ["Ann", "Bob", "Cy", "Dee"], target=2,
                                     first_dealer="Cy", title="Friday")
    with pytest.raises(pitchkeeper.PitchError, match="the game is still on"):
        log.rematch(tmp_path / "g2.toml")
    log.append({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": {"high": "Us", "low": "Us"}})
    assert log.state()["winner"] == "Us"
    nxt = log.rematch(tmp_path / "g2.toml")
    k = nxt.load()[0]
    assert (k.record.first_dealer, k.record.target, k.data["title"], k.data["rematch_of"]) == (
        "Dee", 2, "Friday", str(log.path.resolve()))
    assert k.record.table == log.load()[0].record.table and nxt.state()["hands"] == []


@pytest.mark.parametrize("record", [None, [1, 2], 3, b"hand.toml"])
def test_a_record_of_the_wrong_type_is_bad_input_not_a_type_error(record: object) -> None:
    for judge in (pitchkeeper.judge_hand, pitchkeeper.judge_match):
        with pytest.raises(pitchkeeper.PitchError, match="mapping of its keys or the path"):
            judge(record)  # type: ignore[arg-type]


def test_every_public_name_of_the_logbook_is_documented_in_docs_api() -> None:
    """docs/api.md lists Logbook's public face; anything else on it starts with `_`."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    block = text.split("## Every public method of `Logbook`", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    documented = set(re.findall(r"(?:log|Logbook)\.(\w+)", block))
    public = {name for name in dir(pitchkeeper.Logbook) if not name.startswith("_")} | {"path"}
    assert public == documented
