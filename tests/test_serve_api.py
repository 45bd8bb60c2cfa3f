"""The JSON interface of `pitchkeeper serve` (spec section 7), in process over httpx's ASGI transport:
whole games score as `judge match` does, bad input is 400 with the log unchanged, writes need the PIN,
a write after the win is refused, unknown routes are 404, and every change - the CLI's too - is an event."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import PIN, Api, Events, Server, new_log

import pitchkeeper
from pitchkeeper.web import site
from pitchkeeper.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
# every match record shipped: the examples, and the test logs that are whole matches
EXAMPLES = [p for p in sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "tests" / "data" / "play").glob("*.toml"))
            if "[[hands]]" in p.read_text()]
HAND_KEYS = ("dealer", "trump", "bid", "auction", "captured", "points", "tricks", "dealt", "held", "revokes")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 3},
        "points": {"high": "Us", "low": "Them", "jack": "Us", "game": "Us"}}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return new_log(tmp_path / "m.toml", {"rules": "partnership-pitch", "players": ["Ann", "Bob", "Cy", "Dee"],
                                         "teams": TEAMS, "first_dealer": "Dee"})


@pytest.fixture
def api(log: Path) -> Iterator[Api]:
    a = Api(create_app(log, PIN))
    yield a
    a.close()


def one_line_error(r: Any, status: int = 400) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["error"] and body["error"] and "\n" not in body["error"]
    assert "Traceback" not in body["error"]
    return body["error"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_whole_games_through_the_api_score_as_judge_match(example: Path, tmp_path: Path) -> None:
    record = tomllib.loads(example.read_text())
    log = new_log(tmp_path / "m.toml", record)
    api = Api(create_app(log, PIN))
    try:
        for n, hand in enumerate(record["hands"], 1):
            body = {k: v for k, v in hand.items() if k in HAND_KEYS}
            r = api.post_hand(body)
            assert r.status_code == 201, r.text
            expected = pitchkeeper.judge_match({**record, "hands": record["hands"][:n]})
            assert r.json() == expected
        got = api("GET", "/api/match").json()
        assert got.pop("version") == pitchkeeper.Logbook.open(log).version
        assert got == pitchkeeper.judge_match(example)
    finally:
        api.close()


def test_a_hand_without_a_dealer_takes_the_rotation(api: Api, log: Path) -> None:
    api.post_hand(HAND)
    api.post_hand({**HAND, "bid": {"player": "Bob", "amount": 2}})
    dealers = [h["dealer"] for h in tomllib.loads(log.read_text())["hands"]]
    assert dealers == ["Dee", "Ann"]


BAD = [
    ({**HAND, "trump": "X"}, "trump"),
    ({**HAND, "bid": {"player": "Zed", "amount": 3}}, "Zed"),
    ({**HAND, "bid": {"player": "Ann", "amount": 9}}, "out of range"),
    ({**HAND, "points": {"high": "Nobody"}}, "Nobody"),
    ({**HAND, "pionts": {}}, "pionts"),
    ({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "points": HAND["points"],
      "captured": {"Us": ["AS"]}}, ""),
    ({"trump": "S", "bid": {"player": "Ann", "amount": 2}, "captured": {"Us": ["AS", "1OS"]}}, "1OS"),
    ({"bid": {"player": "Ann", "amount": 2}, "points": HAND["points"]}, "trump"),
    ([HAND], "JSON object"),
    ("just words", "JSON object"),
    # who won nothing is said by leaving the point out (spec section 3), and the message says so
    ({**HAND, "points": {**HAND["points"], "game": "tie"}}, "m.toml: hands[2].points.game: 'tie' is not a team or "
     "player: to say nobody won it (not out, or game tied), leave it out"),
    ({**HAND, "points": {**HAND["points"], "jack": "none"}}, "hands[2].points.jack: 'none' is not a team or player"),
    ({**HAND, "points": {**HAND["points"], "jack": None}}, "hands[2].points.jack: null is not a team or player"),
    # JSON's own values are checked before the library sees them: one line, never "cannot write NoneType"
    ({**HAND, "bid": None}, 'm.toml: hands[2].bid: expected an object {"player": "Ann", "amount": 3}, got null'),
    ({**HAND, "bid": {"player": "Ann", "amount": None}}, 'hands[2].bid.amount: expected a whole number (or "smudge"), '
     "got null"),
    ({**HAND, "trump": 5}, "hands[2].trump: expected a suit"),
    ({**HAND, "points": ["high"]}, 'hands[2].points: expected an object {"high": "Us", ...}'),
    ({**HAND, "captured": {"Us": None}}, "hands[2].captured.Us: expected an array of cards, got null"),
]


@pytest.mark.parametrize(("hand", "words"), BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_a_bad_hand_is_400_with_one_line_and_the_log_unchanged(api: Api, log: Path, hand: Any, words: str) -> None:
    api.post_hand(HAND)
    before = log.read_bytes()
    error = one_line_error(api.post_hand(hand))
    assert words in error
    assert str(log.parent) not in error and "NoneType" not in error  # the server's own paths stay its own
    assert log.read_bytes() == before


@pytest.mark.parametrize("body", [b"{not json", b"", b"\xff\xfe", b"[1, 2"])
def test_a_body_that_is_not_json_is_400(api: Api, log: Path, body: bytes) -> None:
    before = log.read_bytes()
    r = api("POST", "/api/hands", content=body, headers={"X-Pitchkeeper-Pin": PIN,
                                                          "Content-Type": "application/json"})
    one_line_error(r)
    assert log.read_bytes() == before


def test_writes_need_the_pin_and_reads_do_not(api: Api, log: Path) -> None:
    before = log.read_bytes()
    assert "PIN" in one_line_error(api.post_hand(HAND, pin=None), 401)
    assert "wrong PIN" in one_line_error(api.post_hand(HAND, pin="000000"), 401)
    assert "PIN" in one_line_error(api("DELETE", "/api/hands/last"), 401)
    assert one_line_error(api("DELETE", "/api/hands/last", headers={"X-Pitchkeeper-Pin": "nope"}), 401)
    assert log.read_bytes() == before
    assert api("GET", "/api/match").status_code == 200
    assert api("GET", "/").status_code == 200
    assert api.post_hand(HAND).status_code == 201


def test_the_pin_in_a_cookie_or_the_query_does_not_write(api: Api, log: Path) -> None:
    """Only the header counts for the JSON interface: a cookie would be sent by another site's form."""
    before = log.read_bytes()
    r = api("POST", f"/api/hands?pin={PIN}", json=HAND, headers={"Cookie": f"pk_session={PIN}"})
    one_line_error(r, 401)
    assert log.read_bytes() == before


def test_undo_drops_the_last_hand_and_an_empty_log_has_nothing_to_undo(api: Api, log: Path) -> None:
    one_line_error(api("DELETE", "/api/hands/last", headers={"X-Pitchkeeper-Pin": PIN}))
    api.post_hand(HAND)
    second = api.post_hand({**HAND, "bid": {"player": "Bob", "amount": 2}}).json()
    r = api("DELETE", "/api/hands/last", headers={"X-Pitchkeeper-Pin": PIN})
    assert r.status_code == 200
    assert len(r.json()["hands"]) == 1 and r.json()["hands"][0] == second["hands"][0]
    assert len(tomllib.loads(log.read_text())["hands"]) == 1


def test_put_corrects_a_hand_and_replays_the_rest(api: Api, log: Path) -> None:
    api.post_hand(HAND)
    api.post_hand({**HAND, "bid": {"player": "Bob", "amount": 2}})
    r = api("PUT", "/api/hands/1", json={**HAND, "points": {"high": "Them", "low": "Them", "jack": "Them",
                                                              "game": "Them"}}, headers={"X-Pitchkeeper-Pin": PIN})
    assert r.status_code == 200, r.text
    assert r.json() == pitchkeeper.judge_match(log)
    assert r.json()["hands"][0]["bid"]["made"] is False
    one_line_error(api("PUT", "/api/hands/9", json=HAND, headers={"X-Pitchkeeper-Pin": PIN}))


def test_a_write_after_the_win_is_refused(tmp_path: Path) -> None:
    log = new_log(tmp_path / "m.toml", {"rules": "seven-point", "players": ["Ann", "Bob", "Cy", "Dee"],
                                        "teams": TEAMS, "target": 3})
    api = Api(create_app(log, PIN))
    try:
        won = api.post_hand({"trump": "S", "bid": {"player": "Ann", "amount": 3},
                             "points": {"high": "Us", "low": "Us", "jack": "Us", "game": "Us"}})
        assert won.status_code == 201 and won.json()["winner"] == "Us"
        before = log.read_bytes()
        error = one_line_error(api.post_hand(HAND))
        assert "won" in error
        assert log.read_bytes() == before
    finally:
        api.close()


@pytest.mark.parametrize(("method", "url"), [("GET", "/api/nope"), ("GET", "/api/hands/last"), ("POST", "/api/match"),
                                             ("GET", "/nope"), ("GET", "/enter/hand/99"), ("GET", "/static/nope.js"),
                                             ("DELETE", "/api/hands/1")])
def test_unknown_routes_are_404_or_405_never_a_traceback(api: Api, method: str, url: str) -> None:
    r = api(method, url, headers={"X-Pitchkeeper-Pin": PIN})
    assert r.status_code in (404, 405), (r.status_code, r.text)
    assert "Traceback" not in r.text
    if url.startswith("/api/"):
        one_line_error(r, r.status_code)


def test_match_carries_the_version_of_the_log(api: Api, log: Path) -> None:
    v0 = api("GET", "/api/match").json()["version"]
    api.post_hand(HAND)
    v1 = api("GET", "/api/match").json()["version"]
    assert v0 != v1 == pitchkeeper.Logbook.open(log).version


# ---------------------------------------------------------------------------
# the event stream, on a real server


def test_every_write_is_one_event_with_the_new_version_the_clis_too(log: Path, tmp_path: Path) -> None:
    with Server(create_app(log, PIN, poll=0.05)) as server:
        events = Events(server.url)
        try:
            import httpx

            r = httpx.post(server.url + "/api/hands", json=HAND, headers={"X-Pitchkeeper-Pin": PIN})
            assert r.status_code == 201
            v1 = pitchkeeper.Logbook.open(log).version
            assert events.wait(1)[0] == {"version": v1}
            # the CLI, in another process, writing the same log
            env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path / "home")}
            p = subprocess.run([sys.executable, "-m", "pitchkeeper", "undo", "--yes", "--match", str(log)],
                               capture_output=True, text=True, env=env, check=False)
            assert p.returncode == 0, p.stderr
            v2 = pitchkeeper.Logbook.open(log).version
            assert events.wait(2)[1] == {"version": v2}
            # the Python API, in this process
            pitchkeeper.Logbook.open(log).append(HAND)
            v3 = pitchkeeper.Logbook.open(log).version
            assert events.wait(3)[2] == {"version": v3}
            assert httpx.get(server.url + "/api/match").json()["version"] == v3
            # a bad write changes nothing and sends nothing
            assert httpx.post(server.url + "/api/hands", json={"trump": "X"},
                              headers={"X-Pitchkeeper-Pin": PIN}).status_code == 400
            r = httpx.delete(server.url + "/api/hands/last", headers={"X-Pitchkeeper-Pin": PIN})
            assert r.status_code == 200
            assert events.wait(4)[3] == {"version": pitchkeeper.Logbook.open(log).version}
            assert len(events.items) == 4
        finally:
            events.close()


def test_several_clients_at_once_lose_no_hand_and_each_write_is_an_event(tmp_path: Path) -> None:
    import threading

    import httpx

    log = new_log(tmp_path / "m.toml", {"rules": "partnership-pitch", "players": ["Ann", "Bob", "Cy", "Dee"],
                                        "teams": TEAMS, "target": 10_000})
    with Server(create_app(log, PIN)) as server:
        events = Events(server.url)
        codes: list[int] = []

        def client(k: int) -> None:
            with httpx.Client(base_url=server.url) as c:
                for i in range(4):
                    hand = {**HAND, "note": f"client {k} hand {i}"}
                    codes.append(c.post("/api/hands", json=hand, headers={"X-Pitchkeeper-Pin": PIN}).status_code)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        try:
            assert codes == [201] * 16
            notes = [h["note"] for h in tomllib.loads(log.read_text())["hands"]]
            assert sorted(notes) == sorted(f"client {k} hand {i}" for k in range(4) for i in range(4))
            versions = [e["version"] for e in events.wait(16)]
            assert len(set(versions)) == 16 and versions[-1] == pitchkeeper.Logbook.open(log).version
        finally:
            events.close()


def test_a_log_broken_by_hand_is_one_line_on_every_page_and_mended_at_once(api: Api, log: Path) -> None:
    good = log.read_text()
    log.write_text(good + "\n[[hands]]\ntrump = \n")
    r = api("GET", "/api/match")
    assert r.status_code == 503 and "m.toml" in one_line_error(r, 503)
    page = api("GET", "/")
    assert page.status_code == 503 and "The match log cannot be read" in page.text and "Traceback" not in page.text
    log.write_text(good)
    assert api("GET", "/api/match").status_code == 200


def test_a_stream_that_reconnects_after_a_change_gets_it_at_once(log: Path) -> None:
    """A page whose connection dropped while the log changed (Wi-Fi at a table...) catches up on reconnect."""
    import httpx

    with Server(create_app(log, PIN)) as server:
        old = httpx.get(server.url + "/api/match").json()["version"]
        first = Events(server.url)
        pitchkeeper.Logbook.open(log).append(HAND)
        new = pitchkeeper.Logbook.open(log).version
        assert first.wait(1) == [{"version": new}]  # the server has seen the change
        first.close()
        # no further change: only the catch-up can answer this one (else the read times out and fails)
        with httpx.stream("GET", server.url + "/api/events", headers={"Last-Event-ID": old},
                          timeout=httpx.Timeout(5.0)) as r:
            data = next(line for line in r.iter_lines() if line.startswith("data:"))
        assert json.loads(data[5:]) == {"version": new}


def test_the_cli_and_several_clients_at_once_lose_no_hand_and_the_stream_ends_on_the_last_version(
        tmp_path: Path) -> None:
    import threading

    import httpx

    log = new_log(tmp_path / "m.toml", {"rules": "partnership-pitch", "players": ["Ann", "Bob", "Cy", "Dee"],
                                        "teams": TEAMS, "target": 10_000})
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path / "home")}
    with Server(create_app(log, PIN)) as server:
        events = Events(server.url)

        def client() -> None:
            with httpx.Client(base_url=server.url) as c:
                for _ in range(4):
                    assert c.post("/api/hands", json=HAND, headers={"X-Pitchkeeper-Pin": PIN}).status_code == 201

        def cli() -> None:
            for _ in range(3):
                subprocess.run([sys.executable, "-m", "pitchkeeper", "hand", "Ann", "3", "S", "--high", "Us", "--low",
                                "Them", "--jack", "Us", "--game", "Us", "--rest", "none", "--match", str(log)], env=env,
                               check=True,
                               capture_output=True)

        threads = [threading.Thread(target=client) for _ in range(3)] + [threading.Thread(target=cli) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        try:
            final = pitchkeeper.Logbook.open(log)
            assert len(final.state()["hands"]) == 18
            seen = events.wait(12)  # at least one event per write through the server
            with events.cond:
                assert events.cond.wait_for(lambda: events.items[-1]["version"] == final.version, 5)
            assert len({e["version"] for e in events.items}) == len(events.items) >= len(seen)  # never twice
        finally:
            events.close()


def test_a_bug_is_one_line_in_the_players_words_not_a_python_name(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: Any) -> Any:
        raise KeyError("seat")

    monkeypatch.setattr(site.Site, "snapshot", broken)
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(log, PIN), raise_app_exceptions=False),
                               base_url="http://127.0.0.1")
    loop = asyncio.new_event_loop()
    try:
        api_answer = loop.run_until_complete(client.get("/api/match"))
        page = loop.run_until_complete(client.get("/"))
    finally:
        loop.run_until_complete(client.aclose())
        loop.close()
    line = one_line_error(api_answer, 500)
    assert "a bug" in line and "console" in line and "KeyError" not in line
    assert page.status_code == 500 and "a bug, not your answers" in page.text
    assert "KeyError" not in page.text and "Traceback" not in page.text
