"""serve and the analysis with every card known (issue 21, item 6): a hand entered trick by trick on the
phone shows par and its costliest card before Save, in the hand list and on the TV - the library's own
sentence for that hand - and a hand entered otherwise shows nothing of it. The analysis never holds a
page: a hand too long to solve says "not analysed (too long)", and what the analysis refuses is one
line."""

from __future__ import annotations

import asyncio
import html
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from nights import ORGANIZER, PINS, Browser, signed_in
from serving import (
    LONG_HAND,
    OFFJACK,
    PIN,
    PLAY,
    PLAYERS,
    QUICK_HAND,
    SEVEN,
    TRICK_TAPS,
    Api,
    new_log,
    offjack_table,
    seven_hands,
)
from test_serve_pages import Phone, messages

import pitchkeeper
from pitchkeeper.game import records, rulesets
from pitchkeeper.tournament import book as night_book
from pitchkeeper.web import analysed
from pitchkeeper.web.app import create_app
from pitchkeeper.web.night_app import create_night_app
from pitchkeeper.words.analysis import verdict_line

POINTS = {"bidder": "Ann", "amount": "3", "trump": "H", "mode": "points", "p.high": "Us", "p.low": "Bob",
          "p.jack": "Us", "p.off-jack": "-", "p.high-joker": "Them", "p.low-joker": "-", "p.game": "Us"}


def par_text(page: str, at: str) -> str | None:
    m = re.search(rf'<(?:p|span) class="par"(?: id="{at}")?>(.*?)</(?:p|span)>', page, re.S)
    return html.unescape(m.group(1)) if m else None


def expected_line() -> str:
    """The library's own sentence for the hand (the public API, then words.analysis)."""
    return verdict_line(pitchkeeper.analyse_hand(PLAY / "seven-point-offjack.toml"))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return offjack_table(tmp_path)


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    with Phone(log) as p:
        yield p


def test_a_hand_entered_trick_by_trick_shows_par_and_the_costliest_card_before_save(phone: Phone, log: Path) -> None:
    phone.login()
    r = phone.check(TRICK_TAPS)
    assert r.status_code == 200 and not messages(r.text)
    assert "Save hand 1" in r.text and not tomllib.loads(log.read_text()).get("hands")
    line = par_text(r.text, "par")
    assert line == expected_line() and line.startswith("With every card known, best play by everyone gives Us ")
    assert "the costliest card: trick " in line or "no card cost a point" in line
    r = phone.save(TRICK_TAPS)
    assert "Hand 1 saved." in r.text
    kept = tomllib.loads(log.read_text())["hands"][0]
    assert kept["tricks"] == OFFJACK["tricks"]  # the leaders worked out as they were played
    assert par_text(r.text, "") == line  # the hand list
    assert par_text(phone.api("GET", "/enter/hands").text, "") == line  # the list, fetched again on each event
    assert par_text(phone.api("GET", "/").text, "last-par") == line  # the TV's last hand
    assert par_text(phone.api("GET", "/board").text, "last-par") == line


def test_a_hand_posted_trick_by_trick_to_the_json_interface_shows_par_on_every_page(log: Path) -> None:
    api = Api(create_app(log, PIN))
    try:
        hand = {k: OFFJACK[k] for k in ("trump", "bid", "tricks")}
        assert api.post_hand(hand).status_code == 201
        board = api("GET", "/board").text
        assert par_text(board, "last-par") == expected_line()
        assert api("GET", "/api/match").json()["hands"][0]["awards"]  # the JSON interface is the contract's, unchanged
        assert api.post_hand({"trump": "S", "bid": {"player": "Bob", "amount": 2},
                              "points": {"high": "Them", "low": "Bob", "game": "Them"}}).status_code == 201
        board = api("GET", "/board").text
        assert par_text(board, "last-par") is None  # the last hand now was entered by its points
        lines = re.findall(r'<li data-hand="(\d)">.*?</li>', api("GET", "/enter/hands").text, re.S)
        assert lines == ["2", "1"]
        listed = api("GET", "/enter/hands").text
        assert listed.count('class="par"') == 1 and par_text(listed, "") == expected_line()
    finally:
        api.close()


@pytest.mark.parametrize("taps", [POINTS, {"bidder": "Ann", "amount": "2", "trump": "S", "mode": "cards", "d.Bob": "3S",
                                           "c.Us": "AS JS 10H 2H KC QC JC 10C 9C 8C 7C 6C 5D 6D 7D 8D",
                                           "c.Them": "3S KD 4C 5C 2C 3C 4D 9D"}], ids=["points", "cards"])
def test_hands_entered_otherwise_show_nothing_of_it(phone: Phone, taps: dict[str, str]) -> None:
    phone.login()
    r = phone.check(taps)
    assert 'id="preview"' in r.text and "With every card known" not in r.text
    r = phone.save(taps)
    assert "Hand 1 saved." in r.text and "With every card known" not in r.text
    assert "With every card known" not in phone.api("GET", "/").text


def test_a_correction_of_a_hand_recorded_trick_by_trick_shows_par_too(phone: Phone) -> None:
    phone.login()
    phone.check(TRICK_TAPS)
    phone.save(TRICK_TAPS)
    phone.page = phone.api("GET", "/enter/hand/1").text
    r = phone.check({**TRICK_TAPS, "amount": "4", "number": "1"})
    assert "Hand 1, corrected" in r.text and par_text(r.text, "par") == expected_line()


# ---------------------------------------------------------------------------
# never holding a page


@pytest.fixture
def seven(tmp_path: Path) -> Path:
    log = new_log(tmp_path / "seven.toml", {"rules": "solo-pitch", "players": SEVEN, "first_dealer": "Fay"})
    pitchkeeper.Logbook.open(log).append(LONG_HAND)
    return log


def test_a_hand_too_long_to_analyse_says_so_and_its_work_is_stopped(seven: Path) -> None:
    app = create_app(seven, PIN)
    site = app.state.site
    site.analyst.budget = 0.5  # the compiled core takes many seconds over this hand: 0.5 s is well short
    api = Api(app)
    try:
        board = api("GET", "/board").text
        line = par_text(board, "last-par")
        assert line is not None and "not analysed (too long" in line and "0.5 s" in line
        assert site.analyst._worker._proc is None  # the worker was stopped, not left searching
        assert par_text(api("GET", "/enter/hands").text, "") == line  # kept: asked again, answered at once
        # the next hand is analysed as ever, by a worker started afresh
        site.analyst.budget = analysed.BUDGET
        key, job = analysed.hand_job(rulesets.load("seven-point"), *records.parse_hand_record(OFFJACK))
        done = api.loop.run_until_complete(site.analyst.outcome(key, job))
        assert done.kind == "done" and verdict_line(done.value) == expected_line()
    finally:
        api.close()


def test_pages_that_need_no_analysis_answer_while_one_runs(seven: Path) -> None:
    app = create_app(seven, PIN)
    app.state.site.analyst.budget = 2.0
    api = Api(app)
    order: list[str] = []

    async def fetch(url: str) -> Any:
        r = await api.client.get(url)
        order.append(url)
        return r

    async def both() -> tuple[Any, Any]:
        board = asyncio.ensure_future(fetch("/board"))
        await asyncio.sleep(0.05)  # the board has asked for its analysis
        return await asyncio.gather(fetch("/api/match"), board)

    try:
        match, board = api.loop.run_until_complete(both())
        assert match.status_code == 200 and board.status_code == 200
        assert order == ["/api/match", "/board"]  # the JSON answered while the board's analysis ran
        assert "not analysed (too long" in board.text
    finally:
        api.close()


def test_what_the_analysis_refuses_is_one_line_never_a_broken_page() -> None:
    record = {**OFFJACK, "tricks": OFFJACK["tricks"][:5]}  # five tricks of six: the log would refuse it
    key, job = analysed.hand_job(rulesets.load("seven-point"), *records.parse_hand_record(record))
    analyst = analysed.Analyst()
    try:
        o = asyncio.run(analyst.outcome(key, job))
    finally:
        analyst.close()
    assert o.kind == "error"
    line = analysed.hand_words(o, analyst.budget)
    assert line.startswith("With every card known: not analysed (") and "\n" not in line
    assert "5 tricks given" in line


def test_a_hand_still_being_analysed_says_so_and_shows_once_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = seven_hands(tmp_path / "seven.toml")
    monkeypatch.setattr(analysed, "GRACE", 0.0)  # a page waits for its jobs their budget and no more
    app = create_app(log, PIN)
    app.state.site.analyst.budget = 1.0
    api = Api(app)
    try:
        first = api("GET", "/enter/hands").text  # hand 2 is asked first and takes the whole budget
        pending = re.findall(r'<li data-hand="(\d)">.*?<span class="par" data-analysing="1">(.*?)</span>', first, re.S)
        assert ("1", "With every card known: still being analysed (shown here once done).") in pending
        table = records.parse_table({"players": SEVEN})
        quick = analysed.hand_job(rulesets.load("solo-pitch"), table, records.parse_hand(QUICK_HAND, table))
        assert quick is not None
        deadline = 60.0
        while app.state.site.analyst.kept(quick[0]) is None and deadline > 0:
            api.loop.run_until_complete(asyncio.sleep(0.1))
            deadline -= 0.1
        later = api("GET", "/enter/hands").text
        assert "data-analysing" not in later
        lines = dict(re.findall(r'<li data-hand="(\d)">.*?<span class="par">(.*?)</span>', later, re.S))
        assert "not analysed (too long" in lines["2"]
        assert html.unescape(lines["1"]).startswith("With every card known, best play by everyone gives Cy ")
    finally:
        api.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(sys.platform != "linux", reason="a terminal's Ctrl-C reaches the whole process group; /proc")
def test_ctrl_c_at_the_terminal_stops_serve_and_its_worker_without_a_word(log: Path, tmp_path: Path) -> None:
    pitchkeeper.Logbook.open(log).append({k: OFFJACK[k] for k in ("trump", "bid", "tricks")})
    env = {**os.environ, "PITCHKEEPER_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([sys.executable, "-m", "pitchkeeper", "serve", "--match", str(log), "--port", "0", "--pin", PIN],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    assert p.stdout is not None and p.stderr is not None
    url = None
    for line in p.stdout:
        m = re.search(r"scoreboard\s+(http://127\.0\.0\.1:\d+)/", line)
        url = url or (m.group(1) if m else None)
        if line.startswith("Ctrl-C stops."):
            break
    assert url
    try:
        board = httpx.get(url + "/board", timeout=30).text
        assert par_text(board, "last-par") == expected_line()
        workers = children(p.pid)
        assert workers, "the analysis worker runs beside the server"
    finally:
        os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the server and its worker alike
        p.wait(15)
    said = p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{w}").exists() for w in workers)  # no worker left behind


def test_at_a_club_night_a_table_keeping_its_game_shows_par_and_the_tables_share_the_workers(tmp_path: Path) -> None:
    night = tmp_path / "night.toml"
    night_book.create(night, "seven-point", "progressive", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                      rounds=2)
    night_book.seat(night)
    app = create_night_app(night, ORGANIZER, PINS)
    phone = Browser(app)
    try:
        signed_in(phone, 1)
        r = phone.post("/table/1/keep", {"round": "1"})
        assert r.url.path == "/table/1/game/enter"
        game = pitchkeeper.Logbook.open(tmp_path / "night-tables" / "round-1" / "table-1.toml")
        header = tomllib.loads(game.path.read_text())
        seats = dict(zip(PLAYERS, header["players"], strict=True))  # the hand's seats, at this table's names
        hand = {"dealer": seats["Dee"], "trump": "S", "bid": {"player": seats["Ann"], "amount": 3},
                "tricks": [{"leader": seats[t["leader"]], "cards": t["cards"]} for t in OFFJACK["tricks"]]}
        game.append(hand)
        line = verdict_line(pitchkeeper.analyse_hand({"rules": "seven-point", "players": header["players"],
                                                      "teams": header["teams"], **hand}))
        assert par_text(phone.get("/table/1/game/").text, "last-par") == line  # the table's scoreboard
        assert par_text(phone.get("/table/1/game/enter").text, "") == line  # its list of hands
        odds_page = phone.get("/table/1/game/odds?" + "&".join(f"card={c}" for c in ["AS", "KS", "5S", "2H", "9D", "JC"])
                              + "&go=1").text
        assert 'id="answer"' in odds_page and 'action="/table/1/game/odds#answer"' in odds_page
        sites = list(app.state.night.sites.values())
        assert sites and all(s.analyst is app.state.night.analysts[0] for s in sites)
    finally:
        phone.api.close()
        for a in app.state.night.analysts:
            a.close()
