"""What a program is told when it sends a bad hand or match, through `serve`'s JSON interface and the Python
API: the thing that is wrong, in JSON's words (null, true, a number, text, an array, an object) and never
Python's, a bid out of range said as such, no server path; a bid amount typed as text written as the number
it means; and a name that no auction could hold refused when a match starts (a log that has one still
loads)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, PLAYERS, Api, us_and_them
from typer.testing import CliRunner

import pitchkeeper
from pitchkeeper.cli import app
from pitchkeeper.logbook import shelf, store
from pitchkeeper.web.app import create_app

POINTS = {"high": "Them", "low": "Them", "game": "Them"}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return us_and_them(tmp_path / "friday.toml")


@pytest.fixture
def api(log: Path) -> Iterator[Api]:
    with Api(create_app(log, PIN)) as a:
        yield a


def refused(r: Any, status: int = 400) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    return str(error)


def post(api: Api, raw: bytes | str, url: str = "/api/hands", method: str = "POST") -> Any:
    return api(method, url, content=raw if isinstance(raw, bytes) else raw.encode(),
               headers={"X-Pitchkeeper-Pin": PIN, "Content-Type": "application/json"})


def hand(amount: str) -> str:
    return '{"trump": "H", "bid": {"player": "Bob", "amount": ' + amount + '}, "points": ' + json.dumps(POINTS) + "}"


def test_a_bid_past_64_bits_is_out_of_range_not_a_broken_log(api: Api, log: Path) -> None:
    before = log.read_bytes()
    for url, method in (("/api/hands", "POST"), ("/api/hands/1", "PUT")):
        if method == "PUT":
            assert post(api, hand("2")).status_code == 201
            before = log.read_bytes()
        error = refused(post(api, hand(str(2**70)), url, method))  # hand 1 either way: the first, or corrected
        assert error == (f"friday.toml: hands[1].bid.amount: a bid of {2**70} is out of range: seven-point bids are "
                         "2 to 7 (nothing was written)")
        assert log.read_bytes() == before


@pytest.mark.parametrize(("amount", "said"), [("2.0", "the number 2.0"), ("true", "true"), ("null", "null"),
                                              ("[3]", "an array"), ('{"n": 3}', "an object")])
def test_an_amount_of_the_wrong_kind_is_named_in_jsons_words(api: Api, log: Path, amount: str, said: str) -> None:
    before = log.read_bytes()
    error = refused(post(api, hand(amount)))
    assert error == (f'friday.toml: hands[1].bid.amount: expected a whole number (or "smudge"), got {said} '
                     "(nothing was written)")
    assert log.read_bytes() == before


def test_numbers_json_cannot_hold_are_said_without_pythons_advice(api: Api) -> None:
    error = refused(post(api, hand("1e400")))
    assert error == "body: the number 1e400 is too large for JSON's numbers"
    error = refused(post(api, hand("9" * 5000)))
    assert error == "body: a number of 5,000 digits: no value of a record is so long"
    assert "sys." not in error and "int_max_str_digits" not in error


@pytest.mark.parametrize(("body", "said"), [("null", "null"), ("[1]", "an array"), ('"x"', 'the text "x"'),
                                            ("3", "the number 3"), ("true", "true")])
def test_a_body_that_is_not_an_object_is_named_in_jsons_words(api: Api, body: str, said: str) -> None:
    error = refused(post(api, body))
    assert error == f"body: expected a JSON object of the per-hand keys (trump, bid, points ...), got {said}"
    for word in ("NoneType", "list", "str", "dict", "int", "bool"):
        assert f"got {word}" not in error


def test_a_new_match_body_that_is_not_an_object_names_a_new_matchs_keys(_home: Path) -> None:
    first = shelf.start("seven-point", PLAYERS)
    a = Api(create_app(first.path, PIN, follow=True))
    try:
        error = refused(post(a, "[]", "/api/matches"))
        assert error.startswith("body: expected a JSON object of a new match's keys") and "per-hand" not in error
        assert error.endswith("got an array")
        error = refused(post(a, json.dumps({"rules": "seven-point", "players": PLAYERS, "target": 2**70}),
                             "/api/matches"))
        assert error == f"target: {2**70} is too large: a log holds whole numbers of up to 19 digits"
        error = refused(post(a, json.dumps({"rules": "seven-point", "players": PLAYERS, "title": "a\x1bb"}),
                             "/api/matches"))
        assert str(_home) not in error and "holds a control character" in error
    finally:
        a.close()


@pytest.mark.parametrize(("key", "value", "said"), [("trump", None, "null"), ("points", [], "an array"),
                                                    ("dealer", 5, "the number 5"), ("note", {}, "an object")])
def test_every_key_of_the_wrong_kind_is_named_in_jsons_words(api: Api, key: str, value: Any, said: str) -> None:
    body = {"trump": "H", "bid": {"player": "Bob", "amount": 2}, "points": POINTS, key: value}
    error = refused(post(api, json.dumps(body)))
    assert error.startswith(f"friday.toml: hands[1].{key}: expected ")
    assert error.endswith(f"got {said} (nothing was written)")


# ---------------------------------------------------------------------------
# a bid amount sent as text


@pytest.mark.parametrize(("amount", "written"), [('"2"', 2), ('" 3 "', 3), ('"02"', 2)])
def test_an_amount_typed_as_digits_is_written_as_the_number(api: Api, log: Path, amount: str, written: int) -> None:
    assert post(api, hand(amount)).status_code == 201
    data = store.parse_text(log.read_text(), log)
    assert data["hands"][0]["bid"]["amount"] == written and isinstance(data["hands"][0]["bid"]["amount"], int)


def test_the_python_api_writes_the_number_too_and_names_a_hand_given_as_text(log: Path) -> None:
    book = pitchkeeper.Logbook.open(log)
    book.append({"trump": "H", "bid": {"player": "Bob", "amount": " 3 "}, "points": POINTS})
    assert "amount = 3 }" in log.read_text()
    before = log.read_bytes()
    with pytest.raises(pitchkeeper.PitchError) as e:
        book.replace("1", {"trump": "H", "bid": {"player": "Bob", "amount": 2}, "points": POINTS})  # type: ignore[arg-type]
    assert str(e.value) == "number: expected the number of the hand to correct (1 to 1), got str '1'"
    assert log.read_bytes() == before


# ---------------------------------------------------------------------------
# names an auction could not hold


def test_a_name_holding_a_colon_or_comma_is_refused_when_a_match_starts(_home: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for players in (["Ann:2", "Bob", "Cy", "Dee"], ["Bob, Jr", "Ann", "Cy", "Dee"]):
        r = runner.invoke(app, ["new", "seven-point", *players])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1
        bad = players[0]
        sign = ":" if ":" in bad else ","
        assert r.stderr == (f"error: players[1]: {bad!r} holds {sign!r}: a name may not hold ':' or ',' (the auction "
                            "is written Name:call, and names are listed between commas)\n")
    assert not shelf.kept()
    with pytest.raises(pitchkeeper.PitchError, match=r"players\[3\]: 'Cy:1' holds ':'"):
        pitchkeeper.Logbook.create(tmp_path / "x.toml", "seven-point", ["Ann", "Bob", "Cy:1", "Dee"])
    assert not (tmp_path / "x.toml").exists()
    first = shelf.start("seven-point", PLAYERS)
    a = Api(create_app(first.path, PIN, follow=True))
    try:
        error = refused(post(a, json.dumps({"rules": "seven-point", "players": ["Ann", "Bob:x", "Cy", "Dee"]}),
                             "/api/matches"))
        assert error.startswith("players[2]: 'Bob:x' holds ':': a name may not hold ':' or ','")
    finally:
        a.close()


def test_a_log_that_already_holds_such_a_name_still_loads(tmp_path: Path) -> None:
    log = us_and_them(tmp_path / "old.toml")
    log.write_text(log.read_text().replace('"Ann"', '"Ann:2"'))
    book = pitchkeeper.Logbook.open(log)
    book.append({"trump": "H", "bid": {"player": "Bob", "amount": 2}, "points": POINTS})
    assert book.state()["scores"] == {"Us": 0, "Them": 3}
    r = CliRunner().invoke(app, ["status", "--match", str(log)])
    assert r.exit_code == 0 and "Ann:2" in r.stdout
