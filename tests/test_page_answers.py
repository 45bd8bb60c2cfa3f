"""What a phone is told when its form no longer fits the match, or its answer is refused: in the table's
words, at the question, as a page (never a 500 or a traceback); and a tap in the auction that names a
player whose turn it is not (a second tap sent before the first was answered) refused, never given to
whoever speaks next. Only a log that cannot be read says so (503), naming the file only."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, new_log
from test_serve_pages import TAPS, Phone, hands_of, hidden, token
from test_serve_pages import messages as raw_messages

import pitchkeeper
from pitchkeeper.web.app import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
        "points": {"high": "Us", "low": "Ann", "jack": "Them", "game": "Us"}}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return new_log(tmp_path / "friday.toml", {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS})


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    p = Phone(log)
    p.login()
    yield p
    p.api.close()


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def messages(page: str, kind: str = "error") -> list[str]:
    return [html.unescape(m) for m in raw_messages(page, kind)]


def auction_field(html: str) -> str:
    m = re.search(r'name="auction" value="([^"]*)"', html)
    assert m, "no auction field on the page"
    return m.group(1)


def tap(phone: Phone, page: str, call: str, **fields: str) -> Any:
    return phone.post("/enter/auction", {"csrf": token(page), **hidden(page), "auction": auction_field(page),
                                         "call": call, **fields})


# ---------------------------------------------------------------------------
# a correction whose hand was undone on another device


def test_tapping_the_auction_of_a_hand_undone_elsewhere_says_the_hand_is_gone(phone: Phone, log: Path) -> None:
    book = pitchkeeper.Logbook.open(log)
    book.append(HAND)
    book.append({**HAND, "bid": {"player": "Bob", "amount": 2}})
    page = phone.api("GET", "/enter/hand/2").text
    assert "Correct hand 2" in page
    book.drop_last()  # `pitchkeeper undo`, or another phone's Undo
    before = log.read_bytes()
    r = tap(phone, page, "Cy:pass", number="2")
    assert r.status_code == 200
    assert "Hand 2 is gone: it was undone on another device. Nothing was saved" in messages(r.text, "note")[0]
    assert "Correct hand 2" not in r.text and 'data-form="hand-2"' in r.text  # the form for the next hand
    assert "Traceback" not in r.text and log.read_bytes() == before
    r = phone.check(TAPS, **{**hidden(page), "number": "2"})  # Check says the same
    assert "Hand 2 is gone: it was undone on another device" in r.text and log.read_bytes() == before


@pytest.mark.parametrize("number", ["0", "5", "99999"])
def test_a_form_naming_a_hand_the_match_has_not_is_refused_in_words(phone: Phone, log: Path, number: str) -> None:
    pitchkeeper.Logbook.open(log).append(HAND)
    page = phone.page
    r = tap(phone, page, "Bob:pass", number=number)
    assert r.status_code == 200
    said = messages(r.text, "note")
    assert said and (f"There is no hand {number} in this match" in said[0] if number == "0"
                     else f"Hand {number} is gone" in said[0])
    # hand 0 is not taken as the last hand (Ann dealt it): the next hand's auction, Cy first after Bob's deal
    assert "Correct hand" not in r.text and auction_field(r.text) == ""


def test_the_correction_page_of_a_hand_that_is_gone_is_not_found(phone: Phone) -> None:
    r = phone.api("GET", "/enter/hand/3")
    assert r.status_code == 404 and "there is no hand 3" in r.text


# ---------------------------------------------------------------------------
# each tap names its player: a second tap sent against the calls as they were before the first is refused


def test_every_call_button_names_the_player_it_is_for(phone: Phone) -> None:
    values = re.findall(r'name="call" value="([^"]+)"[^>]*data-call="([^"]+)"', phone.page)
    assert values == [(f"Bob:{c}", c) for c in ("pass", "2", "3", "4", "5", "6", "7")]


def test_a_double_tap_sent_with_the_old_calls_is_refused_not_given_to_the_next_player(phone: Phone) -> None:
    page = phone.page
    first = tap(phone, page, "Bob:pass").text  # the first tap, answered
    assert auction_field(first) == "Bob:pass"
    # the second tap left before the first's answer came back: it carries the calls as they were (none) and
    # names Bob again - it stands for Bob, so Bob's 3 (what was tapped), never Cy's
    second = tap(phone, page, "Bob:3").text
    assert auction_field(second) == "Bob:3"
    # a tap for Bob against calls in which Bob has spoken: refused at the auction, nothing added
    r = tap(phone, first, "Bob:3")
    assert auction_field(r.text) == "Bob:pass"
    error = messages(r.text)[0]
    assert error.startswith("The auction: Bob has spoken already: it is Cy's turn")
    assert re.search(r'<fieldset class="q auction has-error" aria-invalid="true" id="auction">', r.text)
    # a tap for a player whose turn has not come
    r = tap(phone, page, "Dee:4")
    assert auction_field(r.text) == "" and "It is not Dee's turn yet: Bob speaks next" in messages(r.text)[0]
    # a tap that names nobody (a page from before this rule) is refused too
    r = tap(phone, page, "pass")
    assert auction_field(r.text) == "" and "does not say whose call it is" in messages(r.text)[0]


def test_taps_in_turn_make_the_auction_and_fill_in_the_bid(phone: Phone) -> None:
    page = phone.page
    for call in ("Bob:pass", "Cy:3", "Dee:pass", "Ann:4"):
        page = tap(phone, page, call).text
    assert auction_field(page) == "Bob:pass Cy:3 Dee:pass Ann:4" and "Ann wins the bid at 4" in page
    assert re.search(r'name="bidder" value="Ann" checked', page) and re.search(r'name="amount" value="4" checked', page)


# ---------------------------------------------------------------------------
# a refused answer is said at its question: only a broken log blames the log


def test_a_dealer_who_is_not_a_player_is_said_at_the_dealer_question(phone: Phone, log: Path) -> None:
    before = log.read_bytes()
    r = phone.check({**TAPS, "dealer": "Zed"})
    assert r.status_code == 200
    error = messages(r.text)[0]
    assert error.startswith("Dealer: 'Zed' is not a player") and "cannot be read" not in r.text
    assert re.search(r'class="field has-error" aria-invalid="true" id="q-dealer"', r.text)
    assert log.read_bytes() == before
    r = tap(phone, phone.page, "Bob:pass", dealer="Zed")  # the auction of that form: no 500 either
    assert r.status_code == 200 and "cannot be read" not in r.text


def test_a_log_broken_while_serving_is_503_naming_the_file_only(phone: Phone, log: Path) -> None:
    good = log.read_text()
    log.write_text(good + "\n[[hands]\n")
    r = phone.api("GET", "/api/match")
    assert r.status_code == 503
    error = r.json()["error"]
    assert error.startswith("friday.toml: line ") and "not valid TOML" in error
    assert str(log.parent) not in r.text and "\n" not in error and "the log was not changed" not in error
    for page in ("/", "/enter", "/board"):
        r = phone.api("GET", page)
        assert r.status_code == 503 and str(log.parent) not in r.text
        assert "The match log cannot be read: friday.toml: line" in text_of(r.text)
        assert "Mend it (pitchkeeper check shows every problem)" in text_of(r.text)
    log.write_text(good)  # mended: at once
    assert phone.api("GET", "/api/match").status_code == 200
    assert phone.api("GET", "/enter").status_code == 200


def test_every_page_form_with_a_bad_answer_stays_a_page(phone: Phone, log: Path) -> None:
    """Hand-made forms (every field as a phone could send it, one answer bad each time): a page, never a 5xx,
    and the log unchanged."""
    before = log.read_bytes()
    bad: list[dict[str, str]] = [
        {"dealer": "Zed"}, {"bidder": "Zed"}, {"amount": "99"}, {"amount": "x"}, {"trump": "Q"},
        {"p.high": "Zed"}, {"auction": "Bob:pass Bob:3"}, {"auction": "Zed:2"}, {"revoke": "Zed"},
        {"number": "0"}, {"number": "77"}, {"mode": "cards", "c.Us": "ZZ"}, {"hand": "0"}, {"version": "x"},
    ]
    for change in bad:
        for url in ("/enter/check", "/enter/save", "/enter/auction"):
            fields = {"csrf": token(phone.page), **TAPS, "call": "Bob:pass", **change}
            r = phone.post(url, fields)
            assert r.status_code == 200, (url, change, r.status_code)
            assert "cannot be read" not in r.text and "internal error" not in r.text
    assert log.read_bytes() == before and hands_of(log) == []


def test_the_form_for_another_game_is_told_so(_home: Path, tmp_path: Path) -> None:
    log = new_log(tmp_path / "m.toml", {"rules": "seven-point", "players": PLAYERS, "teams": TEAMS})
    p = Phone(log, create_app(log, PIN))
    p.login()
    r = tap(p, p.page, "Bob:pass", match="another-game")
    assert "A new game was started on another device" in r.text
    p.api.close()
