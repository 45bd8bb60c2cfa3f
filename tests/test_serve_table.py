"""`serve` serves the table for the evening (spec section 7, as extended): the JSON interface's ETag,
If-Match (412) and `"hand": N` (409); `POST /api/matches` starting the next game, which every open
page follows; a game started from the CLI followed too; `--match FILE` keeping to its one match; and the
phone's side of it - "Next game", the auction by taps, two phones entering the same hand (the slower
one asked, never saved twice), messages in the page's words beside their question."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import PIN, Api, Events, Server
from test_serve_pages import TAPS, Phone, hands_of, hidden, messages, token

import pitchkeeper
from pitchkeeper.logbook import shelf, store
from pitchkeeper.web.app import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
        "points": {"high": "Us", "low": "Ann", "jack": "Them", "game": "Us"}}
WIN = {"trump": "S", "bid": {"player": "Ann", "amount": 3}, "points": {"high": "Us", "low": "Ann", "jack": "Us",
                                                                      "game": "Us"}}


def pin(**more: str) -> dict[str, str]:
    return {"X-Pitchkeeper-Pin": PIN, **more}


def quoted(version: str) -> str:
    return f'"{version}"'


@pytest.fixture
def first(_home: Path) -> pitchkeeper.Logbook:
    """The table's current match: seven-point to 3 (one hand of 3 wins it)."""
    return shelf.start("seven-point", PLAYERS, target=3)


@pytest.fixture
def api(first: pitchkeeper.Logbook) -> Iterator[Api]:
    with Api(create_app(first.path, PIN, follow=True)) as a:
        yield a


def one_line(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


# ---------------------------------------------------------------------------
# no write against a stale view


def test_the_match_is_served_with_its_version_as_etag(api: Api, first: pitchkeeper.Logbook) -> None:
    r = api("GET", "/api/match")
    assert r.headers["etag"] == quoted(first.version) == quoted(r.json()["version"])


def test_a_write_made_against_an_older_version_is_412_and_writes_nothing(api: Api, first: pitchkeeper.Logbook) -> None:
    seen = api("GET", "/api/match").headers["etag"]
    assert api("POST", "/api/hands", json=HAND, headers=pin(**{"If-Match": seen})).status_code == 201
    before = first.path.read_bytes()
    for method, url, body in (("POST", "/api/hands", HAND), ("PUT", "/api/hands/1", HAND),
                              ("DELETE", "/api/hands/last", None)):
        r = api(method, url, json=body, headers=pin(**{"If-Match": seen}))
        error = one_line(r, 412)
        assert "changed" in error and r.json()["version"] == first.version
        assert r.headers["etag"] == quoted(first.version)
    assert first.path.read_bytes() == before
    now = api("GET", "/api/match").headers["etag"]
    assert api("DELETE", "/api/hands/last", headers=pin(**{"If-Match": now})).status_code == 200
    assert api("POST", "/api/hands", json=HAND, headers=pin(**{"If-Match": "*"})).status_code == 201


def test_a_hand_that_names_a_number_not_the_next_is_409(api: Api, first: pitchkeeper.Logbook) -> None:
    for n in (2, 5):
        assert "hand 1" in one_line(api("POST", "/api/hands", json={**HAND, "hand": n}, headers=pin()), 409)
    assert not first.state()["hands"]
    assert api("POST", "/api/hands", json={**HAND, "hand": 1}, headers=pin()).status_code == 201
    assert "not the next hand" in one_line(api("POST", "/api/hands", json={**HAND, "hand": 1}, headers=pin()), 409)
    for bad in ("2", 0, True, 1.5):
        assert "hand" in one_line(api("POST", "/api/hands", json={**HAND, "hand": bad}, headers=pin()), 400)
    assert len(first.state()["hands"]) == 1


def test_two_clients_posting_the_same_hand_with_both_keys_save_it_once(api: Api, first: pitchkeeper.Logbook) -> None:
    seen = api("GET", "/api/match").headers["etag"]
    codes = [api("POST", "/api/hands", json={**HAND, "hand": 1}, headers=pin(**{"If-Match": seen})).status_code
             for _ in range(2)]
    assert codes == [201, 412] and len(first.state()["hands"]) == 1


# ---------------------------------------------------------------------------
# the next game


def test_a_rematch_after_the_win_is_the_match_served_now(api: Api, first: pitchkeeper.Logbook) -> None:
    assert api("POST", "/api/hands", json=WIN, headers=pin()).json()["winner"] == "Us"
    seen = api("GET", "/api/match").headers["etag"]
    assert "PIN" in one_line(api("POST", "/api/matches", json={"rematch": True}), 401)
    r = api("POST", "/api/matches", json={"rematch": True}, headers=pin(**{"If-Match": seen}))
    assert r.status_code == 201 and r.json()["hands"] == [] and r.json()["scores"] == {"Us": 0, "Them": 0}
    now = store.current_match()
    assert now is not None and now != first.path
    header = tomllib.loads(now.read_text())
    assert header["players"] == PLAYERS and header["first_dealer"] == "Bob" and header["target"] == 3
    served = api("GET", "/api/match")
    assert served.json()["hands"] == [] and served.headers["etag"] == quoted(pitchkeeper.Logbook.open(now).version)
    # a second phone that tapped "Next game" from the same view is refused: one next game, not two
    assert "moved on" in one_line(api("POST", "/api/matches", json={"rematch": True},
                                      headers=pin(**{"If-Match": seen})), 412)
    assert len(shelf.kept()) == 2
    # and a hand sent against the finished game's view never lands in the new one
    one_line(api("POST", "/api/hands", json=HAND, headers=pin(**{"If-Match": seen})), 412)
    assert api("POST", "/api/hands", json={**HAND, "hand": 1}, headers=pin()).status_code == 201
    assert len(pitchkeeper.Logbook.open(now).state()["hands"]) == 1 and len(first.state()["hands"]) == 1


def test_new_players_ruleset_and_teams(api: Api) -> None:
    r = api("POST", "/api/matches", headers=pin(), json={
        "rules": "partnership-pitch", "players": ["Ann", "Bob", "Cy", "Dee"],
        "teams": {"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]}, "title": "Second game"})
    assert r.status_code == 201 and r.json()["rules"] == "partnership-pitch"
    assert r.json()["scores"] == {"North": 0, "South": 0}
    assert api("GET", "/api/match").json()["rules"] == "partnership-pitch"
    assert "Second game" in api("GET", "/").text
    r = api("POST", "/api/matches", headers=pin(), json={"rules": "cutthroat-pitch", "players": ["Ann", "Bob", "Cy"],
                                                          "teams": {}})
    assert r.status_code == 201 and r.json()["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0}


@pytest.mark.parametrize(("body", "words"), [
    ({"rematch": True}, "still on"),
    ({"rematch": "yes"}, "expected true"),
    ({"rules": "seven-point"}, "players"),
    ({"rules": "sevn-point", "players": PLAYERS}, "sevn-point"),
    ({"rules": "/etc/passwd", "players": PLAYERS}, "built-in ruleset"),
    ({"rules": "seven-point", "players": ["Ann", "Bob", "Ann", "Dee"]}, "Ann"),
    ({"rules": "seven-point", "players": "Ann Bob"}, "players"),
    ({"rules": "seven-point", "players": PLAYERS, "teams": {"Us": ["Ann", "Zed"], "Them": ["Bob", "Dee"]}}, "Zed"),
    ({"rules": "seven-point", "players": PLAYERS, "colour": "red"}, "unknown key 'colour'"),
    ({"rematch": True, "players": PLAYERS}, "keeps the table"),
    (["rematch"], "JSON object"),
])
def test_a_bad_next_game_is_400_one_line_and_changes_nothing(api: Api, first: pitchkeeper.Logbook, body: Any,
                                                            words: str) -> None:
    r = api("POST", "/api/matches", json=body, headers=pin())
    assert words in one_line(r, 400)
    assert store.current_match() == first.path and len(shelf.kept()) == 1


def test_serving_one_match_starts_no_other(first: pitchkeeper.Logbook) -> None:
    api = Api(create_app(first.path, PIN))
    try:
        first.append(WIN)
        assert "--match" in one_line(api("POST", "/api/matches", json={"rematch": True}, headers=pin()), 409)
        assert store.current_match() == first.path and len(shelf.kept()) == 1
    finally:
        api.close()


def test_every_open_page_hears_of_a_game_started_from_the_cli(first: pitchkeeper.Logbook, _home: Path) -> None:
    env = {**os.environ, "PITCHKEEPER_HOME": str(_home)}

    def cli(*args: str) -> None:
        p = subprocess.run([sys.executable, "-m", "pitchkeeper", *args], capture_output=True, text=True, env=env)
        assert p.returncode == 0, p.stderr

    with Server(create_app(first.path, PIN, follow=True)) as server:
        events = Events(server.url)
        try:
            first.append(WIN)
            assert events.wait(1)[0] == {"version": first.version}  # a hand: the version, as ever
            cli("new", "--rematch")
            second = store.current_match()
            assert second is not None and second != first.path
            started = events.wait(2)[1]
            assert started == {"version": pitchkeeper.Logbook.open(second).version, "match": second.stem}
            assert httpx.get(server.url + "/api/match").json()["hands"] == []
            assert second.stem in httpx.get(server.url + "/").text
            cli("use", first.path.stem)  # back to the first: followed as well
            assert events.wait(3)[2] == {"version": first.version, "match": first.path.stem}
            assert httpx.get(server.url + "/api/match").json()["winner"] == "Us"
        finally:
            events.close()


# ---------------------------------------------------------------------------
# the phone


@pytest.fixture
def phone(first: pitchkeeper.Logbook) -> Iterator[Phone]:
    p = Phone(first.path, create_app(first.path, PIN, follow=True))
    p.login()
    yield p
    p.api.close()


def test_next_game_on_the_phone_after_a_win(phone: Phone, first: pitchkeeper.Logbook) -> None:
    first.append(WIN)
    page = phone.api("GET", "/enter").text
    assert "Us won" in page and "Next game: same seats, Bob deals" in page and 'id="hand-form"' not in page
    phone.page = page
    r = phone.post("/enter/next", {"csrf": token(page), "how": "rematch", **hidden(page)})
    assert "A new game: seven-point, to 3. Bob deals first." in r.text and 'id="hand-form"' in r.text
    second = store.current_match()
    assert second is not None and second != first.path
    # the same tap from a page that had not seen it: the game is not started twice
    r = phone.post("/enter/next", {"csrf": token(page), "how": "rematch", **hidden(page)})
    assert "already started on another device" in r.text and len(shelf.kept()) == 2


def test_new_players_from_the_phone_and_their_mistakes_beside_the_question(phone: Phone,
                                                                          first: pitchkeeper.Logbook) -> None:
    first.append(WIN)
    page = phone.page = phone.api("GET", "/enter").text
    fields = {"csrf": token(page), "how": "new", "rules": "cutthroat-pitch", "players": "Ann, Bob, Ann",
              "teams_how": "solo", **hidden(page)}
    r = phone.post("/enter/next", fields)
    error = messages(r.text)[0]
    assert error.startswith("Players:") and "Ann" in error and len(shelf.kept()) == 1
    assert re.search(r'<label class="field has-error" aria-invalid="true">Players', r.text)
    r = phone.post("/enter/next", {**fields, "csrf": token(r.text), "players": "Ann, Bob, Cy"})
    assert "A new game: cutthroat-pitch" in r.text
    assert pitchkeeper.Logbook.open(store.current_match()).state()["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0}


@pytest.mark.parametrize("target", [21, 3])
def test_the_slower_of_two_phones_entering_the_same_hand_is_asked(first: pitchkeeper.Logbook, target: int) -> None:
    """Two phones enter hand 1; the slower taps "Check the verdict" after the other saved it. To 3, that
    hand won the game: the slower phone's can only be discarded."""
    if target != 3:
        first = shelf.start("seven-point", PLAYERS, target=target)
    app = create_app(first.path, PIN, follow=True)
    fast, slow = Phone(first.path, app), Phone(first.path, app)
    for p in (fast, slow):
        p.login()
    try:
        opened = slow.page  # the slower phone's form was loaded before the other saved hand 1
        fast.check(TAPS, **hidden(fast.page))
        fast.save(TAPS)
        assert len(hands_of(first.path)) == 1
        slow.page = opened
        r = slow.check(TAPS, **hidden(opened))  # "Check the verdict": asked, never turned into hand 2
        assert "Hand 1 was saved on another device while you were entering it" in r.text
        assert "Saved as hand 1" in r.text and "Ann bid 3 in ♥" in r.text and "Discard mine" in r.text
        assert len(hands_of(first.path)) == 1
        if target == 3:  # the game is won: nothing of this phone's can be recorded, and it says why
            assert "Record mine" not in r.text and "already won" in messages(r.text)[0]
            assert "Next game" in r.text
            return
        assert "Yours, as hand 2" in r.text and "They are the same hand" in r.text
        # "Discard mine": a fresh form for hand 2, nothing written
        assert "Hand 2" in slow.api("GET", "/enter").text and len(hands_of(first.path)) == 1
        # or "Record mine as hand 2", which is an explicit answer
        slow.page = r.text
        r = slow.save(TAPS)
        assert "Hand 2 saved." in r.text and len(hands_of(first.path)) == 2
    finally:
        fast.api.close()
        slow.api.close()


def test_the_auction_tapped_fills_in_the_bidder_and_the_bid(phone: Phone, first: pitchkeeper.Logbook) -> None:
    page = phone.page
    assert re.findall(r'data-call="([^"]+)"', page) == ["pass", "2", "3", "4", "5", "6", "7"]  # Bob, after Ann
    answers = {"trump": "S"}
    for call in ("Bob:pass", "Cy:3", "Dee:pass", "Ann:4"):  # each tap names the player it is for
        r = phone.post("/enter/auction", {"csrf": token(page), **answers, **hidden(page),
                                          "auction": re.search(r'name="auction" value="([^"]*)"', page).group(1),
                                          "call": call})
        page = r.text
    assert "Ann wins the bid at 4" in page
    assert re.search(r'name="bidder" value="Ann" checked', page) and re.search(r'name="amount" value="4" checked', page)
    assert re.search(r'name="trump" value="S" checked', page)  # the answers given are kept
    taps = {k: v for k, v in TAPS.items() if k not in ("bidder", "amount")}
    r = phone.check({**taps, "bidder": "Ann", "amount": "4", "trump": "S", "auction": "Bob:pass Cy:3 Dee:pass Ann:4"},
                    **hidden(page))
    assert "Ann bid 4 in ♠" in r.text
    phone.save({**taps, "bidder": "Ann", "amount": "4", "trump": "S", "auction": "Bob:pass Cy:3 Dee:pass Ann:4"})
    assert hands_of(first.path)[0]["auction"] == ["Bob:pass", "Cy:3", "Dee:pass", "Ann:4"]


def test_an_auction_at_odds_with_the_bid_is_said_at_the_auction_in_the_pages_words(phone: Phone) -> None:
    r = phone.check({**TAPS, "auction": "Bob:pass Cy:3 Dee:pass Ann:pass"})
    error = messages(r.text)[0]
    assert error.startswith("The auction gives the pitch to Cy at 3, but the bid says Ann 3")
    assert "hands[" not in r.text and ".toml" not in error
    assert re.search(r'<fieldset class="q auction has-error" aria-invalid="true" id="auction">', r.text)


def test_a_saved_flash_goes_once_the_log_moves_on(_home: Path) -> None:
    first = shelf.start("seven-point", PLAYERS)
    phone = Phone(first.path, create_app(first.path, PIN, follow=True))
    phone.login()
    phone.check(TAPS)
    r = phone.save(TAPS)
    assert "Hand 1 saved." in r.text
    again = str(r.url)
    assert "Hand 1 saved." in phone.api("GET", again).text
    first.append(HAND)  # another device saved hand 2: the same address no longer says hand 1 was just saved
    assert "Hand 1 saved." not in phone.api("GET", again).text
    phone.api.close()
