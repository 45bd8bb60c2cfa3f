"""What the final outside test found on the web pages, checked without a browser (the JSON interface,
the event stream, the pages' HTML): a log broken by hand while `serve` runs is an event at once and
every page says so in the players' words, never the CLI's `file:line: hands[n].key`; a wrong PIN shows
no Markdown; an empty form names every unanswered question at once; a table's PIN box does not say
which table another PIN opens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import PIN, Api, Events, Server, new_log

from pitchkeeper.web.app import create_app

TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 3},
        "points": {"high": "Us", "low": "Them", "jack": "Us", "game": "Us"}}
BROKEN = ("The match log cannot be read: someone edited it by hand (m.toml, hand 2). Mend it (pitchkeeper check "
          "shows where); this page comes back by itself.")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    log = new_log(tmp_path / "m.toml", {"rules": "partnership-pitch", "players": ["Ann", "Bob", "Cy", "Dee"],
                                        "teams": TEAMS, "first_dealer": "Dee"})
    api = Api(create_app(log, PIN))
    for _ in range(2):
        assert api.post_hand(HAND).status_code == 201
    api.close()
    return log


def break_trump(log: Path) -> str:
    """Hand 2's trump edited by hand into no suit; the good text, to mend it with."""
    good = log.read_text()
    head, sep, hand2 = good.rpartition("[[hands]]")
    log.write_text(head + sep + hand2.replace('trump = "S"', 'trump = "Q"', 1))
    return good


@pytest.fixture
def api(log: Path) -> Iterator[Api]:
    a = Api(create_app(log, PIN))
    yield a
    a.close()


def test_a_log_broken_by_hand_is_an_event_at_once_and_mending_it_is_another(log: Path) -> None:
    with Server(create_app(log, PIN, poll=0.05)) as server:
        events = Events(server.url)
        try:
            good = break_trump(log)
            first = events.wait(1)[0]
            assert first["broken"] == BROKEN  # the pages are told: they stop showing the score as current
            log.write_text(good)
            mended = events.wait(2)[1]
            assert "broken" not in mended and mended["version"] is not None
            break_trump(log)
            assert events.wait(3)[2]["broken"] == BROKEN
            late = Events(server.url)  # a page whose stream opens while the log is broken is told at once
            try:
                assert late.wait(1)[0]["broken"] == BROKEN
            finally:
                late.close()
            log.unlink()  # a log gone altogether is no score either
            gone = events.wait(4)[3]
            assert gone["version"] is None and "m.toml" in gone["broken"]
        finally:
            events.close()


def test_a_page_of_a_broken_log_speaks_the_players_words_and_comes_back_by_itself(api: Api, log: Path) -> None:
    good = break_trump(log)
    for url in ("/", "/enter", "/board"):
        r = api("GET", url)
        assert r.status_code == 503
        text = re.sub(r"\s+", " ", r.text)
        assert BROKEN in text
        assert "hands[" not in text and ":1" not in text and str(log.parent) not in text  # no line, key or folder
        assert 'data-broken="page"' in text and "/static/live.js" in text  # it reloads itself once mended
    # the JSON interface keeps the CLI's one line (a program, or the person mending, reads the line and key)
    r = api("GET", "/api/match")
    assert r.status_code == 503 and re.search(r"m\.toml:\d+: hands\[2\]\.trump", r.json()["error"])
    log.write_text(good)
    assert api("GET", "/").status_code == 200


def test_a_wrong_pin_shows_no_markdown(api: Api) -> None:
    page = api("GET", "/enter")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf
    api.client.cookies = page.cookies
    r = api("POST", "/enter/pin", data={"csrf": csrf.group(1), "pin": "1234"})
    assert r.status_code == 200
    assert "`" not in r.text
    assert "Wrong PIN: it is the one <code>pitchkeeper serve</code> printed." in r.text
