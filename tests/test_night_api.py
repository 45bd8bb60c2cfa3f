"""`serve --tournament`'s JSON interface (spec section 8.1) on a real server, driven by many table clients at
once (threads): whole nights of progressive (12 to 40 players), round robin and Swiss, their seatings and
standings compared round by round with an independent implementation of the rules (tests/night_ref.py);
each table's PIN tried on other tables; stale, duplicate and wrong-round results; the next round refused
while a table has not reported; a game kept hand by hand reporting itself; corrections, forfeits,
closing; one event per write."""

from __future__ import annotations

import random
import threading
import time
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import night_ref
import pytest
from serving import Events, Server

import pitchkeeper
from pitchkeeper.game import rulesets
from pitchkeeper.tournament import book
from pitchkeeper.web.keys import night_keys
from pitchkeeper.web.night_app import create_night_app

ORGANIZER = "8642097531"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ian", "Jo", "Kim", "Lou", "Max", "Ned", "Olga",
         "Pat", "Quinn", "Rosa", "Sam", "Tess", "Uma", "Vic", "Walt", "Xena", "Yuri", "Zoe", "Abe", "Bea", "Cal", "Dot",
         "Ed", "Flo", "Guy", "Hope", "Ike", "Joy", "Kit", "Len", "Mo", "Nan"]


class NightServer(Server):
    def __exit__(self, *exc: object) -> None:
        self.app.state.night.close_soon()  # as `serve` does on Ctrl-C: open streams end first
        self.server.should_exit = True
        self.thread.join(10)


class Night:
    """A night served on a free port: the file, the PINs, and a client per call (each thread its own)."""

    def __init__(self, path: Path, home: Path) -> None:
        self.path = path
        t = book.load(path)
        keys = night_keys(home, path, t.table_count)
        self.pins = keys.tables
        self.app = create_night_app(path, ORGANIZER, keys.tables, secret=keys.secret)
        self.server = NightServer(self.app)
        self.url = ""

    def __enter__(self) -> Night:
        self.server.__enter__()
        self.url = self.server.url
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)

    def call(self, method: str, route: str, pin: str | None = None, **kw: Any) -> httpx.Response:
        """`source`: the loopback address the request comes from (each has its own budget of wrong PINs)."""
        headers = dict(kw.pop("headers", {}))
        source = kw.pop("source", None)
        if pin is not None:
            headers["X-Pitchkeeper-Pin"] = pin
        transport = httpx.HTTPTransport(local_address=source) if source else None
        with httpx.Client(base_url=self.url, timeout=30, transport=transport) as c:
            return c.request(method, route, headers=headers, **kw)

    def state(self, pin: str | None = None) -> dict[str, Any]:
        r = self.call("GET", "/api/tournament", pin)
        assert r.status_code == 200, r.text
        assert r.headers["etag"] == f'"{r.json()["version"]}"'
        return r.json()

    def result(self, table: int, score: dict[str, int], winner: str | None = None, pin: str | None = None,
               **more: Any) -> httpx.Response:
        body: dict[str, Any] = {"score": score, **more}
        if winner is not None:
            body["winner"] = winner
        return self.call("POST", f"/api/tables/{table}/result", self.pins[table] if pin is None else pin, json=body)

    def seat(self, **body: Any) -> httpx.Response:
        return self.call("POST", "/api/rounds", ORGANIZER, json=body or None)


def error(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    line = r.json()["error"]
    assert "\n" not in line and "Traceback" not in line
    return line


def served(path: Path, home: Path) -> Iterator[Night]:
    with Night(path, home) as n:
        yield n


def blocks(text: str, kind: str) -> int:
    """How many `[[kind]]` blocks a file holds (its header's comments name them too)."""
    return sum(1 for line in text.splitlines() if line.strip() == f"[[{kind}]]")


def name(side: list[str]) -> str:
    return "&".join(side)


def draw(rng: random.Random, sides: list[list[str]], target: int) -> tuple[dict[str, int], str | None, list[int], int]:
    """A final score the rules allow (the winner has got to the target): usually the higher wins; now and then
    a tie or the lower score (both past the target: the bidders went out first), with the winner named."""
    scores = [rng.randint(-6, target + 3) for _ in sides]
    winner = rng.randrange(len(sides))
    scores[winner] = max(scores[winner], rng.randint(target, target + 3))
    named: str | None = name(sides[winner])
    if rng.random() < 0.7 and scores.count(max(scores)) == 1:
        winner, named = scores.index(max(scores)), None
    return {name(s): v for s, v in zip(sides, scores, strict=True)}, named, scores, winner


def report_all(night: Night, seat: dict[str, Any], rng: random.Random, twice: int = 2
               ) -> dict[int, tuple[list[int], int]]:
    """Every table of the round reports at once, each from its own thread with its own PIN; `twice` tables
    report a second time at the same moment (two phones): exactly one of each pair is recorded."""
    target = rulesets.load(book.load(night.path).rules).settings["win"]["target"]
    drawn = {t["table"]: draw(rng, t["sides"], target) for t in seat["tables"]}
    jobs = [(t, drawn[t]) for t in drawn] + [(t, drawn[t]) for t in list(drawn)[:twice]]
    barrier = threading.Barrier(len(jobs))

    def post(job: tuple[int, tuple[dict[str, int], str | None, list[int], int]]) -> tuple[int, int, str]:
        table, (score, named, _, _) = job
        barrier.wait()
        r = night.result(table, score, named, round=seat["round"])
        return table, r.status_code, r.text

    with ThreadPoolExecutor(len(jobs)) as pool:
        answers = list(pool.map(post, jobs))
    for table in drawn:
        codes = sorted(code for t, code, _ in answers if t == table)
        assert codes == ([201, 400] if table in list(drawn)[:twice] else [201]), answers
    for _table, code, text in answers:
        if code == 400:
            assert "has reported round" in text and "organizer's" in text
    return {t: (v[2], v[3]) for t, v in drawn.items()}


def tables_of(seat: dict[str, Any]) -> list[set[frozenset[str]]]:
    """A seating as the rules fix it: each table's sides (who plays with whom), in table order."""
    return [{frozenset(s) for s in t["sides"]} for t in seat["tables"]]


def ref_tables(tables: list[night_ref.Table]) -> list[set[frozenset[str]]]:
    return [{frozenset(s) for s in t} for t in tables]


# ---------------------------------------------------------------------------
# whole nights, against the independent implementation


@pytest.mark.parametrize(("count", "rules"), [(12, "partnership-pitch"), (18, "partnership-pitch"),
                                              (27, "partnership-pitch"), (40, "seven-point"),
                                              (14, "cutthroat-pitch")])
def test_a_progressive_night_seats_and_ranks_as_the_rules_say(tmp_path: Path, _home: Path, count: int,
                                                               rules: str) -> None:
    players = NAMES[:count]
    path = tmp_path / "night.toml"
    book.create(path, rules, "progressive", players, rounds=4, title="Legion hall")
    rng = random.Random(count)
    t = book.load(path)
    size, sides = t.shape.size, t.shape.sides
    games: list[tuple[list[list[str]], list[int], int]] = []
    sat = dict.fromkeys(players, 0)
    with Night(path, _home) as night:
        events = Events(night.url)
        assert night.state()["seat"] == {"round": 0, "tables": [], "sitting_out": []}
        assert error(night.call("POST", "/api/rounds", night.pins[1]), 401)
        r = night.seat(round=1)
        assert r.status_code == 201
        expected, out = night_ref.first_round(players, sides, size)
        for rnd in range(1, 5):
            state = night.state()
            seat = state["seat"]
            assert seat["round"] == rnd and state["reported"] == []
            assert tables_of(seat) == ref_tables(expected) and seat["sitting_out"] == out, rnd
            for p in out:
                sat[p] += 1
            results = report_all(night, seat, rng)
            state = night.state()
            assert sorted(state["reported"]) == [t["table"] for t in seat["tables"]]
            for t in seat["tables"]:
                scores, winner = results[t["table"]]
                games.append(([list(s) for s in t["sides"]], scores, winner))
            want = night_ref.standings(players, [([list(s) for s in sides_], sc, w) for sides_, sc, w in games],
                                       night_ref.ORDERS["progressive"])
            assert night_ref.as_rows(state["standings"]["players"]) == want
            assert state["standings"]["tiebreak"] == night_ref.ORDERS["progressive"]
            if rnd == 4:
                break
            tables = [[tuple(s) for s in t["sides"]] for t in seat["tables"]]
            expected, out = night_ref.next_progressive(players, tables, seat["sitting_out"], results, sat)
            assert night.seat(round=rnd + 1).status_code == 201
        assert state["standings"]["finished"] is True
        assert "all 4 round(s) have been played" in error(night.seat(), 409)
        # every write was one event, in order, the last one the version served now
        seen = events.wait(1 + 4 * len(seat["tables"]) + 3)
        assert seen[-1]["version"] == night.state()["version"]
        events.close()
    text = path.read_text(encoding="utf-8")
    assert blocks(text, "results") == 4 * len(seat["tables"]) and blocks(text, "rounds") == 4


def test_a_round_robin_night_meets_every_team_once_and_ranks_by_wins(tmp_path: Path, _home: Path) -> None:
    teams = [[NAMES[2 * i], NAMES[2 * i + 1]] for i in range(7)]  # an odd count: a bye each
    path = tmp_path / "league.toml"
    book.create(path, "partnership-pitch", "round-robin", [], teams)
    rng = random.Random(5)
    rounds, byes, games = [], [], []
    with Night(path, _home) as night:
        for rnd in range(1, 8):
            assert night.seat(round=rnd).status_code == 201
            seat = night.state()["seat"]
            rounds.append([frozenset(name(s) for s in t["sides"]) for t in seat["tables"]])
            byes.append([name(teams[i]) for i in range(7) if teams[i][0] in seat["sitting_out"]])
            results = report_all(night, seat, rng, twice=1)
            games += [([[name(s)] for s in t["sides"]], *results[t["table"]]) for t in seat["tables"]]
        state = night.state()
    night_ref.circle_ok(rounds, byes, [name(t) for t in teams])
    want = night_ref.standings([name(t) for t in teams], games, night_ref.ORDERS["round-robin"])
    assert night_ref.as_rows(state["standings"]["teams"]) == want and state["standings"]["finished"]


def test_a_swiss_night_pairs_nearest_records_without_a_rematch(tmp_path: Path, _home: Path) -> None:
    players = NAMES[:9]  # individual play, one player a side; nine: a bye each round
    path = tmp_path / "swiss.toml"
    book.create(path, "solo-pitch", "swiss", players, rounds=4)
    rng = random.Random(9)
    wins, points = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    met: set[frozenset[str]] = set()
    byes = dict.fromkeys(players, 0)
    games = []
    with Night(path, _home) as night:
        for rnd in range(1, 5):
            assert night.seat().status_code == 201
            seat = night.state()["seat"]
            pairs, bye = night_ref.swiss_pairs(players, wins, points, met, byes)
            assert [frozenset((a, b)) for a, b in pairs] == [frozenset(s[0] for s in t["sides"])
                                                             for t in seat["tables"]], rnd
            assert seat["sitting_out"] == bye
            for b in bye:
                byes[b] += 1
            results = report_all(night, seat, rng, twice=2)
            for t in seat["tables"]:
                scores, winner = results[t["table"]]
                names = [s[0] for s in t["sides"]]
                met.add(frozenset(names))
                wins[names[winner]] += 1
                for n_, sc in zip(names, scores, strict=True):
                    points[n_] += sc
                games.append(([[n_] for n_ in names], scores, winner))
        state = night.state()
    want = night_ref.standings(players, games, night_ref.ORDERS["swiss"])
    assert night_ref.as_rows(state["standings"]["players"]) == want


# ---------------------------------------------------------------------------
# who may write what


@pytest.fixture
def night(tmp_path: Path, _home: Path) -> Iterator[Night]:
    """Sixteen players on four tables, round 1 seated."""
    path = tmp_path / "night.toml"
    book.create(path, "partnership-pitch", "progressive", NAMES[:16], rounds=3, title="Club night")
    book.seat(path)
    yield from served(path, _home)


def score_of(night: Night, table: int, a: int = 21, b: int = 14) -> dict[str, int]:
    seat = night.state()["seat"]["tables"][table - 1]
    return {name(seat["sides"][0]): a, name(seat["sides"][1]): b}


def test_a_table_pin_reports_its_own_table_only(night: Night) -> None:
    before = night.path.read_bytes()
    for other in (2, 3, 4):  # another table's PIN is any wrong PIN: which table it opens is never said
        line = error(night.result(1, score_of(night, 1), pin=night.pins[other], source="127.0.0.11"), 401)
        assert line == "wrong PIN: that PIN does not open table 1"
    assert "PIN" in error(night.call("POST", "/api/tables/1/result", json={"score": score_of(night, 1)}), 401)
    assert error(night.result(1, score_of(night, 1), pin="0000000000"), 401) == "wrong PIN: that PIN does not open table 1"
    assert night.path.read_bytes() == before  # nothing written by any of them
    assert night.result(1, score_of(night, 1)).status_code == 201  # its own PIN
    assert night.result(2, score_of(night, 2), pin=ORGANIZER).status_code == 201  # the organizer's: any table
    for route, body in (("/api/rounds", None), ("/api/close", None), ("/api/tables/3/forfeit", {"winner": "x"})):
        line = error(night.call("POST", route, night.pins[3], json=body, source="127.0.0.12"), 401)
        assert "the organizer's" in line and "table 3" not in line
    correction = {"round": 1, "score": score_of(night, 1, 10, 21)}
    assert "the organizer's" in error(night.call("PUT", "/api/tables/1/result", night.pins[1], json=correction,
                                                 source="127.0.0.13"), 401)
    # the PINs: listed for the organizer only
    assert "pins" not in night.state()
    listed = night.call("GET", "/api/tournament", night.pins[1], source="127.0.0.13")  # a table's PIN: a wrong one
    assert listed.status_code == 401 and "pins" not in listed.json()
    assert night.state(ORGANIZER)["pins"] == {str(k): v for k, v in night.pins.items()}
    assert error(night.call("GET", "/api/tournament", "1234"), 401) == listed.json()["error"]  # the same words


def test_stale_duplicate_and_wrong_round_results_are_refused_and_write_nothing(night: Night) -> None:
    seen = night.call("GET", "/api/tournament").headers["etag"]
    assert night.result(1, score_of(night, 1)).status_code == 201
    before = night.path.read_bytes()
    now = night.state()["version"]
    r = night.call("POST", "/api/tables/2/result", night.pins[2], json={"score": score_of(night, 2)},
                   headers={"If-Match": seen})
    assert "changed since" in error(r, 412) and r.json()["version"] == now and r.headers["etag"] == f'"{now}"'
    assert "has reported round 1 already" in error(night.result(1, score_of(night, 1, 21, 3)), 400)
    assert "round 2 has not been seated" in error(night.result(2, score_of(night, 2), round=2), 400)
    sides = score_of(night, 2)
    bad = {next(iter(sides)): 21, "Zed&Cy": 3}
    assert "Zed not seated at table 2" in error(night.result(2, bad), 400)
    assert "a tie" in error(night.result(2, score_of(night, 2, 21, 21)), 400)
    assert "whole number" in error(night.result(2, {k: 21.5 for k in sides}), 400)
    assert "round 1 has tables 1-4" in error(night.call("POST", "/api/tables/9/result", ORGANIZER,
                                                        json={"score": sides}), 400)
    assert "unknown key" in error(night.call("POST", "/api/tables/2/result", night.pins[2],
                                             json={"scores": sides}), 400)
    assert night.path.read_bytes() == before
    # a round over is a round over: round 1's result for a table, sent after round 2 was seated
    for t in (2, 3, 4):
        assert night.result(t, score_of(night, t), round=1).status_code == 201
    old = score_of(night, 2)
    assert night.seat(round=2).status_code == 201
    assert "round 1 is over" in error(night.result(2, old, round=1), 400)
    assert "not seated at table 2" in error(night.result(2, old), 400)  # round 2's table 2 seats others
    assert "round 2 is seated already" in error(night.seat(round=2), 409)


def test_the_next_round_waits_for_every_table_unless_one_is_declared_forfeit(night: Night) -> None:
    for t in (1, 2, 3):
        assert night.result(t, score_of(night, t)).status_code == 201
    assert "table(s) 4 have not reported" in error(night.seat(), 409)
    assert "close the night without it" in error(night.call("POST", "/api/close", ORGANIZER), 409)
    sides = list(score_of(night, 4))
    r = night.call("POST", "/api/tables/4/forfeit", ORGANIZER, json={"winner": sides[1]})
    assert r.status_code == 201 and 4 in r.json()["reported"]
    forfeit = next(x for x in r.json()["results"] if x["table"] == 4)
    assert forfeit == {"table": 4, "scores": {sides[0]: 0, sides[1]: 0}, "winner": sides[1], "correction": False,
                       "forfeit": True}
    assert night.seat().status_code == 201 and night.state()["seat"]["round"] == 2
    assert "forfeit = true" in night.path.read_text(encoding="utf-8")


def test_the_organizer_corrects_a_result_and_closes_the_night(night: Night) -> None:
    for t in (1, 2, 3, 4):
        assert night.result(t, score_of(night, t)).status_code == 201
    first = night.state()
    winners = {r["name"] for r in first["standings"]["players"] if r["rank"] == 1}
    r = night.call("PUT", "/api/tables/1/result", ORGANIZER, json={"round": 1, "score": score_of(night, 1, 10, 30)})
    assert r.status_code == 200
    after = r.json()
    fixed = next(x for x in after["results"] if x["table"] == 1)
    assert fixed["correction"] is True and list(fixed["scores"].values()) == [10, 30]
    assert {x["name"] for x in after["standings"]["players"] if x["rank"] == 1} != winners
    assert "round 2 has not been seated" in error(night.call("PUT", "/api/tables/1/result", ORGANIZER,
                                                             json={"round": 2, "score": score_of(night, 1)}), 400)
    r = night.call("POST", "/api/close", ORGANIZER)
    assert r.status_code == 200 and r.json()["closed"] is True and r.json()["standings"]["finished"] is True
    assert "closed after round 1" in error(night.seat(), 409)
    assert "closed" in error(night.result(1, score_of(night, 1)), 409)
    assert "[closed]" in night.path.read_text(encoding="utf-8")
    assert book.load(night.path).finished


def test_a_game_kept_hand_by_hand_reports_itself_once_won(night: Night) -> None:
    seat = night.state()["seat"]["tables"][0]
    r = night.call("POST", "/api/tables/1/game", night.pins[1])
    assert r.status_code == 201 and r.json()["game"] == "/table/1/game"
    log = night.path.parent / "night-tables" / "round-1" / "table-1.toml"
    header = tomllib.loads(log.read_text(encoding="utf-8"))
    a, c = seat["sides"][0]
    b, d = seat["sides"][1]
    assert header["players"] == [a, b, c, d] and header["rules"] == "partnership-pitch"
    us, them = f"{a} & {c}", f"{b} & {d}"
    assert header["teams"] == {us: [a, c], them: [b, d]}
    assert night.call("POST", "/api/tables/1/game", night.pins[1]).status_code == 201  # a second phone: the same log
    hand = {"trump": "S", "bid": {"player": a, "amount": 4}, "points": {"high": us, "low": us, "jack": us, "game": us}}
    # the table's own JSON interface, on its game; another table's PIN does not open it
    assert night.call("POST", "/table/1/game/api/hands", night.pins[2], json=hand).status_code == 401
    for n in range(1, 12):
        r = night.call("POST", "/table/1/game/api/hands", night.pins[1], json={**hand, "hand": n})
        assert r.status_code == 201, r.text
        if r.json()["winner"] is not None:
            break
        assert 1 not in night.state()["reported"]  # not before the game is won
    game = r.json()
    assert game["winner"] == us
    state = night.state()
    assert 1 in state["reported"]
    res = next(x for x in state["results"] if x["table"] == 1)
    assert res["winner"] == name(seat["sides"][0])
    assert res["scores"] == {name(seat["sides"][0]): game["scores"][us], name(seat["sides"][1]): game["scores"][them]}
    assert 'match = "night-tables/round-1/table-1.toml"' in night.path.read_text(encoding="utf-8")
    assert "has reported round 1 already" in error(night.call("POST", "/api/tables/1/game", night.pins[1]), 400)


def test_a_game_won_by_a_write_made_elsewhere_is_reported_too(night: Night) -> None:
    assert night.call("POST", "/api/tables/2/game", night.pins[2]).status_code == 201
    log = night.path.parent / "night-tables" / "round-1" / "table-2.toml"
    game = pitchkeeper.Logbook.open(log)
    us = next(iter(game.state()["scores"]))
    bidder = us.split(" & ")[0]
    while game.state()["winner"] is None:  # another program (the CLI, say) keeps the game: the file moves
        assert 2 not in night.state()["reported"]
        game.append({"trump": "H", "bid": {"player": bidder, "amount": 4},
                     "points": {"high": us, "low": us, "jack": us, "game": us}})
    deadline = time.monotonic() + 5
    while 2 not in night.state()["reported"]:
        assert time.monotonic() < deadline, "the won game was not reported"
        time.sleep(0.05)
    res = next(x for x in night.state()["results"] if x["table"] == 2)
    assert next(iter(res["scores"].values())) == game.state()["scores"][us] and res["winner"] == us.replace(" & ", "&")


def test_twenty_tables_at_once_lose_nothing_and_record_nothing_twice(tmp_path: Path, _home: Path) -> None:
    players = [f"P{i:02}" for i in range(80)]
    path = tmp_path / "big.toml"
    book.create(path, "partnership-pitch", "progressive", players, rounds=2)
    book.seat(path)
    with Night(path, _home) as night:
        events = Events(night.url)
        seat = night.state()["seat"]
        report_all(night, seat, random.Random(20), twice=20)  # every table from two phones at the same moment
        state = night.state()
        assert sorted(state["reported"]) == list(range(1, 21))
        seen = events.wait(20)
        assert len({e["version"] for e in seen}) == 20  # one event per result recorded
        events.close()
    text = path.read_text(encoding="utf-8")
    assert blocks(text, "results") == 20
    assert len(book.load(path).results) == 20
