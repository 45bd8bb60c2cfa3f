"""What a phone is told when its form no longer fits the match, or its answer is refused: in the table's
words, at the question, as a page (never a 500 or a traceback); and a tap in the auction that names a
player whose turn it is not (a second tap sent before the first was answered) refused, never given to
whoever speaks next. Only a log that cannot be read says so (503), naming the file only."""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import PIN, PLAYERS, new_log, us_and_them
from test_serve_pages import TAPS, Phone, hands_of, hidden, token
from test_serve_pages import messages as raw_messages

import pitchkeeper
from pitchkeeper.web.app import create_app

HAND = {"trump": "S", "bid": {"player": "Ann", "amount": 2},
        "points": {"high": "Us", "low": "Ann", "jack": "Them", "game": "Us"}}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return us_and_them(tmp_path / "friday.toml")


@pytest.fixture
def phone(log: Path) -> Iterator[Phone]:
    with Phone(log) as p:
        p.login()
        yield p


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
        assert ("The match log cannot be read: someone edited it by hand (friday.toml). Mend it (pitchkeeper check "
                "shows where); this page comes back by itself.") in text_of(r.text)
        assert "line" not in text_of(r.text)  # the line is `pitchkeeper check`'s (docs/serve.md): the page names the file
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
    log = us_and_them(tmp_path / "m.toml")
    p = Phone(log, create_app(log, PIN))
    p.login()
    r = tap(p, p.page, "Bob:pass", match="another-game")
    assert "A new game was started on another device" in r.text
    p.api.close()


# ---------------------------------------------------------------------------
# two phones, the same hand, its auction tapped: the slower one is asked, in the table's words


@contextlib.contextmanager
def two_phones(log: Path) -> Iterator[tuple[Phone, Phone]]:
    """Two phones at one table, both signed in: the faster one saves first."""
    app = create_app(log, PIN)
    with Phone(log, app) as fast, Phone(log, app) as slow:
        for p in (fast, slow):
            p.login()
        yield fast, slow


def tapped(phone: Phone, calls: list[str]) -> str:
    """The auction tapped call by call on `phone`: the page it leaves."""
    page = phone.page
    for call in calls:
        page = tap(phone, page, call).text
    return page


AUCTION = ["Bob:pass", "Cy:pass", "Dee:pass", "Ann:3"]  # hand 1: Ann deals, Bob speaks first
REST = {k: v for k, v in TAPS.items() if k not in ("bidder", "amount")}


def first_saved(fast: Phone) -> None:
    """The faster phone taps AUCTION and saves hand 1 with it: Ann 3."""
    page = tapped(fast, AUCTION)
    fields = {**REST, "bidder": "Ann", "amount": "3", "auction": auction_field(page)}
    fast.page = page
    fast.check(fields, **hidden(page))
    fast.save(fields)


def test_the_same_hand_tapped_on_two_phones_is_said_to_be_the_same(log: Path) -> None:
    with two_phones(log) as (fast, slow):
        opened = tapped(slow, AUCTION)  # the slower phone taps the auction for hand 1 too
        first_saved(fast)
        assert [h["auction"] for h in hands_of(log)] == [AUCTION]
        slow.page = opened
        r = slow.check({**REST, "bidder": "Ann", "amount": "3", "auction": auction_field(opened)}, **hidden(opened))
        text = text_of(r.text)
        assert "Hand 1 was saved on another device while you were entering it" in text
        assert "They are the same hand: discard yours." in text
        assert "speaks out of turn" not in text and not messages(r.text)  # nothing is wrong with the hand
        # still offered as the next hand (a deliberate answer), its auction told apart from hand 2's deal
        assert "Record mine as hand 2" in text
        moved = messages(r.text, "note")
        assert any(m.startswith("Your auction was tapped for hand 1, Ann's deal; hand 2 is Bob's deal, where Cy "
                                "speaks first, so it is left out of yours: your bid stands (Ann 3).") for m in moved)
        assert len(hands_of(log)) == 1


def test_a_different_hand_tapped_on_the_slower_phone_can_be_recorded_as_the_next(log: Path) -> None:
    with two_phones(log) as (fast, slow):
        opened = tapped(slow, ["Bob:pass", "Cy:4", "Dee:pass", "Ann:pass"])
        assert "Cy wins the bid at 4" in opened
        first_saved(fast)
        slow.page = opened
        mine = {**REST, "bidder": "Cy", "amount": "4", "auction": auction_field(opened)}
        r = slow.check(mine, **hidden(opened))
        text = text_of(r.text)
        assert "They are the same hand" not in text and "speaks out of turn" not in text
        assert "Yours, as hand 2" in text and "Cy bid 4 in ♥" in text and "Record mine as hand 2" in text
        slow.page = r.text
        r = slow.save({**mine, "auction": ""})  # as the page sends it: the auction left out, the bid kept
        assert "Hand 2 saved." in r.text
        second = hands_of(log)[1]
        assert second["bid"] == {"player": "Cy", "amount": 4} and "auction" not in second and second["dealer"] == "Bob"


def test_an_auction_that_fits_the_next_deal_is_kept(log: Path) -> None:
    """An auction tapped with its dealer answered (under More) is that deal's: it fits the next hand too."""
    with two_phones(log) as (fast, slow):
        opened = slow.page
        mine = {**REST, "bidder": "Cy", "amount": "4", "dealer": "Bob", "auction": "Cy:4 Dee:pass Ann:pass Bob:pass"}
        first_saved(fast)
        slow.page = opened
        r = slow.check(mine, **hidden(opened))
        assert "Record mine as hand 2" in r.text and 'id="auction-moved"' not in r.text
        slow.page = r.text
        slow.save(mine)
        assert hands_of(log)[1]["auction"] == ["Cy:4", "Dee:pass", "Ann:pass", "Bob:pass"]


def test_a_sale_tapped_for_a_hand_saved_elsewhere_must_be_tapped_again(tmp_path: Path) -> None:
    log = new_log(tmp_path / "sale.toml", {"rules": "auction-pitch", "players": PLAYERS})
    with two_phones(log) as (fast, slow):
        rest = {"trump": "S", "mode": "points", "p.high": "Dee", "p.low": "Dee", "p.jack": "Cy", "p.game": "Dee"}
        calls = ["Bob:pass", "Cy:2", "Dee:3", "Ann:pass", "Bob:sell"]
        opened = tapped(slow, calls)
        assert "Dee wins the bid at 3, bought from Bob" in text_of(opened)
        page = tapped(fast, ["Bob:pass", "Cy:2", "Dee:3", "Ann:pass", "Bob:3"])
        fields = {**rest, "bidder": "Bob", "amount": "3", "auction": auction_field(page)}
        fast.page = page
        fast.check(fields, **hidden(page))
        fast.save(fields)
        slow.page = opened
        r = slow.check({**rest, "bidder": "Dee", "amount": "3", "auction": auction_field(opened)}, **hidden(opened))
        text = text_of(r.text)
        assert "That auction sold the pitch, which the bid alone cannot say: tap hand 2's auction again" in text
        assert "Record mine" not in text and "speaks out of turn" not in text and "Discard mine" in text
        # the auction section is hand 2's now: Cy speaks first after Bob's deal
        assert re.search(r'id="auction-turn"><b>Cy</b> speaks first', r.text)
        assert len(hands_of(log)) == 1


# ---------------------------------------------------------------------------
# correcting on a phone a hand entered at the command line


def test_a_hand_whose_dealt_point_went_to_a_side_opens_as_recorded(phone: Phone, log: Path) -> None:
    from typer.testing import CliRunner

    from pitchkeeper.cli import app

    r = CliRunner().invoke(app, ["hand", "Ann", "3", "S", "--high", "Us", "--low", "Them", "--jack", "Us", "--game",
                                 "Us", "--rest", "none", "--match", str(log)])
    assert r.exit_code == 0, r.output
    page = phone.api("GET", "/enter/hand/1").text
    # low goes to the player dealt it, the page asks a player; the CLI took a side: shown as recorded, and said
    assert re.search(r'name="p.low" value="Them" checked', page)
    note = re.search(r'<p class="hint recorded" id="note-low">([^<]+)</p>', page)
    assert note and html.unescape(note.group(1)) == ("This hand was recorded with low for Them, a side, not the "
                                                     "player dealt it: keep Them, or tap who was dealt it.")
    fields = dict(re.findall(r'name="(p\.[\w-]+)" value="([^"]+)" checked', page))
    assert fields == {"p.high": "Us", "p.low": "Them", "p.jack": "Us", "p.off-jack": "-", "p.high-joker": "-",
                      "p.low-joker": "-", "p.game": "Us"}
    phone.page = page
    answers = {"bidder": "Ann", "amount": "3", "trump": "S", **fields, "p.game": "Them"}
    r = phone.check(answers, number="1")
    assert not messages(r.text) and "What changes" in r.text and "game: Us → Them" in text_of(r.text)
    phone.page = r.text
    r = phone.save(answers)
    assert "Hand 1 saved." in r.text
    assert hands_of(log)[0]["points"] == {"high": "Us", "low": "Them", "jack": "Us", "game": "Them"}


def test_no_answer_yet_names_only_the_buttons_the_question_has(phone: Phone) -> None:
    def said(missing: list[str]) -> str:
        r = phone.check({k: v for k, v in TAPS.items() if k not in missing})
        return messages(r.text)[0]

    buttons = {"high": None, "low": None, "game": "'tie'", "off-jack": "'not out'"}
    # high and low are always out in seven-point (no 'not out' button); low goes to the player dealt it
    assert said(["p.low"]) == "Who was dealt low? No answer yet. Tap the player dealt it"
    assert said(["p.high"]) == "Who took high? No answer yet. Tap who won it"
    assert said(["p.game"]) == "Who won game? No answer yet. Tap 'tie' where nobody won it"
    assert said(["p.off-jack"]) == "Who took off-jack? No answer yet. Tap 'not out' where nobody won it"
    assert said(["p.high", "p.game"]).endswith("Tap 'tie' where nobody won it")
    page = phone.page
    for point, button in buttons.items():
        offered = re.findall(rf'data-q="p\.{point}" data-v="([^"]+)"', page)
        assert ("-" in offered) == (button == "'not out'") and ("tie" in offered) == (button == "'tie'")


def test_a_card_whose_point_goes_to_the_player_dealt_it_asks_for_that_player_in_the_pages_words(phone: Phone) -> None:
    us = "AH 2H KS QS JS 10S 9S 8S 7S 6S 5S 4S"
    them = "3H JH 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    r = phone.check({"bidder": "Bob", "amount": "2", "trump": "H", "mode": "cards", "c.Us": us, "c.Them": them})
    error = messages(r.text)[0]
    assert error == "Who was dealt which card: 2H goes to the player dealt it: type 2H beside the player dealt it"
    assert re.search(r'class="by-cards has-error" aria-invalid="true" id="q-cards"', r.text)


def test_names_with_spaces_tap_the_auction_and_take_back(tmp_path: Path) -> None:
    log = new_log(tmp_path / "spaces.toml", {"rules": "seven-point", "players": ["Ann", "Bob", "Mary Ann", "Dee Dee"],
                                             "teams": {"Us": ["Ann", "Mary Ann"], "Them": ["Bob", "Dee Dee"]}})
    p = Phone(log)
    p.login()
    try:
        page = p.page
        for call in ("Bob:pass", "Mary Ann:3", "Dee Dee:4"):
            page = tap(p, page, call).text
        assert not messages(page) and auction_field(page) == "Bob:pass Mary Ann:3 Dee Dee:4"
        page = tap(p, page, "<").text  # take back Dee Dee's call
        assert auction_field(page) == "Bob:pass Mary Ann:3"
        assert re.search(r'id="auction-turn"><b>Dee Dee</b>', page)
        page = tap(p, page, "Dee Dee:pass").text
        page = tap(p, page, "Ann:pass").text
        assert "Mary Ann wins the bid at 3" in page
    finally:
        p.api.close()


def test_a_new_game_from_the_phone_refuses_a_name_no_auction_could_hold(_home: Path) -> None:
    from pitchkeeper.logbook import shelf

    first = shelf.start("seven-point", PLAYERS, target=3)
    p = Phone(first.path, create_app(first.path, PIN, follow=True))
    p.login()
    first.append({"trump": "S", "bid": {"player": "Ann", "amount": 3},
                  "points": {"high": "Us", "low": "Ann", "jack": "Us", "game": "Us"}})
    try:
        page = p.page = p.api("GET", "/enter").text
        fields = {"csrf": token(page), "how": "new", "rules": "cutthroat-pitch", "players": "Ann:2, Bob, Cy",
                  "teams_how": "solo", **hidden(page)}
        r = p.post("/enter/next", fields)
        assert messages(r.text)[0] == ("Players: 'Ann:2' holds ':': a name may not hold ':' or ',' (the auction is "
                                       "written Name:call, and names are listed between commas)")
        assert len(shelf.kept()) == 1
    finally:
        p.api.close()
