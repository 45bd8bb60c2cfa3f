"""`serve` with house rules, over HTTP as a browser posts the forms: the entry page asks which card the bidder
called and who held it, and (in cards mode) the kitty and what the bidder laid away; a bad answer is a message
next to its question in the page's words, nothing written; the JSON interface takes the record keys; the TV
shows the hand's partnership and a count-down goal."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, Api, new_log
from test_serve_pages import Phone, hidden, messages, token

import pitchkeeper
from pitchkeeper.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules"
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
TAPS = {"bidder": "Ann", "amount": "6", "trump": "S", "mode": "points", "called": "AS", "partner": "Cy",
        "p.ace": "Cy", "p.jack": "Ann", "p.off-jack": "Bob", "p.high-joker": "Ann", "p.low-joker": "Dee", "p.ten": "Cy",
        "p.three": "Ann", "p.deuce": "Eve"}


def hands_of(log: Path) -> list[dict[str, Any]]:
    return tomllib.loads(log.read_text(encoding="utf-8")).get("hands", [])


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return new_log(tmp_path / "five.toml", {"rules": str(HOUSE / "call-partner-5.toml"), "players": FIVE})


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    with Phone(log) as p:
        p.login()
        yield p


def marked(html: str) -> list[str]:
    """The questions the page marks as wrong."""
    return re.findall(r'class="[^"]*has-error" aria-invalid="true"[^>]* id="q-([a-z-]+)"', html)


def test_the_page_asks_the_called_card_and_who_held_it(phone: Phone) -> None:
    legends = re.findall(r"<legend>([^<]+)</legend>", phone.page)
    assert legends[3:5] == ["Which card did the bidder call?", "Who held it?"]
    held = re.search(r'id="q-partner">(.*?)</fieldset>', phone.page, re.S).group(1)
    assert re.findall(r'data-v="([^"]+)"', held) == [*FIVE, "none"] and "the bidder alone" in held


def test_a_call_partner_hand_is_checked_then_saved(phone: Phone, log: Path) -> None:
    r = phone.check(TAPS)
    assert r.status_code == 200 and not messages(r.text) and not hands_of(log)
    assert "Hand 1: Ann+Cy bid 6 in ♠ (A♠) – made" in r.text
    assert "called A♠: partner Cy (Ann+Cy against Bob+Dee+Eve)" in r.text
    assert "<li>ace – Cy (Ann+Cy)</li>" in r.text and "Eve (Bob+Dee+Eve) was dealt deuce" in r.text
    phone.save(TAPS)
    h = hands_of(log)[0]
    assert (h["called"], h["partner"]) == ("AS", "Cy")
    assert pitchkeeper.Logbook.open(log).state()["scores"] == {"Ann": 7, "Bob": 3, "Cy": 7, "Dee": 3, "Eve": 3}
    # the bidder alone, corrected from the phone: the form comes back with the card and who held it
    r = phone.api("GET", "/enter/hand/1")
    assert re.search(r'name="called" class="card-field" value="AS"', r.text)
    assert re.search(r'value="Cy" checked', r.text)


@pytest.mark.parametrize(("change", "question", "words"), [
    ({"called": "QX"}, "called", "The card called: 'QX' is not a card"),
    ({"called": "2H"}, "called", "The card called: 2H is not a trump (hearts); the bidder calls a trump"),
    ({"called": ""}, "called", "No answer yet: type the card Ann called"),
    ({"partner": ""}, "partner", "Who held it? No answer yet: tap who held it, or nobody"),
    ({"partner": "Ann"}, "partner", "Who held it? Ann won the bid: tap who else held AS, or nobody"),
    ({"partner": "Zed"}, "partner", "Who held it? 'Zed' is not a player"),
])
def test_a_bad_called_card_or_holder_is_said_next_to_its_question(phone: Phone, log: Path, change: dict[str, str],
                                                                   question: str, words: str) -> None:
    before = log.read_bytes()
    r = phone.check({**TAPS, **change})
    assert r.status_code == 200 and "Traceback" not in r.text
    said = [m.replace("&#39;", "'") for m in messages(r.text)]
    assert len(said) == 1 and words in said[0], said
    assert marked(r.text) == [question]
    assert f'id="q-{question}">\n      <legend>' in r.text and "hands[" not in said[0]  # the page's words
    assert log.read_bytes() == before


def test_the_kitty_and_the_discard_in_cards_mode(tmp_path: Path) -> None:
    log = new_log(tmp_path / "widow.toml", {"rules": str(HOUSE / "widow-counts-for-game.toml"),
                                            "players": ["Ann", "Bob", "Cy", "Dee"],
                                            "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}})
    p = Phone(log)
    p.login()
    try:
        assert 'name="kitty"' in p.page and "they count for the bidding side" in p.page
        us = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S AH KH QH JH"
        them = "2S 10H 9H 8H AD KD QD JD"
        taps = {"bidder": "Ann", "amount": "2", "trump": "S", "mode": "cards", "c.Us": us, "c.Them": them,
                "d.Bob": "2S", "kitty": "10D 9D 8D 7D"}
        r = p.check(taps)  # the discard counts for game: it must be given
        assert marked(r.text) == ["kitty"] and "Laid away: No answer yet" in messages(r.text)[0]
        r = p.check({**taps, "discard": "10D 9D 8D"})
        said = messages(r.text)[0]
        assert "Laid away: 3 cards laid away; Ann held 6+4 after taking the kitty and keeps 6, so lays away 4" in said
        r = p.check({**taps, "kitty": "10D 9D 8D", "discard": "10D 9D 8D 7D"})
        assert "The kitty: 3 cards; widow-counts-for-game deals a kitty of 4 (kitty.size)" in messages(r.text)[0]
        assert not hands_of(log)
        taps = {**taps, "discard": "10D 9D 8D 7D"}
        r = p.check(taps)
        assert not messages(r.text), messages(r.text)
        assert "game" in r.text and "10♦" not in re.sub(r"<textarea.*?</textarea>|<input[^>]*>", "", r.text)
        p.save(taps)
        h = hands_of(log)[0]
        assert h["kitty"] == ["10D", "9D", "8D", "7D"] and h["discard"] == ["10D", "9D", "8D", "7D"]
    finally:
        p.api.close()


def test_the_api_takes_the_record_keys_and_refuses_bad_ones_in_one_line(log: Path) -> None:
    api = Api(create_app(log, PIN))
    try:
        hand = {"trump": "S", "bid": {"player": "Ann", "amount": 6}, "called": "AS", "partner": "Cy",
                "points": {k[2:]: v for k, v in TAPS.items() if k.startswith("p.")}}
        before = log.read_bytes()
        for bad, words in ((dict(hand, called="2H"), "hands[1].called: 2H is not a trump"),
                           (dict(hand, called=5), 'hands[1].called: expected a card, such as "AH", got the number 5'),
                           (dict(hand, partner="Ann"), "hands[1].partner: Ann is the bidder"),
                           (dict(hand, kitty=["AS"]), "hands[1].kitty: call-partner-5 deals no kitty"),
                           (dict(hand, drawn={"Bob": None}), "hands[1].drawn.Bob: expected an array of cards, got null")):
            r = api.post_hand(bad)
            assert r.status_code == 400 and list(r.json()) == ["error"], r.text
            assert words in r.json()["error"] and "\n" not in r.json()["error"]
        assert log.read_bytes() == before
        r = api.post_hand({**hand, "discard": {"Bob": ["2C", "3C", "4C", "5C"]}, "drawn": {"Bob": ["6C"]}})
        assert r.status_code in (200, 201), r.text
        m = api("GET", "/api/match").json()
        last = m["hands"][-1]
        assert last["bid"]["team"] == "Ann+Cy" and last["teams"]["Bob+Dee+Eve"]["players"] == ["Bob", "Dee", "Eve"]
        assert last["deal"]["discard"] == {"Bob": ["2C", "3C", "4C", "5C"]} and last["deal"]["drawn"] == {"Bob": ["6C"]}
        html = api("GET", "/").text  # the TV: the players as sides, the partnership of the last hand
        assert re.findall(r'data-side="(\w+)"[^>]*>\s*<div class="who"><h2>', html) == FIVE
        assert "Ann+Cy bid 6 in ♠ (A♠) – made" in html
        assert "called A♠: partner Cy (Ann+Cy against Bob+Dee+Eve)" in html
    finally:
        api.close()


def test_a_count_down_board_shows_its_goal_and_starts_the_chart_at_the_target(tmp_path: Path) -> None:
    log = new_log(tmp_path / "smudge.toml", {"rules": str(HOUSE / "bicycle-smudge.toml"),
                                             "players": ["Ann", "Bob", "Cy"]})
    pitchkeeper.Logbook.open(log).append({"trump": "S", "bid": {"player": "Ann", "amount": 2},
                                          "points": {"high": "Ann", "low": "Ann", "jack": "Bob", "game": "Cy"}})
    api = Api(create_app(log, PIN))
    try:
        html = api("GET", "/").text
        assert "bicycle-smudge · down from 7 to 0" in html
        assert re.findall(r'data-score="(-?\d+)"', html) == ["5", "6", "6"]
        first = re.findall(r'<polyline class="line c\d" data-side="\w+" fill="none" points="[\d.]+,([\d.]+)', html)
        assert len(set(first)) == 1  # everyone starts at the same score, the target
        assert re.search(r'class="target-label"[^>]*>0</text>', html)
        assert re.search(r'data-side="Ann".*?class="delta up">−2</span>', html, re.S)  # Ann's -2 is a gain
    finally:
        api.close()


def test_save_writes_only_the_answers_that_were_checked_the_called_card_too(phone: Phone, log: Path) -> None:
    phone.check(TAPS)
    fields = {"csrf": token(phone.page), **TAPS, "called": "KS", **hidden(phone.page)}
    phone.post("/enter/save", fields)
    assert not hands_of(log) and "The answers changed since the verdict was shown" in phone.page
